// The terminal end to end: browser mode in Debian's Chromium against the sandbox over loopback.
// One browser and one terminal for the file, but every case opens its own page (an empty ticket)
// and sets up what it needs itself: its own orders and menu items, made in the case. What a case
// changes that the others could see (an outage, a barcode, an 86'd item, webhooks, the credentials)
// it puts back in a `finally`; the reset case resets a terminal of its own.
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandInput, CommandName, CommandResult, MenuItem, MenuSnapshot, Order } from '../../bridge/contract';
import { callCore, goToScreen, launchChromium, openRegister, signInOnLockScreen, startTerminal, waitForCount, waitForText, type Terminal } from './harness';
import { screenshotIfFailed, settle } from './shots';

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

function call<C extends CommandName>(command: C, payload: CommandInput<C>): Promise<CommandResult<C>> {
  return callCore(terminal, command, payload);
}

async function pendingCount(): Promise<number> {
  const text = (await page.getByTestId('sync-pending').textContent()) ?? '';
  return Number(/(\d+) waiting/.exec(text)?.[1] ?? NaN);
}

/** Waits until the pill says nothing waits to sync. */
async function allSynced(): Promise<void> {
  await waitForText(page.getByTestId('sync-pending'), /^0 waiting/);
}

async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${terminal.sandbox.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${terminal.sandbox.credentials.apiKeys.full}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/** The copies of this terminal's order `localId` the cloud holds. */
async function cloudCopies(localId: string): Promise<number> {
  const rows = await terminal.sandbox.db
    .selectFrom('orders')
    .select('id')
    .where(sql<string>`json_extract(doc, '$.metadata.pos_local_id')`, '=', localId)
    .execute();
  return rows.length;
}

/** Waits until the cloud holds this terminal's order `localId` and nothing waits to sync. */
async function inTheCloud(localId: string): Promise<void> {
  await vi.waitFor(
    async () => {
      if ((await cloudCopies(localId)) === 0) throw new Error(`the order ${localId} has not reached the cloud yet`);
    },
    { timeout: 15_000, interval: 100 },
  );
  await allSynced();
}

/** The terminal's one order whose customer or number matches `search`. */
async function theOrder(search: string): Promise<Order> {
  const found = await call('orders.list', { search });
  expect(found, `orders matching "${search}"`).toHaveLength(1);
  return found[0]!;
}

async function screen(name: 'Register' | 'Orders' | 'Menu' | 'Shift' | 'Settings'): Promise<void> {
  await goToScreen(page, name);
}

/** Items that go on the ticket with one tap, as the menu came from the cloud (cases use their own items for what they change). */
function plainItems(): MenuItem[] {
  return menu.items.filter((i) => i.available && i.modifiers.length === 0);
}

/**
 * A menu item of the case's own (so what it changes on the server or the till touches no other
 * case), in the cloud before it returns, with the id the cloud gave it.
 */
async function ownItem(name: string, price: number): Promise<{ item: MenuItem; serverId: string }> {
  const item = await call('menu.createItem', { name, price, categoryId: menu.categories[0]!.id });
  const serverId = await vi.waitFor(
    async () => {
      const row = await terminal.sandbox.db.selectFrom('menu_items').select('id').where(sql<string>`json_extract(doc, '$.name')`, '=', name).executeTakeFirst();
      if (row === undefined) throw new Error(`${name} has not reached the cloud yet`);
      return row.id;
    },
    { timeout: 15_000, interval: 100 },
  );
  return { item, serverId };
}

function tile(item: MenuItem) {
  return page.locator(`.menu-grid .tile[data-item-id="${item.id}"]`);
}

/** The item's tile, searched for by name: the grid shows the first page of the menu only, and an item a case made comes last. */
async function searchedTile(item: MenuItem) {
  await page.locator('#menu-search').fill(item.name);
  return tile(item);
}

async function addToTicket(item: MenuItem): Promise<void> {
  await tile(item).click();
}

async function payOpenDialog(method: 'Card' | 'Cash'): Promise<void> {
  const dialog = page.locator('dialog[open]');
  await dialog.getByText(method, { exact: true }).click();
  await dialog.getByTestId('confirm-payment').click();
  await dialog.waitFor({ state: 'detached' });
}

/** Lets the page finish what the last change started (the shortcut keys read the screen's state as of its last effects). */
async function ready(): Promise<void> {
  await settle(page);
}

/** Whatever a case left refused or repriced in the sync panel is cleared, so it cannot count in another case. */
async function clearSyncLeftovers(): Promise<void> {
  const status = await call('sync.status', {});
  for (const letter of status.deadLetters) await call('sync.discardDeadLetter', { id: letter.id });
  for (const order of status.repricedOrders) await call('sync.settleRepricedOrder', { id: order.id });
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
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
});

describe('cashier flows in the browser', () => {
  // A page of its own for every case (signed in as the owner, the drawer open), and no console
  // error or CSP violation on it.
  beforeEach(async () => {
    ({ page, errors: consoleErrors } = await openRegister(browser, terminal));
  });
  afterEach(async ({ task }) => {
    await screenshotIfFailed(page, task, 'terminal');
    await page?.context().close();
    expect(consoleErrors, 'console errors and CSP violations').toEqual([]);
  });

  it('takes an order with modifiers and a customer, and pays by card', async () => {
    const withModifiers = menu.items.find((i) => i.available && i.modifiers.length > 0) as MenuItem;
    const plain = plainItems().find((i) => i.id !== withModifiers.id) as MenuItem;
    await addToTicket(withModifiers);
    await page.locator('.modifiers .chip').first().click();
    await addToTicket(plain);
    await addToTicket(plain);
    await waitForCount(page.getByTestId('ticket-lines').locator('.ticket-line'), 2);
    const modifier = withModifiers.modifiers[0] as MenuItem['modifiers'][number];
    const expected = withModifiers.price + modifier.price + 2 * plain.price;
    await page.getByRole('button', { name: 'Add customer & notes' }).click();
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Phone').fill('555-0100');
    await page.getByLabel('Notes').fill('no onions');
    await shot('register-ticket');
    await expectAccessible();
    await page.getByTestId('charge').click();
    await page.locator('dialog[open]').waitFor();
    await shot('payment-dialog');
    await expectAccessible();
    await payOpenDialog('Card');
    await waitForText(page.locator('.notice'), /^Paid/);
    // Synced: the order is on the server once, and nothing waits.
    const order = await theOrder('Ada Lovelace');
    expect(order).toMatchObject({ total: expected, customer: { name: 'Ada Lovelace' } });
    await inTheCloud(order.id);
    expect(await cloudCopies(order.id)).toBe(1);
  });

  it('runs a whole sale from the keyboard: search, scan, charge, pay', async () => {
    const [first, second] = plainItems() as [MenuItem, MenuItem];
    // The shelf label's barcode, given to the item in the menu manager (taken off again after).
    const barcode = '4006381333931';
    await call('menu.updateItem', { id: second.id, changes: { barcode } });
    try {
      const search = page.locator('#menu-search');
      const hint = page.locator('.search-hint');
      // The search box has the focus when the register opens; "/" takes it back from anywhere else.
      await search.blur();
      await search.and(page.locator(':focus')).waitFor({ state: 'detached' });
      await ready();
      await page.keyboard.press('/');
      await search.and(page.locator(':focus')).waitFor();
      await page.keyboard.type(first.name.slice(0, 6));
      await waitForText(hint, `Enter adds ${first.name}`);
      await page.keyboard.press('Enter');
      await waitForText(page.getByTestId('ticket-lines').locator('.line-name'), first.name);
      // A scanner types the code and Enter.
      await page.keyboard.type(barcode);
      await waitForText(hint, `Enter adds ${second.name}`);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('ticket-lines').locator('.line-name').allTextContents()).toEqual([first.name, second.name]);
      // "-" and "+" change the selected line's quantity, but not while typing in a field.
      await ready();
      await page.keyboard.press('+');
      await expect.poll(() => page.locator('.qty-value').allTextContents()).toEqual(['1', '2']);
      await page.getByRole('button', { name: 'Add customer & notes' }).click();
      await page.getByLabel('Phone').click();
      await page.keyboard.type('555-0199');
      expect(await page.getByLabel('Phone').inputValue()).toBe('555-0199');
      expect(await page.locator('.qty-value').allTextContents()).toEqual(['1', '2']);
      await ready();
      await page.keyboard.press('F8');
      await page.locator('dialog[open]').waitFor();
      await page.keyboard.press('Enter');
      await waitForText(page.locator('.notice'), /^Paid/);
    } finally {
      await call('menu.updateItem', { id: second.id, changes: { barcode: null } });
    }
  });

  it('saves an order open, then edits it from the order list', async () => {
    const [first, second] = plainItems().slice(2) as [MenuItem, MenuItem];
    await addToTicket(first);
    await page.getByRole('button', { name: 'Add customer & notes' }).click();
    await page.getByLabel('Name').fill('Edsger');
    await ready();
    await page.keyboard.press('F7');
    await waitForText(page.locator('.notice'), /Order saved for Edsger/);
    await screen('Orders');
    await page.locator('tbody tr').filter({ hasText: 'Edsger' }).getByRole('button').click();
    await page.getByRole('button', { name: 'Edit' }).click();
    await waitForText(page.locator('.ticket-header h2'), 'Editing order');
    await addToTicket(second);
    await page.getByRole('button', { name: /Save changes/ }).click();
    await waitForText(page.locator('.notice'), /Order saved for Edsger/);
    expect(await theOrder('Edsger')).toMatchObject({ total: first.price + second.price });
  });

  it('keeps selling through an outage and delivers every order once when it ends', async () => {
    const item = plainItems()[0]!;
    // What earlier cases sold is in the cloud first: the count below is this case's alone.
    await allSynced();
    const before = await terminal.sandbox.countOrders();
    await terminal.sandbox.faults.set({ outage: true });
    try {
      for (let n = 0; n < 5; n++) {
        await addToTicket(item);
        await waitForCount(page.getByTestId('ticket-lines').locator('.ticket-line'), 1);
        await ready();
        await page.keyboard.press('F8');
        await page.locator('dialog[open]').waitFor();
        await payOpenDialog(n % 2 === 0 ? 'Cash' : 'Card');
        await waitForText(page.locator('.notice'), /^Paid/);
      }
      // The first push that fails turns the indicator; nothing the cashier did waited for it.
      await waitForText(page.getByTestId('sync-indicator'), /Offline/);
      await waitForText(page.getByTestId('sync-pending'), /^([5-9]|\d{2,}) waiting/);
      await shot('register-offline');
      // Signing out now would strand those changes: the terminal asks first and says so.
      await screen('Settings');
      await page.getByRole('button', { name: 'Sign out' }).click();
      const confirm = page.locator('dialog[open]');
      await waitForText(confirm, /\d+ changes are not in the cloud yet.*stay on this terminal/);
      await shot('sign-out-confirm');
      await expectAccessible();
      await confirm.getByRole('button', { name: 'Keep working' }).click();
      await confirm.waitFor({ state: 'detached' });
      // Resetting now would destroy them: the dialog names how many, and cancelling keeps everything.
      const waiting = await pendingCount();
      await page.getByRole('button', { name: 'Reset this terminal' }).click();
      const reset = page.locator('dialog[open]');
      await waitForText(
        reset.getByTestId('reset-loss'),
        new RegExp(`^${waiting} changes are not in the cloud yet \\(touching \\d+ orders? and \\d+ card payments?\\), the oldest made today at .* A reset deletes them for good\\.$`),
      );
      expect(await reset.getByTestId('confirm-reset').textContent()).toBe(`Reset and lose ${waiting} changes`);
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
      await waitForText(second.getByTestId('sync-pending'), /^[1-9]\d* waiting/);
      await second.locator('#menu-search').click(); // browsers only ask after the page has been used
      const asked = second.waitForEvent('dialog');
      await second.close({ runBeforeUnload: true });
      const question = await asked;
      expect(question.type()).toBe('beforeunload');
      await question.accept();
      // The order list watches its own sync badges while the outage ends.
      await screen('Orders');
      await page.locator('tbody .badge.sync-pending').first().waitFor();
      await terminal.sandbox.faults.set({ outage: false });
      await waitForText(page.getByTestId('sync-pending'), /^0 waiting/, { timeout: 30_000 });
      await waitForText(page.getByTestId('sync-indicator'), /Online, all synced/);
      // Same event, same moment: no order still says "Waiting to sync" once the indicator says all synced.
      await expect.poll(() => page.locator('tbody .badge.sync-pending').count(), { timeout: 1_000 }).toBe(0);
      expect(await terminal.sandbox.countOrders()).toBe(before + 5);
    } finally {
      await terminal.sandbox.faults.set({ outage: false });
    }
  });

  it('refunds part of a card payment from the order list', async () => {
    // A card sale of the case's own, in the cloud before the refund.
    const item = plainItems()[1]!;
    const placed = await call('orders.place', { lines: [{ menuItemId: item.id, quantity: 2 }], customer: { name: 'Rosalind Franklin', phone: '555-0107' } });
    await call('payments.take', { orderId: placed.id, method: 'card', amount: placed.total });
    await inTheCloud(placed.id);
    await screen('Orders');
    const row = page.locator('tbody tr').filter({ hasText: 'Rosalind Franklin' });
    await row.getByRole('button').click();
    await waitForText(page.getByTestId('order-paid'), `$${(placed.total / 100).toFixed(2)}`);
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
    await waitForText(page.getByTestId('order-refunded'), '$1.00');
    await waitForText(page.getByTestId('order-notice'), /^Refunded \$1\.00 to the card that paid \$\d+\.\d\d\.$/);
    await waitForText(row.locator('.badge'), 'Partially refunded');
    await allSynced();
    expect(await page.getByTestId('sync-dead-count').count()).toBe(0);
  });

  it("86s an item in the menu manager and the server sees it", async () => {
    // The last plain item: the cases that ring items up take the first ones; it is back on sale after.
    const item = plainItems().at(-1)!;
    let created: string | undefined;
    try {
      await screen('Menu');
      const row = page.locator(`tr[data-item-id="${item.id}"]`);
      await row.getByRole('button', { name: '86 it' }).click();
      await waitForText(row, /Sold out/);
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
      await waitForText(page.locator('tbody'), /Seasonal lemonade/);
      created = (await call('menu.snapshot', {})).items.find((i) => i.name === 'Seasonal lemonade')?.id;
      await vi.waitFor(
        async () => {
          const serverItems = (await (await api(`/menu/items?per_page=100`)).json()) as { data: { id: string; name: string; price: number; available: boolean }[] };
          expect(serverItems.data.find((i) => i.id === item.id)?.available).toBe(false);
          expect(serverItems.data.find((i) => i.name === 'Seasonal lemonade')?.price).toBe(425);
        },
        { timeout: 15_000, interval: 100 },
      );
      await allSynced();
      await screen('Register');
      await (await searchedTile(item)).and(page.locator(':disabled')).waitFor();
    } finally {
      await call('menu.setAvailable', { id: item.id, available: true });
      if (created !== undefined) await call('menu.deleteItem', { id: created });
    }
  });

  it('shows an order the cloud refused as a dead letter, and discards it', async () => {
    // An item of the case's own that the cloud then deletes: the terminal does not know yet (pulls
    // come a minute apart), so an order for it is refused.
    const { item: doomed, serverId: doomedOnServer } = await ownItem('Doomed daily special', 900);
    try {
      await screen('Register');
      await (await searchedTile(doomed)).click();
      await waitForCount(page.getByTestId('ticket-lines').locator('.ticket-line'), 1);
      expect((await api(`/menu/items/${doomedOnServer}`, { method: 'DELETE' })).ok).toBe(true);
      await ready();
      await page.keyboard.press('F7');
      await waitForText(page.getByTestId('sync-dead-count'), '1 refused', { timeout: 15_000 });
      await page.getByTestId('sync-indicator').click();
      const dialog = page.locator('dialog[open]');
      const letters = dialog.getByTestId('dead-letter');
      await waitForCount(letters, 1);
      expect(await letters.allTextContents()).toEqual([expect.stringMatching(/New order \(1 line\).*no menu item/)]);
      await shot('sync-dead-letter');
      await expectAccessible();
      await dialog.getByRole('button', { name: 'Discard' }).click();
      await waitForCount(letters, 0);
      await dialog.getByRole('button', { name: /Close/ }).click();
      await waitForCount(page.getByTestId('sync-dead-count'), 0);
    } finally {
      await clearSyncLeftovers();
    }
  });

  it("explains an order changed here and on another till at the same time; Retry puts this till's quantity back", async () => {
    const { item } = await ownItem('Contested tart', 700);
    try {
      await screen('Register');
      await (await searchedTile(item)).click();
      await page.getByRole('button', { name: 'Add customer & notes' }).click();
      await page.getByLabel('Name').fill('Grace');
      await ready();
      await page.keyboard.press('F7');
      await waitForText(page.locator('.notice'), /Order saved for Grace/);
      const local = await theOrder('Grace');
      await inTheCloud(local.id);
      const recent = new Date(Date.now() - 60_000).toISOString();
      const listed = (await (await api(`/orders?per_page=100&created_after=${recent}`)).json()) as { data: { id: string; metadata: Record<string, string> }[] };
      const serverId = listed.data.find((o) => o.metadata.pos_local_id === local.id)!.id;

      // Cut off, this till makes it two; another till (straight in the sandbox's database: its API
      // is down too) makes it three.
      await terminal.sandbox.faults.set({ outage: true });
      await screen('Orders');
      await page.locator('tbody tr').filter({ hasText: 'Grace' }).getByRole('button').click();
      await page.getByRole('button', { name: 'Edit' }).click();
      await waitForText(page.locator('.ticket-header h2'), 'Editing order');
      await (await searchedTile(item)).click();
      await page.getByRole('button', { name: /Save changes/ }).click();
      await waitForText(page.locator('.notice'), /Order saved for Grace/);
      await waitForText(page.getByTestId('sync-pending'), /^[1-9]\d* waiting/);
      await terminal.sandbox.db
        .updateTable('orders')
        .set({ doc: sql<string>`json_set(doc, '$.items[0].quantity', 3, '$.total', ${item.price * 3}, '$.updated_at', ${new Date().toISOString()})` })
        .where('id', '=', serverId)
        .execute();
      await terminal.sandbox.faults.set({ outage: false });

      await waitForText(page.getByTestId('sync-dead-count'), '1 refused', { timeout: 30_000 });
      await page.getByTestId('sync-indicator').click();
      const dialog = page.locator('dialog[open]');
      const letters = dialog.getByTestId('dead-letter');
      await waitForCount(letters, 1);
      expect(await letters.allTextContents()).toEqual([expect.stringMatching(/Another terminal changed the same items of this order at the same time/)]);
      await shot('sync-order-conflict');
      await expectAccessible();
      await dialog.getByRole('button', { name: 'Retry' }).click();
      await waitForCount(letters, 0, { timeout: 15_000 });
      await dialog.getByRole('button', { name: /Close/ }).click();
      await waitForText(page.getByTestId('sync-pending'), /^0 waiting/, { timeout: 15_000 });
      const server = (await (await api(`/orders/${serverId}`)).json()) as { items: { quantity: number }[] };
      expect(server.items.map((line) => line.quantity)).toEqual([2]);
    } finally {
      await terminal.sandbox.faults.set({ outage: false });
      await clearSyncLeftovers();
    }
  });

  it('lists an order the cloud priced higher than the till, until a manager marks it settled', async () => {
    // The case's own item: its price goes up in the cloud, which no other case's order may meet.
    const { item, serverId } = await ownItem('Market-price oysters', 1800);
    await terminal.sandbox.faults.set({ outage: true });
    try {
      await screen('Register');
      await (await searchedTile(item)).click();
      await waitForCount(page.getByTestId('ticket-lines').locator('.ticket-line'), 1);
      await ready();
      await page.keyboard.press('F7');
      await waitForText(page.locator('.notice'), /^Order saved/);
      await waitForText(page.getByTestId('sync-pending'), /^[1-9]\d* waiting/);
      // While the till is cut off, the menu price goes up in the cloud (straight in the sandbox's
      // database: its API is down too).
      await terminal.sandbox.db
        .updateTable('menu_items')
        .set({ doc: sql<string>`json_set(doc, '$.price', ${item.price + 150})` })
        .where('id', '=', serverId)
        .execute();
      await terminal.sandbox.faults.set({ outage: false });
      await waitForText(page.getByTestId('sync-repriced-count'), '1 repriced', { timeout: 30_000 });
      await page.getByTestId('sync-indicator').click();
      const dialog = page.locator('dialog[open]');
      const money = (minor: number) => `$${(minor / 100).toFixed(2)}`;
      await waitForText(dialog.getByTestId('repriced-order'), new RegExp(`priced this order at \\${money(item.price + 150)}, the till at \\${money(item.price)} \\(\\$1\\.50 more\\)`));
      await shot('sync-repriced-order');
      await expectAccessible();
      await dialog.getByRole('button', { name: 'Mark settled' }).click();
      await waitForCount(dialog.getByTestId('repriced-order'), 0);
      await dialog.getByRole('button', { name: /Close/ }).click();
      await waitForCount(page.getByTestId('sync-repriced-count'), 0);
    } finally {
      await terminal.sandbox.faults.set({ outage: false });
      await clearSyncLeftovers();
    }
  });

  it('shows the shift', async () => {
    // A cash sale of the case's own in the open shift.
    const item = plainItems()[0]!;
    const placed = await call('orders.place', { lines: [{ menuItemId: item.id, quantity: 1 }] });
    await call('payments.take', { orderId: placed.id, method: 'cash', amount: placed.total, tendered: placed.total });
    await screen('Shift');
    await waitForText(page.getByTestId('shift-net'), /^\$(?!0\.00$)\d/);
    await shot('shift');
    await expectAccessible();
  });

  it('receives signed webhooks: a low-stock event marks the tile at once', async () => {
    const { item, serverId } = await ownItem('Last few scones', 350);
    let endpointId: string | undefined;
    try {
      await screen('Settings');
      await page.getByLabel('Receive webhook events').check();
      await page.getByRole('button', { name: 'Save connection' }).click();
      const url = page.getByTestId('webhook-url');
      await waitForText(url, /Receiving at \S+/);
      const address = /Receiving at (\S+)/.exec((await url.textContent()) ?? '')?.[1] as string;
      const endpoint = await terminal.sandbox.createWebhookEndpoint({ url: address, event_types: ['inventory.low_stock', 'menu.item_updated'] });
      endpointId = endpoint.id;
      await page.getByLabel(/Signing secret/).fill(endpoint.secret);
      await page.getByRole('button', { name: 'Save connection' }).click();
      await expect.poll(() => url.textContent()).not.toMatch(/refused until/);
      expect((await api(`/menu/items/${serverId}`, { method: 'PATCH', body: { stock: 2, low_stock_threshold: 5 } })).ok).toBe(true);
      await screen('Register');
      await waitForText(await searchedTile(item), /Low stock/, { timeout: 15_000 });
      await shot('register-low-stock');
    } finally {
      // The cloud stops posting events, and the till stops listening.
      if (endpointId !== undefined) await terminal.sandbox.db.deleteFrom('webhook_endpoints').where('id', '=', endpointId).execute();
      const { webhook } = await call('settings.get', {});
      await call('settings.update', { webhook: { enabled: false, host: webhook.host, port: webhook.port } });
    }
  });

  it('connects with OAuth through the sandbox consent page', async () => {
    try {
      await screen('Settings');
      await shot('settings');
      await expectAccessible();
      const consent = page.context().waitForEvent('page', { timeout: 10_000 });
      await page.getByRole('button', { name: 'Connect with OAuth' }).click({ timeout: 10_000 });
      const consentPage = await consent;
      await consentPage.getByRole('button', { name: 'Approve' }).click({ timeout: 10_000 });
      await waitForText(page.getByTestId('oauth-status'), /Connected with OAuth/, { timeout: 10_000 });
      await consentPage.close();
      await waitForText(page.locator('.card[aria-label="Account"]'), /Connected with OAuth \(at_live_…/);
      // Sync keeps working on the new credentials.
      await screen('Register');
      const item = plainItems()[1]!;
      await addToTicket(item);
      await waitForCount(page.getByTestId('ticket-lines').locator('.ticket-line'), 1);
      await ready();
      await page.keyboard.press('F7');
      await waitForText(page.locator('.notice'), /^Order saved as A\d+\./);
      const label = /as (A\d+)\./.exec((await page.locator('.notice').textContent()) ?? '')![1]!;
      const order = (await call('orders.list', { search: label })).find((o) => o.label === label)!;
      await inTheCloud(order.id);
      expect(await cloudCopies(order.id)).toBe(1);
    } finally {
      // Back on the API key the other cases' terminal was started with.
      await call('credentials.setApiKey', { apiKey: terminal.sandbox.credentials.apiKeys.full });
    }
  });
});

describe('a reset', () => {
  it('resets the terminal when the owner confirms: an empty register, no sign-in, still working', async () => {
    // A terminal of its own: the reset empties its store, which no other case may find so.
    const own = await startTerminal();
    try {
      ({ page, errors: consoleErrors } = await openRegister(browser, own));
      await waitForText(page.getByTestId('sync-indicator'), /Online, all synced/, { timeout: 15_000 });
      await screen('Settings');
      await page.getByRole('button', { name: 'Reset this terminal' }).click();
      const reset = page.locator('dialog[open]');
      await waitForText(reset.getByTestId('reset-loss'), /nothing is lost/);
      await reset.getByTestId('confirm-reset').click();
      await reset.waitFor({ state: 'detached', timeout: 10_000 });
      // The staff session went with the store: the till is locked. The owner (provisioned by IT, so
      // there again) signs in, back on Settings, which says what happened and what to do next.
      await page.getByRole('form', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
      await signInOnLockScreen(page, 'owner');
      await waitForText(page.getByTestId('reset-done'), /This terminal was reset/);
      await waitForText(page.locator('.card[aria-label="Account"]'), /Not connected/);
      await waitForText(page.getByTestId('sync-indicator'), /Not connected to an account/);
      await shot('after-reset');
      // The longest status line ("Not connected to an account") still fits: nothing runs off screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      await screen('Orders');
      await expect.poll(() => page.locator('tbody tr').count()).toBe(0);
      // The fresh store works: an API key brings the cloud's menu back.
      await screen('Settings');
      await page.getByLabel('API key').fill(own.sandbox.credentials.apiKeys.full);
      await page.getByRole('button', { name: 'Use this API key' }).click();
      await waitForText(page.locator('.card[aria-label="Account"]'), /Connected with an API key/);
      // The confirmation survives the form being rebuilt with the new settings.
      await waitForCount(page.getByRole('status').filter({ hasText: 'API key saved.' }), 1);
      await screen('Register');
      await page.locator('.menu-grid .tile').first().waitFor({ timeout: 15_000 });
      expect(consoleErrors, 'console errors and CSP violations').toEqual([]);
    } finally {
      await page?.context().close();
      await own.close();
    }
  });
});
