// Amounts no till has, through the bridge as a signed-in cashier would send them (issue 22,
// finding 5): a float or a count past what any drawer holds, an order past what one till rings up,
// are refused in words before anything is written; a shift or order record the screens cannot read
// (written before these bounds, or damaged) never stops shift.current, orders.list or the day's Z
// report, which leave it out and say so; and an answer that fails its own check after a write never
// claims that nothing was changed.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_AMOUNT } from '../../bridge/contract';
import { MAX_TILL_CASH } from '../../bridge/staff/cash';
import { silentLogger } from '../../common/log';
import { createInvoker, type Handlers } from '../../main/core/dispatch';
import { ITEMS, reopenStore, STAFF, startTestCore, type TestCore } from './fixtures';
import { as, count, ok, raw, refusal, snapshot, startCoreOn } from './staff-fixtures';

let t: TestCore | undefined;
let restarted: Awaited<ReturnType<typeof startCoreOn>> | undefined;
afterEach(async () => {
  await restarted?.shutdown();
  restarted = undefined;
  await t?.core.shutdown();
  t = undefined;
});

/** $10,000,000.00 in hundred-dollar notes. */
const TEN_MILLION = [{ value: 10_000, count: 100_000 }];

async function cashierTill(): Promise<TestCore> {
  return startTestCore({}, {}, undefined, { signIn: 'cashier', openShift: false });
}

describe('a float nobody has', () => {
  it('is refused in words when the shift opens: no shift is written, shift.current and the Z report still answer for everyone', async () => {
    t = await cashierTill();
    const before = snapshot(t.dataDir);
    const error = refusal(await raw(t.core, 'shift.open', { count: TEN_MILLION }));
    expect(error.code).toBe('invalid_command');
    expect(error.message).toMatch(/more than (a|any) till/i);
    expect(error.issues?.[0]?.path).toBe('count');
    expect(snapshot(t.dataDir)).toEqual(before);
    expect(count(t.dataDir, 'shifts')).toBe(0);
    expect(await ok(t.core, 'shift.current', {})).toBeNull();
    await as(t.core, 'manager');
    expect(await ok(t.core, 'shift.current', {})).toBeNull();
    const report = await ok(t.core, 'reports.z', {});
    expect(report.shifts).toEqual([]);
  });

  it('is refused just past the till maximum and taken at it', async () => {
    t = await cashierTill();
    expect(refusal(await raw(t.core, 'shift.open', { count: [{ value: 10_000, count: MAX_TILL_CASH / 10_000 }, { value: 1, count: 1 }] })).code).toBe('invalid_command');
    const opened = await ok(t.core, 'shift.open', { count: [{ value: 10_000, count: MAX_TILL_CASH / 10_000 }] });
    expect(opened.float).toBe(MAX_TILL_CASH);
  });

  it('is refused when the drawer is counted at the close: the shift stays open', async () => {
    t = await cashierTill();
    await ok(t.core, 'shift.open', { count: [{ value: 2_000, count: 5 }] });
    await as(t.core, 'manager');
    const error = refusal(await raw(t.core, 'shift.close', { count: TEN_MILLION }));
    expect(error.code).toBe('invalid_command');
    expect(error.message).toMatch(/more than (a|any) till/i);
    expect((await ok(t.core, 'shift.current', {}))?.status).toBe('open');
  });
});

describe('a shift record the screens cannot read', () => {
  /** Opens a shift with a sale in it, then stops the core and changes the stored record behind its back. */
  async function damagedDay(damage: string): Promise<void> {
    t = await startTestCore({}, {}, undefined, { signIn: 'cashier', openShift: false });
    await ok(t.core, 'shift.open', { count: [{ value: 2_000, count: 5 }] });
    const order = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await ok(t.core, 'payments.take', { orderId: order.id, method: 'cash', amount: 450 });
    await t.core.shutdown();
    const store = reopenStore(t.dataDir);
    try {
      store.db.exec(damage);
    } finally {
      store.close();
    }
    const dataDir = t.dataDir;
    t = undefined;
    restarted = await startCoreOn(dataDir);
  }

  it('a $10,000,000 float written before the bounds is shown as recorded, and the day reports', async () => {
    await damagedDay(`UPDATE shifts SET float_total = 1000000000, float_count = '[{"value":10000,"count":100000}]'`);
    await as(restarted!, 'cashier');
    const current = await ok(restarted!, 'shift.current', {});
    expect(current?.float).toBe(1_000_000_000);
    await as(restarted!, 'manager');
    const report = await ok(restarted!, 'reports.z', {});
    expect(report.shifts.map((s) => s.float)).toEqual([1_000_000_000]);
    expect(report.sales.total).toBe(450);
  });

  it.each([
    ['a float count that is not a list', `UPDATE shifts SET float_count = '{"not":"a count"}'`],
    ['a note of no value', `UPDATE shifts SET float_count = '[{"value":"ten","count":1}]'`],
  ])('with %s is left out of the Z report, which says so, and shift.current answers for everyone', async (_what, damage) => {
    await damagedDay(damage);
    await as(restarted!, 'cashier');
    expect(await ok(restarted!, 'shift.current', {})).toBeNull();
    // The drawer is not taken for free: opening another says why, in words.
    const open = refusal(await raw(restarted!, 'shift.open', { count: [] }));
    expect(open.message).toMatch(/cannot be read/);
    await as(restarted!, 'manager');
    expect(await ok(restarted!, 'shift.current', {})).toBeNull();
    const report = await ok(restarted!, 'reports.z', {});
    expect(report.shifts).toEqual([]);
    expect(report.unreadable).toEqual([expect.stringMatching(/shift .*cannot be read/i)]);
    // The sale itself is still in the day.
    expect(report.sales.total).toBe(450);
  });
});

describe('an order record the screens cannot read', () => {
  it('is left out of orders.list and the Z report, which names it, instead of stopping them for everyone', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'cashier', openShift: true });
    const damaged = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }] });
    await ok(t.core, 'payments.take', { orderId: damaged.id, method: 'cash', amount: damaged.total });
    const fine = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    await t.core.shutdown();
    const store = reopenStore(t.dataDir);
    try {
      store.db.prepare(`UPDATE orders SET lines = '{}' WHERE id = ?`).run(damaged.id);
    } finally {
      store.close();
    }
    const dataDir = t.dataDir;
    t = undefined;
    restarted = await startCoreOn(dataDir);
    await as(restarted, 'manager');
    expect((await ok(restarted, 'orders.list', {})).map((o) => o.id)).toEqual([fine.id]);
    expect((await ok(restarted, 'shift.summary', {})).orders).toBe(1);
    const report = await ok(restarted, 'reports.z', {});
    expect(report.openChecks).toMatchObject({ count: 1, total: fine.total }); // not paid: an open check, not a sale
    expect(report.unreadable).toEqual([expect.stringMatching(new RegExp(`^Order ${damaged.number} cannot be read .*left out`))]);
    // The drawer still counts the cash it took.
    expect(report.shifts.map((s) => s.cashSales)).toEqual([damaged.total]);
  });
});

describe('a menu price from the cloud past what one order comes to', () => {
  it('leaves the menu readable for everyone; ringing the item up is refused in words', async () => {
    const seed = (store: Parameters<NonNullable<Parameters<typeof startTestCore>[2]>>[0]) =>
      store.server.applyServerRecord('menu_item', {
        id: 'mi_yacht',
        location_id: 'loc_test',
        category_id: 'cat_mains',
        name: 'Yacht',
        description: '',
        price: 5_000_000_000,
        currency: 'usd',
        available: true,
        low_stock: false,
        modifier_ids: [],
        deleted: false,
      });
    t = await startTestCore({}, {}, seed, { signIn: 'cashier', openShift: false });
    const menu = await ok(t.core, 'menu.snapshot', {});
    expect(menu.items.find((i) => i.id === 'mi_yacht')?.price).toBe(5_000_000_000);
    const error = refusal(await raw(t.core, 'orders.place', { lines: [{ menuItemId: 'mi_yacht', quantity: 1 }] }));
    expect(error.message).toMatch(/more than one order/i);
  });
});

describe('an order past what one till rings up', () => {
  it('is refused in words on orders.place and orders.update, and nothing is recorded', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'manager', openShift: false });
    const item = await ok(t.core, 'menu.createItem', { name: 'Gold leaf', price: MAX_AMOUNT, categoryId: 'cat_mains' });
    await as(t.core, 'cashier');
    const before = snapshot(t.dataDir);
    const placed = refusal(await raw(t.core, 'orders.place', { lines: [{ menuItemId: item.id, quantity: 2 }] }));
    expect(placed.code).toBe('invalid_command');
    expect(placed.message).toMatch(/more than one order/i);
    expect(snapshot(t.dataDir)).toEqual(before);
    const order = await ok(t.core, 'orders.place', { lines: [{ menuItemId: item.id, quantity: 1 }] });
    const updated = refusal(await raw(t.core, 'orders.update', { id: order.id, lines: [{ menuItemId: item.id, quantity: 1 }, { menuItemId: ITEMS.fries, quantity: 1 }] }));
    expect(updated.message).toMatch(/more than one order/i);
    expect((await ok(t.core, 'orders.get', { id: order.id })).total).toBe(MAX_AMOUNT);
  });

  it('keeps tips on one order within what the order view reads', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'manager', openShift: false });
    const item = await ok(t.core, 'menu.createItem', { name: 'Gold leaf', price: MAX_AMOUNT, categoryId: 'cat_mains' });
    await as(t.core, 'cashier');
    const order = await ok(t.core, 'orders.place', { lines: [{ menuItemId: item.id, quantity: 1 }] });
    await ok(t.core, 'payments.take', { orderId: order.id, method: 'card', amount: MAX_AMOUNT / 2, tip: MAX_AMOUNT, managerPin: STAFF.manager.pin });
    const second = await raw(t.core, 'payments.take', { orderId: order.id, method: 'card', amount: MAX_AMOUNT / 2, tip: MAX_AMOUNT, managerPin: STAFF.manager.pin });
    // Either way the order stays readable by everyone.
    if (!second.ok) expect(second.error.message).not.toMatch(/Nothing was changed/);
    const view = await ok(t.core, 'orders.get', { id: order.id });
    expect(view.paidAmount).toBe(second.ok ? MAX_AMOUNT : MAX_AMOUNT / 2);
    expect((await ok(t.core, 'orders.list', {})).map((o) => o.id)).toContain(order.id);
  });
});

describe('cash past what a till holds', () => {
  it('is refused in words when handed over, paid out, dropped or taken, and nothing is recorded', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'manager', openShift: true });
    const item = await ok(t.core, 'menu.createItem', { name: 'Gold leaf', price: MAX_AMOUNT, categoryId: 'cat_mains' });
    const fries = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const gold = await ok(t.core, 'orders.place', { lines: [{ menuItemId: item.id, quantity: 1 }] });
    const before = snapshot(t.dataDir);
    const refusals = [
      await raw(t.core, 'payments.take', { orderId: fries.id, method: 'cash', amount: 450, tendered: MAX_TILL_CASH + 1 }),
      await raw(t.core, 'shift.moveCash', { kind: 'drop', amount: MAX_TILL_CASH + 1, reason: 'to the safe' }),
      await raw(t.core, 'shift.moveCash', { kind: 'paid_out', amount: MAX_AMOUNT, reason: 'supplies' }),
      await raw(t.core, 'payments.take', { orderId: gold.id, method: 'cash', amount: MAX_TILL_CASH + 1 }),
    ].map(refusal);
    for (const error of refusals) {
      expect(error.code).toBe('invalid_command');
      expect(error.message).toMatch(/more (cash )?than any till holds/);
    }
    expect(snapshot(t.dataDir)).toEqual(before);
  });
});

describe('an answer that fails its own check', () => {
  it('after its handler ran (and may have written) never says that nothing was changed', async () => {
    let handled = 0;
    const handlers = { 'shift.current': () => ((handled += 1), { float: -1 }) } as unknown as Handlers;
    const invoke = createInvoker(handlers, silentLogger, async () => ({ act: () => { throw new Error('not asked'); } }));
    const response = await invoke({ command: 'shift.current', payload: {} });
    expect(handled).toBe(1);
    expect(response).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringMatching(/may have been done/) } });
    expect(JSON.stringify(response)).not.toMatch(/nothing was changed/i);
  });
});
