// @vitest-environment happy-dom
// The orders screen's checkout against a real core: each row leads with the order's number and
// says how it is served; the search finds an order by its number; a refund by item steps units up
// to what is left, says what it gives back in cash and to the card (as the core then does it),
// asks once in words with the mode held, and badges the order; each payment says its refunds;
// the order's discount is a row of its own, each line's under its line.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ITEMS } from '../core/fixtures';
import { openRefund, orderRow, renderOrders } from './checkout-fixtures';
import { payByCardInTheCloud, placeBurgersAndFries } from './order-fixtures';
import { coreForEachTest } from './with-core';

const { start: withCore, core } = coreForEachTest();

const row = orderRow;
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
    const order = await placeBurgersAndFries(client);
    await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    const dialog = await openRefund(client, order.id);
    expect(within(dialog).getByRole('heading').textContent).toBe('Refund · Order A1');
    fireEvent.click(within(dialog).getByLabelText('By item'));
    const more = within(dialog).getByRole('button', { name: 'One more Burger to refund' }) as HTMLButtonElement;
    fireEvent.click(more);
    fireEvent.click(more);
    expect(more.disabled).toBe(true); // both burgers: no third
    fireEvent.click(within(dialog).getByRole('button', { name: 'One less Burger to refund' }));
    expect(within(dialog).getByTestId('refund-items-amount').textContent).toBe('Gives back $12.00 in cash.');
    fireEvent.click(within(dialog).getByTestId('refund-items'));
    expect(within(dialog).getByTestId('refund-question').textContent).toBe('Refund 1 item, $12.00 in cash to hand back.');
    expect((await client.call('orders.get', { id: order.id })).refundedAmount).toBe(0); // asked, not done
    fireEvent.click(within(dialog).getByTestId('confirm-refund-items'));
    await waitFor(() => expect(screen.getByTestId('order-notice').textContent).toBe('Refunded 1 item, $12.00 in cash to hand back.'));
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

  it('says before and after a refund by item how much goes back in cash and to the card, holds the mode while asking, and shows each payment\'s refund', async () => {
    const client = await withCore();
    // Burgers 2 × 12.00 + fries 4.50 = 28.50: a card pays 20.00 (+ 3.00 tip), then cash the 8.50 left.
    const order = await placeBurgersAndFries(client);
    // With the cloud's record of the card payment, as a pull brings it: a card is refunded through it.
    await payByCardInTheCloud(client, core().dataDir, order.id, 2000, 300);
    await client.call('payments.take', { orderId: order.id, method: 'cash', amount: 850 });
    await renderOrders(client);
    await waitFor(() => expect(row(order.id)).toBeTruthy());
    fireEvent.click(within(row(order.id)).getByRole('button'));
    await screen.findByRole('button', { name: 'Refund' });
    expect(screen.getAllByTestId('payment-line').map((li) => li.textContent)).toEqual([expect.stringMatching(/^Card \$20\.00 \+ \$3\.00 tip · [^$]*$/), 'Cash $8.50 · captured']);
    fireEvent.click(screen.getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('By item'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'One more Burger to refund' }));
    // The newest payment first: all the cash (8.50), the rest (3.50) from the card, its tip untouched.
    expect(within(dialog).getByTestId('refund-items-amount').textContent).toBe('Gives back $12.00: $8.50 in cash and $3.50 to the card.');
    fireEvent.click(within(dialog).getByTestId('refund-items'));
    expect(within(dialog).getByTestId('refund-question').textContent).toBe('Refund 1 item, $12.00: $8.50 in cash to hand back and $3.50 to the card.');
    const modes = ['By amount', 'By item'].map((mode) => within(dialog).getByLabelText(mode) as HTMLInputElement);
    expect(modes.map((radio) => radio.disabled)).toEqual([true, true]); // the question cannot be switched away under the cashier
    fireEvent.click(within(dialog).getByRole('button', { name: 'No, go back' }));
    expect(modes.map((radio) => radio.disabled)).toEqual([false, false]);
    fireEvent.click(within(dialog).getByTestId('refund-items'));
    fireEvent.click(within(dialog).getByTestId('confirm-refund-items'));
    await waitFor(() => expect(screen.getByTestId('order-notice').textContent).toBe('Refunded 1 item, $12.00: $8.50 in cash to hand back and $3.50 to the card.'));
    // What the core did is what was said.
    const refunded = await client.call('orders.get', { id: order.id });
    expect(refunded.payments.map((p) => [p.method, p.refundedAmount])).toEqual([
      ['card', 350],
      ['cash', 850],
    ]);
    await waitFor(() =>
      expect(screen.getAllByTestId('payment-line').map((li) => li.textContent)).toEqual([
        expect.stringMatching(/^Card \$20\.00 \+ \$3\.00 tip · .* · \$3\.50 refunded$/),
        'Cash $8.50 · captured · $8.50 refunded',
      ]),
    );
  });

  it('shows the order discount as a row of its own and each line discount under its line', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 1 },
        { menuItemId: ITEMS.fries, quantity: 1, discount: { kind: 'amount', value: 50, reason: 'Staff meal' } },
      ],
      discount: { kind: 'percent', value: 1000, reason: 'Loyalty' },
    });
    await renderOrders(client);
    await waitFor(() => expect(row(order.id)).toBeTruthy());
    fireEvent.click(within(row(order.id)).getByRole('button'));
    const detail = screen.getByRole('region', { name: 'Order details' });
    await waitFor(() => expect(within(detail).getByTestId('order-total')).toBeTruthy());
    // Burger 12.00 + fries 4.50 − 0.50; 10% off the 16.00 left is 1.60.
    expect(detail.querySelector('.detail-lines li:nth-child(2) .line-discount')?.textContent).toBe('$0.50 off · Staff meal −$0.50');
    const rows = [...detail.querySelectorAll('.check-row')].map((r) => [r.querySelector('dt')?.textContent, r.querySelector('dd')?.textContent]);
    expect(rows).toEqual([
      ['Subtotal', '$16.50'],
      ['Item discounts', '−$0.50'],
      ['10% off · Loyalty', '−$1.60'],
      ['Total', '$14.40'],
    ]);
  });
});
