// Webhook endpoints (created through the dashboard), delivery records, and POST /webhooks/test.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { eventTypeSchema, type EventType } from '../../api/enums';
import { EVENT_RESOURCE_TYPE, type WebhookDelivery, type WebhookEndpoint } from '../../api/events';
import type { MenuItem, Order, Payment } from '../../api/records';
import type { WebhookTestRequest } from '../../api/requests';
import type { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { iso, type EventData, type OpContext, type OpResult } from '../context';
import { ApiError } from '../http';
import type { Db, SandboxSchema, Tx } from '../storage';

type EndpointRow = SandboxSchema['webhook_endpoints'];
type DeliveryRow = SandboxSchema['deliveries'];

export function endpointRecord(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    object: 'webhook_endpoint',
    url: row.url,
    event_types: eventTypeSchema.array().parse(JSON.parse(row.event_types)),
    secret: row.secret,
    created_at: iso(row.created_at),
  };
}

export function deliveryRecord(row: DeliveryRow, eventType: EventType): WebhookDelivery {
  const at = (ms: number | null) => (ms === null ? null : iso(ms));
  return {
    id: row.id,
    object: 'webhook_delivery',
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: eventType,
    resource_id: row.resource_id,
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' || row.status === 'retrying' ? at(row.next_attempt_at) : null,
    last_attempt_at: at(row.last_attempt_at),
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    delivered_at: at(row.delivered_at),
    created_at: iso(row.created_at),
  };
}

export async function createWebhookEndpoint(db: Db, clock: Clock, input: { url: string; event_types: readonly EventType[] }): Promise<WebhookEndpoint> {
  const now = clock.now();
  const row: EndpointRow = {
    id: newId('we_', now),
    url: input.url,
    event_types: JSON.stringify([...new Set(input.event_types)]),
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
    created_at: now,
  };
  await db.insertInto('webhook_endpoints').values(row).execute();
  return endpointRecord(row);
}

export async function listWebhookEndpoints(db: Db): Promise<WebhookEndpoint[]> {
  const rows = await db.selectFrom('webhook_endpoints').selectAll().orderBy(sql`rowid`).execute();
  return rows.map(endpointRecord);
}

export async function listDeliveries(db: Db | Tx, filter: { endpointId?: string; status?: string; ids?: readonly string[] } = {}): Promise<WebhookDelivery[]> {
  let query = db.selectFrom('deliveries').innerJoin('events', 'events.id', 'deliveries.event_id').selectAll('deliveries').select('events.type as event_type');
  if (filter.endpointId) query = query.where('deliveries.endpoint_id', '=', filter.endpointId);
  if (filter.status) query = query.where('deliveries.status', '=', filter.status);
  if (filter.ids) query = query.where('deliveries.id', 'in', filter.ids.length > 0 ? [...filter.ids] : ['']);
  const rows = await query.orderBy('deliveries.event_seq').orderBy('deliveries.id').execute();
  return rows.map(({ event_type, ...row }) => deliveryRecord(row, event_type as EventType));
}

/** Sample records for test events: the right shapes with made-up ids. */
function sampleData(type: EventType, nowMs: number): EventData {
  const at = iso(nowMs);
  const resource = EVENT_RESOURCE_TYPE[type];
  if (resource === 'order') {
    const status = type === 'order.fulfilled' ? 'fulfilled' : type === 'order.cancelled' ? 'cancelled' : 'open';
    const order: Order = {
      id: newId('ord_', nowMs),
      object: 'order',
      location_id: newId('loc_', nowMs),
      status,
      items: [{ id: newId('li_', nowMs), menu_item_id: newId('mi_', nowMs), name: 'Test burger', quantity: 2, price: 1250, modifiers: [], note: 'No onions' }],
      customer: { name: 'Test Customer', phone: null },
      order_number: 'T1',
      order_type: 'dine_in',
      table: '12',
      guests: 2,
      channel: 'pos',
      subtotal: 2500,
      discounts: [{ reason: 'Test comp', amount: 250, line: null }],
      discount_total: 250,
      tax_total: 197,
      tax_included: false,
      total: 2447,
      currency: 'usd',
      amount_paid: 0,
      metadata: {},
      created_at: at,
      updated_at: at,
      fulfilled_at: status === 'fulfilled' ? at : null,
      cancelled_at: status === 'cancelled' ? at : null,
    };
    return { id: order.id, type: 'order', attributes: order };
  }
  if (resource === 'payment') {
    const id = newId('pay_', nowMs);
    const refunded = type === 'payment.refunded';
    const payment: Payment = {
      id,
      object: 'payment',
      order_id: newId('ord_', nowMs),
      amount: 2500,
      tip_amount: 0,
      currency: 'usd',
      status: refunded ? 'refunded' : 'captured',
      amount_captured: 2500,
      amount_refunded: refunded ? 2500 : 0,
      refunds: refunded
        ? [{ id: newId('re_', nowMs), object: 'refund', payment_id: id, amount: 2500, currency: 'usd', reason: 'requested_by_customer', status: 'succeeded', created_at: at }]
        : [],
      created_at: at,
      updated_at: at,
      captured_at: at,
    };
    return { id, type: 'payment', attributes: payment };
  }
  const item: MenuItem = {
    id: newId('mi_', nowMs),
    object: 'menu_item',
    location_id: null,
    category_id: newId('cat_', nowMs),
    name: 'Test fries',
    description: 'A sample menu item',
    price: 450,
    currency: 'usd',
    available: true,
    modifiers: [],
    modifier_groups: [],
    tax_class: 'food',
    stock: type === 'inventory.low_stock' ? 3 : null,
    low_stock_threshold: type === 'inventory.low_stock' ? 5 : null,
    created_at: at,
    updated_at: at,
  };
  return { id: item.id, type: 'menu_item', attributes: { ...item, deleted: false } };
}

export async function sendTestWebhook(ctx: OpContext): Promise<OpResult> {
  const body = ctx.body as WebhookTestRequest;
  const endpoint = await ctx.tx.selectFrom('webhook_endpoints').select('id').where('id', '=', body.endpoint_id).executeTakeFirst();
  if (!endpoint) throw new ApiError('invalid_request', `endpoint_id: no webhook endpoint ${body.endpoint_id}`, { param: 'endpoint_id' });
  const { event, deliveryIds } = await ctx.emit(body.event_type, sampleData(body.event_type, ctx.clock.now()), { endpointId: endpoint.id });
  const [delivery] = await listDeliveries(ctx.tx, { ids: deliveryIds });
  return { status: 202, body: { object: 'webhook_test', event, delivery } };
}
