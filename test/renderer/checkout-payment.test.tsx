// @vitest-environment happy-dom
// The payment dialog's checkout against a real core: the balance due always shown; tip buttons
// computed on the amount paid and said on the charge line (cash is "Take … cash"); a bill split
// evenly or by items, saved on the order as it is chosen (a reopened dialog lists the parts, paid
// or not), never charged whole while a split is on screen, and paid part by part in card and
// cash; "Whole bill" removes the split; and several payments on one order without a split.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Order, Payment } from '../../bridge/contract';
import { PaymentDialog } from '../../renderer/components/PaymentDialog';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { BridgeContext } from '../../renderer/lib/hooks';
import { ITEMS } from '../core/fixtures';
import { CHECKOUT_CONFIG, fieldError } from './checkout-fixtures';
import { coreForEachTest } from './with-core';

const { start: withCore } = coreForEachTest();

async function openPayment(client: BridgeClient, order: Order) {
  const { checkout } = await client.call('menu.snapshot', {});
  const paid: { order: Order; change: number; payment: Payment }[] = [];
  const closed: Order[] = [];
  render(
    <BridgeContext.Provider value={client}>
      <PaymentDialog order={order} checkout={checkout} onPaid={(o, change, payment) => paid.push({ order: o, change, payment })} onClose={(o) => closed.push(o)} />
    </BridgeContext.Provider>,
  );
  return { paid, closed, dialog: screen.getByRole('dialog') };
}

const charge = () => screen.getByTestId('confirm-payment');
const parts = () => screen.getAllByTestId('split-part').map((part) => part.textContent);

describe('payment dialog checkout', () => {
  it('offers tips computed on the amount paid, says them on the charge line, and records the tip on the card payment', async () => {
    const client = await withCore(CHECKOUT_CONFIG);
    // Fries 4.50 + 8.875% tax = 4.90.
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const { paid } = await openPayment(client, order);
    expect(screen.getByTestId('balance-due').textContent).toBe('Due $4.90');
    const tips = within(screen.getByRole('group', { name: 'Tip' }));
    expect(tips.getAllByRole('radio').map((radio) => radio.parentElement?.textContent)).toEqual(['No tip', '15% · $0.74', '18% · $0.88', '20% · $0.98', 'Other amount']);
    expect(charge().textContent).toMatch(/^Charge \$4\.90/);
    fireEvent.click(tips.getByLabelText('18% · $0.88'));
    expect(charge().textContent).toMatch(/^Charge \$5\.78 \(incl\. \$0\.88 tip\)/);
    fireEvent.click(tips.getByLabelText('Other amount'));
    const custom = screen.getByLabelText('Tip amount');
    fireEvent.change(custom, { target: { value: '-1' } });
    fireEvent.click(charge());
    expect(fieldError(custom)).toBe('An amount cannot be negative.');
    fireEvent.change(custom, { target: { value: '1.10' } });
    expect(charge().textContent).toMatch(/^Charge \$6\.00 \(incl\. \$1\.10 tip\)/);
    // Cash takes no tip here (cash tips are off): the picker goes and the cash asked for is the balance.
    fireEvent.click(screen.getByLabelText('Cash'));
    expect(screen.queryByRole('group', { name: 'Tip' })).toBeNull();
    expect(charge().textContent).toMatch(/^Take \$4\.90 cash/);
    fireEvent.click(screen.getByLabelText('Card'));
    fireEvent.click(charge());
    await waitFor(() => expect(paid).toHaveLength(1));
    expect(paid[0]?.payment).toMatchObject({ method: 'card', amount: 490, tip: 110 });
    expect(paid[0]?.order).toMatchObject({ paidAmount: 490, tipTotal: 110 });
  });

  it('takes a cash tip where cash tips are on: the cash asked for and the change include it', async () => {
    const client = await withCore({ ...CHECKOUT_CONFIG, checkout: { cashTips: true } });
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const { paid } = await openPayment(client, order);
    fireEvent.click(screen.getByLabelText('Cash'));
    fireEvent.click(within(screen.getByRole('group', { name: 'Tip' })).getByLabelText('20% · $0.98'));
    expect((screen.getByLabelText('Cash handed over') as HTMLInputElement).value).toBe('5.88');
    fireEvent.change(screen.getByLabelText('Cash handed over'), { target: { value: '10' } });
    expect(screen.getByText('$4.12')).toBeTruthy();
    expect(charge().textContent).toMatch(/^Take \$5\.88 cash \(incl\. \$0\.98 tip\)/);
    fireEvent.click(charge());
    await waitFor(() => expect(paid).toHaveLength(1));
    expect(paid[0]).toMatchObject({ change: 412, payment: { method: 'cash', amount: 490, tip: 98 } });
  });

  it('saves an even split as it is chosen, never charges the whole bill under it, and takes the parts one at a time by card and cash', async () => {
    const client = await withCore();
    // Fries 4.50 + soup 7.00 = 11.50: three ways is 3.84, 3.83, 3.83.
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }, { menuItemId: ITEMS.soup, quantity: 1 }] });
    const first = await openPayment(client, order);
    fireEvent.click(screen.getByLabelText('Split evenly'));
    fireEvent.click(screen.getByRole('button', { name: 'More ways' }));
    expect(screen.getByRole('group', { name: 'Ways' }).textContent).toMatch(/3 ways/);
    // At once, before any save has landed: no amount field for the whole bill, and Enter charges nothing.
    expect(screen.queryByLabelText(/Paying now/)).toBeNull();
    expect(charge().textContent).not.toMatch(/\$11\.50/);
    fireEvent.submit(charge().closest('form')!);
    // Saved with nothing pressed: the parts, the first one picked, the Charge button for it.
    await waitFor(() => expect(parts()).toEqual(['1 of 3$3.84Unpaid', '2 of 3$3.83Unpaid', '3 of 3$3.83Unpaid']));
    expect((await client.call('orders.get', { id: order.id })).split?.plan).toEqual({ kind: 'even', parts: 3 });
    expect((await client.call('orders.get', { id: order.id })).paidAmount).toBe(0); // the Enter above took nothing
    expect((charge() as HTMLButtonElement).disabled).toBe(false);
    expect(charge().textContent).toMatch(/^Charge \$3\.84/);
    fireEvent.submit(charge().closest('form')!); // Enter: the part picked, not the bill
    await waitFor(() => expect(screen.getByTestId('payment-news').textContent).toBe('Paid 1 of 3: $3.84. $7.66 still due.'));
    expect(parts()).toEqual(['1 of 3$3.84Paid', '2 of 3$3.83Unpaid', '3 of 3$3.83Unpaid']);
    expect(screen.getByTestId('balance-due').textContent).toBe('Due $7.66 of $11.50');
    // Closed and opened again (as after a restart): the parts come from the order.
    fireEvent.click(screen.getByRole('button', { name: 'Not now — keep it open, $7.66 due' }));
    expect(first.closed.map((o) => o.paidAmount)).toEqual([384]);
    cleanup();
    const second = await openPayment(client, await client.call('orders.get', { id: order.id }));
    expect(parts()).toEqual(['1 of 3$3.84Paid', '2 of 3$3.83Unpaid', '3 of 3$3.83Unpaid']);
    expect((screen.getByLabelText('Split evenly') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('group', { name: 'Ways' })).toBeNull(); // a part is paid: the split stays
    fireEvent.click(screen.getByLabelText('Cash'));
    expect(charge().textContent).toMatch(/^Take \$3\.83 cash/);
    fireEvent.change(screen.getByLabelText('Cash handed over'), { target: { value: '5' } });
    fireEvent.click(charge());
    await waitFor(() => expect(screen.getByTestId('payment-news').textContent).toBe('Paid 2 of 3: $3.83. Give $1.17 change. $3.83 still due.'));
    fireEvent.click(screen.getByLabelText('Card'));
    fireEvent.click(charge());
    await waitFor(() => expect(second.paid).toHaveLength(1));
    const done = second.paid[0]?.order;
    expect(done?.split?.parts.map((p) => p.paid)).toEqual([true, true, true]);
    expect(done?.payments.map((p) => [p.method, p.amount, p.splitPart])).toEqual([
      ['card', 384, '1 of 3'],
      ['cash', 383, '2 of 3'],
      ['card', 383, '3 of 3'],
    ]);
  });

  it('saves the newest of quick changes to the split, and "Whole bill" removes it', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }, { menuItemId: ITEMS.soup, quantity: 1 }] });
    await openPayment(client, order);
    fireEvent.click(screen.getByLabelText('Split evenly'));
    for (let n = 0; n < 3; n++) fireEvent.click(screen.getByRole('button', { name: 'More ways' }));
    fireEvent.click(screen.getByRole('button', { name: 'Fewer ways' }));
    await waitFor(() => expect(parts()).toEqual(['1 of 4$2.88Unpaid', '2 of 4$2.88Unpaid', '3 of 4$2.87Unpaid', '4 of 4$2.87Unpaid']));
    expect((await client.call('orders.get', { id: order.id })).split?.plan).toEqual({ kind: 'even', parts: 4 });
    fireEvent.click(screen.getByLabelText('Whole bill'));
    expect(screen.queryAllByTestId('split-part')).toEqual([]);
    await waitFor(() => expect(screen.getByLabelText('Paying now (up to $11.50)')).toBeTruthy());
    expect((await client.call('orders.get', { id: order.id })).split).toBeNull();
    expect(charge().textContent).toMatch(/^Charge \$11\.50/);
  });

  it('splits by items: each line tapped or keyed onto its check, and pays the check picked', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 1 },
        { menuItemId: ITEMS.fries, quantity: 1 },
        { menuItemId: ITEMS.soup, quantity: 1 },
      ],
    });
    const { paid } = await openPayment(client, order);
    fireEvent.click(screen.getByLabelText('By items'));
    // Every item on check 1: an unfinished split, not saved and nothing to charge.
    expect(screen.getByText('Check 2 of 2 has no items: move an item to it or split into fewer checks.')).toBeTruthy();
    expect((charge() as HTMLButtonElement).disabled).toBe(true);
    expect(charge().textContent).toBe('Finish the split to charge');
    expect(screen.queryByLabelText(/Paying now/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '1 × Fries: check 1 of 2' })); // a tap: the next check
    fireEvent.keyDown(screen.getByRole('button', { name: '1 × Soup of the day: check 1 of 2' }), { key: '2' });
    expect(within(screen.getByTestId('split-preview')).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['1 of 2 $12.00', '2 of 2 $11.50']);
    await waitFor(() => expect(parts()).toEqual(['1 of 2$12.00Unpaid', '2 of 2$11.50Unpaid']));
    fireEvent.keyDown(screen.getByRole('button', { name: '1 × Soup of the day: check 2 of 2' }), { key: 'ArrowLeft' });
    expect(screen.getByRole('button', { name: '1 × Soup of the day: check 1 of 2' })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('button', { name: '1 × Soup of the day: check 1 of 2' }), { key: 'ArrowRight' });
    await waitFor(() => expect(parts()).toEqual(['1 of 2$12.00Unpaid', '2 of 2$11.50Unpaid']));
    fireEvent.click(screen.getByLabelText(/^2 of 2/));
    expect(charge().textContent).toMatch(/^Charge \$11\.50/);
    fireEvent.click(charge());
    await waitFor(() => expect(parts()).toEqual(['1 of 2$12.00Unpaid', '2 of 2$11.50Paid']));
    expect(charge().textContent).toMatch(/^Charge \$12\.00/);
    expect(paid).toEqual([]);
    expect((await client.call('orders.get', { id: order.id })).split?.plan).toEqual({ kind: 'items', assignment: [1, 2, 2] });
  });

  it('takes several payments on one order without a split: part cash, the rest by card', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    const { paid } = await openPayment(client, order);
    const amount = screen.getByLabelText('Paying now (up to $12.00)');
    fireEvent.change(amount, { target: { value: '12.01' } });
    fireEvent.click(charge());
    expect(fieldError(amount)).toBe('Enter an amount from $0.01 to $12.00.');
    fireEvent.change(amount, { target: { value: '5' } });
    fireEvent.click(screen.getByLabelText('Cash'));
    expect((screen.getByLabelText('Cash handed over') as HTMLInputElement).value).toBe('5.00');
    fireEvent.click(charge());
    await waitFor(() => expect(screen.getByTestId('payment-news').textContent).toBe('Paid $5.00. $7.00 still due.'));
    expect((screen.getByLabelText('Paying now (up to $7.00)') as HTMLInputElement).value).toBe('7.00');
    fireEvent.click(screen.getByLabelText('Card'));
    fireEvent.click(charge());
    await waitFor(() => expect(paid).toHaveLength(1));
    expect(paid[0]?.order.payments.map((p) => [p.method, p.amount])).toEqual([
      ['cash', 500],
      ['card', 700],
    ]);
  });
});
