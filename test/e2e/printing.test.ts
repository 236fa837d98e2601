// Printing end to end, in Debian's Chromium against the sandbox, with two real TCP fake ESC/POS
// printers (test/printing/fake-printer.ts): a receipt printer (with the cash drawer) and a kitchen
// printer. A cash sale by touch prints the receipt (items, total, a cut) and kicks the drawer, and
// the kitchen gets its ticket; the order's receipt preview in Orders, and Reprint prints a copy; the
// kitchen printer out of paper shows in the top bar and the printers panel, and its ticket prints
// once when the paper is back; a ticket in doubt is discarded by the cashier with the manager's PIN
// by keyboard; the cashier opens the drawer from the Shift screen with the manager's PIN; the
// cashier may not change printing, the manager does; with receipts no longer printed by themselves,
// "Print receipt" on the last order prints one. The owner sells first (signed in on the lock screen).
// Screenshots at 1024×768 and 1366×768 go to test-results/screenshots/printing-<name>-<w>x<h>.png,
// each checked by the layout audit; axe on the panel and the preview.
// One browser, one terminal and two printers for the file, but every case opens its own page,
// signed in as whoever it needs, and sells its own orders; it counts what printed from where the
// printers were when it started, and puts back in a `finally` what it changed (a printer out of
// paper or breaking mid-job, a ticket in doubt, the automatic receipt).
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MenuItem, MenuSnapshot, Order } from '../../bridge/contract';
import type { PrintingStatus } from '../../bridge/printing/contract';
import type { TerminalConfig } from '../../main/config/schema';
import { STAFF } from '../core/fixtures';
import { normalizedText } from '../printing/escpos-decode';
import { FakePrinter } from '../printing/fake-printer';
import { goToScreen, launchChromium, openRegister, signInAs, startTerminal, waitForText, type Terminal } from './harness';
import type { StaffKey } from '../core/fixtures';
import { expectAccessible, SCREENSHOTS, screenshotIfFailed, tillShots, WIDE_TILL } from './shots';

/** The manager's PIN: it approves what the cashier may not do. */
const PIN = STAFF.manager.pin;

let browser: Browser;
let terminal: Terminal;
let receipt: FakePrinter;
let kitchen: FakePrinter;
let menu: MenuSnapshot;
let page: Page;
/** The console errors and CSP violations of the case's page. */
let consoleErrors: string[] = [];

const dialog = () => page.locator('dialog[open]');
const pill = () => page.getByTestId('printer-indicator');

function item(name: string): MenuItem {
  const found = menu.items.find((i) => i.name === name);
  if (!found) throw new Error(`the demo menu has no ${name}`);
  return found;
}

const dollars = (minor: number) => `$${(minor / 100).toFixed(2)}`;

/** The screen as it is now at both till sizes, tidy at each; the page is left at 1024×768. */
const shot = tillShots(() => page, 'printing');

/** Tab until `target` has the focus: it is reachable from the keyboard. */
async function tabTo(target: Locator, max = 150): Promise<void> {
  for (let n = 0; n <= max; n++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${target} not reached with ${max} presses of Tab`);
}

async function screen(name: 'Register' | 'Orders' | 'Shift' | 'Settings'): Promise<void> {
  await goToScreen(page, name);
}

/** A page of the case's own at the wide till size, by touch, `who` signed in (the owner by default), the drawer open. */
async function openPage(who: StaffKey = 'owner'): Promise<void> {
  ({ page, errors: consoleErrors } = await openRegister(browser, terminal, { viewport: WIDE_TILL, hasTouch: true, signIn: who }));
}

/**
 * Waits until every printer is ready with nothing waiting, in doubt or being sent: whatever was
 * queued has printed, so what the fake printers hold now is all there will be.
 */
async function printersIdle(): Promise<void> {
  await vi.waitFor(
    async () => {
      const { printers } = await call<PrintingStatus>('printing.status', {});
      const busy = printers.filter((p) => p.state !== 'ready' || p.pending > 0 || p.inDoubt > 0);
      if (busy.length > 0) throw new Error(`printers still busy: ${busy.map((p) => `${p.name} ${p.state}, ${p.pending} waiting, ${p.inDoubt} in doubt`).join('; ')}`);
    },
    { timeout: 15_000, interval: 50 },
  );
}

/** A paid order of the case's own, by the core: two garlic knots and a lager, in cash with change. */
async function cashSale(): Promise<Order> {
  const order = await call<Order>('orders.place', {
    lines: [
      { menuItemId: item('Garlic knots').id, quantity: 2 },
      { menuItemId: item('Lager').id, quantity: 1 },
    ],
  });
  return (await call<{ order: Order }>('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total + 500 })).order;
}

async function call<T>(command: string, payload: unknown): Promise<T> {
  const response = await terminal.mode.core.invoke({ command, payload });
  if (!response.ok) throw new Error(`${command}: ${response.error.message}`);
  return response.value as T;
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [receipt, kitchen] = await Promise.all([FakePrinter.start(), FakePrinter.start()]);
  [browser, terminal] = await Promise.all([
    launchChromium(),
    startTerminal({
      config: {
        // The harness takes the parsed config's type; these are the flags' values it parses.
        printing: { receiptPrinter: receipt.url, kitchenPrinters: [`kitchen=${kitchen.url}`] } as unknown as TerminalConfig['printing'],
      },
    }),
  ]);
  menu = await vi.waitFor(
    async () => {
      const snapshot = await call<MenuSnapshot>('menu.snapshot', {});
      if (!snapshot.items.some((i) => i.name === 'Garlic knots')) throw new Error('the first pull has not brought the menu yet');
      return snapshot;
    },
    { timeout: 15_000, interval: 100 },
  );
});

afterEach(async ({ task }) => {
  await screenshotIfFailed(page, task, 'printing');
  await page?.context().close();
  expect(consoleErrors, 'console errors and CSP violations').toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
  await receipt?.stop();
  await kitchen?.stop();
});

describe('printing in the browser', () => {
  it('a cash sale by touch: the receipt with its items and total, a cut and the drawer; the kitchen its ticket', async () => {
    await openPage();
    await waitForText(pill(), 'Printers ready');
    await printersIdle();
    const [cuts, kicks] = [receipt.cuts(), receipt.drawerKicks().length];
    await shot('pill-ready');
    const knots = item('Garlic knots');
    const lager = item('Lager');
    await page.getByRole('button', { name: 'Starters' }).tap();
    await page.locator(`.menu-grid .tile[data-item-id="${knots.id}"]`).tap();
    await page.locator(`.menu-grid .tile[data-item-id="${knots.id}"]`).tap();
    await page.getByRole('button', { name: 'Beer & Wine' }).tap();
    await page.locator(`.menu-grid .tile[data-item-id="${lager.id}"]`).tap();
    await page.getByTestId('charge').tap();
    await dialog().waitFor();
    await dialog().getByText('Cash', { exact: true }).tap();
    await dialog().getByTestId('confirm-payment').tap();
    await dialog().waitFor({ state: 'detached' });
    await waitForText(page.locator('.last-order .notice'), /^Paid/);
    // Receipts print by themselves: the last order offers no "Print receipt".
    expect(await page.getByTestId('print-receipt').count()).toBe(0);
    const label = ((await page.getByTestId('order-label').textContent()) ?? '').replace(/^Order /, '');
    const sale = (await call<Order[]>('orders.list', { search: label })).find((order) => order.label === label)!;
    expect(sale.lines.map((line) => [line.name, line.quantity])).toEqual([
      ['Garlic knots', 2],
      ['Lager', 1],
    ]);

    await receipt.waitFor(() => receipt.cuts() >= cuts + 1 && receipt.drawerKicks().length === kicks + 1, 'the receipt and the drawer kick', 10_000);
    await kitchen.waitFor(() => kitchen.count(sale.label) === 1, 'the kitchen ticket', 10_000);
    await printersIdle();
    const printed = normalizedText(receipt.decodedJobs().find((job) => job.text.includes(sale.label))!);
    expect(printed).toContain('Garlic knots');
    expect(printed).toContain('Lager');
    expect(printed).toContain(dollars(sale.total));
    expect(receipt.cuts()).toBe(cuts + 1);
    expect(receipt.drawerKicks()).toHaveLength(kicks + 1);
    const ticket = normalizedText(kitchen.decodedJobs().find((job) => job.text.includes(sale.label))!);
    expect(ticket).toContain('Garlic knots');
    expect(ticket).toContain('Lager');
    await shot('after-cash-sale');
  });

  it('shows the receipt in the order’s detail as it prints, and Reprint prints a second one', async () => {
    await openPage();
    const sale = await cashSale();
    // Its receipt (and the drawer) done: the copy below is the only job that follows.
    await receipt.waitFor(() => receipt.count(sale.label) === 1, 'the sale’s receipt', 10_000);
    await printersIdle();
    await screen('Orders');
    await page.locator(`tr[data-order-id="${sale.id}"]`).getByRole('button', { name: sale.label }).tap();
    await page.getByRole('button', { name: 'Receipt', exact: true }).tap();
    await waitForText(dialog().locator('h2'), `Receipt · Order ${sale.label}`);
    const img = dialog().locator('img.receipt-image');
    await img.waitFor();
    // Decoded and drawn: an image the page's CSP lets through (no console error below).
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    expect(await img.getAttribute('alt')).toBe(`The receipt of order ${sale.label} as it prints: 3 items, total ${dollars(sale.total)}.`);
    const svg = decodeURIComponent((await img.getAttribute('src'))!.replace('data:image/svg+xml;charset=utf-8,', ''));
    const text = svg.replace(/<[^>]+>/g, '').replace(/&#xa0;/g, ' ');
    expect(text).toContain('Garlic knots');
    expect(text).toContain(dollars(sale.total).slice(1));
    await shot('receipt-preview');
    await expectAccessible(page, 'the receipt preview');

    const [before, cuts, kicks] = [receipt.jobs().length, receipt.cuts(), receipt.drawerKicks().length];
    await dialog().getByRole('button', { name: 'Reprint' }).tap();
    await waitForText(dialog().getByTestId('reprint-notice'), 'A copy of the receipt (marked COPY) is printing on the receipt printer.');
    await receipt.waitFor(() => receipt.cuts() === cuts + 1, 'the copy', 10_000);
    await printersIdle();
    expect(receipt.jobs()).toHaveLength(before + 1);
    const copy = receipt.decodedJobs().at(-1)!.text;
    expect(copy).toContain('COPY');
    expect(copy).toContain(sale.label);
    expect(copy).toContain('Garlic knots');
    // A copy opens no drawer.
    expect(receipt.drawerKicks()).toHaveLength(kicks);
    await shot('receipt-reprinted');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
  });

  it('a kitchen printer out of paper: the pill and the panel say so and what to do; back, the ticket prints once', async () => {
    await openPage();
    kitchen.setStatus({ paperOut: true });
    try {
      const order = await call<Order>('orders.place', { lines: [{ menuItemId: item('Garlic knots').id, quantity: 1 }] });
      await waitForText(pill(), 'Kitchen printer out of paper', { timeout: 10_000 });
      expect(await pill().getAttribute('class')).toContain('printer-warn');
      // By keyboard: Tab to the pill, Enter opens the panel.
      await tabTo(pill());
      await page.keyboard.press('Enter');
      await waitForText(dialog().locator('h2').first(), 'Printers');
      const row = dialog().locator('[data-testid="printer"][data-printer="kitchen"]');
      await waitForText(row.locator('.printer-state'), 'Out of paper');
      expect(await row.textContent()).toContain('1 ticket waiting');
      expect(await row.getByTestId('printer-message').textContent()).toBe('The kitchen printer is out of paper: put in a new roll. Its tickets wait.');
      await shot('panel-paper-out');
      await expectAccessible(page, 'the printers panel, paper out');
      expect(kitchen.count(order.label)).toBe(0);

      // A new roll: the ticket comes out by itself, the panel and the pill say all is well.
      kitchen.setStatus({});
      await waitForText(row.locator('.printer-state'), 'Ready', { timeout: 15_000 });
      await waitForText(row, /0 tickets waiting/);
      await kitchen.waitFor(() => kitchen.count(order.label) === 1, 'the ticket after the paper is back', 15_000);
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'detached' });
      await waitForText(pill(), 'Printers ready');
      // Nothing left to print anywhere: the count is final.
      await printersIdle();
      expect(kitchen.count(order.label)).toBe(1);
    } finally {
      kitchen.setStatus({});
    }
  });

  it('a receipt that may have printed: the panel lists it; the cashier’s Discard asks the manager PIN, by keyboard', async () => {
    // The cashier may not discard a print job alone: a manager approves with their PIN.
    await openPage('cashier');
    await receipt.setMode('break_mid_job');
    try {
      const order = await call<Order>('orders.place', { lines: [{ menuItemId: item('Lager').id, quantity: 1 }] });
      await call('payments.take', { orderId: order.id, method: 'card', amount: order.total });
      await waitForText(pill(), /^Receipt printer( error|: check the last ticket)$/, { timeout: 10_000 });
      await receipt.setMode('up');
      await tabTo(pill());
      await page.keyboard.press('Enter');
      const job = dialog().getByTestId('print-job');
      await waitForText(job.locator('strong'), `Receipt · Order ${order.label}`);
      expect(await job.getAttribute('data-job-state')).toBe('sending');
      await waitForText(pill(), 'Receipt printer: check the last ticket', { timeout: 15_000 });
      await shot('panel-in-doubt');
      await expectAccessible(page, 'the printers panel, a ticket in doubt');

      await tabTo(job.getByRole('button', { name: 'Discard' }));
      await page.keyboard.press('Enter');
      const pin = job.getByLabel('Manager PIN to approve');
      await pin.and(page.locator(':focus')).waitFor();
      await page.keyboard.type('1111');
      await page.keyboard.press('Enter');
      await waitForText(job.locator('.field-error'), 'That PIN is not right. Discarding refused changes or print jobs needs a manager. Nothing was changed.');
      expect(await pin.getAttribute('aria-invalid')).toBe('true');
      await shot('panel-discard-refused');
      await expectAccessible(page, 'the printers panel, a refused PIN');
      await page.keyboard.type(PIN);
      await page.keyboard.press('Enter');
      await waitForText(dialog().getByTestId('printers-notice'), `Receipt · Order ${order.label} discarded: it will not print.`);
      expect(await dialog().getByTestId('print-job').count()).toBe(0);
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'detached' });
      await waitForText(pill(), 'Printers ready');
    } finally {
      // The printer works again, and no ticket is left in doubt for the pill of another case.
      await receipt.setMode('up');
      const { attention } = await call<PrintingStatus>('printing.status', {});
      for (const left of attention) await call('printing.discardJob', { id: left.id, managerPin: PIN });
    }
  });

  it('the cashier opens the drawer from the Shift screen, by keyboard, with a reason and the manager’s PIN', async () => {
    await openPage('cashier');
    expect(await page.getByTestId('staff-bar').locator('.staff-name').textContent()).toBe(STAFF.cashier.name);
    await printersIdle();
    await screen('Shift');
    const form = page.getByRole('form', { name: 'Cash drawer' });
    await form.waitFor();
    const kicks = receipt.drawerKicks().length;
    await form.getByRole('button', { name: 'Open the drawer' }).click();
    await waitForText(form.locator('.field-error'), 'Say why the drawer is opened (for example: change for the float).');
    await form.getByLabel('Reason').and(page.locator(':focus')).waitFor();
    await shot('drawer-refused');
    await page.keyboard.type('change for the float');
    await page.keyboard.press('Tab');
    expect(await form.getByLabel('Manager PIN to approve').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(PIN);
    await page.keyboard.press('Enter');
    await waitForText(form.getByTestId('drawer-notice'), 'The drawer opens now. Reason kept: “change for the float”.');
    await receipt.waitFor(() => receipt.drawerKicks().length === kicks + 1, 'the drawer kick', 10_000);
    await shot('drawer-opened');
  });

  it('with receipts no longer printed by themselves, "Print receipt" on the last order prints one', async () => {
    // The cashier may not change printing: Settings only says what the till is set to.
    await openPage('cashier');
    try {
      await screen('Settings');
      await waitForText(page.getByTestId('ask-manager'), /^Ask a manager to change settings/);
      expect(await page.getByRole('form', { name: 'Printing' }).count()).toBe(0);
      // The manager does, without a PIN of anyone else's.
      await signInAs(page, 'manager');
      await screen('Settings');
      const form = page.getByRole('form', { name: 'Printing' });
      await form.getByLabel('Print the receipt after each payment').tap();
      expect(await form.getByLabel(/PIN/).count()).toBe(0);
      await form.getByRole('button', { name: 'Save printing settings' }).tap();
      await page.getByText('Printing settings saved.').waitFor();
      await form.scrollIntoViewIfNeeded();
      await shot('settings-printing');
      expect((await call<{ autoReceipt: boolean }>('settings.get', {})).autoReceipt).toBe(false);

      await screen('Register');
      await printersIdle();
      const cuts = receipt.cuts();
      await page.getByRole('button', { name: 'Starters' }).tap();
      await page.locator(`.menu-grid .tile[data-item-id="${item('Garlic knots').id}"]`).tap();
      await page.getByTestId('charge').tap();
      await dialog().waitFor();
      await dialog().getByTestId('confirm-payment').tap();
      await dialog().waitFor({ state: 'detached' });
      await waitForText(page.locator('.last-order .notice'), /^Paid/);
      // The sale's kitchen ticket printed and nothing else waits: no receipt came with it.
      const label = ((await page.getByTestId('order-label').textContent()) ?? '').replace(/^Order /, '');
      await kitchen.waitFor(() => kitchen.count(label) === 1, 'the kitchen ticket', 10_000);
      await printersIdle();
      expect(receipt.cuts()).toBe(cuts);
      await page.getByTestId('print-receipt').tap();
      await waitForText(page.locator('.last-order-printed'), 'The receipt is printing.');
      await receipt.waitFor(() => receipt.cuts() === cuts + 1, 'the receipt on request', 10_000);
      await shot('last-order-print-receipt');
    } finally {
      await call('settings.update', { autoReceipt: true });
    }
  });
});
