import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { eventTypeSchema } from '../../api/enums';
import { webhookEventSchema, type WebhookEvent } from '../../api/events';
import { verifySignature } from '../../api/signature';
import { ManualClock } from '../../common/clock';
import { call, createOrder, dashboard, sellableItem, withSandbox, type Loose } from './helpers';
import { startReceiver, waitFor, type Behaviour, type Receiver } from './receiver';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setup(options: Parameters<typeof withSandbox>[0] = {}, behaviour?: Behaviour) {
  const sb = await withSandbox(options);
  cleanup.push(() => sb.close());
  const receiver = await startReceiver(behaviour);
  cleanup.push(() => receiver.close());
  return { sb, receiver };
}

function events(receiver: Receiver): WebhookEvent[] {
  return receiver.arrivals.map((a) => webhookEventSchema.parse(JSON.parse(a.rawBody.toString('utf8'))));
}

describe('delivery and signatures', () => {
  it('delivers each operation’s events, signed so that stripe-node’s verifier accepts them', async () => {
    const { sb, receiver } = await setup();
    const endpoint = await sb.createWebhookEndpoint({ url: receiver.url, event_types: eventTypeSchema.options });
    const key = sb.credentials.apiKeys.full;

    const order = await createOrder(sb);
    await call(sb, 'PATCH', `/orders/${order.id}`, { key, body: { customer: { name: 'Bo' } } });
    const payment = (await call(sb, 'POST', '/payments/intents', { key, body: { order_id: order.id, amount: order.total, currency: 'usd' } })).body;
    await call(sb, 'POST', `/payments/intents/${payment.id}/capture`, { key });
    await call(sb, 'POST', `/payments/${payment.id}/refunds`, { key, body: { amount: 50 } });
    await call(sb, 'PATCH', `/orders/${order.id}`, { key, body: { status: 'fulfilled', metadata: { done: 'yes' } } });
    const item = await sellableItem(sb);
    await call(sb, 'PATCH', `/menu/items/${item.id}`, { key, body: { price: item.price + 1 } });
    await call(sb, 'DELETE', `/menu/items/${item.id}`, { key });
    await sb.webhooksIdle();

    const got = events(receiver);
    expect(got.map((e) => e.type)).toEqual([
      'order.created',
      'order.updated',
      'payment.completed',
      'payment.refunded',
      'order.updated',
      'order.fulfilled',
      'menu.item_updated',
      'menu.item_updated',
    ]);
    expect(got[0]?.data).toMatchObject({ id: order.id, type: 'order', attributes: { total: order.total, status: 'open', location_id: order.location_id } });
    expect(got[4]?.data.attributes).toMatchObject({ status: 'open', metadata: { done: 'yes' } });
    expect(got[5]?.data.attributes).toMatchObject({ status: 'fulfilled' });
    expect(got[3]?.data.attributes).toMatchObject({ status: 'partially_refunded', amount_refunded: 50 });
    expect(got[7]?.data.attributes).toMatchObject({ id: item.id, deleted: true });
    expect(got.every((e) => e.test === false)).toBe(true);

    for (const arrival of receiver.arrivals) {
      expect(arrival.contentType).toBe('application/json');
      expect(arrival.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const event = Stripe.webhooks.constructEvent(arrival.rawBody, arrival.signature, endpoint.secret);
      expect(event.id).toMatch(/^evt_/);
      expect(verifySignature({ header: arrival.signature, rawBody: arrival.rawBody, secrets: [endpoint.secret], nowSec: Math.floor(Date.now() / 1000) }).ok).toBe(true);
      expect(() => Stripe.webhooks.constructEvent(arrival.rawBody, arrival.signature, 'whsec_other')).toThrow();
    }
    const deliveries = (await dashboard(sb, 'GET', `/deliveries?endpoint_id=${endpoint.id}&status=delivered`)).body.data;
    expect(deliveries).toHaveLength(8);
    expect(deliveries[0]).toMatchObject({ attempts: 1, last_status_code: 200, next_attempt_at: null });
  });

  it('sends an endpoint only the kinds it subscribed to', async () => {
    const { sb, receiver } = await setup();
    await sb.createWebhookEndpoint({ url: receiver.url, event_types: ['menu.item_updated'] });
    await createOrder(sb);
    const category = (await call(sb, 'GET', '/menu/categories', { key: sb.credentials.apiKeys.full })).body.data[0].id;
    await call(sb, 'POST', '/menu/items', { key: sb.credentials.apiKeys.full, body: { name: 'Soup', price: 500, category_id: category } });
    await sb.webhooksIdle();
    expect(events(receiver).map((e) => e.type)).toEqual(['menu.item_updated']);
  });

  it('emits inventory.low_stock when an order takes stock across the threshold, once', async () => {
    const { sb, receiver } = await setup();
    await sb.createWebhookEndpoint({ url: receiver.url, event_types: ['inventory.low_stock'] });
    const key = sb.credentials.apiKeys.full;
    const items = (await call(sb, 'GET', '/menu/items?per_page=100', { key })).body.data;
    const tracked = items.find((i: Loose) => i.stock !== null && i.location_id === null);
    const loc = sb.credentials.locationIds[0];
    const order = async (quantity: number) => call(sb, 'POST', '/orders', { key, body: { location_id: loc, items: [{ menu_item_id: tracked.id, quantity }] } });
    await order(tracked.stock - tracked.low_stock_threshold - 1);
    await sb.webhooksIdle();
    expect(receiver.arrivals).toHaveLength(0);
    await order(1);
    await order(1);
    await sb.webhooksIdle();
    const got = events(receiver);
    expect(got).toHaveLength(1);
    expect(got[0]?.data.attributes).toMatchObject({ id: tracked.id, stock: tracked.low_stock_threshold });

    await call(sb, 'PATCH', `/menu/items/${tracked.id}`, { key, body: { stock: 100 } });
    await call(sb, 'PATCH', `/menu/items/${tracked.id}`, { key, body: { stock: 2 } });
    await call(sb, 'PATCH', `/menu/items/${tracked.id}`, { key, body: { stock: 1 } });
    await sb.webhooksIdle();
    expect(events(receiver).map((e) => (e.data.attributes as { stock: number }).stock)).toEqual([tracked.low_stock_threshold, 2]);
  });

  it('POST /webhooks/test queues a signed test event to the given endpoint', async () => {
    const { sb, receiver } = await setup();
    const endpoint = await sb.createWebhookEndpoint({ url: receiver.url, event_types: ['order.created'] });
    const key = sb.credentials.apiKeys.full;
    const reply = await call(sb, 'POST', '/webhooks/test', { key, body: { endpoint_id: endpoint.id, event_type: 'payment.refunded' } });
    expect(reply.status).toBe(202);
    expect(reply.body.event).toMatchObject({ type: 'payment.refunded', test: true, data: { type: 'payment' } });
    expect(reply.body.delivery).toMatchObject({ endpoint_id: endpoint.id, status: 'pending', attempts: 0 });
    await sb.webhooksIdle();
    expect(events(receiver)[0]?.id).toBe(reply.body.event.id);
    expect(Stripe.webhooks.constructEvent(receiver.arrivals[0]!.rawBody, receiver.arrivals[0]!.signature, endpoint.secret).type).toBe('payment.refunded');
    expect((await call(sb, 'POST', '/webhooks/test', { key, body: { endpoint_id: 'we_nope', event_type: 'order.created' } })).body.error.param).toBe('endpoint_id');
    expect((await call(sb, 'POST', '/webhooks/test', { key, body: { endpoint_id: endpoint.id, event_type: 'order.eaten' } })).status).toBe(400);
  });

  it('the dashboard validates new endpoints', async () => {
    const { sb } = await setup();
    expect((await dashboard(sb, 'POST', '/webhook-endpoints', { url: 'ftp://x/y', event_types: ['order.created'] })).status).toBe(400);
    expect((await dashboard(sb, 'POST', '/webhook-endpoints', { url: 'http://127.0.0.1:9/x', event_types: [] })).status).toBe(400);
    const created = await dashboard(sb, 'POST', '/webhook-endpoints', { url: 'http://127.0.0.1:9/x', event_types: ['order.created'] });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect((await dashboard(sb, 'GET', '/webhook-endpoints')).body.data).toHaveLength(1);
  });
});

describe('retry schedule on the injected clock', () => {
  it('retries 1 min, 5 min and 30 min after the previous attempt, then fails; a manual retry can deliver', async () => {
    const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
    let answer = 500;
    const { sb, receiver } = await setup({ clock, webhookPollMs: 10_000 });
    receiver.behaviour = () => ({ status: answer });
    const endpoint = await sb.createWebhookEndpoint({ url: receiver.url, event_types: ['order.created'] });
    await createOrder(sb);
    await sb.webhooksIdle();
    const delivery = async () => (await sb.listDeliveries({ endpointId: endpoint.id }))[0]!;
    expect(await delivery()).toMatchObject({ status: 'retrying', attempts: 1, last_status_code: 500, next_attempt_at: '2026-11-21T10:01:00.000Z' });

    for (const [gapMs, attempts] of [
      [60_000, 2],
      [5 * 60_000, 3],
      [30 * 60_000, 4],
    ] as const) {
      sb.advanceClock(gapMs - 1000);
      await sb.webhooksIdle();
      expect(receiver.arrivals).toHaveLength(attempts - 1);
      const started = Date.now();
      sb.advanceClock(1000);
      await waitFor(() => receiver.arrivals.length === attempts, 5000, `attempt ${attempts}`);
      // Promptly: the clock move wakes the dispatcher, not the (10 s) poll.
      expect(Date.now() - started).toBeLessThan(3000);
      await sb.webhooksIdle();
    }
    expect(await delivery()).toMatchObject({ status: 'failed', attempts: 4, next_attempt_at: null });
    sb.advanceClock(24 * 3600_000);
    await sb.webhooksIdle();
    expect(receiver.arrivals).toHaveLength(4);
    const signedAt = receiver.arrivals.map((a) => Number(/t=(\d+)/.exec(a.signature)?.[1]));
    expect(signedAt.map((t) => t - (signedAt[0] as number))).toEqual([0, 60, 360, 2160]);

    answer = 204;
    const retried = await dashboard(sb, 'POST', `/deliveries/${(await delivery()).id}/retry`);
    expect(retried.status).toBe(202);
    await waitFor(() => receiver.arrivals.length === 5, 2000, 'manual retry');
    await sb.webhooksIdle();
    expect(await delivery()).toMatchObject({ status: 'delivered', attempts: 5, last_status_code: 204 });
    // The stale timestamp fails a receiver that uses real time; the sandbox clock's receiver accepts it.
    const last = receiver.arrivals[4]!;
    expect(verifySignature({ header: last.signature, rawBody: last.rawBody, secrets: [endpoint.secret], nowSec: Math.floor(clock.now() / 1000) }).ok).toBe(true);
    expect(Stripe.webhooks.constructEvent(last.rawBody, last.signature, endpoint.secret, 300, undefined, clock.now()).id).toMatch(/^evt_/);

    expect((await dashboard(sb, 'POST', `/deliveries/${(await delivery()).id}/retry`)).status).toBe(409);
    expect((await dashboard(sb, 'POST', '/deliveries/whd_nope/retry')).status).toBe(404);
  });

  it('counts no answer within the timeout, a redirect and a refused connection as failures', async () => {
    const clock = new ManualClock();
    // Only the hung attempt waits the whole timeout; it must be long enough that a loaded machine's
    // slow 302 is never read as no answer (150 ms was not: the redirect was counted as a timeout).
    const { sb, receiver } = await setup({ clock, webhookTimeoutMs: 1_000 });
    receiver.behaviour = (_a, i) => (i === 0 ? 'hang' : { status: 302 });
    const endpoint = await sb.createWebhookEndpoint({ url: receiver.url, event_types: ['order.created'] });
    const dead = await sb.createWebhookEndpoint({ url: 'http://127.0.0.1:1/refused', event_types: ['order.created'] });
    await createOrder(sb);
    await sb.webhooksIdle();
    const first = (await sb.listDeliveries({ endpointId: endpoint.id }))[0]!;
    expect(first).toMatchObject({ status: 'retrying', last_status_code: null });
    expect(first.last_error).toContain('no answer within 1000 ms');
    sb.advanceClock(60_000);
    await waitFor(() => receiver.arrivals.length === 2, 2000);
    await sb.webhooksIdle();
    expect((await sb.listDeliveries({ endpointId: endpoint.id }))[0]).toMatchObject({ status: 'retrying', last_status_code: 302 });
    const refused = (await sb.listDeliveries({ endpointId: dead.id }))[0]!;
    expect(refused.status).toBe('retrying');
    expect(refused.last_error).toMatch(/request failed/);
  });
});

describe('ordering', () => {
  it('sends the events of one resource in order: each first attempt waits for the previous one', async () => {
    const { sb, receiver } = await setup();
    receiver.behaviour = () => ({ status: 200, delayMs: 60 });
    await sb.createWebhookEndpoint({ url: receiver.url, event_types: ['order.created', 'order.updated', 'order.fulfilled'] });
    const key = sb.credentials.apiKeys.full;
    const order = await createOrder(sb);
    await call(sb, 'PATCH', `/orders/${order.id}`, { key, body: { customer: { name: 'A' } } });
    await call(sb, 'PATCH', `/orders/${order.id}`, { key, body: { customer: { name: 'B' } } });
    await call(sb, 'PATCH', `/orders/${order.id}`, { key, body: { status: 'fulfilled' } });
    await sb.webhooksIdle();
    const got = events(receiver);
    expect(got.map((e) => e.type)).toEqual(['order.created', 'order.updated', 'order.updated', 'order.fulfilled']);
    expect(got.map((e) => (e.data.attributes as { customer: { name: string } | null }).customer?.name ?? null)).toEqual([null, 'A', 'B', 'B']);
    for (let i = 1; i < receiver.arrivals.length; i++) {
      expect(receiver.arrivals[i]!.receivedAt).toBeGreaterThanOrEqual(receiver.arrivals[i - 1]!.answeredAt as number);
    }
  });

  it('does not hold other resources behind a slow one', async () => {
    const { sb, receiver } = await setup();
    receiver.behaviour = (_a, i) => ({ status: 200, delayMs: i === 0 ? 1500 : 0 });
    await sb.createWebhookEndpoint({ url: receiver.url, event_types: ['order.created'] });
    await createOrder(sb);
    await createOrder(sb);
    await waitFor(() => receiver.arrivals.length === 2, 3000);
    expect(receiver.arrivals[1]!.receivedAt - receiver.arrivals[0]!.receivedAt).toBeLessThan(1400);
    await sb.webhooksIdle();
  });
});
