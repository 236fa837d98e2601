// @vitest-environment happy-dom
// The payment dialog against a real core with no connection: above the offline card limit a
// cashier is asked for a manager's PIN (why, said next to the field), a wrong one refused there and
// cleared (the offline limit then the dialog's message, apart from the PIN's refusal), and with the right one the card payment is stored offline; the PIN goes with that payment
// only, so the next part of a split bill asks for it again.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order, Payment } from '../../bridge/contract';
import { hashManagerPin } from '../../main/config/manager-pin';
import { PaymentDialog } from '../../renderer/components/PaymentDialog';
import { createBridgeClient } from '../../renderer/lib/bridge-client';
import { BridgeContext } from '../../renderer/lib/hooks';
import { ITEMS, startTestCore, type TestCore } from '../core/fixtures';
import { fieldError } from './checkout-fixtures';

let t: TestCore;
afterEach(async () => {
  cleanup();
  await t?.core.shutdown();
});

describe('PaymentDialog', () => {
  it('asks a cashier for a manager PIN above the offline limit and then stores the card payment', async () => {
    t = await startTestCore({ offlinePayments: { perTransaction: 1000, total: 5000, managerPinHash: hashManagerPin('8642') } }, {}, undefined, { signIn: 'cashier' });
    const client = createBridgeClient({ invoke: (request) => t.core.invoke(request), onEvent: (listener) => t.core.subscribe(listener) });
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    const paid: { order: Order; payment: Payment }[] = [];
    const { checkout } = await client.call('menu.snapshot', {});
    render(
      <BridgeContext.Provider value={client}>
        <PaymentDialog order={order} checkout={checkout} onClose={() => undefined} onPaid={(o, _change, payment) => paid.push({ order: o, payment })} />
      </BridgeContext.Provider>,
    );
    fireEvent.click(screen.getByTestId('confirm-payment'));
    // Why a manager is needed is said next to the PIN field, which points at it for a screen reader.
    const pin = (await screen.findByLabelText('Manager PIN to approve')) as HTMLInputElement;
    expect(fieldError(pin)).toMatch(/offline.*above the \$10\.00 limit.*needs a manager/);
    expect(pin.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    fireEvent.change(pin, { target: { value: '1111' } });
    fireEvent.click(screen.getByTestId('confirm-payment'));
    // A refused PIN is said next to the field and cleared: never left to be sent again.
    await waitFor(() => expect(fieldError(pin)).toMatch(/not right/));
    expect(pin.value).toBe('');
    expect(paid).toEqual([]);
    // Two refusals, each where it belongs, neither lost: the PIN's next to the field, the offline limit as the dialog's message.
    expect(fieldError(pin)).toBe('That PIN is not right. An offline card payment above the limits needs a manager. Nothing was changed.');
    const message = [...document.querySelectorAll('[role="alert"]')].filter((alert) => !alert.classList.contains('field-error'));
    expect(message.map((alert) => alert.textContent)).toEqual(['The terminal is offline and this card payment is above the $10.00 limit for one offline card payment. Take cash, or wait for the connection.']);
    expect(screen.getAllByRole('alert')).toHaveLength(2);
    // The dialog's message comes first, then the PIN that would lift it and the PIN's own refusal.
    expect(message[0]!.compareDocumentPosition(pin) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Another wrong PIN: the same two refusals in their two places, not a longer sentence.
    fireEvent.change(pin, { target: { value: '2222' } });
    fireEvent.click(screen.getByTestId('confirm-payment'));
    await waitFor(() => expect(pin.value).toBe(''));
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    expect(fieldError(pin)).toMatch(/^That PIN is not right\. /);
    expect(fieldError(pin)).not.toMatch(/offline card payment\. Take cash/);
    fireEvent.change(pin, { target: { value: '8642' } });
    fireEvent.click(screen.getByTestId('confirm-payment'));
    await waitFor(() => expect(paid).toHaveLength(1));
    expect(paid[0]?.payment).toMatchObject({ method: 'card', amount: 1200, status: 'queued_offline' });
    expect(paid[0]?.order.paidAmount).toBe(1200);
  });

  it('asks again for the PIN on the next part of a split bill: the approved one is not kept for it', async () => {
    t = await startTestCore({ offlinePayments: { perTransaction: 1000, total: 5000, managerPinHash: hashManagerPin('8642') } }, {}, undefined, { signIn: 'cashier' });
    const client = createBridgeClient({ invoke: (request) => t.core.invoke(request), onEvent: (listener) => t.core.subscribe(listener) });
    const placed = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }] });
    // Two parts of $12.00, each above the $10.00 offline limit: each needs its own approval.
    const order = await client.call('orders.update', { id: placed.id, split: { kind: 'even', parts: 2 } });
    const paid: Order[] = [];
    const { checkout } = await client.call('menu.snapshot', {});
    render(
      <BridgeContext.Provider value={client}>
        <PaymentDialog order={order} checkout={checkout} onClose={() => undefined} onPaid={(o) => paid.push(o)} />
      </BridgeContext.Provider>,
    );
    fireEvent.click(screen.getByTestId('confirm-payment'));
    fireEvent.change(await screen.findByLabelText('Manager PIN to approve'), { target: { value: '8642' } });
    fireEvent.click(screen.getByTestId('confirm-payment'));
    await waitFor(() => expect(screen.getByTestId('payment-news').textContent).toMatch(/Paid 1 of 2: \$12\.00\..*\$12\.00 still due/));
    // The approval went with that payment: no PIN is left in the form.
    expect(screen.queryByLabelText('Manager PIN to approve')).toBeNull();
    expect(document.querySelectorAll('input[type="password"]')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('confirm-payment'));
    const pin = (await screen.findByLabelText('Manager PIN to approve')) as HTMLInputElement;
    expect(pin.value).toBe('');
    expect(fieldError(pin)).toMatch(/offline.*above the \$10\.00 limit.*needs a manager/);
    expect((await client.call('orders.get', { id: order.id })).paidAmount).toBe(1200);
    fireEvent.change(pin, { target: { value: '8642' } });
    fireEvent.click(screen.getByTestId('confirm-payment'));
    await waitFor(() => expect(paid).toHaveLength(1));
    expect(paid[0]?.paidAmount).toBe(2400);
  });

  it('suggests tips on the amount before tax when the restaurant chooses so, and says so; the tip taken is that one', async () => {
    t = await startTestCore({ tax: { rates: 'standard:Sales tax:10' }, checkout: { tipBasis: 'pre-tax', tipPercents: '20' } as never });
    const client = createBridgeClient({ invoke: (request) => t.core.invoke(request), onEvent: (listener) => t.core.subscribe(listener) });
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }] });
    const beforeTax = order.check.total - order.check.taxTotal;
    const { checkout } = await client.call('menu.snapshot', {});
    const paid: Payment[] = [];
    render(
      <BridgeContext.Provider value={client}>
        <PaymentDialog order={order} checkout={checkout} onClose={() => undefined} onPaid={(_o, _change, payment) => paid.push(payment)} />
      </BridgeContext.Provider>,
    );
    const tip = Math.round(beforeTax * 0.2);
    expect(screen.getByText(`Tip (suggested on $${(beforeTax / 100).toFixed(2)} before tax)`)).toBeTruthy();
    fireEvent.click(screen.getByLabelText(`20% · $${(tip / 100).toFixed(2)}`));
    fireEvent.click(screen.getByTestId('confirm-payment'));
    await waitFor(() => expect(paid).toHaveLength(1));
    expect(paid[0]).toMatchObject({ amount: order.total, tip });
  });

  it('asks for a second look before a charge above the confirmation amount ($4,000.75 on a $1,000.00 setting)', async () => {
    t = await startTestCore();
    const client = createBridgeClient({ invoke: (request) => t.core.invoke(request), onEvent: (listener) => t.core.subscribe(listener) });
    const catering = await client.call('menu.createItem', { name: 'Catering tray', price: 400_075, categoryId: 'cat_mains' });
    const order = await client.call('orders.place', { lines: [{ menuItemId: catering.id, quantity: 1 }] });
    const paid: Order[] = [];
    const { checkout } = await client.call('menu.snapshot', {});
    render(
      <BridgeContext.Provider value={client}>
        <PaymentDialog order={order} checkout={checkout} onClose={() => undefined} onPaid={(o) => paid.push(o)} />
      </BridgeContext.Provider>,
    );
    fireEvent.click(screen.getByLabelText('Cash')); // no connection here: a card this large would need a manager
    fireEvent.click(screen.getByTestId('confirm-payment'));
    const question = await screen.findByText('Take $4,000.75 in cash? That is more than $1,000.00.');
    expect(question.getAttribute('role')).toBe('alert');
    expect((await client.call('orders.get', { id: order.id })).paidAmount).toBe(0);
    // "No, go back" takes nothing and returns to the dialog.
    fireEvent.click(screen.getByRole('button', { name: 'No, go back' }));
    expect(screen.queryByText(/That is more than/)).toBeNull();
    expect(paid).toEqual([]);
    fireEvent.click(screen.getByTestId('confirm-payment'));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, take $4,000.75 cash' }));
    await waitFor(() => expect(paid).toHaveLength(1));
    expect(paid[0]?.paidAmount).toBe(400_075);
  });

  it('takes cash, shows the change, and refuses less than is due', async () => {
    t = await startTestCore();
    const client = createBridgeClient({ invoke: (request) => t.core.invoke(request), onEvent: (listener) => t.core.subscribe(listener) });
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const changes: number[] = [];
    const { checkout } = await client.call('menu.snapshot', {});
    render(
      <BridgeContext.Provider value={client}>
        <PaymentDialog order={order} checkout={checkout} onClose={() => undefined} onPaid={(_o, change) => changes.push(change)} />
      </BridgeContext.Provider>,
    );
    fireEvent.click(screen.getByLabelText('Cash'));
    const tendered = screen.getByLabelText('Cash handed over');
    fireEvent.change(tendered, { target: { value: '4.00' } });
    fireEvent.click(screen.getByTestId('confirm-payment'));
    expect(screen.getByRole('alert').textContent).toBe('Cash handed over must be at least $4.50.');
    fireEvent.change(tendered, { target: { value: '10' } });
    expect(screen.getByText('$5.50')).toBeTruthy();
    fireEvent.click(screen.getByTestId('confirm-payment'));
    await waitFor(() => expect(changes).toEqual([550]));
  });

  it("charges a large party's gratuity with each payment, in proportion, and says so on the button", async () => {
    t = await startTestCore({ checkout: { autoGratuityGuests: 8, autoGratuityPercent: 18 } } as never);
    const client = createBridgeClient({ invoke: (request) => t.core.invoke(request), onEvent: (listener) => t.core.subscribe(listener) });
    // 8 burgers, $96.00, no tax: $17.28 of gratuity; half paid now carries half of it.
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 8 }], service: { type: 'dine_in', table: '12', guests: 8 } });
    const { checkout } = await client.call('menu.snapshot', {});
    const closed: Order[] = [];
    render(
      <BridgeContext.Provider value={client}>
        <PaymentDialog order={order} checkout={checkout} onClose={(o) => closed.push(o)} onPaid={() => undefined} />
      </BridgeContext.Provider>,
    );
    expect(screen.getByTestId('gratuity-part').textContent).toBe('Gratuity (18%, parties of 8 or more): $17.28 with this payment');
    fireEvent.change(screen.getByLabelText(/Paying now/), { target: { value: '48.00' } });
    expect(screen.getByTestId('gratuity-part').textContent).toContain('$8.64');
    expect(screen.getByTestId('confirm-payment').textContent).toContain('Charge $56.64 (incl. $8.64 gratuity)');
    fireEvent.click(screen.getByTestId('confirm-payment'));
    await waitFor(() => expect(screen.getByTestId('payment-news').textContent).toMatch(/Paid \$48\.00 \+ \$8\.64 tip/));
    const after = await client.call('orders.get', { id: order.id });
    expect(after.gratuity).toMatchObject({ charged: 1_728, collected: 864 });
  });
});
