// The store-mode room's side of the bridge (docs/store-mode.md): whether this till is in store mode,
// the tills it hears from, the other tills' open orders as replicated over the LAN, with who owns
// each and whether it has reached the cloud, and changes to them forwarded to their owner.
import { z } from 'zod';
import { command, Empty, IsoTime, ManagerPin } from '../primitives';

/** A till's id: the hex SHA-256 of its public key. */
const TillId = z.string().regex(/^[0-9a-f]{64}$/);
/**
 * The caps of bridge/money.ts (MAX_AMOUNT, MAX_TILL_CASH), repeated: this room's shapes stand alone.
 * test/core/bridge-caps.test.ts checks they agree.
 */
export const PAYMENT_CAPS = { amount: 100_000_000, tillCash: 10_000_000 } as const;
const { amount: MAX_AMOUNT, tillCash: MAX_TILL_CASH } = PAYMENT_CAPS;
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
  /** How its address was learned: IT's peer list, or DNS-SD on the LAN; null for a till known only from its log. */
  source: z.enum(['configured', 'discovered']).nullable(),
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
  /** Its orders this till may take over now (open, or not in the cloud), none adopted yet; 0 while adoptionRefusal says why not. */
  adoptableOrders: z.number().int().min(0),
  /** Why its orders cannot be adopted now (it answers, it was heard from lately), in words; null when they can. */
  adoptionRefusal: z.string().nullable(),
});
export type StoreModePeer = z.infer<typeof StoreModePeer>;

/** Pairing a new till by a short code: the code this till shows now, and how the last one ended. */
export const StoreModePairing = z.object({
  /** A code is shown on this till and its pairing listener is open; the code itself only ever goes to the screen that asked for it. */
  open: z.object({ address: z.string(), expiresAt: IsoTime, wrongCodes: z.number().int().min(0) }).nullable(),
  /** How the last code ended: a till joined (its name), it expired, was guessed wrong too often, or was taken back. */
  last: z.object({ outcome: z.enum(['paired', 'expired', 'tooManyWrongCodes', 'cancelled']), tillName: z.string().nullable(), at: IsoTime }).nullable(),
});
export type StoreModePairing = z.infer<typeof StoreModePairing>;

export const StoreModeStatus = z.object({
  /** 'unpaired': store mode is on, but this till holds no store secret yet; a manager pairs it (storeMode.join). */
  mode: z.enum(['on', 'off', 'unpaired']),
  /** This till in its store; null when store mode is off or the till is not paired yet. */
  till: z.object({ id: TillId, name: z.string(), listen: z.string() }).nullable(),
  /** Refusals this till's feed counted (requests it refused). */
  refusals: RefusalCounts,
  peers: z.array(StoreModePeer),
  pairing: StoreModePairing,
});
export type StoreModeStatus = z.infer<typeof StoreModeStatus>;

/** The bridge's order discount (bridge/contract.ts Discount), repeated: this room's shapes stand alone. */
const Discount = z
  .strictObject({
    kind: z.enum(['percent', 'amount']),
    value: z.number().int().positive().max(100_000_000),
    reason: z.string().trim().min(1, 'give the discount a reason').max(100),
  })
  .refine((d) => d.kind !== 'percent' || d.value <= 10_000, { message: 'a discount is at most 100%', path: ['value'] });

/**
 * A line of another till's order as a change states it: orders.update's line, without seat and
 * course (the owner keeps each line's own, as it does for a screen that does not know them).
 */
export const ForwardLine = z.strictObject({
  menuItemId: z.string().min(1).max(80),
  quantity: z.number().int().min(1).max(999),
  modifierIds: z.array(z.string().min(1).max(80)).max(20).default([]),
  note: z.string().trim().max(140).default(''),
  discount: Discount.nullable().default(null),
});
export type ForwardLine = z.infer<typeof ForwardLine>;

/** How the bill is shared (bridge/contract.ts SplitPlan), repeated: evenly by N, or line by line into numbered checks. */
const SplitPlan = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('even'), parts: z.number().int().min(2).max(20) }),
  /** assignment[i]: the check (1-based) line i goes to; 0: shared evenly by every check. */
  z.strictObject({ kind: z.literal('items'), assignment: z.array(z.number().int().min(0).max(20)).min(1).max(100) }),
]);

/** What a till may change on another till's order through storeMode.changeOrder (a payment goes through storeMode.takePayment). */
export const ForwardChange = z.discriminatedUnion('kind', [
  /** The order's lines as they should be (lines added, quantities changed), as orders.update takes them. */
  z.strictObject({ kind: z.literal('lines'), lines: z.array(ForwardLine).min(1, 'an order needs at least one item').max(100, 'an order has at most 100 lines') }),
  z.strictObject({ kind: z.literal('cancel'), reason: z.string().trim().min(1, 'say why the order is cancelled').max(120) }),
  /** Marked fulfilled (done, handed over): what a kitchen display's bump sends. */
  z.strictObject({ kind: z.literal('fulfil') }),
  /** The order's own discount (off what its lines come to after theirs), or none (null). */
  z.strictObject({ kind: z.literal('discount'), discount: Discount.nullable() }),
  /** How the bill is split, or not at all (null), as orders.update's split. */
  z.strictObject({ kind: z.literal('split'), split: SplitPlan.nullable() }),
]);
export type ForwardChange = z.infer<typeof ForwardChange>;

/**
 * A payment taken on this till toward another till's order, as it travels to the owner: the money
 * is in this till's drawer (cash) or was charged here (card); the owner records it on the order with
 * this id, outside its own drawer. Made only by storeMode.takePayment, never accepted from a screen.
 */
export const PaymentChange = z.strictObject({
  kind: z.literal('payment'),
  paymentId: z.string().min(1).max(80),
  method: z.enum(['cash', 'card']),
  /** Toward the order, tip left out. */
  amount: z.number().int().positive().max(MAX_AMOUNT),
  tip: z.number().int().min(0).max(MAX_AMOUNT),
  /** The part of a split bill it pays ("2 of 3"); null: toward the whole. Older tills send none. */
  splitPart: z.string().min(1).max(20).nullable().default(null),
});
export type PaymentChange = z.infer<typeof PaymentChange>;

/** Every change a forward may carry: the screens' own, and a payment taken here. */
export const ForwardedChange = z.discriminatedUnion('kind', [...ForwardChange.options, PaymentChange]);
export type ForwardedChange = z.infer<typeof ForwardedChange>;

/** A change this till sent to another till's order, and what became of it. */
export const StoreModeForward = z.object({
  id: z.string(),
  orderId: z.string(),
  ownerTillId: TillId,
  ownerTillName: z.string().nullable(),
  change: ForwardedChange,
  /** Who made it here. */
  byName: z.string(),
  /** pending: durable here, not applied by the owner yet; refused: the owner said why. */
  state: z.enum(['pending', 'applied', 'refused']),
  /** The owner's reason, in words, when refused. */
  reason: z.string().nullable(),
  /** "Sent to Bar, waiting for it", "Bar refused: …". */
  sentence: z.string(),
  /**
   * A cash payment the owner refused, still in this till's drawer: hand it back to the guest and
   * say so (storeMode.giveBack); null otherwise (a refused card payment was never charged).
   */
  giveBack: Amount.nullable(),
  createdAt: IsoTime,
});
export type StoreModeForward = z.infer<typeof StoreModeForward>;

/** A line of a replicated order, as its owner last logged it. */
export const StoreModeOrderLine = z.object({
  menuItemId: z.string(),
  name: z.string(),
  quantity: z.number().int().positive(),
  modifierIds: z.array(z.string()),
  modifierNames: z.array(z.string()),
  note: z.string(),
  discount: Discount.nullable(),
});
export type StoreModeOrderLine = z.infer<typeof StoreModeOrderLine>;

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
  lines: z.array(StoreModeOrderLine),
  /** The order's own discount, as its owner last logged it. */
  discount: Discount.nullable(),
  /** What an order discount comes off: the lines after their own discounts, before tax. */
  discountBase: Amount,
  /** How its bill is split, each part's amount (the owner's pricing) and whether the owner has it paid; null: not split. */
  split: z.object({ plan: SplitPlan, parts: z.array(z.object({ label: z.string(), amount: z.number().int(), paid: z.boolean() })) }).nullable(),
  /** This till's changes to it that its owner has not applied (pending) or refused lately, oldest first. */
  forwards: z.array(StoreModeForward),
});
export type StoreModeOrder = z.infer<typeof StoreModeOrder>;

export const StoreModeOrders = z.object({
  orders: z.array(StoreModeOrder),
  /** This till's changes waiting or refused whose order is not listed (closed, or not heard of yet): shown apart. */
  forwardsElsewhere: z.array(StoreModeForward),
});
export type StoreModeOrders = z.infer<typeof StoreModeOrders>;

export const StoreModeForwards = z.object({ forwards: z.array(StoreModeForward) });
export type StoreModeForwards = z.infer<typeof StoreModeForwards>;

/** One till's figures for the store's day (docs/staff.md, "The store's day"): money in integer minor units. */
export const StoreDayFigures = z.object({
  /** Sales: orders sold, and what they came to (net before tax, tax; total as checked). Null: not carried by its replicas. */
  orders: z.number().int().min(0),
  net: z.number().int().nullable(),
  tax: z.number().int().nullable(),
  total: z.number().int(),
  /** Taken toward orders, by tender (tips apart). */
  cash: z.number().int(),
  card: z.number().int(),
  /** Tips on top of payments; the automatic gratuity they carried is inside. */
  tips: z.number().int(),
  gratuity: z.number().int(),
  refunds: z.number().int(),
  voids: z.object({ count: z.number().int().min(0), amount: z.number().int() }),
  /** Still open with money due at the report's time: not sales. */
  openChecks: z.object({ count: z.number().int().min(0), total: z.number().int(), due: z.number().int() }),
});
export type StoreDayFigures = z.infer<typeof StoreDayFigures>;

export const StoreDayTill = z.object({
  tillId: z.string(),
  name: z.string().nullable(),
  /** This till: its own Z report's figures. */
  self: z.boolean(),
  lastHeardAt: IsoTime.nullable(),
  figures: StoreDayFigures,
});

/** The business day across every till this one knows: each till's row, and the store's totals (exactly their sum). */
export const StoreDay = z.object({
  businessDay: z.string(),
  currency: z.string(),
  /** When the day closed (the next one began), or will. */
  closesAt: IsoTime,
  tills: z.array(StoreDayTill),
  totals: StoreDayFigures,
  /** One plain sentence per till whose figures may be incomplete (not heard from since before the day closed). */
  incomplete: z.array(z.string()),
  /** What the replicas do not carry, in sentences: those figures stay on each till's own Z report. */
  perTillOnly: z.array(z.string()),
});
export type StoreDay = z.infer<typeof StoreDay>;

/** Orders taken over from a quiet till. */
export const StoreModeAdoption = z.object({
  tillId: TillId,
  tillName: z.string().nullable(),
  orders: z.number().int().min(0),
  /** Changes copied to this till's outbox, to send in the quiet till's place. */
  operations: z.number().int().min(0),
  labels: z.array(z.string()),
  /** "Took over 4 orders from Bar (B12, B13, …): …". */
  sentence: z.string(),
});
export type StoreModeAdoption = z.infer<typeof StoreModeAdoption>;

/** How long a pairing code works. */
export const PAIRING_CODE_LIFETIME_MS = 5 * 60_000;

/** A pairing code for a new till, to read out or type there: shown for 5 minutes, one use. */
export const StoreModePairingCode = z.object({
  /** "1234 5678". */
  code: z.string(),
  /** host:port the new till types (this till's pairing listener). */
  address: z.string(),
  expiresAt: IsoTime,
  tillName: z.string(),
});
export type StoreModePairingCode = z.infer<typeof StoreModePairingCode>;

export const StoreModeJoined = z.object({
  /** The till that gave the code. */
  pairedWith: z.string(),
  /** "This till is now in the store (paired with Bar)…". */
  sentence: z.string(),
});
export type StoreModeJoined = z.infer<typeof StoreModeJoined>;

export const storeModeCommands = {
  /** On or off, this till, the tills it pulls from and what each refused. */
  'storeMode.status': command(Empty, StoreModeStatus),
  /** The other tills' open orders, oldest first (this till's own are in orders.list), with this till's changes not applied yet. */
  'storeMode.orders': command(Empty, StoreModeOrders),
  /** This till's forwarded changes waiting for their owner, and those refused in the last hour. */
  'storeMode.forwards': command(Empty, StoreModeForwards),
  /**
   * Changes an open order another till owns: checked here with this till's permissions and PIN
   * approvals as the same change of an own order would be, then durable in this till's log before
   * the answer ("sent"); the owner applies it once when it pulls this till. An order this till owns:
   * refused (use orders.update / orders.cancel / orders.fulfil); one no till here knows: not_found.
   */
  'storeMode.changeOrder': command(
    z.strictObject({ orderId: z.string().min(1).max(80), change: ForwardChange, managerPin: z.string().regex(/^\d{4,8}$/, 'a PIN is 4 to 8 digits').optional() }),
    StoreModeForward,
  ),
  /**
   * Takes a payment here toward an open order another till owns, with the permissions payments.take
   * needs (another server's order: 'order.adopt'; an offline card above the limits: a manager): cash
   * goes into this till's open drawer, a card is charged here. Durable in this till's log with the
   * drawer's record in one transaction; the owner records it on the order once, outside its own
   * drawer. At most what is due, less what this till sent already and the owner has not applied.
   */
  'storeMode.takePayment': command(
    z.strictObject({
      orderId: z.string().min(1).max(80),
      method: z.enum(['cash', 'card']),
      amount: z.number().int().positive('a payment is more than nothing').max(MAX_AMOUNT),
      tip: z.number().int().min(0, 'a tip cannot be negative').max(MAX_AMOUNT).default(0),
      /** Cash handed over (change is given back); null: the exact amount. */
      tendered: z.number().int().positive().max(MAX_TILL_CASH, 'that is more cash than any till holds').nullable().default(null),
      /** The part of the split bill it pays (its label); null: toward the whole. */
      splitPart: z.string().trim().min(1).max(20).nullable().default(null),
      managerPin: ManagerPin.optional(),
    }),
    z.object({ forward: StoreModeForward, change: z.number().int().min(0) }),
  ),
  /**
   * The cash of a payment the owner refused is handed back to the guest: it leaves this till's
   * open drawer as a paid-out naming the order, once (a repeat is refused).
   */
  'storeMode.giveBack': command(z.strictObject({ forwardId: z.string().min(1).max(80) }), StoreModeForward),
  /**
   * Takes over the orders a quiet till holds that the cloud does not have, and its open ones
   * ('store.adopt', a manager's PIN): once it has not answered for 2 minutes. This till sends them
   * with the same operation ids (the cloud gets each once) and they are changed here from then on.
   */
  'storeMode.adoptTill': command(
    z.strictObject({ tillId: TillId, managerPin: z.string().regex(/^\d{4,8}$/, 'a PIN is 4 to 8 digits').optional() }),
    StoreModeAdoption,
  ),
  /**
   * A code to pair a new till into the store ('store.pair', a manager's PIN): this till opens its pairing
   * listener (its store address's next port) for 5 minutes, for one pairing, or until 3 wrong codes.
   * Asking again replaces the code.
   */
  'storeMode.pairingCode': command(z.strictObject({ managerPin: ManagerPin.optional() }).default({}), StoreModePairingCode),
  /** Takes the shown code back: the listener closes. */
  'storeMode.cancelPairing': command(Empty, StoreModePairing),
  /**
   * Joins the store with the code another till shows ('store.pair', a manager's PIN), on a till in store
   * mode that has no store secret yet: the secret goes to the secret store, and store mode starts.
   */
  'storeMode.join': command(
    z.strictObject({
      address: z.string().trim().min(1, 'type the address the other till shows').max(100),
      code: z.string().trim().min(1, 'type the code the other till shows').max(20),
      managerPin: ManagerPin.optional(),
    }),
    StoreModeJoined,
  ),
  /** The business day across the store's tills (default: the current one); the permission of reports.z. */
  'reports.storeZ': command(z.strictObject({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a business day is YYYY-MM-DD').optional(), managerPin: z.string().regex(/^\d{4,8}$/, 'a PIN is 4 to 8 digits').optional() }).default({}), StoreDay),
};

export const storeModeEvents = {
  /** A page of another till's log was applied here: the store's orders, tills and forwards may have changed. */
  'storeMode.replicated': z.object({}),
};

/** The commands that only read (the screens poll them: they keep no till awake). */
export const STORE_MODE_READS = ['storeMode.status', 'storeMode.orders', 'storeMode.forwards'] as const satisfies readonly (keyof typeof storeModeCommands)[];
