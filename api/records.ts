// The records the sandbox returns, exactly as documented in docs/spec-gaps.md (strict: no field
// more, none less). Clients read the liberal variants in ./client-records instead.
import { z } from 'zod';
import { orderChannelSchema, orderStatusSchema, orderTypeSchema, paymentStatusSchema, refundReasonSchema, refundStatusSchema, taxRoundingSchema } from './enums';

/** Money is an integer count of the currency's minor unit (cents for usd). */
export const minorUnitsSchema = z.int().min(0).max(99_999_999_999);
/** ISO 4217 code in lowercase, as the spec's payment intent example. */
export const currencySchema = z.string().regex(/^[a-z]{3}$/, 'a lowercase ISO 4217 currency code');
export const timestampSchema = z.iso.datetime({ offset: false });
/** Free-form string pairs the client attaches (e.g. its own operation id), returned unchanged. */
export const metadataSchema = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((m) => Object.keys(m).length <= 20, 'at most 20 metadata keys');

export function prefixedId(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}[0-9a-z]{1,64}$`), `an id starting with ${prefix}`);
}

// Checkout limits (sandbox extension, docs/spec-gaps.md "Checkout: what the sandbox models beyond the spec").
export const ORDER_NUMBER_MAX = 16;
export const TABLE_MAX = 12;
export const GUESTS_MAX = 99;
export const LINE_NOTE_MAX = 140;
export const DISCOUNT_REASON_MAX = 100;
export const TAX_CLASS_MAX = 40;
/** 100 000 basis points = 1000 %: a sanity bound, not a real rate. */
export const RATE_BPS_MAX = 100_000;

/** A tax class names a kind of goods ('food', 'alcohol'); menu items carry one, tax rates apply to one. */
export const taxClassSchema = z.string().min(1).max(TAX_CLASS_MAX);

export const customerSchema = z.strictObject({
  name: z.string().nullable(),
  phone: z.string().nullable(),
});

export const orderLineModifierSchema = z.strictObject({
  id: prefixedId('mod_'),
  name: z.string(),
  price: minorUnitsSchema,
});

export const orderLineSchema = z.strictObject({
  id: prefixedId('li_'),
  menu_item_id: prefixedId('mi_'),
  name: z.string(),
  quantity: z.int().min(1),
  /** Unit price including the line's modifiers. The line costs price × quantity. */
  price: minorUnitsSchema,
  modifiers: z.array(orderLineModifierSchema),
  /** The till's note for the kitchen ("no salt"); '' when none. */
  note: z.string().max(LINE_NOTE_MAX),
});

/** A discount or comp the till applied; its amount is the till's own arithmetic. */
export const orderDiscountSchema = z.strictObject({
  reason: z.string().min(1).max(DISCOUNT_REASON_MAX),
  amount: minorUnitsSchema.min(1),
  /** Index into `items` for a line discount; null for one on the whole order. */
  line: z.int().min(0).nullable(),
});
export type OrderDiscount = z.infer<typeof orderDiscountSchema>;

export const orderSchema = z.strictObject({
  id: prefixedId('ord_'),
  object: z.literal('order'),
  location_id: prefixedId('loc_'),
  status: orderStatusSchema,
  items: z.array(orderLineSchema),
  customer: customerSchema.nullable(),
  /** The till's short human number ("A17"); stored as given, not unique. */
  order_number: z.string().max(ORDER_NUMBER_MAX).nullable(),
  order_type: orderTypeSchema.nullable(),
  table: z.string().max(TABLE_MAX).nullable(),
  guests: z.int().min(1).max(GUESTS_MAX).nullable(),
  /** 'pos' for every order created through /v1. */
  channel: orderChannelSchema,
  /** Σ price × quantity over the lines. */
  subtotal: minorUnitsSchema,
  discounts: z.array(orderDiscountSchema),
  /** Σ discounts[].amount. */
  discount_total: minorUnitsSchema,
  /** The tax the till computed from the location's rates. */
  tax_total: minorUnitsSchema,
  /** true: tax_total is already inside the prices (and so not added to total). */
  tax_included: z.boolean(),
  /** subtotal − discount_total + (tax_included ? 0 : tax_total). */
  total: minorUnitsSchema,
  currency: currencySchema,
  /** Captured minus refunded, over the order's payments. */
  amount_paid: minorUnitsSchema,
  metadata: metadataSchema,
  created_at: timestampSchema,
  updated_at: timestampSchema,
  fulfilled_at: timestampSchema.nullable(),
  cancelled_at: timestampSchema.nullable(),
});
export type Order = z.infer<typeof orderSchema>;

export const refundSchema = z.strictObject({
  id: prefixedId('re_'),
  object: z.literal('refund'),
  payment_id: prefixedId('pay_'),
  amount: minorUnitsSchema,
  currency: currencySchema,
  reason: refundReasonSchema,
  status: refundStatusSchema,
  created_at: timestampSchema,
});
export type Refund = z.infer<typeof refundSchema>;

/** The payment intent and the payment are one record (prefix pay_) that moves through its states. */
export const paymentSchema = z.strictObject({
  id: prefixedId('pay_'),
  object: z.literal('payment'),
  order_id: prefixedId('ord_'),
  /** What the card is charged, tip included. */
  amount: minorUnitsSchema,
  /** The part of amount that is a tip (not counted against the order's total). */
  tip_amount: minorUnitsSchema,
  currency: currencySchema,
  status: paymentStatusSchema,
  amount_captured: minorUnitsSchema,
  amount_refunded: minorUnitsSchema,
  refunds: z.array(refundSchema),
  created_at: timestampSchema,
  updated_at: timestampSchema,
  captured_at: timestampSchema.nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const addressSchema = z.strictObject({
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  region: z.string().nullable(),
  postal_code: z.string(),
  /** ISO 3166-1 alpha-2, uppercase. */
  country: z.string().regex(/^[A-Z]{2}$/),
});

export const locationStatusSchema = z.enum(['active', 'inactive']);

export const taxRateSchema = z.strictObject({
  id: prefixedId('tax_'),
  name: z.string(),
  /** Applies to the menu items of this class; several rates of one class add up. */
  tax_class: taxClassSchema,
  /** Basis points: 875 = 8.75 %. */
  rate_bps: z.int().min(0).max(RATE_BPS_MAX),
});
export type TaxRate = z.infer<typeof taxRateSchema>;

export const locationSchema = z.strictObject({
  id: prefixedId('loc_'),
  object: z.literal('location'),
  name: z.string(),
  address: addressSchema,
  phone: z.string().nullable(),
  /** IANA time zone name. */
  timezone: z.string(),
  currency: currencySchema,
  status: locationStatusSchema,
  tax_rates: z.array(taxRateSchema),
  /** true: menu prices already include tax (VAT style); the till then reports the tax inside them. */
  prices_include_tax: z.boolean(),
  /** Round the tax of each line, or once over the order's sum per rate. */
  tax_rounding: taxRoundingSchema,
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type Location = z.infer<typeof locationSchema>;

export const categorySchema = z.strictObject({
  id: prefixedId('cat_'),
  object: z.literal('category'),
  name: z.string(),
  description: z.string().nullable(),
  /** Display order, ascending. */
  position: z.int().min(0),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type Category = z.infer<typeof categorySchema>;

export const modifierSchema = z.strictObject({
  id: prefixedId('mod_'),
  object: z.literal('modifier'),
  name: z.string(),
  /** Added to the item's unit price when chosen. */
  price: minorUnitsSchema,
});
export type Modifier = z.infer<typeof modifierSchema>;

/** Choices among some of an item's modifiers; a modifier is in at most one group, one in none is a free extra. */
export const modifierGroupSchema = z.strictObject({
  id: prefixedId('mg_'),
  name: z.string(),
  min_choices: z.int().min(0),
  /** null: no limit. */
  max_choices: z.int().min(1).nullable(),
  modifier_ids: z.array(prefixedId('mod_')),
});
export type ModifierGroup = z.infer<typeof modifierGroupSchema>;

export const menuItemSchema = z.strictObject({
  id: prefixedId('mi_'),
  object: z.literal('menu_item'),
  /** null: sold at every location. */
  location_id: prefixedId('loc_').nullable(),
  category_id: prefixedId('cat_'),
  name: z.string(),
  description: z.string(),
  price: minorUnitsSchema,
  currency: currencySchema,
  available: z.boolean(),
  modifiers: z.array(modifierSchema),
  modifier_groups: z.array(modifierGroupSchema),
  /** Which of the location's tax rates apply ('standard' unless set). */
  tax_class: taxClassSchema,
  /** Units left; null when stock is not tracked. Orders decrement it and may take it below zero. */
  stock: z.int().nullable(),
  /** inventory.low_stock fires when an order takes stock from above this value to at or below it. */
  low_stock_threshold: z.int().min(0).nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type MenuItem = z.infer<typeof menuItemSchema>;

/** DELETE /menu/items/{id} answers 200 with this. */
export const deletedMenuItemSchema = z.strictObject({
  id: prefixedId('mi_'),
  object: z.literal('menu_item'),
  deleted: z.literal(true),
});
export type DeletedMenuItem = z.infer<typeof deletedMenuItemSchema>;

/** The list envelope of every list endpoint. links.prev/next are null where there is no such page. */
export function listEnvelopeSchema<T extends z.ZodType>(record: T) {
  return z.strictObject({
    data: z.array(record),
    meta: z.strictObject({
      total: z.int().min(0),
      page: z.int().min(1),
      per_page: z.int().min(1).max(100),
      total_pages: z.int().min(0),
    }),
    links: z.strictObject({
      first: z.url(),
      prev: z.url().nullable(),
      next: z.url().nullable(),
      last: z.url(),
    }),
  });
}
export type ListEnvelope<T> = {
  data: T[];
  meta: { total: number; page: number; per_page: number; total_pages: number };
  links: { first: string; prev: string | null; next: string | null; last: string };
};
