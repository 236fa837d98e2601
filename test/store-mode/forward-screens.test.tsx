// @vitest-environment happy-dom
// Changing another till's order from the Orders screen's "At other tills", against real cores: Bar (a
// second core in this process, its own SQLite file) owns the orders, the rendered till Front changes
// them; each pulls the other over mutual TLS on 127.0.0.1. A quantity changed in the details dialog
// lands on Bar; "Mark fulfilled" on an unpaid check comes back refused in Bar's words on the row, and
// stays in sight under the list once the order is closed; a cancel with a reason, approved by a
// manager's PIN for a cashier, shows as waiting while Bar is away.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OtherTillsOrders } from '../../renderer/store-mode/OtherTillsOrders';
import { ITEMS, STAFF, startTestCore, type TestCore } from '../core/fixtures';
import { coreForEachTest, renderWith } from '../renderer/with-core';
import { freePorts } from './fixtures/ports';
import { STORE_SECRET } from './fixtures/store-tills';

const front = coreForEachTest();
const others: TestCore[] = [];
afterEach(async () => {
  await Promise.all(others.splice(0).map((till) => till.core.shutdown()));
});

const storeMode = (name: string, letter: string, port: number, peer: number) => ({
  checkout: { tillLetter: letter },
  storeMode: { mode: 'on' as const, listen: `127.0.0.1:${port}`, peers: `127.0.0.1:${peer}`, tillName: name, secret: STORE_SECRET },
});

const row = (id: string) => document.querySelector<HTMLElement>(`tr[data-other-order-id="${id}"]`);

describe("store mode: another till's order changed from this till's screen", () => {
  it('sends a quantity change, shows a refusal in the owner’s words, and a cancel approved by a manager’s PIN waits while the owner is away', async () => {
    const [barPort, frontPort] = (await freePorts(2)) as [number, number];
    const bar = await startTestCore(storeMode('Bar', 'B', barPort, frontPort));
    others.push(bar);
    const client = await front.start(storeMode('Front', 'F', frontPort, barPort));
    const order = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '4', guests: 2 } });
    const second = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 1 }], service: { type: 'dine_in', table: '5', guests: 2 } });
    renderWith(client, <OtherTillsOrders search="" />);
    await waitFor(() => expect(row(order.id) && row(second.id)).toBeTruthy(), { timeout: 10_000 });

    // One more fries, from the details dialog: made on Bar.
    fireEvent.click(within(row(order.id)!).getByRole('button', { name: 'Details' }));
    const details = await screen.findByRole('dialog');
    fireEvent.click(within(details).getByRole('button', { name: 'One more Fries' }));
    expect(within(details).getByLabelText('Fries quantity').textContent).toBe('3');
    fireEvent.click(within(details).getByRole('button', { name: 'Send to Bar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).lines[0]?.quantity, { timeout: 10_000 }).toBe(3);

    // Fulfilled while money is due: Bar refuses, and the row says why.
    fireEvent.click(within(row(order.id)!).getByRole('button', { name: 'Mark fulfilled' }));
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
    fireEvent.click(within(row(second.id)!).getByRole('button', { name: 'Cancel order' }));
    const cancel = await screen.findByRole('dialog');
    fireEvent.change(await within(cancel).findByLabelText(/PIN/), { target: { value: STAFF.manager.pin } });
    fireEvent.click(within(cancel).getByRole('button', { name: 'Cancel order' }));
    expect(within(cancel).getByText(/Say why the order is cancelled/)).toBeTruthy();
    fireEvent.change(within(cancel).getByLabelText('Why is it cancelled?'), { target: { value: 'guest left' } });
    fireEvent.click(within(cancel).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 5_000 });
    await waitFor(() => expect(row(second.id)!.querySelector('[data-forward-state="pending"]')?.textContent).toBe('Pending Cancel: guest left — Sent to Bar, waiting for it.'));
  }, 60_000);
});
