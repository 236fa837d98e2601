// @vitest-environment happy-dom
// The sync indicator and its panel, rendered by React against a real core (SQLite file) through
// the same BridgeClient the page uses; the transport is the core's own invoke/subscribe.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SyncIndicator } from '../../renderer/components/SyncIndicator';
import { createBridgeClient } from '../../renderer/lib/bridge-client';
import { BridgeContext } from '../../renderer/lib/hooks';
import { ITEMS, reopenStore, startTestCore, type TestCore } from '../core/fixtures';

let t: TestCore;
afterEach(async () => {
  cleanup();
  await t?.core.shutdown();
});

function renderIndicator() {
  const client = createBridgeClient({ invoke: (request) => t.core.invoke(request), onEvent: (listener) => t.core.subscribe(listener) });
  render(
    <BridgeContext.Provider value={client}>
      <SyncIndicator />
    </BridgeContext.Provider>,
  );
  return client;
}

describe('SyncIndicator', () => {
  it('shows what waits, then a refused change the operator can discard', async () => {
    t = await startTestCore();
    const client = renderIndicator();
    await waitFor(() => expect(screen.getByTestId('sync-pending').textContent).toBe('0 waiting'));
    expect(screen.getByTestId('sync-indicator').textContent).toMatch(/Not connected to an account/);

    await act(() => client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], customer: { name: 'Grace', phone: '' } }));
    await waitFor(() => expect(screen.getByTestId('sync-pending').textContent).toMatch(/^1 waiting · oldest \d+ s$/));

    const store = reopenStore(t.dataDir);
    const [op] = store.outbox.readyOperations(Date.now() + 1000, 10);
    store.outbox.deadLetter(op!.opId, 'invalid_request: menu item unknown');
    store.close();
    // The engine would announce it; here the panel's fresh read on opening finds it.
    fireEvent.click(screen.getByTestId('sync-indicator'));
    await waitFor(() => expect(screen.getAllByTestId('dead-letter')).toHaveLength(1));
    expect(screen.getByTestId('dead-letter').textContent).toMatch(/New order for Grace \(1 line\).*menu item unknown/);
    expect(screen.getByTestId('sync-dead-count').textContent).toBe('1 refused');

    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryAllByTestId('dead-letter')).toHaveLength(0));
    expect(screen.queryByTestId('sync-dead-count')).toBeNull();
  });

  it("explains a refusal in the cashier's words and keeps the server's words behind Details", async () => {
    t = await startTestCore();
    const client = renderIndicator();
    const order = await act(() => client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], customer: { name: 'Ada', phone: '' } }));
    await act(() => client.call('payments.take', { orderId: order.id, method: 'card', amount: order.total }));
    const store = reopenStore(t.dataDir);
    const [create] = store.outbox.readyOperations(Date.now() + 1000, 10);
    store.outbox.deadLetter(create!.opId, 'rejected by the server: POST /v1/orders → 400 invalid_request: unknown menu item', Date.now(), {
      cause: 'invalid',
      status: 400,
      code: 'invalid_request',
    });
    store.close();
    fireEvent.click(screen.getByTestId('sync-indicator'));
    // The order, and its card payment's create and capture, which waited on it.
    await waitFor(() => expect(screen.getAllByTestId('dead-letter')).toHaveLength(3));
    const [orderLetter, ...paymentLetters] = screen.getAllByTestId('dead-letter');
    expect(orderLetter!.querySelector('p')!.textContent).toBe('The cloud did not accept the details of this order. Check them and make the change again, then discard this one.');
    // The card payment waited on the order: it says so instead of repeating the order's error.
    expect(paymentLetters.map((letter) => letter.querySelector('p')!.textContent)).toEqual([
      'Not sent, because an earlier change it depends on was refused. Sort that one out first, then retry this one.',
      'Not sent, because an earlier change it depends on was refused. Sort that one out first, then retry this one.',
    ]);
    const details = orderLetter!.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('Details');
    expect(details.textContent).toContain('HTTP 400 invalid_request: rejected by the server: POST /v1/orders → 400 invalid_request: unknown menu item');
  });

  it('lists an order the cloud priced differently, with both totals, until a manager marks it settled', async () => {
    t = await startTestCore();
    const client = renderIndicator();
    const order = await act(() => client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], customer: { name: 'Lin', phone: '' } }));
    // The cloud confirms the order with its own, higher price per line.
    const store = reopenStore(t.dataDir);
    const [create] = store.outbox.claimReady(Date.now() + 1000, 1);
    const doc = store.cashier.getOrder(order.id)!;
    const lines = doc.lines.map((line) => ({ ...line, unit_price: line.unit_price + 50 }));
    store.outbox.completeOperation(create!.opId, { serverRecord: { ...doc, id: 'ord_cloud_1', lines, total: doc.total + 100 } });
    store.close();

    fireEvent.click(screen.getByTestId('sync-indicator'));
    await waitFor(() => expect(screen.getAllByTestId('repriced-order')).toHaveLength(1));
    const money = (minor: number) => `$${(minor / 100).toFixed(2)}`;
    expect(screen.getByTestId('repriced-order').textContent).toContain('Order for Lin (1 line)');
    expect(screen.getByTestId('repriced-order').textContent).toContain(`priced this order at ${money(doc.total + 100)}, the till at ${money(doc.total)} ($1.00 more)`);
    expect(screen.getByTestId('sync-repriced-count').textContent).toBe('1 repriced');

    fireEvent.click(screen.getByRole('button', { name: 'Mark settled' }));
    await waitFor(() => expect(screen.queryAllByTestId('repriced-order')).toHaveLength(0));
    expect(screen.queryByTestId('sync-repriced-count')).toBeNull();
    const audit = reopenStore(t.dataDir);
    expect(audit.cashier.listAudit({ entityKind: 'order', entityId: order.id }).map((entry) => entry.action)).toContain('order.repricing_settled');
    audit.close();
    // Settling it twice is refused with a plain sentence, and changes nothing.
    await expect(client.call('sync.settleRepricedOrder', { id: order.id })).rejects.toThrow(/no longer listed as repriced/);
  });
});
