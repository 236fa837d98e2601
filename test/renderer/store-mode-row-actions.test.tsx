// @vitest-environment happy-dom
// The actions on a row of "At other tills", against real cores: Bar (a second core in this process,
// its own SQLite file) owns the orders, the rendered till Front lists them over mutual TLS on
// 127.0.0.1. Each row shows Take payment and Add items, the rest in its "More…" menu (chosen from
// the keyboard: the dialog opens, the focus goes back to the button when it closes); Take payment
// is dimmed on a paid order, as before. A cashier taking payment on a server's order is asked for a
// manager's PIN in the shared field (renderer/components/ManagerPinField.tsx), the refusal said
// next to it and the refused PIN cleared.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OtherTillsOrders } from '../../renderer/store-mode/OtherTillsOrders';
import { ITEMS, STAFF, startTestCore, type TestCore } from '../core/fixtures';
import { freePorts } from '../store-mode/fixtures/ports';
import { tillConfig } from '../store-mode/fixtures/in-process-tills';
import { coreForEachTest, renderWith } from './with-core';

const front = coreForEachTest();
const others: TestCore[] = [];
afterEach(async () => {
  await Promise.all(others.splice(0).map((till) => till.core.shutdown()));
});

const row = (id: string) => document.querySelector<HTMLElement>(`tbody[data-other-order-id="${id}"]`);

/** Bar with an unpaid order and a paid one, listed on Front's rendered "At other tills". */
async function barAndFront() {
  const [barPort, frontPort] = (await freePorts(2)) as [number, number];
  const bar = await startTestCore(tillConfig('Bar', 'B', barPort, frontPort));
  others.push(bar);
  const client = await front.start(tillConfig('Front', 'F', frontPort, barPort));
  const open = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '4', guests: 2 } });
  const paid = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 1 }], service: { type: 'dine_in', table: '5', guests: 2 } });
  await bar.call('payments.take', { orderId: paid.id, method: 'cash', amount: paid.total });
  renderWith(client, <OtherTillsOrders search="" />);
  await waitFor(() => expect(row(open.id) && row(paid.id)?.textContent?.includes('Paid')).toBeTruthy(), { timeout: 10_000 });
  return { bar, client, open, paid };
}

describe('the actions on a row of another till’s order', () => {
  it('shows Take payment and Add items, the rest under “More…”, chosen from the keyboard; Take payment is dimmed on a paid order', async () => {
    const { open, paid } = await barAndFront();
    const buttons = (id: string) => within(row(id)!).getAllByRole('button');
    expect(buttons(open.id).map((button) => button.textContent)).toEqual(['Take payment', 'Add items', 'More…']);
    expect(within(row(paid.id)!).getByRole('button', { name: 'Take payment' }).hasAttribute('disabled')).toBe(true);
    expect(within(row(open.id)!).getByRole('button', { name: 'Take payment' }).hasAttribute('disabled')).toBe(false);

    const more = within(row(open.id)!).getByRole('button', { name: `More actions for ${open.label}` });
    expect(more.getAttribute('aria-haspopup')).toBe('menu');
    fireEvent.keyDown(more, { key: 'ArrowDown' });
    const menu = within(row(open.id)!).getByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Details', 'Discount', 'Mark fulfilled', 'Cancel order']);
    expect(document.activeElement?.textContent).toBe('Details');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Cancel order');
    // Enter on the focused item is its click.
    fireEvent.click(document.activeElement!);
    const cancel = await screen.findByRole('dialog', { name: `Cancel ${open.label}?` });
    expect(within(row(open.id)!).queryByRole('menu')).toBeNull();
    expect(document.activeElement === more || cancel.contains(document.activeElement)).toBe(true);
    fireEvent.click(within(cancel).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Details, from a click this time.
    fireEvent.click(more);
    fireEvent.click(within(row(open.id)!).getByRole('menuitem', { name: 'Details' }));
    const details = await screen.findByRole('dialog', { name: `${open.label} at Bar` });
    expect(within(details).getByLabelText('Fries quantity').textContent).toBe('2');
  });

  it('a cashier taking payment on a server’s order is asked for a manager’s PIN next to the refusal; a wrong one is cleared, the right one sends it', async () => {
    const { bar, client, open } = await barAndFront();
    await client.call('staff.signIn', { pin: STAFF.cashier.pin });
    fireEvent.click(within(row(open.id)!).getByRole('button', { name: 'Take payment' }));
    const dialog = await screen.findByRole('dialog', { name: /^Take payment for / });
    fireEvent.click(within(dialog).getByTestId('confirm-other-payment'));
    const pin = await within(dialog).findByLabelText('Manager PIN to approve');
    expect(pin.getAttribute('type')).toBe('password');
    expect(pin.getAttribute('aria-invalid')).toBe('true');
    const refusal = () => document.getElementById(pin.getAttribute('aria-describedby')!)!.textContent;
    expect(refusal()).toMatch(/manager/i);
    // The refusal is said once, next to the field.
    expect(within(dialog).getAllByRole('alert').map((alert) => alert.id)).toEqual([pin.getAttribute('aria-describedby')]);

    fireEvent.change(pin, { target: { value: '0000' } });
    fireEvent.click(within(dialog).getByTestId('confirm-other-payment'));
    await waitFor(() => expect((pin as HTMLInputElement).value).toBe(''));
    expect(refusal()).toBeTruthy();

    fireEvent.change(pin, { target: { value: STAFF.manager.pin } });
    fireEvent.click(within(dialog).getByTestId('confirm-other-payment'));
    expect((await screen.findByTestId('other-payment-done')).textContent).toMatch(/by card\. Sent to Bar, which records it on /);
    await expect.poll(async () => (await bar.call('orders.get', { id: open.id })).paidAmount, { timeout: 10_000 }).toBe(open.total);
  });
});
