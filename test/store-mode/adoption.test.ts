// A till that dies does not take its orders with it (issue 26, item 6; docs/store-mode.md, "Adoption").
// Three registers, each its own process (a real core, its own SQLite file, mutual TLS on 127.0.0.1),
// syncing with a sandbox over real HTTP that ignores Idempotency-Key. Bar holds an open tab in the cloud
// with a change the cloud does not have, an order whose create reached the sandbox but whose reply was
// lost, and orders rung up in an outage; then Bar is SIGKILLed, and Patio and Front send it changes that
// wait. A manager on Front adopts the orders once Bar is quiet, and applies those changes once; the
// outage ends and Front sends them: each order is on the sandbox once (the lost reply's found by
// looking, not sent again). Bar comes back on its file, learns of the adoption before its
// outbox drains, gives the orders up, and sends nothing twice. Runs in POS_TEST_SANDBOX_PROFILE's profile.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allServerOrders, menuFixture, OUR_GAP_DECISIONS, SANDBOX_PROFILE, startSandbox, type Sandbox } from '../sync/harness';
import { freePorts } from './fixtures/ports';
import { answer, call, count, STORE_SECRET, type ListedOrder } from './fixtures/store-tills';
import type { CoreTillConfig } from './fixtures/core-till';
import { startCoreTill, type TillProcess } from './till-process';
import { until } from './fixtures/until';

const started: TillProcess[] = [];
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await Promise.all(started.splice(0).map((till) => till.kill()));
  await sandbox?.close();
  sandbox = undefined;
});

interface SyncStatus {
  pending: number;
  deadLetters: unknown[];
  initialSyncDone: boolean;
}

interface Peer {
  tillId: string | null;
  name: string | null;
  ordersNotInCloud: number;
  adoptableOrders: number;
  adoptionRefusal: string | null;
}

async function start(config: CoreTillConfig): Promise<TillProcess> {
  const till = await startCoreTill(config, STORE_SECRET);
  started.push(till);
  return till;
}

const place = (till: TillProcess, menuItemId: string, quantity: number, table: string | null = null) =>
  call<{ id: string; total: number }>(till, 'orders.place', { lines: [{ menuItemId, quantity }], ...(table ? { service: { type: 'dine_in', table, guests: 2 } } : {}) });

describe(`adopting a dead till's orders (sandbox profile ${SANDBOX_PROFILE.profile}/${SANDBOX_PROFILE.recordShape})`, () => {
  it('a manager on Front takes over what Bar never delivered; each order reaches the sandbox once, and Bar, back, sends nothing twice', async () => {
    const box = (sandbox = await startSandbox({ seed: 'demo' }));
    box.updateSettings({ idempotency: 'ignore' });
    const menu = await menuFixture(box);
    const items = menu.items.filter((item) => item.modifiers.length === 0).slice(0, 3).map((item) => item.id) as [string, string, string];
    expect(items).toHaveLength(3);
    const api = { baseUrl: box.baseUrl, apiHost: box.apiHost, authUrl: box.authUrl, apiKey: box.credentials.apiKeys.full, locationId: menu.locationId };
    const [barPort, frontPort, patioPort] = (await freePorts(3)) as [number, number, number];
    const timing = { quietBeforeAdoptionMs: 1_500, catchUpBeforePushMs: 10_000 };
    const barConfig: CoreTillConfig = {
      dataDir: mkdtempSync(join(tmpdir(), 'pos-adopt-bar-')), tillName: 'Bar', tillLetter: 'B', storeMode: 'on', port: barPort,
      peers: [`127.0.0.1:${frontPort}`, `127.0.0.1:${patioPort}`], deadlineMs: 170_000, api, storeModeTiming: timing,
    };
    const frontConfig: CoreTillConfig = {
      dataDir: mkdtempSync(join(tmpdir(), 'pos-adopt-front-')), tillName: 'Front', tillLetter: 'F', storeMode: 'on', port: frontPort,
      peers: [`127.0.0.1:${barPort}`, `127.0.0.1:${patioPort}`], deadlineMs: 170_000, api, storeModeTiming: timing,
    };
    // Patio sends a change to Bar's tab after Bar died.
    const patioConfig: CoreTillConfig = {
      dataDir: mkdtempSync(join(tmpdir(), 'pos-adopt-patio-')), tillName: 'Patio', tillLetter: 'P', storeMode: 'on', port: patioPort,
      peers: [`127.0.0.1:${barPort}`, `127.0.0.1:${frontPort}`], deadlineMs: 170_000, api, storeModeTiming: timing,
    };
    let bar = await start(barConfig);
    const front = await start(frontConfig);
    const patio = await start(patioConfig);
    const synced = (till: TillProcess, what: string, timeoutMs = 40_000) =>
      until(what, () => call<SyncStatus>(till, 'sync.status'), (s) => s.initialSyncDone && s.pending === 0 && s.deadLetters.length === 0, timeoutMs);
    await Promise.all([synced(bar, 'Bar’s first sync'), synced(front, 'Front’s first sync'), synced(patio, 'Patio’s first sync')]);
    const since = Date.now();
    const madeOnSandbox = async () => (await box.db.selectFrom('orders').select(['id', 'doc']).where('created_at', '>=', since).execute()).map((row) => ({ id: row.id, doc: JSON.parse(row.doc) as { items?: { menu_item_id: string; quantity: number }[]; metadata?: Record<string, string> } }));

    // An open tab that reached the cloud, then a round added to it that did not.
    const tab = await place(bar, items[0], 2, '5');
    await synced(bar, 'the tab in the cloud');
    // A create that reached the sandbox whose reply Bar never got.
    await box.faults.set({ drop_response_rate: 1, drop_response_methods: ['POST'] });
    const lost = await place(bar, items[1], 3);
    await until('the lost reply’s order made on the sandbox', madeOnSandbox, (made) => made.length === 2);
    // The outage: everything after stays on Bar.
    await box.faults.set({ outage: true, drop_response_rate: 0 });
    await call(bar, 'orders.update', { id: tab.id, lines: [{ menuItemId: items[0], quantity: 2 }, { menuItemId: items[2], quantity: 1 }] });
    const inOutage = [await place(bar, items[2], 4), await place(bar, items[2], 5, '7'), await place(bar, items[1], 6)];
    const paid = inOutage[0]!;
    await call(bar, 'payments.take', { orderId: paid.id, method: 'cash', amount: paid.total });
    const barOrders = [tab.id, lost.id, ...inOutage.map((order) => order.id)];

    // Front hears all of it, then Bar dies.
    const barPeer = async () => (await call<{ peers: Peer[] }>(front, 'storeMode.status')).peers.find((peer) => peer.name === 'Bar');
    await until('Front holds Bar’s undelivered orders', barPeer, (peer) => peer?.ordersNotInCloud === 5, 20_000);
    const barTillId = (await barPeer())!.tillId!;
    // Front has every entry of Bar's log (what it never pulled would be Bar's alone: test/store/store-adoption.test.ts).
    const barLogEnd = count(barConfig.dataDir, 'SELECT MAX(seq) FROM store_log');
    await until('Front has all of Bar’s log', async () => count(frontConfig.dataDir, 'SELECT seq FROM store_cursors WHERE origin = ?', barTillId), (seq) => seq === barLogEnd);
    await until('Patio sees the round on the tab', async () => (await call<{ orders: ListedOrder[] }>(patio, 'storeMode.orders')).orders.find((order) => order.id === tab.id)?.lines.length, (n) => n === 2);
    await bar.kill();

    // Changes sent to Bar after it died wait for it: Patio's to the tab, Front's own to the lost reply's order.
    const tabLines = [{ menuItemId: items[0], quantity: 2 }, { menuItemId: items[2], quantity: 1 }, { menuItemId: items[1], quantity: 1 }];
    const patioChange = await call<{ id: string; state: string }>(patio, 'storeMode.changeOrder', { orderId: tab.id, change: { kind: 'lines', lines: tabLines } });
    const frontChange = await call<{ id: string; state: string }>(front, 'storeMode.changeOrder', { orderId: lost.id, change: { kind: 'lines', lines: [{ menuItemId: items[1], quantity: 4 }] } });
    expect([patioChange.state, frontChange.state]).toEqual(['pending', 'pending']);
    await until('Front has Patio’s change to Bar’s tab in its replica', async () => count(frontConfig.dataDir, "SELECT COUNT(*) FROM store_replica_log WHERE op_id = ?", patioChange.id), (n) => n === 1);

    // Not adoptable while it may only be restarting; then a manager's adoption takes all five. On a loaded
    // machine Bar may have been quiet long enough already when first asked: that first ask is the adoption.
    type Adopted = { orders: number; operations: number; sentence: string };
    const early = await answer(front, 'storeMode.adoptTill', { tillId: barTillId });
    let adopted: Adopted;
    if (early.ok) {
      adopted = early.value as Adopted;
    } else {
      expect(early.error?.message).toMatch(/Bar (is answering|was heard from)/);
      const quiet = await until('Bar quiet long enough', barPeer, (peer) => peer?.adoptionRefusal === null, 20_000);
      expect(quiet!.adoptableOrders).toBe(5);
      adopted = await call<Adopted>(front, 'storeMode.adoptTill', { tillId: barTillId });
    }
    expect(adopted.orders).toBe(5);
    expect(adopted.sentence).toMatch(/^Took over 5 orders from Bar/);
    // Twice is once: nothing left to take.
    expect((await call<{ orders: number }>(front, 'storeMode.adoptTill', { tillId: barTillId })).orders).toBe(0);
    // Front's own now, not "at other tills"; Bar owes nothing any more as far as Front knows.
    const frontOwn = await call<{ id: string }[]>(front, 'orders.list', { limit: 500 });
    for (const id of barOrders) expect(frontOwn.map((order) => order.id)).toContain(id);
    const elsewhere = (await call<{ orders: ListedOrder[] }>(front, 'storeMode.orders')).orders;
    expect(elsewhere.filter((order) => barOrders.includes(order.id))).toEqual([]);
    expect((await barPeer())!.ordersNotInCloud).toBe(0);
    expect(count(frontConfig.dataDir, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.adopt'")).toBe(1);
    // The changes that waited for Bar are Front's to make now: each applied once, and their senders told.
    await until('the changes sent to Bar applied by Front', async () => count(frontConfig.dataDir, "SELECT COUNT(*) FROM store_inbox WHERE state = 'applied'"), (n) => n === 2);
    await until('Patio told its change was applied', async () => count(patioConfig.dataDir, 'SELECT COUNT(*) FROM store_forwards WHERE op_id = ? AND state = ?', patioChange.id, 'applied'), (n) => n === 1);
    expect(count(frontConfig.dataDir, 'SELECT COUNT(*) FROM store_forwards WHERE op_id = ? AND state = ?', frontChange.id, 'applied')).toBe(1);
    const tabOnFront = await call<{ lines: { menuItemId: string; quantity: number }[] }>(front, 'orders.get', { id: tab.id });
    expect(tabOnFront.lines.map((line) => [line.menuItemId, line.quantity])).toEqual(tabLines.map((line) => [line.menuItemId, line.quantity]));
    expect((await call<{ lines: { quantity: number }[] }>(front, 'orders.get', { id: lost.id })).lines.map((line) => line.quantity)).toEqual([4]);

    // The outage ends: Front sends them, each once (the lost reply's create found by looking).
    await box.faults.set({ outage: false, drop_response_rate: 0 });
    await synced(front, 'Front delivered what it adopted');
    const made = await madeOnSandbox();
    expect(made).toHaveLength(5);
    // The tab was made before `since`: the round added in the outage and Patio's line are on it; the lost reply's order has Front's quantity.
    const tabOnSandbox = (await allServerOrders(box)).find((order) => (order.items as unknown[] | undefined)?.length === 3);
    expect(tabOnSandbox, 'the round and Patio’s line on the tab reached the cloud').toBeDefined();
    expect(made.some((order) => order.doc.items?.length === 1 && order.doc.items[0]?.quantity === 4)).toBe(true);
    if (OUR_GAP_DECISIONS) {
      expect(new Set(made.map((order) => order.doc.metadata?.pos_local_id))).toEqual(new Set(barOrders));
    }

    // Bar comes back on its file: it gives the adopted orders up before its outbox drains.
    bar = await start(barConfig);
    await synced(bar, 'Bar back, nothing left to send', 40_000);
    await call(bar, 'sync.now');
    await synced(bar, 'Bar after a push');
    expect(await madeOnSandbox()).toHaveLength(5);
    const barOwn = await call<{ id: string }[]>(bar, 'orders.list', { limit: 500 });
    expect(barOwn.filter((order) => barOrders.includes(order.id))).toEqual([]);
    expect(count(barConfig.dataDir, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.adopted_away'")).toBe(5);
    expect(count(barConfig.dataDir, "SELECT COUNT(*) FROM outbox WHERE state = 'done' AND last_error LIKE 'taken over by Front%'")).toBeGreaterThanOrEqual(5);
    // Bar lists the open ones as Front's, each once.
    const atFront = await until(
      'Bar lists the open adopted orders as Front’s',
      async () => (await call<{ orders: ListedOrder[] }>(bar, 'storeMode.orders')).orders.filter((order) => barOrders.includes(order.id)),
      (orders) => orders.length >= 2,
    );
    expect(new Set(atFront.map((order) => order.ownerTillName))).toEqual(new Set(['Front']));
    expect(new Set(atFront.map((order) => order.id)).size).toBe(atFront.length);
  }, 170_000);
});
