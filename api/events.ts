// Webhook event payloads and the dashboard's webhook records (endpoints, deliveries).
import { z } from 'zod';
import { eventTypeSchema, webhookDeliveryStatusSchema, type ResourceType } from './enums';
import { menuItemSchema, orderSchema, paymentSchema, prefixedId, timestampSchema } from './records';

/** Menu events carry the item as it now is, and whether this change deleted it. */
export const menuItemEventAttributesSchema = menuItemSchema.extend({ deleted: z.boolean() });

export const eventDataSchema = z.discriminatedUnion('type', [
  z.strictObject({ id: prefixedId('ord_'), type: z.literal('order'), attributes: orderSchema }),
  z.strictObject({ id: prefixedId('pay_'), type: z.literal('payment'), attributes: paymentSchema }),
  z.strictObject({ id: prefixedId('mi_'), type: z.literal('menu_item'), attributes: menuItemEventAttributesSchema }),
]);

/** The body of a webhook delivery, exactly as the sandbox sends it. */
export const webhookEventSchema = z.strictObject({
  id: prefixedId('evt_'),
  type: eventTypeSchema,
  created_at: timestampSchema,
  /** true only for events sent by POST /webhooks/test; their data is a sample, not a real record. */
  test: z.boolean(),
  data: eventDataSchema,
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** Which resource type each event kind carries. */
export const EVENT_RESOURCE_TYPE = {
  'order.created': 'order',
  'order.updated': 'order',
  'order.fulfilled': 'order',
  'order.cancelled': 'order',
  'payment.completed': 'payment',
  'payment.refunded': 'payment',
  'menu.item_updated': 'menu_item',
  'inventory.low_stock': 'menu_item',
} as const satisfies Record<z.infer<typeof eventTypeSchema>, ResourceType>;

export const webhookEndpointSchema = z.strictObject({
  id: prefixedId('we_'),
  object: z.literal('webhook_endpoint'),
  url: z.url(),
  event_types: z.array(eventTypeSchema),
  secret: z.string().startsWith('whsec_'),
  created_at: timestampSchema,
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookDeliverySchema = z.strictObject({
  id: prefixedId('whd_'),
  object: z.literal('webhook_delivery'),
  endpoint_id: prefixedId('we_'),
  event_id: prefixedId('evt_'),
  event_type: eventTypeSchema,
  resource_id: z.string(),
  status: webhookDeliveryStatusSchema,
  /** Attempts made so far (first attempt, automatic retries and manual retries). */
  attempts: z.int().min(0),
  next_attempt_at: timestampSchema.nullable(),
  last_attempt_at: timestampSchema.nullable(),
  last_status_code: z.int().nullable(),
  last_error: z.string().nullable(),
  delivered_at: timestampSchema.nullable(),
  created_at: timestampSchema,
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** POST /webhooks/test answers 202 with the event it queued and its delivery. */
export const webhookTestResultSchema = z.strictObject({
  object: z.literal('webhook_test'),
  event: webhookEventSchema,
  delivery: webhookDeliverySchema,
});
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;
