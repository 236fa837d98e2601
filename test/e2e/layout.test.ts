// Every screen and dialog of the terminal at the two window sizes tills have (1024×768 and
// 1366×768), in Chromium against the sandbox: no text cut off, nothing interactive out of reach.
// Screenshots of each go to test-results/layout/ (git-ignored) for a person to look at.
// One browser and one terminal for the file, but every case opens its own page (an empty ticket)
// and sets up what it shows itself: a case that fails cannot leave a ticket, a dialog or a sold-out
// item behind for the next.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandInput, CommandName, CommandResult, MenuItem, MenuSnapshot } from '../../bridge/contract';
import { launchChromium, openRegister, startTerminal, type Terminal } from './harness';
import { expectNoLayoutProblems, settle, SMALL_TILL, WIDE_TILL } from './shots';

const SHOTS = 'test-results/layout';
const VIEWPORTS = [SMALL_TILL, WIDE_TILL] as const;
/** Wraps onto two lines on the ticket at both sizes. */
const LONG_NAME = 'Slow-braised beef short rib with horseradish cream and crispy shallots';

let browser: Browser;
let terminal: Terminal;
let page: Page;
let menu: MenuSnapshot;
let paidOrderId: string;
const consoleErrors: string[] = [];

async function call<C extends CommandName>(command: C, payload: CommandInput<C>): Promise<CommandResult<C>> {
  const response = await terminal.mode.core.invoke({ command, payload });
  if (!response.ok) throw new Error(`${command}: ${response.error.message}`);
  return response.value as CommandResult<C>;
}

/** No layout problem on screen now; a screenshot of it either way. */
async function expectTidy(name: string): Promise<void> {
  const { width, height } = page.viewportSize()!;
  // Fonts and the last React commit settle before measuring.
  await settle(page, 1);
  await page.screenshot({ path: `${SHOTS}/${width}x${height}-${name}.png` });
  await expectNoLayoutProblems(page, `${name} at ${width}×${height}`);
}

async function screen(name: 'Register' | 'Orders' | 'Menu' | 'Shift' | 'Settings'): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
}

const openDialog = () => page.locator('dialog[open]');

async function closeDialog(): Promise<void> {
  await page.keyboard.press('Escape');
  await openDialog().waitFor({ state: 'detached' });
}

/** Items that go on the ticket with one tap (the menu as the suite found it; the case that 86es one puts it back). */
function plainItems(): MenuItem[] {
  return menu.items.filter((i) => i.available && i.modifiers.length === 0 && i.name !== LONG_NAME);
}

async function addToTicket(item: MenuItem): Promise<void> {
  await page.locator(`.menu-grid .tile[data-item-id="${item.id}"]`).click();
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [browser, terminal] = await Promise.all([launchChromium(), startTerminal()]);
  // Signed in (the owner, on the lock screen) with the drawer open: the core's commands below act as
  // the owner. The session and the shift are the terminal's, so the pages of later cases find both.
  await openPage(VIEWPORTS[0]);
  menu = await vi.waitFor(
    async () => {
      const snapshot = await call('menu.snapshot', {});
      if (snapshot.items.length === 0) throw new Error('the first pull has not brought the menu yet');
      return snapshot;
    },
    { timeout: 15_000, interval: 100 },
  );
  const longItem = await call('menu.createItem', { name: LONG_NAME, price: 2000, categoryId: menu.categories[0]!.id, barcode: '0012345678905' });
  menu = { ...menu, items: [...menu.items, longItem] };
  // The cloud must know the new item before an order names it.
  await vi.waitFor(
    async () => {
      if ((await call('sync.status', {})).pending > 0) throw new Error('the new item has not synced yet');
    },
    { timeout: 15_000, interval: 100 },
  );
  // A paid order with a long customer name, for the order detail and the refund dialog.
  const plain = menu.items.filter((i) => i.available && i.modifiers.length === 0);
  const order = await call('orders.place', {
    lines: [
      { menuItemId: longItem.id, quantity: 2 },
      { menuItemId: plain[0]!.id, quantity: 1 },
    ],
    customer: { name: 'Margaret Hamilton-Featherstonehaugh', phone: '+1 415 555 0199' },
    notes: 'Allergic to sesame; bring the sauce on the side, please.',
  });
  await call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total });
  paidOrderId = order.id;
});

/** A page of its own for a case: a new browser context on the register, signed in, the drawer open. */
async function openPage(viewport: { width: number; height: number }): Promise<void> {
  await page?.context().close();
  ({ page } = await openRegister(browser, terminal, { viewport, errors: consoleErrors }));
}

/** Waits until the register's tile for `id` shows it sold out: the page learns of a menu change by an event. */
async function tileShowsSoldOut(id: string): Promise<void> {
  await page.locator(`.menu-grid .tile.tile-out[data-item-id="${id}"]`).waitFor();
}

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
});

describe('the ticket', () => {
  it('shows every line total whole, with the quantity buttons in one column, when an item name wraps', async () => {
    await openPage(VIEWPORTS[0]);
    const plain = plainItems();
    const longItem = menu.items.find((i) => i.name === LONG_NAME)!;
    await page.locator('#menu-search').fill('short rib');
    await addToTicket(longItem);
    await page.locator('#menu-search').fill('');
    for (let n = 0; n < 9; n++) await page.getByRole('button', { name: `One more ${LONG_NAME}` }).click();
    await addToTicket(plain[0]!);
    await addToTicket(plain[1]!);
    const lines = page.getByTestId('ticket-lines').locator('.ticket-line');
    await expect.poll(() => lines.count()).toBe(3);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `${SHOTS}/${viewport.width}x${viewport.height}-ticket-lines.png` });
      const geometry = await lines.evaluateAll((items) =>
        items.map((li) => {
          const total = li.querySelector('.line-total') as HTMLElement;
          const list = li.closest('.ticket-lines') as HTMLElement;
          return {
            name: li.querySelector('.line-name')?.getBoundingClientRect().height ?? 0,
            qtyLeft: Math.round(li.querySelector('.qty')!.getBoundingClientRect().left),
            totalRight: Math.round(total.getBoundingClientRect().right),
            totalText: total.textContent,
            totalCut: total.scrollWidth > total.clientWidth + 1,
            listRight: Math.round(list.getBoundingClientRect().left + list.clientWidth),
          };
        }),
      );
      const [long, ...others] = geometry;
      expect(long!.name, 'the long name wraps').toBeGreaterThan(others[0]!.name * 1.5);
      expect(long!.totalText).toBe('$200.00');
      for (const line of geometry) {
        expect(line.totalCut, `${line.totalText} cut at ${viewport.width}`).toBe(false);
        expect(line.totalRight, `${line.totalText} inside the ticket at ${viewport.width}`).toBeLessThanOrEqual(line.listRight);
      }
      expect(new Set(geometry.map((line) => line.qtyLeft)).size, `quantity buttons in one column at ${viewport.width}`).toBe(1);
      expect(new Set(geometry.map((line) => line.totalRight)).size, `totals aligned at ${viewport.width}`).toBe(1);
    }
  });
});

describe('the top bar', () => {
  /** The pill and the location name, whole and inside the window, at both sizes; a screenshot of the bar at each. */
  async function expectBarReadable(state: string): Promise<void> {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `${SHOTS}/${viewport.width}x${viewport.height}-top-bar-${state}.png`, clip: { x: 0, y: 0, width: viewport.width, height: 130 } });
      const bar = await page.evaluate(() => {
        const box = (selector: string) => {
          const el = document.querySelector(selector) as HTMLElement;
          const rect = el.getBoundingClientRect();
          return { text: el.textContent, cut: el.scrollWidth > el.clientWidth + 1, right: rect.right, width: rect.width };
        };
        return { pill: box('[data-testid="sync-indicator"]'), location: box('.location-name'), window: window.innerWidth };
      });
      expect(bar.pill.cut, `sync pill "${bar.pill.text}" cut at ${viewport.width}`).toBe(false);
      expect(bar.pill.right, `sync pill "${bar.pill.text}" inside the window at ${viewport.width}`).toBeLessThanOrEqual(bar.window);
      expect(bar.location.text).toMatch(/\S/);
      expect(bar.location.cut, `location "${bar.location.text}" cut at ${viewport.width}`).toBe(false);
      expect(bar.location.width).toBeGreaterThan(0);
    }
  }

  it('keeps the whole sync pill and the location name readable at 1024×768 and 1366×768', async () => {
    await openPage(VIEWPORTS[0]);
    await expectBarReadable('synced');
    // A longer pill: offline, with a change waiting and its age.
    await terminal.sandbox.faults.set({ outage: true });
    try {
      await call('orders.place', { lines: [{ menuItemId: menu.items.find((i) => i.available)!.id, quantity: 1 }] });
      await expect.poll(() => page.getByTestId('sync-indicator').textContent(), { timeout: 15_000 }).toMatch(/Offline.*1 waiting · oldest/);
      await expectBarReadable('offline');
    } finally {
      await terminal.sandbox.faults.set({ outage: false });
    }
    await expect.poll(() => page.getByTestId('sync-indicator').textContent(), { timeout: 15_000 }).toMatch(/0 waiting/);
  });
});

describe.each(VIEWPORTS)('every screen and dialog at $width×$height', (viewport) => {
  beforeEach(async () => {
    await openPage(viewport);
  });

  it('register, empty and with a ticket of several lines (one long name, modifiers shown)', async () => {
    await expectTidy('register-empty');
    const withModifiers = menu.items.find((i) => i.available && i.modifiers.length > 1)!;
    const plain = plainItems();
    await page.locator('#menu-search').fill('0012345678905');
    await page.keyboard.press('Enter');
    await addToTicket(plain[0]!);
    await addToTicket(plain[1]!);
    await addToTicket(plain[1]!);
    await addToTicket(withModifiers);
    await page.locator('.modifiers .chip').first().click();
    await page.getByRole('button', { name: 'Add customer & notes' }).click();
    await page.getByLabel('Name').fill('Margaret Hamilton-Featherstonehaugh');
    await page.locator('#menu-search').fill('garlic');
    await expectTidy('register-ticket');
  });

  it('register search messages: a sold-out best match and an unknown barcode', async () => {
    // The last plain item: the cases that ring items up take the first ones.
    const soldOut = plainItems().at(-1)!;
    await call('menu.setAvailable', { id: soldOut.id, available: false });
    try {
      // The search shows its tile; Enter would add the best match while the page still thinks it is there.
      await page.locator('#menu-search').fill(soldOut.name);
      await tileShowsSoldOut(soldOut.id);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.search-row [role="alert"]').textContent()).toMatch(/is sold out/);
      await expectTidy('register-sold-out');
    } finally {
      await call('menu.setAvailable', { id: soldOut.id, available: true });
    }
    await page.locator('#menu-search').fill('4006381333931');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.search-row [role="alert"]').textContent()).toMatch(/^No item with barcode 4006381333931/);
    await expectTidy('register-unknown-barcode');
  });

  it('payment dialog', async () => {
    await addToTicket(plainItems()[0]!);
    await page.getByTestId('charge').click();
    await openDialog().waitFor();
    await expectTidy('payment-dialog');
    await page.getByText('Cash', { exact: true }).click();
    await expectTidy('payment-dialog-cash');
  });

  it('orders list, an order’s detail and its refund dialog', async () => {
    await screen('Orders');
    await page.locator('tbody tr').first().waitFor();
    await expectTidy('orders-list');
    await page.locator(`tr[data-order-id="${paidOrderId}"]`).getByRole('button').click();
    await expect.poll(() => page.getByTestId('order-paid').textContent()).not.toBe('$0.00');
    await expectTidy('orders-detail');
    await page.getByRole('button', { name: 'Refund' }).click();
    await openDialog().waitFor();
    await expectTidy('refund-dialog');
    await closeDialog();
  });

  it('menu manager and its edit form', async () => {
    await screen('Menu');
    await expectTidy('menu-manager');
    const row = page.locator('tbody tr').filter({ hasText: LONG_NAME });
    await row.getByRole('button', { name: 'Edit' }).click();
    await openDialog().waitFor();
    await expectTidy('menu-item-editor');
    await openDialog().getByLabel('Barcode / PLU').fill('ABC-1');
    await openDialog().getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => openDialog().locator('[role="alert"]').count()).toBeGreaterThan(0);
    await expectTidy('menu-item-editor-refused');
    await closeDialog();
  });

  it('shift', async () => {
    await screen('Shift');
    await expect.poll(() => page.getByTestId('shift-net').textContent()).not.toBe('$0.00');
    await expectTidy('shift');
  });

  it('settings, the sync details dialog and the reset dialog', async () => {
    await screen('Settings');
    await page.getByRole('button', { name: 'Reset this terminal' }).waitFor();
    await expectTidy('settings');
    await page.getByTestId('sync-indicator').click();
    await openDialog().waitFor();
    await expectTidy('sync-details');
    await closeDialog();
    await page.getByRole('button', { name: 'Reset this terminal' }).click();
    await expect.poll(() => openDialog().getByTestId('reset-loss').textContent()).toMatch(/\S/);
    await expectTidy('reset-dialog');
    await closeDialog();
  });
});

describe('the whole run', () => {
  it('logged no console error', () => {
    expect(consoleErrors).toEqual([]);
  });
});
