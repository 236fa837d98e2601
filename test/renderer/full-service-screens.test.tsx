// @vitest-environment happy-dom
// A full service without surprises (issue 24), the screens' part, against a real core: every
// refusal next to its field and in words, nothing cut silently, the keys that stay put, the focus
// that comes back to the search box, and the smaller things a busy night trips over.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../renderer/App';
import { SyncIndicator } from '../../renderer/components/SyncIndicator';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { Settings } from '../../renderer/screens/Settings';
import { Shift } from '../../renderer/screens/Shift';
import { startSandbox } from '../../sandbox/index';
import { ITEMS, STAFF, startCoreOnSandbox } from '../core/fixtures';
import { CHECKOUT_CONFIG, FLAT_WHITE, fieldError, openRefund, orderRow, renderOrders, renderRegister, seedCoffee, tile } from './checkout-fixtures';
import { createBridgeClient } from '../../renderer/lib/bridge-client';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore } = coreForEachTest();

const search = () => screen.getByLabelText('Search the menu or scan a barcode');
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

/** The register with one soup on the ticket, charged: the payment dialog. */
async function chargeSoup(client: BridgeClient, service?: { table: string; guests: string }): Promise<HTMLElement> {
  await renderRegister(client);
  fireEvent.click(tile(ITEMS.soup));
  if (service) {
    fireEvent.click(screen.getByLabelText(/^Dine in/));
    type(screen.getByLabelText('Table'), service.table);
    type(screen.getByLabelText('Guests'), service.guests);
  }
  fireEvent.click(screen.getByTestId('charge'));
  return screen.findByRole('dialog');
}

describe('the register', () => {
  it('says a customer name too long under the Name field, focused, in words, and takes no more than the core does', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    await renderRegister(client);
    fireEvent.click(tile(ITEMS.soup));
    fireEvent.click(screen.getByRole('button', { name: /Add customer & notes/ }));
    const name = screen.getByLabelText('Name') as HTMLInputElement;
    // A person cannot type past what the core takes, and a full field says so.
    expect(name.maxLength).toBe(120);
    expect((screen.getByLabelText('Phone') as HTMLInputElement).maxLength).toBe(40);
    expect((screen.getByLabelText('Notes') as HTMLTextAreaElement).maxLength).toBe(500);
    // What a paste or a scanner can still put there: the core refuses it, and the page says where.
    type(name, 'A'.repeat(10_000));
    expect(screen.getByText('A name can be at most 120 characters: anything past that is not taken.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Save open/ }));
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    const described = (name.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('The name can be at most 120 characters.');
    await waitFor(() => expect(document.activeElement).toBe(name));
    // No raw validator text anywhere else on the screen, and nothing was saved.
    expect(document.body.textContent).not.toMatch(/Too big|expected string|customer\.name/);
    expect(await client.call('orders.list', {})).toEqual([]);
    type(name, 'Ada Lovelace');
    expect(name.getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /^Save open/ }));
    await waitFor(() => expect(screen.getByTestId('order-label').textContent).toBe('Order A1'));
    expect((await client.call('orders.list', {}))[0]?.customer.name).toBe('Ada Lovelace');
  });

  it('gives the focus back to the search box after the choices dialog and after a payment', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    await renderRegister(client);
    fireEvent.click(tile(FLAT_WHITE));
    let dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText(/^Small/));
    fireEvent.click(within(dialog).getByRole('button', { name: /^Add/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(search()));
    expect(document.querySelector('.ticket-line .line-mods')?.textContent).toBe('Small');
    // Closed without choosing: the same.
    fireEvent.click(tile(FLAT_WHITE));
    dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /^Close/ }));
    await waitFor(() => expect(document.activeElement).toBe(search()));
    fireEvent.click(screen.getByTestId('charge'));
    dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Cash'));
    fireEvent.click(within(dialog).getByTestId('confirm-payment'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(search()));
  });

  it('says how many items the last tile shows of those left, and shows none once all are there', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    const { categories } = await client.call('menu.snapshot', {});
    for (let n = 1; n <= 70; n++) await client.call('menu.createItem', { name: `Special ${String(n).padStart(2, '0')}`, price: 500 + n, categoryId: categories[0]!.id });
    await renderRegister(client);
    const items = (await client.call('menu.snapshot', {})).items.length;
    const more = await screen.findByRole('button', { name: /^Show/ });
    expect(more.textContent).toBe(`Show the last ${items - 60} items`);
    fireEvent.click(more);
    await waitFor(() => expect(document.querySelectorAll('.menu-grid .tile[data-item-id]')).toHaveLength(items));
    expect(screen.queryByRole('button', { name: /^Show/ })).toBeNull();
  });
});

describe('the discount dialog', () => {
  it('says a reason longer than the core takes (100 characters) under the reason, and applies nothing', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    await renderRegister(client);
    fireEvent.click(tile(ITEMS.soup));
    fireEvent.click(screen.getByRole('button', { name: /^Order discount/ }));
    const dialog = within(await screen.findByRole('dialog'));
    type(dialog.getByLabelText('Percent off'), '10');
    const reason = dialog.getByLabelText('Reason (or type your own)');
    type(reason, 'x'.repeat(101));
    fireEvent.click(dialog.getByTestId('apply-discount'));
    expect(fieldError(reason)).toBe('A reason is at most 100 characters (this one has 101).');
    expect(screen.queryByRole('dialog')).not.toBeNull();
    type(reason, 'x'.repeat(100));
    fireEvent.click(dialog.getByTestId('apply-discount'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('the payment dialog', () => {
  it('takes the refusal under the cash handed over away once a quick amount covers the charge', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    const dialog = within(await chargeSoup(client));
    fireEvent.click(dialog.getByLabelText('Cash'));
    const tendered = dialog.getByLabelText('Cash handed over');
    type(tendered, '1');
    fireEvent.click(dialog.getByTestId('confirm-payment'));
    await waitFor(() => expect(fieldError(tendered)).toBe('Cash handed over must be at least $7.62.'));
    fireEvent.click(dialog.getByRole('button', { name: '$10.00' }));
    expect((tendered as HTMLInputElement).value).toBe('10.00');
    expect(fieldError(tendered)).toBeNull();
    expect(tendered.getAttribute('aria-invalid')).toBeNull();
  });

  it('picks card with Alt+C and cash with Alt+H, each key shown on its button', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    const dialog = within(await chargeSoup(client));
    const card = dialog.getByLabelText('Card') as HTMLInputElement;
    const cash = dialog.getByLabelText('Cash') as HTMLInputElement;
    expect(card.closest('label')?.querySelector('kbd')?.textContent).toBe('Alt+C');
    expect(cash.closest('label')?.querySelector('kbd')?.textContent).toBe('Alt+H');
    expect(card.getAttribute('aria-keyshortcuts')).toBe('Alt+C');
    expect(card.checked).toBe(true);
    fireEvent.keyDown(dialog.getByTestId('confirm-payment'), { key: 'h', code: 'KeyH', altKey: true });
    expect(cash.checked).toBe(true);
    expect(dialog.getByLabelText('Cash handed over')).toBeTruthy();
    fireEvent.keyDown(dialog.getByLabelText('Cash handed over'), { key: 'c', code: 'KeyC', altKey: true });
    expect(card.checked).toBe(true);
  });

  it('splits a 3-guest table 3 ways when "Split evenly" is picked', async () => {
    const client = await withCore(CHECKOUT_CONFIG, seedCoffee);
    const dialog = within(await chargeSoup(client, { table: '4', guests: '3' }));
    fireEvent.click(dialog.getByLabelText('Split evenly'));
    await waitFor(() => expect(dialog.getByRole('group', { name: 'Ways' }).querySelector('output')?.textContent).toBe('3 ways'));
  });
});

/** A burger paid in cash, as the register takes it. */
async function paidBurger(client: BridgeClient) {
  const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }] });
  await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total });
  return order;
}

describe('refunds and voids', () => {
  it('asks a cashier for the manager’s PIN before "Yes, refund", never after', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'cashier' });
    const order = await paidBurger(client);
    const dialog = within(await openRefund(client, order.id));
    fireEvent.click(dialog.getByLabelText('By item'));
    fireEvent.click(dialog.getByRole('button', { name: /^One more .* to refund$/ }));
    const pin = dialog.getByLabelText('Manager PIN to approve');
    fireEvent.click(dialog.getByTestId('refund-items'));
    await waitFor(() => expect(fieldError(pin)).toBe('A refund needs a manager: they can approve it with their PIN.'));
    await waitFor(() => expect(document.activeElement).toBe(pin));
    expect(dialog.queryByTestId('refund-question')).toBeNull();
    type(pin, STAFF.manager.pin);
    fireEvent.click(dialog.getByTestId('refund-items'));
    fireEvent.click(await dialog.findByTestId('confirm-refund-items'));
    await waitFor(async () => expect((await client.call('orders.get', { id: order.id })).refundedAmount).toBeGreaterThan(0));
  });

  it('a refund for "Other" needs words, said under the field, before anything is refunded', async () => {
    const client = await withCore();
    const order = await paidBurger(client);
    const dialog = within(await openRefund(client, order.id));
    type(dialog.getByLabelText('Reason'), 'other');
    fireEvent.click(dialog.getByTestId('confirm-refund'));
    const words = dialog.getByLabelText('What happened') as HTMLInputElement;
    await waitFor(() => expect(fieldError(words)).toBe('“Other” needs a few words: say what happened.'));
    await waitFor(() => expect(document.activeElement).toBe(words));
    expect(words.maxLength).toBe(100);
    expect((await client.call('orders.get', { id: order.id })).refundedAmount).toBe(0);
    type(words, 'Burger sent back cold');
    expect(fieldError(words)).toBeNull();
    fireEvent.click(dialog.getByTestId('confirm-refund'));
    await waitFor(async () => expect((await client.call('orders.get', { id: order.id })).refundedAmount).toBe(order.total));
  });

  it('a void needs a reason, and "Other" needs words, before the order is cancelled', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await renderOrders(client);
    await waitFor(() => expect(orderRow(order.id)).toBeTruthy());
    fireEvent.click(within(orderRow(order.id)).getByRole('button'));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    const dialog = within(await screen.findByRole('dialog'));
    const confirm = dialog.getByRole('button', { name: 'Cancel order' });
    const reason = dialog.getByLabelText('Reason');
    fireEvent.click(confirm);
    await waitFor(() => expect(fieldError(reason)).toBe('Choose the reason for the void.'));
    type(reason, 'other');
    fireEvent.click(confirm);
    const words = dialog.getByLabelText('What happened');
    await waitFor(() => expect(fieldError(words)).toBe('“Other” needs a few words: say what happened.'));
    expect((await client.call('orders.get', { id: order.id })).status).toBe('open');
    type(words, 'Table walked out before the food');
    fireEvent.click(confirm);
    await waitFor(async () => expect((await client.call('orders.get', { id: order.id })).status).toBe('cancelled'));
  });
});

describe('Settings', () => {
  it('says a bad API address under its field, focused, and nothing at the foot of the page', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'owner' });
    renderWith(client, <Settings currency="usd" />);
    const form = within(await screen.findByRole('form', { name: 'Connection' }));
    const address = form.getByLabelText('API base URL');
    const before = (await client.call('settings.get', {})).apiBaseUrl;
    type(address, 'https://api.example.com/api');
    fireEvent.click(form.getByRole('button', { name: 'Save connection' }));
    await waitFor(() => expect(fieldError(address)).toBe('The API base URL ends with /v1.'));
    await waitFor(() => expect(document.activeElement).toBe(address));
    // Said once, where the address is; not again far below.
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['The API base URL ends with /v1.']);
    expect((await client.call('settings.get', {})).apiBaseUrl).toBe(before);
    type(address, 'not an address');
    fireEvent.click(form.getByRole('button', { name: 'Save connection' }));
    await waitFor(() => expect(fieldError(address)).toBe('The API base URL should be a web address (http or https).'));
    // Typing again takes the refusal away.
    type(address, 'https://api.example.com/v1');
    expect(fieldError(address)).toBeNull();
    expect(address.getAttribute('aria-invalid')).toBeNull();
  });
});

describe('Settings, the account', () => {
  it('says a refused API key under the key’s field, focused, not at the foot of the page', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'owner' });
    renderWith(client, <Settings currency="usd" />);
    const key = await screen.findByLabelText('API key');
    type(key, 'not a key');
    fireEvent.click(screen.getByRole('button', { name: 'Use this API key' }));
    await waitFor(() => expect(fieldError(key)).toBe('An API key starts with sk_test_ or sk_live_.'));
    await waitFor(() => expect(document.activeElement).toBe(key));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});

describe('the Shift screen', () => {
  it('offers no "Open with no float" while a row of the count is refused', async () => {
    const client = await withCore({}, undefined, { signIn: 'cashier', openShift: false });
    renderWith(client, <Shift />);
    const open = within(await screen.findByRole('form', { name: 'Open the drawer' }));
    expect(open.getByRole('button', { name: 'Open with no float' }).getAttribute('aria-disabled')).toBeNull();
    const twenty = open.getByLabelText('Count of $20.00');
    type(twenty, 'two');
    const button = open.getByRole('button', { name: 'Open the shift' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(open.queryByRole('button', { name: 'Open with no float' })).toBeNull();
    expect(open.getByRole('status').textContent).toBe('Correct the rows marked in the count to open the shift.');
    // A press opens nothing and goes to the row to correct.
    fireEvent.click(button);
    await waitFor(() => expect(document.activeElement).toBe(twenty));
    expect(await client.call('shift.current', {})).toBeNull();
    type(twenty, '2');
    expect(button.getAttribute('aria-disabled')).toBeNull();
  });
});

describe('the screens’ keys', () => {
  it('keeps each screen on its key whoever is signed in; a hidden screen’s key says who may open it', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'cashier' });
    renderWith(client, <App />);
    const nav = within(await screen.findByRole('navigation', { name: 'Screens' }));
    expect(nav.getAllByRole('button').map((b) => b.querySelector('kbd')?.textContent)).toEqual(['Alt+1', 'Alt+8', 'Alt+2', 'Alt+3', 'Alt+4', 'Alt+7']);
    fireEvent.keyDown(window, { key: '5', code: 'Digit5', altKey: true });
    expect((await screen.findByTestId('screen-key-refusal')).textContent).toBe('Reports (Alt+5) needs a manager: ask one to sign in.');
    expect(nav.getByRole('button', { name: /^Register/ }).getAttribute('aria-current')).toBe('page');
    fireEvent.keyDown(window, { key: '7', code: 'Digit7', altKey: true });
    await waitFor(() => expect(nav.getByRole('button', { name: /^Settings/ }).getAttribute('aria-current')).toBe('page'));
    expect(screen.queryByTestId('screen-key-refusal')).toBeNull();
  });
});

describe('the sync panel', () => {
  it('says what waits in words, and that the cloud cannot be reached rather than the engine’s error', async () => {
    const sandbox = await startSandbox({ seed: 'demo' });
    const core = await startCoreOnSandbox(sandbox);
    try {
      const client = createBridgeClient({ invoke: (request) => core.invoke(request), onEvent: (listener) => core.subscribe(listener) });
      const { items } = await waitForMenu(client);
      await sandbox.close();
      renderWith(client, <SyncIndicator />);
      await act(() => client.call('orders.place', { lines: [{ menuItemId: items[0]!.id, quantity: 1 }] }));
      // The engine has tried and failed: its status has the raw error.
      await waitFor(async () => expect((await client.call('sync.status', {})).lastError).toMatch(/\S/), { timeout: 10_000 });
      fireEvent.click(await screen.findByTestId('sync-indicator'));
      const panel = within(await screen.findByRole('dialog'));
      await waitFor(() => expect(panel.getByTestId('sync-last-problem').textContent).toMatch(/^The cloud cannot be reached\./));
      expect(panel.getByTestId('sync-waiting').textContent).toMatch(/^1 change made here \(an order, a payment or another change\), the oldest made \d+ s ago\. They are kept/);
      // The engine's words only behind Details.
      const visible = panel.getByTestId('sync-last-problem').firstChild?.textContent ?? '';
      expect(visible).not.toMatch(/ECONNREFUSED|POST|\/v1/);
    } finally {
      await core.shutdown();
    }
  });
});

async function waitForMenu(client: BridgeClient) {
  let snapshot = await client.call('menu.snapshot', {});
  await waitFor(
    async () => {
      snapshot = await client.call('menu.snapshot', {});
      if (snapshot.items.length === 0) throw new Error('the first pull has not brought the menu yet');
    },
    { timeout: 15_000 },
  );
  return snapshot;
}
