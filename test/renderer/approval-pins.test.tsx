// @vitest-environment happy-dom
// A manager's PIN never lingers in a form after the approval it was typed for, against a real core
// with a cashier signed in: every approval PIN field starts empty when its dialog opens, and a
// refused PIN is cleared (said next to the field, nothing changed). The menu manager says a refused
// approval next to the PIN of the dialog it was typed in, not as a general error.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { MenuManager } from '../../renderer/screens/MenuManager';
import { ITEMS, STAFF } from '../core/fixtures';
import { CHECKOUT_CONFIG, fieldError, openRefund, orderRow, renderOrders, renderRegister, seedCoffee, tile } from './checkout-fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore } = coreForEachTest();
const cashier = () => withCore(CHECKOUT_CONFIG, seedCoffee, { signIn: 'cashier' });
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });
const WRONG_PIN = '0000';
const wrongPinRefusal = (needs: string) => `That PIN is not right. ${needs} Nothing was changed.`;
const pinField = (dialog: HTMLElement) => within(dialog).getByLabelText('Manager PIN to approve') as HTMLInputElement;

/** An open order's Orders row opened, and `button` on its details pressed: the dialog it opens. */
async function openOrderDialog(client: BridgeClient, orderId: string, button: string): Promise<HTMLElement> {
  await renderOrders(client);
  await waitFor(() => expect(orderRow(orderId)).toBeTruthy());
  fireEvent.click(within(orderRow(orderId)).getByRole('button'));
  fireEvent.click(await screen.findByRole('button', { name: button }));
  return screen.findByRole('dialog');
}

describe('a discount approved by a manager', () => {
  it('leaves no PIN in the next discount dialog: a discount above the limits is approved again', async () => {
    await renderRegister(await cashier());
    fireEvent.click(tile(ITEMS.soup));
    fireEvent.click(tile(ITEMS.burger));
    fireEvent.click(screen.getByRole('button', { name: 'Line discount' }));
    let dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Comp (100%)'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Comp – kitchen error' }));
    type(await waitFor(() => pinField(dialog)), STAFF.manager.pin);
    fireEvent.click(within(dialog).getByTestId('apply-discount'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: /^Order discount/ }));
    dialog = await screen.findByRole('dialog');
    type(within(dialog).getByLabelText('Percent off'), '50');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Staff meal' }));
    const pin = await waitFor(() => pinField(dialog));
    expect(pin.value).toBe('');
    fireEvent.click(within(dialog).getByTestId('apply-discount'));
    expect(fieldError(pin)).toBe('This discount is above the limit: a manager enters their PIN (4 to 8 digits).');
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('clears a refused PIN, says why next to the field, and applies nothing', async () => {
    await renderRegister(await cashier());
    fireEvent.click(tile(ITEMS.soup));
    fireEvent.click(screen.getByRole('button', { name: 'Line discount' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Comp (100%)'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Comp – kitchen error' }));
    const pin = await waitFor(() => pinField(dialog));
    type(pin, WRONG_PIN);
    fireEvent.click(within(dialog).getByTestId('apply-discount'));
    await waitFor(() => expect(fieldError(pin)).toBe(wrongPinRefusal('A discount above the approval limits needs a manager.')));
    expect(pin.value).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(pin));
    expect(document.querySelector('.line-discount')).toBeNull();
  });
});

describe('a refused approval PIN is cleared', () => {
  it('closing a check unpaid', async () => {
    const client = await cashier();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    const dialog = await openOrderDialog(client, order.id, 'Close unpaid…');
    type(within(dialog).getByLabelText('Why is it closed unpaid?'), 'left without paying');
    const pin = await waitFor(() => pinField(dialog));
    type(pin, WRONG_PIN);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close unpaid' }));
    await waitFor(() => expect(fieldError(pin)).toBe(wrongPinRefusal('Closing an order with money still due (a walkout) needs a manager.')));
    expect(pin.value).toBe('');
    expect((await client.call('orders.get', { id: order.id })).status).toBe('open');
  });

  it('cancelling an order', async () => {
    const client = await cashier();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const dialog = await openOrderDialog(client, order.id, 'Cancel order');
    type(within(dialog).getByLabelText('Reason'), 'mistake');
    const pin = await waitFor(() => pinField(dialog));
    type(pin, WRONG_PIN);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(fieldError(pin)).toBe(wrongPinRefusal('Voiding an order or items the kitchen already has needs a manager.')));
    expect(pin.value).toBe('');
    expect((await client.call('orders.get', { id: order.id })).status).toBe('open');
  });

  it('refunding', async () => {
    const client = await cashier();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total });
    const dialog = await openRefund(client, order.id);
    const pin = await waitFor(() => pinField(dialog));
    type(pin, WRONG_PIN);
    fireEvent.click(within(dialog).getByTestId('confirm-refund'));
    await waitFor(() => expect(fieldError(pin)).toBe(wrongPinRefusal('A refund needs a manager.')));
    expect(pin.value).toBe('');
    expect((await client.call('orders.get', { id: order.id })).refundedAmount).toBe(0);
  });
});

describe('the menu manager, for a cashier', () => {
  it('asks the manager’s PIN in the item’s dialog, says a refusal next to it, and keeps what was typed', async () => {
    const client = await cashier();
    renderWith(client, <MenuManager menu={await client.call('menu.snapshot', {})} />);
    const row = document.querySelector(`tr[data-item-id="${ITEMS.fries}"]`) as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    type(within(dialog).getByLabelText('Price'), '5.00');
    const pin = await waitFor(() => pinField(dialog));
    type(pin, WRONG_PIN);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fieldError(pin)).toBe(wrongPinRefusal('Changing the menu needs a manager.')));
    expect(pin.value).toBe('');
    expect(within(dialog).queryAllByRole('alert').map((alert) => alert.textContent)).toEqual([wrongPinRefusal('Changing the menu needs a manager.')]);
    expect((within(dialog).getByLabelText('Price') as HTMLInputElement).value).toBe('5.00');
    expect((await client.call('menu.snapshot', {})).items.find((i) => i.id === ITEMS.fries)?.price).toBe(450);

    type(pin, STAFF.manager.pin);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await client.call('menu.snapshot', {})).items.find((i) => i.id === ITEMS.fries)?.price).toBe(500);
    // The next edit is approved again, from an empty field.
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    expect(pinField(await screen.findByRole('dialog')).value).toBe('');
  });

  it('refuses the PIN of someone who may not edit the menu (a cashier’s own) next to the delete dialog’s PIN field, and deletes nothing', async () => {
    const client = await cashier();
    renderWith(client, <MenuManager menu={await client.call('menu.snapshot', {})} />);
    const row = document.querySelector(`tr[data-item-id="${ITEMS.soup}"]`) as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    const pin = await waitFor(() => pinField(dialog));
    type(pin, STAFF.cashier.pin);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete item' }));
    await waitFor(() => expect(fieldError(pin)).toBe(wrongPinRefusal('Changing the menu needs a manager.')));
    expect(pin.value).toBe('');
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect((await client.call('menu.snapshot', {})).items.some((i) => i.id === ITEMS.soup)).toBe(true);
  });
});
