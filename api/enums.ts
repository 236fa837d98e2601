// The closed vocabularies of /v1. Where the spec lists values they are copied verbatim; where it is
// silent the values are our decision, recorded in docs/spec-gaps.md.
import { z } from 'zod';

export const orderStatusSchema = z.enum(['open', 'fulfilled', 'cancelled']);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** Statuses a PATCH may move an open order to (the only transitions there are). */
export const orderTargetStatusSchema = z.enum(['fulfilled', 'cancelled']);

/**
 * One record covers the intent and the payment (the spec gives both the pay_ prefix):
 * authorized → captured → partially_refunded → refunded.
 */
export const paymentStatusSchema = z.enum(['authorized', 'captured', 'partially_refunded', 'refunded']);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

export const refundReasonSchema = z.enum(['requested_by_customer', 'duplicate', 'fraudulent', 'order_cancelled', 'other']);
export type RefundReason = z.infer<typeof refundReasonSchema>;

export const refundStatusSchema = z.enum(['succeeded']);

export const eventTypeSchema = z.enum([
  'order.created',
  'order.updated',
  'order.fulfilled',
  'order.cancelled',
  'payment.completed',
  'payment.refunded',
  'menu.item_updated',
  'inventory.low_stock',
]);
export type EventType = z.infer<typeof eventTypeSchema>;

/** Resource types named in an event's data.type. */
export const resourceTypeSchema = z.enum(['order', 'payment', 'menu_item']);
export type ResourceType = z.infer<typeof resourceTypeSchema>;

/** OAuth scopes, exactly the spec's list. */
export const scopeSchema = z.enum(['read_orders', 'write_orders', 'read_menu', 'write_menu', 'read_payments', 'read_locations']);
export type Scope = z.infer<typeof scopeSchema>;

/** Permissions a restricted API key can hold (resource:access). A full-access key holds all of them. */
export const permissionSchema = z.enum([
  'orders:read',
  'orders:write',
  'payments:read',
  'payments:write',
  'locations:read',
  'locations:write',
  'menu:read',
  'menu:write',
  'webhooks:write',
]);
export type Permission = z.infer<typeof permissionSchema>;

/** The dashboard's key kinds: full access, the three preset restricted sets, and a custom set. */
export const apiKeyKindSchema = z.enum(['full', 'read_only', 'orders_only', 'menu_only', 'custom']);
export type ApiKeyKind = z.infer<typeof apiKeyKindSchema>;

export const apiKeyModeSchema = z.enum(['test', 'live']);
export type ApiKeyMode = z.infer<typeof apiKeyModeSchema>;

export const ALL_PERMISSIONS: readonly Permission[] = permissionSchema.options;

/** The permission sets behind each preset kind ('custom' carries its own list). */
export const PRESET_PERMISSIONS: Record<Exclude<ApiKeyKind, 'custom'>, readonly Permission[]> = {
  full: ALL_PERMISSIONS,
  read_only: ['orders:read', 'payments:read', 'locations:read', 'menu:read'],
  orders_only: ['orders:read', 'orders:write'],
  menu_only: ['menu:read', 'menu:write'],
};

/** How an order is served (sandbox extension, docs/spec-gaps.md "Checkout"). */
export const orderTypeSchema = z.enum(['dine_in', 'takeout', 'delivery']);
export type OrderType = z.infer<typeof orderTypeSchema>;

/** Where an order came from: the till (every order created through /v1), the online shop, a delivery partner. */
export const orderChannelSchema = z.enum(['pos', 'online', 'delivery']);
export type OrderChannel = z.infer<typeof orderChannelSchema>;

/** Whether a location rounds tax on each line or once on the order's sum. */
export const taxRoundingSchema = z.enum(['per_line', 'per_order']);
export type TaxRounding = z.infer<typeof taxRoundingSchema>;

export const webhookDeliveryStatusSchema = z.enum(['pending', 'delivered', 'retrying', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof webhookDeliveryStatusSchema>;
