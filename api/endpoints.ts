// Every /v1 operation with what a credential needs to call it. Both sides read this table: the
// sandbox enforces it, the terminal explains a permission_denied with it, the OpenAPI document is
// generated from it.
import type { z } from 'zod';
import type { EventType, Permission, Scope } from './enums';
import { webhookTestResultSchema } from './events';
import { deletedMenuItemSchema, categorySchema, listEnvelopeSchema, locationSchema, menuItemSchema, orderSchema, paymentSchema, refundSchema } from './records';
import {
  captureRequestSchema,
  createMenuItemRequestSchema,
  createOrderRequestSchema,
  createPaymentIntentRequestSchema,
  createRefundRequestSchema,
  listMenuItemsQuerySchema,
  listOrdersQuerySchema,
  pageQuerySchema,
  patchLocationRequestSchema,
  patchMenuItemRequestSchema,
  patchOrderRequestSchema,
  webhookTestRequestSchema,
} from './requests';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Endpoint {
  operationId: string;
  method: HttpMethod;
  /** Relative to {base_url}; `{id}` is a record id. */
  path: string;
  summary: string;
  /** Restricted-key permissions needed, all of them. Full-access keys hold every permission. */
  permissions: readonly Permission[];
  /** OAuth scopes needed, all of them; null when no OAuth token may call this (API keys only). */
  scopes: readonly Scope[] | null;
  query?: z.ZodType;
  /** Absent for bodiless operations. `bodyOptional` operations also accept an empty body. */
  body?: z.ZodType;
  bodyOptional?: boolean;
  successStatus: number;
  response: z.ZodType;
  /** Event kinds this operation may emit (docs/spec-gaps.md says exactly when). */
  emits: readonly EventType[];
}

export const ENDPOINTS = [
  {
    operationId: 'listOrders',
    method: 'GET',
    path: '/orders',
    summary: 'List orders, oldest first',
    permissions: ['orders:read'],
    scopes: ['read_orders'],
    query: listOrdersQuerySchema,
    successStatus: 200,
    response: listEnvelopeSchema(orderSchema),
    emits: [],
  },
  {
    operationId: 'getOrder',
    method: 'GET',
    path: '/orders/{id}',
    summary: 'Get one order',
    permissions: ['orders:read'],
    scopes: ['read_orders'],
    successStatus: 200,
    response: orderSchema,
    emits: [],
  },
  {
    operationId: 'createOrder',
    method: 'POST',
    path: '/orders',
    summary: 'Create an open order',
    permissions: ['orders:write'],
    scopes: ['write_orders'],
    body: createOrderRequestSchema,
    successStatus: 201,
    response: orderSchema,
    emits: ['order.created', 'inventory.low_stock'],
  },
  {
    operationId: 'updateOrder',
    method: 'PATCH',
    path: '/orders/{id}',
    summary: 'Change an open order; status fulfilled or cancelled closes it',
    permissions: ['orders:write'],
    scopes: ['write_orders'],
    body: patchOrderRequestSchema,
    successStatus: 200,
    response: orderSchema,
    emits: ['order.updated', 'order.fulfilled', 'order.cancelled', 'inventory.low_stock'],
  },
  {
    operationId: 'createPaymentIntent',
    method: 'POST',
    path: '/payments/intents',
    summary: 'Authorize a payment for an order',
    permissions: ['payments:write'],
    scopes: ['write_orders', 'read_payments'],
    body: createPaymentIntentRequestSchema,
    successStatus: 201,
    response: paymentSchema,
    emits: [],
  },
  {
    // Not in the spec (docs/spec-gaps.md, "Reading a payment back"): what the terminal asks before
    // it tells anyone a card payment failed. A server without it answers 404 or 405.
    operationId: 'getPaymentIntent',
    method: 'GET',
    path: '/payments/intents/{id}',
    summary: 'Get one payment intent (the payment record, with its refunds)',
    permissions: ['payments:read'],
    scopes: ['read_payments'],
    successStatus: 200,
    response: paymentSchema,
    emits: [],
  },
  {
    operationId: 'capturePaymentIntent',
    method: 'POST',
    path: '/payments/intents/{id}/capture',
    summary: 'Capture an authorized payment',
    permissions: ['payments:write'],
    scopes: ['write_orders', 'read_payments'],
    body: captureRequestSchema,
    bodyOptional: true,
    successStatus: 200,
    response: paymentSchema,
    emits: ['payment.completed'],
  },
  {
    operationId: 'createRefund',
    method: 'POST',
    path: '/payments/{id}/refunds',
    summary: 'Refund a captured payment, wholly or in part',
    permissions: ['payments:write'],
    scopes: ['write_orders', 'read_payments'],
    body: createRefundRequestSchema,
    bodyOptional: true,
    successStatus: 201,
    response: refundSchema,
    emits: ['payment.refunded'],
  },
  {
    operationId: 'listLocations',
    method: 'GET',
    path: '/locations',
    summary: 'List locations',
    permissions: ['locations:read'],
    scopes: ['read_locations'],
    query: pageQuerySchema,
    successStatus: 200,
    response: listEnvelopeSchema(locationSchema),
    emits: [],
  },
  {
    operationId: 'getLocation',
    method: 'GET',
    path: '/locations/{id}',
    summary: 'Get one location',
    permissions: ['locations:read'],
    scopes: ['read_locations'],
    successStatus: 200,
    response: locationSchema,
    emits: [],
  },
  {
    operationId: 'updateLocation',
    method: 'PATCH',
    path: '/locations/{id}',
    summary: 'Change a location (API keys only: no OAuth scope grants it)',
    permissions: ['locations:write'],
    scopes: null,
    body: patchLocationRequestSchema,
    successStatus: 200,
    response: locationSchema,
    emits: [],
  },
  {
    operationId: 'listMenuItems',
    method: 'GET',
    path: '/menu/items',
    summary: 'List menu items (with location_id: that location’s items and the ones sold everywhere)',
    permissions: ['menu:read'],
    scopes: ['read_menu'],
    query: listMenuItemsQuerySchema,
    successStatus: 200,
    response: listEnvelopeSchema(menuItemSchema),
    emits: [],
  },
  {
    operationId: 'createMenuItem',
    method: 'POST',
    path: '/menu/items',
    summary: 'Create a menu item',
    permissions: ['menu:write'],
    scopes: ['write_menu'],
    body: createMenuItemRequestSchema,
    successStatus: 201,
    response: menuItemSchema,
    emits: ['menu.item_updated'],
  },
  {
    operationId: 'updateMenuItem',
    method: 'PATCH',
    path: '/menu/items/{id}',
    summary: 'Change a menu item',
    permissions: ['menu:write'],
    scopes: ['write_menu'],
    body: patchMenuItemRequestSchema,
    successStatus: 200,
    response: menuItemSchema,
    emits: ['menu.item_updated', 'inventory.low_stock'],
  },
  {
    operationId: 'deleteMenuItem',
    method: 'DELETE',
    path: '/menu/items/{id}',
    summary: 'Delete a menu item (past orders keep their copy of its name and price)',
    permissions: ['menu:write'],
    scopes: ['write_menu'],
    successStatus: 200,
    response: deletedMenuItemSchema,
    emits: ['menu.item_updated'],
  },
  {
    operationId: 'listMenuCategories',
    method: 'GET',
    path: '/menu/categories',
    summary: 'List menu categories by position',
    permissions: ['menu:read'],
    scopes: ['read_menu'],
    query: pageQuerySchema,
    successStatus: 200,
    response: listEnvelopeSchema(categorySchema),
    emits: [],
  },
  {
    operationId: 'sendTestWebhook',
    method: 'POST',
    path: '/webhooks/test',
    summary: 'Queue a test event of the given kind to one webhook endpoint',
    permissions: ['webhooks:write'],
    scopes: null,
    body: webhookTestRequestSchema,
    successStatus: 202,
    response: webhookTestResultSchema,
    emits: [],
  },
] as const satisfies readonly Endpoint[];

export type OperationId = (typeof ENDPOINTS)[number]['operationId'];
