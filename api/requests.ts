// Request bodies and query parameters of /v1 and of the OAuth token endpoint. Bodies are strict:
// an unknown field is an invalid_request naming it (a typo must not be silently dropped).
import { z } from 'zod';
import { eventTypeSchema, orderStatusSchema, orderTargetStatusSchema, orderTypeSchema, refundReasonSchema } from './enums';
import {
  addressSchema,
  currencySchema,
  DISCOUNT_REASON_MAX,
  GUESTS_MAX,
  LINE_NOTE_MAX,
  locationStatusSchema,
  metadataSchema,
  minorUnitsSchema,
  ORDER_NUMBER_MAX,
  TABLE_MAX,
  taxClassSchema,
} from './records';

const idString = z.string().min(1).max(100);
const positiveMinorUnits = minorUnitsSchema.min(1);

/** PATCH bodies must change something. */
export const hasSomeField = (body: object): boolean => Object.keys(body).length > 0;
export const NO_FIELD_MESSAGE = 'give at least one field to change';

// The fields of the order, payment and menu bodies are exported as shapes too: the sandbox's
// spec-minimal profile reads the same bodies with the checkout fields accepted and ignored.

export const orderLineInputShape = {
  menu_item_id: idString,
  quantity: z.int().min(1).max(999),
  modifiers: z
    .array(idString)
    .max(20)
    .refine((ids) => new Set(ids).size === ids.length, 'modifier ids must be unique')
    .optional(),
  /** Checkout: the line's note for the kitchen (default ''). */
  note: z.string().max(LINE_NOTE_MAX).optional(),
};
export const orderLineInputSchema = z.strictObject(orderLineInputShape);

export const ORDER_LINES_MAX = 100;
export const DISCOUNTS_MAX = 100;

export const discountInputSchema = z.strictObject({
  reason: z.string().min(1).max(DISCOUNT_REASON_MAX),
  amount: positiveMinorUnits,
  /** Index into this order's items; null or absent: the whole order. */
  line: z.int().min(0).nullable().optional(),
});
export type DiscountInput = z.infer<typeof discountInputSchema>;

/**
 * Checkout fields of POST /orders and PATCH /orders/{id} (sandbox extension, docs/spec-gaps.md
 * "Checkout"): all optional; on a PATCH a field not sent keeps its value. null clears.
 */
export const orderCheckoutShape = {
  order_number: z.string().min(1).max(ORDER_NUMBER_MAX).nullable().optional(),
  order_type: orderTypeSchema.nullable().optional(),
  table: z.string().min(1).max(TABLE_MAX).nullable().optional(),
  guests: z.int().min(1).max(GUESTS_MAX).nullable().optional(),
  /** Replaces every discount; the till computed the amounts. */
  discounts: z.array(discountInputSchema).max(DISCOUNTS_MAX).optional(),
  /** The tax the till computed from the location's rates. */
  tax_total: minorUnitsSchema.optional(),
  /** true: tax_total is inside the prices (not added to the total). */
  tax_included: z.boolean().optional(),
};

export const customerInputSchema = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  phone: z.string().min(1).max(40).optional(),
});

export const createOrderShape = {
  location_id: idString,
  items: z.array(orderLineInputSchema).min(1).max(ORDER_LINES_MAX),
  customer: customerInputSchema.optional(),
  metadata: metadataSchema.optional(),
  ...orderCheckoutShape,
};
export const createOrderRequestSchema = z.strictObject(createOrderShape);
export type CreateOrderRequest = z.infer<typeof createOrderRequestSchema>;

/** Only an open order may be patched. `items` replaces every line; `status` closes the order. */
export const patchOrderShape = {
  items: z.array(orderLineInputSchema).min(1).max(ORDER_LINES_MAX).optional(),
  customer: customerInputSchema.nullable().optional(),
  status: orderTargetStatusSchema.optional(),
  metadata: metadataSchema.optional(),
  ...orderCheckoutShape,
};
export const patchOrderRequestSchema = z.strictObject(patchOrderShape).refine(hasSomeField, NO_FIELD_MESSAGE);
export type PatchOrderRequest = z.infer<typeof patchOrderRequestSchema>;

export const createPaymentIntentShape = {
  order_id: idString,
  /** What the card is charged, tip included. */
  amount: positiveMinorUnits,
  currency: currencySchema,
  /** Checkout: the part of amount that is a tip (default 0, at most amount). */
  tip_amount: minorUnitsSchema.optional(),
};
export const createPaymentIntentRequestSchema = z.strictObject(createPaymentIntentShape);
export type CreatePaymentIntentRequest = z.infer<typeof createPaymentIntentRequestSchema>;

/** The capture body is optional; amount_to_capture defaults to the whole authorized amount. */
export const captureRequestSchema = z.strictObject({
  amount_to_capture: positiveMinorUnits.optional(),
});
export type CaptureRequest = z.infer<typeof captureRequestSchema>;

/** amount defaults to what is left to refund; reason defaults to requested_by_customer. */
export const createRefundRequestSchema = z.strictObject({
  amount: positiveMinorUnits.optional(),
  reason: refundReasonSchema.optional(),
});
export type CreateRefundRequest = z.infer<typeof createRefundRequestSchema>;

export const patchLocationRequestSchema = z
  .strictObject({
    name: z.string().min(1).max(200).optional(),
    /** Merged into the current address field by field. */
    address: addressSchema.partial().optional(),
    phone: z.string().min(1).max(40).nullable().optional(),
    timezone: z
      .string()
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, 'an IANA time zone name')
      .optional(),
    status: locationStatusSchema.optional(),
  })
  .refine(hasSomeField, NO_FIELD_MESSAGE);
export type PatchLocationRequest = z.infer<typeof patchLocationRequestSchema>;

export const modifierInputSchema = z.strictObject({
  name: z.string().min(1).max(100),
  price: minorUnitsSchema,
});

/** In a PATCH, a modifier with an id updates that modifier; one without is new; absent ones are removed. */
export const modifierPatchSchema = modifierInputSchema.extend({ id: idString.optional() });

export const createMenuItemShape = {
  name: z.string().min(1).max(200),
  price: minorUnitsSchema,
  category_id: idString,
  description: z.string().max(1000).optional(),
  available: z.boolean().optional(),
  location_id: idString.nullable().optional(),
  modifiers: z.array(modifierInputSchema).max(30).optional(),
  stock: z.int().min(-1_000_000).max(1_000_000).nullable().optional(),
  low_stock_threshold: z.int().min(0).max(1_000_000).nullable().optional(),
  /** Checkout: which of a location's tax rates apply (default 'standard'). */
  tax_class: taxClassSchema.optional(),
};
export const createMenuItemRequestSchema = z.strictObject(createMenuItemShape);
export type CreateMenuItemRequest = z.infer<typeof createMenuItemRequestSchema>;

export const patchMenuItemShape = {
  name: z.string().min(1).max(200).optional(),
  price: minorUnitsSchema.optional(),
  category_id: idString.optional(),
  description: z.string().max(1000).optional(),
  available: z.boolean().optional(),
  location_id: idString.nullable().optional(),
  modifiers: z.array(modifierPatchSchema).max(30).optional(),
  stock: z.int().min(-1_000_000).max(1_000_000).nullable().optional(),
  low_stock_threshold: z.int().min(0).max(1_000_000).nullable().optional(),
  tax_class: taxClassSchema.optional(),
};
export const patchMenuItemRequestSchema = z.strictObject(patchMenuItemShape).refine(hasSomeField, NO_FIELD_MESSAGE);
export type PatchMenuItemRequest = z.infer<typeof patchMenuItemRequestSchema>;

export const webhookTestRequestSchema = z.strictObject({
  endpoint_id: idString,
  event_type: eventTypeSchema,
});
export type WebhookTestRequest = z.infer<typeof webhookTestRequestSchema>;

// ---- Query parameters (every value arrives as one string; repeated parameters are rejected) ----

export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;

const positiveIntParam = (max: number) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, 'a positive integer')
    .transform(Number)
    .pipe(z.int().min(1).max(max));

export const pageQuerySchema = z.strictObject({
  page: positiveIntParam(1_000_000).optional(),
  per_page: positiveIntParam(PER_PAGE_MAX).optional(),
});

const datetimeParam = z.iso.datetime({ offset: true }).transform((s) => Date.parse(s));

export const listOrdersQuerySchema = pageQuerySchema.extend({
  location_id: idString.optional(),
  status: orderStatusSchema.optional(),
  created_after: datetimeParam.optional(),
  created_before: datetimeParam.optional(),
});
export type ListOrdersQuery = z.infer<typeof listOrdersQuerySchema>;

export const listMenuItemsQuerySchema = pageQuerySchema.extend({
  location_id: idString.optional(),
});
export type ListMenuItemsQuery = z.infer<typeof listMenuItemsQuerySchema>;

// ---- OAuth token endpoint: POST {api_host}/oauth/token, JSON body ----

export const authorizationCodeGrantSchema = z.strictObject({
  grant_type: z.literal('authorization_code'),
  client_id: z.string().min(1),
  /** Required for confidential clients; public (PKCE-only) clients omit it. */
  client_secret: z.string().min(1).optional(),
  code: z.string().min(1),
  redirect_uri: z.string().min(1),
  /** Required when the authorization request carried a code_challenge. */
  code_verifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, 'an RFC 7636 code verifier').optional(),
});

export const refreshTokenGrantSchema = z.strictObject({
  grant_type: z.literal('refresh_token'),
  client_id: z.string().min(1),
  client_secret: z.string().min(1).optional(),
  refresh_token: z.string().min(1),
});

export const tokenRequestSchema = z.discriminatedUnion('grant_type', [authorizationCodeGrantSchema, refreshTokenGrantSchema]);
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  /** The refresh grant rotates it: the new value replaces the old, which stops working. */
  refresh_token: z.string().min(1),
  token_type: z.string().regex(/^bearer$/i),
  expires_in: z.int().min(0),
  /** Granted scopes separated by a space. */
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
