// @vitest-environment happy-dom
// The orders screen's checkout against a real core: each row leads with the order's number and
// says how it is served; the search finds an order by its number; a refund by item steps units up
// to what is left, says what it gives back, asks once in words, and badges the order.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { BridgeContext } from '../../renderer/lib/hooks';
import { Orders } from '../../renderer/screens/Orders';
import { ITEMS } from '../core/fixtures';
import { coreForEachTest } from './with-core';

const { start: withCore } = coreForEachTest();

async function renderOrders(client: BridgeClient) {
  const { checkout } = await client.call('menu.snapshot', {});
  render(
    <BridgeContext.Provider value={client}>
      <Orders onEdit={() => undefined} checkout={checkout} />
    </BridgeContext.Provider>,
  );
}

const row = (id: string) => document.querySelector(`tr[data-order-id="${id}"]`) as HTMLElement;
const label = (id: string) => row(id).querySelector('.order-label')?.textContent;
const service = (id: string) => row(id).querySelectorAll('td')[1]?.textContent;

describe('orders checkout', () => {
  it('leads each row with the order number, says how it is served, and finds an order by its number', async () => {
    const client = await withCore();
    const line = [{ menuItemId: ITEMS.fries, quantity: 1 }];
    const table = await client.call('orders.place', { lines: line, service: { type: 'dine_in', table: '12', guests: 4 } });
    const takeout = await client.call('orders.place', { lines: line, customer: { name: 'Ada', phone: '' } });
    await renderOrders(client);
    await waitFor(() => expect(row(takeout.id)).toBeTruthy());
    expect(row(table.id).querySelector('td')?.firstElementChild?.textContent).toBe('A1'); // the number leads the row
    expect(service(table.id)).toBe('Table 12 · 4 guests');
    expect(label(takeout.id)).toBe('A2');
    expect(service(takeout.id)).toBe('Takeout · Ada');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'a2' } });
    await waitFor(() => expect(row(table.id)).toBeNull());
    expect(row(takeout.id)).toBeTruthy();
    fireEvent.click(within(row(takeout.id)).getByRole('button', { name: 'A2' }));
    expect(within(screen.getByRole('region', { name: 'Order details' })).getByRole('heading').textContent).toMatch(/^Order A2 · Ada/);
  });

  it('refunds by item: up to what is left of each line, the amount said before, one confirmation, then the badge', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }, { menuItemId: ITEMS.fries, quantity: 1 }] });
    await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    await renderOrders(client);
    await waitFor(() => expect(row(order.id)).toBeTruthy());
    fireEvent.click(within(row(order.id)).getByRole('button'));
    fireEvent.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Refund · Order A1');
    fireEvent.click(within(dialog).getByLabelText('By item'));
    const more = within(dialog).getByRole('button', { name: 'One more Burger to refund' }) as HTMLButtonElement;
    fireEvent.click(more);
    fireEvent.click(more);
    expect(more.disabled).toBe(true); // both burgers: no third
    fireEvent.click(within(dialog).getByRole('button', { name: 'One less Burger to refund' }));
    expect(within(dialog).getByTestId('refund-items-amount').textContent).toBe('Gives back $12.00 in cash.');
    fireEvent.click(within(dialog).getByTestId('refund-items'));
    expect(within(dialog).getByTestId('refund-question').textContent).toBe('Refund 1 item, $12.00, in cash?');
    expect((await client.call('orders.get', { id: order.id })).refundedAmount).toBe(0); // asked, not done
    fireEvent.click(within(dialog).getByTestId('confirm-refund-items'));
    await waitFor(() => expect(screen.getByTestId('order-notice').textContent).toBe('Refunded 1 item, $12.00, in cash.'));
    await waitFor(() => expect([...row(order.id).querySelectorAll('.badge')].map((b) => b.textContent)).toContain('Partially refunded'));
    expect(screen.getByText('1 refunded')).toBeTruthy();
    // What is left: one burger.
    fireEvent.click(screen.getByRole('button', { name: 'Refund' }));
    const again = await screen.findByRole('dialog');
    fireEvent.click(within(again).getByLabelText('By item'));
    const next = within(again).getByRole('button', { name: 'One more Burger to refund' }) as HTMLButtonElement;
    fireEvent.click(next);
    expect(next.disabled).toBe(true);
    const refreshed = await client.call('orders.get', { id: order.id });
    expect(refreshed.lines[0]?.refundedQuantity).toBe(1);
    expect(refreshed.refundedAmount).toBe(1200);
  });
});
