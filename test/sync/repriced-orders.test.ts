// /v1 prices an order when it receives it. An order sold offline, pushed after its menu price
// changed on the server, is confirmed with another total: the terminal takes the server's total
// and lists the order as repriced until a manager settles it; a card payment larger than what the
// server now asks is refused and dead-lettered, as before, and nothing is sent twice.
import { describe, expect, it } from 'vitest';
import { allServerOrders, cleanupAfterEach, engineFor, menuFixture, sandboxAndStore, sendJson, waitFor } from './harness';

const defer = cleanupAfterEach();

describe('an order whose menu price changed on the server before it was pushed', () => {
  it.each([
    ['rose', 200],
    ['fell', -200],
  ])('the price %s: the order is listed as repriced with both totals', async (_direction, delta) => {
    const { sandbox, store } = await sandboxAndStore(defer);
    const menu = await menuFixture(sandbox);
    const item = menu.items.find((i) => i.price > 500)!;
    // Sold offline at the till's price, paid by card.
    const order = store.cashier.createOrder(
      { locationId: menu.locationId, currency: menu.currency, lines: [{ menu_item_id: item.id, name: item.name, quantity: 1, unit_price: item.price, modifiers: [] }] },
      { actor: 'test' },
    );
    const intent = store.cashier.createPaymentIntent(order.id, order.total, menu.currency, { actor: 'test' });
    store.cashier.capturePaymentIntent(intent.id, { actor: 'test' });
    await sendJson(sandbox, 'PATCH', `/menu/items/${item.id}`, { price: item.price + delta });

    const engine = engineFor(sandbox, store, { locationId: menu.locationId });
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the push');

    expect(store.repricedOrders.listUnsettled()).toMatchObject([{ orderId: order.id, tillTotal: order.total, serverTotal: order.total + delta, currency: menu.currency }]);
    expect(store.cashier.getOrder(order.id)?.total).toBe(order.total + delta);
    const [onServer, ...others] = (await allServerOrders(sandbox)).filter((o) => o.metadata.pos_local_id === order.id);
    expect(others).toEqual([]);
    expect(onServer).toMatchObject({ total: order.total + delta });
    const refused = store.outbox.listDeadLetters().map((letter) => letter.operation.kind);
    // Less is left to pay than the till took: the intent is refused (and its capture with it).
    expect(refused.sort()).toEqual(delta < 0 ? ['payment_intent.capture', 'payment_intent.create'] : []);
    expect(onServer).toMatchObject({ amount_paid: delta < 0 ? 0 : order.total });
  });
});
