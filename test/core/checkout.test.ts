// The restaurant checkout through the bridge, on a real store file: tax from the configuration,
// modifier groups, discounts and the manager, order numbers, dine-in, tips, split checks, refunds
// by item, and the shift's figures. The same flow against the sandbox is test/sync/checkout.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { FLAT_WHITE, ITEMS, MODIFIERS, reopenStore, seedCoffee, SIZES, STAFF, startTestCore, type TestCore } from './fixtures';

let t: TestCore;
afterEach(async () => {
  await t?.core.shutdown();
});

/** A manager's PIN: what approves a cashier's discount above the limits. */
const PIN = STAFF.manager.pin;

/** 8.875% on everything standard (NYC), food at 8.875%. */
const CONFIG = {
  tax: { rates: 'standard:Sales tax:8.875,food:Sales tax:8.875' },
} as const;

describe('pricing a ticket', () => {
  it('adds tax per line at 8.875%, applies line and order discounts before tax, and every figure adds up', async () => {
    t = await startTestCore(CONFIG, {}, seedCoffee);
    const order = await t.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 2, modifierIds: [MODIFIERS.cheese], note: 'no onions' },
        { menuItemId: ITEMS.fries, quantity: 1, discount: { kind: 'amount', value: 50, reason: 'Loyalty' } },
      ],
      discount: { kind: 'percent', value: 1000, reason: 'Happy hour' },
      service: { type: 'dine_in', table: '12', guests: 3 },
    });
    // Burger 2 × (12.00 + 1.50) = 27.00; fries 4.50 − 0.50 = 4.00; 10% off 31.00 = 3.10.
    expect(order.check).toMatchObject({ subtotal: 3150, discountTotal: 50 + 310, taxIncluded: false, source: 'till' });
    const net = 3150 - 360;
    expect(order.check.total).toBe(net + order.check.taxTotal);
    expect(order.check.taxTotal).toBe(order.lines.reduce((sum, l) => sum + l.total, 0) - net);
    expect(order.lines.reduce((sum, l) => sum + l.total, 0)).toBe(order.total);
    expect(order.lines[0]).toMatchObject({ note: 'no onions', discount: null });
    expect(order.lines[1]!.discount).toEqual({ kind: 'amount', value: 50, reason: 'Loyalty', amount: 50 });
    expect(order.service).toEqual({ type: 'dine_in', table: '12', guests: 3 });
    expect(order.number).toBe('A1');
    expect(order.label).toBe('A1');
  });

  it('asks for a required size and keeps to the extras limit', async () => {
    t = await startTestCore(CONFIG, {}, seedCoffee);
    const missing = await t.raw('orders.place', { lines: [{ menuItemId: FLAT_WHITE, quantity: 1 }] });
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_command', message: expect.stringContaining('exactly 1 size') } });
    const both = await t.raw('orders.place', { lines: [{ menuItemId: FLAT_WHITE, quantity: 1, modifierIds: [SIZES.small, SIZES.large] }] });
    expect(both).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    const ok = await t.call('orders.place', { lines: [{ menuItemId: FLAT_WHITE, quantity: 1, modifierIds: [SIZES.large, MODIFIERS.oat] }] });
    expect(ok.lines[0]!.modifiers.map((m) => m.name)).toEqual(['Large', 'Oat milk']);
    expect(t.core.pendingOperations()).toBe(1);
  });

  it("needs a manager's PIN above the approval limits (a comp always), and a refusal changes nothing", async () => {
    t = await startTestCore(CONFIG, {}, seedCoffee, { signIn: 'cashier' });
    const comp = { menuItemId: ITEMS.soup, quantity: 1, discount: { kind: 'percent' as const, value: 10_000, reason: 'Comp – kitchen error' } };
    expect(await t.raw('orders.place', { lines: [comp] })).toMatchObject({ ok: false, error: { code: 'needs_manager' } });
    expect(await t.raw('orders.place', { lines: [comp], managerPin: '0000' })).toMatchObject({ ok: false, error: { code: 'needs_manager' } });
    expect(await t.raw('orders.place', { lines: [comp], managerPin: STAFF.cashier2.pin })).toMatchObject({ ok: false, error: { code: 'needs_manager' } });
    expect(t.core.pendingOperations()).toBe(0);
    const order = await t.call('orders.place', { lines: [comp, { menuItemId: ITEMS.fries, quantity: 1 }], managerPin: PIN });
    expect(order.lines[0]!.total).toBe(0);
    expect(order.check.discountTotal).toBe(700);
    // A discount larger than its line is refused next to the field, not trimmed.
    const tooBig = await t.raw('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1, discount: { kind: 'amount', value: 451, reason: 'x' } }] });
    expect(tooBig).toMatchObject({ ok: false, error: { code: 'invalid_command', issues: [{ path: 'lines.0.discount' }] } });
    const audit = reopenStoreAudit(t);
    expect(audit.some((entry) => entry.action === 'order.create' && JSON.stringify(entry.detail).includes('Comp'))).toBe(true);
    // Done by the cashier, approved by the manager; the refusals are on record and changed nothing else.
    const cashierId = (await t.call('staff.session', {})).signedIn!.id;
    expect(audit.find((entry) => entry.action === 'order.create')!.actor).toBe(cashierId);
    expect(audit.filter((entry) => entry.action === 'discount.approved')).toEqual([
      expect.objectContaining({ actor: cashierId, detail: expect.objectContaining({ approvedBy: expect.stringMatching(/manager/) }) }),
    ]);
    expect(audit.filter((entry) => entry.action === 'permission.refused' && entry.actor === cashierId)).toHaveLength(3);
    expect(audit.filter((entry) => entry.action === 'order.create')).toHaveLength(1);
  });
});

function reopenStoreAudit(test: TestCore) {
  const store = reopenStore(test.dataDir);
  try {
    return store.cashier.listAudit({ limit: 50 });
  } finally {
    store.close();
  }
}

describe('order numbers', () => {
  it('counts per business day with the till letter, and the orders list finds them by number', async () => {
    t = await startTestCore({ ...CONFIG, checkout: { tillLetter: 'C' } });
    const numbers: string[] = [];
    for (let i = 0; i < 3; i++) numbers.push((await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] })).number!);
    expect(numbers).toEqual(['C1', 'C2', 'C3']);
    const found = await t.call('orders.list', { search: 'c2' });
    expect(found.map((o) => o.number)).toEqual(['C2']);
  });
});

describe('paying a split check', () => {
  it('splits three ways: two cards with tips and one cash; balances, tips and the shift add up', async () => {
    t = await startTestCore(CONFIG, {}, seedCoffee);
    const order = await t.call('orders.place', {
      lines: [
        { menuItemId: FLAT_WHITE, quantity: 1, modifierIds: [SIZES.large] },
        { menuItemId: ITEMS.burger, quantity: 2 },
        { menuItemId: ITEMS.soup, quantity: 1 },
      ],
      discount: { kind: 'percent', value: 1000, reason: 'Regulars' },
      service: { type: 'dine_in', table: '4', guests: 3 },
    });
    const split = await t.call('orders.update', { id: order.id, split: { kind: 'even', parts: 3 } });
    const parts = split.split!.parts;
    expect(parts.reduce((sum, p) => sum + p.amount, 0)).toBe(order.total);
    expect(split.total).toBe(order.total); // the split changes nothing for the cloud
    const first = await t.call('payments.take', { orderId: order.id, method: 'card', amount: parts[0]!.amount, tip: 300, splitPart: parts[0]!.label });
    expect(first.payment).toMatchObject({ amount: parts[0]!.amount, tip: 300, splitPart: '1 of 3' });
    await t.call('payments.take', { orderId: order.id, method: 'card', amount: parts[1]!.amount, tip: 250, splitPart: parts[1]!.label });
    // A cash tip is refused unless cash tips are on; nothing is recorded.
    expect(await t.raw('payments.take', { orderId: order.id, method: 'cash', amount: parts[2]!.amount, tip: 100, splitPart: parts[2]!.label })).toMatchObject({ ok: false });
    const last = await t.call('payments.take', { orderId: order.id, method: 'cash', amount: parts[2]!.amount, tendered: 5000, splitPart: parts[2]!.label });
    expect(last.change).toBe(5000 - parts[2]!.amount);
    expect(last.order).toMatchObject({ paidAmount: order.total, tipTotal: 550, displayState: 'paid_in_kitchen' });
    expect(last.order.split!.parts.every((p) => p.paid)).toBe(true);
    expect(await t.raw('payments.take', { orderId: order.id, method: 'cash', amount: 1 })).toMatchObject({ ok: false, error: { code: 'conflict' } });

    const shift = await t.call('shift.summary', {});
    expect(shift.byMethod.card + shift.byMethod.cash!).toBe(order.total);
    expect(shift.tips).toEqual({ card: 550, cash: 0 });
    expect(shift.tax).toBe(order.check.taxTotal);
    expect(shift.discounts).toBe(order.check.discountTotal);
  });

  it('splits evenly what is still due when part was paid before the split', async () => {
    t = await startTestCore(CONFIG);
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }] });
    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: 500 });
    const parts = (await t.call('orders.update', { id: order.id, split: { kind: 'even', parts: 2 } })).split!.parts;
    expect(parts.reduce((sum, p) => sum + p.amount, 0)).toBe(order.total - 500);
    for (const part of parts) await t.call('payments.take', { orderId: order.id, method: 'card', amount: part.amount, splitPart: part.label });
    expect(await t.call('orders.get', { id: order.id })).toMatchObject({ paidAmount: order.total, displayState: 'paid_in_kitchen' });
  });

  it('splits by items into two checks whose amounts are their lines, discount and tax in', async () => {
    t = await startTestCore(CONFIG);
    const order = await t.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 1 },
        { menuItemId: ITEMS.fries, quantity: 1 },
        { menuItemId: ITEMS.latte, quantity: 1 },
      ],
    });
    expect(await t.raw('orders.update', { id: order.id, split: { kind: 'items', assignment: [1, 2] } })).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    const split = await t.call('orders.update', { id: order.id, split: { kind: 'items', assignment: [1, 2, 1] } });
    const [one, two] = split.split!.parts;
    expect(one!.amount).toBe(order.lines[0]!.total + order.lines[2]!.total);
    expect(two!.amount).toBe(order.lines[1]!.total);
    expect(one!.amount + two!.amount).toBe(order.total);
  });
});

describe('refund by item', () => {
  it('gives back the line’s share (tax and discount in), to the payment of its check, and marks the order partially refunded', async () => {
    t = await startTestCore(CONFIG);
    const order = await t.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 2 },
        { menuItemId: ITEMS.fries, quantity: 1 },
      ],
      discount: { kind: 'percent', value: 1000, reason: 'Regulars' },
    });
    const split = await t.call('orders.update', { id: order.id, split: { kind: 'items', assignment: [1, 2] } });
    const [burgers, fries] = split.split!.parts;
    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: burgers!.amount, splitPart: burgers!.label });
    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: fries!.amount, splitPart: fries!.label });
    const result = await t.call('payments.refundItems', { orderId: order.id, items: [{ lineIndex: 0, quantity: 1 }], reason: 'requested_by_customer' });
    const burgerLine = order.lines[0]!.total;
    expect(result.amount).toBe(Math.floor(burgerLine / 2));
    expect(result.refunds).toHaveLength(1);
    const paidBurgers = result.order.payments.find((p) => p.splitPart === burgers!.label)!;
    expect(paidBurgers.refundedAmount).toBe(result.amount);
    expect(result.order.lines[0]!.refundedQuantity).toBe(1);
    expect(result.order.refundState).toBe('partial');
    // The second burger is the last unit: it returns the rest of the line, to the cent.
    const rest = await t.call('payments.refundItems', { orderId: order.id, items: [{ lineIndex: 0, quantity: 1 }], reason: 'requested_by_customer' });
    expect(result.amount + rest.amount).toBe(burgerLine);
    expect(await t.raw('payments.refundItems', { orderId: order.id, items: [{ lineIndex: 0, quantity: 1 }], reason: 'requested_by_customer' })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
  });
});

describe('tips offline', () => {
  it('count toward the offline card limits: the tip tips a charge over the limit', async () => {
    t = await startTestCore({ ...CONFIG, offlinePayments: { perTransaction: 1000 } }, {}, undefined, { signIn: 'cashier' });
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const over = await t.raw('payments.take', { orderId: order.id, method: 'card', amount: order.total, tip: 1000 - order.total + 1 });
    expect(over).toMatchObject({ ok: false, error: { code: 'needs_manager', message: expect.stringContaining('offline') } });
    const within = await t.call('payments.take', { orderId: order.id, method: 'card', amount: order.total, tip: 1000 - order.total });
    expect(within.payment).toMatchObject({ status: 'queued_offline', tip: 1000 - order.total });
  });
});
