// Push against the sandbox over real HTTP with a real store file: every order arrives exactly
// once, in order per resource, whatever the network and the server do.
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, OUR_GAP_DECISIONS, sandboxAndStore, FAST_TUNING, allServerOrders, engineFor, menuFixture, placeOrder, sendJson, waitFor, type Sandbox, type Store } from './harness';
import type { OrderDoc } from '../../store/index';
import type { SyncEngine } from '../../sync/engine';
import type { SyncStatus } from '../../sync/status';
import { buildRequest, ReferenceResolver } from '../../sync/operations';
import { ALL_QUIRKS } from '../../sandbox/index';

const defer = cleanupAfterEach();

const setup = () => sandboxAndStore(defer);

function start(engine: SyncEngine): SyncEngine {
  engine.start();
  defer(() => engine.stop());
  return engine;
}

/**
 * Each local order maps to exactly one server order with the same lines, and the server holds no
 * other order made during the test (a duplicate would be one). Against our default profile the
 * orders also carry our metadata, naming the local order each came from.
 */
async function expectExactlyOnce(sandbox: Sandbox, store: Store, localIds: readonly string[]): Promise<void> {
  const serverIds = localIds.map((id) => store.serverIdFor('order', id));
  expect(serverIds.every((id) => id !== undefined), 'every local order has its server id').toBe(true);
  expect(new Set(serverIds).size).toBe(localIds.length);
  // The demo seed's orders are backdated; everything the server made since the first sale here is this test's.
  const firstSale = Math.min(...localIds.map((id) => store.cashier.getOrder(id)!.created_at));
  const madeSince = await sandbox.db.selectFrom('orders').select('id').where('created_at', '>=', firstSale).execute();
  expect(madeSince.map((o) => o.id).sort()).toEqual([...(serverIds as string[])].sort());
  const madeInTest = (await allServerOrders(sandbox)).filter((o) => serverIds.includes(o.id));
  for (const id of localIds) {
    const server = madeInTest.find((o) => o.id === store.serverIdFor('order', id))!;
    if (OUR_GAP_DECISIONS) expect(server.metadata.pos_local_id).toBe(id);
    const local = store.cashier.getOrder(id)!;
    expect(server.items.map((l) => [l.menu_item_id, l.quantity, l.modifiers.map((m) => (typeof m === 'string' ? m : m.id))])).toEqual(
      local.lines.map((l) => [l.menu_item_id, l.quantity, l.modifiers.map((m) => m.modifier_id)]),
    );
  }
  expect(store.outbox.unfinishedCount()).toBe(0);
  expect(store.outbox.listDeadLetters()).toEqual([]);
}

describe('push', () => {
  it('sends queued orders and their follow-up changes, ids rewritten to the server\'s', async () => {
    const { sandbox, store } = await setup();
    const menu = await menuFixture(sandbox);
    const orders = Array.from({ length: 20 }, (_, n) => placeOrder(store, menu, n));
    // Changes made offline to an order not yet on the server wait for it and use its server id.
    store.cashier.fulfilOrder(orders[0]!.id, { actor: 'test' });
    store.cashier.cancelOrder(orders[1]!.id, { actor: 'test' });
    const engine = start(engineFor(sandbox, store));
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the outbox to drain');
    await expectExactlyOnce(sandbox, store, orders.map((o) => o.id));
    const server = await allServerOrders(sandbox);
    expect(server.find((o) => o.id === store.serverIdFor('order', orders[0]!.id))?.status).toBe('fulfilled');
    expect(server.find((o) => o.id === store.serverIdFor('order', orders[1]!.id))?.status).toBe('cancelled');
    const status = engine.status();
    expect(status).toMatchObject({ online: true, pending: 0, deadLetters: 0, credentials: 'ok', backoff: null });
    expect(status.lastPushAt).not.toBeNull();
  });
});

describe('outbox history', () => {
  it('prunes confirmed operations once they are older than the retention', async () => {
    const { sandbox, store } = await setup();
    const menu = await menuFixture(sandbox);
    const orders = Array.from({ length: 5 }, (_, n) => placeOrder(store, menu, n));
    const engine = start(engineFor(sandbox, store, { timers: { completedRetentionMs: 0 } }));
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the push');
    const done = () => (store.db.prepare(`SELECT COUNT(*) AS n FROM outbox WHERE state = 'done'`).get() as { n: number }).n;
    expect(done()).toBeGreaterThan(0);
    engine.syncNow(); // a pull, after which history older than the retention goes
    await waitFor(() => done() === 0, 20_000, 'the pruning');
    for (const order of orders) expect(store.serverIdFor('order', order.id)).toBeDefined();
  });
});

describe('recovery after a crash', () => {
  it('an order found in flight is looked for, and stays "look first" while the lookup cannot run', async () => {
    const { sandbox, store } = await setup();
    sandbox.updateSettings({ idempotency: 'ignore' });
    const menu = await menuFixture(sandbox);
    const order = placeOrder(store, menu, 3);
    // The previous run sent the POST (it landed) and died before recording the reply.
    const [op] = store.outbox.readyOperations(Date.now(), 10);
    store.outbox.markInFlight(op!.opId, Date.now());
    const request = buildRequest(new ReferenceResolver(store), store.outbox.getOperation(op!.opId));
    const landed = await sendJson<{ id: string }>(sandbox, 'POST', '/orders', request.body);
    // It restarts while the network is down: the lookups fail, the operation must stay ambiguous.
    await sandbox.faults.set({ outage: true });
    const engine = start(engineFor(sandbox, store));
    await waitFor(() => store.outbox.getOperation(op!.opId).state === 'pending' && engine.status().backoff !== null, 10_000, 'a failed lookup');
    expect(store.outbox.getOperation(op!.opId).lastError).toMatch(/^ambiguous since \d+: /);
    await sandbox.faults.set({ outage: false });
    engine.syncNow();
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the recovery');
    expect(store.serverIdFor('order', order.id)).toBe(landed.id);
    await expectExactlyOnce(sandbox, store, [order.id]);
  });
});

describe('pacing', () => {
  it('after an outage ends with nothing to push, the engine idles instead of spinning', async () => {
    const { sandbox, store } = await setup();
    await sandbox.faults.set({ outage: true });
    const engine = start(engineFor(sandbox, store, { timers: { pushIntervalMs: 200 } }));
    await waitFor(() => !engine.status().online && engine.status().lastError !== null, 10_000, 'the outage to be noticed');
    await sandbox.faults.set({ outage: false });
    // Count how often the push looks at the queue once the pause has run out.
    let looks = 0;
    const ready = store.outbox.readyOperations.bind(store.outbox);
    store.outbox.readyOperations = (now, limit) => {
      looks++;
      return ready(now, limit);
    };
    const claim = store.outbox.claimReady.bind(store.outbox);
    store.outbox.claimReady = (now, limit) => {
      looks++;
      return claim(now, limit);
    };
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(looks).toBeLessThan(30); // every pushIntervalMs, not in a loop
  });

  it('a pull missed while offline runs as soon as the server answers again', async () => {
    const { sandbox, store } = await setup();
    const menu = await menuFixture(sandbox);
    await sandbox.faults.set({ outage: true });
    const engine = start(engineFor(sandbox, store));
    await waitFor(() => !engine.status().online && engine.status().lastError !== null, 10_000, 'the failed pull');
    expect(engine.status().lastPullAt).toBeNull();
    await sandbox.faults.set({ outage: false });
    // A cashier write reconnects (the pull interval is a minute): the missed pull follows at once.
    placeOrder(store, menu, 1);
    engine.notifyLocalWrite();
    await waitFor(() => engine.status().lastPullAt !== null, 10_000, 'the pull after reconnecting');
    expect(engine.status().online).toBe(true);
  });

  it('a burst of cashier writes during an outage probes the network a bounded number of times', async () => {
    const { sandbox, store } = await setup();
    const menu = await menuFixture(sandbox);
    await sandbox.faults.set({ outage: true });
    const engine = start(engineFor(sandbox, store, { tuning: { ...FAST_TUNING, offlineBackoff: { baseMs: 300, capMs: 2_000 } } }));
    placeOrder(store, menu, 0);
    engine.notifyLocalWrite();
    await waitFor(() => engine.status().backoff !== null, 10_000, 'the outage to be noticed');
    // Each probe claims one batch in one commit, all with the same timestamp: count batches.
    const claimBatches = new Set<number>();
    const claim = store.outbox.claimReady.bind(store.outbox);
    store.outbox.claimReady = (now, limit) => {
      const claimed = claim(now, limit);
      if (claimed.length > 0) claimBatches.add(now);
      return claimed;
    };
    const burstStarted = Date.now();
    for (let n = 1; n <= 200; n++) {
      placeOrder(store, menu, n);
      engine.notifyLocalWrite();
      if (n % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const elapsedMs = Date.now() - burstStarted;
    // Writes never trigger a probe while offline; only the offline pause does, and it lasts at least
    // baseMs / 2 = 150 ms whatever the jitter. So probes are bounded by time, not by the 200 writes,
    // however slow a loaded machine makes the burst.
    expect(claimBatches.size).toBeLessThanOrEqual(1 + Math.floor(elapsedMs / 150));
    expect(engine.status()).toMatchObject({ online: false, pending: 201 });
  });
});

describe('stopping', () => {
  it('stop() waits a bounded time for a hung request; the next start looks before resending', async () => {
    const { sandbox, store } = await setup();
    sandbox.updateSettings({ idempotency: 'ignore' });
    const menu = await menuFixture(sandbox);
    const order = placeOrder(store, menu, 1);
    await sandbox.faults.set({ latency_ms: 3_000 });
    const engine = engineFor(sandbox, store, { timers: { stopTimeoutMs: 200 }, tuning: { ...FAST_TUNING, requestTimeoutMs: 10_000 } });
    engine.start();
    await waitFor(() => store.outbox.inFlightOperations().length === 1, 5_000, 'the request to leave');
    const stopping = Date.now();
    await engine.stop();
    expect(Date.now() - stopping).toBeLessThan(1_500);
    // Cut off: back in the queue, marked so the next attempt looks first.
    const [op] = store.outbox.readyOperations(Number.MAX_SAFE_INTEGER, 10);
    expect(op?.lastError).toMatch(/^ambiguous since \d+: /);
    // Whatever the cut-off request did on the server has finished after its 3 s of latency; the
    // next run looks before sending, so the order ends there once either way.
    await sandbox.faults.reset();
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    const next = start(engineFor(sandbox, store, { tuning: { ...FAST_TUNING, push: { ...FAST_TUNING.push, lookup: { ...FAST_TUNING.push.lookup, settleMs: 100 } } } }));
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the recovery');
    expect(next.status().pending).toBe(0);
    await expectExactlyOnce(sandbox, store, [order.id]);
  });
});

describe('uncertainty is never forgotten', () => {
  it('operations claimed but not sent when a drain halts keep their "look first" mark', async () => {
    const { sandbox, store } = await setup();
    sandbox.updateSettings({ idempotency: 'ignore' });
    const menu = await menuFixture(sandbox);
    const orders = [placeOrder(store, menu, 1), placeOrder(store, menu, 2)];
    // Earlier attempts of both landed on the server, but their replies were lost.
    const since = Date.now();
    for (const op of store.outbox.readyOperations(Date.now(), 10)) {
      store.outbox.markInFlight(op.opId, since);
      await sendJson(sandbox, 'POST', '/orders', buildRequest(new ReferenceResolver(store), store.outbox.getOperation(op.opId)).body);
      store.outbox.scheduleRetry(op.opId, `ambiguous since ${since}: POST /v1/orders failed: UND_ERR_SOCKET`, since, since);
    }
    // One request at a time: the second operation waits, claimed, while the first one's lookup
    // fails and halts the drain.
    await sandbox.faults.set({ outage: true });
    const engine = start(engineFor(sandbox, store, { tuning: { push: { concurrency: 1, backoff: { baseMs: 20, capMs: 200 }, lookup: { clockSkewMs: 600_000, maxPages: 50, settleMs: 1_500 } }, offlineBackoff: { baseMs: 200, capMs: 400 }, requestTimeoutMs: 2_000 } }));
    await waitFor(() => engine.status().backoff !== null, 10_000, 'the halt');
    for (const op of store.outbox.readyOperations(Number.MAX_SAFE_INTEGER, 10)) expect(op.lastError).toMatch(new RegExp(`^ambiguous since ${since}: `));
    await sandbox.faults.set({ outage: false });
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the lookups');
    await expectExactlyOnce(sandbox, store, orders.map((o) => o.id));
  });
});

describe('push through faults', () => {
  it('outage: 500 orders taken while the server refuses connections all arrive once, in order, and the outbox empties', async () => {
    const { sandbox, store } = await setup();
    const menu = await menuFixture(sandbox);
    const seeded = await sandbox.countOrders();
    await sandbox.faults.set({ outage: true });
    const engine = start(engineFor(sandbox, store));
    const orders: OrderDoc[] = [];
    for (let n = 0; n < 500; n++) {
      orders.push(placeOrder(store, menu, n));
      engine.notifyLocalWrite();
      // Every 50th order is fulfilled offline: its PATCH must follow its POST.
      if (n % 50 === 0) {
        store.cashier.fulfilOrder(orders[n]!.id, { actor: 'test' });
        engine.notifyLocalWrite();
      }
    }
    // The pause is short in tests (20-200 ms): look at one snapshot taken while it lasts.
    let paused: SyncStatus | undefined;
    await waitFor(() => {
      const status = engine.status();
      if (!status.online && status.backoff !== null) paused = status;
      return paused !== undefined;
    }, 5_000, 'the engine to notice the outage');
    expect(paused).toMatchObject({ online: false, pending: 510 });
    expect(paused?.backoff?.reason).toMatch(/^offline/);
    expect(await sandbox.countOrders()).toBe(seeded);

    await sandbox.faults.set({ outage: false });
    await waitFor(() => store.outbox.unfinishedCount() === 0, 60_000, 'the outbox to drain after the outage');
    await expectExactlyOnce(sandbox, store, orders.map((o) => o.id));
    const server = await allServerOrders(sandbox);
    for (let n = 0; n < 500; n += 50) expect(server.find((o) => o.id === store.serverIdFor('order', orders[n]!.id))?.status).toBe('fulfilled');
    expect(engine.status()).toMatchObject({ online: true, pending: 0 });
  });

  it('lost replies: 30% of POSTs commit without an answer and the server ignores Idempotency-Key: no duplicates', async () => {
    const { sandbox, store } = await setup();
    sandbox.updateSettings({ idempotency: 'ignore' });
    await sandbox.faults.set({ drop_response_rate: 0.3, drop_response_methods: ['POST', 'PATCH'] });
    const menu = await menuFixture(sandbox);
    const orders = Array.from({ length: 150 }, (_, n) => placeOrder(store, menu, n));
    for (let n = 0; n < 150; n += 10) store.cashier.cancelOrder(orders[n]!.id, { actor: 'test' });
    start(engineFor(sandbox, store));
    await waitFor(() => store.outbox.unfinishedCount() === 0, 60_000, 'the outbox to drain');
    await sandbox.faults.reset();
    await expectExactlyOnce(sandbox, store, orders.map((o) => o.id));
    const server = await allServerOrders(sandbox);
    for (let n = 0; n < 150; n += 10) expect(server.find((o) => o.id === store.serverIdFor('order', orders[n]!.id))?.status).toBe('cancelled');
  });

  it('429 storms with Retry-After, random 5xx, latency and resets: everything arrives exactly once', async () => {
    const { sandbox, store } = await setup();
    sandbox.updateSettings({ idempotency: 'ignore' });
    const menu = await menuFixture(sandbox);
    const orders = Array.from({ length: 150 }, (_, n) => placeOrder(store, menu, n));
    await sandbox.faults.set({ rate_limit_rate: 1, retry_after_sec: 1 });
    const engine = start(engineFor(sandbox, store));
    await waitFor(() => engine.status().backoff?.reason.startsWith('rate limited') ?? false, 5_000, 'the engine to honour the 429');
    const pausedUntil = engine.status().backoff!.untilMs;
    expect(pausedUntil - Date.now()).toBeGreaterThan(500); // Retry-After: 1 s, not our 20 ms base
    // Then a mix: occasional 429s (each one pauses everything for its Retry-After), many 5xx and resets.
    await sandbox.faults.set({ rate_limit_rate: 0.02, error_rate: 0.2, reset_rate: 0.1, latency_ms: 5, drop_response_rate: 0.1 });
    await waitFor(() => store.outbox.unfinishedCount() === 0, 90_000, 'the outbox to drain through the faults');
    await sandbox.faults.reset();
    await expectExactlyOnce(sandbox, store, orders.map((o) => o.id));
  });

  it('every quirk of a /v1 the spec allows, and 30% of replies lost: no order twice, every card payment captured once, nothing shown failed', async () => {
    const { sandbox, store } = await setup();
    sandbox.updateSettings({ idempotency: 'ignore', quirks: ALL_QUIRKS });
    const menu = await menuFixture(sandbox);
    const orders = Array.from({ length: 80 }, (_, n) => placeOrder(store, menu, n));
    for (let n = 0; n < 80; n += 10) store.cashier.cancelOrder(orders[n]!.id, { actor: 'test' });
    // A small part of the total each: the authorizations a lost reply repeats (docs/sync.md, limits) still fit the order.
    const part = (total: number) => Math.max(1, Math.floor(total / 100));
    const paid = orders.filter((_, n) => n % 10 === 5).map((order) => {
      const intent = store.cashier.createPaymentIntent(order.id, part(order.total), menu.currency, { actor: 'test' });
      store.cashier.capturePaymentIntent(intent.id, { actor: 'test' });
      return { order, intent };
    });
    await sandbox.faults.set({ drop_response_rate: 0.3, drop_response_methods: ['POST', 'PATCH'] });
    const engine = start(engineFor(sandbox, store));
    await waitFor(() => store.outbox.unfinishedCount() === 0, 90_000, 'the outbox to drain');
    await sandbox.faults.reset();
    await expectExactlyOnce(sandbox, store, orders.map((o) => o.id));
    for (const { order, intent } of paid) {
      const payments = (await sandbox.db.selectFrom('payments').select('doc').where('order_id', '=', store.serverIdFor('order', order.id)!).execute()).map((r) => JSON.parse(r.doc) as { status: string; amount_captured: number });
      expect(payments.filter((p) => p.status === 'captured').map((p) => p.amount_captured)).toEqual([part(order.total)]);
      expect(store.cashier.cardPaymentForIntent(intent.id)).toBeDefined();
    }
    expect(engine.status()).toMatchObject({ pending: 0, deadLetters: 0 });
  });
});
