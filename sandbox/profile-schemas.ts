// The wire shapes of the sandbox's output profiles (docs/sandbox.md, "Profiles"): the spec-minimal
// records, events and error bodies carry only what the spec shows; the jsonapi record shape wraps a
// record as { id, type, attributes }. api/ describes the default profile; these are the sandbox's own
// additions, and replySchema() gives the exact shape of every successful reply in every setting.
import { z } from 'zod';
import type { OperationId } from '../api/endpoints';
import { eventTypeSchema, orderStatusSchema, paymentStatusSchema, refundReasonSchema } from '../api/enums';
import {
  categorySchema,
  currencySchema,
  deletedMenuItemSchema,
  listEnvelopeSchema,
  locationSchema,
  menuItemSchema,
  minorUnitsSchema,
  orderSchema,
  paymentSchema,
  prefixedId,
  refundSchema,
  timestampSchema,
} from '../api/records';
import { webhookTestResultSchema } from '../api/events';
import {
  createMenuItemShape,
  createOrderShape,
  createPaymentIntentShape,
  hasSomeField,
  NO_FIELD_MESSAGE,
  ORDER_LINES_MAX,
  orderCheckoutShape,
  orderLineInputShape,
  patchMenuItemShape,
  patchOrderShape,
} from '../api/requests';

export const profileSchema = z.enum(['default', 'spec-minimal']);
export type Profile = z.infer<typeof profileSchema>;

export const recordShapeSchema = z.enum(['flat', 'jsonapi']);
export type RecordShape = z.infer<typeof recordShapeSchema>;

export const specOrderLineSchema = z.strictObject({
  menu_item_id: prefixedId('mi_'),
  name: z.string(),
  quantity: z.int().min(1),
  /** Unit price including the line's modifiers, as in the default profile. */
  price: minorUnitsSchema,
  /** Modifier ids only: the spec's create body shows them as strings. */
  modifiers: z.array(prefixedId('mod_')),
});

export const specOrderSchema = z.strictObject({
  id: prefixedId('ord_'),
  location_id: prefixedId('loc_'),
  status: orderStatusSchema,
  total: minorUnitsSchema,
  customer: z.strictObject({ name: z.string().nullable(), phone: z.string().nullable() }).nullable(),
  items: z.array(specOrderLineSchema),
});
export type SpecOrder = z.infer<typeof specOrderSchema>;

export const specMenuItemSchema = z.strictObject({
  id: prefixedId('mi_'),
  name: z.string(),
  price: minorUnitsSchema,
  category_id: prefixedId('cat_'),
  description: z.string(),
  available: z.boolean(),
});
export type SpecMenuItem = z.infer<typeof specMenuItemSchema>;

/** The spec shows no location field: the name is the least a client can show. */
export const specLocationSchema = z.strictObject({ id: prefixedId('loc_'), name: z.string() });
export type SpecLocation = z.infer<typeof specLocationSchema>;

export const specCategorySchema = z.strictObject({ id: prefixedId('cat_'), name: z.string() });
export type SpecCategory = z.infer<typeof specCategorySchema>;

export const specPaymentSchema = z.strictObject({
  id: prefixedId('pay_'),
  order_id: prefixedId('ord_'),
  amount: minorUnitsSchema,
  currency: currencySchema,
  status: paymentStatusSchema,
});
export type SpecPayment = z.infer<typeof specPaymentSchema>;

export const specRefundSchema = z.strictObject({ id: prefixedId('re_'), amount: minorUnitsSchema, reason: refundReasonSchema });
export type SpecRefund = z.infer<typeof specRefundSchema>;

/** DELETE /menu/items/{id}: 200 with the id only. */
export const specDeletedMenuItemSchema = z.strictObject({ id: prefixedId('mi_') });
export type SpecDeletedMenuItem = z.infer<typeof specDeletedMenuItemSchema>;

/** POST /webhooks/test: 202 with the id of the queued event (the spec shows no reply). */
export const specWebhookTestResultSchema = z.strictObject({ id: prefixedId('evt_') });
export type SpecWebhookTestResult = z.infer<typeof specWebhookTestResultSchema>;

/** Exactly the order attributes the spec's event payload shows. */
export const specOrderEventAttributesSchema = z.strictObject({
  total: minorUnitsSchema,
  status: orderStatusSchema,
  items: z.array(z.strictObject({ name: z.string(), quantity: z.int().min(1), price: minorUnitsSchema })),
  location_id: prefixedId('loc_'),
});
export type SpecOrderEventAttributes = z.infer<typeof specOrderEventAttributesSchema>;

/** The spec shows no attributes for payment, menu and inventory events. */
const noAttributes = z.strictObject({});

export const specWebhookEventSchema = z.strictObject({
  id: prefixedId('evt_'),
  type: eventTypeSchema,
  created_at: timestampSchema,
  data: z.discriminatedUnion('type', [
    z.strictObject({ id: prefixedId('ord_'), type: z.literal('order'), attributes: specOrderEventAttributesSchema }),
    z.strictObject({ id: prefixedId('pay_'), type: z.literal('payment'), attributes: noAttributes }),
    z.strictObject({ id: prefixedId('mi_'), type: z.literal('menu_item'), attributes: noAttributes }),
  ]),
});
export type SpecWebhookEvent = z.infer<typeof specWebhookEventSchema>;

/** Most spec-minimal errors: a list; `code` is absent where the status alone tells (404). */
export const specErrorListSchema = z.strictObject({
  errors: z
    .array(
      z.strictObject({
        code: z.string().optional(),
        detail: z.string(),
        source: z.strictObject({ parameter: z.string() }).optional(),
      }),
    )
    .min(1),
});
export type SpecErrorList = z.infer<typeof specErrorListSchema>;

/** 400 and 401 in spec-minimal: a bare pair. */
export const specBareErrorSchema = z.strictObject({ code: z.string(), message: z.string() });
/** 429 in spec-minimal: a message and no code. */
export const specMessageErrorSchema = z.strictObject({ message: z.string() });

/** The jsonapi `type` of each record kind. */
export const jsonApiTypeSchema = z.enum(['order', 'menu_item', 'location', 'category', 'payment', 'refund']);
export type JsonApiType = z.infer<typeof jsonApiTypeSchema>;

export interface JsonApiResource {
  id: string;
  type: JsonApiType;
  attributes: Record<string, unknown>;
}

/** `record` as a jsonapi resource: its id and type at the top, every other field in attributes. */
export function jsonApiResourceSchema(type: JsonApiType, record: z.ZodObject) {
  const { id, ...attributes } = record.shape;
  return z.strictObject({ id: id ?? z.string(), type: z.literal(type), attributes: z.strictObject(attributes) });
}

/** What each operation answers: a record kind, alone or in a list envelope. */
export type ReplyKind = JsonApiType | 'deleted_menu_item' | 'webhook_test';

export const REPLIES: Record<OperationId, { kind: ReplyKind; list: boolean }> = {
  listOrders: { kind: 'order', list: true },
  getOrder: { kind: 'order', list: false },
  createOrder: { kind: 'order', list: false },
  updateOrder: { kind: 'order', list: false },
  createPaymentIntent: { kind: 'payment', list: false },
  getPaymentIntent: { kind: 'payment', list: false },
  capturePaymentIntent: { kind: 'payment', list: false },
  createRefund: { kind: 'refund', list: false },
  listLocations: { kind: 'location', list: true },
  getLocation: { kind: 'location', list: false },
  updateLocation: { kind: 'location', list: false },
  listMenuItems: { kind: 'menu_item', list: true },
  createMenuItem: { kind: 'menu_item', list: false },
  updateMenuItem: { kind: 'menu_item', list: false },
  deleteMenuItem: { kind: 'deleted_menu_item', list: false },
  listMenuCategories: { kind: 'category', list: true },
  sendTestWebhook: { kind: 'webhook_test', list: false },
};

/** The jsonapi type a reply kind is wrapped as; null: not a resource record, never wrapped. */
export const JSONAPI_TYPE: Record<ReplyKind, JsonApiType | null> = {
  order: 'order',
  menu_item: 'menu_item',
  location: 'location',
  category: 'category',
  payment: 'payment',
  refund: 'refund',
  deleted_menu_item: 'menu_item',
  webhook_test: null,
};

const RECORD_SCHEMAS: Record<Profile, Record<ReplyKind, z.ZodObject>> = {
  default: {
    order: orderSchema,
    menu_item: menuItemSchema,
    location: locationSchema,
    category: categorySchema,
    payment: paymentSchema,
    refund: refundSchema,
    deleted_menu_item: deletedMenuItemSchema,
    webhook_test: webhookTestResultSchema,
  },
  'spec-minimal': {
    order: specOrderSchema,
    menu_item: specMenuItemSchema,
    location: specLocationSchema,
    category: specCategorySchema,
    payment: specPaymentSchema,
    refund: specRefundSchema,
    deleted_menu_item: specDeletedMenuItemSchema,
    webhook_test: specWebhookTestResultSchema,
  },
};

/** The exact schema of one record of `kind` as the sandbox sends it with these settings. */
export function recordSchema(kind: ReplyKind, profile: Profile, shape: RecordShape): z.ZodObject {
  const record = RECORD_SCHEMAS[profile][kind];
  const type = JSONAPI_TYPE[kind];
  return shape === 'jsonapi' && type !== null ? jsonApiResourceSchema(type, record) : record;
}

/** The exact schema of a successful reply of `operationId` with these settings. */
export function replySchema(operationId: OperationId, profile: Profile, shape: RecordShape): z.ZodType {
  const { kind, list } = REPLIES[operationId];
  const record = recordSchema(kind, profile, shape);
  return list ? listEnvelopeSchema(record) : record;
}

// ---- Requests: spec-minimal reads the same bodies, with the checkout fields accepted and ignored ----

/** The checkout fields of each body (docs/spec-gaps.md, "Checkout"): spec-minimal drops them unread. */
export const CHECKOUT_REQUEST_FIELDS: Partial<Record<OperationId, readonly string[]>> = {
  createOrder: Object.keys(orderCheckoutShape),
  updateOrder: Object.keys(orderCheckoutShape),
  createPaymentIntent: ['tip_amount'],
  createMenuItem: ['tax_class'],
  updateMenuItem: ['tax_class'],
};

/** A line's own checkout field (items[].note). */
export const CHECKOUT_LINE_FIELDS: readonly string[] = ['note'];

function ignoring(fields: readonly string[]): Record<string, z.ZodOptional<z.ZodUnknown>> {
  return Object.fromEntries(fields.map((field) => [field, z.unknown().optional()]));
}

const specMinimalLines = z.array(z.strictObject({ ...orderLineInputShape, ...ignoring(CHECKOUT_LINE_FIELDS) })).min(1).max(ORDER_LINES_MAX);
const orderFieldsIgnored = ignoring(Object.keys(orderCheckoutShape));

/**
 * The request bodies as spec-minimal validates them: what the spec's server knows is checked as
 * in the default profile; a checkout field is accepted whatever its value (a server that knows
 * nothing of checkout has nothing to check it against) and then dropped.
 */
export const SPEC_MINIMAL_REQUEST_BODIES: Partial<Record<OperationId, z.ZodType>> = {
  createOrder: z.strictObject({ ...createOrderShape, items: specMinimalLines, ...orderFieldsIgnored }),
  updateOrder: z.strictObject({ ...patchOrderShape, items: specMinimalLines.optional(), ...orderFieldsIgnored }).refine(hasSomeField, NO_FIELD_MESSAGE),
  createPaymentIntent: z.strictObject({ ...createPaymentIntentShape, ...ignoring(['tip_amount']) }),
  createMenuItem: z.strictObject({ ...createMenuItemShape, ...ignoring(['tax_class']) }),
  updateMenuItem: z.strictObject({ ...patchMenuItemShape, ...ignoring(['tax_class']) }).refine(hasSomeField, NO_FIELD_MESSAGE),
};
