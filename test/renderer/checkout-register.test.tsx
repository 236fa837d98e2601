// @vitest-environment happy-dom
// The register's checkout against a real core: an item with a required size opens the chooser and
// its line carries the choices and the note to the order; the ticket's Subtotal / Discounts / Tax /
// Total preview is what the core charges, the order's discount a row of its own; dine in needs a
// table; a cashier's comp asks for a manager's PIN, checked when it is given (a wrong one refused
// next to the PIN, the dialog kept) and sent with the order; the order just sold is a block of its
// own above the next ticket; the order type and the order discount have shortcuts, shown on them.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ticketFromOrder } from '../../renderer/lib/ticket';
import { ITEMS, signIn } from '../core/fixtures';
import { CHECKOUT_CONFIG, fieldError, FLAT_WHITE, PIN, renderRegister, seedCoffee, tile } from './checkout-fixtures';
import { coreForEachTest } from './with-core';

const { start: withCore, core } = coreForEachTest();

const ticketNames = () => [...document.querySelectorAll('.ticket-lines .line-name')].map((el) => el.textContent);
const row = (label: string) => screen.getByText(label, { selector: '.check-row dt' }).parentElement?.querySelector('dd')?.textContent;

describe('register checkout', () => {
  it('asks for the size before adding a flat white, shows its choices and note, and sends them', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    await renderRegister(client);
    fireEvent.click(tile(FLAT_WHITE));
    const chooser = await screen.findByRole('dialog');
    expect(within(chooser).getByRole('heading').textContent).toBe('Flat white');
    expect((within(chooser).getByTestId('modifier-done') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(chooser).getByLabelText('Large +$1.00'));
    fireEvent.click(within(chooser).getByLabelText('Oat milk +$0.60'));
    fireEvent.change(within(chooser).getByLabelText(/Note for the kitchen/), { target: { value: 'extra hot' } });
    fireEvent.click(within(chooser).getByTestId('modifier-done'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(ticketNames()).toEqual(['Flat white']);
    expect(document.querySelector('.line-mods')?.textContent).toBe('Large, Oat milk');
    expect(document.querySelector('.line-note')?.textContent).toBe('Note: extra hot');
    // Changed from the ticket: the chooser opens on the line's own choices.
    fireEvent.click(screen.getByRole('button', { name: 'Choices & note' }));
    const again = await screen.findByRole('dialog');
    expect((within(again).getByLabelText('Large +$1.00') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(again).getByLabelText('Small'));
    fireEvent.click(within(again).getByRole('button', { name: /^Save/ }));
    await waitFor(() => expect(document.querySelector('.line-mods')?.textContent).toBe('Small, Oat milk'));
    fireEvent.click(screen.getByRole('button', { name: /^Save open/ }));
    await waitFor(() => expect(screen.getByTestId('order-label').textContent).toBe('Order A1'));
    const [order] = await client.call('orders.list', {});
    expect(order?.lines[0]?.note).toBe('extra hot');
    expect(order?.lines[0]?.modifiers.map((m) => m.name)).toEqual(['Small', 'Oat milk']);
  });

  it('previews Subtotal, Discounts, Tax and Total as the core then charges them, and shows the order number big', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    await renderRegister(client);
    fireEvent.click(tile(ITEMS.burger)); // no groups: added straight away, today's chips below
    fireEvent.click(screen.getByRole('button', { name: /Extra cheese/ }));
    fireEvent.click(tile(ITEMS.fries));
    fireEvent.click(screen.getByRole('button', { name: 'Line discount' })); // fries selected
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Amount'));
    fireEvent.change(within(dialog).getByLabelText('Amount off'), { target: { value: '0.50' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Loyalty' }));
    fireEvent.click(within(dialog).getByTestId('apply-discount'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.querySelector('.line-discount')?.textContent).toBe('$0.50 off · Loyalty −$0.50');
    // Burger 12.00 + 1.50, fries 4.50 − 0.50: taxed 8.875% per line, 1.198 → 1.20 and 0.355 → 0.36.
    expect(row('Subtotal')).toBe('$18.00');
    expect(row('Discounts')).toBe('−$0.50');
    expect(row('Tax')).toBe('$1.56');
    expect(screen.getByTestId('ticket-total').textContent).toBe('$19.06');
    expect(screen.getByTestId('charge').textContent).toMatch(/^Charge \$19\.06/);
    fireEvent.click(screen.getByTestId('charge'));
    const payment = await screen.findByRole('dialog');
    expect(within(payment).getByTestId('balance-due').textContent).toBe('Due $19.06');
    fireEvent.click(within(payment).getByTestId('confirm-payment'));
    await waitFor(() => expect(screen.getByTestId('order-label').textContent).toBe('Order A1'));
    const [order] = await client.call('orders.list', {});
    expect(order?.check).toMatchObject({ subtotal: 1800, discountTotal: 50, taxTotal: 156, total: 1906, source: 'till' });
    expect(screen.getByTestId('last-order-total').textContent).toBe('$19.06');
    expect(screen.getByRole('status').textContent).toMatch(/^Paid \$19\.06\./);
  });

  it('needs a table number for dine in, says so next to the field, and sends table and guests', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    await renderRegister(client);
    fireEvent.click(tile(ITEMS.soup));
    fireEvent.click(screen.getByLabelText(/^Dine in/));
    fireEvent.change(screen.getByLabelText('Guests'), { target: { value: '4' } });
    fireEvent.click(screen.getByTestId('charge'));
    const table = screen.getByLabelText('Table');
    await waitFor(() => expect(fieldError(table)).toBe('A dine-in order needs a table number.'));
    expect(core().core.pendingOperations()).toBe(0);
    fireEvent.change(table, { target: { value: '12' } });
    fireEvent.click(screen.getByTestId('charge'));
    const payment = await screen.findByRole('dialog');
    const summary = payment.querySelector('.payment-summary');
    expect(summary?.textContent).toMatch(/^Order A1 · Table 12 · 4 guestsDue/);
    // The order and how it is served are one item of the row: the row's gap is not added before the " · ".
    expect([...(summary?.childNodes ?? [])].map((node) => node.textContent)).toEqual(['Order A1 · Table 12 · 4 guests', 'Due $7.62']);
    const [order] = await client.call('orders.list', {});
    expect(order?.service).toEqual({ type: 'dine_in', table: '12', guests: 4 });
  });

  it('checks a manager’s PIN for a cashier’s comp when it is given: a wrong PIN is refused next to the PIN, the dialog stays and the ticket is as it was', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee, { signIn: 'cashier' });
    await renderRegister(client);
    fireEvent.click(tile(ITEMS.soup));
    fireEvent.click(screen.getByRole('button', { name: 'Line discount' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Comp (100%)'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Comp – kitchen error' }));
    const pin = within(dialog).getByLabelText('Manager PIN to approve');
    fireEvent.change(pin, { target: { value: '0000' } });
    fireEvent.click(within(dialog).getByTestId('apply-discount'));
    await waitFor(() => expect(fieldError(pin)).toBe('That PIN is not right. A discount above the approval limits needs a manager. Nothing was changed.'));
    expect(screen.getByRole('dialog')).toBe(dialog);
    // A refused PIN is cleared: no one may send it again.
    expect((pin as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('ticket-total').textContent).toBe('$7.62');
    expect(document.querySelector('.line-discount')).toBeNull();
    expect(core().core.pendingOperations()).toBe(0);

    fireEvent.change(pin, { target: { value: PIN } });
    fireEvent.click(within(dialog).getByTestId('apply-discount'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('ticket-total').textContent).toBe('$0.00');
    expect(document.querySelector('.line-discount')?.textContent).toMatch(/^Comp – kitchen error/);
    // The PIN travels with the order: the core checks it again when the order is saved.
    fireEvent.click(screen.getByRole('button', { name: /^Save open/ }));
    await waitFor(() => expect(screen.getByTestId('order-label').textContent).toBe('Order A1'));
    const [order] = await client.call('orders.list', {});
    expect(order?.lines[0]?.discount).toMatchObject({ kind: 'percent', value: 10_000, reason: 'Comp – kitchen error', amount: 700 });
    expect(screen.queryByLabelText('Manager PIN to approve')).toBeNull();
  });

  it('asks for a PIN when a save needs a manager, and never keeps one it was refused with', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee, { signIn: 'owner' });
    // Someone else's order: a cashier changing it needs a manager ('order.adopt').
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await signIn(core().core, 'cashier');
    await renderRegister(client, ticketFromOrder(order));
    fireEvent.click(tile(ITEMS.fries));
    fireEvent.click(screen.getByRole('button', { name: /^Save changes/ }));
    const pin = (await screen.findByLabelText('Manager PIN to approve')) as HTMLInputElement;
    fireEvent.change(pin, { target: { value: '0000' } });
    fireEvent.click(screen.getByRole('button', { name: /^Save changes/ }));
    await waitFor(() => expect(fieldError(screen.getByLabelText('Manager PIN to approve'))).toMatch(/not right/));
    expect((screen.getByLabelText('Manager PIN to approve') as HTMLInputElement).value).toBe('');
    expect((await client.call('orders.get', { id: order.id })).lines[0]?.quantity).toBe(1);
    fireEvent.change(screen.getByLabelText('Manager PIN to approve'), { target: { value: PIN } });
    fireEvent.click(screen.getByRole('button', { name: /^Save changes/ }));
    await waitFor(async () => expect((await client.call('orders.get', { id: order.id })).lines[0]?.quantity).toBe(2));
  });

  it('shows the order discount as its own row on the ticket, each line discount under its line', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    await renderRegister(client);
    fireEvent.click(tile(ITEMS.burger));
    fireEvent.click(tile(ITEMS.fries));
    fireEvent.click(screen.getByRole('button', { name: 'Line discount' }));
    let dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Amount'));
    fireEvent.change(within(dialog).getByLabelText('Amount off'), { target: { value: '0.50' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Staff meal' }));
    fireEvent.click(within(dialog).getByTestId('apply-discount'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: /^Order discount/ }));
    dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Percent off'), { target: { value: '10' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Loyalty' }));
    fireEvent.click(within(dialog).getByTestId('apply-discount'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.querySelectorAll('.ticket-line')[1]?.querySelector('.line-discount')?.textContent).toBe('$0.50 off · Staff meal −$0.50');
    // Burger 12.00 + fries 4.50 − 0.50 = 16.00; 10% of it 1.60; 14.40 taxed 8.875% per line (1.065 + 0.213 → 1.07 + 0.21).
    const rows = [...document.querySelectorAll('.ticket > .check-totals .check-row')].map((r) => [r.querySelector('dt')?.textContent, r.querySelector('dd')?.textContent]);
    expect(rows).toEqual([
      ['Subtotal', '$16.50'],
      ['Item discounts', '−$0.50'],
      ['10% off · Loyalty', '−$1.60'],
      ['Tax', '$1.28'],
      ['Total', '$15.68'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: /^Save open/ }));
    await waitFor(() => expect(screen.getByTestId('order-label').textContent).toBe('Order A1'));
    const [order] = await client.call('orders.list', {});
    expect(order?.check).toMatchObject({ discountTotal: 210, taxTotal: 128, total: 1568, orderDiscount: { amount: 160, reason: 'Loyalty' } });
  });

  it('shows the order just sold in a block of its own above the next ticket, with its service and what was paid, until the next order starts', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    await renderRegister(client);
    fireEvent.click(tile(ITEMS.soup));
    fireEvent.click(screen.getByLabelText(/^Dine in/));
    fireEvent.change(screen.getByLabelText('Table'), { target: { value: '12' } });
    fireEvent.click(screen.getByTestId('charge'));
    const payment = await screen.findByRole('dialog');
    fireEvent.click(within(payment).getByLabelText('Cash'));
    fireEvent.change(within(payment).getByLabelText('Cash handed over'), { target: { value: '10' } });
    fireEvent.click(within(payment).getByTestId('confirm-payment'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const last = screen.getByRole('region', { name: 'Last order' });
    // Soup 7.00 + 8.875% = 7.62: its number, its table, paid, and the change to give, all in its block.
    expect(within(last).getByTestId('order-label').textContent).toBe('Order A1');
    expect(within(last).getByTestId('last-order-facts').textContent).toBe('Table 12 · paid $7.62');
    expect(within(last).getByRole('status').textContent).toBe('Paid $7.62. Give $2.38 change.');
    // The new ticket's header and its order type are not in it, and come after it.
    const ticket = screen.getByRole('region', { name: 'Ticket' });
    const header = within(ticket).getByRole('heading', { name: 'New order' });
    const takeout = within(ticket).getByLabelText(/^Takeout/);
    expect(last.contains(header) || last.contains(takeout)).toBe(false);
    expect(last.compareDocumentPosition(header) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect((takeout as HTMLInputElement).checked).toBe(true); // the next order starts as takeout
    fireEvent.click(within(last).getByRole('button', { name: 'Start next order' }));
    expect(screen.queryByRole('region', { name: 'Last order' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText('Search the menu or scan a barcode'));
  });

  it('picks the order type with Alt+D / Alt+T and opens the order discount with F4, each shown on its control', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    await renderRegister(client);
    const dineIn = screen.getByLabelText(/^Dine in/) as HTMLInputElement;
    const takeout = screen.getByLabelText(/^Takeout/) as HTMLInputElement;
    expect(dineIn.closest('label')?.querySelector('kbd')?.textContent).toBe('Alt+D');
    expect(takeout.closest('label')?.querySelector('kbd')?.textContent).toBe('Alt+T');
    // From the search box, where a plain "d" would be typed: Alt+D picks dine in and goes to the table.
    const search = screen.getByLabelText('Search the menu or scan a barcode');
    search.focus();
    fireEvent.keyDown(search, { key: 'd', code: 'KeyD', altKey: true });
    expect(dineIn.checked).toBe(true);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Table')));
    fireEvent.keyDown(document.activeElement!, { key: 'T', code: 'KeyT', altKey: true }); // Caps Lock on
    expect(takeout.checked).toBe(true);
    expect(screen.queryByLabelText('Table')).toBeNull();
    // F4 with nothing on the ticket: no discount to give.
    fireEvent.keyDown(window, { key: 'F4' });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(tile(ITEMS.soup));
    const orderDiscount = screen.getByRole('button', { name: /^Order discount/ });
    expect(orderDiscount.querySelector('kbd')?.textContent).toBe('F4');
    fireEvent.keyDown(window, { key: 'F4' });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Discount the order');
  });
});
