// @vitest-environment happy-dom
// Changing another till's order from the Orders screen's "At other tills", against real cores: Bar (a
// second core in this process, its own SQLite file) owns the orders, the rendered till Front changes
// them; each pulls the other over mutual TLS on 127.0.0.1. A quantity changed in the details dialog
// lands on Bar; "Mark fulfilled" on an unpaid check comes back refused in Bar's words on the row, and
// stays in sight under the list once the order is closed; a cancel with a reason, approved by a
// manager's PIN for a cashier, shows as waiting while Bar is away. Items added from the menu ("Add
// items": a plain one, and one whose size must be chosen in the register's modifier dialog) go as one
// change holding the order's lines and the new ones, made on Bar; a refusal is said in the dialog and
// nothing is sent; a dialog cancelled sends nothing. The order's discount, from the register's dialog,
// made on Bar. Cash taken here toward Bar's order, the change said, recorded on Bar; a payment Bar
// refused handed back from the row.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OtherTillsOrders } from '../../renderer/store-mode/OtherTillsOrders';
import { FLAT_WHITE, ITEMS, seedCoffee, SIZES, STAFF, startTestCore, type TestCore } from '../core/fixtures';
import { coreForEachTest, renderWith } from '../renderer/with-core';
import { join } from 'node:path';
import { FileSecretStore } from '../../sync/secret-store';
import { freePorts } from './fixtures/ports';
import { tillConfig } from './fixtures/in-process-tills';

const front = coreForEachTest();
const others: TestCore[] = [];
afterEach(async () => {
  await Promise.all(others.splice(0).map((till) => till.core.shutdown()));
});

const row = (id: string) => document.querySelector<HTMLElement>(`tbody[data-other-order-id="${id}"]`);

/** One of the row's rarer actions, chosen from its "More…" menu. */
function fromMore(id: string, action: 'Details' | 'Discount' | 'Mark fulfilled' | 'Cancel order') {
  fireEvent.click(within(row(id)!).getByRole('button', { name: /^More actions for / }));
  fireEvent.click(within(row(id)!).getByRole('menuitem', { name: action }));
}

describe("store mode: another till's order changed from this till's screen", () => {
  it('sends a quantity change, shows a refusal in the owner’s words, and a cancel approved by a manager’s PIN waits while the owner is away', async () => {
    const [barPort, frontPort] = (await freePorts(2)) as [number, number];
    const bar = await startTestCore(tillConfig('Bar', 'B', barPort, frontPort));
    others.push(bar);
    const client = await front.start(tillConfig('Front', 'F', frontPort, barPort));
    const order = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '4', guests: 2 } });
    const second = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 1 }], service: { type: 'dine_in', table: '5', guests: 2 } });
    renderWith(client, <OtherTillsOrders search="" />);
    await waitFor(() => expect(row(order.id) && row(second.id)).toBeTruthy(), { timeout: 10_000 });

    // One more fries, from the details dialog: made on Bar.
    fromMore(order.id, 'Details');
    const details = await screen.findByRole('dialog');
    fireEvent.click(within(details).getByRole('button', { name: 'One more Fries' }));
    expect(within(details).getByLabelText('Fries quantity').textContent).toBe('3');
    fireEvent.click(within(details).getByRole('button', { name: 'Send to Bar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).lines[0]?.quantity, { timeout: 10_000 }).toBe(3);

    // Fulfilled while money is due: Bar refuses, and the row says why.
    fromMore(order.id, 'Mark fulfilled');
    const refused = await waitFor(
      () => {
        const note = row(order.id)!.querySelector<HTMLElement>('[data-forward-state="refused"]');
        expect(note).toBeTruthy();
        return note!;
      },
      { timeout: 10_000 },
    );
    expect(refused.textContent).toMatch(/^Refused Mark fulfilled — Bar refused: \$\d+\.\d\d is still due on this order: take the payment first/);
    expect((await bar.call('orders.get', { id: order.id })).status).toBe('open');
    // Cancelled on Bar: the row goes, the refusal stays in sight under the list.
    await bar.call('orders.cancel', { id: order.id, reason: 'rung up twice' });
    const elsewhere = await screen.findByTestId('forwards-elsewhere', {}, { timeout: 10_000 });
    expect(row(order.id)).toBeNull();
    expect(within(elsewhere).getByText(/Mark fulfilled — Bar refused: .* is still due on this order/)).toBeTruthy();

    // Bar goes away; a cashier here cancels with a reason and a manager's PIN: kept here, shown as waiting.
    others.splice(others.indexOf(bar), 1);
    await bar.core.shutdown();
    await client.call('staff.signIn', { pin: STAFF.cashier.pin });
    fromMore(second.id, 'Cancel order');
    const cancel = await screen.findByRole('dialog');
    fireEvent.change(await within(cancel).findByLabelText(/PIN/), { target: { value: STAFF.manager.pin } });
    fireEvent.click(within(cancel).getByRole('button', { name: 'Cancel order' }));
    expect(within(cancel).getByText(/Say why the order is cancelled/)).toBeTruthy();
    fireEvent.change(within(cancel).getByLabelText('Why is it cancelled?'), { target: { value: 'guest left' } });
    fireEvent.click(within(cancel).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 5_000 });
    await waitFor(() => expect(row(second.id)!.querySelector('[data-forward-state="pending"]')?.textContent).toBe('Pending Cancel: guest left — Sent to Bar, waiting for it.'));
  }, 60_000);

  it('adds items from the menu (one with a required choice) as one change of the order’s lines plus the new ones, made on Bar; a refusal stays in the dialog and a cancelled dialog sends nothing', async () => {
    const [barPort, frontPort] = (await freePorts(2)) as [number, number];
    const bar = await startTestCore(tillConfig('Bar', 'B', barPort, frontPort), {}, seedCoffee);
    others.push(bar);
    const client = await front.start(tillConfig('Front', 'F', frontPort, barPort), seedCoffee);
    const order = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '4', guests: 2 } });
    const calls = vi.spyOn(client, 'call');
    const changes = () => calls.mock.calls.filter(([command]) => command === 'storeMode.changeOrder');
    renderWith(client, <OtherTillsOrders search="" />);
    await waitFor(() => expect(row(order.id)).toBeTruthy(), { timeout: 10_000 });
    const openAddItems = async () => {
      fireEvent.click(within(row(order.id)!).getByRole('button', { name: 'Add items' }));
      const dialog = await screen.findByRole('dialog', { name: `Add items to ${order.label} at Bar` });
      await within(dialog).findByRole('button', { name: /^Soup of the day/ });
      return dialog;
    };

    // Picked, then cancelled: nothing is sent.
    let dialog = await openAddItems();
    fireEvent.click(within(dialog).getByRole('button', { name: /^Soup of the day/ }));
    expect(within(dialog).getByLabelText('Soup of the day quantity').textContent).toBe('1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(changes()).toEqual([]);

    // Two soups from the tiles; a flat white found by the search, its size asked by the register's chooser, with a note.
    dialog = await openAddItems();
    fireEvent.click(within(dialog).getByRole('button', { name: /^Soup of the day/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'One more Soup of the day' }));
    expect(within(dialog).getByLabelText('Soup of the day quantity').textContent).toBe('2');
    fireEvent.change(within(dialog).getByRole('searchbox', { name: 'Search the menu' }), { target: { value: 'flat' } });
    fireEvent.keyDown(within(dialog).getByRole('searchbox', { name: 'Search the menu' }), { key: 'Enter' });
    const chooser = await screen.findByRole('dialog', { name: 'Flat white' });
    expect((within(chooser).getByTestId('modifier-done') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(chooser).getByLabelText('Large +$1.00'));
    fireEvent.change(within(chooser).getByLabelText(/Note for the kitchen/), { target: { value: 'extra hot' } });
    fireEvent.click(within(chooser).getByTestId('modifier-done'));
    dialog = await screen.findByRole('dialog', { name: `Add items to ${order.label} at Bar` });
    const flatWhite = within(dialog).getByRole('list', { name: 'Items to add' }).querySelector<HTMLElement>(`[data-new-line="${FLAT_WHITE}"]`)!;
    expect(flatWhite.textContent).toMatch(/Flat white.*Large.*Note: extra hot/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send to Bar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(changes().map(([, payload]) => payload)).toEqual([
      {
        orderId: order.id,
        change: {
          kind: 'lines',
          lines: [
            { menuItemId: ITEMS.fries, quantity: 2, modifierIds: [], note: '', discount: null },
            { menuItemId: ITEMS.soup, quantity: 2, modifierIds: [], note: '', discount: null },
            { menuItemId: FLAT_WHITE, quantity: 1, modifierIds: [SIZES.large], note: 'extra hot', discount: null },
          ],
        },
      },
    ]);
    // Made on Bar, once: the order's lines are the old and the new.
    const onBar = async () => (await bar.call('orders.get', { id: order.id })).lines.map((line) => [line.name, line.quantity, line.modifiers.map((m) => m.name).join(','), line.note]);
    await expect.poll(onBar, { timeout: 10_000 }).toEqual([
      ['Fries', 2, '', ''],
      ['Soup of the day', 2, '', ''],
      ['Flat white', 1, 'Large', 'extra hot'],
    ]);

    // From the details: one more fries there, then "Add items…" carries it into the same change with a burger.
    fromMore(order.id, 'Details');
    const details = await screen.findByRole('dialog', { name: `${order.label} at Bar` });
    await waitFor(() => expect(within(details).getAllByRole('listitem')).toHaveLength(3), { timeout: 10_000 });
    fireEvent.click(within(details).getByRole('button', { name: 'One more Fries' }));
    fireEvent.click(within(details).getByRole('button', { name: 'Add items…' }));
    dialog = await screen.findByRole('dialog', { name: `Add items to ${order.label} at Bar` });
    fireEvent.click(await within(dialog).findByRole('button', { name: /^Burger/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send to Bar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(changes().map(([, payload]) => payload)[1]).toMatchObject({
      change: { lines: [{ menuItemId: ITEMS.fries, quantity: 3 }, { menuItemId: ITEMS.soup, quantity: 2 }, { menuItemId: FLAT_WHITE, quantity: 1 }, { menuItemId: ITEMS.burger, quantity: 1 }] },
    });
    await expect.poll(onBar, { timeout: 10_000 }).toEqual([
      ['Fries', 3, '', ''],
      ['Soup of the day', 2, '', ''],
      ['Flat white', 1, 'Large', 'extra hot'],
      ['Burger', 1, '', ''],
    ]);

    // A cashier here adding to the owner's order: Bar's server is not them, so the core asks for a manager. Said in the dialog, nothing sent.
    await client.call('staff.signIn', { pin: STAFF.cashier.pin });
    dialog = await openAddItems();
    // The dialog follows the order as this till last heard it from Bar: the four lines, once Bar's change is back here.
    await waitFor(() => expect(dialog.textContent).toContain('with the order’s 4 lines'), { timeout: 10_000 });
    fireEvent.click(within(dialog).getByRole('button', { name: /^Fries/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send to Bar' }));
    const refusal = await within(dialog).findByRole('alert');
    expect(refusal.textContent).toMatch(/^Taking over another staff member's order needs a manager/);
    expect(within(dialog).getByLabelText(/PIN/)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: `Add items to ${order.label} at Bar` })).toBe(dialog);
    expect((await client.call('storeMode.forwards', {})).forwards).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await client.call('storeMode.forwards', {})).forwards).toEqual([]);
    expect(await onBar()).toHaveLength(4);
  }, 60_000);
  it('discounts the order from the row with the register’s dialog: 10% off for regulars, made on Bar, nothing left pending', async () => {
    const [barPort, frontPort] = (await freePorts(2)) as [number, number];
    const bar = await startTestCore(tillConfig('Bar', 'B', barPort, frontPort));
    others.push(bar);
    const client = await front.start(tillConfig('Front', 'F', frontPort, barPort));
    const order = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '4', guests: 2 } });
    renderWith(client, <OtherTillsOrders search="" />);
    await waitFor(() => expect(row(order.id)).toBeTruthy(), { timeout: 10_000 });

    fromMore(order.id, 'Discount');
    const dialog = await screen.findByRole('dialog', { name: `Discount ${order.label} at Bar` });
    fireEvent.change(within(dialog).getByLabelText('Percent off'), { target: { value: '10' } });
    fireEvent.change(within(dialog).getByLabelText('Reason (or type your own)'), { target: { value: 'Regulars' } });
    fireEvent.click(within(dialog).getByTestId('apply-discount'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).check.orderDiscount, { timeout: 10_000 }).toMatchObject({ kind: 'percent', value: 1_000, reason: 'Regulars' });
    // Applied: nothing pending on the row any more.
    await waitFor(() => expect(row(order.id)!.querySelector('[data-forward-state]')).toBeNull(), { timeout: 10_000 });
  });

  it('takes cash toward the order here, says the change, and Bar records it; a payment Bar refused is handed back from the row, once', async () => {
    const [barPort, frontPort] = (await freePorts(2)) as [number, number];
    let bar = await startTestCore(tillConfig('Bar', 'B', barPort, frontPort));
    others.push(bar);
    const barDir = bar.dataDir;
    const barConfig = (mode: 'on' | 'off') => tillConfig('Bar', 'B', barPort, frontPort, { dataDir: barDir, mode });
    const client = await front.start(tillConfig('Front', 'F', frontPort, barPort));
    const order = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '4', guests: 2 } });
    const second = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 1 }], service: { type: 'dine_in', table: '5', guests: 2 } });
    renderWith(client, <OtherTillsOrders search="" />);
    await waitFor(() => expect(row(order.id) && row(second.id)).toBeTruthy(), { timeout: 10_000 });

    // Cash, with more handed over than is due: the change is said, the payment lands on Bar.
    fireEvent.click(within(row(order.id)!).getByRole('button', { name: 'Take payment' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Cash'));
    fireEvent.change(within(dialog).getByLabelText('Cash handed over'), { target: { value: '50.00' } });
    fireEvent.click(within(dialog).getByTestId('confirm-other-payment'));
    const done = await screen.findByTestId('other-payment-done');
    expect(done.textContent).toMatch(new RegExp(`in cash is in this drawer\\. Sent to Bar, which records it on ${order.label}\\. Give \\$[\\d.]+ change\\.$`));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Done' }));
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).paidAmount, { timeout: 10_000 }).toBe(order.total);
    await waitFor(() => expect(within(row(order.id)!).getByText('Paid')).toBeTruthy(), { timeout: 10_000 });

    // Bar away; cash taken here on the second order; Bar, alone, is paid in full itself; back, it refuses.
    others.splice(others.indexOf(bar), 1);
    await bar.core.shutdown();
    fireEvent.click(within(row(second.id)!).getByRole('button', { name: 'Take payment' }));
    const cash = await screen.findByRole('dialog');
    fireEvent.click(within(cash).getByLabelText('Cash'));
    fireEvent.click(within(cash).getByTestId('confirm-other-payment'));
    fireEvent.click(within(await screen.findByRole('dialog', { name: `Payment taken for ${second.label}` })).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(row(second.id)!.textContent).toMatch(/Cash payment: \$[\d.]+ — Sent to Bar, waiting for it\./), { timeout: 10_000 });
    const secrets = { secretStore: new FileSecretStore(join(barDir, 'secrets.json')) };
    const alone = await startTestCore(barConfig('off'), secrets, undefined, { openShift: false });
    await alone.call('payments.take', { orderId: second.id, method: 'card', amount: second.total });
    await alone.core.shutdown();
    bar = await startTestCore(barConfig('on'), secrets, undefined, { openShift: false });
    others.push(bar);
    const handBack = await screen.findByRole('button', { name: /^Handed back \$/ }, { timeout: 15_000 });
    expect(handBack.closest('li')!.textContent).toMatch(/Bar refused: the order was paid meanwhile\. Hand back \$[\d.]+ in cash\./);
    fireEvent.click(handBack);
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Handed back \$/ })).toBeNull(), { timeout: 10_000 });
    const shift = (await client.call('shift.current', {}))!;
    expect(shift.movements.filter((m) => m.kind === 'paid_out').map((m) => m.amount)).toEqual([second.total]);
  });
});
