// @vitest-environment happy-dom
// The refund dialog on a real core (issue 24, item 13): a cashier's manager PIN is checked by the core
// before "Yes, refund …?" is asked (a wrong one refused next to the PIN, nothing asked, nothing
// refunded), and the words "Other" asks for reach the core with the refund, by amount and by item.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../bridge/contract';
import { RefundDialog } from '../../renderer/components/RefundDialog';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { ITEMS, reopenStore, STAFF } from '../core/fixtures';
import { fieldError } from './checkout-fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start, core } = coreForEachTest();

/** Two burgers paid in cash. */
async function paidBurgers(client: BridgeClient): Promise<Order> {
  const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }] });
  await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
  return client.call('orders.get', { id: order.id });
}

function openDialog(client: BridgeClient, order: Order) {
  const said: string[] = [];
  const view = renderWith(client, <RefundDialog order={order} onClose={() => undefined} onRefunded={(_order, confirmation) => said.push(confirmation)} />);
  return { dialog: within(screen.getByRole('dialog')), said, close: () => view.unmount() };
}

/** The words of every refund of the order, as the core keeps them. */
function notesOf(order: Order): (string | null)[] {
  const store = reopenStore(core().dataDir);
  try {
    return store.cashier.paymentsOfOrders([order.id]).refunds.map((refund) => refund.note);
  } finally {
    store.close();
  }
}

describe('the refund dialog', () => {
  it('checks a cashier’s manager PIN before asking “Yes, refund”: a wrong one is refused next to the PIN and nothing is asked or refunded', async () => {
    const client = await start({}, undefined, { signIn: 'cashier' });
    const order = await paidBurgers(client);
    const { dialog, said } = openDialog(client, order);
    fireEvent.click(dialog.getByLabelText('By item'));
    fireEvent.click(dialog.getByRole('button', { name: 'One more Burger to refund' }));
    const pin = await dialog.findByLabelText('Manager PIN to approve');
    fireEvent.change(pin, { target: { value: '2468' } });
    fireEvent.click(dialog.getByTestId('refund-items'));
    await waitFor(() => expect(fieldError(pin)).toBe('That PIN is not right. A refund needs a manager. Nothing was changed.'));
    await waitFor(() => expect(document.activeElement).toBe(pin));
    expect(dialog.queryByTestId('refund-question')).toBeNull();
    expect((await client.call('orders.get', { id: order.id })).refundedAmount).toBe(0);

    fireEvent.change(pin, { target: { value: STAFF.manager.pin } });
    fireEvent.click(dialog.getByTestId('refund-items'));
    expect((await dialog.findByTestId('refund-question')).textContent).toBe('Refund 1 item, $12.00 in cash to hand back.');
    expect(fieldError(pin)).toBeNull();
    fireEvent.click(dialog.getByTestId('confirm-refund-items'));
    await waitFor(() => expect(said).toEqual(['Refunded 1 item, $12.00 in cash to hand back.']));
  });

  it('sends the words given for “Other” with a refund by amount and by item; the core keeps them', async () => {
    const client = await start();
    const order = await paidBurgers(client);
    const first = openDialog(client, order);
    fireEvent.change(first.dialog.getByLabelText('Reason'), { target: { value: 'other' } });
    fireEvent.change(first.dialog.getByLabelText('What happened'), { target: { value: '  Burger sent back cold ' } });
    fireEvent.change(first.dialog.getByLabelText(/Amount to give back/), { target: { value: '2.00' } });
    fireEvent.click(first.dialog.getByTestId('confirm-refund'));
    await waitFor(() => expect(first.said).toEqual(['Refunded $2.00 in cash: hand it to the customer.']));
    expect(notesOf(order)).toEqual(['Burger sent back cold']);
    first.close();

    const second = openDialog(client, await client.call('orders.get', { id: order.id }));
    fireEvent.click(second.dialog.getByLabelText('By item'));
    fireEvent.click(second.dialog.getByRole('button', { name: 'One more Burger to refund' }));
    fireEvent.change(second.dialog.getByLabelText('Reason'), { target: { value: 'other' } });
    fireEvent.change(second.dialog.getByLabelText('What happened'), { target: { value: 'Wrong order' } });
    fireEvent.click(second.dialog.getByTestId('refund-items'));
    fireEvent.click(await second.dialog.findByTestId('confirm-refund-items'));
    await waitFor(() => expect(second.said).toHaveLength(1));
    expect(notesOf(order).sort()).toEqual(['Burger sent back cold', 'Wrong order']);
  });
});
