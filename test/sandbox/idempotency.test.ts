import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { IdempotencyStore } from '../../sandbox/idempotency';
import { openStore } from '../../sandbox/storage';
import type { Sandbox } from '../../sandbox/index';
import { call, createOrder, dashboard, sellableItem, withSandbox, type Loose } from './helpers';

let sb: Sandbox;
let key: string;
let clock: ManualClock;
let orderBody: Loose;
beforeAll(async () => {
  clock = new ManualClock();
  sb = await withSandbox({ clock });
  key = sb.credentials.apiKeys.full;
  const item = await sellableItem(sb);
  orderBody = { location_id: sb.credentials.locationIds[0], items: [{ menu_item_id: item.id, quantity: 1 }] };
});
afterAll(() => sb.close());

const post = (path: string, body: unknown, idempotencyKey: string, credential = key) =>
  call(sb, 'POST', path, { key: credential, body, headers: { 'Idempotency-Key': idempotencyKey } });

describe('Idempotency-Key honoured', () => {
  it('replays the stored reply for the same key and body, across credentials of the account', async () => {
    const before = await sb.countOrders();
    const first = await post('/orders', orderBody, 'k-same');
    const second = await post('/orders', { ...orderBody }, 'k-same');
    const third = await post('/orders', orderBody, 'k-same', sb.credentials.apiKeys.ordersOnly);
    expect(first.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(third.text).toBe(first.text);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await sb.countOrders()).toBe(before + 1);
  });

  it('refuses the same key with another body or path', async () => {
    await post('/orders', orderBody, 'k-diff');
    const otherBody = await post('/orders', { ...orderBody, customer: { name: 'X' } }, 'k-diff');
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.error.code).toBe('idempotency_key_reused');
    const order = await createOrder(sb);
    const otherPath = await post('/payments/intents', { order_id: order.id, amount: 1, currency: 'usd' }, 'k-diff');
    expect(otherPath.status).toBe(422);
  });

  it('replays a refusal that happened while running, but not a validation failure', async () => {
    const order = await createOrder(sb);
    await call(sb, 'PATCH', `/orders/${order.id}`, { key, body: { status: 'cancelled' } });
    const refused = await post('/payments/intents', { order_id: order.id, amount: 1, currency: 'usd' }, 'k-refused');
    expect(refused.status).toBe(409);
    const again = await post('/payments/intents', { order_id: order.id, amount: 1, currency: 'usd' }, 'k-refused');
    expect(again.text).toBe(refused.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    expect((await post('/orders', { ...orderBody, items: [] }, 'k-invalid')).status).toBe(400);
    expect((await post('/orders', orderBody, 'k-invalid')).status).toBe(201);
  });

  it('refuses malformed keys and forgets keys after 24 hours', async () => {
    expect((await post('/orders', orderBody, 'x'.repeat(256))).body.error).toMatchObject({ code: 'invalid_request', param: 'Idempotency-Key' });
    const first = await post('/orders', orderBody, 'k-old');
    clock.advance(24 * 3600_000 + 1);
    const later = await post('/orders', orderBody, 'k-old');
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
  });

  it('deletes expired keys from the database, at most once a minute, through an index', async () => {
    const stored = async (k: string) => (await sb.db.selectFrom('idempotency').select('key').where('key', '=', k).execute()).length;
    await post('/orders', orderBody, 'k-expiring');
    clock.advance(30_000);
    await post('/orders', orderBody, 'k-young');
    clock.advance(24 * 3600_000 - 30_000 + 1);
    await post('/orders', orderBody, 'k-expiry-trigger');
    expect(await stored('k-expiring')).toBe(0);
    expect(await stored('k-young')).toBe(1);
    // k-young expires 30 s later; within a minute of the last delete it is ignored but still stored.
    clock.advance(40_000);
    await post('/orders', orderBody, 'k-within-minute');
    expect(await stored('k-young')).toBe(1);
    clock.advance(20_000);
    await post('/orders', orderBody, 'k-after-minute');
    expect(await stored('k-young')).toBe(0);
    expect(await stored('k-after-minute')).toBe(1);
    const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN DELETE FROM idempotency WHERE created_at <= ${0}`.execute(sb.db);
    expect(rows.map((r) => r.detail).join('\n')).toMatch(/USING (COVERING )?INDEX idempotency_by_created/);
  });

  it('concurrent requests with one key make one order; the others replay it or are told the key is in use', async () => {
    const before = await sb.countOrders();
    const replies = await Promise.all(Array.from({ length: 6 }, () => post('/orders', orderBody, 'k-race')));
    expect(await sb.countOrders()).toBe(before + 1);
    const created = replies.filter((r) => r.status === 201);
    expect(new Set(created.map((r) => r.text)).size).toBe(1);
    for (const reply of replies.filter((r) => r.status !== 201)) {
      expect(reply.status).toBe(409);
      expect(reply.body.error.code).toBe('idempotency_key_in_use');
      expect(reply.headers.get('retry-after')).toBe('1');
    }
  });

  it('a key still running is idempotency_key_in_use', async () => {
    const { db } = await openStore();
    const store = new IdempotencyStore(db, clock);
    store.claim('busy');
    expect(() => store.claim('busy')).toThrow(/still running/);
    store.release('busy');
    expect(() => store.claim('busy')).not.toThrow();
    await db.destroy();
  });
});

describe('Idempotency-Key ignored (as a real server may)', () => {
  it('runs every retry again when the switch is set', async () => {
    expect((await dashboard(sb, 'PATCH', '/settings', { idempotency: 'ignore' })).body.idempotency).toBe('ignore');
    const before = await sb.countOrders();
    const a = await post('/orders', orderBody, 'k-ignored');
    const b = await post('/orders', orderBody, 'k-ignored');
    expect(a.body.id).not.toBe(b.body.id);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(await sb.countOrders()).toBe(before + 2);
    expect((await dashboard(sb, 'PATCH', '/settings', { idempotency: 'sometimes' })).status).toBe(400);
    sb.updateSettings({ idempotency: 'honour' });
  });
});
