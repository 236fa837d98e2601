// @vitest-environment happy-dom
// Reopening a closed check from the Orders screen (docs/tables.md, "Reopening a closed check"), on
// a real core: the reason is asked (an empty one said next to its field, nothing sent), the check
// then reads "Reopened by …: reason"; items added open a linked check at its table, reached from the
// original, which reads "Reopened from #…" back.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { money } from '../../renderer/lib/format';
import { Reports } from '../../renderer/screens/Reports';
import { ITEMS, STAFF } from '../core/fixtures';
import { orderRow, renderOrders } from './checkout-fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();

describe('reopening a closed check on the Orders screen', () => {
  it('asks why, says the check is reopened, and puts added items on a linked check at its table', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: { type: 'dine_in', table: '9', guests: 2 } });
    await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    await client.call('orders.fulfil', { id: order.id });
    await renderOrders(client);
    await waitFor(() => expect(orderRow(order.id)).toBeTruthy());
    fireEvent.click(within(orderRow(order.id)).getByRole('button'));
    const detail = within(screen.getByRole('region', { name: 'Order details' }));

    fireEvent.click(detail.getByRole('button', { name: 'Reopen…' }));
    let dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('button', { name: 'Reopen' }));
    const reason = dialog.getByLabelText('Why is it reopened?');
    await waitFor(() => expect(document.getElementById(reason.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/Say why the check is reopened/));
    expect((await core().call('orders.get', { id: order.id })).reopened).toBeNull();
    fireEvent.change(reason, { target: { value: 'Forgot the dessert' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Reopen' }));
    await waitFor(() => expect(screen.getByTestId('order-notice').textContent).toMatch(/is reopened/));
    await waitFor(() => expect(screen.getByTestId('order-reopened').textContent).toBe(`Reopened by ${STAFF.owner.name}: Forgot the dessert · nothing added yet`));

    fireEvent.click(detail.getByRole('button', { name: 'Add items…' }));
    dialog = within(await screen.findByRole('dialog'));
    await waitFor(() => expect(dialog.getByRole('option', { name: /Soup of the day/ })).toBeTruthy());
    fireEvent.change(dialog.getByLabelText('Item'), { target: { value: ITEMS.soup } });
    fireEvent.change(dialog.getByLabelText('How many'), { target: { value: '2' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    expect(dialog.getByRole('list', { name: 'To add' }).textContent).toBe('2 × Soup of the day');
    fireEvent.click(dialog.getByRole('button', { name: 'Open the check' }));
    await waitFor(() => expect(screen.getByTestId('order-notice').textContent).toMatch(/on a new check at table 9/));

    const linked = (await core().call('orders.get', { id: order.id })).reopened!.linked!;
    await waitFor(() => expect(screen.getByTestId('order-reopened').textContent).toMatch(new RegExp(`added on ${linked.label}$`)));
    fireEvent.click(within(screen.getByTestId('order-reopened')).getByRole('button', { name: linked.label }));
    await waitFor(() => expect(screen.getByTestId('order-reopen-of').textContent).toBe(`Reopened from #${order.label}`));
    expect((await core().call('orders.get', { id: linked.id })).lines.map((l) => [l.name, l.quantity])).toEqual([['Soup of the day', 2]]);
  });

  it('lists the reopened check on the day’s report: what was added on its linked check and refunded since', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }, { menuItemId: ITEMS.fries, quantity: 1 }], service: { type: 'dine_in', table: '9', guests: 2 } });
    await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    await client.call('orders.fulfil', { id: order.id });
    const reopened = await client.call('orders.reopen', { id: order.id, reason: 'Forgot the dessert', lines: [{ menuItemId: ITEMS.soup, quantity: 1 }] });
    const linked = await client.call('orders.get', { id: reopened.reopened!.linked!.id });
    await client.call('payments.take', { orderId: linked.id, method: 'cash', amount: linked.total });
    await client.call('orders.fulfil', { id: linked.id });
    await client.call('payments.refundItems', { orderId: order.id, items: [{ lineIndex: 1, quantity: 1 }], reason: 'requested_by_customer' });

    renderWith(client, <Reports />);
    await screen.findByRole('article', { name: /^End-of-day report/ });
    const rows = [...screen.getByTestId('report-reopened').querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));
    expect(rows).toEqual([[order.label, linked.label, STAFF.owner.name, '—', 'Forgot the dessert', money(700, 'usd'), money(450, 'usd')]]);
    expect(screen.getByTestId('report-reopened').querySelector('tfoot')?.textContent).toBe(`1 reopened${money(700, 'usd')}${money(450, 'usd')}`);
  });
});
