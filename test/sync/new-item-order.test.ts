// An order naming a menu item created on this till that has not reached the cloud yet waits for
// the item's create, instead of being refused ("has no server id yet") and leaving the till's
// orders list with its payment.
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, engineFor, getJson, menuFixture, sandboxAndStore, waitFor } from './harness';

const defer = cleanupAfterEach();

describe('an order for a menu item created here', () => {
  it('is sent after the item, naming its server id, with nothing refused', async () => {
    const { sandbox, store } = await sandboxAndStore(defer);
    const menu = await menuFixture(sandbox);
    const categories = await getJson<{ data: { id: string }[] }>(sandbox, '/menu/categories');
    const actor = { actor: 'test' };
    const item = store.cashier.createMenuItem({ locationId: menu.locationId, categoryId: categories.data[0]!.id, name: 'Daily soup', price: 650, currency: menu.currency }, actor);
    const order = store.cashier.createOrder({ locationId: menu.locationId, currency: menu.currency, lines: [{ menu_item_id: item.id, name: item.name, quantity: 2, unit_price: 650, modifiers: [] }], customer: null, notes: '' }, actor);
    store.cashier.recordCashPayment(order.id, order.total, menu.currency, actor);

    const engine = engineFor(sandbox, store, { locationId: menu.locationId });
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the push');

    expect(store.outbox.listDeadLetters()).toEqual([]);
    const itemServerId = store.serverIdFor('menu_item', item.id)!;
    const serverOrder = await getJson<{ items: { menu_item_id: string; quantity: number }[] }>(sandbox, `/orders/${store.serverIdFor('order', order.id)}`);
    expect(serverOrder.items.map((line) => [line.menu_item_id, line.quantity])).toEqual([[itemServerId, 2]]);
    expect(store.cashier.getOrder(order.id)).toMatchObject({ total: 1300 });
  });
});
