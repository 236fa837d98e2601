// What the first ten minutes at the register need from the core: bad numbers refused at the
// bridge, the large-charge confirmation amount, and the order state a restaurant reads at a glance.
import { afterEach, describe, expect, it } from 'vitest';
import { TerminalOverrides } from '../../main/core/settings';
import { ITEMS, reopenStore, startTestCore, type TestCore } from './fixtures';

let t: TestCore;
afterEach(async () => {
  await t?.core.shutdown();
});

describe('bad numbers at the bridge', () => {
  it('refuses a negative price, negative offline limits and an out-of-range webhook port, and changes nothing', async () => {
    t = await startTestCore();
    const refusals = [
      await t.raw('menu.createItem', { name: 'Tea', price: -500, categoryId: 'cat_drinks' }),
      await t.raw('menu.updateItem', { id: ITEMS.burger, changes: { price: -500 } }),
      await t.raw('settings.update', { offlineLimits: { perTransaction: -2000, total: 100_000 } }),
      await t.raw('settings.update', { webhook: { enabled: false, host: '127.0.0.1', port: 70_000 } }),
      await t.raw('settings.update', { confirmChargeAbove: -1 }),
      await t.raw('payments.take', { orderId: 'ord_x', method: 'cash', amount: 450, tendered: -2000 }),
    ];
    for (const response of refusals) expect(response).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    const settings = await t.call('settings.get', {});
    expect(settings.offlineLimits).toEqual({ perTransaction: 10_000, total: 100_000 });
    expect(settings.webhook.port).toBe(0);
    expect((await t.call('menu.snapshot', {})).items.find((i) => i.id === ITEMS.burger)?.price).toBe(1200);
    expect(t.core.pendingOperations()).toBe(0);
  });
});

describe('large-charge confirmation amount', () => {
  it('defaults to $1,000.00, follows the configuration, and a manager can change it on the terminal', async () => {
    t = await startTestCore();
    expect((await t.call('settings.get', {})).confirmChargeAbove).toBe(100_000);
    await t.core.shutdown();
    t = await startTestCore({ payments: { confirmAbove: 50_000 } });
    expect((await t.call('settings.get', {})).confirmChargeAbove).toBe(50_000);
    expect((await t.call('settings.update', { confirmChargeAbove: 20_000 })).confirmChargeAbove).toBe(20_000);
    // Durable: a fresh start on the same store keeps the manager's amount.
    const store = reopenStore(t.dataDir);
    expect(store.cashier.getSetting('terminal.settings', TerminalOverrides)?.confirmChargeAbove).toBe(20_000);
    store.close();
  });
});

describe('order state at a glance', () => {
  it('derives open · unpaid, part paid, paid · in kitchen, completed and cancelled from status and payments', async () => {
    t = await startTestCore();
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    expect(order).toMatchObject({ status: 'open', displayState: 'open_unpaid', refundState: 'none' });
    const part = await t.call('payments.take', { orderId: order.id, method: 'cash', amount: 500 });
    expect(part.order).toMatchObject({ status: 'open', displayState: 'open_part_paid' });
    const paid = await t.call('payments.take', { orderId: order.id, method: 'card', amount: 700 });
    expect(paid.order).toMatchObject({ status: 'open', displayState: 'paid_in_kitchen' });
    expect(await t.call('orders.fulfil', { id: order.id })).toMatchObject({ status: 'fulfilled', displayState: 'completed' });

    // Fulfilled reads "Completed" whatever this terminal knows of its payments (a pulled order brings none; a walkout).
    const unpaid = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    expect(await t.call('orders.fulfil', { id: unpaid.id, walkout: { reason: 'left without paying' } })).toMatchObject({ status: 'fulfilled', displayState: 'completed' });
    const cancelled = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    expect(await t.call('orders.cancel', { reason: 'Rung up by mistake', id: cancelled.id })).toMatchObject({ status: 'cancelled', displayState: 'cancelled' });
    // The list carries the same derived state.
    const listed = await t.call('orders.list', {});
    expect(Object.fromEntries(listed.map((o) => [o.id, o.displayState]))).toEqual({ [order.id]: 'completed', [unpaid.id]: 'completed', [cancelled.id]: 'cancelled' });
  });

  it('marks an order partially refunded, then refunded', async () => {
    t = await startTestCore();
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    const { payment } = await t.call('payments.take', { orderId: order.id, method: 'cash', amount: 1200 });
    const first = await t.call('payments.refund', { paymentId: payment.id, amount: 200, reason: 'requested_by_customer' });
    expect(first.order).toMatchObject({ displayState: 'paid_in_kitchen', refundState: 'partial', refundedAmount: 200 });
    const rest = await t.call('payments.refund', { paymentId: payment.id, amount: 1000, reason: 'requested_by_customer' });
    expect(rest.order).toMatchObject({ refundState: 'full', refundedAmount: 1200 });
  });
});
