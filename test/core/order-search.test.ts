// The orders list and the shift figures reach past the newest 500 orders: the customer search
// finds a name's start through the store's indexes however many orders came after it (and any
// part of a name among the newest), and a busy day's figures count every order.
import { afterEach, describe, expect, it } from 'vitest';
import { ITEMS, startTestCore, type TestCore } from './fixtures';

let t: TestCore;
afterEach(async () => {
  await t?.core.shutdown();
});

describe('orders list search', () => {
  it('finds an order older than the newest 500 by the start of the name or phone, and recent ones by any part', async () => {
    t = await startTestCore();
    const line = [{ menuItemId: ITEMS.fries, quantity: 1 }];
    await t.call('orders.place', { lines: line, customer: { name: 'Zelda Fitzgerald', phone: '555-0199' } });
    for (let n = 0; n < 510; n++) await t.call('orders.place', { lines: line, customer: { name: `Walk-in ${n}`, phone: '' } });
    const byName = await t.call('orders.list', { search: 'zel' });
    expect(byName.map((o) => o.customer?.name)).toEqual(['Zelda Fitzgerald']);
    expect((await t.call('orders.list', { search: '555-01' })).map((o) => o.customer?.name)).toEqual(['Zelda Fitzgerald']);
    expect((await t.call('orders.list', { search: 'in 509' })).map((o) => o.customer?.name)).toEqual(['Walk-in 509']);
    expect(await t.call('orders.list', { search: 'zel', status: 'cancelled' })).toEqual([]);
  });
});

describe('shift figures on a busy day', () => {
  it('count every order and payment of the day, past the first 500', async () => {
    t = await startTestCore();
    const line = [{ menuItemId: ITEMS.fries, quantity: 1 }];
    let paid = 0;
    for (let n = 0; n < 520; n++) {
      const order = await t.call('orders.place', { lines: line });
      await t.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total });
      paid += order.total;
    }
    const summary = await t.call('shift.summary', {});
    expect(summary.orders).toBe(520);
    expect(summary.byMethod.cash).toBe(paid);
    expect(summary.net).toBe(paid);
  });
});
