// @vitest-environment happy-dom
// Issue 24, items 1–2 on screen, against a real core: an order with money due offers no "Mark
// completed" (payment first), and the Z report shows open checks and walkouts apart from the sales,
// and each shift's cash on its own line.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { money } from '../../renderer/lib/format';
import { Reports } from '../../renderer/screens/Reports';
import { ITEMS, STAFF } from '../core/fixtures';
import { orderRow, renderOrders } from './checkout-fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore } = coreForEachTest();
const usd = (amount: number) => money(amount, 'usd');
const rowsOf = (testId: string) => [...screen.getByTestId(testId).querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));

describe('an order with money due', () => {
  it('offers "Take payment", not "Mark completed"; once paid it can be completed', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    await renderOrders(client);
    await waitFor(() => expect(orderRow(order.id)).toBeTruthy());
    fireEvent.click(within(orderRow(order.id)).getByRole('button'));
    await screen.findByRole('button', { name: 'Take payment' });
    expect(screen.queryByRole('button', { name: 'Mark completed' })).toBeNull();

    await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    await screen.findByRole('button', { name: 'Mark completed' });
    expect(screen.queryByRole('button', { name: 'Take payment' })).toBeNull();
  });
});

describe('the Z report on screen', () => {
  it('lists open checks and walkouts apart from the sales, and each shift on its own line', async () => {
    const client = await withCore({}, undefined, { openShift: false });
    await client.call('shift.open', { count: [{ value: 2000, count: 5 }] });
    const sold = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await client.call('payments.take', { orderId: sold.id, method: 'cash', amount: sold.total });
    const open = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 1 }] });
    const gone = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    await client.call('orders.fulfil', { id: gone.id, walkout: { reason: 'left without paying' } });

    renderWith(client, <Reports />);
    await screen.findByRole('article', { name: /^End-of-day report/ });
    expect(screen.getByTestId('report-sales').querySelector('tfoot')?.textContent).toBe(`Total${usd(sold.total)}`);
    expect(rowsOf('report-open-checks')).toEqual([[open.label, STAFF.owner.name, usd(open.total), usd(0), usd(open.total)]]);
    expect(rowsOf('report-walkouts')).toEqual([[gone.label, STAFF.owner.name, '—', 'left without paying', usd(gone.total), usd(0), usd(gone.total)]]);
    const [shift] = rowsOf('report-shifts');
    expect(shift?.[1]).toMatch(/Still open$/);
    expect(shift?.slice(2)).toEqual(['$100.00', usd(sold.total), '$0.00', '$0.00', '$0.00', '$0.00', 'At close', '—', '—']);
    expect(rowsOf('report-cash').find((row) => row[0] === 'Open shifts, not counted yet (below)')?.[1]).toBe('1');
    expect(screen.queryByTestId('report-unreadable')).toBeNull();
  });
});
