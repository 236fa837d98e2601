// @vitest-environment happy-dom
// The orders screen against a real core: each order shows the one state a restaurant reads at a
// glance, and a refund is confirmed in words and badged on the list and on the order.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { clientOrderSchema } from '../../api/client-records';
import { orderRecord } from '../../sync/server-records';
import { ITEMS, LOCATION } from '../core/fixtures';
import { openRefund, orderRow, renderOrders } from './checkout-fixtures';
import { coreForEachTest } from './with-core';

const { start: withCore } = coreForEachTest();

const row = orderRow;
const badges = (element: HTMLElement) => [...element.querySelectorAll('.badge')].map((b) => b.textContent);

describe('Orders', () => {
  it('shows one state per order: Open · unpaid, Paid · in kitchen, Completed, Cancelled', async () => {
    const client = await withCore();
    const place = (customer: string) => client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], customer: { name: customer, phone: '' } });
    const unpaid = await place('Ada');
    const paid = await place('Grace');
    await client.call('payments.take', { orderId: paid.id, method: 'cash', amount: paid.total });
    const done = await place('Edsger');
    await client.call('payments.take', { orderId: done.id, method: 'cash', amount: done.total });
    await client.call('orders.fulfil', { id: done.id });
    const cancelled = await place('Barbara');
    await client.call('orders.cancel', { reason: 'Rung up by mistake', id: cancelled.id });
    await renderOrders(client);
    await waitFor(() => expect(row(cancelled.id)).toBeTruthy());
    // The state column only; the sync column has its own badge.
    const state = (id: string) => badges(row(id)).filter((text) => !/sync|Waiting|Synced|Refused/.test(text ?? ''));
    expect(state(unpaid.id)).toEqual(['Open · unpaid']);
    expect(state(paid.id)).toEqual(['Paid · in kitchen']);
    expect(state(done.id)).toEqual(['Completed']);
    expect(state(cancelled.id)).toEqual(['Cancelled']);
  });

  it('confirms a refund in words and badges the order "Partially refunded" in the list and on the order', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], customer: { name: 'Lin', phone: '' } });
    await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    const dialog = await openRefund(client, order.id);
    fireEvent.change(within(dialog).getByLabelText(/Amount to give back/), { target: { value: '2.00' } });
    fireEvent.click(within(dialog).getByTestId('confirm-refund'));
    await waitFor(() => expect(screen.getByTestId('order-notice').textContent).toBe('Refunded $2.00 in cash: hand it to the customer.'));
    expect(screen.getByTestId('order-notice').getAttribute('role')).toBe('status');
    await waitFor(() => expect(badges(row(order.id))).toContain('Partially refunded'));
    const detail = screen.getByRole('region', { name: 'Order details' });
    expect(badges(within(detail).getByRole('heading'))).toEqual(['Paid · in kitchen', 'Partially refunded']);
  });

  it("shows the cloud's own word for an order in a state this till does not know, and keeps it closed", async () => {
    const client = await withCore({}, (store) => {
      const voided = { id: 'ord_cloud', location_id: LOCATION, status: 'voided', currency: 'usd', total: 450, items: [{ menu_item_id: ITEMS.fries, name: 'Fries', quantity: 1, price: 450 }] };
      store.server.applyServerRecord('order', orderRecord(clientOrderSchema.parse(voided)));
    });
    const order = await client.call('orders.get', { id: 'ord_cloud' });
    expect(order).toMatchObject({ status: 'fulfilled', cloudStatus: 'voided' });
    await renderOrders(client);
    await waitFor(() => expect(row('ord_cloud')).toBeTruthy());
    expect(badges(row('ord_cloud'))).toContain('Cloud: voided');
    expect(badges(row('ord_cloud'))).not.toContain('Completed');
  });
});
