// @vitest-environment happy-dom
// The sync panel lists what waits to be sent (issue 24, item 16), on a real core: each change in the
// cashier's words with its order, since when and how its tries went, the engine's words only behind
// "Details"; the oldest 50, with how many wait in all. A cashier's discard of a refused change is
// refused next to the manager's PIN when the PIN is wrong.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SyncIndicator } from '../../renderer/components/SyncIndicator';
import { ITEMS, LOCATION, reopenStore, STAFF } from '../core/fixtures';
import { fieldError } from './checkout-fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start, core } = coreForEachTest();

async function openPanel() {
  fireEvent.click(await screen.findByTestId('sync-indicator'));
  return within(await screen.findByRole('dialog'));
}

describe('the sync panel: what waits', () => {
  it('lists each waiting change in words, with its order, and a failed try in words with the engine’s behind Details', async () => {
    const client = await start();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }, { menuItemId: ITEMS.soup, quantity: 1 }], customer: { name: 'Grace', phone: '' } });
    await client.call('payments.take', { orderId: order.id, method: 'card', amount: order.total });
    const store = reopenStore(core().dataDir);
    const [create] = store.outbox.claimReady(Date.now() + 1000, 1);
    store.outbox.scheduleRetry(create!.opId, 'POST /v1/orders failed: ECONNREFUSED', Date.now() + 60_000);
    store.close();

    renderWith(client, <SyncIndicator />);
    await waitFor(() => expect(screen.getByTestId('sync-pending').textContent).toMatch(/^3 waiting/));
    const panel = await openPanel();
    await waitFor(() => expect(panel.getAllByTestId('waiting-change')).toHaveLength(3));
    const [orderChange, payment, capture] = panel.getAllByTestId('waiting-change');
    expect(orderChange!.querySelector('strong')!.textContent).toBe(`New order ${order.label} for Grace (2 lines)`);
    expect(payment!.querySelector('strong')!.textContent).toBe(`Card payment of $${(order.total / 100).toFixed(2)} for order ${order.label}`);
    expect(capture!.querySelector('strong')!.textContent).toBe(`Card payment capture for order ${order.label}`);
    expect(orderChange!.textContent).toMatch(/^New order .*Made .* · tried 1 timeThe cloud could not be reached \(connection refused\)\.Details/);
    expect(payment!.textContent).toMatch(/· not sent yet$/);
    // The engine's words are for IT: behind a closed Details, never in the sentence.
    const details = orderChange!.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.textContent).toBe('DetailsPOST /v1/orders failed: ECONNREFUSED');
    expect([...orderChange!.querySelectorAll('div > p')].map((p) => p.textContent).join(' ')).not.toMatch(/ECONNREFUSED|POST|\/v1/);
    expect(payment!.querySelector('details')).toBeNull();
    expect(panel.queryByTestId('waiting-shown')).toBeNull();
  });

  it('shows the oldest 50, oldest first, and says how many wait in all', async () => {
    const client = await start({}, (store) =>
      store.transaction(() => {
        for (let n = 0; n < 60; n++) {
          store.cashier.createOrder(
            { locationId: LOCATION, currency: 'usd', lines: [{ menu_item_id: ITEMS.fries, name: 'Fries', quantity: 1, unit_price: 450, modifiers: [] }], customer: { name: `Guest ${n}`, phone: '' } },
            { actor: 'test' },
          );
        }
      }),
    );
    renderWith(client, <SyncIndicator />);
    const panel = await openPanel();
    await waitFor(() => expect(panel.getAllByTestId('waiting-change')).toHaveLength(50));
    expect(panel.getByTestId('waiting-shown').textContent).toBe('The 50 oldest of 60, oldest first.');
    const names = panel.getAllByTestId('waiting-change').map((li) => li.querySelector('strong')!.textContent);
    expect(names[0]).toMatch(/ for Guest 0 \(1 line\)$/);
    expect(names[49]).toMatch(/ for Guest 49 \(1 line\)$/);
  });

  it('refuses a cashier’s discard with a wrong manager PIN next to the PIN, and keeps the refused change', async () => {
    const client = await start({}, undefined, { signIn: 'cashier' });
    await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const store = reopenStore(core().dataDir);
    const [op] = store.outbox.readyOperations(Date.now() + 1000, 1);
    store.outbox.deadLetter(op!.opId, 'invalid_request: menu item unknown');
    store.close();
    renderWith(client, <SyncIndicator />);
    const panel = await openPanel();
    await waitFor(() => expect(panel.getAllByTestId('dead-letter')).toHaveLength(1));
    const pin = panel.getByLabelText('Manager PIN to approve');
    fireEvent.change(pin, { target: { value: '2468' } });
    fireEvent.click(panel.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(fieldError(pin)).toBe('That PIN is not right. Discarding refused changes or print jobs needs a manager. Nothing was changed.'));
    expect(panel.getAllByTestId('dead-letter')).toHaveLength(1);
    fireEvent.change(pin, { target: { value: STAFF.manager.pin } });
    fireEvent.click(panel.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(panel.queryAllByTestId('dead-letter')).toHaveLength(0));
    expect(fieldError(pin)).toBeNull();
  });
});
