// @vitest-environment happy-dom
// The automatic gratuity on screen against a real core: the register's check shows it under the
// total for a party at the threshold and not one guest below; on Orders the check carries it, and
// a manager takes it off with a reason (a cashier is asked for a manager's PIN).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyTicket, type Ticket } from '../../renderer/lib/ticket';
import { ITEMS, STAFF } from '../core/fixtures';
import { orderRow, renderOrders, renderRegister } from './checkout-fixtures';
import { coreForEachTest } from './with-core';

const { start: withCore } = coreForEachTest();
const CONFIG = { checkout: { autoGratuityGuests: 8, autoGratuityPercent: 18 } } as never;

const partyTicket = (guests: string): Ticket => ({
  ...emptyTicket,
  lines: [{ key: 'l1', menuItemId: ITEMS.burger, quantity: 8, modifierIds: [], note: '', discount: null }],
  service: { type: 'dine_in', table: '12', guests },
});

describe('automatic gratuity on screen', () => {
  it('is under the register check of a party of 8, with what it comes to, and not for 7', async () => {
    const client = await withCore(CONFIG);
    await renderRegister(client, partyTicket('8'));
    const row = await screen.findByTestId('check-gratuity');
    expect(row.textContent).toBe('Gratuity 18% (8+ guests) with the payments+$17.28');
  });

  it('is not under the register check of a party of 7', async () => {
    const client = await withCore(CONFIG);
    await renderRegister(client, partyTicket('7'));
    await screen.findByTestId('ticket-total');
    expect(screen.queryByTestId('check-gratuity')).toBeNull();
  });

  it("comes off an order's check on Orders with a manager's PIN and a reason, and says who and why", async () => {
    const client = await withCore(CONFIG, undefined, { signIn: 'cashier' });
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 8 }], service: { type: 'dine_in', table: '12', guests: 8 } });
    await renderOrders(client);
    await waitFor(() => expect(orderRow(order.id)).toBeTruthy());
    fireEvent.click(within(orderRow(order.id)).getByRole('button'));
    const detail = screen.getByRole('region', { name: 'Order details' });
    expect(within(detail).getByTestId('check-gratuity').textContent).toContain('+$17.28');
    fireEvent.click(within(detail).getByRole('button', { name: 'Take the gratuity off…' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/PIN/), { target: { value: STAFF.manager.pin } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take it off' }));
    expect(within(dialog).getByText(/Say why the gratuity comes off/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Why does it come off?'), { target: { value: 'They tip themselves' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take it off' }));
    await waitFor(() => expect(screen.getByTestId('order-notice').textContent).toBe(`The gratuity is off order ${order.label}.`));
    await waitFor(() => expect(within(detail).getByTestId('check-gratuity').textContent).toContain('taken off by Max Manager: They tip themselves'));
    expect((await client.call('orders.get', { id: order.id })).gratuity?.removed?.reason).toBe('They tip themselves');
  });
});
