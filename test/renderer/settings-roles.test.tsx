// @vitest-environment happy-dom
// Settings and approvals by role, on a real core with the test staff: a cashier sees what the till
// is set to and "Ask a manager", no system or store setting, no Reports or Staff tab; a manager
// the store's settings (drawer mode and auto-lock among them, saved) and none of the owner's; the
// owner everything, with no manager-PIN section left. A cashier's cancel and refund ask for a
// manager's PIN next to its field ("Manager PIN to approve"), refuse a wrong one in the core's
// words, and go through with the right one; a manager is asked nothing.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../renderer/App';
import { RefundDialog } from '../../renderer/components/RefundDialog';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { Orders } from '../../renderer/screens/Orders';
import { Settings } from '../../renderer/screens/Settings';
import { ITEMS, STAFF } from '../core/fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();

/** The message a field points at (aria-describedby), if it is an alert. */
function fieldError(input: HTMLElement): string | null {
  const note = document.getElementById(input.getAttribute('aria-describedby') ?? '');
  return note?.getAttribute('role') === 'alert' ? note.textContent : null;
}

const SYSTEM_LABELS = ['API base URL', 'API host (OAuth token endpoint)', 'Receive webhook events', 'API key'];
const STORE_LABELS = ['Largest single payment without a manager', 'Ask to confirm a charge above (0: never ask)', 'Till letter (in order numbers, e.g. A17)', 'Print the receipt after each payment'];

async function settingsAs(signIn: 'owner' | 'manager' | 'cashier'): Promise<BridgeClient> {
  const client = await withCore(undefined, undefined, { signIn });
  renderWith(client, <Settings currency="usd" />);
  return client;
}

describe('Settings by role', () => {
  it('a cashier sees what the till is set to and "Ask a manager", and nothing to change', async () => {
    await settingsAs('cashier');
    expect((await screen.findByTestId('ask-manager')).textContent).toMatch(/^Ask a manager to change settings\./);
    const info = within(screen.getByRole('region', { name: 'This till' }));
    expect(info.getByText('Till letter')).toBeTruthy();
    expect(info.getByText('After 5 minutes without use')).toBeTruthy();
    for (const label of [...SYSTEM_LABELS, ...STORE_LABELS]) expect(screen.queryByLabelText(label), label).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByText(/Reset this terminal/)).toBeNull();
  });

  it('a cashier gets no Reports or Staff tab in the app', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'cashier' });
    renderWith(client, <App />);
    const nav = within(await screen.findByRole('navigation', { name: 'Screens' }));
    expect(nav.getAllByRole('button').map((b) => b.textContent)).toEqual(['Register Alt+1', 'Tables Alt+8', 'Orders Alt+2', 'Menu Alt+3', 'Shift Alt+4', 'Settings Alt+7']);
  });

  it('a manager changes the store’s settings, the drawer mode and the auto-lock, and none of the owner’s', async () => {
    const client = await settingsAs('manager');
    const form = within(await screen.findByRole('form', { name: 'Payments and the till' }));
    for (const label of STORE_LABELS) expect(screen.getByLabelText(label), label).toBeTruthy();
    for (const label of SYSTEM_LABELS) expect(screen.queryByLabelText(label), label).toBeNull();
    expect(screen.queryByRole('button', { name: /Reset this terminal/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
    expect(screen.getByTestId('owner-only').textContent).toMatch(/the owner’s|the owner's/);
    // PINs are per person now: no manager-PIN section, a pointer to the Staff screen instead.
    expect(screen.queryByLabelText(/manager PIN/i)).toBeNull();
    // Shown once the session says who is signed in (its own query): waited for, not assumed.
    expect((await screen.findByRole('region', { name: 'Staff and PINs' })).textContent).toMatch(/Staff screen/);

    const autoLock = form.getByLabelText('Lock the till after this many minutes without use (0: never)');
    fireEvent.change(autoLock, { target: { value: '300' } });
    fireEvent.click(form.getByRole('button', { name: 'Save payments and till' }));
    await waitFor(() => expect(fieldError(autoLock)).toBe('Enter a whole number from 0 to 240.'));
    expect((await client.call('settings.get', {})).autoLockMinutes).toBe(5);

    // The core's refusal about the drawer (a shift is open) is said next to it; nothing is saved.
    fireEvent.change(autoLock, { target: { value: '10' } });
    fireEvent.click(form.getByLabelText('A drawer per cashier'));
    fireEvent.click(form.getByRole('button', { name: 'Save payments and till' }));
    const drawer = form.getByRole('group', { name: 'Cash drawer' });
    await waitFor(() => expect(document.getElementById(drawer.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Close every open shift before changing how drawers are shared.'));
    expect((await client.call('settings.get', {})).autoLockMinutes).toBe(5);

    await client.call('shift.close', { count: [] });
    fireEvent.click(form.getByRole('button', { name: 'Save payments and till' }));
    await screen.findByText('Settings saved.');
    const saved = await client.call('settings.get', {});
    expect(saved).toMatchObject({ autoLockMinutes: 10, drawerMode: 'per_cashier' });
    expect(await client.call('staff.session', {})).toMatchObject({ autoLockMs: 600_000, drawerMode: 'per_cashier' });
    await waitFor(() => expect((screen.getByLabelText('A drawer per cashier') as HTMLInputElement).checked).toBe(true));
  });

  it('the owner sees the connection, the account and the reset too', async () => {
    await settingsAs('owner');
    await screen.findByRole('form', { name: 'Connection' });
    for (const label of [...SYSTEM_LABELS, ...STORE_LABELS]) expect(screen.getByLabelText(label), label).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset this terminal' })).toBeTruthy();
    expect(screen.queryByTestId('owner-only')).toBeNull();
    expect(screen.queryByLabelText(/manager PIN/i)).toBeNull();
  });
});

async function paidOrder(client: BridgeClient) {
  const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
  // In cash: a card payment can be refunded only once the cloud has confirmed it (none here).
  await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
  return client.call('orders.get', { id: order.id });
}

describe('approvals', () => {
  it('a cashier cancels an order with a manager’s PIN: asked next to its field, a wrong one refused in the core’s words', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'cashier' });
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const { checkout } = await client.call('menu.snapshot', {});
    renderWith(client, <Orders onEdit={() => undefined} checkout={checkout} />);
    fireEvent.click(await screen.findByRole('button', { name: order.label }));
    expect((await screen.findByTestId('order-staff')).textContent).toBe(` · ${STAFF.cashier.name}’s order`);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel order' }));
    const dialog = within(await screen.findByRole('dialog'));
    const pin = dialog.getByLabelText('Manager PIN to approve');
    const confirm = dialog.getByRole('button', { name: 'Cancel order' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(dialog.getByLabelText('Reason'), { target: { value: 'mistake' } });
    fireEvent.change(pin, { target: { value: '1357' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(fieldError(pin)).toMatch(/^That PIN is not right\. .* needs a manager\. Nothing was changed\.$/));
    expect((await client.call('orders.get', { id: order.id })).status).toBe('open');
    fireEvent.change(pin, { target: { value: STAFF.manager.pin } });
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await client.call('orders.get', { id: order.id })).status).toBe('cancelled');
  });

  it('a cashier refunds with a manager’s PIN; a manager is asked nothing', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'cashier' });
    const order = await paidOrder(client);
    const refunded: string[] = [];
    const view = renderWith(client, <RefundDialog order={order} onClose={() => undefined} onRefunded={(_o, said) => refunded.push(said)} />);
    const pin = await screen.findByLabelText('Manager PIN to approve');
    fireEvent.change(screen.getByLabelText(/Amount to give back/), { target: { value: '2.00' } });
    fireEvent.click(screen.getByTestId('confirm-refund'));
    await waitFor(() => expect(fieldError(pin)).toBe('A refund needs a manager: they can approve it with their PIN.'));
    fireEvent.change(pin, { target: { value: STAFF.manager.pin } });
    fireEvent.click(screen.getByTestId('confirm-refund'));
    await waitFor(() => expect(refunded).toEqual(['Refunded $2.00 in cash: hand it to the customer.']));
    const after = await client.call('orders.get', { id: order.id });
    expect(after.refundedAmount).toBe(200);
    expect(after.payments[0]?.refunds[0]?.staff?.name).toBe(STAFF.cashier.name);
    view.unmount();

    await core().call('staff.signIn', { pin: STAFF.manager.pin });
    renderWith(client, <RefundDialog order={after} onClose={() => undefined} onRefunded={(_o, said) => refunded.push(said)} />);
    // The manager refunds with no PIN; by the time it is done the dialog knows who is signed in, and still asks for none.
    fireEvent.change(await screen.findByLabelText(/Amount to give back/), { target: { value: '1.00' } });
    fireEvent.click(screen.getByTestId('confirm-refund'));
    await waitFor(() => expect(refunded).toEqual(['Refunded $2.00 in cash: hand it to the customer.', 'Refunded $1.00 in cash: hand it to the customer.']));
    expect(screen.queryByLabelText('Manager PIN to approve')).toBeNull();
  });
});
