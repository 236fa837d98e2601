// The shapes the store keeps, as zod schemas (types derive from them). A document is one entity
// as the cashier sees it; in the database it is one row per layer ('base' and 'pending', see
// docs/store.md); an order's lines lie in one JSON column of its row.
import { z } from 'zod';

const Currency = z.string().regex(/^[a-z]{3}$/);
const Minor = z.number().int();
const Millis = z.number().int();

export const LocationDoc = z.object({
  id: z.string(),
  name: z.string(),
  currency: Currency,
  address: z.string().nullable(),
  timezone: z.string().nullable(),
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
});
export type MenuItemDoc = z.infer<typeof MenuItemDoc>;

export const OrderStatus = z.enum(['open', 'fulfilled', 'cancelled']);
export type OrderStatus = z.infer<typeof OrderStatus>;

export const OrderLineModifierDoc = z.object({ modifier_id: z.string(), name: z.string(), price: Minor });
export type OrderLineModifierDoc = z.infer<typeof OrderLineModifierDoc>;

export const OrderLineDoc = z.object({
  menu_item_id: z.string(),
  name: z.string(),
  quantity: z.number().int().positive(),
  unit_price: Minor,
  modifiers: z.array(OrderLineModifierDoc),
});
export type OrderLineDoc = z.infer<typeof OrderLineDoc>;

export const CustomerDoc = z.object({ name: z.string(), phone: z.string() });
export type CustomerDoc = z.infer<typeof CustomerDoc>;

/**
 * Fields only the till keeps (/v1 has no place for them): an entity first seen from the server
 * starts from these, so its record still makes a whole document.
 */
export const TILL_ONLY_DEFAULTS: Partial<Record<EntityKind, Record<string, unknown>>> = { order: { notes: '' }, menu_item: { barcode: null } };

/**
 * Fields the /v1 spec does not show, which a server may leave out: an entity first seen without
 * them starts from these (docs/spec-gaps.md, "What the terminal accepts"). An entity already
 * known keeps its own values instead. Money takes the currency of the store (see ServerState).
 */
export function unstatedFieldDefaults(kind: EntityKind, context: { now: number; currency: string }): Record<string, unknown> {
  const { now, currency } = context;
  switch (kind) {
    case 'location':
      return { currency, address: null, timezone: null };
    case 'category':
      return { position: 0 };
    case 'modifier':
      return { price: 0 };
    case 'menu_item':
      return { currency, location_id: null, category_id: null, description: '', available: true, low_stock: false, modifier_ids: [], deleted: false };
    case 'order':
      // First seen now: a server that sends no timestamps gives the till no better date.
      return { status: 'open', currency, customer: null, lines: [], total: 0, created_at: now, updated_at: now };
    case 'payment_intent':
      return { currency, status: 'authorized', created_at: now };
    case 'payment':
      return { currency, payment_intent_id: null, status: 'captured', created_at: now };
    case 'refund':
      return { currency, reason: 'requested_by_customer', status: 'succeeded', created_at: now };
  }
}

export const OrderDoc = z.object({
  id: z.string(),
  location_id: z.string(),
  status: OrderStatus,
  currency: Currency,
  customer: CustomerDoc.nullable(),
  notes: z.string(),
  lines: z.array(OrderLineDoc),
  total: Minor,
  created_at: Millis,
  updated_at: Millis,
});
export type OrderDoc = z.infer<typeof OrderDoc>;

export const PaymentIntentDoc = z.object({
  id: z.string(),
  order_id: z.string(),
  amount: Minor,
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
