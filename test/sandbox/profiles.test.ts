// The spec-minimal profile and the jsonapi record shape (docs/sandbox.md, "Profiles"), over real
// HTTP: every record kind carries exactly the spec's fields, errors come in the other shapes and
// statuses, Retry-After is an HTTP date, metadata and Idempotency-Key are ignored, webhook events carry
// only the spec's attributes and can arrive before the reply; switching at run time and by CLI flag.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../api/endpoints';
import { eventTypeSchema } from '../../api/enums';
import type { MenuItem } from '../../api/records';
import { ManualClock } from '../../common/clock';
import type { RecordShape, Sandbox } from '../../sandbox/index';
import { DEFAULT_RATE_LIMIT } from '../../sandbox/rate-limit';
import { NO_QUIRKS } from '../../sandbox/quirks';
import { replySchema, specBareErrorSchema, specErrorListSchema, specMessageErrorSchema, specWebhookEventSchema } from '../../sandbox/profile-schemas';
import { dashboard, runSandboxCli, withSandbox, type Loose } from './helpers';
import { startReceiver, waitFor, type Receiver } from './receiver';

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: Loose;
}

/** A /v1 call without helpers.call's default-profile schema checks; `key: null` sends no credential. */
async function v1(sb: Sandbox, method: string, path: string, options: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? sb.credentials.apiKeys.full : options.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${sb.baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json') && text.length > 0;
  return { status: response.status, headers: response.headers, text, body: json ? JSON.parse(text) : undefined };
}

/** The fields the spec shows for each record kind (plus id), written out from the spec itself. */
const SPEC_FIELDS = {
  order: ['customer', 'id', 'items', 'location_id', 'status', 'total'],
  menu_item: ['available', 'category_id', 'description', 'id', 'name', 'price'],
  location: ['id', 'name'],
  category: ['id', 'name'],
  payment: ['amount', 'currency', 'id', 'order_id', 'status'],
  refund: ['amount', 'id', 'reason'],
  deleted_menu_item: ['id'],
  webhook_test: ['id'],
} as const;
type Kind = keyof typeof SPEC_FIELDS;
const ORDER_LINE_FIELDS = ['menu_item_id', 'modifiers', 'name', 'price', 'quantity'];
const JSONAPI_TYPE: Record<Kind, string | null> = {
  order: 'order',
  menu_item: 'menu_item',
  location: 'location',
  category: 'category',
  payment: 'payment',
  refund: 'refund',
  deleted_menu_item: 'menu_item',
  webhook_test: null,
};

const keysOf = (value: object) => Object.keys(value).sort();

/** The record with the jsonapi wrapper checked and taken off (flat records come back as they are). */
function unwrap(record: Loose, shape: RecordShape, type: string | null): Loose {
  if (shape === 'flat' || type === null) return record;
  expect(keysOf(record)).toEqual(['attributes', 'id', 'type']);
  expect(record.type).toBe(type);
  expect(record.attributes).not.toHaveProperty('id');
  return { id: record.id, ...record.attributes };
}

/** A sellable menu item with modifiers at the location, read behind the API (spec-minimal items carry no modifiers). */
async function itemWithModifiers(sb: Sandbox, locationId: string): Promise<MenuItem> {
  const rows = await sb.db.selectFrom('menu_items').select('doc').where('deleted', '=', 0).execute();
  const item = rows.map((r) => JSON.parse(r.doc) as MenuItem).find((i) => i.available && i.modifiers.length > 0 && (i.location_id === null || i.location_id === locationId));
  if (!item) throw new Error('the demo menu has no item with modifiers');
  return item;
}

async function storedOrder(sb: Sandbox, id: string): Promise<Loose> {
  const row = await sb.db.selectFrom('orders').select('doc').where('id', '=', id).executeTakeFirstOrThrow();
  return JSON.parse(row.doc);
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function sandbox(options: Parameters<typeof withSandbox>[0]): Promise<Sandbox> {
  const sb = await withSandbox(options);
  cleanup.push(() => sb.close());
  return sb;
}

async function receiverFor(sb: Sandbox, behaviour?: Parameters<typeof startReceiver>[0]): Promise<{ receiver: Receiver; secret: string }> {
  const receiver = await startReceiver(behaviour);
  cleanup.push(() => receiver.close());
  const endpoint = await sb.createWebhookEndpoint({ url: receiver.url, event_types: eventTypeSchema.options });
  return { receiver, secret: endpoint.secret };
}

describe.each(['flat', 'jsonapi'] as const)('spec-minimal records, %s', (shape) => {
  let sb: Sandbox;
  const replies = new Map<OperationId, Reply>();

  // One scenario touches every operation; the table below checks each reply.
  beforeAll(async () => {
    sb = await withSandbox({ profile: 'spec-minimal', recordShape: shape });
    const locationId = sb.credentials.locationIds[0] as string;
    const item = await itemWithModifiers(sb, locationId);
    const record = (op: OperationId, kind: Kind) => unwrap(replies.get(op)?.body, shape, JSONAPI_TYPE[kind]);
    const run = async (op: OperationId, method: string, path: string, body?: unknown) => {
      replies.set(op, await v1(sb, method, path, { body }));
    };

    await run('createOrder', 'POST', '/orders', {
      location_id: locationId,
      items: [{ menu_item_id: item.id, quantity: 2, modifiers: [item.modifiers[0]?.id] }],
      customer: { name: 'Ada', phone: '555-0100' },
      metadata: { till: 'till-1' },
    });
    const order = record('createOrder', 'order');
    await run('getOrder', 'GET', `/orders/${order.id}`);
    await run('updateOrder', 'PATCH', `/orders/${order.id}`, { customer: { name: 'Ada L.' } });
    await run('listOrders', 'GET', '/orders?status=open&per_page=3');
    await run('createPaymentIntent', 'POST', '/payments/intents', { order_id: order.id, amount: order.total, currency: 'usd' });
    const payment = record('createPaymentIntent', 'payment');
    await run('capturePaymentIntent', 'POST', `/payments/intents/${payment.id}/capture`);
    await run('createRefund', 'POST', `/payments/${payment.id}/refunds`, { amount: 100, reason: 'duplicate' });
    await run('listLocations', 'GET', '/locations');
    await run('getLocation', 'GET', `/locations/${locationId}`);
    await run('updateLocation', 'PATCH', `/locations/${locationId}`, { phone: '+1 510 555 0101' });
    await run('listMenuCategories', 'GET', '/menu/categories');
    const category = unwrap(replies.get('listMenuCategories')?.body.data[0], shape, 'category');
    await run('createMenuItem', 'POST', '/menu/items', { name: 'Soup', price: 650, category_id: category.id, description: 'Of the day' });
    const created = record('createMenuItem', 'menu_item');
    await run('updateMenuItem', 'PATCH', `/menu/items/${created.id}`, { price: 700, modifiers: [{ name: 'Bread', price: 100 }] });
    await run('deleteMenuItem', 'DELETE', `/menu/items/${created.id}`);
    await run('listMenuItems', 'GET', `/menu/items?location_id=${locationId}&per_page=100`);
    const endpoint = await sb.createWebhookEndpoint({ url: 'http://127.0.0.1:9/nobody', event_types: ['order.created'] });
    await run('sendTestWebhook', 'POST', '/webhooks/test', { endpoint_id: endpoint.id, event_type: 'order.created' });
  });
  afterAll(() => sb.close());

  const CASES: { op: OperationId; status: number; kind: Kind; list?: true }[] = [
    { op: 'createOrder', status: 201, kind: 'order' },
    { op: 'getOrder', status: 200, kind: 'order' },
    { op: 'updateOrder', status: 200, kind: 'order' },
    { op: 'listOrders', status: 200, kind: 'order', list: true },
    { op: 'createPaymentIntent', status: 201, kind: 'payment' },
    { op: 'capturePaymentIntent', status: 200, kind: 'payment' },
    { op: 'createRefund', status: 201, kind: 'refund' },
    { op: 'listLocations', status: 200, kind: 'location', list: true },
    { op: 'getLocation', status: 200, kind: 'location' },
    { op: 'updateLocation', status: 200, kind: 'location' },
    { op: 'listMenuCategories', status: 200, kind: 'category', list: true },
    { op: 'createMenuItem', status: 201, kind: 'menu_item' },
    { op: 'updateMenuItem', status: 200, kind: 'menu_item' },
    { op: 'deleteMenuItem', status: 200, kind: 'deleted_menu_item' },
    { op: 'listMenuItems', status: 200, kind: 'menu_item', list: true },
    { op: 'sendTestWebhook', status: 202, kind: 'webhook_test' },
  ];

  it.each(CASES)('$op answers $status with only the spec’s fields of $kind', ({ op, status, kind, list }) => {
    const reply = replies.get(op) as Reply;
    expect(reply.status, reply.text).toBe(status);
    const check = replySchema(op, 'spec-minimal', shape).safeParse(reply.body);
    expect(check.success, `${op}: ${check.error?.message}`).toBe(true);
    let records: Loose[] = [reply.body];
    if (list) {
      expect(keysOf(reply.body)).toEqual(['data', 'links', 'meta']);
      expect(keysOf(reply.body.meta)).toEqual(['page', 'per_page', 'total', 'total_pages']);
      expect(keysOf(reply.body.links)).toEqual(['first', 'last', 'next', 'prev']);
      records = reply.body.data;
      expect(records.length).toBeGreaterThan(0);
    }
    for (const raw of records) {
      const record = unwrap(raw, shape, JSONAPI_TYPE[kind]);
      expect(keysOf(record)).toEqual([...SPEC_FIELDS[kind]]);
      if (kind !== 'order') continue;
      if (record.customer !== null) expect(keysOf(record.customer)).toEqual(['name', 'phone']);
      for (const line of record.items) {
        expect(keysOf(line)).toEqual(ORDER_LINE_FIELDS);
        for (const modifier of line.modifiers) expect(modifier).toMatch(/^mod_/);
      }
    }
  });

  it('keeps the business rules: the order is priced with its modifier, refunds move the payment', () => {
    const order = unwrap(replies.get('createOrder')?.body, shape, 'order');
    expect(order.items[0].modifiers).toHaveLength(1);
    expect(order.total).toBe(order.items[0].price * 2);
    expect(unwrap(replies.get('createRefund')?.body, shape, 'refund')).toMatchObject({ amount: 100, reason: 'duplicate' });
    expect(unwrap(replies.get('updateOrder')?.body, shape, 'order').customer).toEqual({ name: 'Ada L.', phone: null });
  });

  it('drops the metadata a client sends: not returned, not stored', async () => {
    const order = unwrap(replies.get('createOrder')?.body, shape, 'order');
    expect((await storedOrder(sb, order.id)).metadata).toEqual({});
    const patched = await v1(sb, 'PATCH', `/orders/${order.id}`, { body: { metadata: { till: 'till-2' } } });
    expect(patched.status).toBe(200);
    expect((await storedOrder(sb, order.id)).metadata).toEqual({});
  });
});

describe('jsonapi with the default profile', () => {
  it('wraps the default records: attributes are the flat record without its id', async () => {
    const sb = await sandbox({});
    const paths = [
      ['listLocations', '/locations'],
      ['listMenuCategories', '/menu/categories'],
      ['listOrders', '/orders?per_page=5'],
    ] as const;
    const flat = await Promise.all(paths.map(([, path]) => v1(sb, 'GET', path)));
    sb.updateSettings({ record_shape: 'jsonapi' });
    expect(sb.settings()).toMatchObject({ profile: 'default', record_shape: 'jsonapi', events_before_reply: false });
    for (const [index, [op, path]] of paths.entries()) {
      const reply = await v1(sb, 'GET', path);
      expect(replySchema(op, 'default', 'jsonapi').safeParse(reply.body).success, reply.text).toBe(true);
      const plain = flat[index]?.body;
      expect(reply.body.meta).toEqual(plain.meta);
      for (const [i, record] of reply.body.data.entries()) {
        const { id, ...attributes } = plain.data[i];
        expect(record).toEqual({ id, type: record.type, attributes });
      }
    }
  });

  it('is chosen at start as recordShape', async () => {
    const sb = await sandbox({ recordShape: 'jsonapi' });
    const location = (await v1(sb, 'GET', '/locations')).body.data[0];
    expect(location).toMatchObject({ type: 'location', attributes: { object: 'location', currency: 'usd' } });
  });
});

describe('spec-minimal errors', () => {
  let sb: Sandbox;
  const clock = new ManualClock(Date.parse('2026-11-21T09:00:00Z'));
  beforeAll(async () => {
    sb = await withSandbox({ profile: 'spec-minimal', clock });
  });
  afterAll(() => sb.close());

  const locationId = () => sb.credentials.locationIds[0] as string;
  const ERRORS: { name: string; status: number; request: () => Promise<Reply>; body: 'list' | 'bare' | 'message' | 'text'; code?: string; parameter?: string }[] = [
    { name: 'unreadable body', status: 400, body: 'bare', code: 'bad_request', request: () => v1(sb, 'POST', '/orders', { raw: '{' }) },
    { name: 'body field invalid', status: 422, body: 'list', code: 'invalid_request', parameter: 'items', request: () => v1(sb, 'POST', '/orders', { body: { location_id: locationId(), items: [] } }) },
    { name: 'reference invalid', status: 422, body: 'list', code: 'invalid_request', parameter: 'items.0.menu_item_id', request: () => v1(sb, 'POST', '/orders', { body: { location_id: locationId(), items: [{ menu_item_id: 'mi_nope', quantity: 1 }] } }) },
    { name: 'query parameter invalid', status: 422, body: 'list', code: 'invalid_request', parameter: 'per_page', request: () => v1(sb, 'GET', '/orders?per_page=101') },
    { name: 'no credential', status: 401, body: 'bare', code: 'unauthorized', request: () => v1(sb, 'GET', '/orders', { key: null }) },
    { name: 'restricted key', status: 403, body: 'list', code: 'forbidden', request: () => v1(sb, 'POST', '/orders', { key: sb.credentials.apiKeys.readOnly, body: { location_id: locationId(), items: [] } }) },
    { name: 'unknown record', status: 404, body: 'list', request: () => v1(sb, 'GET', '/orders/ord_nope') },
    { name: 'unknown path', status: 404, body: 'list', request: () => v1(sb, 'GET', '/nothing') },
    { name: 'wrong method', status: 405, body: 'list', code: 'method_not_allowed', request: () => v1(sb, 'DELETE', '/orders') },
    {
      name: 'state conflict',
      status: 409,
      body: 'list',
      code: 'conflict',
      request: async () => {
        const order = (await v1(sb, 'GET', '/orders?status=cancelled&per_page=1')).body.data[0];
        return v1(sb, 'PATCH', `/orders/${order.id}`, { body: { status: 'fulfilled' } });
      },
    },
  ];

  it.each(ERRORS)('$name: $status with a $body body', async ({ status, request, body, code, parameter }) => {
    const reply = await request();
    expect(reply.status, reply.text).toBe(status);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    if (body === 'bare') expect(specBareErrorSchema.parse(reply.body)).toMatchObject({ code });
    if (body === 'list') {
      const { errors } = specErrorListSchema.parse(reply.body);
      expect(errors[0]?.code).toBe(code);
      if (parameter !== undefined) expect(errors.map((e) => e.source?.parameter)).toContain(parameter);
    }
    if (status === 401) expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
    if (status === 405) expect(reply.headers.get('allow')).toBe('GET, POST');
    // The spec shows no request id or rate-limit headers.
    expect(reply.headers.get('request-id')).toBeNull();
    expect(reply.headers.get('ratelimit-limit')).toBeNull();
  });

  const dateIn = (seconds: number) => new Date(clock.now() + seconds * 1000).toUTCString();
  const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

  it('answers 429 with a bare message and Retry-After as an HTTP date, 5xx as plain text', async () => {
    cleanup.push(async () => void (await sb.faults.reset()));
    await sb.faults.set({ rate_limit_rate: 1, retry_after_sec: 7 });
    const limited = await v1(sb, 'GET', '/orders');
    expect(limited.status).toBe(429);
    expect(specMessageErrorSchema.parse(limited.body).message).toContain('too many requests');
    expect(limited.headers.get('retry-after')).toMatch(IMF_FIXDATE);
    expect(limited.headers.get('retry-after')).toBe(dateIn(7));
    const token = await fetch(`${sb.apiHost}/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(token.status).toBe(429);
    expect(await token.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect(token.headers.get('retry-after')).toBe(dateIn(7));

    await sb.faults.set({ rate_limit_rate: 0, error_rate: 1, error_status: 503 });
    const unavailable = await v1(sb, 'POST', '/orders', { body: {} });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(unavailable.text).toBe('Service Unavailable');
    expect(unavailable.headers.get('retry-after')).toBe(dateIn(7));

    await sb.faults.set({ error_status: 500 });
    const failed = await v1(sb, 'GET', '/locations');
    expect(failed.status).toBe(500);
    expect(failed.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(failed.text).toBe('Internal Server Error');
  });

  it('rounds a Retry-After date up to the next whole second and uses it for the rate limit too', async () => {
    clock.advance(250);
    cleanup.push(async () => void sb.updateSettings({ rate_limit: DEFAULT_RATE_LIMIT }));
    sb.updateSettings({ rate_limit: { limit: 1, window_sec: 10 } });
    expect((await v1(sb, 'GET', '/locations')).status).toBe(200);
    const limited = await v1(sb, 'GET', '/locations');
    expect(limited.status).toBe(429);
    // now + 10 s is .250 past a second: the date names the next second, never an earlier one.
    expect(Date.parse(limited.headers.get('retry-after') as string)).toBe(Math.ceil((clock.now() + 10_000) / 1000) * 1000);
  });

  it('ignores Idempotency-Key: two POSTs with one key make two orders', async () => {
    const item = await itemWithModifiers(sb, locationId());
    const body = { location_id: locationId(), items: [{ menu_item_id: item.id, quantity: 1 }] };
    const before = await sb.countOrders();
    const headers = { 'Idempotency-Key': 'k-spec-minimal' };
    const first = await v1(sb, 'POST', '/orders', { body, headers });
    const second = await v1(sb, 'POST', '/orders', { body, headers });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(await sb.countOrders()).toBe(before + 2);
    // Even a malformed key is no error: it is never read.
    expect((await v1(sb, 'POST', '/orders', { body, headers: { 'Idempotency-Key': 'x'.repeat(300) } })).status).toBe(201);
  });
});

describe('spec-minimal webhook events', () => {
  it('carry only the spec’s envelope and attributes, signed as usual', async () => {
    const sb = await sandbox({ profile: 'spec-minimal' });
    const { receiver, secret } = await receiverFor(sb);
    const locationId = sb.credentials.locationIds[0] as string;
    const item = await itemWithModifiers(sb, locationId);
    const order = (await v1(sb, 'POST', '/orders', { body: { location_id: locationId, items: [{ menu_item_id: item.id, quantity: 3, modifiers: [item.modifiers[0]?.id] }], metadata: { till: 't' } } })).body;
    await v1(sb, 'PATCH', `/orders/${order.id}`, { body: { customer: { name: 'Bo' } } });
    const payment = (await v1(sb, 'POST', '/payments/intents', { body: { order_id: order.id, amount: order.total, currency: 'usd' } })).body;
    await v1(sb, 'POST', `/payments/intents/${payment.id}/capture`);
    await v1(sb, 'POST', `/payments/${payment.id}/refunds`, { body: { amount: 50 } });
    await v1(sb, 'PATCH', `/orders/${order.id}`, { body: { status: 'fulfilled' } });
    const rows = await sb.db.selectFrom('menu_items').select('doc').where('deleted', '=', 0).execute();
    const tracked = rows.map((r) => JSON.parse(r.doc) as MenuItem).find((i) => i.stock !== null && i.low_stock_threshold !== null) as MenuItem;
    await v1(sb, 'PATCH', `/menu/items/${tracked.id}`, { body: { stock: 1 } });
    await v1(sb, 'DELETE', `/menu/items/${tracked.id}`);
    const endpoint = (await dashboard(sb, 'GET', '/webhook-endpoints')).body.data[0];
    expect((await v1(sb, 'POST', '/webhooks/test', { body: { endpoint_id: endpoint.id, event_type: 'order.cancelled' } })).status).toBe(202);
    await sb.webhooksIdle();

    const events = receiver.arrivals.map((a) => {
      Stripe.webhooks.constructEvent(a.rawBody, a.signature, secret);
      return JSON.parse(a.rawBody.toString('utf8'));
    });
    expect(events.map((e) => e.type)).toEqual([
      'order.created',
      'order.updated',
      'payment.completed',
      'payment.refunded',
      'order.fulfilled',
      'menu.item_updated',
      'inventory.low_stock',
      'menu.item_updated',
      'order.cancelled',
    ]);
    for (const event of events) {
      specWebhookEventSchema.parse(event);
      expect(keysOf(event)).toEqual(['created_at', 'data', 'id', 'type']);
      expect(keysOf(event.data)).toEqual(['attributes', 'id', 'type']);
      if (event.data.type === 'order') {
        expect(keysOf(event.data.attributes)).toEqual(['items', 'location_id', 'status', 'total']);
        for (const line of event.data.attributes.items) expect(keysOf(line)).toEqual(['name', 'price', 'quantity']);
      } else {
        expect(event.data.attributes).toEqual({});
      }
    }
    expect(events[0].data).toEqual({
      id: order.id,
      type: 'order',
      attributes: { total: order.total, status: 'open', items: [{ name: item.name, quantity: 3, price: order.items[0].price }], location_id: locationId },
    });
    expect(events[2].data).toEqual({ id: payment.id, type: 'payment', attributes: {} });
    expect(events[4].data.attributes.status).toBe('fulfilled');
    expect(events[6].data).toEqual({ id: tracked.id, type: 'menu_item', attributes: {} });
  });
});

describe('events before reply', () => {
  async function postOrder(sb: Sandbox): Promise<{ reply: Reply; repliedAt: number }> {
    const locationId = sb.credentials.locationIds[0] as string;
    const item = await itemWithModifiers(sb, locationId);
    const reply = await v1(sb, 'POST', '/orders', { body: { location_id: locationId, items: [{ menu_item_id: item.id, quantity: 1 }] } });
    return { reply, repliedAt: Date.now() };
  }

  it('holds the reply of a write until its events’ first delivery attempts finished', async () => {
    const sb = await sandbox({ profile: 'spec-minimal' });
    expect(sb.settings().events_before_reply).toBe(true);
    const { receiver } = await receiverFor(sb, () => ({ status: 200, delayMs: 300 }));
    const { reply, repliedAt } = await postOrder(sb);
    expect(reply.status).toBe(201);
    const [arrival] = receiver.arrivals;
    expect(JSON.parse(arrival?.rawBody.toString('utf8') ?? '{}')).toMatchObject({ type: 'order.created', data: { id: reply.body.id } });
    expect(arrival?.answeredAt).toBeDefined();
    expect(arrival?.answeredAt).toBeLessThanOrEqual(repliedAt);
  });

  it('replies at once when switched off, and waits at most 2 s for a receiver that hangs', async () => {
    const sb = await sandbox({ profile: 'spec-minimal', eventsBeforeReply: false });
    expect(sb.settings().events_before_reply).toBe(false);
    const { receiver } = await receiverFor(sb, (_arrival, index) => (index === 0 ? { status: 200, delayMs: 300 } : 'hang'));
    const quick = await postOrder(sb);
    expect(quick.reply.status).toBe(201);
    await waitFor(() => receiver.arrivals.length === 1, 5000, 'order.created');
    expect(receiver.arrivals[0]?.answeredAt).toBeUndefined();

    sb.updateSettings({ events_before_reply: true });
    await waitFor(() => receiver.arrivals[0]?.answeredAt !== undefined, 5000, 'the first answer');
    const startedAt = Date.now();
    const held = await postOrder(sb);
    expect(held.reply.status).toBe(201);
    expect(receiver.arrivals).toHaveLength(2);
    expect(held.repliedAt - startedAt).toBeGreaterThanOrEqual(1900);
    expect(held.repliedAt - startedAt).toBeLessThan(5000);
  });
});

describe('switching at run time', () => {
  it('through the dashboard API: GET /settings shows the switches, PATCH changes replies at once', async () => {
    const sb = await sandbox({});
    expect((await dashboard(sb, 'GET', '/settings')).body).toEqual({
      idempotency: 'honour',
      rate_limit: DEFAULT_RATE_LIMIT,
      profile: 'default',
      record_shape: 'flat',
      events_before_reply: false,
      quirks: NO_QUIRKS,
    });
    const order = (await v1(sb, 'GET', '/orders?per_page=1')).body.data[0];
    const defaultText = (await v1(sb, 'GET', `/orders/${order.id}`)).text;
    expect(JSON.parse(defaultText)).toHaveProperty('currency');

    const minimal = await dashboard(sb, 'PATCH', '/settings', { profile: 'spec-minimal' });
    expect(minimal.body).toMatchObject({ profile: 'spec-minimal', record_shape: 'flat', events_before_reply: true, idempotency: 'honour' });
    expect(keysOf((await v1(sb, 'GET', `/orders/${order.id}`)).body)).toEqual([...SPEC_FIELDS.order]);

    await dashboard(sb, 'PATCH', '/settings', { record_shape: 'jsonapi' });
    const wrapped = (await v1(sb, 'GET', `/orders/${order.id}`)).body;
    expect(wrapped).toMatchObject({ id: order.id, type: 'order' });
    expect(keysOf(wrapped.attributes)).toEqual(SPEC_FIELDS.order.filter((f) => f !== 'id'));

    expect((await dashboard(sb, 'PATCH', '/settings', { profile: 'spec-minimal', events_before_reply: false })).body.events_before_reply).toBe(false);
    const back = await dashboard(sb, 'PATCH', '/settings', { profile: 'default', record_shape: 'flat' });
    expect(back.body).toMatchObject({ profile: 'default', record_shape: 'flat', events_before_reply: false });
    expect((await v1(sb, 'GET', `/orders/${order.id}`)).text).toBe(defaultText);

    for (const bad of [{ profile: 'strict' }, { record_shape: 'xml' }, { events_before_reply: 'yes' }]) {
      const refused = await dashboard(sb, 'PATCH', '/settings', bad);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('invalid_request');
    }
  });

  it('through the HTML dashboard’s settings form', async () => {
    const sb = await sandbox({ seed: 'none' });
    const html = await (await fetch(sb.dashboardUrl)).text();
    expect(html).toContain('<form method="post" action="/_dashboard/forms/settings">');
    expect(html).toContain('<select name="profile"><option selected>default</option><option>spec-minimal</option></select>');
    expect(html).toContain('<select name="record_shape"><option selected>flat</option><option>jsonapi</option></select>');
    const submit = (fields: [string, string][]) =>
      fetch(`${sb.authUrl}/_dashboard/forms/settings`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
    expect((await submit([['profile', 'spec-minimal'], ['record_shape', 'jsonapi'], ['idempotency', 'honour'], ['events_before_reply', '']])).status).toBe(303);
    expect(sb.settings()).toMatchObject({ profile: 'spec-minimal', record_shape: 'jsonapi', events_before_reply: true });
    expect(await (await fetch(sb.dashboardUrl)).text()).toContain('<option selected>spec-minimal</option>');
    await submit([['events_before_reply', 'off']]);
    expect(sb.settings()).toMatchObject({ profile: 'spec-minimal', events_before_reply: false });
    expect((await submit([['profile', 'strict']])).status).toBe(400);
  });
});

describe('npm run sandbox -- --profile --record-shape', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-profile-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [['--profile', 'strict'], '--profile must be default or spec-minimal, not strict'],
    [['--record-shape', 'xml'], '--record-shape must be flat or jsonapi, not xml'],
  ])('refuses %j with exit 2 naming the flag', async (args, message) => {
    const cli = runSandboxCli(args);
    expect(await cli.exited).toBe(2);
    expect(cli.err()).toContain(message);
    expect(cli.err()).toContain('usage: npm run sandbox');
  });

  it('starts with the profile and shape given', async () => {
    const credentialsFile = join(dir, 'credentials.json');
    const cli = runSandboxCli(['--seed', 'demo', '--profile', 'spec-minimal', '--record-shape', 'jsonapi', '--credentials-out', credentialsFile]);
    try {
      await waitFor(() => cli.out().includes('sandbox ready:'), 30_000, 'the CLI');
      const written = JSON.parse(readFileSync(credentialsFile, 'utf8'));
      const response = await fetch(`${written.base_url}/locations`, { headers: { Authorization: `Bearer ${written.api_keys.full}` } });
      const body = (await response.json()) as Loose;
      expect(body.data[0]).toEqual({ id: written.location_ids[0], type: 'location', attributes: { name: expect.any(String) } });
      const settings = (await (await fetch(`${written.dashboard.api}/settings`)).json()) as Loose;
      expect(settings).toMatchObject({ profile: 'spec-minimal', record_shape: 'jsonapi', events_before_reply: true });
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });
});

describe('quirks (sandbox/quirks.ts): what a /v1 may do where the spec is silent, each off by default', () => {
  it('short pages: half of per_page a page, meta.per_page as asked, total_pages and links.next over the real pages', async () => {
    const sb = await sandbox({ quirks: { short_pages: true } });
    const first = (await v1(sb, 'GET', '/orders?per_page=10')).body;
    expect(first.data).toHaveLength(5);
    expect(first.meta).toMatchObject({ per_page: 10, total_pages: Math.ceil(first.meta.total / 5) });
    expect(first.links.next).toContain('page=2');
    const ids = new Set<string>();
    for (let page = 1; page <= first.meta.total_pages; page++) for (const o of (await v1(sb, 'GET', `/orders?per_page=10&page=${page}`)).body.data) ids.add(o.id);
    expect(ids.size).toBe(first.meta.total);
  });

  it('an empty page 2 that still links on; every record on the pages around it', async () => {
    const sb = await sandbox({ quirks: { empty_page_with_next: true } });
    const second = (await v1(sb, 'GET', '/orders?per_page=50&page=2')).body;
    expect(second.data).toEqual([]);
    expect(second.links.next).toContain('page=3');
    expect(second.meta.total_pages).toBe(Math.ceil(second.meta.total / 50) + 1);
    const ids = new Set<string>();
    for (let page = 1; page <= second.meta.total_pages; page++) for (const o of (await v1(sb, 'GET', `/orders?per_page=50&page=${page}`)).body.data) ids.add(o.id);
    expect(ids.size).toBe(second.meta.total);
  });

  it('orders newest first', async () => {
    const sb = await sandbox({ quirks: { newest_first: true } });
    const stamps = (await v1(sb, 'GET', '/orders?per_page=20')).body.data.map((o: { created_at: string }) => Date.parse(o.created_at));
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
  });

  it('states the spec does not list: voided orders, settled payments, a repeated capture refused as 422 in spec-minimal; GET /payments/intents/{id}', async () => {
    const sb = await sandbox({ profile: 'spec-minimal', quirks: { unknown_order_states: true, unknown_payment_states: true } });
    const statuses = new Set<string>();
    for (let page = 1; page <= 3; page++) for (const o of (await v1(sb, 'GET', `/orders?per_page=100&page=${page}`)).body.data) statuses.add(o.status);
    expect([...statuses].sort()).toEqual(['fulfilled', 'open', 'voided']);
    const order = (await v1(sb, 'GET', '/orders?status=open&per_page=1')).body.data[0];
    const intent = (await v1(sb, 'POST', '/payments/intents', { body: { order_id: order.id, amount: 100, currency: 'usd' } })).body;
    expect(intent.status).toBe('authorized');
    expect((await v1(sb, 'POST', `/payments/intents/${intent.id}/capture`)).body.status).toBe('settled');
    const again = await v1(sb, 'POST', `/payments/intents/${intent.id}/capture`);
    expect(again.status).toBe(422);
    expect((await v1(sb, 'GET', `/payments/intents/${intent.id}`)).body).toEqual({ id: intent.id, order_id: order.id, amount: 100, currency: 'usd', status: 'settled' });
    await v1(sb, 'POST', `/payments/${intent.id}/refunds`, { body: { amount: 100 } });
    expect((await v1(sb, 'GET', `/payments/intents/${intent.id}`)).body.status).toBe('reversed');
    sb.updateSettings({ quirks: { unknown_payment_states: false } });
    expect((await v1(sb, 'GET', `/payments/intents/${intent.id}`)).body.status).toBe('refunded');
    expect(sb.settings().quirks).toEqual({ ...NO_QUIRKS, unknown_order_states: true });
  });
});
