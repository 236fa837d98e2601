// The shapes the store keeps, as zod schemas (types derive from them). A document is one entity
// as the cashier sees it; in the database it is one row per layer ('base' and 'pending', see
// docs/store.md); an order's lines lie in one JSON column of its row.
import { z } from 'zod';

const Currency = z.string().regex(/^[a-z]{3}$/);
const Minor = z.number().int();
const Millis = z.number().int();

/** A tax rate as the store keeps it (parts per million: 88_750 = 8.875%). */
export const TaxRateDoc = z.object({ tax_class: z.string(), name: z.string(), rate_ppm: z.number().int().min(0) });
export type TaxRateDoc = z.infer<typeof TaxRateDoc>;

/** How a location prices tax, as far as its record says (each field null where it says nothing). */
export const LocationTaxDoc = z.object({
  rates: z.array(TaxRateDoc).nullable(),
  prices_include_tax: z.boolean().nullable(),
  rounding: z.enum(['per_line', 'per_order']).nullable(),
});
export type LocationTaxDoc = z.infer<typeof LocationTaxDoc>;

export const LocationDoc = z.object({
  id: z.string(),
  name: z.string(),
  currency: Currency,
  address: z.string().nullable(),
  timezone: z.string().nullable(),
  /** ISO 3166-1 alpha-2 of the address, upper case; it picks the locale of dates and times. Null when the record gave none (and in docs stored before it was kept). */
  country: z.string().nullable().default(null),
  /** Migration 12: null when the location's record carries no tax rules (the spec shows none). */
  tax: LocationTaxDoc.nullable().default(null),
});
export type LocationDoc = z.infer<typeof LocationDoc>;

export const CategoryDoc = z.object({
  id: z.string(),
  name: z.string(),
  position: z.number().int(),
});
export type CategoryDoc = z.infer<typeof CategoryDoc>;

export const ModifierDoc = z.object({
  id: z.string(),
  name: z.string(),
  price: Minor,
});
export type ModifierDoc = z.infer<typeof ModifierDoc>;

/** Choices asked together ("Size": exactly one); max null: no limit. */
export const ModifierGroupDoc = z.object({ id: z.string(), name: z.string(), min: z.number().int().min(0), max: z.number().int().min(1).nullable(), modifier_ids: z.array(z.string()) });
export type ModifierGroupDoc = z.infer<typeof ModifierGroupDoc>;

export const MenuItemDoc = z.object({
  id: z.string(),
  location_id: z.string().nullable(),
  category_id: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  price: Minor,
  currency: Currency,
  /** false = "86'd": sold out for now. */
  available: z.boolean(),
  low_stock: z.boolean(),
  modifier_ids: z.array(z.string()),
  /** A pending local delete hides the item from the merged view until the server confirms it. */
  deleted: z.boolean(),
  /** Barcode or PLU the register's scanner matches: the till's own, /v1 has no such field. */
  barcode: z.string().nullable(),
  /** Migration 12: which tax rates apply; null where the cloud did not say. */
  tax_class: z.string().nullable().default(null),
  modifier_groups: z.array(ModifierGroupDoc).default([]),
});
export type MenuItemDoc = z.infer<typeof MenuItemDoc>;

export const OrderStatus = z.enum(['open', 'fulfilled', 'cancelled']);
export type OrderStatus = z.infer<typeof OrderStatus>;

export const OrderLineModifierDoc = z.object({ modifier_id: z.string(), name: z.string(), price: Minor });
export type OrderLineModifierDoc = z.infer<typeof OrderLineModifierDoc>;

/** A discount as the cashier gave it (percent in basis points, amount in minor units) and why. */
export const DiscountDoc = z.object({ kind: z.enum(['percent', 'amount']), value: z.number().int().positive(), reason: z.string() });
export type DiscountDoc = z.infer<typeof DiscountDoc>;

export const OrderLineDoc = z.object({
  menu_item_id: z.string(),
  name: z.string(),
  quantity: z.number().int().positive(),
  unit_price: Minor,
  modifiers: z.array(OrderLineModifierDoc),
  /** The till's own (lines from the cloud keep the till's values: order-lines.ts carryLineExtras). */
  note: z.string().default(''),
  discount: DiscountDoc.nullable().default(null),
  tax_class: z.string().default('standard'),
  /** Migration 21, the till's (docs/tables.md): the guest's seat (1–40); null: shared, for the table. */
  seat: z.number().int().min(1).nullable().default(null),
  /** Migration 21, the till's: the id of the store's course it is served in (store/floor.ts); null: none. */
  course: z.string().nullable().default(null),
});
export type OrderLineDoc = z.infer<typeof OrderLineDoc>;

/** A line as callers may write it: the till's own line fields take their defaults. */
export type OrderLineInput = z.input<typeof OrderLineDoc>;

export const CustomerDoc = z.object({ name: z.string(), phone: z.string() });
export type CustomerDoc = z.infer<typeof CustomerDoc>;

/**
 * Fields only the till keeps (/v1 has no place for them): an entity first seen from the server
 * starts from these, so its record still makes a whole document.
 */
export const TILL_ONLY_DEFAULTS: Partial<Record<EntityKind, Record<string, unknown>>> = {
  order: { notes: '', business_day: null, pricing: null, discount: null, check_total: null, split: null, courses: null, gratuity: null },
  menu_item: { barcode: null },
  payment_intent: { tip: 0, split_part: null, gratuity: null },
  payment: { tip: 0, split_part: null, gratuity: null },
  refund: { items: [], note: null },
};

/**
 * Fields the /v1 spec does not show, which a server may leave out: an entity first seen without
 * them starts from these (docs/spec-gaps.md, "What the terminal accepts"). An entity already
 * known keeps its own values instead. Money takes the currency of the store (see ServerState).
 */
export function unstatedFieldDefaults(kind: EntityKind, context: { now: number; currency: string }): Record<string, unknown> {
  const { now, currency } = context;
  switch (kind) {
    case 'location':
      return { currency, address: null, timezone: null, tax: null };
    case 'category':
      return { position: 0 };
    case 'modifier':
      return { price: 0 };
    case 'menu_item':
      return { currency, location_id: null, category_id: null, description: '', available: true, low_stock: false, modifier_ids: [], deleted: false, tax_class: null, modifier_groups: [] };
    case 'order':
      // First seen now: a server that sends no timestamps gives the till no better date.
      return { status: 'open', currency, customer: null, lines: [], total: 0, created_at: now, updated_at: now, number: null, service: null, channel: null, cloud_check: null };
    case 'payment_intent':
      return { currency, status: 'authorized', created_at: now };
    case 'payment':
      return { currency, payment_intent_id: null, status: 'captured', created_at: now };
    case 'refund':
      return { currency, reason: 'requested_by_customer', status: 'succeeded', created_at: now };
  }
}

/** How the order is served: dine_in (table, guests), takeout, delivery. */
export const ServiceDoc = z.object({
  type: z.enum(['dine_in', 'takeout', 'delivery']).nullable(),
  table: z.string().nullable(),
  guests: z.number().int().nullable(),
});
export type ServiceDoc = z.infer<typeof ServiceDoc>;

/** The tax rules an order was priced with, frozen when the till priced it. */
export const PricingDoc = z.object({ tax_included: z.boolean(), rounding: z.enum(['per_line', 'per_order']), rates: z.array(TaxRateDoc) });
export type PricingDoc = z.infer<typeof PricingDoc>;

/** The bill as the cloud's record states it (servers that model tax and discounts). */
export const CloudCheckDoc = z.object({
  /** The cloud's total: what it expects paid (its tax and discounts in). */
  total: Minor.nullable(),
  subtotal: Minor.nullable(),
  discount_total: Minor.nullable(),
  tax_total: Minor.nullable(),
  tax_included: z.boolean().nullable(),
});
export type CloudCheckDoc = z.infer<typeof CloudCheckDoc>;

export const SplitDoc = z.union([
  z.object({ kind: z.literal('even'), parts: z.number().int().min(2) }),
  /** assignment[i]: the check line i is on; 0: shared evenly by every check (a split by seat's lines for the table). */
  z.object({ kind: z.literal('items'), assignment: z.array(z.number().int().min(0)) }),
]);
export type SplitDoc = z.infer<typeof SplitDoc>;

/**
 * A course held back from the kitchen, or fired since (docs/tables.md, "Courses"): a held course's
 * lines print on no kitchen ticket until it is fired; then one FIRE ticket prints them. A course
 * with no entry goes to the kitchen with its lines, as any line does.
 */
export const CourseStateDoc = z.object({ course: z.string(), state: z.enum(['held', 'fired']), at: Millis });
export type CourseStateDoc = z.infer<typeof CourseStateDoc>;

/**
 * The automatic gratuity rule an order was placed under (frozen, as its tax rules are), and who
 * removed it, when and why (docs/tables.md, "Automatic gratuity").
 */
export const GratuityDoc = z.object({
  rule: z.object({ name: z.string(), percent_bps: z.number().int(), min_guests: z.number().int(), tax_class: z.string().nullable() }),
  removed: z
    .object({
      reason: z.string(),
      staff_id: z.string().nullable(),
      staff_name: z.string().nullable(),
      at: Millis,
      /** What the payments had carried of it when it was taken off: a tip given after is a tip, not gratuity. */
      collected: z.number().int().min(0).nullable().default(null),
    })
    .nullable(),
});
export type GratuityDoc = z.infer<typeof GratuityDoc>;

export const OrderDoc = z.object({
  id: z.string(),
  location_id: z.string(),
  status: OrderStatus,
  currency: Currency,
  customer: CustomerDoc.nullable(),
  notes: z.string(),
  lines: z.array(OrderLineDoc),
  /** What the items come to as /v1 prices them (its subtotal where it has one, else its total). */
  total: Minor,
  created_at: Millis,
  updated_at: Millis,
  // Migration 12, the checkout. Each null where not known.
  /** The short human number ("A17"): the till's letter and the business day's count. */
  number: z.string().nullable().default(null),
  /** The till's business day it was sold on (YYYY-MM-DD). */
  business_day: z.string().nullable().default(null),
  service: ServiceDoc.nullable().default(null),
  /** Where the cloud says it came from ("pos", "online", "delivery"). */
  channel: z.string().nullable().default(null),
  /** Till-only: the rules the till priced it with (null: the till did not price it). */
  pricing: PricingDoc.nullable().default(null),
  /** Till-only: the discount off the whole order. */
  discount: DiscountDoc.nullable().default(null),
  /** Till-only: what the till's check came to (before tips), to tell a cloud total that includes the tax from a repricing. */
  check_total: Minor.nullable().default(null),
  cloud_check: CloudCheckDoc.nullable().default(null),
  /** Till-only: how the bill is split. */
  split: SplitDoc.nullable().default(null),
  /** Migration 21, till-only: the courses held or fired (null: none ever was). */
  courses: z.array(CourseStateDoc).nullable().default(null),
  /** Migration 22, till-only: the gratuity rule it was placed under (null: none applied). */
  gratuity: GratuityDoc.nullable().default(null),
});
export type OrderDoc = z.infer<typeof OrderDoc>;

export const PaymentIntentDoc = z.object({
  id: z.string(),
  order_id: z.string(),
  /** What the card is charged: toward the order plus the tip. */
  amount: Minor,
  /** Migration 12, the till's: the part of amount that is a tip. */
  tip: Minor.default(0),
  /** The part of a split check it paid ("2 of 3"). */
  split_part: z.string().nullable().default(null),
  /**
   * Migration 32, the till's: the part of tip that was the automatic gratuity when it was taken
   * (docs/tables.md, "Automatic gratuity"); null: taken before the till recorded it. Optional in the
   * type only (a parsed document always has it): a payment put together outside the store, as the
   * receipt of one taken toward another till's order, does not know it yet.
   */
  gratuity: Minor.min(0).nullable().default(null).optional(),
  currency: Currency,
  /** Free text: the /v1 spec does not list the states (see docs/spec-gaps.md); 'authorized' and 'captured' are used locally. */
  status: z.string(),
  created_at: Millis,
});
export type PaymentIntentDoc = z.infer<typeof PaymentIntentDoc>;

export const PaymentMethod = z.enum(['card', 'cash']);
export const PaymentDoc = z.object({
  id: z.string(),
  order_id: z.string(),
  payment_intent_id: z.string().nullable(),
  method: PaymentMethod,
  amount: Minor,
  currency: Currency,
  status: z.string(),
  created_at: Millis,
  /** Migration 12, the till's: the tip within amount (cash). */
  tip: Minor.default(0),
  split_part: z.string().nullable().default(null),
  /** Migration 32, the till's: as a payment intent's (the part of tip that was the automatic gratuity; null: not known). */
  gratuity: Minor.min(0).nullable().default(null).optional(),
});
export type PaymentDoc = z.infer<typeof PaymentDoc>;

export const RefundDoc = z.object({
  id: z.string(),
  payment_id: z.string(),
  amount: Minor,
  currency: Currency,
  reason: z.string(),
  status: z.string(),
  created_at: Millis,
  /** Migration 12, the till's: units of lines a refund by item gave back. */
  items: z.array(z.object({ line_index: z.number().int().min(0), quantity: z.number().int().positive() })).default([]),
  /** Migration 19, the till's: what happened, in the cashier's words (the cloud keeps only the reason). */
  note: z.string().nullable().default(null),
});
export type RefundDoc = z.infer<typeof RefundDoc>;

/** Every kind of entity the store keeps, and the document schema of each. */
export const EntityDocs = {
  location: LocationDoc,
  category: CategoryDoc,
  modifier: ModifierDoc,
  menu_item: MenuItemDoc,
  order: OrderDoc,
  payment_intent: PaymentIntentDoc,
  payment: PaymentDoc,
  refund: RefundDoc,
} as const;
export type EntityKind = keyof typeof EntityDocs;
export const EntityKind = z.enum(Object.keys(EntityDocs) as [EntityKind, ...EntityKind[]]);
export type EntityDoc<K extends EntityKind> = z.infer<(typeof EntityDocs)[K]>;

export const OperationKind = z.enum([
  'order.create',
  'order.update',
  'order.fulfil',
  'order.cancel',
  'payment_intent.create',
  'payment_intent.capture',
  'refund.create',
  'menu_item.create',
  'menu_item.update',
  'menu_item.delete',
  'location.update',
]);
export type OperationKind = z.infer<typeof OperationKind>;

export const OperationState = z.enum(['pending', 'in_flight', 'done', 'dead']);
export type OperationState = z.infer<typeof OperationState>;
