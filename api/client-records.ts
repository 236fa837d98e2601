// What a client (the terminal's sync engine) accepts from a /v1 server: liberal. Unknown fields
// are kept, fields the spec does not show are optional, and close variants are normalised
// (e.g. "canceled" → "cancelled", epoch seconds → ISO string). The sandbox's exact output is
// in ./records; these schemas accept it and also a real server that differs where the spec is silent.
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
const lowercaseCurrency = z.string().transform((c) => c.toLowerCase());

/** Case-insensitive enum that also maps known spelling variants onto the canonical value. */
function liberalEnum<const T extends readonly [string, ...string[]]>(values: T, variants: Record<string, T[number]> = {}) {
  return z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .transform((s) => (variants[s] ?? s) as string)
    .pipe(z.enum(values));
}

export const clientOrderStatusSchema = liberalEnum(['open', 'fulfilled', 'cancelled'] as const, {
  canceled: 'cancelled',
  completed: 'fulfilled',
  complete: 'fulfilled',
});

const modifierRef = z.union([z.string(), z.looseObject({ id: z.string(), name: z.string().optional(), price: money.optional() })]);

export const clientOrderLineSchema = z.looseObject({
  id: z.string().optional(),
  menu_item_id: z.string().optional(),
  name: z.string().optional(),
  quantity: z.int(),
  price: money.optional(),
  modifiers: z.array(modifierRef).optional(),
});

export const clientCustomerSchema = z.looseObject({
  name: z.string().nullish(),
  phone: z.string().nullish(),
});

export const clientOrderSchema = z.looseObject({
  id: z.string().min(1),
  location_id: z.string().optional(),
  status: clientOrderStatusSchema,
  items: z.array(clientOrderLineSchema).optional(),
  customer: clientCustomerSchema.nullish(),
  total: money.optional(),
  currency: lowercaseCurrency.optional(),
  amount_paid: money.optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  created_at: clientTimestampSchema.optional(),
  updated_at: clientTimestampSchema.optional(),
});
export type ClientOrder = z.infer<typeof clientOrderSchema>;

export const clientPaymentStatusSchema = liberalEnum(['authorized', 'captured', 'partially_refunded', 'refunded'] as const, {
  requires_capture: 'authorized',
  succeeded: 'captured',
  completed: 'captured',
});

export const clientRefundSchema = z.looseObject({
  id: z.string().min(1),
  payment_id: z.string().optional(),
  amount: money,
  currency: lowercaseCurrency.optional(),
  reason: z.string().nullish(),
  status: z.string().optional(),
  created_at: clientTimestampSchema.optional(),
});
export type ClientRefund = z.infer<typeof clientRefundSchema>;

export const clientPaymentSchema = z.looseObject({
  id: z.string().min(1),
  order_id: z.string().optional(),
  amount: money,
  currency: lowercaseCurrency.optional(),
  status: clientPaymentStatusSchema,
  amount_captured: money.optional(),
  amount_refunded: money.optional(),
  refunds: z.array(clientRefundSchema).optional(),
  created_at: clientTimestampSchema.optional(),
  updated_at: clientTimestampSchema.optional(),
});
export type ClientPayment = z.infer<typeof clientPaymentSchema>;

export const clientLocationSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  address: z.union([z.string(), z.looseObject({})]).nullish(),
  phone: z.string().nullish(),
  timezone: z.string().nullish(),
  currency: lowercaseCurrency.optional(),
  status: z.string().optional(),
  created_at: clientTimestampSchema.optional(),
  updated_at: clientTimestampSchema.optional(),
});
export type ClientLocation = z.infer<typeof clientLocationSchema>;

export const clientCategorySchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  description: z.string().nullish(),
  position: z.int().optional(),
});
export type ClientCategory = z.infer<typeof clientCategorySchema>;

export const clientModifierSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  price: money.default(0),
});
export type ClientModifier = z.infer<typeof clientModifierSchema>;

export const clientMenuItemSchema = z.looseObject({
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
  created_at: clientTimestampSchema.optional(),
  updated_at: clientTimestampSchema.optional(),
});
export type ClientMenuItem = z.infer<typeof clientMenuItemSchema>;

export const clientDeletedSchema = z.looseObject({ id: z.string().min(1), deleted: z.boolean().optional() });

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
