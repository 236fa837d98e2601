// The store-mode room's side of the bridge (docs/store-mode.md): whether this till is in store mode,
// the tills it hears from, and the other tills' open orders as replicated over the LAN, with who owns
// each and whether it has reached the cloud. Reads only: changing another till's order comes later.
import { z } from 'zod';

const IsoTime = z.iso.datetime({ offset: true });
/** A till's id: the hex SHA-256 of its public key. */
const TillId = z.string().regex(/^[0-9a-f]{64}$/);
/** The bridge's money shape (integer minor units and a lowercase ISO 4217 code), so the screens format it as any amount. */
const Amount = z.strictObject({ amount: z.number().int(), currency: z.string().regex(/^[a-z]{3}$/) });
/** Refusals by reason (no client certificate, untrusted certificate, forged till id, …): each changed nothing. */
const RefusalCounts = z.record(z.string(), z.number().int().min(0));

export const StoreModePeer = z.object({
  /**
   * host:port as configured; null for a till known only from its log replicated here (not heard
   * from since this till started: a till that went quiet before a restart stays listed).
   */
  address: z.string().nullable(),
  /** Null until the peer has answered once (its certificate names it). */
  tillId: TillId.nullable(),
  name: z.string().nullable(),
  lastHeardAt: IsoTime.nullable(),
  /** Orders it holds that have not reached the cloud (the order, or money taken on it), as far as its log says. */
  ordersNotInCloud: z.number().int().min(0),
  /** Refusals this till counted pulling from it. */
  refusals: RefusalCounts,
  /** Times its log was found replaced and read again from the start. */
  logReplacements: z.number().int().min(0),
  /** What went wrong last, in words, while it has not answered since; null when it answers. */
  problem: z.string().nullable(),
});
export type StoreModePeer = z.infer<typeof StoreModePeer>;

export const StoreModeStatus = z.object({
  mode: z.enum(['on', 'off']),
  /** This till in its store; null when store mode is off. */
  till: z.object({ id: TillId, name: z.string(), listen: z.string() }).nullable(),
  /** Refusals this till's feed counted (requests it refused). */
  refusals: RefusalCounts,
  peers: z.array(StoreModePeer),
});
export type StoreModeStatus = z.infer<typeof StoreModeStatus>;

export const StoreModeOrder = z.object({
  id: z.string(),
  number: z.string().nullable(),
  /** What people call it: its number, else the end of its id. */
  label: z.string(),
  serviceType: z.enum(['dine_in', 'takeout', 'delivery']).nullable(),
  table: z.string().nullable(),
  customerName: z.string().nullable(),
  total: Amount,
  /** Taken toward it, tips left out, less what was given back. */
  paid: Amount,
  ownerTillId: TillId,
  ownerTillName: z.string().nullable(),
  /** The order and the money taken on it are in the cloud, as its owner last said. */
  reachedCloud: z.boolean(),
  createdAt: IsoTime,
  updatedAt: IsoTime,
  ownerLastHeardAt: IsoTime.nullable(),
});
export type StoreModeOrder = z.infer<typeof StoreModeOrder>;

export const StoreModeOrders = z.object({ orders: z.array(StoreModeOrder) });
export type StoreModeOrders = z.infer<typeof StoreModeOrders>;

function command<P extends z.ZodType, R extends z.ZodType>(payload: P, result: R) {
  return { payload, result };
}

const Empty = z.strictObject({}).default({});

export const storeModeCommands = {
  /** On or off, this till, the tills it pulls from and what each refused. */
  'storeMode.status': command(Empty, StoreModeStatus),
  /** The other tills' open orders, oldest first (this till's own are in orders.list). */
  'storeMode.orders': command(Empty, StoreModeOrders),
};
