// The terminal end to end: browser mode in Debian's Chromium against the sandbox over loopback.
// One browser and one terminal for the whole file; cases run in order and build on each other.
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MenuItem, MenuSnapshot } from '../../bridge/contract';
import { launchChromium, openRegister, signInOnLockScreen, startTerminal, type Terminal } from './harness';

const SHOTS = 'test-results/screenshots';
let browser: Browser;
let terminal: Terminal;
let page: Page;
let menu: MenuSnapshot;
let consoleErrors: string[];

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** No serious or critical axe violation on what is on screen now. */
async function expectAccessible(): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function pendingCount(): Promise<number> {
  const text = (await page.getByTestId('sync-pending').textContent()) ?? '';
  return Number(/(\d+) waiting/.exec(text)?.[1] ?? NaN);
}

async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${terminal.sandbox.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${terminal.sandbox.credentials.apiKeys.full}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

async function screen(name: 'Register' | 'Orders' | 'Menu' | 'Shift' | 'Settings'): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
}

async function addToTicket(item: MenuItem): Promise<void> {
  await page.locator(`.menu-grid .tile[data-item-id="${item.id}"]`).click();
}

async function payOpenDialog(method: 'Card' | 'Cash'): Promise<void> {
  const dialog = page.locator('dialog[open]');
  await dialog.getByText(method, { exact: true }).click();
  await dialog.getByTestId('confirm-payment').click();
  await dialog.waitFor({ state: 'detached' });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [browser, terminal] = await Promise.all([launchChromium(), startTerminal()]);
  // The first pull brings the sandbox's demo menu.
  menu = await vi.waitFor(
    async () => {
      const r = await terminal.mode.core.invoke({ command: 'menu.snapshot', payload: {} });
      const snapshot = (r as { value: MenuSnapshot }).value;
      if (!r.ok || snapshot.items.length === 0) throw new Error('the first pull has not brought the menu yet');
      return snapshot;
    },
    { timeout: 15_000, interval: 100 },
  );
  ({ page, errors: consoleErrors } = await openRegister(browser, terminal));
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
});

describe('cashier flows in the browser', () => {
  it('takes an order with modifiers and a customer, and pays by card', async () => {
    const withModifiers = menu.items.find((i) => i.available && i.modifiers.length > 0) as MenuItem;
    const plain = menu.items.find((i) => i.available && i.modifiers.length === 0 && i.id !== withModifiers.id) as MenuItem;
    await addToTicket(withModifiers);
    await page.locator('.modifiers .chip').first().click();
    await addToTicket(plain);
    await addToTicket(plain);
    const lines = page.getByTestId('ticket-lines');
    await expect.poll(() => lines.locator('.ticket-line').count()).toBe(2);
    const modifier = withModifiers.modifiers[0] as MenuItem['modifiers'][number];
    const expected = withModifiers.price + modifier.price + 2 * plain.price;
    await page.getByRole('button', { name: 'Add customer & notes' }).click();
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Phone').fill('555-0100');
    await page.getByLabel('Notes').fill('no onions');
    await shot('register-ticket');
    await expectAccessible();
    const before = await terminal.sandbox.countOrders();
    await page.getByTestId('charge').click();
    await page.locator('dialog[open]').waitFor();
    await shot('payment-dialog');
    await expectAccessible();
    await payOpenDialog('Card');
    await expect.poll(() => page.locator('.notice').textContent()).toMatch(/^Paid/);
    // Synced: the order is on the server once, and nothing waits.
    await expect.poll(pendingCount, { timeout: 15_000 }).toBe(0);
    expect(await terminal.sandbox.countOrders()).toBe(before + 1);
    const orders = (await terminal.mode.core.invoke({ command: 'orders.list', payload: {} })) as { value: { total: number; customer: { name: string } }[] };
    expect(orders.value[0]).toMatchObject({ total: expected, customer: { name: 'Ada Lovelace' } });
  });

  it('runs a whole sale from the keyboard: search, scan, charge, pay', async () => {
    const [first, second] = menu.items.filter((i) => i.available && i.modifiers.length === 0) as [MenuItem, MenuItem];
    // The shelf label's barcode, given to the item in the menu manager.
    const barcode = '4006381333931';
    expect(await terminal.mode.core.invoke({ command: 'menu.updateItem', payload: { id: second.id, changes: { barcode } } })).toMatchObject({ ok: true });
    await page.keyboard.press('F9');
    await page.keyboard.press('/');
    await page.keyboard.type(first.name.slice(0, 6));
    await expect.poll(() => page.locator('.menu-grid .tile').first().getAttribute('data-item-id')).toBe(first.id);
    await page.keyboard.press('Enter');
    // A scanner types the code and Enter.
    await page.keyboard.type(barcode);
    await expect.poll(() => page.locator('.search-hint').textContent()).toBe(`Enter adds ${second.name}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('ticket-lines').locator('.line-name').allTextContents()).toEqual([first.name, second.name]);
    // "-" and "+" change the selected line's quantity, but not while typing in a field.
    await page.keyboard.press('+');
    await page.getByRole('button', { name: 'Add customer & notes' }).click();
    await page.getByLabel('Phone').click();
    await page.keyboard.type('555-0199');
    expect(await page.getByLabel('Phone').inputValue()).toBe('555-0199');
    expect(await page.locator('.qty-value').allTextContents()).toEqual(['1', '2']);
    await page.keyboard.press('F8');
    await page.locator('dialog[open]').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.notice').textContent()).toMatch(/^Paid/);
  });

  it('saves an order open, then edits it from the order list', async () => {
    const [first, second] = menu.items.filter((i) => i.available && i.modifiers.length === 0).slice(2) as [MenuItem, MenuItem];
    await addToTicket(first);
    await page.getByRole('button', { name: 'Add customer & notes' }).click();
    await page.getByLabel('Name').fill('Edsger');
    await page.keyboard.press('F7');
    await expect.poll(() => page.locator('.notice').textContent()).toMatch(/Order saved for Edsger/);
    await screen('Orders');
    await page.locator('tbody tr').filter({ hasText: 'Edsger' }).getByRole('button').click();
    await page.getByRole('button', { name: 'Edit' }).click();
    await expect.poll(() => page.locator('.ticket-header h2').textContent()).toBe('Editing order');
    await addToTicket(second);
    await page.getByRole('button', { name: /Save changes/ }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toMatch(/Order saved for Edsger/);
    const orders = (await terminal.mode.core.invoke({ command: 'orders.list', payload: { search: 'Edsger' } })) as { value: { total: number; lines: unknown[] }[] };
    expect(orders.value).toHaveLength(1);
    expect(orders.value[0]).toMatchObject({ total: first.price + second.price });
  });

  it('keeps selling through an outage and delivers every order once when it ends', async () => {
    const item = menu.items.find((i) => i.available && i.modifiers.length === 0) as MenuItem;
    const before = await terminal.sandbox.countOrders();
    await terminal.sandbox.faults.set({ outage: true });
    for (let n = 0; n < 5; n++) {
      await addToTicket(item);
      await page.keyboard.press('F8');
      await page.locator('dialog[open]').waitFor();
      await payOpenDialog(n % 2 === 0 ? 'Cash' : 'Card');
    }
    // The first push that fails turns the indicator; nothing the cashier did waited for it.
    await expect.poll(() => page.getByTestId('sync-indicator').textContent(), { timeout: 15_000 }).toMatch(/Offline/);
    await expect.poll(pendingCount).toBeGreaterThanOrEqual(5);
    await shot('register-offline');
    // Signing out now would strand those changes: the terminal asks first and says so.
    await screen('Settings');
    await page.getByRole('button', { name: 'Sign out' }).click();
    const confirm = page.locator('dialog[open]');
    await expect.poll(() => confirm.textContent()).toMatch(/\d+ changes are not in the cloud yet.*stay on this terminal/);
    await shot('sign-out-confirm');
    await expectAccessible();
    await confirm.getByRole('button', { name: 'Keep working' }).click();
    await confirm.waitFor({ state: 'detached' });
    // Resetting now would destroy them: the dialog names how many, and cancelling keeps everything.
    const waiting = await pendingCount();
    await page.getByRole('button', { name: 'Reset this terminal' }).click();
    const reset = page.locator('dialog[open]');
    await expect.poll(() => reset.getByTestId('reset-loss').textContent()).toMatch(new RegExp(`^${waiting} changes are not in the cloud yet \\(touching \\d+ orders? and \\d+ card payments?\\), the oldest made today at .* A reset deletes them for good\\.$`));
    await expect(reset.getByTestId('confirm-reset').textContent()).resolves.toBe(`Reset and lose ${waiting} changes`);
    await shot('reset-confirm');
    await expectAccessible();
    await reset.getByRole('button', { name: 'Keep everything' }).click();
    await reset.waitFor({ state: 'detached' });
    expect(await pendingCount()).toBe(waiting);
    const kept = await terminal.mode.core.invoke({ command: 'session.pending', payload: {} });
    expect(kept).toMatchObject({ ok: true, value: { pending: waiting } });
    // Closing a tab of the terminal with changes waiting asks first, too.
    const second = await page.context().newPage();
    await second.goto(terminal.mode.host.launchUrl);
    await second.locator('.menu-grid .tile').first().waitFor();
    await expect.poll(async () => Number(/(\d+) waiting/.exec((await second.getByTestId('sync-pending').textContent()) ?? '')?.[1])).toBeGreaterThan(0);
    await second.locator('#menu-search').click(); // browsers only ask after the page has been used
    const asked = second.waitForEvent('dialog');
    await second.close({ runBeforeUnload: true });
    const question = await asked;
    expect(question.type()).toBe('beforeunload');
    await question.accept();
    // The order list watches its own sync badges while the outage ends.
    await screen('Orders');
    await expect.poll(() => page.locator('tbody .badge.sync-pending').count()).toBeGreaterThan(0);
    await terminal.sandbox.faults.set({ outage: false });
    await expect.poll(pendingCount, { timeout: 30_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('sync-indicator').textContent()).toMatch(/Online, all synced/);
    // Same event, same moment: no order still says "Waiting to sync" once the indicator says all synced.
    await expect.poll(() => page.locator('tbody .badge.sync-pending').count(), { timeout: 1_000 }).toBe(0);
    await screen('Register');
    expect(await terminal.sandbox.countOrders()).toBe(before + 5);
  });

  it('refunds part of a card payment from the order list', async () => {
    await screen('Orders');
    const row = page.locator('tbody tr').filter({ hasText: 'Ada Lovelace' });
    await row.getByRole('button').click();
    await expect.poll(() => page.getByTestId('order-paid').textContent()).not.toBe('$0.00');
    await shot('orders');
    await expectAccessible();
    await page.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByLabel(/Amount to give back/).fill('1.00');
    await dialog.getByLabel('Reason').selectOption('requested_by_customer');
    await shot('refund-dialog');
    await expectAccessible();
    await dialog.getByTestId('confirm-refund').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('order-refunded').textContent()).toBe('$1.00');
    expect(await page.getByTestId('order-notice').textContent()).toMatch(/^Refunded \$1\.00 to the card that paid \$\d+\.\d\d\.$/);
    expect(await row.locator('.badge').allTextContents()).toContain('Partially refunded');
    await expect.poll(pendingCount, { timeout: 15_000 }).toBe(0);
    expect(await page.getByTestId('sync-dead-count').count()).toBe(0);
  });

  it("86s an item in the menu manager and the server sees it", async () => {
    await screen('Menu');
    const item = menu.items.find((i) => i.available) as MenuItem;
    const row = page.locator(`tr[data-item-id="${item.id}"]`);
    await row.getByRole('button', { name: '86 it' }).click();
    await expect.poll(() => row.textContent()).toMatch(/Sold out/);
    await shot('menu-manager');
    await expectAccessible();
    // A manager adds an item; it reaches the server too.
    await page.getByRole('button', { name: 'New item' }).click();
    const editor = page.locator('dialog[open]');
    await editor.getByLabel('Name').fill('Seasonal lemonade');
    await editor.getByLabel('Price').fill('4.25');
    await shot('menu-item-editor');
    await expectAccessible();
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('tbody').textContent()).toMatch(/Seasonal lemonade/);
    await expect.poll(pendingCount, { timeout: 15_000 }).toBe(0);
    const serverItems = (await (await api(`/menu/items?per_page=100`)).json()) as { data: { id: string; name: string; price: number; available: boolean }[] };
    expect(serverItems.data.find((i) => i.id === item.id)?.available).toBe(false);
    expect(serverItems.data.find((i) => i.name === 'Seasonal lemonade')?.price).toBe(425);
    await screen('Register');
    await expect.poll(() => page.locator(`.tile[data-item-id="${item.id}"]`).isDisabled()).toBe(true);
  });

  it('shows an order the cloud refused as a dead letter, and discards it', async () => {
    const doomed = menu.items.filter((i) => i.available)[3] as MenuItem;
    expect((await api(`/menu/items/${doomed.id}`, { method: 'DELETE' })).ok).toBe(true);
    await screen('Register');
    await addToTicket(doomed);
    await page.keyboard.press('F7');
    await expect.poll(() => page.getByTestId('sync-dead-count').count(), { timeout: 15_000 }).toBe(1);
    await page.getByTestId('sync-indicator').click();
    const dialog = page.locator('dialog[open]');
    const letters = dialog.getByTestId('dead-letter');
    await expect.poll(() => letters.allTextContents()).toEqual([expect.stringMatching(/New order \(1 line\).*no menu item/)]);
    await shot('sync-dead-letter');
    await expectAccessible();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => letters.count()).toBe(0);
    await dialog.getByRole('button', { name: /Close/ }).click();
    await expect.poll(() => page.getByTestId('sync-dead-count').count()).toBe(0);
  });

  it("explains an order changed here and on another till at the same time; Retry puts this till's quantity back", async () => {
    const item = menu.items.filter((i) => i.available && i.modifiers.length === 0)[4] as MenuItem;
    await screen('Register');
    await addToTicket(item);
    await page.getByRole('button', { name: 'Add customer & notes' }).click();
    await page.getByLabel('Name').fill('Grace');
    await page.keyboard.press('F7');
    await expect.poll(() => page.locator('.notice').textContent()).toMatch(/Order saved for Grace/);
    await expect.poll(pendingCount, { timeout: 15_000 }).toBe(0);
    const local = (await terminal.mode.core.invoke({ command: 'orders.list', payload: { search: 'Grace' } })) as { value: { id: string }[] };
    const recent = new Date(Date.now() - 60_000).toISOString();
    const listed = (await (await api(`/orders?per_page=100&created_after=${recent}`)).json()) as { data: { id: string; metadata: Record<string, string> }[] };
    const serverId = listed.data.find((o) => o.metadata.pos_local_id === local.value[0]!.id)!.id;

    // Cut off, this till makes it two; another till (straight in the sandbox's database: its API
    // is down too) makes it three.
    await terminal.sandbox.faults.set({ outage: true });
    await screen('Orders');
    await page.locator('tbody tr').filter({ hasText: 'Grace' }).getByRole('button').click();
    await page.getByRole('button', { name: 'Edit' }).click();
    await addToTicket(item);
    await page.getByRole('button', { name: /Save changes/ }).click();
    await expect.poll(pendingCount).toBeGreaterThan(0);
    await terminal.sandbox.db
      .updateTable('orders')
      .set({ doc: sql<string>`json_set(doc, '$.items[0].quantity', 3, '$.total', ${item.price * 3}, '$.updated_at', ${new Date().toISOString()})` })
      .where('id', '=', serverId)
      .execute();
    await terminal.sandbox.faults.set({ outage: false });

    await expect.poll(() => page.getByTestId('sync-dead-count').count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('sync-indicator').click();
    const dialog = page.locator('dialog[open]');
    const letters = dialog.getByTestId('dead-letter');
    await expect.poll(() => letters.allTextContents()).toEqual([expect.stringMatching(/Another terminal changed the same items of this order at the same time/)]);
    await shot('sync-order-conflict');
    await expectAccessible();
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => letters.count(), { timeout: 15_000 }).toBe(0);
    await dialog.getByRole('button', { name: /Close/ }).click();
    await expect.poll(pendingCount, { timeout: 15_000 }).toBe(0);
    const server = (await (await api(`/orders/${serverId}`)).json()) as { items: { quantity: number }[] };
    expect(server.items.map((line) => line.quantity)).toEqual([2]);
  });

  it('lists an order the cloud priced higher than the till, until a manager marks it settled', async () => {
    const item = menu.items.filter((i) => i.available && i.modifiers.length === 0)[2] as MenuItem;
    await terminal.sandbox.faults.set({ outage: true });
    await screen('Register');
    await addToTicket(item);
    await page.keyboard.press('F7');
    await expect.poll(pendingCount).toBeGreaterThan(0);
    // While the till is cut off, the menu price goes up in the cloud (straight in the sandbox's
    // database: its API is down too).
    await terminal.sandbox.db
      .updateTable('menu_items')
      .set({ doc: sql<string>`json_set(doc, '$.price', ${item.price + 150})` })
      .where('id', '=', item.id)
      .execute();
    await terminal.sandbox.faults.set({ outage: false });
    await expect.poll(() => page.getByTestId('sync-repriced-count').textContent(), { timeout: 30_000 }).toBe('1 repriced');
    await page.getByTestId('sync-indicator').click();
    const dialog = page.locator('dialog[open]');
    const money = (minor: number) => `$${(minor / 100).toFixed(2)}`;
    await expect
      .poll(() => dialog.getByTestId('repriced-order').textContent())
      .toContain(`priced this order at ${money(item.price + 150)}, the till at ${money(item.price)} ($1.50 more)`);
    await shot('sync-repriced-order');
    await expectAccessible();
    await dialog.getByRole('button', { name: 'Mark settled' }).click();
    await expect.poll(() => dialog.getByTestId('repriced-order').count()).toBe(0);
    await dialog.getByRole('button', { name: /Close/ }).click();
    await expect.poll(() => page.getByTestId('sync-repriced-count').count()).toBe(0);
  });

  it('shows the shift', async () => {
    await screen('Shift');
    await expect.poll(() => page.getByTestId('shift-net').textContent()).not.toBe('$0.00');
    await shot('shift');
    await expectAccessible();
  });

  it('receives signed webhooks: a low-stock event marks the tile at once', async () => {
    await screen('Settings');
    await page.getByLabel('Receive webhook events').check();
    await page.getByRole('button', { name: 'Save connection' }).click();
    const receiving = await page.getByTestId('webhook-url').textContent({ timeout: 10_000 });
    const url = /Receiving at (\S+)/.exec(receiving ?? '')?.[1] as string;
    const endpoint = await terminal.sandbox.createWebhookEndpoint({ url, event_types: ['inventory.low_stock', 'menu.item_updated'] });
    await page.getByLabel(/Signing secret/).fill(endpoint.secret);
    await page.getByRole('button', { name: 'Save connection' }).click();
    await expect.poll(() => page.getByTestId('webhook-url').textContent()).not.toMatch(/refused until/);
    const item = menu.items.filter((i) => i.available)[5] as MenuItem;
    expect((await api(`/menu/items/${item.id}`, { method: 'PATCH', body: { stock: 2, low_stock_threshold: 5 } })).ok).toBe(true);
    await screen('Register');
    const tile = page.locator(`.tile[data-item-id="${item.id}"]`);
    await expect.poll(() => tile.textContent(), { timeout: 15_000 }).toMatch(/Low stock/);
    await shot('register-low-stock');
  });

  it('connects with OAuth through the sandbox consent page', async () => {
    await screen('Settings');
    await shot('settings');
    await expectAccessible();
    const consent = page.context().waitForEvent('page', { timeout: 10_000 });
    await page.getByRole('button', { name: 'Connect with OAuth' }).click({ timeout: 10_000 });
    const consentPage = await consent;
    await consentPage.getByRole('button', { name: 'Approve' }).click({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('oauth-status').textContent(), { timeout: 10_000 }).toMatch(/Connected with OAuth/);
    await consentPage.close();
    await expect.poll(() => page.locator('.card[aria-label="Account"]').textContent()).toMatch(/Connected with OAuth \(at_live_…/);
    // Sync keeps working on the new credentials.
    await screen('Register');
    const item = menu.items.filter((i) => i.available)[1] as MenuItem;
    const before = await terminal.sandbox.countOrders();
    await addToTicket(item);
    await page.keyboard.press('F7');
    await expect.poll(() => terminal.sandbox.countOrders(), { timeout: 15_000 }).toBe(before + 1);
  });

  it('resets the terminal when the owner confirms: an empty register, no sign-in, still working', async () => {
    await expect.poll(pendingCount, { timeout: 15_000 }).toBe(0);
    await screen('Settings');
    await page.getByRole('button', { name: 'Reset this terminal' }).click();
    const reset = page.locator('dialog[open]');
    await expect.poll(() => reset.getByTestId('reset-loss').textContent()).toMatch(/nothing is lost/);
    await reset.getByTestId('confirm-reset').click();
    await reset.waitFor({ state: 'detached', timeout: 10_000 });
    // The staff session went with the store: the till is locked. The owner (provisioned by IT, so
    // there again) signs in, back on Settings, which says what happened and what to do next.
    await page.getByRole('form', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    await signInOnLockScreen(page, 'owner');
    await expect.poll(() => page.getByTestId('reset-done').textContent({ timeout: 5_000 })).toMatch(/This terminal was reset/);
    await expect.poll(() => page.locator('.card[aria-label="Account"]').textContent()).toMatch(/Not connected/);
    await expect.poll(() => page.getByTestId('sync-indicator').textContent()).toMatch(/Not connected to an account/);
    await shot('after-reset');
    // The longest status line ("Not connected to an account") still fits: nothing runs off screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await screen('Orders');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(0);
    // The fresh store works: an API key brings the cloud's menu back.
    await screen('Settings');
    await page.getByLabel('API key').fill(terminal.sandbox.credentials.apiKeys.full);
    await page.getByRole('button', { name: 'Use this API key' }).click();
    await expect.poll(() => page.locator('.card[aria-label="Account"]').textContent()).toMatch(/Connected with an API key/);
    // The confirmation survives the form being rebuilt with the new settings.
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'API key saved.' }).count()).toBe(1);
    await screen('Register');
    await expect.poll(() => page.locator('.menu-grid .tile').count(), { timeout: 15_000 }).toBeGreaterThan(0);
  });

  it('ran every case without a console error or CSP violation', () => {
    expect(consoleErrors).toEqual([]);
  });
});
