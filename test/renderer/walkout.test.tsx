// @vitest-environment happy-dom
// Closing a check unpaid from the Orders screen (issue 24, item 1): "Mark completed" is not offered
// while money is due; "Close unpaid…" asks for a reason (refused next to its field when empty) and,
// for a cashier, a manager's PIN; the order is then closed and the day's report lists the walkout
// apart from the sales.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SessionProvider } from '../../renderer/lib/session';
import { Orders } from '../../renderer/screens/Orders';
import { ITEMS, STAFF } from '../core/fixtures';
import { orderRow } from './checkout-fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();

describe('a walkout', () => {
  it('is offered instead of "Mark completed" while money is due, needs a reason and a manager, and lands on the report apart from the sales', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'cashier' });
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], customer: { name: 'Gone', phone: '' } });
    const { checkout } = await client.call('menu.snapshot', {});
    renderWith(
      client,
      <SessionProvider>
        <Orders onEdit={() => undefined} checkout={checkout} />
      </SessionProvider>,
    );
    await waitFor(() => expect(orderRow(order.id)).toBeTruthy());
    fireEvent.click(within(orderRow(order.id)).getByRole('button'));
    const closeUnpaid = await screen.findByRole('button', { name: 'Close unpaid…' });
    expect(screen.queryByRole('button', { name: 'Mark completed' })).toBeNull();
    fireEvent.click(closeUnpaid);
    const dialog = within(await screen.findByRole('dialog'));
    const reason = dialog.getByLabelText('Why is it closed unpaid?');
    const pin = await dialog.findByLabelText(/PIN/);
    fireEvent.change(pin, { target: { value: STAFF.manager.pin } });
    fireEvent.click(dialog.getByRole('button', { name: 'Close unpaid' }));
    const refusal = document.getElementById(reason.getAttribute('aria-describedby') ?? '');
    expect(refusal?.textContent).toMatch(/^Say why it is closed unpaid/);
    expect((await core().call('orders.get', { id: order.id })).status).toBe('open');

    fireEvent.change(reason, { target: { value: 'left without paying' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Close unpaid' }));
    expect((await screen.findByTestId('order-notice')).textContent).toBe(`Order ${order.label} closed unpaid: a walkout on the day's report.`);
    expect((await core().call('orders.get', { id: order.id })).status).toBe('fulfilled');
    await core().call('staff.signIn', { pin: STAFF.manager.pin });
    const report = await core().call('reports.z', {});
    expect(report.walkouts.orders).toEqual([expect.objectContaining({ orderId: order.id, reason: 'left without paying', unpaid: order.total, approvedBy: expect.objectContaining({ name: STAFF.manager.name }) })]);
  });
});
