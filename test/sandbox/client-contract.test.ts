// The terminal's liberal schemas must read everything the sandbox sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientCategorySchema,
  clientDeletedSchema,
  clientListEnvelopeSchema,
  clientLocationSchema,
  clientMenuItemSchema,
  clientOrderSchema,
  clientPaymentSchema,
  clientRefundSchema,
  clientWebhookEventSchema,
} from '../../api/client-records';
import { clientErrorBodySchema } from '../../api/errors';
import type { Sandbox } from '../../sandbox/index';
import { call, createOrder, withSandbox } from './helpers';
import { startReceiver, type Receiver } from './receiver';

let sb: Sandbox;
let receiver: Receiver;
beforeAll(async () => {
  sb = await withSandbox();
  receiver = await startReceiver();
});
afterAll(async () => {
  await sb.close();
  await receiver.close();
});

describe('client schemas against the sandbox', () => {
  it('read every record, list and event the sandbox produces', async () => {
    const key = sb.credentials.apiKeys.full;
    await sb.createWebhookEndpoint({ url: receiver.url, event_types: ['order.created', 'payment.refunded', 'menu.item_updated'] });
    const order = await createOrder(sb);
    expect(clientOrderSchema.parse(order).id).toBe(order.id);
    const payment = (await call(sb, 'POST', '/payments/intents', { key, body: { order_id: order.id, amount: order.total, currency: 'usd' } })).body;
    await call(sb, 'POST', `/payments/intents/${payment.id}/capture`, { key });
    const refund = (await call(sb, 'POST', `/payments/${payment.id}/refunds`, { key })).body;
    expect(clientRefundSchema.parse(refund).amount).toBe(order.total);
    expect(clientListEnvelopeSchema(clientOrderSchema).parse((await call(sb, 'GET', '/orders?per_page=100', { key })).body).data).toHaveLength(100);
    expect(clientListEnvelopeSchema(clientLocationSchema).parse((await call(sb, 'GET', '/locations', { key })).body).data).toHaveLength(3);
    expect(clientListEnvelopeSchema(clientCategorySchema).parse((await call(sb, 'GET', '/menu/categories', { key })).body).data.length).toBeGreaterThan(0);
    const menu = clientListEnvelopeSchema(clientMenuItemSchema).parse((await call(sb, 'GET', '/menu/items?per_page=100', { key })).body);
    const deleted = (await call(sb, 'DELETE', `/menu/items/${menu.data[0]?.id}`, { key })).body;
    expect(clientDeletedSchema.safeParse(deleted).success).toBe(true);
    expect(deleted.deleted).toBe(true);
    expect(clientErrorBodySchema.parse((await call(sb, 'GET', '/orders/ord_nope', { key })).body).error.code).toBe('not_found');
    await sb.webhooksIdle();
    const events = receiver.arrivals.map((a) => clientWebhookEventSchema.parse(JSON.parse(a.rawBody.toString())));
    expect(events.map((e) => e.type)).toEqual(['order.created', 'payment.refunded', 'menu.item_updated']);
    expect(clientPaymentSchema.parse(events[1]?.data.attributes).status).toBe('refunded');
  });
});
