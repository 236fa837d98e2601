// What a client (the terminal's sync engine) accepts from a /v1 server: liberal. What the spec
// shows is validated; every field it does not show is optional (docs/spec-gaps.md gives the
// default each takes); unknown fields are kept; close variants are normalised ("canceled" →
// "cancelled", epoch seconds → ISO string); and a record may come flat or in the
// {id, type, attributes, relationships, meta} shape of the spec's own event payloads. The
// sandbox's default output is in ./records; these schemas accept it, its spec-minimal profile,
// and any server that differs where the spec is silent.
import { z } from 'zod';
import { eventTypeSchema } from './enums';

/** Already in the normalised form: `Date.prototype.toISOString()` output, what most servers send. */
const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * An ISO 8601 string, or epoch seconds/milliseconds, normalised to an ISO string. A string in the
 * normalised form is only checked, not rebuilt: every record carries two of these, and rebuilding
 * them was a third of the cost of reading a pulled order.
 */
export const clientTimestampSchema = z.union([
  z.string().transform((s, ctx) => {
    const ms = Date.parse(s);
    if (Number.isNaN(ms)) {
      ctx.issues.push({ code: 'custom', message: 'a date-time', input: s });
      return z.NEVER;
    }
    return CANONICAL_ISO.test(s) ? s : new Date(ms).toISOString();
  }),
  z
    .number()
    .nonnegative()
    .transform((n) => new Date(n < 1e11 ? n * 1000 : n).toISOString()),
]);
const money = z.int();

function plainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A resource in the {id, type, attributes, relationships, meta} shape (alone, or as the `data`
 * of a document), read as the flat record it stands for: the attributes, the id, and `<name>_id` for each to-one relationship the attributes
 * do not already name (`relationships.location.data.id` → `location_id`). A flat record passes
 * unchanged (one property read: this runs for every pulled record).
 */
export function flattenResource(input: unknown): unknown {
  // A JSON:API document wraps its one resource: { data: { id, type, attributes } }.
  if (plainObject(input) && input.id === undefined && plainObject(input.data) && plainObject(input.data.attributes)) input = input.data;
  if (!plainObject(input) || !plainObject(input.attributes)) return input;
  const flat: Record<string, unknown> = {};
  if (plainObject(input.relationships)) {
    for (const [name, link] of Object.entries(input.relationships)) {
      const data = plainObject(link) ? link.data : undefined;
      if (plainObject(data) && typeof data.id === 'string') flat[`${name}_id`] = data.id;
    }
  }
  Object.assign(flat, input.attributes);
  if (input.meta !== undefined && !('meta' in flat)) flat.meta = input.meta;
  flat.id = input.id ?? input.attributes.id;
  return flat;
}

/** A record schema that also reads the attributes shape (see flattenResource). */
function resource<T extends z.ZodType>(fields: T) {
  return z.preprocess(flattenResource, fields);
}
const lowercaseCurrency = z.string().transform((c) => c.toLowerCase());

/** Case-insensitive enum that also maps known spelling variants onto the canonical value. */
function liberalEnum<const T extends readonly [string, ...string[]]>(values: T, variants: Record<string, T[number]> = {}) {
  return z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .transform((s) => (variants[s] ?? s) as string)
    .pipe(z.enum(values));
}

const ORDER_STATE_VARIANTS: Record<string, string> = { canceled: 'cancelled', completed: 'fulfilled', complete: 'fulfilled' };

/**
 * An order's state: the spec's three (and their usual variants) normalised; any other is kept as
 * the server said it (`voided`), never refused, so one such order cannot make a page unreadable.
 * The terminal stores it as not open and keeps the server's word (sync/server-records.ts).
 */
export const clientOrderStatusSchema = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .transform((s) => ORDER_STATE_VARIANTS[s] ?? s)
  .pipe(z.string().min(1));

/** The order states the terminal knows (the spec's). */
export function isKnownOrderStatus(status: string): status is 'open' | 'fulfilled' | 'cancelled' {
  return status === 'open' || status === 'fulfilled' || status === 'cancelled';
}

const modifierRef = z.union([z.string(), z.looseObject({ id: z.string(), name: z.string().optional(), price: money.optional() })]);

/**
 * A field beyond the spec (the checkout's, docs/spec-gaps.md "Checkout"): read when it is well
 * formed, ignored when it is not, so a server's odd extra never makes its record unreadable.
 */
function extra<T extends z.ZodType>(schema: T) {
  return schema.nullish().catch(undefined);
}

export const clientOrderLineSchema = z.looseObject({
  id: z.string().optional(),
  menu_item_id: z.string().optional(),
  name: z.string().optional(),
  quantity: z.int(),
  price: money.optional(),
  modifiers: z.array(modifierRef).optional(),
  note: extra(z.string()),
});

export const clientCustomerSchema = z.looseObject({
  name: z.string().nullish(),
  phone: z.string().nullish(),
});

/** The order's fields; `clientOrderSchema` reads them in either record shape. */
export const clientOrderFieldsSchema = z.looseObject({
  id: z.string().min(1),
  location_id: z.string().optional(),
  status: clientOrderStatusSchema.optional(),
  items: z.array(clientOrderLineSchema).optional(),
  customer: clientCustomerSchema.nullish(),
  total: money.optional(),
  currency: lowercaseCurrency.optional(),
  amount_paid: money.optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  created_at: clientTimestampSchema.optional(),
  updated_at: clientTimestampSchema.optional(),
  order_number: extra(z.union([z.string(), z.int().transform(String)])),
  order_type: extra(
    liberalEnum(['dine_in', 'takeout', 'delivery'] as const, { 'dine-in': 'dine_in', dinein: 'dine_in', eat_in: 'dine_in', take_out: 'takeout', takeaway: 'takeout', pickup: 'takeout' }),
  ),
  table: extra(z.union([z.string(), z.int().transform(String)])),
  guests: extra(z.int().min(1)),
  channel: extra(z.string().transform((s) => s.trim().toLowerCase())),
  subtotal: extra(money.nonnegative()),
  discount_total: extra(money.nonnegative()),
  tax_total: extra(money.nonnegative()),
  tax_included: extra(z.boolean()),
});
export const clientOrderSchema = resource(clientOrderFieldsSchema);
export type ClientOrder = z.infer<typeof clientOrderFieldsSchema>;

const PAYMENT_STATE_VARIANTS: Record<string, string> = { requires_capture: 'authorized', succeeded: 'captured', completed: 'captured', canceled: 'cancelled' };

/**
 * A payment's state. The spec lists none (only that an intent can be authorized before capture):
 * our names and their usual variants are normalised, and any other state is kept as the server
 * said it (`settled`), never refused: see `paymentHoldsNoMoney` for what the terminal makes of it.
 */
export const clientPaymentStatusSchema = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .transform((s) => PAYMENT_STATE_VARIANTS[s] ?? s)
  .pipe(z.string().min(1));

/** States in which a payment holds no money: the only ones the terminal takes as "not captured". */
const PAYMENT_FAILED_STATES: ReadonlySet<string> = new Set(['failed', 'declined', 'cancelled', 'voided', 'void', 'expired', 'requires_payment_method']);

/**
 * Whether the cloud shows no capture of this payment: authorized only, or in a known failed state.
 * Any other state (captured, refunded, or one this terminal does not know, like `settled`) means
 * the cloud has the money, and the till must never ask for it again.
 */
export function paymentHoldsNoMoney(status: string): boolean {
  return status === 'authorized' || PAYMENT_FAILED_STATES.has(status);
}

export const clientRefundFieldsSchema = z.looseObject({
  id: z.string().min(1),
  payment_id: z.string().optional(),
  amount: money,
  currency: lowercaseCurrency.optional(),
  reason: z.string().nullish(),
  status: z.string().optional(),
  created_at: clientTimestampSchema.optional(),
});
export const clientRefundSchema = resource(clientRefundFieldsSchema);
export type ClientRefund = z.infer<typeof clientRefundFieldsSchema>;

export const clientPaymentFieldsSchema = z.looseObject({
  id: z.string().min(1),
  order_id: z.string().optional(),
  amount: money,
  currency: lowercaseCurrency.optional(),
  status: clientPaymentStatusSchema,
  amount_captured: money.optional(),
  amount_refunded: money.optional(),
  /** Beyond the spec: the part of amount that is a tip. */
  tip_amount: extra(money.nonnegative()),
  refunds: z.array(clientRefundSchema).optional(),
  created_at: clientTimestampSchema.optional(),
  updated_at: clientTimestampSchema.optional(),
});
export const clientPaymentSchema = resource(clientPaymentFieldsSchema);
export type ClientPayment = z.infer<typeof clientPaymentFieldsSchema>;

/** "8.875" (a percentage, as text or a number) → 88_750 parts per million, exactly: no float in between. */
function percentToPpm(text: string): number | undefined {
  const match = /^(\d{1,3})(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!match) return undefined;
  const ppm = Number(match[1]) * 10_000 + Number((match[2] ?? '').padEnd(4, '0'));
  return ppm <= 1_000_000 ? ppm : undefined;
}

/**
 * A tax rate of a location, beyond the spec: its rate as `rate_ppm`, `rate_bps` (basis points) or
 * `percentage` ("8.875"), read as parts per million.
 */
export const clientTaxRateSchema = z
  .looseObject({
    tax_class: z.string().min(1).default('standard'),
    name: z.string().min(1).default('Tax'),
    rate_ppm: z.int().min(0).max(1_000_000).optional(),
    rate_bps: z.int().min(0).max(10_000).optional(),
    percentage: z.union([z.string(), z.number().transform(String)]).optional(),
  })
  .transform((rate, ctx) => {
    const ppm = rate.rate_ppm ?? (rate.rate_bps === undefined ? undefined : rate.rate_bps * 100) ?? (rate.percentage === undefined ? undefined : percentToPpm(rate.percentage));
    if (ppm === undefined) {
      ctx.issues.push({ code: 'custom', message: 'a tax rate needs rate_ppm, rate_bps or percentage', input: rate });
      return z.NEVER;
    }
    return { tax_class: rate.tax_class, name: rate.name, rate_ppm: ppm };
  });

export const clientLocationFieldsSchema = z.looseObject({
  id: z.string().min(1),
  /** The spec shows no location field: a location without a name is named by its id. */
  name: z.string().optional(),
  address: z.union([z.string(), z.looseObject({})]).nullish(),
  phone: z.string().nullish(),
  timezone: z.string().nullish(),
  currency: lowercaseCurrency.optional(),
  status: z.string().optional(),
  created_at: clientTimestampSchema.optional(),
  updated_at: clientTimestampSchema.optional(),
  tax_rates: extra(z.array(clientTaxRateSchema)),
  prices_include_tax: extra(z.boolean()),
  tax_rounding: extra(liberalEnum(['per_line', 'per_order'] as const)),
});
export const clientLocationSchema = resource(clientLocationFieldsSchema);
export type ClientLocation = z.infer<typeof clientLocationFieldsSchema>;

export const clientCategoryFieldsSchema = z.looseObject({
  id: z.string().min(1),
  /** Not shown by the spec either: a category without a name is named by its id. */
  name: z.string().optional(),
  description: z.string().nullish(),
  position: z.int().optional(),
});
export const clientCategorySchema = resource(clientCategoryFieldsSchema);
export type ClientCategory = z.infer<typeof clientCategoryFieldsSchema>;

export const clientModifierSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  price: money.default(0),
});
export type ClientModifier = z.infer<typeof clientModifierSchema>;

export const clientMenuItemFieldsSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  price: money,
  category_id: z.string().nullish(),
  description: z.string().nullish(),
  available: z.boolean().default(true),
  location_id: z.string().nullish(),
  currency: lowercaseCurrency.optional(),
  modifiers: z.array(clientModifierSchema).default([]),
  stock: z.int().nullish(),
  tax_class: extra(z.string().min(1)),
  modifier_groups: extra(
    z.array(
      z.looseObject({
        id: z.string().min(1),
        name: z.string(),
        min_choices: z.int().min(0).default(0),
        max_choices: z.int().min(1).nullish(),
        modifier_ids: z.array(z.string()),
      }),
    ),
  ),
  created_at: clientTimestampSchema.optional(),
  updated_at: clientTimestampSchema.optional(),
});
export const clientMenuItemSchema = resource(clientMenuItemFieldsSchema);
export type ClientMenuItem = z.infer<typeof clientMenuItemFieldsSchema>;

/** DELETE's reply: the spec shows none, so any body (or none) is read as "deleted". */
export const clientDeletedSchema = z.unknown();

/** A page of a list: data is required; meta and links are read when present. */
export function clientListEnvelopeSchema<T extends z.ZodType>(record: T) {
  return z.looseObject({
    data: z.array(record),
    meta: z
      .looseObject({
        total: z.int().min(0).optional(),
        page: z.int().min(1).optional(),
        per_page: z.int().min(1).optional(),
        total_pages: z.int().min(0).optional(),
      })
      .optional(),
    links: z
      .looseObject({
        first: z.string().nullish(),
        prev: z.string().nullish(),
        next: z.string().nullish(),
        last: z.string().nullish(),
      })
      .optional(),
  });
}

/**
 * A webhook event as a receiver reads it. Unknown event kinds parse (type stays a string) so a
 * receiver can acknowledge and skip them instead of making the sender retry forever.
 */
export const clientWebhookEventSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  created_at: clientTimestampSchema.optional(),
  data: z.looseObject({
    id: z.string().min(1),
    type: z.string().min(1),
    attributes: z.record(z.string(), z.unknown()).default({}),
  }),
});
export type ClientWebhookEvent = z.infer<typeof clientWebhookEventSchema>;

/** True when the event is one of the documented kinds. */
export function isKnownEventType(type: string): type is z.infer<typeof eventTypeSchema> {
  return eventTypeSchema.safeParse(type).success;
}
