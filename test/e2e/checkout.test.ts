// The restaurant checkout end to end, in Debian's Chromium against the sandbox with the demo
// taxes: a dine-in order with a required choice and a line note, a second item, a 10% order
// discount with a reason, tax on the ticket, split three ways (two cards with tips, one cash),
// the order in the list, a refund by item said in cash and to the card before and after; then the
// cloud holds the order and the two card intents once. Done twice: by touch (taps) and by keyboard
// alone (the order type and the order discount by their shortcuts). Then, offline, a cashier's card
// above the limit: the manager's PIN asked, a wrong one refused next to the field and cleared.
// Screenshots of each new screen and dialog at 1024×768 and 1366×768 go to
// test-results/screenshots/checkout-<name>-<w>x<h>.png, for a person to look at.
// One browser and one terminal for the file; each case opens its own page and rings up its own
// order, and finds it in the cloud by its own id: a case that fails leaves nothing the other reads.
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MenuItem, MenuSnapshot } from '../../bridge/contract';
import { STAFF } from '../core/fixtures';
import { launchChromium, openRegister, startTerminal, waitForCount, waitForText, type Terminal } from './harness';
import { expectAccessible, SCREENSHOTS, screenshotIfFailed, SMALL_TILL, tillShots } from './shots';

/** The item with a required group ("Size", choose 1) and optional "Extras" (sandbox/seed.ts). */
const COFFEE = 'Iced flat white';

let browser: Browser;
let terminal: Terminal;
let menu: MenuSnapshot;
let page: Page;
/** The console errors and CSP violations of the case's page. */
let consoleErrors: string[] = [];

interface StoredOrder {
  id: string;
  order_number?: string | null;
  order_type?: string;
  table?: string | null;
  guests?: number | null;
  subtotal: number;
  discount_total: number;
  discounts: { reason: string; amount: number; line: number | null }[];
  tax_total: number;
  total: number;
  items: { menu_item_id: string; quantity: number; note: string }[];
  metadata: Record<string, unknown>;
}
interface StoredPayment {
  order_id: string;
  amount: number;
  tip_amount: number;
  status: string;
  amount_refunded: number;
}

function item(name: string): MenuItem {
  const found = menu.items.find((i) => i.name === name);
  if (!found) throw new Error(`the demo menu has no ${name}`);
  return found;
}

/** "$12.34" or "−$1.40" → 1234 / 140 (minor units; the sign is the row's, not the number's). */
function cents(text: string | null): number {
  const match = /\$([\d,]+)\.(\d\d)/.exec(text ?? '');
  if (!match) throw new Error(`no amount in "${text}"`);
  return Number(match[1]!.replace(/,/g, '')) * 100 + Number(match[2]);
}

const dialog = () => page.locator('dialog[open]');

/** The screen as it is now at both till sizes, tidy at each; the page is left at 1024×768. */
const shot = tillShots(() => page, 'checkout');

/** Tab (or Shift+Tab) until `target` has the focus: it is reachable from the keyboard, in at most `max` presses. */
async function tabTo(target: Locator, { back = false, max = 150 } = {}): Promise<void> {
  for (let n = 0; n <= max; n++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} not reached with ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}`);
}

async function focused(): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return `${el?.tagName.toLowerCase()} ${el?.getAttribute('aria-label') ?? el?.closest('label')?.textContent ?? el?.textContent ?? ''}`.trim();
  });
}

/** A page of the case's own: a new browser context on the register, the owner signed in, the drawer open. */
async function openPage(touch: boolean): Promise<void> {
  ({ page, errors: consoleErrors } = await openRegister(browser, terminal, { viewport: SMALL_TILL, hasTouch: touch }));
}

/** Waits until the payment dialog shows `paid` of its split's parts paid. */
async function partsPaid(paid: number): Promise<void> {
  await waitForCount(dialog().getByTestId('split-part').filter({ has: page.locator('.badge-paid') }), paid);
}

/** What the ticket's totals say now (the only discount is the order's, on its own row). */
async function ticketTotals(): Promise<{ subtotal: number; discounts: number; discountLabel: string; tax: number; total: number; taxLabel: string }> {
  const totals = page.locator('.ticket > .check-totals');
  return {
    subtotal: cents(await totals.getByTestId('check-subtotal').textContent()),
    discounts: cents(await totals.getByTestId('check-order-discount').textContent()),
    discountLabel: (await totals.locator('.check-order-discount dt').textContent()) ?? '',
    tax: cents(await totals.getByTestId('check-tax').locator('dd').textContent()),
    taxLabel: (await totals.getByTestId('check-tax').locator('dt').textContent()) ?? '',
    total: cents(await totals.getByTestId('ticket-total').textContent()),
  };
}

/** The split's parts as the payment dialog lists them. */
async function parts(): Promise<{ label: string; amount: number; paid: boolean }[]> {
  return dialog()
    .getByTestId('split-part')
    .evaluateAll((labels) =>
      labels.map((label) => ({ label: label.querySelector('span')?.textContent ?? '', text: label.querySelector('strong')?.textContent ?? '', paid: label.querySelector('.badge-paid') !== null })),
    )
    .then((rows) => rows.map((row) => ({ label: row.label, amount: cents(row.text), paid: row.paid })));
}

/**
 * The orders list searched by `label`: the order is the first row (the newest). The search is by
 * the start of the number, so A1 also lists A10 to A19 of other days: every row starts with it.
 */
async function foundByNumber(label: string): Promise<Locator> {
  const labels = page.locator('tbody tr .order-label');
  await waitForText(labels.first(), label);
  await waitForCount(labels.filter({ hasNotText: new RegExp(`^${label}`) }), 0);
  expect(await labels.first().textContent()).toBe(label);
  return page.locator('tbody tr').filter({ has: page.getByRole('button', { name: label, exact: true }) });
}

/** What the whole run checks after the cashier's part, whichever way it was done. */
interface Sale {
  label: string;
  localId: string;
  table: string;
  guests: number;
  /** The ticket's figures (Subtotal, Discounts, Tax, Total). */
  totals: { subtotal: number; discounts: number; tax: number; total: number };
  reason: string;
  /** The first line's note for the kitchen. */
  note: string;
  /** The two card payments: what went toward the order and the tip on top. */
  cards: { amount: number; tip: number }[];
}

/** Once nothing waits to sync, the cloud holds the order once and its two card intents once, tips in. */
async function expectInTheCloud(sale: Sale): Promise<void> {
  await waitForText(page.getByTestId('sync-pending'), /^0 waiting/, { timeout: 20_000 });
  expect(await page.getByTestId('sync-dead-count').count()).toBe(0);
  const orders = (await terminal.sandbox.db.selectFrom('orders').select('doc').execute()).map((row) => JSON.parse(row.doc) as StoredOrder);
  const ours = orders.filter((o) => o.metadata?.pos_local_id === sale.localId);
  expect(ours).toHaveLength(1);
  expect(orders.filter((o) => o.order_number === sale.label)).toHaveLength(1);
  const cloud = ours[0]!;
  const { subtotal, discounts, tax, total } = sale.totals;
  expect(cloud).toMatchObject({ order_number: sale.label, order_type: 'dine_in', table: sale.table, guests: sale.guests, subtotal, discount_total: discounts, tax_total: tax, total });
  expect(cloud.discounts).toEqual([{ reason: sale.reason, amount: discounts, line: null }]);
  expect(cloud.items.map((line) => line.note)).toEqual([sale.note, '']);
  const payments = (await terminal.sandbox.db.selectFrom('payments').select('doc').where('order_id', '=', cloud.id).execute()).map((row) => JSON.parse(row.doc) as StoredPayment);
  const byAmount = (a: { amount: number }, b: { amount: number }) => a.amount - b.amount;
  expect(payments.map((p) => ({ amount: p.amount, tip: p.tip_amount })).sort(byAmount)).toEqual(sale.cards.map((c) => ({ amount: c.amount + c.tip, tip: c.tip })).sort(byAmount));
  expect(payments.every((p) => p.status === 'captured' || p.status === 'partially_refunded' || p.status === 'refunded')).toBe(true);
  // What the refund by item gave back to a card reached the cloud too (cash refunds stay on the till).
  const local = (await terminal.mode.core.invoke({ command: 'orders.get', payload: { id: sale.localId } })) as { value: { payments: { method: string; refundedAmount: number }[] } };
  const cardRefunds = local.value.payments.filter((p) => p.method === 'card').reduce((sum, p) => sum + p.refundedAmount, 0);
  expect(payments.reduce((sum, p) => sum + p.amount_refunded, 0)).toBe(cardRefunds);
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [browser, terminal] = await Promise.all([
    launchChromium(),
    // The test staff are provisioned (a manager among them, so a discount above the limits can be approved); the owner sells.
    startTerminal({ sandbox: { taxes: 'demo' } }),
  ]);
  menu = await vi.waitFor(
    async () => {
      const r = await terminal.mode.core.invoke({ command: 'menu.snapshot', payload: {} });
      const snapshot = (r as { value: MenuSnapshot }).value;
      if (!r.ok || !snapshot.items.some((i) => i.name === COFFEE)) throw new Error('the first pull has not brought the menu yet');
      return snapshot;
    },
    { timeout: 15_000, interval: 100 },
  );
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
});

afterEach(async ({ task }) => {
  await screenshotIfFailed(page, task, 'checkout');
  await page?.context().close();
  expect(consoleErrors, 'console errors and CSP violations').toEqual([]);
});

describe('checkout in the browser', () => {
  it('by touch: a dine-in order with a required choice, a discount and tax, split three ways with tips, then refunded by item', async () => {
    await openPage(true);
    // A tap flashes nothing grey over the control: the selected and pressed styles say what was tapped.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.tile')!).getPropertyValue('-webkit-tap-highlight-color'))).toBe('rgba(0, 0, 0, 0)');
    const coffee = item(COFFEE);
    const knots = item('Garlic knots');

    // The coffee asks for its size first: Add stays disabled until one is chosen.
    await page.getByRole('button', { name: 'Coffee & Tea' }).tap();
    await page.locator(`.menu-grid .tile[data-item-id="${coffee.id}"]`).tap();
    const chooser = dialog();
    await chooser.waitFor();
    await waitForText(chooser.locator('h2'), COFFEE);
    const add = chooser.getByTestId('modifier-done');
    expect(await add.isDisabled()).toBe(true);
    // Each group says its rule once; one short line by Add says what is missing.
    expect(await chooser.locator('[data-group-id] legend').first().textContent()).toBe('Size Required: choose 1');
    expect((await chooser.textContent())?.match(/choose 1/gi)).toHaveLength(1);
    expect(await chooser.locator('.choice-blocking').textContent()).toBe('Choose Size to add it.');
    await shot('modifier-chooser');
    await expectAccessible(page, 'modifier chooser');
    await chooser.getByText('Large +$1.00').tap();
    await chooser.getByText('Oat milk +$0.70').tap();
    await chooser.getByLabel(/Note for the kitchen/).tap();
    await chooser.getByLabel(/Note for the kitchen/).fill('extra hot');
    expect(await add.isDisabled()).toBe(false);
    await add.tap();
    await chooser.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Starters' }).tap();
    await page.locator(`.menu-grid .tile[data-item-id="${knots.id}"]`).tap();
    const lines = page.getByTestId('ticket-lines').locator('.ticket-line');
    await waitForCount(lines, 2);
    expect(await lines.nth(0).textContent()).toMatch(/Iced flat white.*Large, Oat milk.*Note: extra hot/);

    // Dine in at table 12, four guests.
    await page.getByText(/^Dine in/).tap();
    await page.getByLabel('Table').tap();
    await page.getByLabel('Table').fill('12');
    await page.getByLabel('Guests').tap();
    await page.getByLabel('Guests').fill('4');

    // 10% off the order, for a reason.
    await page.getByRole('button', { name: 'Order discount' }).tap();
    const discount = dialog();
    await discount.waitFor();
    await discount.getByLabel('Percent off').tap();
    await discount.getByLabel('Percent off').fill('10');
    await discount.getByRole('button', { name: 'Loyalty' }).tap();
    await waitForText(discount.locator('.discount-preview'), 'Takes off $1.40');
    await shot('discount-dialog');
    await expectAccessible(page, 'discount dialog');
    await discount.getByTestId('apply-discount').tap();
    await discount.waitFor({ state: 'detached' });

    // The ticket: Subtotal, the order's discount by name, Tax, Total.
    const expectedSubtotal = coffee.price + 100 + 70 + knots.price;
    await waitForCount(page.getByTestId('check-order-discount'), 1);
    const totals = await ticketTotals();
    expect(totals.discountLabel).toBe('10% off · Loyalty');
    expect(totals.subtotal).toBe(expectedSubtotal);
    expect(totals.discounts).toBe(Math.round(expectedSubtotal / 10));
    expect(totals.tax).toBeGreaterThan(0);
    expect(totals.taxLabel).toBe('Tax');
    expect(totals.total).toBe(totals.subtotal - totals.discounts + totals.tax);
    expect(await page.getByTestId('charge').textContent()).toMatch(new RegExp(`Charge \\$${(totals.total / 100).toFixed(2).replace('.', '\\.')}`));
    await shot('ticket-totals');
    await expectAccessible(page, 'ticket with totals');

    // Charge: the payment dialog asks for the balance due.
    await page.getByTestId('charge').tap();
    const pay = dialog();
    await pay.waitFor();
    expect(cents(await pay.getByTestId('balance-due').textContent())).toBe(totals.total);
    expect(await pay.locator('.payment-summary').textContent()).toMatch(/^Order A\d+ · Table 12 · 4 guests/);
    const label = /Order (A\d+)/.exec((await pay.locator('.payment-summary strong').textContent()) ?? '')![1]!;

    // Split evenly three ways (it starts at the table's 4 guests): saved as it is chosen, the Charge button for the first part.
    await pay.getByText('Split evenly', { exact: true }).tap();
    await waitForCount(pay.getByTestId('split-part'), 4);
    await pay.getByRole('button', { name: 'Fewer ways' }).tap();
    await waitForCount(pay.getByTestId('split-part'), 3);
    expect(await pay.getByLabel(/Paying now/).count()).toBe(0);
    const split = await parts();
    expect(cents(await pay.getByTestId('confirm-payment').textContent())).toBe(split[0]!.amount);
    await shot('split-panel');
    await expectAccessible(page, 'split panel');
    expect(split.reduce((sum, p) => sum + p.amount, 0)).toBe(totals.total);
    expect(Math.max(...split.map((p) => p.amount)) - Math.min(...split.map((p) => p.amount))).toBeLessThanOrEqual(1);

    // Part 1 by card with the suggested 15% tip.
    const tip1 = Math.round((split[0]!.amount * 15) / 100);
    const tip15 = pay.locator('.tips label').filter({ hasText: /^15%/ });
    expect(cents(await tip15.textContent())).toBe(tip1);
    await tip15.tap();
    const confirm = pay.getByTestId('confirm-payment');
    expect(cents(await confirm.textContent())).toBe(split[0]!.amount + tip1);
    await shot('payment-tips');
    await expectAccessible(page, 'payment dialog with tips');
    await confirm.tap();
    await waitForText(pay.getByTestId('payment-news'), /^Paid .*\+ \$\d+\.\d\d tip\. \$\d+\.\d\d still due\.$/);
    await partsPaid(1);
    expect((await parts()).map((p) => p.paid)).toEqual([true, false, false]);

    // Part 2 by card with a tip typed.
    await pay.getByText('Other amount', { exact: true }).tap();
    await pay.getByLabel('Tip amount').fill('2.50');
    expect(cents(await confirm.textContent())).toBe(split[1]!.amount + 250);
    await confirm.tap();
    await partsPaid(2);
    expect((await parts()).map((p) => p.paid)).toEqual([true, true, false]);

    // Part 3 in cash: $20 handed over, the change shown.
    await pay.getByText('Cash', { exact: true }).tap();
    expect(await pay.locator('.tips').count()).toBe(0);
    expect(await confirm.textContent()).toBe(`Take $${(split[2]!.amount / 100).toFixed(2)} cash Enter`);
    await pay.getByRole('button', { name: '$20.00' }).tap();
    expect(cents(await pay.locator('.change strong').textContent())).toBe(2000 - split[2]!.amount);
    await shot('payment-cash');
    await expectAccessible(page, 'payment dialog, cash');
    await confirm.tap();
    await pay.waitFor({ state: 'detached' });

    // The register shows the order's number, big.
    const big = page.getByTestId('order-label');
    expect(await big.textContent()).toBe(`Order ${label}`);
    expect(Number.parseFloat(await big.evaluate((el) => getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(32);
    expect(await page.locator('.notice').textContent()).toBe(`Paid $${(totals.total / 100).toFixed(2)}. Give $${((2000 - split[2]!.amount) / 100).toFixed(2)} change.`);
    // All of it in the finished order's own block, before the new ticket's header and order type.
    const last = page.getByRole('region', { name: 'Last order' });
    expect(await last.getByTestId('last-order-facts').textContent()).toBe(`Table 12 · 4 guests · paid $${(totals.total / 100).toFixed(2)}`);
    expect(await last.locator('.notice').count()).toBe(1);
    expect(await last.getByRole('heading', { name: 'New order' }).count()).toBe(0);
    expect(await last.getByLabel(/^Takeout/).count()).toBe(0);
    await shot('register-order-label');
    await expectAccessible(page, 'register after a sale');

    // The orders list: found by its number, with its service and check.
    await page.getByRole('button', { name: /^Orders/ }).tap();
    await page.getByRole('searchbox', { name: 'Search', exact: true }).tap();
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(label);
    const row = await foundByNumber(label);
    expect(await row.textContent()).toContain('Table 12 · 4 guests');
    expect(await row.locator('.badge').allTextContents()).toContain('Paid · in kitchen');
    expect(await row.count()).toBe(1);
    const localId = (await row.getAttribute('data-order-id'))!;
    await row.getByRole('button', { name: label, exact: true }).tap();
    const detail = page.locator('.order-detail');
    await waitForText(detail.getByTestId('order-total'), `$${(totals.total / 100).toFixed(2)}`);
    expect(cents(await detail.getByTestId('check-subtotal').textContent())).toBe(totals.subtotal);
    expect(cents(await detail.getByTestId('check-order-discount').textContent())).toBe(totals.discounts);
    expect(await detail.locator('.check-order-discount dt').textContent()).toBe('10% off · Loyalty');
    expect(cents(await detail.getByTestId('check-tax').locator('dd').textContent())).toBe(totals.tax);
    expect(cents(await detail.getByTestId('order-tips').textContent())).toBe(tip1 + 250);
    expect(await detail.locator('.payments li').allTextContents()).toHaveLength(3);
    await shot('orders-list');
    await expectAccessible(page, 'orders list');

    // Refund one garlic knots by item, confirmed.
    await detail.getByRole('button', { name: 'Refund' }).tap();
    const refund = dialog();
    await refund.waitFor();
    await refund.getByText('By item', { exact: true }).tap();
    await refund.getByRole('button', { name: 'One more Garlic knots to refund' }).tap();
    // The newest payment first: all of part 3's cash, the rest from part 2's card ("$6.36: $4.55 in cash and $1.81 to the card").
    const shares = (text: string, cashWords: string) => {
      const match = new RegExp(`^\\$([\\d.]+): \\$([\\d.]+) ${cashWords} and \\$([\\d.]+) to the card\\.$`).exec(text);
      return match ? match.slice(1).map((amount) => cents(`$${amount}`)) : null;
    };
    const gives = async () => shares(((await refund.getByTestId('refund-items-amount').textContent()) ?? '').replace(/^Gives back /, ''), 'in cash');
    await waitForText(refund.getByTestId('refund-items-amount'), /^Gives back \$[\d.]+: \$[\d.]+ in cash and \$[\d.]+ to the card\.$/);
    expect((await gives())?.[1]).toBe(split[2]!.amount);
    await shot('refund-by-item');
    await expectAccessible(page, 'refund by item');
    await refund.getByTestId('refund-items').tap();
    const question = (await refund.getByTestId('refund-question').textContent()) ?? '';
    const [given, inCash, toCard] = shares(question.replace(/^Refund 1 item, /, ''), 'in cash to hand back') ?? [];
    expect(inCash, question).toBe(split[2]!.amount);
    expect(given).toBe(inCash! + toCard!);
    expect(await refund.getByLabel('By amount').isDisabled()).toBe(true); // no switching away under the question
    await shot('refund-confirm');
    await expectAccessible(page, 'refund confirmation');
    await refund.getByTestId('confirm-refund-items').tap();
    await refund.waitFor({ state: 'detached' });
    await waitForText(row.locator('.badge'), 'Partially refunded');
    expect(await detail.locator('h2 .badge').allTextContents()).toContain('Partially refunded');
    // Said again from what the core did: the same split of the money.
    expect(await page.getByTestId('order-notice').textContent()).toBe(question.replace(/^Refund/, 'Refunded'));
    // Each payment says what went back to it.
    const dollars = (minor: number) => `$${(minor / 100).toFixed(2)}`;
    await expect
      .poll(() => detail.getByTestId('payment-line').allTextContents())
      .toEqual([
        expect.not.stringContaining('refunded'),
        expect.stringContaining(`· ${dollars(toCard!)} refunded`),
        expect.stringContaining(`· ${dollars(inCash!)} refunded`),
      ]);
    await shot('orders-refunded');

    await expectInTheCloud({
      label,
      localId,
      table: '12',
      guests: 4,
      totals,
      reason: 'Loyalty',
      note: 'extra hot',
      cards: [
        { amount: split[0]!.amount, tip: tip1 },
        { amount: split[1]!.amount, tip: 250 },
      ],
    });
  });

  it('by keyboard alone: the same checkout, from the search box to the refund, without a pointer', async () => {
    await openPage(false);
    const coffee = item(COFFEE);
    const soup = item('Tomato soup');
    const typeInto = async (field: Locator, text: string) => {
      await tabTo(field);
      await page.keyboard.type(text);
    };

    // The search box has the focus; Enter adds the best match, and the coffee asks for its size.
    await page.keyboard.press('F2');
    await page.locator('#menu-search:focus').waitFor();
    await page.keyboard.type('iced flat');
    await waitForText(page.locator('.search-hint'), `Enter adds ${COFFEE}`);
    await page.keyboard.press('Enter');
    const chooser = dialog();
    await chooser.waitFor();
    // The first size has the focus; Enter with no size chosen adds nothing.
    await expect.poll(focused).toBe('input Small');
    expect(await chooser.getByTestId('modifier-done').isDisabled()).toBe(true);
    await page.keyboard.press('Enter');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(await chooser.isVisible()).toBe(true);
    expect(await page.getByTestId('ticket-lines').locator('.ticket-line').count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    expect(await chooser.getByLabel('Regular +$0.50').isChecked()).toBe(true);
    expect(await chooser.getByTestId('modifier-done').isDisabled()).toBe(false);
    await tabTo(chooser.getByLabel('Extra shot +$0.90'));
    await page.keyboard.press('Space');
    await typeInto(chooser.getByLabel(/Note for the kitchen/), 'no foam');
    await page.keyboard.press('Enter');
    await chooser.waitFor({ state: 'detached' });

    await page.keyboard.press('F2');
    await page.locator('#menu-search:focus').waitFor();
    await page.keyboard.type('tomato soup');
    await waitForText(page.locator('.search-hint'), 'Enter adds Tomato soup');
    await page.keyboard.press('Enter');
    const lines = page.getByTestId('ticket-lines').locator('.ticket-line');
    await expect.poll(() => lines.allTextContents()).toEqual([expect.stringMatching(/Iced flat white.*Regular, Extra shot.*Note: no foam/), expect.stringMatching(/^Tomato soup/)]);

    // Dine in at table 7, two guests: Alt+D picks dine in and puts the focus in the table field.
    expect(await page.getByLabel(/^Dine in/).getAttribute('aria-keyshortcuts')).toBe('Alt+D');
    await page.keyboard.press('Alt+KeyD');
    await page.getByLabel(/^Dine in/).and(page.locator(':checked')).waitFor();
    await expect.poll(focused).toBe('input Table');
    // The focus is shown: the outline stays for the keyboard.
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.keyboard.type('7');
    await typeInto(page.getByLabel('Guests'), '2');

    // 10% off the order with F4 (shown on its button), with a reason typed.
    expect(await page.getByRole('button', { name: 'Order discount' }).locator('kbd').textContent()).toBe('F4');
    await page.keyboard.press('F4');
    const discount = dialog();
    await discount.waitFor();
    await expect.poll(focused).toBe('input Percent');
    await typeInto(discount.getByLabel('Percent off'), '10');
    await typeInto(discount.getByLabel('Reason (or type your own)'), 'Regulars');
    await page.keyboard.press('Enter');
    await discount.waitFor({ state: 'detached' });
    const expectedSubtotal = coffee.price + 50 + 90 + soup.price;
    await waitForCount(page.getByTestId('check-order-discount'), 1);
    const totals = await ticketTotals();
    expect(totals).toMatchObject({ subtotal: expectedSubtotal, discounts: Math.round(expectedSubtotal / 10), discountLabel: '10% off · Regulars', taxLabel: 'Tax' });
    expect(totals.tax).toBeGreaterThan(0);
    expect(totals.total).toBe(totals.subtotal - totals.discounts + totals.tax);

    // F8 charges: the dialog asks for the balance due, its Charge button has the focus.
    await page.keyboard.press('F8');
    const pay = dialog();
    await pay.waitFor();
    expect(cents(await pay.getByTestId('balance-due').textContent())).toBe(totals.total);
    expect(await pay.locator('.payment-summary').textContent()).toMatch(/^Order A\d+ · Table 7 · 2 guests/);
    const label = /Order (A\d+)/.exec((await pay.locator('.payment-summary strong').textContent()) ?? '')![1]!;
    const confirm = pay.getByTestId('confirm-payment');
    await confirm.and(page.locator(':focus')).waitFor();

    // Split evenly three ways.
    await tabTo(pay.getByLabel('Whole bill'), { back: true });
    await page.keyboard.press('ArrowRight');
    expect(await pay.getByLabel('Split evenly').isChecked()).toBe(true);
    await tabTo(pay.getByRole('button', { name: 'More ways' }));
    await page.keyboard.press('Enter');
    // Saved with no other key: Enter now would charge the first part, never the whole bill.
    await waitForCount(pay.getByTestId('split-part'), 3);
    const split = await parts();
    expect(split.reduce((sum, p) => sum + p.amount, 0)).toBe(totals.total);

    // Part 1 by card, the suggested 15% tip.
    await tabTo(pay.getByLabel('No tip'));
    await page.keyboard.press('ArrowRight');
    const tip1 = Math.round((split[0]!.amount * 15) / 100);
    expect(cents(await confirm.textContent())).toBe(split[0]!.amount + tip1);
    await tabTo(confirm);
    await page.keyboard.press('Enter');
    await partsPaid(1);
    expect((await parts()).map((p) => p.paid)).toEqual([true, false, false]);

    // Part 2 by card, a tip typed: "Other amount" is the last choice, and its field takes the focus.
    await tabTo(pay.getByLabel('No tip'));
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('input Tip amount');
    await page.keyboard.type('3');
    expect(cents(await confirm.textContent())).toBe(split[1]!.amount + 300);
    await page.keyboard.press('Enter');
    await partsPaid(2);
    expect((await parts()).map((p) => p.paid)).toEqual([true, true, false]);

    // Part 3 in cash: the tendered field takes the focus with its text selected; $10 handed over.
    await tabTo(pay.getByLabel('Card'));
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('input Cash handed over');
    await page.keyboard.type('10');
    expect(cents(await pay.locator('.change strong').textContent())).toBe(1000 - split[2]!.amount);
    await page.keyboard.press('Enter');
    await pay.waitFor({ state: 'detached' });
    expect(await page.getByTestId('order-label').textContent()).toBe(`Order ${label}`);
    expect(await page.locator('.notice').textContent()).toBe(`Paid $${(totals.total / 100).toFixed(2)}. Give $${((1000 - split[2]!.amount) / 100).toFixed(2)} change.`);

    // Alt+2: the orders list, searched by the number.
    await page.keyboard.press('Alt+2');
    await typeInto(page.getByRole('searchbox', { name: 'Search', exact: true }), label);
    const row = await foundByNumber(label);
    expect(await row.textContent()).toContain('Table 7 · 2 guests');
    const localId = (await row.getAttribute('data-order-id'))!;
    await tabTo(row.getByRole('button', { name: label, exact: true }));
    await page.keyboard.press('Enter');
    const detail = page.locator('.order-detail');
    await waitForText(detail.getByTestId('order-total'), `$${(totals.total / 100).toFixed(2)}`);
    expect(cents(await detail.getByTestId('check-tax').locator('dd').textContent())).toBe(totals.tax);
    expect(cents(await detail.getByTestId('order-tips').textContent())).toBe(tip1 + 300);

    // Refund one tomato soup by item: the mode is a radio group before the amount field.
    await tabTo(detail.getByRole('button', { name: 'Refund' }));
    await page.keyboard.press('Enter');
    const refund = dialog();
    await refund.waitFor();
    await tabTo(refund.getByLabel('By amount'), { back: true });
    await page.keyboard.press('ArrowRight');
    await tabTo(refund.getByRole('button', { name: 'One more Tomato soup to refund' }));
    await page.keyboard.press('Enter');
    await waitForText(refund.getByTestId('refund-items-amount'), /^Gives back \$\d+\.\d\d.* in cash and .* to the card\.$/);
    await tabTo(refund.getByTestId('refund-items'));
    await page.keyboard.press('Enter');
    // The safe answer has the focus: a second Enter would go back, not refund.
    await expect.poll(focused).toBe('button No, go back');
    await tabTo(refund.getByTestId('confirm-refund-items'));
    await page.keyboard.press('Enter');
    await refund.waitFor({ state: 'detached' });
    await waitForText(row.locator('.badge'), 'Partially refunded');

    await expectInTheCloud({
      label,
      localId,
      table: '7',
      guests: 2,
      totals,
      reason: 'Regulars',
      note: 'no foam',
      cards: [
        { amount: split[0]!.amount, tip: tip1 },
        { amount: split[1]!.amount, tip: 300 },
      ],
    });
  });

  it("offline, a cashier's card above the limit asks a manager's PIN: why, and a wrong one refused, said next to it; the right one takes the card", async () => {
    ({ page, errors: consoleErrors } = await openRegister(browser, terminal, { viewport: SMALL_TILL, signIn: 'cashier' }));
    // The dearest plain item, enough times to go over the $100.00 limit for one offline card payment.
    const dear = menu.items.filter((i) => i.available && i.modifiers.length === 0).sort((a, b) => b.price - a.price)[0]!;
    const taps = Math.floor(10_000 / dear.price) + 1;
    await terminal.sandbox.faults.set({ outage: true });
    try {
      await page.locator('#menu-search').fill(dear.name);
      const tile = page.locator(`.menu-grid .tile[data-item-id="${dear.id}"]`);
      for (let n = 0; n < taps; n++) await tile.click();
      await waitForText(page.getByTestId('ticket-lines').locator('.qty-value').first(), String(taps));
      await page.getByTestId('charge').click();
      const pay = dialog();
      await pay.waitFor();
      // Saving the order tried the cloud: the terminal knows it is offline before the card is asked for.
      await waitForText(page.getByTestId('sync-indicator'), /Offline/, { timeout: 20_000 });
      await pay.getByTestId('confirm-payment').click();
      const pin = pay.getByLabel('Manager PIN to approve');
      await pin.waitFor();
      const note = pay.locator('.field-error');
      await waitForText(note, /^The terminal is offline and this card payment is above the \$100\.00 limit for one offline card payment\./);
      expect(await pin.getAttribute('aria-describedby')).toBe(await note.getAttribute('id'));
      await pin.fill('0000');
      await pay.getByTestId('confirm-payment').click();
      await waitForText(note, /That PIN is not right\./);
      expect(await pin.inputValue()).toBe('');
      await shot('payment-manager-pin');
      await expectAccessible(page, 'payment dialog, a manager PIN refused');
      await pin.fill(STAFF.manager.pin);
      await pay.getByTestId('confirm-payment').click();
      await pay.waitFor({ state: 'detached' });
      await waitForText(page.locator('.notice'), /^Paid/);
    } finally {
      await terminal.sandbox.faults.set({ outage: false });
    }
  });
});

