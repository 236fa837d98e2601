// Changing another till's order, checked on the till where it is made: two real cores in this process
// (Bar owns the orders, Front forwards changes), each with its own SQLite file, Front pulling Bar and
// Bar pulling Front over mutual TLS on 127.0.0.1. Front refuses what its staff may not do with the
// same permissions and approvals as for its own orders, writing nothing, also when asked 10 times at
// once; 10 repeats of one request are one forward. Bar merges a change made on lines it changed
// meanwhile, and refuses a true conflict in words.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ITEMS, STAFF, type StaffKey, type TestCore } from '../core/fixtures';
import { inProcessTills, tillConfig } from './fixtures/in-process-tills';
import { freePorts } from './fixtures/ports';

const tills = inProcessTills();
const start = tills.start;
const stop = tills.stop;
const storeMode = (name: string, letter: string, port: number, peer: number, dataDir?: string, mode: 'on' | 'off' = 'on') => tillConfig(name, letter, port, peer, { ...(dataDir ? { dataDir } : {}), mode });

/** One value read from a till's file, as another process would see it. */
function read(till: TestCore, sql: string): unknown {
  const db = new Database(join(till.dataDir, 'terminal.db'), { readonly: true });
  try {
    return db.prepare(sql).pluck().get();
  } finally {
    db.close();
  }
}
const count = (till: TestCore, sql: string): number => read(till, sql) as number;

/** Bar with one open order (rung up by `server`), listed on Front. */
async function barAndFront(server: StaffKey = 'owner') {
  const [barPort, frontPort] = (await freePorts(2)) as [number, number];
  const bar = await start(storeMode('Bar', 'B', barPort, frontPort));
  const front = await start(storeMode('Front', 'F', frontPort, barPort));
  await bar.call('staff.signIn', { pin: STAFF[server].pin });
  const order = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '4', guests: 2 } });
  await expect.poll(async () => (await front.call('storeMode.orders', {})).orders.map((o) => o.id), { timeout: 15_000 }).toEqual([order.id]);
  return { bar, front, order, ports: { bar: barPort, front: frontPort } };
}

const addLatte = (orderId: string, friesQuantity = 2) => ({
  orderId,
  change: { kind: 'lines' as const, lines: [{ menuItemId: ITEMS.fries, quantity: friesQuantity }, { menuItemId: ITEMS.latte, quantity: 1 }] },
});

describe("store mode: a change to another till's order, checked where it is made", () => {
  it('refuses what the signed-in cashier may not do (another server’s order, a discount over the limit, a void), 10 times at once, writing nothing; a manager’s PIN approves it', async () => {
    // Cass rang it up on Bar: on Front it is Cass's order, as it would be on Bar.
    const { bar, front, order } = await barAndFront('cashier');
    const attempts = [
      { who: 'cashier2', change: addLatte(order.id), refusal: /^Taking over another staff member's order needs a manager/ },
      { who: 'cashier', change: { orderId: order.id, change: { kind: 'lines', lines: [{ menuItemId: ITEMS.fries, quantity: 2, discount: { kind: 'percent', value: 5_000, reason: 'regular' } }] } }, refusal: /^A discount above the approval limits needs a manager/ },
      { who: 'cashier', change: { orderId: order.id, change: { kind: 'cancel', reason: 'guest left' } }, refusal: /^Voiding an order or items the kitchen already has needs a manager/ },
    ] as const;
    for (const { who, change, refusal } of attempts) {
      await front.call('staff.signIn', { pin: STAFF[who].pin });
      const answers = await Promise.all(Array.from({ length: 10 }, () => front.raw('storeMode.changeOrder', change)));
      for (const answer of answers) expect(answer).toMatchObject({ ok: false, error: { code: 'needs_manager', message: expect.stringMatching(refusal) } });
    }
    expect(count(front, 'SELECT COUNT(*) FROM store_forwards')).toBe(0);
    expect(count(front, 'SELECT COUNT(*) FROM store_log')).toBe(0);

    // Carl's change with a manager's PIN is sent, and says who approved it; on Bar the order becomes Carl's.
    await front.call('staff.signIn', { pin: STAFF.cashier2.pin });
    const sent = await front.call('storeMode.changeOrder', { ...addLatte(order.id), managerPin: STAFF.manager.pin });
    expect(sent).toMatchObject({ state: 'pending', ownerTillName: 'Bar', byName: STAFF.cashier2.name, sentence: 'Sent to Bar, waiting for it.' });
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).lines.map((l) => [l.menuItemId, l.quantity]), { timeout: 10_000 }).toEqual([
      [ITEMS.fries, 2],
      [ITEMS.latte, 1],
    ]);
    const audit = JSON.parse(read(bar, "SELECT json_object('actor', actor, 'detail', json(detail)) FROM audit_log WHERE action = 'store.forward.applied'") as string);
    expect(audit).toMatchObject({ actor: 'stf_cfg_carl-cashier', detail: { from: { name: 'Front' }, change: 'lines', approvedBy: 'stf_cfg_max-manager' } });
    expect(read(bar, "SELECT json_extract(detail, '$.from') FROM audit_log WHERE action = 'order.adopt'")).toBe('stf_cfg_cass-cashier');
  }, 60_000);

  it('discounts another till’s order: above the limits only with a manager’s PIN, applied once on its owner, and taken off again', async () => {
    const { bar, front, order } = await barAndFront('cashier');
    const listedOnFront = async () => (await front.call('storeMode.orders', {})).orders.find((o) => o.id === order.id)!;
    const before = await listedOnFront();
    expect(before.discount).toBeNull();
    expect(before.discountBase.amount).toBe((await bar.call('orders.get', { id: order.id })).check.subtotal);
    // Cass's own order, on Front: half off is above the limits, refused 10 times at once, writing nothing.
    await front.call('staff.signIn', { pin: STAFF.cashier.pin });
    const half = { orderId: order.id, change: { kind: 'discount' as const, discount: { kind: 'percent' as const, value: 5_000, reason: 'regulars' } } };
    const answers = await Promise.all(Array.from({ length: 10 }, () => front.raw('storeMode.changeOrder', half)));
    for (const answer of answers) expect(answer).toMatchObject({ ok: false, error: { code: 'needs_manager', message: expect.stringMatching(/^A discount above the approval limits needs a manager/) } });
    expect(count(front, 'SELECT COUNT(*) FROM store_forwards')).toBe(0);

    // With a manager's PIN it is sent, and Bar applies it once: the order's total is halved before tax.
    const sent = await front.call('storeMode.changeOrder', { ...half, managerPin: STAFF.manager.pin });
    expect(sent).toMatchObject({ state: 'pending', change: { kind: 'discount' } });
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).check.orderDiscount?.value ?? null, { timeout: 10_000 }).toBe(5_000);
    const onBar = await bar.call('orders.get', { id: order.id });
    expect(onBar.check.discountTotal).toBe(Math.round(onBar.check.subtotal / 2));
    await expect.poll(async () => (await listedOnFront()).discount?.value ?? null, { timeout: 10_000 }).toBe(5_000);
    expect(count(bar, "SELECT COUNT(*) FROM store_inbox WHERE state = 'applied'")).toBe(1);
    expect(JSON.parse(read(bar, "SELECT json(detail) FROM audit_log WHERE action = 'store.forward.applied'") as string)).toMatchObject({ change: 'discount', approvedBy: 'stf_cfg_max-manager' });

    // Taken off again (giving nothing away needs no one): the order is back to its price.
    await front.call('storeMode.changeOrder', { orderId: order.id, change: { kind: 'discount', discount: null } });
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).check.orderDiscount, { timeout: 10_000 }).toBeNull();
    expect((await bar.call('orders.get', { id: order.id })).check.discountTotal).toBe(0);
  }, 60_000);

  it('answers 10 parallel repeats of one request with one forward; refuses an order of its own, one no till has, and everything with store mode off', async () => {
    const { bar, front, order, ports } = await barAndFront();
    const request = { command: 'storeMode.changeOrder', payload: addLatte(order.id), requestId: 'forward-request-0001' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => front.core.invoke(request)));
    const ids = new Set(answers.map((answer) => (answer.ok ? (answer.value as { id: string }).id : answer.error.message)));
    expect(ids.size).toBe(1);
    expect(count(front, 'SELECT COUNT(*) FROM store_forwards')).toBe(1);
    await expect.poll(() => count(bar, "SELECT COUNT(*) FROM store_inbox WHERE state = 'applied'"), { timeout: 10_000 }).toBe(1);
    expect(count(bar, `SELECT COUNT(*) FROM outbox WHERE entity_id = '${order.id}'`)).toBe(2);

    const own = await front.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    expect(await front.raw('storeMode.changeOrder', { orderId: own.id, change: { kind: 'fulfil' } })).toMatchObject({ ok: false, error: { code: 'invalid_command', issues: [{ path: 'orderId' }] } });
    expect(await front.raw('storeMode.changeOrder', { orderId: 'ord_nowhere', change: { kind: 'fulfil' } })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await front.raw('storeMode.changeOrder', { orderId: order.id, change: { kind: 'lines', lines: [] } })).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    expect(await front.raw('storeMode.changeOrder', { orderId: order.id, change: { kind: 'lines', lines: [{ menuItemId: 'mi_nowhere', quantity: 1 }] } })).toMatchObject({
      ok: false,
      error: { code: 'not_found', issues: [{ path: 'change.lines.0.menuItemId' }] },
    });
    expect(count(front, 'SELECT COUNT(*) FROM store_forwards')).toBe(1);

    // Store mode off: nothing to forward to, nothing forwarded.
    const alone = await start(storeMode('Alone', 'A', ports.front + 1, ports.bar, undefined, 'off'));
    expect(await alone.raw('storeMode.changeOrder', { orderId: order.id, change: { kind: 'fulfil' } })).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(await alone.call('storeMode.forwards', {})).toEqual({ forwards: [] });
  }, 60_000);

  it('merges a change made on lines the owner changed meanwhile, and refuses a true conflict in words', async () => {
    const { bar, front, order, ports } = await barAndFront();
    // Bar is away while Front changes the order twice: fries 2 → 3 (a conflict to come) and a latte added.
    await stop(bar);
    await front.call('storeMode.changeOrder', addLatte(order.id));
    await front.call('storeMode.changeOrder', { orderId: order.id, change: { kind: 'lines', lines: [{ menuItemId: ITEMS.fries, quantity: 3 }] } });
    // Meanwhile on Bar (not in the store for a moment): a burger added, and fries made 1.
    const alone = await start(storeMode('Bar', 'B', ports.bar, ports.front, bar.dataDir, 'off'), true);
    await alone.call('orders.update', { id: order.id, lines: [{ menuItemId: ITEMS.fries, quantity: 1 }, { menuItemId: ITEMS.burger, quantity: 1 }], managerPin: STAFF.manager.pin });
    await stop(alone);

    const back = await start(storeMode('Bar', 'B', ports.bar, ports.front, bar.dataDir), true);
    await expect.poll(async () => (await front.call('storeMode.forwards', {})).forwards.map((f) => [f.state, f.sentence]), { timeout: 15_000 }).toEqual([
      ['refused', expect.stringMatching(/^Bar refused: .*was changed here meanwhile \(now 1, it was 2\)/)],
    ]);
    // The latte came through, onto Bar's own change; the conflicting quantity did not.
    const lines = (await back.call('orders.get', { id: order.id })).lines.map((l) => [l.menuItemId, l.quantity]);
    expect(lines).toEqual([
      [ITEMS.fries, 1],
      [ITEMS.burger, 1],
      [ITEMS.latte, 1],
    ]);
  }, 60_000);
});
