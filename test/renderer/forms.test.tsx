// @vitest-environment happy-dom
// Every money and number field, against a real core: a negative, non-numeric or out-of-range value
// is refused with a message next to the field (aria-describedby → role=alert) and nothing is saved.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PaymentDialog } from '../../renderer/components/PaymentDialog';
import { RefundDialog } from '../../renderer/components/RefundDialog';
import { MenuManager } from '../../renderer/screens/MenuManager';
import { Settings } from '../../renderer/screens/Settings';
import { ITEMS } from '../core/fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();

/** The message the field points at (aria-describedby), if it is an alert. */
function fieldError(input: HTMLElement): string | null {
  const id = input.getAttribute('aria-describedby');
  const note = id ? document.getElementById(id) : null;
  return note?.getAttribute('role') === 'alert' ? note.textContent : null;
}

describe('money and number fields refuse bad input next to the field and save nothing', () => {
  it('menu manager: a price of -5.00 is refused, not saved as $5.00', async () => {
    const client = await withCore();
    const menu = await client.call('menu.snapshot', {});
    renderWith(client, <MenuManager menu={menu} />);
    const row = document.querySelector(`tr[data-item-id="${ITEMS.burger}"]`) as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const price = screen.getByLabelText('Price');
    fireEvent.change(price, { target: { value: '-5.00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fieldError(price)).toBe('An amount cannot be negative.'));
    expect(price.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(price, { target: { value: '4.50 each' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fieldError(price)).toBe('Type the amount with digits and one decimal point, e.g. 4.50.'));
    expect((await client.call('menu.snapshot', {})).items.find((i) => i.id === ITEMS.burger)?.price).toBe(1200);
    expect(core().core.pendingOperations()).toBe(0);
  });

  it('settings: an offline limit of -20 is refused, with no "Settings saved."', async () => {
    const client = await withCore();
    renderWith(client, <Settings currency="usd" />);
    const limit = await screen.findByLabelText('Largest single payment without a manager');
    fireEvent.change(limit, { target: { value: '-20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save payments and till' }));
    await waitFor(() => expect(fieldError(limit)).toBe('An amount cannot be negative.'));
    expect(screen.queryByText('Settings saved.')).toBeNull();
    expect((await client.call('settings.get', {})).offlineLimits).toEqual({ perTransaction: 10_000, total: 100_000 });
  });

  it('settings: a webhook port that is not a whole number in 0..65535 is refused, not turned into 0', async () => {
    const client = await withCore();
    renderWith(client, <Settings currency="usd" />);
    const port = await screen.findByLabelText('Port (0 picks a free one)');
    for (const typed of ['80a', '-1', '70000']) {
      fireEvent.change(port, { target: { value: typed } });
      expect((port as HTMLInputElement).value).toBe(typed); // what was typed stays visible
      fireEvent.click(screen.getByRole('button', { name: 'Save connection' }));
      await waitFor(() => expect(fieldError(port)).toBe('Enter a whole number from 0 to 65535.'));
    }
    expect(screen.queryByText('Settings saved.')).toBeNull();
    expect((await client.call('settings.get', {})).webhook.port).toBe(0);
  });

  it('refund: an amount of -1.00 is refused, not refunded as $1.00', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    const paid = await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    const refunded: unknown[] = [];
    renderWith(client, <RefundDialog order={paid.order} onClose={() => undefined} onRefunded={(o) => refunded.push(o)} />);
    const amount = screen.getByLabelText(/Amount to give back/);
    fireEvent.change(amount, { target: { value: '-1.00' } });
    fireEvent.click(screen.getByTestId('confirm-refund'));
    await waitFor(() => expect(fieldError(amount)).toBe('An amount cannot be negative.'));
    fireEvent.change(amount, { target: { value: '12.01' } });
    fireEvent.click(screen.getByTestId('confirm-refund'));
    await waitFor(() => expect(fieldError(amount)).toBe('Enter an amount from $0.01 to $12.00.'));
    expect(refunded).toEqual([]);
    expect((await client.call('orders.get', { id: order.id })).refundedAmount).toBe(0);
  });

  it('payment: cash handed over of -20 is refused, not taken as $20.00 with change', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const paid: number[] = [];
    const { checkout } = await client.call('menu.snapshot', {});
    renderWith(client, <PaymentDialog order={order} checkout={checkout} onClose={() => undefined} onPaid={(_o, change) => paid.push(change)} />);
    fireEvent.click(screen.getByLabelText('Cash'));
    const tendered = screen.getByLabelText('Cash handed over');
    fireEvent.change(tendered, { target: { value: '-20' } });
    fireEvent.click(screen.getByTestId('confirm-payment'));
    await waitFor(() => expect(fieldError(tendered)).toBe('An amount cannot be negative.'));
    fireEvent.change(tendered, { target: { value: '4.00' } });
    fireEvent.click(screen.getByTestId('confirm-payment'));
    await waitFor(() => expect(fieldError(tendered)).toBe('Cash handed over must be at least $4.50.'));
    expect(paid).toEqual([]);
    expect((await client.call('orders.get', { id: order.id })).paidAmount).toBe(0);
  });
});
