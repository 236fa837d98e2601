// Any till changes any open order: tills as separate processes (real cores, real SQLite files, mutual
// TLS on 127.0.0.1, the cloud unreachable). A change made on one till to an order another till owns
// travels in the changing till's log and lands on the owner once, as one outbox operation, however
// the owner or the changing till is killed and restarted; what the owner refuses is shown in words.
import { afterEach, describe, expect, it } from 'vitest';
import { ITEMS, seedDataDir } from '../core/fixtures';
import type { TillProcess } from './till-process';
import { freePorts } from './fixtures/ports';
import { call, count, place, startStoreTill, waitForListing, waitForPeers, type ListedOrder, type TillSpec } from './fixtures/store-tills';

const started: TillProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((till) => till.kill()));
});

interface Forward {
  id: string;
  state: 'pending' | 'applied' | 'refused';
  sentence: string;
}

interface OrderView {
  status: string;
  total: number;
  lines: { menuItemId: string; quantity: number }[];
}

const lines = (view: { lines: { menuItemId: string; quantity: number }[] }) => view.lines.map((line) => [line.menuItemId, line.quantity]);
const change = (till: TillProcess, orderId: string, what: object) => call<Forward>(till, 'storeMode.changeOrder', { orderId, change: what });
const pendingForwards = async (till: TillProcess) => (await call<{ forwards: Forward[] }>(till, 'storeMode.forwards')).forwards;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The owner's outbox operations on one order (each change is one). */
const operations = (spec: TillSpec, orderId: string) => count(spec.dataDir, "SELECT COUNT(*) FROM outbox WHERE entity_kind = 'order' AND entity_id = ?", orderId);

function specsOn(ports: number[], names: string[]): TillSpec[] {
  return names.map((name, i) => ({ name, letter: name[0]!, dataDir: seedDataDir(), port: ports[i]! }));
}

describe("store mode: any till changes any open order, applied once on the owner", () => {
  it('two tills change four of the owner’s orders (a line added, a quantity, a cancel, a fulfil): each lands once, every till shows it; a change to a closed order is refused in words', async () => {
    const specs = specsOn(await freePorts(3), ['Bar', 'Patio', 'Front']);
    const [bar, patio, front] = await Promise.all(specs.map((spec) => startStoreTill(spec, specs, started)));
    await Promise.all([bar, patio, front].map((till) => waitForPeers(till!, 2)));
    const orders = (await place(bar!, 4, '9')).map((order) => order.id);
    // Paid in full on Bar before it is marked fulfilled (a kitchen's bump on a paid check).
    const paidTotal = (await call<OrderView>(bar!, 'orders.get', { id: orders[3] })).total;
    await call(bar!, 'payments.take', { orderId: orders[3], method: 'cash', amount: paidTotal, tendered: paidTotal });
    await Promise.all([waitForListing(patio!, orders), waitForListing(front!, orders)]);

    // Each till also changes the lines of the order it cancels or fulfils, on the same replica: Bar
    // applies in arrival order, so that change finds the order closed, and is refused.
    const sent = await Promise.all([
      change(patio!, orders[0]!, { kind: 'lines', lines: [{ menuItemId: ITEMS.fries, quantity: 1 }, { menuItemId: ITEMS.latte, quantity: 2 }] }),
      change(front!, orders[1]!, { kind: 'lines', lines: [{ menuItemId: ITEMS.fries, quantity: 5 }] }),
      change(patio!, orders[2]!, { kind: 'cancel', reason: 'guest left' }),
      change(patio!, orders[2]!, { kind: 'lines', lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] }),
      change(front!, orders[3]!, { kind: 'fulfil' }),
      change(front!, orders[3]!, { kind: 'lines', lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] }),
    ]);
    expect(sent.map((forward) => forward.sentence)).toEqual(Array(6).fill('Sent to Bar, waiting for it.'));

    const [refusedOnPatio, refusedOnFront] = await Promise.all(
      [patio!, front!].map((till) => until(() => pendingForwards(till), (f) => f.length === 1 && f[0]!.state === 'refused', 'forwards still pending')),
    );
    expect(refusedOnPatio!.map((f) => f.sentence)).toEqual(['Bar refused: the order was cancelled meanwhile.']);
    expect(refusedOnFront!.map((f) => f.sentence)).toEqual(['Bar refused: the order was paid meanwhile.']);
    // Its order is closed, so no row carries it: the listing keeps it in sight apart.
    expect((await call<{ forwardsElsewhere: Forward[] }>(patio!, 'storeMode.orders')).forwardsElsewhere.map((f) => f.id)).toEqual(refusedOnPatio!.map((f) => f.id));
    const onBar = await Promise.all(orders.map((id) => call<OrderView>(bar!, 'orders.get', { id })));
    expect(lines(onBar[0]!)).toEqual([[ITEMS.fries, 1], [ITEMS.latte, 2]]);
    expect(lines(onBar[1]!)).toEqual([[ITEMS.fries, 5]]);
    expect(onBar.map((order) => order.status)).toEqual(['open', 'open', 'cancelled', 'fulfilled']);
    // Each change is one operation of the owner's outbox (after its create).
    for (const id of orders) expect(operations(specs[0]!, id)).toBe(2);

    // Every other till shows the result: two orders still open, with the changes.
    for (const till of [patio!, front!]) {
      const listedNow = await waitForListing(till, orders.slice(0, 2));
      expect(listedNow.map((o) => [o.id, o.lines.map((l) => [l.menuItemId, l.quantity]), o.forwards])).toEqual([
        [orders[0], [[ITEMS.fries, 1], [ITEMS.latte, 2]], []],
        [orders[1], [[ITEMS.fries, 5]], []],
      ]);
    }
    await Promise.all([bar!.stop(), patio!.stop(), front!.stop()]);
    for (const spec of specs.slice(1)) {
      expect(count(spec.dataDir, "SELECT COUNT(*) FROM store_forwards WHERE state = 'applied'")).toBe(2);
      expect(count(spec.dataDir, "SELECT COUNT(*) FROM store_forwards WHERE state = 'refused'")).toBe(1);
    }
    expect(count(specs[0]!.dataDir, "SELECT COUNT(*) FROM store_inbox WHERE state = 'applied'")).toBe(4);
    expect(count(specs[0]!.dataDir, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.forward.applied'")).toBe(4);
    expect(count(specs[0]!.dataDir, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.forward.refused'")).toBe(2);
  }, 90_000);

  it('the owner killed while 10 changes are sent, the sender killed right after an 11th: each applied once when both are back', async () => {
    const specs = specsOn(await freePorts(2), ['Bar', 'Patio']);
    const [barSpec, patioSpec] = specs as [TillSpec, TillSpec];
    const bar = await startStoreTill(barSpec, specs, started);
    let patio = await startStoreTill(patioSpec, specs, started);
    const orders = (await place(bar, 11, '3')).map((order) => order.id);
    await waitForListing(patio, orders);

    await bar.kill();
    const addLatte = (id: string, i: number) => change(patio, id, { kind: 'lines', lines: [{ menuItemId: ITEMS.fries, quantity: 1 + i }, { menuItemId: ITEMS.latte, quantity: 1 }] });
    const sent = await Promise.all(orders.slice(0, 10).map(addLatte));
    expect(new Set(sent.map((forward) => forward.id)).size).toBe(10);
    // Shown at once on the till that made them, on the order's row, as waiting.
    const rows = await call<{ orders: ListedOrder[] }>(patio, 'storeMode.orders');
    expect(rows.orders.find((o) => o.id === orders[0])?.forwards).toEqual([expect.objectContaining({ state: 'pending', sentence: 'Sent to Bar, waiting for it.' })]);
    // Durable before the answer: Patio killed the moment it answers keeps the forward.
    await addLatte(orders[10]!, 10);
    await patio.kill();

    patio = await startStoreTill(patioSpec, specs, started);
    expect((await pendingForwards(patio)).map((f) => f.sentence)).toEqual(Array(11).fill('Sent to Bar, waiting for it.'));
    const barAgain = await startStoreTill(barSpec, specs, started);
    await until(() => pendingForwards(patio), (f) => f.length === 0, 'forwards still pending', 30_000);

    const views = await Promise.all(orders.map((id) => call<OrderView>(barAgain, 'orders.get', { id })));
    for (const [i, view] of views.entries()) {
      expect(lines(view)).toEqual([[ITEMS.fries, 1 + i], [ITEMS.latte, 1]]);
      expect(operations(barSpec, orders[i]!)).toBe(2);
    }
    expect(count(barSpec.dataDir, 'SELECT COUNT(*) FROM store_inbox')).toBe(11);
    expect(count(barSpec.dataDir, "SELECT COUNT(*) FROM store_inbox WHERE state = 'applied'")).toBe(11);
    expect(count(patioSpec.dataDir, "SELECT COUNT(*) FROM store_forwards WHERE state = 'applied'")).toBe(11);
  }, 120_000);
});
