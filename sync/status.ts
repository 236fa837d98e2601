// What the cashier sees about sync: the banner, the pending counter and the dead-letter badge are
// all drawn from this one shape, which main/core forwards over the bridge.
import { z } from 'zod';

export const CredentialsState = z.enum(['ok', 'missing', 'rejected', 'insufficient_permission']);
export type CredentialsState = z.infer<typeof CredentialsState>;

export const SyncBackoff = z.object({
  /** Epoch ms at which the next automatic attempt is due. */
  untilMs: z.number(),
  reason: z.string(),
});
export type SyncBackoff = z.infer<typeof SyncBackoff>;

/**
 * Why the configured server cannot be used, when it is not a plain outage: its name does not
 * resolve, it refuses connections and has not answered since sync started, or it answers but
 * not as a /v1 API would (no /locations, a web page).
 */
export const ReachProblem = z.object({
  kind: z.enum(['dns_not_found', 'refused', 'not_an_api']),
  /** host[:port] of the configured API. */
  host: z.string(),
});
export type ReachProblem = z.infer<typeof ReachProblem>;

/** The server answered, but what it sent for one kind of data could not be read. */
export const ReadProblem = z.object({
  /** Which data: 'locations', 'menu categories', 'menu items' or 'orders'. */
  scope: z.string(),
  detail: z.string(),
  since: z.number(),
});
export type ReadProblem = z.infer<typeof ReadProblem>;

export const SyncStatus = z.object({
  /** The last request (a push, a pull or the idle connectivity probe) reached the server: any HTTP answer counts; only transport failures mean offline. */
  online: z.boolean(),
  /** Operations in the outbox not yet confirmed by the server (dead letters excluded). */
  pending: z.number().int().nonnegative(),
  /** Age of the oldest pending operation, or null when the outbox is empty. */
  oldestPendingAgeMs: z.number().nonnegative().nullable(),
  lastPushAt: z.number().nullable(),
  lastPullAt: z.number().nullable(),
  /** The menu part of the last pull, which ends before its orders: the register refreshes its menu then. */
  menuPulledAt: z.number().nullable(),
  deadLetters: z.number().int().nonnegative(),
  backoff: SyncBackoff.nullable(),
  credentials: CredentialsState,
  lastError: z.string().nullable(),
  reachProblem: ReachProblem.nullable(),
  /** Data the last pull could not read (the rest was pulled); empty when it read everything. */
  readProblems: z.array(ReadProblem),
  /** A full pull of the menu and of the orders has completed on this terminal at least once. */
  initialSyncDone: z.boolean(),
  /** The full order pull under way: orders written so far of how many the server lists (null: not known yet). */
  orderProgress: z.object({ done: z.number().int().nonnegative(), total: z.number().int().nonnegative().nullable() }).nullable(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;
