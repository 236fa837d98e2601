// @vitest-environment happy-dom
// The register's ticket and its Charge button against a real core: the quantity limit is said,
// an order already part paid charges its balance, and "Not now" says the order stays open, unpaid.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { MenuSnapshot } from '../../bridge/contract';
import { type BridgeClient } from '../../renderer/lib/bridge-client';
import { BridgeContext } from '../../renderer/lib/hooks';
import { emptyTicket, ticketFromOrder, type Ticket } from '../../renderer/lib/ticket';
import { Register } from '../../renderer/screens/Register';
import { ITEMS } from '../core/fixtures';
import { coreForEachTest } from './with-core';

const { start: withCore } = coreForEachTest();

function RegisterWith({ menu, initial }: { menu: MenuSnapshot; initial: Ticket }) {
  const [ticket, setTicket] = useState(initial);
  return <Register menu={menu} ticket={ticket} setTicket={(update) => setTicket(update)} order={null} active />;
}

function renderRegister(client: BridgeClient, menu: MenuSnapshot, initial: Ticket = emptyTicket) {
  return render(
    <BridgeContext.Provider value={client}>
      <RegisterWith menu={menu} initial={initial} />
    </BridgeContext.Provider>,
  );
}

describe('Register', () => {
  it('says so when a line reaches the 999 limit, and stays there whether + or the tile is tapped', async () => {
    const client = await withCore();
    const menu = await client.call('menu.snapshot', {});
    const line = { key: 'line-burgers', menuItemId: ITEMS.burger, quantity: 998, modifierIds: [], note: '', discount: null };
    renderRegister(client, menu, { ...emptyTicket, lines: [line], selectedKey: line.key });
    expect(screen.queryByText(/999 is the most/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'One more Burger' }));
    fireEvent.click(screen.getByRole('button', { name: 'One more Burger' }));
    fireEvent.click(document.querySelector(`.menu-grid .tile[data-item-id="${ITEMS.burger}"]`) as HTMLElement);
    expect(screen.getByLabelText('quantity').textContent).toBe('999');
    const limit = screen.getByText('999 is the most one line can hold.');
    expect(limit.getAttribute('role')).toBe('status');
    fireEvent.click(screen.getByRole('button', { name: 'One less Burger' }));
    expect(screen.queryByText(/999 is the most/)).toBeNull();
  });

  it('charges the balance due when editing an order already part paid ($55.00 of $64.50 → $9.50)', async () => {
    const client = await withCore();
    const setMenu = await client.call('menu.createItem', { name: 'Set menu for four', price: 6450, categoryId: 'cat_mains' });
    const order = await client.call('orders.place', { lines: [{ menuItemId: setMenu.id, quantity: 1 }] });
    const paid = await client.call('payments.take', { orderId: order.id, method: 'cash', amount: 5500 });
    const menu = await client.call('menu.snapshot', {});
    renderRegister(client, menu, ticketFromOrder(paid.order));
    const charge = screen.getByTestId('charge');
    expect(charge.textContent).toMatch(/^Charge \$9\.50/);
    expect(screen.getByTestId('ticket-paid').textContent).toBe('Paid $55.00 · due $9.50');
    fireEvent.click(charge);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Take payment · $9.50');
    expect(within(dialog).getByTestId('confirm-payment').textContent).toMatch(/^Charge \$9\.50/);
  });

  it('"Not now" says the order stays open and unpaid, and it does', async () => {
    const client = await withCore();
    const menu = await client.call('menu.snapshot', {});
    renderRegister(client, menu);
    fireEvent.click(document.querySelector(`.menu-grid .tile[data-item-id="${ITEMS.fries}"]`) as HTMLElement);
    fireEvent.click(screen.getByTestId('charge'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now — keep it open, unpaid' }));
    const [order] = await client.call('orders.list', {});
    expect(order).toMatchObject({ status: 'open', displayState: 'open_unpaid', paidAmount: 0 });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(`Order ${order?.label} kept open, unpaid: it is in Orders as “Open · unpaid”. Take payment there when ready.`));
    expect(screen.getByTestId('last-order-facts').textContent).toBe('Takeout · unpaid · $4.50 due');
  });
});
