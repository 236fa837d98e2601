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

export const SyncStatus = z.object({
  /** The last request (a push, a pull or the idle connectivity probe) reached the server: any HTTP answer counts; only transport failures mean offline. */
  online: z.boolean(),
  /** Operations in the outbox not yet confirmed by the server (dead letters excluded). */
  pending: z.number().int().nonnegative(),
  /** Age of the oldest pending operation, or null when the outbox is empty. */
  oldestPendingAgeMs: z.number().nonnegative().nullable(),
  lastPushAt: z.number().nullable(),
  lastPullAt: z.number().nullable(),
  deadLetters: z.number().int().nonnegative(),
  backoff: SyncBackoff.nullable(),
  credentials: CredentialsState,
  lastError: z.string().nullable(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;
