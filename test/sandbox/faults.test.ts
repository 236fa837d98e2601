import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index';
import { call, dashboard, sellableItem, withSandbox, type Loose } from './helpers';
import { tokenRequest } from './oauth-helpers';

let sb: Sandbox;
let key: string;
let orderBody: Loose;
beforeAll(async () => {
  sb = await withSandbox();
  key = sb.credentials.apiKeys.full;
  const item = await sellableItem(sb);
  orderBody = { location_id: sb.credentials.locationIds[0], items: [{ menu_item_id: item.id, quantity: 1 }] };
});
afterAll(() => sb.close());
afterEach(async () => {
  await sb.faults.reset();
});

function rawPost(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${sb.baseUrl}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function networkError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? String(err);
  }
  throw new Error('expected the request to fail at the network level');
}

describe('fault injection', () => {
  it('adds latency to the API but never to the dashboard', async () => {
    await sb.faults.set({ latency_ms: 400 });
    let started = Date.now();
    expect((await call(sb, 'GET', '/locations', { key })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    started = Date.now();
    expect((await dashboard(sb, 'GET', '/faults')).body.latency_ms).toBe(400);
    expect(Date.now() - started).toBeLessThan(390);
  });

  it('answers 500 internal_error before running anything (RFC style on /oauth/token)', async () => {
    await sb.faults.set({ error_rate: 1 });
    const before = await sb.countOrders();
    const reply = await call(sb, 'POST', '/orders', { key, body: orderBody });
    expect(reply.status).toBe(500);
    expect(reply.body.error.code).toBe('internal_error');
    expect(await sb.countOrders()).toBe(before);
    const token = await tokenRequest(sb, { grant_type: 'refresh_token' });
    expect(token).toMatchObject({ status: 500, body: { error: 'server_error' } });
  });

  it('answers 503 service_unavailable with Retry-After when told to', async () => {
    await sb.faults.set({ error_rate: 1, error_status: 503, retry_after_sec: 3 });
    const reply = await call(sb, 'GET', '/orders', { key });
    expect(reply.status).toBe(503);
    expect(reply.body.error.code).toBe('service_unavailable');
    expect(reply.headers.get('retry-after')).toBe('3');
    const token = await tokenRequest(sb, { grant_type: 'refresh_token' });
    expect(token).toMatchObject({ status: 503, body: { error: 'server_error' } });
  });

  it('fails about the configured share of requests', async () => {
    await sb.faults.set({ error_rate: 0.3 });
    let failures = 0;
    for (let i = 0; i < 100; i++) if ((await call(sb, 'GET', '/menu/categories', { key })).status === 500) failures++;
    expect(failures).toBeGreaterThan(8);
    expect(failures).toBeLessThan(55);
  });

  it('storms 429 with Retry-After', async () => {
    await sb.faults.set({ rate_limit_rate: 1, retry_after_sec: 7 });
    const reply = await call(sb, 'GET', '/orders', { key });
    expect(reply.status).toBe(429);
    expect(reply.body.error.code).toBe('rate_limit_exceeded');
    expect(reply.headers.get('retry-after')).toBe('7');
  });

  it('resets connections before running the request', async () => {
    await sb.faults.set({ reset_rate: 1 });
    const before = await sb.countOrders();
    expect(await networkError(rawPost('/orders', orderBody))).toMatch(/ECONNRESET|socket|closed|terminated/i);
    expect(await sb.countOrders()).toBe(before);
  });

  it('commits a write, then drops its response; an Idempotency-Key retry gets the stored reply', async () => {
    await sb.faults.set({ drop_response_rate: 1 });
    const before = await sb.countOrders();
    expect(await networkError(rawPost('/orders', orderBody, { 'Idempotency-Key': 'drop-1' }))).toMatch(/ECONNRESET|socket|closed|terminated/i);
    expect(await sb.countOrders()).toBe(before + 1);
    expect((await call(sb, 'GET', '/orders?per_page=1', { key })).status).toBe(200);
    await sb.faults.reset();
    const retry = await rawPost('/orders', orderBody, { 'Idempotency-Key': 'drop-1' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const order = (await retry.json()) as Loose;
    expect((await call(sb, 'GET', `/orders/${order.id}`, { key })).status).toBe(200);
    expect(await sb.countOrders()).toBe(before + 1);
  });

  it('drops only the configured methods', async () => {
    await sb.faults.set({ drop_response_rate: 1, drop_response_methods: ['PATCH'] });
    const created = await rawPost('/orders', orderBody);
    expect(created.status).toBe(201);
    const order = (await created.json()) as Loose;
    const patch = fetch(`${sb.baseUrl}/orders/${order.id}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'fulfilled' }),
    });
    await networkError(patch);
    await sb.faults.reset();
    expect((await call(sb, 'GET', `/orders/${order.id}`, { key })).body.status).toBe('fulfilled');
  });

  it('an outage refuses connections on the API port while the dashboard keeps working, and lifts', async () => {
    const set = await dashboard(sb, 'PATCH', '/faults', { outage: true });
    expect(set.body.outage).toBe(true);
    expect(await networkError(fetch(`${sb.baseUrl}/orders`, { headers: { Authorization: `Bearer ${key}` } }))).toMatch(/ECONNREFUSED/);
    expect((await dashboard(sb, 'GET', '/state')).status).toBe(200);
    const lifted = await dashboard(sb, 'PATCH', '/faults', { outage: false });
    expect(lifted.body.outage).toBe(false);
    expect((await call(sb, 'GET', '/orders', { key })).status).toBe(200);
  });

  it('an outage also cuts connections already open', async () => {
    await sb.faults.set({ latency_ms: 300 });
    const inFlight = networkError(fetch(`${sb.baseUrl}/orders`, { headers: { Authorization: `Bearer ${key}` } }));
    await new Promise((r) => setTimeout(r, 50));
    await sb.faults.set({ outage: true });
    expect(await inFlight).toMatch(/ECONNRESET|socket|closed|terminated|other side/i);
  });

  it('faults are set over HTTP and programmatically, validated, and reset', async () => {
    expect((await dashboard(sb, 'PATCH', '/faults', { error_rate: 2 })).status).toBe(400);
    expect((await dashboard(sb, 'PATCH', '/faults', { explode: true })).status).toBe(400);
    expect((await dashboard(sb, 'PATCH', '/faults', { latency_ms: 5 })).body.latency_ms).toBe(5);
    expect(sb.faults.get().latency_ms).toBe(5);
    await expect(sb.faults.set({ reset_rate: -1 })).rejects.toThrow();
    const reset = await dashboard(sb, 'DELETE', '/faults');
    expect(reset.body).toEqual(sb.faults.get());
    expect(reset.body.latency_ms).toBe(0);
  });
});
