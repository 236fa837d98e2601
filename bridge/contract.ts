// Every command, query and event between the renderer and the main process, as zod schemas.
// The shells validate each request against `commands[name].payload` before the core sees it, and
// the renderer's client derives its types from the same table: one source of truth, no drift.
// The rooms' shapes are in their own contracts (bridge/<room>/contract.ts), merged in here.
import { z } from 'zod';
import { MAX_AMOUNT } from './money';
import { GRATUITY_NAME_MAX, GRATUITY_PERCENT_MAX_BPS } from './checkout/gratuity';
import { command, Empty, Id, IsoTime, ManagerPin, PaymentMethod, TillCash, Total } from './primitives';
import { printingCommands, printingEvents } from './printing/contract';
import { reportsCommands } from './reports/contract';
import { staffCommands, staffEvents } from './staff/contract';
import { storeModeCommands, storeModeEvents } from './store-mode/contract';
import { kitchenCommands } from './kitchen/contract';
import { SeatNumber, tableCommands, tableEvents } from './tables/contract';

export { MAX_AMOUNT };
/** Amounts are integer minor units (cents) of the location's currency. */
const Amount = z.number().int().nonnegative().max(MAX_AMOUNT);
const PositiveAmount = z.number().int().positive().max(MAX_AMOUNT);
/**
 * The most lines an order may have: what /v1 takes (api/requests.ts ORDER_LINES_MAX; docs/spec-gaps.md,
 * POST /orders). The bridge may not import api/, so the figure is repeated; test/core/bridge-caps.test.ts checks they agree.
 * An order the till took but the cloud cannot would be refused after the customer paid.
 */
export const ORDER_LINES_MAX = 100;



export const Category = z.object({ id: Id, name: z.string(), position: z.number().int() });
export type Category = z.infer<typeof Category>;

export const Modifier = z.object({ id: Id, name: z.string(), price: z.number().int() });
export type Modifier = z.infer<typeof Modifier>;

/** Choices asked together when the item is tapped: "Size" (exactly one), "Extras" (up to 3). */
export const ModifierGroup = z.object({
  id: Id,
  name: z.string(),
  /** At least this many must be chosen: 1 makes the group required. */
  min: z.number().int().nonnegative(),
  /** At most this many; null: no limit. */
  max: z.number().int().positive().nullable(),
  modifierIds: z.array(Id),
});
export type ModifierGroup = z.infer<typeof ModifierGroup>;

// ---- checkout: tax, discounts, tips, splits (arithmetic in bridge/checkout) ----

export const TaxRate = z.object({
  /** The class of items it applies to ("food", "alcohol", "standard"). */
  taxClass: z.string().trim().min(1).max(40),
  name: z.string().trim().min(1).max(60),
  /** Parts per million of the amount: 88_750 is 8.875% (finer than basis points: real rates have three decimals). */
  ratePpm: z.number().int().min(0).max(1_000_000),
});
export type TaxRate = z.infer<typeof TaxRate>;

export const TaxRounding = z.enum(['per_line', 'per_order']);
export type TaxRounding = z.infer<typeof TaxRounding>;

export const PricingRules = z.object({
  /** Menu prices include tax (VAT style); else tax is added on top. */
  taxIncluded: z.boolean(),
  rounding: TaxRounding,
  rates: z.array(TaxRate).max(50),
});
export type PricingRules = z.infer<typeof PricingRules>;

/** A discount as the cashier asks for it; a comp is 100% off a line, with its reason. */
export const Discount = z
  .strictObject({
    kind: z.enum(['percent', 'amount']),
    /** percent: basis points (1000 = 10%, 10000 = 100%); amount: minor units. */
    value: z.number().int().positive().max(MAX_AMOUNT),
    /** At most what the cloud keeps (docs/spec-gaps.md, Checkout: discounts, reason 1–100). */
    reason: z.string().trim().min(1, 'give the discount a reason').max(100),
  })
  .refine((d) => d.kind !== 'percent' || d.value <= 10_000, { message: 'a discount is at most 100%', path: ['value'] });
export type Discount = z.infer<typeof Discount>;

/** A discount with what it took off. */
export const AppliedDiscount = z.object({ kind: z.enum(['percent', 'amount']), value: z.number().int(), reason: z.string(), amount: z.number().int() });
export type AppliedDiscount = z.infer<typeof AppliedDiscount>;

export const OrderType = z.enum(['dine_in', 'takeout', 'delivery']);
export type OrderType = z.infer<typeof OrderType>;

/** How the order is served: at a table (its number, the guests), to take away (the customer's name), or delivered. */
export const Service = z
  .strictObject({
    type: OrderType,
    table: z.string().trim().min(1).max(12).nullable().default(null),
    guests: z.number().int().min(1).max(99).nullable().default(null),
  })
  .refine((s) => s.type !== 'dine_in' || s.table !== null, { message: 'a dine-in order needs a table number', path: ['table'] });
export type Service = z.infer<typeof Service>;

/** How one order's bill is shared: evenly by N, or line by line into numbered checks. */
export const SplitPlan = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('even'), parts: z.number().int().min(2).max(20) }),
  /** assignment[i]: the check (1-based) line i goes to; 0: shared evenly by every check (a split by seat's lines for the table). */
  z.strictObject({ kind: z.literal('items'), assignment: z.array(z.number().int().min(0).max(20)).min(1).max(ORDER_LINES_MAX) }),
]);
export type SplitPlan = z.infer<typeof SplitPlan>;

/** The restaurant's automatic gratuity: who gets it, how much, under what name, taxed or not. */
export const AutoGratuityRule = z.strictObject({
  name: z.string().trim().min(1, 'give the gratuity a name for the check, e.g. "Gratuity"').max(GRATUITY_NAME_MAX, `at most ${GRATUITY_NAME_MAX} characters`),
  percentBps: z.number().int().min(1, 'a gratuity is more than 0%').max(GRATUITY_PERCENT_MAX_BPS, `a gratuity is at most ${GRATUITY_PERCENT_MAX_BPS / 100}%`),
  minGuests: z.number().int().min(2, 'parties of 2 guests or more').max(99, 'parties of at most 99 guests'),
  /** The tax class whose rates tax it; null: not taxed. */
  taxClass: z.string().trim().min(1).max(40).nullable(),
});

/** What the till asks of a checkout, as IT and the manager set it. */
export const CheckoutRules = z.object({
  /** This till's letter in order numbers (A17): unique among the store's tills. */
  tillLetter: z.string().regex(/^[A-Z]$/, 'a till letter is one capital letter, A to Z'),
  /** Suggested tips on the payment screen, basis points (1500 = 15%); up to 4. */
  tipPercents: z.array(z.number().int().min(0).max(10_000)).max(4),
  /** Whether a tip can be added to a cash payment too. */
  cashTips: z.boolean(),
  /** What suggested tips are a percentage of: what is paid, or that without its tax (bridge/checkout/tips.ts tipBase). */
  tipBasis: z.enum(['total', 'pre_tax']),
  /** A discount above either needs the manager PIN: percent in basis points, amount in minor units. */
  discountApproval: z.object({ percentBps: z.number().int().min(0).max(10_000), amount: Amount }),
  /** A gratuity added for large parties (bridge/checkout/gratuity.ts); null where the restaurant adds none. */
  autoGratuity: AutoGratuityRule.nullable(),
});
export type CheckoutRules = z.infer<typeof CheckoutRules>;

export const MenuItem = z.object({
  id: Id,
  name: z.string(),
  /** As the cloud priced it, which may pass what a command carries: ringing it up is refused then, not the whole menu. */
  price: z.number().int().nonnegative(),
  categoryId: Id.nullable(),
  description: z.string(),
  available: z.boolean(),
  /** The cloud reported inventory.low_stock for it. */
  lowStock: z.boolean(),
  modifiers: z.array(Modifier),
  /** Required and limited choices among the modifiers; modifiers in no group are free extras. */
  modifierGroups: z.array(ModifierGroup),
  /** Which tax rates apply to it ("standard" unless the cloud or the category says otherwise). */
  taxClass: z.string(),
  /** The barcode or PLU the register's scanner matches (ItemCode), kept by this terminal only. */
  barcode: z.string().nullable(),
});
export type MenuItem = z.infer<typeof MenuItem>;

export const MenuSnapshot = z.object({
  currency: z.string(),
  /** How tickets are priced here: the ticket previews with these, the order is priced with the same. */
  pricing: PricingRules,
  checkout: CheckoutRules,
  categories: z.array(Category),
  items: z.array(MenuItem),
});
export type MenuSnapshot = z.infer<typeof MenuSnapshot>;

export const OrderStatus = z.enum(['open', 'fulfilled', 'cancelled']);
export type OrderStatus = z.infer<typeof OrderStatus>;

/** Whether the cloud has this record yet: what the cashier's "pending" badge shows. */
export const SyncState = z.enum(['pending', 'synced', 'failed']);
export type SyncState = z.infer<typeof SyncState>;

export const OrderLine = z.object({
  menuItemId: Id,
  name: z.string(),
  unitPrice: z.number().int(),
  quantity: z.number().int().positive(),
  modifiers: z.array(Modifier),
  /** quantity × (unit price + modifiers), before discounts and tax. */
  lineTotal: z.number().int(),
  /** For the kitchen: "no onions". */
  note: z.string(),
  discount: AppliedDiscount.nullable(),
  /** What the line costs after its discounts (its own and its share of the order's), with tax when it is added on top. */
  total: z.number().int(),
  /** Units of this line given back by refunds by item. */
  refundedQuantity: z.number().int().nonnegative(),
  /** The guest's seat; null: shared, for the table (docs/tables.md). */
  seat: z.number().int().nullable(),
  /** The id of the store's course it is served in (tables.courses); null: none. */
  course: Id.nullable(),
});
export type OrderLine = z.infer<typeof OrderLine>;

export const Customer = z.object({
  name: z.string().trim().max(120),
  phone: z.string().trim().max(40),
});
export type Customer = z.infer<typeof Customer>;

export const PaymentStatus = z.enum([
  'captured', // the cloud captured it (or cash was taken)
  'queued_offline', // card stored and forwarded when the connection returns
  'pending', // card sent to the outbox, not yet confirmed by the cloud
  'failed', // the cloud refused it: the merchant has to collect again
]);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** Why money goes back: the values the cloud accepts (docs/spec-gaps.md, refunds). */
export const RefundReason = z.enum(['requested_by_customer', 'duplicate', 'fraudulent', 'order_cancelled', 'other']);
export type RefundReason = z.infer<typeof RefundReason>;

/** The most a refund's words may say: what the refund dialog's "What happened" field takes. */
export const REFUND_NOTE_MAX = 100;
/**
 * What happened, in the cashier's words: required with 'other', which says nothing by itself.
 * Kept on this terminal (the cloud takes a reason from its list only: docs/spec-gaps.md, refunds).
 */
const RefundNote = z.string().trim().max(REFUND_NOTE_MAX, `say it in at most ${REFUND_NOTE_MAX} characters`);
const OTHER_NEEDS_WORDS = { message: 'say in a few words what happened: “Other” alone tells nothing', path: ['note'] };
function wordsForOther(refund: { reason: RefundReason; note?: string }): boolean {
  return refund.reason !== 'other' || (refund.note ?? '') !== '';
}

export const Refund = z.object({
  id: Id,
  paymentId: Id,
  amount: PositiveAmount,
  reason: z.string(),
  /** The words given with it (required with 'other'); null when none were. */
  note: z.string().nullable(),
  /** Lines given back by a refund by item; [] for a refund by amount. */
  items: z.array(z.object({ lineIndex: z.number().int().nonnegative(), quantity: z.number().int().positive() })),
  createdAt: IsoTime,
  syncState: SyncState,
  /** Who gave it back; null when it was not given here (or before staff existed). */
  staff: z.object({ id: Id, name: z.string() }).nullable(),
});
export type Refund = z.infer<typeof Refund>;

export const Payment = z.object({
  id: Id,
  orderId: Id,
  method: PaymentMethod,
  /** What it put toward the order's total. */
  amount: PositiveAmount,
  /** On top of amount: a card is charged amount + tip. */
  tip: Amount,
  /** The part of a split check it paid ("2 of 3"), if the bill was split. */
  splitPart: z.string().nullable(),
  status: PaymentStatus,
  refundedAmount: Total,
  createdAt: IsoTime,
  refunds: z.array(Refund),
  syncState: SyncState,
  /** Who took it; null when it was not taken here (or before staff existed). */
  staff: z.object({ id: Id, name: z.string() }).nullable(),
});
export type Payment = z.infer<typeof Payment>;

/**
 * What a restaurant reads at a glance, derived from the /v1 status (still `status`) and the
 * payments this terminal knows: open orders say whether they are paid, fulfilled ones read
 * "Completed" (orders pulled from the cloud come without their payments, so a fulfilled order
 * is never called unpaid).
 */
export const OrderDisplayState = z.enum(['open_unpaid', 'open_part_paid', 'paid_in_kitchen', 'completed', 'cancelled']);
export type OrderDisplayState = z.infer<typeof OrderDisplayState>;

/** How much of what was paid went back: the "Partially refunded" / "Refunded" badge. */
export const RefundState = z.enum(['none', 'partial', 'full']);
export type RefundState = z.infer<typeof RefundState>;

/** The bill: what the items come to, what came off, the tax, what is owed (before tips). */
export const Check = z.object({
  subtotal: z.number().int(),
  discountTotal: z.number().int(),
  taxTotal: z.number().int(),
  taxIncluded: z.boolean(),
  total: z.number().int(),
  taxes: z.array(z.object({ name: z.string(), ratePpm: z.number().int(), amount: z.number().int() })),
  orderDiscount: AppliedDiscount.nullable(),
  /** Where the figures come from: this till priced it, the cloud's record says so, or only the items are known. */
  source: z.enum(['till', 'cloud', 'items']),
});
export type Check = z.infer<typeof Check>;

export const SplitView = z.object({
  plan: SplitPlan,
  parts: z.array(z.object({ label: z.string(), amount: z.number().int(), paid: z.boolean() })),
});
export type SplitView = z.infer<typeof SplitView>;

/** A large party's automatic gratuity on its check (bridge/checkout/gratuity.ts), charged as a tip on its payments. */
export const OrderGratuity = z.object({
  name: z.string(),
  percentBps: z.number().int(),
  /** Parties of this many guests or more get it. */
  minGuests: z.number().int(),
  /** What it is a percentage of: the check after discounts, before tax. */
  base: z.number().int(),
  amount: z.number().int(),
  /** Its tax, where the restaurant taxes gratuities. */
  tax: z.number().int(),
  /** What the guests pay for it (amount, plus its tax when tax is added on top). */
  charged: z.number().int(),
  /** What the payments so far have carried of it. */
  collected: z.number().int(),
  /** A manager took it off the check: who, why, when; what was collected before stays collected. */
  removed: z.object({ reason: z.string(), by: z.object({ id: Id, name: z.string() }).nullable(), at: IsoTime }).nullable(),
});
export type OrderGratuity = z.infer<typeof OrderGratuity>;

export const Order = z.object({
  id: Id,
  /** The short number the kitchen calls: the till's letter and the day's count ("A17"); null when the order came without one. */
  number: z.string().nullable(),
  /** How screens name the order: its number, else the end of its id. */
  label: z.string(),
  /** The business day it was sold on (YYYY-MM-DD), where known. */
  businessDay: z.string().nullable(),
  /** Dine-in, takeout or delivery; null when the cloud sent an order without it. */
  service: z.object({ type: OrderType.nullable(), table: z.string().nullable(), guests: z.number().int().nullable() }),
  /** Where the order came from: "pos", "online", "delivery" (or what the cloud calls it); null if unknown. */
  channel: z.string().nullable(),
  check: Check,
  split: SplitView.nullable(),
  tipTotal: Total,
  /** The party's automatic gratuity; null when the check has none. */
  gratuity: OrderGratuity.nullable(),
  status: OrderStatus,
  /**
   * The cloud's own word when it holds the order in a state this terminal does not know ("voided"):
   * the order is then shown with that word and kept as not open (docs/sync.md); null otherwise.
   */
  cloudStatus: z.string().nullable(),
  displayState: OrderDisplayState,
  refundState: RefundState,
  lines: z.array(OrderLine),
  customer: Customer,
  notes: z.string(),
  /** What is owed: the check's total (before tips). */
  total: z.number().int(),
  currency: z.string(),
  createdAt: IsoTime,
  updatedAt: IsoTime,
  paidAmount: Total,
  refundedAmount: Total,
  payments: z.array(Payment),
  syncState: SyncState,
  /** Whose order it is: who placed it, or took it over since; null for orders from elsewhere. */
  staff: z.object({ id: Id, name: z.string() }).nullable(),
  /** Courses held back from the kitchen or fired since; a course not listed went with its lines. */
  courses: z.array(z.object({ course: Id, state: z.enum(['held', 'fired']) })),
  /** This check was merged into another (orders.merge) and cancelled with it: the one it went into; null otherwise. */
  mergedInto: z.object({ id: Id, label: z.string() }).nullable(),
  /** This closed check was reopened (orders.reopen): who, why, and the linked check that carries what was added (null until something is); null otherwise. */
  reopened: z
    .object({ linked: z.object({ id: Id, label: z.string() }).nullable(), reason: z.string(), by: z.object({ id: Id, name: z.string() }).nullable(), approvedBy: z.object({ id: Id, name: z.string() }).nullable(), at: IsoTime })
    .nullable(),
  /** This check was opened by reopening a closed one: that check ("Reopened from #A12"); null otherwise. */
  reopenOf: z.object({ id: Id, label: z.string() }).nullable(),
});
export type Order = z.infer<typeof Order>;

export const Location = z.object({
  id: Id,
  name: z.string(),
  address: z.string(),
  phone: z.string(),
  /** The location's IANA time zone ('' when unknown: this computer's); every time shown or printed is in it. */
  timezone: z.string(),
  /** BCP 47 locale for dates and times (from the location's country, or the config's `locale`). */
  locale: z.string(),
  currency: z.string(),
});
export type Location = z.infer<typeof Location>;

export const DeadLetter = z.object({
  id: Id,
  /** What the change was, in the cashier's words ("Order for Ada, 3 items"). */
  description: z.string(),
  /** Why the cloud refused it and what to do, in one plain sentence for the cashier. */
  reason: z.string(),
  /** The refusal as the server and the sync engine stated it, for a manager or IT ("details"). */
  detail: z.string(),
  failedAt: IsoTime,
});
export type DeadLetter = z.infer<typeof DeadLetter>;

export const RepricedOrder = z.object({
  /** The order's id. */
  id: Id,
  /** The order in the cashier's words ("Order for Ada, 3 lines, 9:41"). */
  description: z.string(),
  /** What happened and what to do, in one plain sentence with both totals. */
  message: z.string(),
  /** When the order was rung up, to find it (null if the order is no longer on this terminal). */
  placedAt: IsoTime.nullable(),
  detectedAt: IsoTime,
});
export type RepricedOrder = z.infer<typeof RepricedOrder>;

/** How many of the waiting changes sync.status lists (the oldest): `pending` counts them all. */
export const WAITING_LISTED_MAX = 50;

/** A change made here that the cloud has not taken yet, in the cashier's words. */
export const WaitingChange = z.object({
  id: Id,
  /** What it is ("New order A12 for Ada (3 lines)", "Card payment of $45.95 for order A12"). */
  description: z.string(),
  /** When it was made. */
  since: IsoTime,
  /** Sent and its answer awaited (else waiting for its turn or its next try). */
  sending: z.boolean(),
  /** Times it has been sent. */
  attempts: z.number().int().nonnegative(),
  /** What the last try ran into, in one sentence ("The cloud could not be reached (connection refused)."); null before any failed. */
  problem: z.string().nullable(),
  /** The same as the sync engine recorded it, for IT ("details"). */
  detail: z.string().nullable(),
});
export type WaitingChange = z.infer<typeof WaitingChange>;

export const SyncStatusView = z.object({
  online: z.boolean(),
  /** Changes made here the cloud has not taken yet (sent and waiting). */
  pending: z.number().int().nonnegative(),
  oldestPendingAgeMs: z.number().nonnegative().nullable(),
  /** The oldest of them, oldest first, at most WAITING_LISTED_MAX. */
  waiting: z.array(WaitingChange).max(WAITING_LISTED_MAX),
  lastPushAt: IsoTime.nullable(),
  lastPullAt: IsoTime.nullable(),
  deadLetters: z.array(DeadLetter),
  /** Orders the cloud priced differently from the till (a menu price changed before they were sent), until settled. */
  repricedOrders: z.array(RepricedOrder),
  /** Milliseconds until the next automatic attempt while backing off. */
  retryInMs: z.number().nonnegative().nullable(),
  credentials: z.enum(['none', 'api_key', 'oauth', 'rejected']),
  /** The last problem in the cashier's words, with what happens next; null when there is none. */
  lastProblem: z.string().nullable(),
  /** The same as the sync engine stated it, for IT ("details"). */
  lastError: z.string().nullable(),
  /** False when no sync engine runs (the status then comes from the local outbox alone). */
  engineRunning: z.boolean(),
  /**
   * The configured server cannot be used and it is not a plain outage (a name that does not
   * exist, a server refusing since start, an address that is not a /v1 API): one sentence for
   * the cashier naming the address; null otherwise.
   */
  serverProblem: z.object({ kind: z.enum(['dns_not_found', 'refused', 'not_an_api']), message: z.string() }).nullable(),
  /** Data from the cloud that could not be read ("The menu from the cloud could not be read."), with the details behind it. */
  readProblems: z.array(z.object({ message: z.string(), detail: z.string(), since: IsoTime })),
  /** A full sync of the menu and orders has completed on this terminal at least once. */
  initialSyncDone: z.boolean(),
  /** The order history being pulled in the background: how many of how many (total null until the server says). */
  orderProgress: z.object({ done: z.number().int().nonnegative(), total: z.number().int().nonnegative().nullable() }).nullable(),
  /** The terminal's own store failed its full integrity check (run in the background after start): what to do, for the manager and IT. */
  storeProblem: z.string().nullable(),
  /** Webhook events recorded but not applied yet: their resource could not be read from the cloud. */
  unappliedEvents: z.array(z.object({ id: z.string(), type: z.string(), resource: z.string(), reason: z.string(), receivedAt: IsoTime })),
});
export type SyncStatusView = z.infer<typeof SyncStatusView>;

export const OfflineLimits = z.object({
  /** Largest single card payment taken offline without a manager. */
  perTransaction: Amount,
  /** Largest total of queued offline card payments without a manager. */
  total: Amount,
});
export type OfflineLimits = z.infer<typeof OfflineLimits>;

/** A charge above this many minor units ($1,000.00) asks the cashier to confirm it, unless configured otherwise. */
export const DEFAULT_CONFIRM_CHARGE_ABOVE = 100_000;

export const SettingsView = z.object({
  apiBaseUrl: z.string(),
  apiHost: z.string(),
  authUrl: z.string(),
  locationId: z.string(),
  credentials: z.object({
    kind: z.enum(['none', 'api_key', 'oauth']),
    /** A masked hint such as "sk_test_…f3a9"; never the secret. */
    hint: z.string(),
  }),
  webhook: z.object({
    enabled: z.boolean(),
    host: z.string(),
    port: z.number().int(),
    /** Where the cloud should post events while the receiver runs, else ''. */
    url: z.string(),
    secretSet: z.boolean(),
  }),
  offlineLimits: OfflineLimits,
  /** A charge above this asks the cashier to confirm the amount first; 0 never asks. */
  confirmChargeAbove: Amount,
  /** A receipt prints by itself after each payment (else on request). */
  autoReceipt: z.boolean(),
  checkout: CheckoutRules,
  /** The tax rules set on this terminal (used when the location's record from the cloud has none). */
  taxRules: PricingRules,
  /** The rules in force and where they come from. */
  pricing: PricingRules.extend({ source: z.enum(['location', 'terminal']) }),
  /** One drawer for the till, or one per cashier. */
  drawerMode: z.enum(['shared', 'per_cashier']),
  /** The till locks itself after this many minutes without use; 0: never. */
  autoLockMinutes: z.number().int().min(0).max(240),
  kioskMode: z.boolean(),
});
export type SettingsView = z.infer<typeof SettingsView>;

const LineInput = z.strictObject({
  menuItemId: Id,
  quantity: z.number().int().min(1).max(999),
  modifierIds: z.array(Id).max(20).default([]),
  note: z.string().trim().max(140).default(''),
  discount: Discount.nullable().default(null),
  /** The guest's seat; null: shared. Left out on a change: the line keeps the seat it had. */
  seat: SeatNumber.nullable().optional(),
  /** The store's course (tables.courses) it is served in; null: none. Left out on a change: the line keeps its course. */
  course: Id.nullable().optional(),
});
export type LineInput = z.input<typeof LineInput>;

const OrderDraft = z.strictObject({
  lines: z.array(LineInput).min(1, 'an order needs at least one item').max(ORDER_LINES_MAX, `an order has at most ${ORDER_LINES_MAX} lines: start a second order for the rest`),
  customer: Customer.default({ name: '', phone: '' }),
  notes: z.string().trim().max(500).default(''),
  /** Off the whole order (after line discounts). */
  discount: Discount.nullable().default(null),
  service: Service.default({ type: 'takeout', table: null, guests: null }),
  /** Courses the kitchen does not get yet: their lines print when each is fired (orders.fireCourse). */
  heldCourses: z.array(Id).max(8).default([]),
  /** Needed when a discount is above the approval limits. */
  managerPin: ManagerPin.optional(),
});
export type OrderDraft = z.input<typeof OrderDraft>;

/**
 * A barcode as a scanner types it (digits only, up to GTIN-14), or a short PLU keyed in by hand.
 * A PLU needs a digit, so a word ("TEA") never takes over a name search; letters are kept
 * upper-case, so "b12" finds "B12".
 */
export const ItemCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^(\d{1,14}|(?=[A-Z]*\d)[A-Z\d]{1,6})$/, 'A barcode is digits only (up to 14); a PLU is up to 6 letters and digits, with at least one digit.');

const MenuItemFields = z.strictObject({
  name: z.string().trim().min(1, 'give the item a name').max(120),
  price: Amount,
  categoryId: Id,
  description: z.string().trim().max(500).default(''),
  available: z.boolean().default(true),
  /** null (or left out): no code. */
  barcode: ItemCode.nullable().optional(),
});
/** An edit names only what it changes: the create's defaults must not reset what it leaves out. */
const MenuItemChanges = MenuItemFields.extend({
  description: MenuItemFields.shape.description.unwrap(),
  available: MenuItemFields.shape.available.unwrap(),
}).partial();

const Ok = z.object({ ok: z.literal(true) });

/** Changes that exist only on this terminal: what quitting keeps for later, and signing out or a reset loses. */
export const PendingLoss = z.object({
  /** Operations not yet confirmed by the cloud. */
  pending: z.number().int().nonnegative(),
  /** Orders among them (new or changed), and card payments taken but not yet in the cloud. */
  orders: z.number().int().nonnegative(),
  cardPayments: z.number().int().nonnegative(),
  /** Changes the cloud refused, still listed in the sync panel. */
  deadLetters: z.number().int().nonnegative(),
  /** Orders the cloud priced differently, not settled yet: only this terminal knows what the till charged. */
  repricedOrders: z.number().int().nonnegative(),
  /** When the oldest waiting change was made; null when nothing waits. */
  oldestPendingAt: IsoTime.nullable(),
  /** The same in one sentence for a dialog. */
  message: z.string(),
});
export type PendingLoss = z.infer<typeof PendingLoss>;

/** Whether a reset would destroy something only this terminal has (the dialogs and the core ask the same). */
export function lossAtStake(loss: Pick<PendingLoss, 'pending' | 'deadLetters' | 'repricedOrders'>): boolean {
  return loss.pending > 0 || loss.deadLetters > 0 || loss.repricedOrders > 0;
}

/** The whole command table. Queries are commands that change nothing. */
export const commands = {
  ...tableCommands,
  ...storeModeCommands,
  ...kitchenCommands,
  ...printingCommands,
  ...staffCommands,
  ...reportsCommands,
  'menu.snapshot': command(Empty, MenuSnapshot),
  'menu.search': command(
    z.strictObject({ query: z.string().max(120).default(''), categoryId: Id.optional() }),
    z.array(MenuItem),
  ),
  /** Menu edits are a manager's: when a manager PIN is set, they carry it. */
  'menu.createItem': command(MenuItemFields.extend({ managerPin: ManagerPin.optional() }), MenuItem),
  'menu.updateItem': command(z.strictObject({ id: Id, changes: MenuItemChanges, managerPin: ManagerPin.optional() }), MenuItem),
  'menu.deleteItem': command(z.strictObject({ id: Id, managerPin: ManagerPin.optional() }), Ok),
  /** "86 it": the kitchen ran out (or it is back). */
  'menu.setAvailable': command(z.strictObject({ id: Id, available: z.boolean() }), MenuItem),

  'orders.place': command(OrderDraft, Order),
  'orders.list': command(
    z.strictObject({
      status: OrderStatus.optional(),
      createdAfter: IsoTime.optional(),
      createdBefore: IsoTime.optional(),
      search: z.string().max(120).optional(),
      limit: z.number().int().min(1).max(500).default(100),
    }),
    z.array(Order),
  ),
  'orders.get': command(z.strictObject({ id: Id }), Order),
  'orders.update': command(
    z.strictObject({
      id: Id,
      lines: OrderDraft.shape.lines.optional(),
      customer: Customer.optional(),
      notes: z.string().trim().max(500).optional(),
      discount: Discount.nullable().optional(),
      service: Service.optional(),
      /** null: the bill is no longer split. */
      split: SplitPlan.nullable().optional(),
      managerPin: ManagerPin.optional(),
    }),
    Order,
  ),
  /**
   * Completes an order. One with money due is refused (take the payment first), unless closed as
   * a walkout: a manager's decision with a reason (needs 'order.walkout'), listed on the Z report
   * apart from sales.
   */
  'orders.fulfil': command(
    z.strictObject({
      id: Id,
      walkout: z.strictObject({ reason: z.string().trim().min(1, 'say why it is closed unpaid').max(120) }).optional(),
      managerPin: ManagerPin.optional(),
    }),
    Order,
  ),
  /**
   * Gives an open order to another server (a table changing hands at a shift change): it is theirs
   * on the floor, in Orders and on the day's report from then on. Giving away one's own order needs
   * nothing; someone else's needs 'order.adopt'. Audited with both names.
   */
  'orders.transfer': command(z.strictObject({ id: Id, toStaffId: Id, managerPin: ManagerPin.optional() }), Order),
  /**
   * Holds a course back from the kitchen: its lines (and those added to it later) print on no
   * kitchen ticket until it is fired. Only a course none of whose lines went to the kitchen yet.
   */
  'orders.holdCourse': command(z.strictObject({ id: Id, course: Id, managerPin: ManagerPin.optional() }), Order),
  /** Fires a held course: one FIRE ticket with its lines to the printers they route to. Firing a fired course does nothing. */
  'orders.fireCourse': command(z.strictObject({ id: Id, course: Id, managerPin: ManagerPin.optional() }), Order),
  /** Takes a party's automatic gratuity off its check: a manager's call ('gratuity.remove'), with a reason, audited. */
  'orders.removeGratuity': command(z.strictObject({ id: Id, reason: z.string().trim().min(1, 'say why the gratuity comes off').max(120), managerPin: ManagerPin.optional() }), Order),
  /** A void: why, in words (the reason picked, or the words for "Other"), kept in the audit log. */
  'orders.cancel': command(z.strictObject({ id: Id, reason: z.string().trim().min(1, 'say why the order is cancelled').max(120), managerPin: ManagerPin.optional() }), Order),
  /**
   * Merges check `from` into check `into` (two tables' checks, or two at one table): `from`'s lines
   * move onto `into` with their seats, courses, modifiers, notes and discounts, its guests add to
   * `into`'s, and `from` is cancelled as merged (never a void). Both open and unpaid-from; someone
   * else's check needs 'order.adopt'. A repeat answers the merged check and changes nothing.
   */
  'orders.merge': command(z.strictObject({ into: Id, from: Id, managerPin: ManagerPin.optional() }), Order),
  /**
   * Reopens a completed check ('orders.reopen', with a reason): the check stays as it was sold; what
   * is added goes on a new linked check at its table (opened with `lines`, its first additions, now
   * or by a later reopen of the same check), paid as usual; what is taken off is refunded by item
   * on the original. Answers the original, naming the linked check; a repeat makes no second reopening.
   */
  'orders.reopen': command(
    z.strictObject({
      id: Id,
      reason: z.string().trim().min(1, 'say why the check is reopened').max(120, 'at most 120 characters'),
      lines: z.array(LineInput).max(ORDER_LINES_MAX).default([]),
      managerPin: ManagerPin.optional(),
    }),
    Order,
  ),

  'payments.take': command(
    z.strictObject({
      orderId: Id,
      method: PaymentMethod,
      /** Toward the order's total (at most what is due). */
      amount: PositiveAmount,
      /** On top of amount (cards; cash only when cash tips are on). */
      tip: Amount.default(0),
      /** The part of a split check this pays ("2 of 3"). */
      splitPart: z.string().trim().min(1).max(20).nullable().default(null),
      /** Cash handed over; the change is tendered minus amount (and tip). */
      tendered: TillCash.optional(),
      /** Needed above the offline limits. */
      managerPin: ManagerPin.optional(),
    }),
    z.object({ payment: Payment, order: Order, change: Amount }),
  ),
  'payments.refund': command(
    z
      .strictObject({
        paymentId: Id,
        amount: PositiveAmount,
        reason: RefundReason,
        note: RefundNote.optional(),
        managerPin: ManagerPin.optional(),
      })
      .refine(wordsForOther, OTHER_NEEDS_WORDS),
    z.object({ refund: Refund, order: Order }),
  ),
  /** Gives back whole units of lines: their share of what was paid goes back to the payments that paid it. */
  'payments.refundItems': command(
    z.strictObject({
      orderId: Id,
      items: z.array(z.strictObject({ lineIndex: z.number().int().nonnegative(), quantity: z.number().int().min(1).max(999) })).min(1).max(ORDER_LINES_MAX),
      reason: RefundReason,
      note: RefundNote.optional(),
      managerPin: ManagerPin.optional(),
    }).refine(wordsForOther, OTHER_NEEDS_WORDS),
    z.object({ refunds: z.array(Refund), amount: Amount, order: Order }),
  ),

  'location.get': command(Empty, Location),
  /** Every location the account has (from the last sync), for choosing this terminal's. */
  'location.list': command(Empty, z.array(Location)),

  'settings.get': command(Empty, SettingsView),
  'settings.update': command(
    z.strictObject({
      apiBaseUrl: z
        .url({ protocol: /^https?$/ })
        .refine((url) => /\/v1\/?$/.test(url), 'the API base URL ends with /v1')
        .optional(),
      apiHost: z.url({ protocol: /^https?$/ }).optional(),
      authUrl: z.url({ protocol: /^https?$/ }).optional(),
      locationId: z.string().trim().min(1).max(80).optional(),
      webhook: z.strictObject({ enabled: z.boolean(), host: z.string().min(1).max(255), port: z.number().int().min(0).max(65535) }).optional(),
      /** The whsec_ secret the dashboard showed when the endpoint was registered. */
      webhookSigningSecret: z.string().trim().regex(/^whsec_[A-Za-z0-9_\-+/=]+$/, 'a signing secret starts with whsec_').optional(),
      offlineLimits: OfflineLimits.optional(),
      confirmChargeAbove: Amount.optional(),
      autoReceipt: z.boolean().optional(),
      checkout: CheckoutRules.partial().optional(),
      taxRules: PricingRules.optional(),
      drawerMode: z.enum(['shared', 'per_cashier']).optional(),
      autoLockMinutes: z.number().int().min(0, 'at least 0 (never)').max(240, 'at most 240 minutes').optional(),
      managerPin: ManagerPin.optional(),
    }),
    SettingsView,
  ),
  'credentials.setApiKey': command(
    // The spec promises only the prefix; what follows is any visible ASCII (the sandbox's keys carry '-').
    z.strictObject({ apiKey: z.string().trim().regex(/^sk_(test|live)_[!-~]+$/, 'an API key starts with sk_test_ or sk_live_'), managerPin: ManagerPin.optional() }),
    // A key the cloud refuses is not saved (an error); otherwise what the cloud said of it, or why it could not be asked yet.
    SettingsView.extend({ keyCheck: z.string() }),
  ),
  /** Opens the system browser on the consent page; resolves when the terminal holds tokens. */
  'credentials.connectOAuth': command(z.strictObject({ managerPin: ManagerPin.optional() }).default({}), z.object({ authorizeUrl: z.string() })),
  'credentials.oauthStatus': command(Empty, z.object({ state: z.enum(['idle', 'waiting', 'connected', 'failed']), message: z.string() })),

  'sync.status': command(Empty, SyncStatusView),
  'sync.now': command(Empty, SyncStatusView),
  'sync.retryDeadLetter': command(z.strictObject({ id: Id }), SyncStatusView),
  'sync.discardDeadLetter': command(z.strictObject({ id: Id, managerPin: ManagerPin.optional() }), SyncStatusView),
  'sync.settleRepricedOrder': command(z.strictObject({ id: Id }), SyncStatusView),

  /** What would be lost by quitting, signing out or resetting now. */
  'session.pending': command(Empty, PendingLoss),
  /** Forgets the credentials. Refused while changes wait to sync unless `despitePending` confirms (they stay on the terminal, unsent). */
  'session.signOut': command(z.strictObject({ despitePending: z.boolean().default(false), managerPin: ManagerPin.optional() }), SettingsView),
  /**
   * Wipes this terminal: the local store (orders, payments, menu, settings made here, the outbox)
   * and the stored credentials; a fresh empty store opens and the app keeps running. Needs the
   * manager PIN once one is set. Refused (`conflict`, saying what would be lost) while changes
   * wait to sync or refused changes are listed, unless `confirmPendingLoss` says to lose them.
   */
  'terminal.reset': command(z.strictObject({ confirmPendingLoss: z.boolean().default(false), managerPin: ManagerPin.optional() }), SettingsView),
} as const;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
/** What a caller may send (defaults still optional). */
export type CommandInput<C extends CommandName> = z.input<Commands[C]['payload']>;
/** What a handler receives after validation (defaults applied). */
export type CommandPayload<C extends CommandName> = z.output<Commands[C]['payload']>;
export type CommandResult<C extends CommandName> = z.output<Commands[C]['result']>;

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(commands, name);
}

/** Events pushed from main to every open renderer. */
export const UpdatePhase = z.enum(['idle', 'checking', 'downloading', 'waiting', 'installing', 'error']);
export type UpdatePhase = z.infer<typeof UpdatePhase>;

/** Payload of the `update.status` event (Electron shell): what the app updater is doing, and why it waits. */
export const UpdateStatus = z.object({
  phase: UpdatePhase,
  /** The version being downloaded, waiting or installing. */
  version: z.string().nullable(),
  /** Download progress, 0–100, while downloading. */
  percent: z.number().min(0).max(100).nullable(),
  /** One sentence for the status bar. */
  message: z.string(),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;

export const events = {
  ...tableEvents,
  ...storeModeEvents,
  ...printingEvents,
  ...staffEvents,
  'sync.status': SyncStatusView,
  /** The menu changed (local edit, pull or webhook): refetch the snapshot. */
  'menu.changed': z.object({}),
  /** Orders changed: lists showing them refetch. */
  'orders.changed': z.object({ ids: z.array(Id) }),
  'settings.changed': SettingsView,
  'oauth.finished': z.object({ ok: z.boolean(), message: z.string() }),
  'update.status': UpdateStatus,
  /** The terminal was reset: anything held from before (a ticket being built) is gone. */
  'terminal.reset': z.object({}),
} as const;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
