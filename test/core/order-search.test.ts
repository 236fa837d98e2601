// The orders list's customer search reaches the whole history: a name's start is found through the
// store's indexes however many orders came after it, and a part of a name among the newest.
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
