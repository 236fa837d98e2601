// Staff, shifts and the Z report end to end (docs/staff.md), in Debian's Chromium against the
// sandbox: a terminal with no staff provisioned asks for the owner first, set up by keyboard; the
// owner adds a cashier and a manager on the Staff screen and locks; the cashier signs in by touch
// on the keypad, opens the drawer with a counted float, sells one order in cash (with change) and
// one by card; mid-order the till is locked, a wrong PIN is refused next to the PIN, the manager
// signs in and finds the ticket as it was and places it; back as the cashier, a paid-out with the
// manager's PIN; the shift closed with a blind count (what the till expects is nowhere on the page
// before the count is in), short by a dollar; the owner reads the Z report, whose sales by item,
// staff and tender are what was sold, and exports it as CSV (a real download).
// Screenshots of each new screen at 1024×768 and 1366×768 go to
// test-results/screenshots/staff-<name>-<w>x<h>.png, each checked by the layout audit; axe on each.
// Every case sets up what it starts from, through the core, and opens its own page: one terminal
// with the test staff provisioned serves most of them (each closes whatever shift it finds and
// opens its own); the first run and the Z report, which read the whole terminal's state (no staff
// at all, everything the day sold), each have a terminal of their own.
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CashCount } from '../../bridge/staff/cash';
import type { CommandInput, CommandName, CommandResult, MenuItem, MenuSnapshot } from '../../bridge/contract';
import type { TerminalConfig } from '../../main/config/schema';
import { STAFF, type StaffKey } from '../core/fixtures';
import { callCore, goToScreen, launchChromium, lockTill, openRegister, signInOnLockScreen, startTerminal, waitForCount, waitForText, type Terminal } from './harness';
import { expectAccessible, SCREENSHOTS, screenshotIfFailed, SMALL_TILL, tillShots } from './shots';

const { owner: OWNER, manager: MANAGER, cashier: CASHIER } = STAFF;
/** Two people the owner adds on the Staff screen (not among the provisioned test staff). */
const NEW_CASHIER = { name: 'Nia Newcomer', role: 'cashier', pin: '8264' } as const;
const NEW_MANAGER = { name: 'Milo Newhire', role: 'manager', pin: '9371' } as const;

let browser: Browser;
/** The terminal most cases share, with the test staff provisioned. */
let terminal: Terminal;
let menu: MenuSnapshot;
let page: Page;
/** The console errors and CSP violations of the case's page. */
let consoleErrors: string[] = [];

const dialog = () => page.locator('dialog[open]');
const shot = tillShots(() => page, 'staff');
const dollars = (minor: number) => `$${(minor / 100).toFixed(2)}`;

/** The item called `name` on the menu of the shared terminal, or on `on` (each sandbox gives its items their own ids). */
function item(name: string, on: MenuSnapshot = menu): MenuItem {
  const found = on.items.find((i) => i.name === name);
  if (!found) throw new Error(`the demo menu has no ${name}`);
  return found;
}

const screenTabs = () => page.getByRole('navigation', { name: 'Screens' }).getByRole('button').evaluateAll((tabs) => tabs.map((tab) => tab.firstChild?.textContent?.trim()));

/** Everything the page holds as text, shown or not (hidden text, attributes aside). */
const pageText = () => page.evaluate(() => `${document.body.innerText}\n${document.body.textContent ?? ''}`);

/** Taps a category, then the item's tile, `times` times. */
async function tapItem(name: string, category: string, times = 1): Promise<void> {
  await page.getByRole('navigation', { name: 'Categories' }).getByRole('button', { name: category, exact: true }).tap();
  for (let n = 0; n < times; n++) await page.locator(`.menu-grid .tile[data-item-id="${item(name).id}"]`).tap();
}

/** Fills a cash count: how many of each note or coin ("$20.00" → 3). */
async function count(form: Locator, pieces: Record<string, number>): Promise<void> {
  for (const [label, howMany] of Object.entries(pieces)) await form.getByLabel(`Count of ${label}`, { exact: true }).fill(String(howMany));
}

/** What was sold, checked against the report and its CSV. */
const SOLD = {
  knots: 650,
  lager: 800,
  soup: 750,
  edamame: 600,
};
const CASH_ORDER = 2 * SOLD.knots + SOLD.lager; // $21.00, paid with $40.00
const CARD_ORDER = SOLD.soup; // $7.50
const SWITCHED_ORDER = SOLD.edamame + SOLD.lager; // $14.00, placed by the manager, unpaid
const FLOAT = 8750; // 3 × $20, 2 × $10, 1 × $5, 2 × $1, 2 × 25¢
const FLOAT_COUNT: CashCount = [
  { value: 2000, count: 3 },
  { value: 1000, count: 2 },
  { value: 500, count: 1 },
  { value: 100, count: 2 },
  { value: 25, count: 2 },
];
const PAID_OUT = 1200;
const EXPECTED = FLOAT + CASH_ORDER - PAID_OUT; // $96.50
const COUNTED = 9550; // 4 × $20, 1 × $10, 1 × $5, 2 × 25¢: a dollar short
const COUNTED_COUNT: CashCount = [
  { value: 2000, count: 4 },
  { value: 1000, count: 1 },
  { value: 500, count: 1 },
  { value: 25, count: 2 },
];

function call<C extends CommandName>(on: Terminal, command: C, payload: CommandInput<C>): Promise<CommandResult<C>> {
  return callCore(on, command, payload);
}

/** `who` signed in on the terminal's core (the session is the terminal's: its pages follow). */
async function signInOnCore(on: Terminal, who: StaffKey): Promise<void> {
  await call(on, 'staff.signIn', { pin: STAFF[who].pin });
}

/**
 * The till's drawer as a case starts it: whatever shift another case left open is closed (counted
 * empty, the manager approving), and with `float` a new one opened by `who` with that float.
 */
async function freshDrawer(on: Terminal, who: StaffKey, float: CashCount | null): Promise<void> {
  await signInOnCore(on, who);
  if ((await call(on, 'shift.current', {}))?.status === 'open') await call(on, 'shift.close', { count: [], managerPin: MANAGER.pin });
  if (float !== null) await call(on, 'shift.open', { count: float });
}

/** The sales of the story, through the core as the cashier: one order in cash with change, one by card. */
async function sellCashAndCard(on: Terminal, onMenu: MenuSnapshot): Promise<void> {
  await signInOnCore(on, 'cashier');
  const cash = await call(on, 'orders.place', {
    lines: [
      { menuItemId: item('Garlic knots', onMenu).id, quantity: 2 },
      { menuItemId: item('Lager', onMenu).id, quantity: 1 },
    ],
  });
  await call(on, 'payments.take', { orderId: cash.id, method: 'cash', amount: cash.total, tendered: 4000 });
  const card = await call(on, 'orders.place', { lines: [{ menuItemId: item('Tomato soup', onMenu).id, quantity: 1 }] });
  await call(on, 'payments.take', { orderId: card.id, method: 'card', amount: card.total });
}

/** The menu once the first pull has brought the demo menu. */
async function pulledMenu(on: Terminal): Promise<MenuSnapshot> {
  return vi.waitFor(
    async () => {
      const response = await on.mode.core.invoke({ command: 'menu.snapshot', payload: {} });
      const snapshot = (response as { value: MenuSnapshot }).value;
      if (!response.ok || !snapshot.items.some((i) => i.name === 'Edamame')) throw new Error('the first pull has not brought the menu yet');
      return snapshot;
    },
    { timeout: 15_000, interval: 100 },
  );
}

/** A page of the case's own (a new browser context), by touch at the small till size. */
async function openPage(on: Terminal, options: { signIn?: StaffKey | null; openShift?: boolean } = {}): Promise<void> {
  ({ page, errors: consoleErrors } = await openRegister(browser, on, { viewport: SMALL_TILL, hasTouch: true, ...options }));
}

/** A terminal of the case's own with `config`, closed whatever happens. */
async function withOwnTerminal(config: Partial<TerminalConfig>, run: (own: Terminal) => Promise<void>): Promise<void> {
  const own = await startTerminal({ config });
  try {
    await run(own);
  } finally {
    await page?.context().close();
    await own.close();
  }
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [browser, terminal] = await Promise.all([launchChromium(), startTerminal()]);
  menu = await pulledMenu(terminal);
  expect([item('Garlic knots').price, item('Lager').price, item('Tomato soup').price, item('Edamame').price]).toEqual([SOLD.knots, SOLD.lager, SOLD.soup, SOLD.edamame]);
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
});

afterEach(async ({ task }) => {
  await screenshotIfFailed(page, task, 'staff');
  await page?.context().close();
  expect(consoleErrors, 'console errors and CSP violations').toEqual([]);
});

describe('staff, shifts and the Z report in the browser', () => {
  it('the first run: the owner is set up by keyboard, and no command works before', async () => {
    // No staff provisioned: the first run asks for the owner.
    await withOwnTerminal({ staff: { members: [] } as unknown as TerminalConfig['staff'] }, async (own) => {
      await pulledMenu(own);
      await openPage(own, { signIn: null });
      const form = page.getByRole('form', { name: 'Set up the owner' });
      await form.waitFor();
      // Nothing but the lock screen's own commands runs while no one is signed in.
      const refused = await own.mode.core.invoke({ command: 'orders.list', payload: {} });
      expect(refused).toMatchObject({ ok: false, error: { code: 'needs_sign_in' } });
      await shot('setup');
      await expectAccessible(page, 'the owner set-up');

      // The name field has the focus. An obvious PIN is refused next to its field, which takes the focus.
      await form.getByLabel('Your name').and(page.locator(':focus')).waitFor();
      await page.keyboard.type(OWNER.name);
      await page.keyboard.press('Tab');
      await page.keyboard.type('1234');
      await page.keyboard.press('Tab');
      await page.keyboard.type('1234');
      await page.keyboard.press('Enter');
      const pin = form.getByLabel('PIN (4 to 8 digits)');
      await expect.poll(() => pin.getAttribute('aria-invalid')).toBe('true');
      const pinError = form.locator(`[id="${await pin.getAttribute('aria-describedby')}"]`);
      expect(await pinError.textContent()).toMatch(/too easy to guess/);
      expect(await pin.evaluate((el) => el === document.activeElement)).toBe(true);
      await shot('setup-refused');
      await expectAccessible(page, 'the owner set-up, a PIN refused');

      await page.keyboard.press('Control+A');
      await page.keyboard.type(OWNER.pin);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Control+A');
      await page.keyboard.type(OWNER.pin);
      await page.keyboard.press('Enter');
      await waitForText(page.getByTestId('staff-bar').locator('.staff-name'), OWNER.name);
      expect(await page.getByTestId('staff-bar').locator('.staff-role').textContent()).toBe('Owner');
      await page.locator('.menu-grid .tile').first().waitFor();
      expect(await screenTabs()).toEqual(['Register', 'Tables', 'Orders', 'Menu', 'Shift', 'Reports', 'Staff', 'Settings']);
      expect(consoleErrors, 'console errors and CSP violations').toEqual([]);
    });
  });

  it('the owner adds a cashier and a manager on the Staff screen, then locks the till', async () => {
    await openPage(terminal, { signIn: 'owner', openShift: false });
    await goToScreen(page, 'Staff');
    const add = page.getByRole('form', { name: 'Add a staff member' });
    const rows = page.getByTestId('staff-row');
    // The test staff provisioned, before anyone is added.
    await waitForCount(rows, Object.keys(STAFF).length);
    for (const member of [NEW_CASHIER, NEW_MANAGER]) {
      await add.getByLabel('Name', { exact: true }).tap();
      await add.getByLabel('Name', { exact: true }).fill(member.name);
      await add.getByLabel('Role').selectOption({ label: member.role === 'manager' ? 'Manager' : 'Cashier' });
      await add.getByLabel('PIN', { exact: true }).fill(member.pin);
      await add.getByLabel('PIN again').fill(member.pin);
      await add.getByRole('button', { name: 'Add staff member' }).tap();
      await waitForText(page.getByTestId('staff-notice'), `${member.name} is added as ${member.role}: they sign in with their PIN.`);
    }
    // The fields are empty again for the next person: no PIN stays on screen.
    expect(await add.getByLabel('PIN', { exact: true }).inputValue()).toBe('');
    await waitForCount(rows, Object.keys(STAFF).length + 2);
    const table = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent?.trim())));
    expect(table).toEqual(
      expect.arrayContaining([
        // The owner as IT provisioned them; the two just added, by the owner.
        [`${OWNER.name} (you)`, 'Owner', 'ActiveSet by IT'],
        [NEW_CASHIER.name, 'Cashier', 'Active'],
        [NEW_MANAGER.name, 'Manager', 'Active'],
      ]),
    );
    await shot('staff');
    await expectAccessible(page, 'the Staff screen');

    await lockTill(page);
    expect(await page.getByTestId('lock-ticket').count()).toBe(0);
    await shot('lock');
    await expectAccessible(page, 'the lock screen');
  });

  it('the cashier signs in by touch and opens the drawer with a counted float', async () => {
    // The drawer closed and the till locked.
    await freshDrawer(terminal, 'owner', null);
    await call(terminal, 'staff.lock', {});
    await openPage(terminal, { signIn: null });
    const form = page.getByRole('form', { name: 'Sign in' });
    const dots = page.getByTestId('pin-dots');
    // Each tap is a dot; Delete last digit takes one back.
    const keypad = form.getByRole('group', { name: 'Keypad' });
    await keypad.getByRole('button', { name: '9', exact: true }).tap();
    await dots.and(page.locator('[data-count="1"]')).waitFor();
    await keypad.getByRole('button', { name: 'Delete last digit' }).tap();
    await dots.and(page.locator('[data-count="0"]')).waitFor();
    await signInOnLockScreen(page, 'cashier', { touch: true });
    // A cashier's tabs: no report, no staff.
    expect(await screenTabs()).toEqual(['Register', 'Tables', 'Orders', 'Menu', 'Shift', 'Settings']);

    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Shift/ }).tap();
    const open = page.getByRole('form', { name: 'Open the drawer' });
    await open.waitFor();
    // Three twenties by the + button, the rest typed.
    for (let n = 0; n < 3; n++) await open.getByRole('button', { name: 'One more $20.00' }).tap();
    await count(open, { '$10.00': 2, '$5.00': 1, '$1.00': 2, '$0.25': 2 });
    expect(await open.getByLabel('Count of $20.00', { exact: true }).inputValue()).toBe('3');
    await waitForText(open.getByTestId('float-total'), dollars(FLOAT));
    await shot('shift-open-count');
    await expectAccessible(page, 'opening the drawer');
    await open.getByRole('button', { name: 'Open the shift' }).tap();

    const shift = page.getByRole('region', { name: 'Open shift' });
    await shift.waitFor();
    await waitForText(page.getByTestId('shift-notice'), `The shift is open with a float of ${dollars(FLOAT)}.`);
    expect(await shift.getByTestId('shift-float').textContent()).toBe(dollars(FLOAT));
    expect(await shift.textContent()).toContain(`Opened by ${CASHIER.name}`);
    await shot('shift-open');
    await expectAccessible(page, 'the open shift');
  });

  it('the cashier sells one order in cash with change and one by card', async () => {
    // The cashier signed in with the drawer open.
    await openPage(terminal, { signIn: 'cashier' });
    const soldLabel = async () => ((await page.getByTestId('order-label').textContent()) ?? '').replace(/^Order /, '');
    await tapItem('Garlic knots', 'Starters', 2);
    await tapItem('Lager', 'Beer & Wine');
    await waitForText(page.getByTestId('ticket-total'), dollars(CASH_ORDER));
    await page.getByTestId('charge').tap();
    await dialog().waitFor();
    await dialog().getByText('Cash', { exact: true }).tap();
    await dialog().getByLabel('Cash handed over').fill('40');
    expect(await dialog().locator('.change strong').textContent()).toBe(dollars(4000 - CASH_ORDER));
    await dialog().getByTestId('confirm-payment').tap();
    await dialog().waitFor({ state: 'detached' });
    await waitForText(page.locator('.last-order .notice'), `Paid ${dollars(CASH_ORDER)}. Give ${dollars(4000 - CASH_ORDER)} change.`);
    const cashLabel = await soldLabel();

    await tapItem('Tomato soup', 'Starters');
    await page.getByTestId('charge').tap();
    await dialog().waitFor();
    await dialog().getByText('Card', { exact: true }).tap();
    await dialog().getByTestId('confirm-payment').tap();
    await dialog().waitFor({ state: 'detached' });
    await waitForText(page.locator('.last-order .notice'), `Paid ${dollars(CARD_ORDER)}.`);
    const cardLabel = await soldLabel();

    // Both sales name the cashier.
    const sold = async (label: string) => (await call(terminal, 'orders.list', { search: label })).find((o) => o.label === label);
    expect(await sold(cashLabel)).toMatchObject({ total: CASH_ORDER, paidAmount: CASH_ORDER, staff: { name: CASHIER.name } });
    expect(await sold(cardLabel)).toMatchObject({ total: CARD_ORDER, paidAmount: CARD_ORDER, staff: { name: CASHIER.name } });
  });

  it('switching staff mid-order: the ticket stays, a wrong PIN is refused next to the PIN, the manager places it', async () => {
    await openPage(terminal, { signIn: 'cashier' });
    await tapItem('Edamame', 'Starters');
    await tapItem('Lager', 'Beer & Wine');
    const lines = page.getByTestId('ticket-lines').locator('.line-name');
    await waitForCount(lines, 2);
    expect(await lines.allTextContents()).toEqual(['Edamame', 'Lager']);
    await page.keyboard.press('Alt+L');
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.waitFor();
    expect(await page.getByTestId('lock-ticket').textContent()).toBe('A ticket with 2 items is open: it stays for whoever signs in.');

    // A wrong PIN: said under the PIN, tied to it, and the dots are empty again.
    await page.keyboard.type('1357');
    await page.keyboard.press('Enter');
    const error = form.locator('.field-error');
    await waitForText(error, 'That PIN is not right.');
    const pinGroup = form.getByRole('group', { name: 'PIN' });
    expect(await pinGroup.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
    expect(await page.getByTestId('pin-dots').getAttribute('data-count')).toBe('0');
    const [pinBox, errorBox, keypadBox] = await Promise.all([pinGroup.boundingBox(), error.boundingBox(), form.getByRole('group', { name: 'Keypad' }).boundingBox()]);
    // Right under the PIN, above the keypad.
    expect(errorBox!.y).toBeGreaterThanOrEqual(pinBox!.y + pinBox!.height - 1);
    expect(errorBox!.y - (pinBox!.y + pinBox!.height)).toBeLessThan(24);
    expect(errorBox!.y + errorBox!.height).toBeLessThanOrEqual(keypadBox!.y + 1);
    await shot('lock-wrong-pin');
    await expectAccessible(page, 'the lock screen, a wrong PIN');

    await signInOnLockScreen(page, 'manager');
    // The ticket as the cashier left it.
    await waitForCount(lines, 2);
    expect(await lines.allTextContents()).toEqual(['Edamame', 'Lager']);
    expect(await page.getByTestId('ticket-total').textContent()).toBe(dollars(SWITCHED_ORDER));
    await page.keyboard.press('F7');
    await waitForText(page.locator('.last-order .notice'), /^Order saved as A\d+\. Take payment from Orders when ready\.$/);
    const label = /as (A\d+)\./.exec((await page.locator('.last-order .notice').textContent()) ?? '')![1]!;
    const placed = (await call(terminal, 'orders.list', { search: label })).find((o) => o.label === label)!;
    expect(placed).toMatchObject({ total: SWITCHED_ORDER, paidAmount: 0, staff: { name: MANAGER.name } });
    await lockTill(page);
  });

  it('a paid-out by the cashier, approved with the manager’s PIN', async () => {
    // A shift of the case's own (a float to pay out of), with no cash moved yet.
    await freshDrawer(terminal, 'cashier', FLOAT_COUNT);
    await openPage(terminal, { signIn: 'cashier' });
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Shift/ }).tap();
    const shift = page.getByRole('region', { name: 'Open shift' });
    await shift.getByRole('button', { name: 'Paid-out' }).tap();
    const move = dialog();
    await move.waitFor();
    expect(await move.textContent()).toContain('Paying cash out of the drawer needs a manager: they enter their PIN.');
    await move.getByLabel('Amount').fill('12');
    await move.getByRole('button', { name: 'Supplies' }).tap();
    expect(await move.getByLabel('Reason (or type your own)').inputValue()).toBe('Supplies');
    await move.getByLabel('Manager PIN to approve').fill(MANAGER.pin);
    await shot('paid-out');
    await expectAccessible(page, 'the paid-out dialog');
    await move.getByRole('button', { name: /^Record the paid-out/ }).tap();
    await move.waitFor({ state: 'detached' });
    await waitForText(page.getByTestId('shift-notice'), `Paid out ${dollars(PAID_OUT)}: Supplies.`);
    expect(await shift.getByTestId('shift-paid-outs').textContent()).toBe(dollars(PAID_OUT));
    expect(await shift.getByTestId('cash-movement').allTextContents()).toEqual([expect.stringMatching(new RegExp(`Paid-out\\${dollars(PAID_OUT)}Supplies${CASHIER.name}$`))]);
  });

  it('closes the shift with a blind count: nothing shows what the till expects until the count is in, then short by a dollar', async () => {
    // The cashier's shift of the story, through the core: the float, the two sales, the paid-out.
    await freshDrawer(terminal, 'cashier', FLOAT_COUNT);
    await sellCashAndCard(terminal, menu);
    await call(terminal, 'shift.moveCash', { kind: 'paid_out', amount: PAID_OUT, reason: 'Supplies', managerPin: MANAGER.pin });
    await openPage(terminal, { signIn: 'cashier', openShift: false });
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Shift/ }).tap();
    const shift = page.getByRole('region', { name: 'Open shift' });
    await shift.waitFor();
    // Blind: the cash taken adds up to what the drawer should hold, so it waits for the count.
    expect(await shift.getByTestId('shift-cash-sales').textContent()).toBe('After the count');
    expect(await shift.getByTestId('shift-card-sales').textContent()).toBe(dollars(CARD_ORDER));
    // The figure the till expects, in any spelling, is nowhere on the page.
    const expectedFigures = [dollars(EXPECTED), (EXPECTED / 100).toFixed(2)];
    const noExpectedFigure = async (when: string) => {
      const text = await pageText();
      for (const figure of expectedFigures) expect(text.includes(figure), `${figure} on the page ${when}`).toBe(false);
    };
    await noExpectedFigure('with the shift open');

    await shift.getByRole('button', { name: 'Close the shift' }).tap();
    const close = page.getByRole('form', { name: 'Close the shift' });
    await close.waitFor();
    await noExpectedFigure('before counting');
    await count(close, { '$20.00': 4, '$10.00': 1, '$5.00': 1, '$0.25': 2 });
    await waitForText(close.getByTestId('closing-total'), dollars(COUNTED));
    // Closing is a manager's: the cashier counts, the manager approves with their PIN.
    expect(await close.textContent()).toContain('Closing a shift needs a manager: they check the count and enter their PIN.');
    await close.getByLabel('Manager PIN to approve').fill(MANAGER.pin);
    await noExpectedFigure('with the count in, before it is sent');
    await shot('shift-close-count');
    await expectAccessible(page, 'the blind count');
    await close.getByRole('button', { name: 'Close the shift' }).tap();

    const closed = page.getByRole('region', { name: 'Shift closed' });
    await closed.waitFor();
    expect(await closed.getByTestId('over-short').textContent()).toBe(`Short ${dollars(EXPECTED - COUNTED)}`);
    expect(await closed.getByTestId('closed-expected').textContent()).toBe(dollars(EXPECTED));
    expect(await closed.getByTestId('closed-counted').textContent()).toBe(dollars(COUNTED));
    expect(await closed.textContent()).toContain(`Closed by ${CASHIER.name}`);
    // The report is a manager's: the cashier is not offered it.
    expect(await closed.getByRole('button', { name: 'View the end-of-day report' }).count()).toBe(0);
    await shot('shift-closed');
    await expectAccessible(page, 'the closed shift');
  });

  it('the owner reads the Z report: sales by item, staff and tender as sold; the CSV downloads', async () => {
    // A terminal of its own: the report is the whole day's, so no other case may have sold on it.
    await withOwnTerminal({}, async (own) => {
      const ownMenu = await pulledMenu(own);
      // The day, through the core: the cashier's float and two sales, the order the manager placed,
      // the paid-out, and the blind close a dollar short.
      await freshDrawer(own, 'cashier', FLOAT_COUNT);
      await sellCashAndCard(own, ownMenu);
      await signInOnCore(own, 'manager');
      await call(own, 'orders.place', {
        lines: [
          { menuItemId: item('Edamame', ownMenu).id, quantity: 1 },
          { menuItemId: item('Lager', ownMenu).id, quantity: 1 },
        ],
    });
    await signInOnCore(own, 'cashier');
    await call(own, 'shift.moveCash', { kind: 'paid_out', amount: PAID_OUT, reason: 'Supplies', managerPin: MANAGER.pin });
    await call(own, 'shift.close', { count: COUNTED_COUNT, managerPin: MANAGER.pin });
    await openPage(own, { signIn: 'owner', openShift: false });
    await goToScreen(page, 'Reports');
    const report = page.getByRole('article', { name: /^End-of-day report/ });
    await report.waitFor();
    const z = await call(own, 'reports.z', {});
    const tableRows = (testId: string) =>
      report
        .getByTestId(testId)
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent?.trim())));

    // The manager's order is still open (unpaid): an open check, apart from the sales.
    expect(await tableRows('report-items')).toEqual([
      ['Garlic knots', 'Starters', '2', dollars(2 * SOLD.knots), '$0.00', dollars(2 * SOLD.knots)],
      ['Lager', 'Beer & Wine', '1', dollars(SOLD.lager), '$0.00', dollars(SOLD.lager)],
      ['Tomato soup', 'Starters', '1', dollars(SOLD.soup), '$0.00', dollars(SOLD.soup)],
    ]);
    expect(await tableRows('report-staff')).toEqual([[CASHIER.name, '2', dollars(CASH_ORDER + CARD_ORDER), dollars(CASH_ORDER + CARD_ORDER), '$0.00', '$0.00', '0']]);
    expect(await tableRows('report-tenders')).toEqual([
      ['Card', '1', dollars(CARD_ORDER), '$0.00', '$0.00', dollars(CARD_ORDER)],
      ['Cash', '1', dollars(CASH_ORDER), '$0.00', '$0.00', dollars(CASH_ORDER)],
    ]);
    const sales = await tableRows('report-sales');
    expect(sales).toContainEqual(['Orders', '2']);
    expect(sales).toContainEqual(['Net sales', dollars(CASH_ORDER + CARD_ORDER)]);
    const shifts = await tableRows('report-shifts');
    expect(shifts).toHaveLength(1);
    // Float + cash sales + tips − refunds − paid-outs − drops = expected, on the shift's own line.
    expect(shifts[0]!.slice(2)).toEqual([
      dollars(FLOAT),
      dollars(CASH_ORDER),
      '$0.00',
      '$0.00',
      dollars(PAID_OUT),
      '$0.00',
      dollars(EXPECTED),
      dollars(COUNTED),
      `Short ${dollars(EXPECTED - COUNTED)}`,
    ]);
    await shot('reports');
    // Further down: the tenders, items and staff, then the drawer's shift.
    await report.getByTestId('report-tenders').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot('reports-by-item');
    await report.getByTestId('report-shifts').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await shot('reports-by-staff');
    await expectAccessible(page, 'the Z report');

    // Export CSV: the browser saves a file with the report's name, and in it what was sold.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).tap();
    const file = await download;
    const filename = `z-report-${z.businessDay}-till-${z.till}.csv`;
    expect(file.suggestedFilename()).toBe(filename);
    expect(z.till).toBe('A');
    await waitForText(page.getByTestId('report-notice'), `The report is saved as ${filename}.`);
    const csv = readFileSync((await file.path())!, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const blocks = csv
      .replace(/^\uFEFF/, '')
      .split('\r\n\r\n')
      .map((block) => block.split('\r\n').filter((row) => row !== ''));
    const block = (title: string) => {
      const found = blocks.find((rows) => rows[0] === title);
      if (!found) throw new Error(`no "${title}" block in the CSV`);
      return found.slice(1);
    };
    expect(blocks[0]).toContain(`business day,${z.businessDay}`);
    expect(block('by item')).toEqual(['item,category,quantity,gross,discounts,net', 'Garlic knots,Starters,2,13.00,0.00,13.00', 'Lager,Beer & Wine,1,8.00,0.00,8.00', 'Tomato soup,Starters,1,7.50,0.00,7.50']);
    expect(block('by staff')).toEqual(['staff,orders,sales,payments,tips,refunds,voids', `${CASHIER.name},2,28.50,28.50,0.00,0.00,0`]);
    expect(block('by tender')).toEqual(['tender,payments,amount,tips,refunds,net', 'card,1,7.50,0.00,0.00,7.50', 'cash,1,21.00,0.00,0.00,21.00']);
    expect(block('cash of the closed shifts')).toEqual([
      'closed shifts,open shifts,float,sales,tips,refunds,paid outs,drops,expected,counted,over short,of sales and tips for other tills',
      '1,0,87.50,21.00,0.00,0.00,12.00,0.00,96.50,95.50,-1.00,0.00',
    ]);
    expect(consoleErrors, 'console errors and CSP violations').toEqual([]);
    });
  });
});
