// The kitchen display in Chromium, with the internet down: two registers of the store ("Bar" and
// "Patio", real cores in this process, each with its own SQLite file and no cloud) and a display in
// browser mode (--role kitchen, on a copy of the same menu, its cloud unreachable) pulling both over
// mutual TLS on 127.0.0.1. Orders rung up on the registers appear as tickets; their age colours come
// from orders placed at past times (the registers' clocks are set back); bump and recall by touch and
// by keys, a bump landing as fulfilled on its till; a second display for the bar station shows only
// its lines. Screenshots at 1024×768, 1366×768 and 1920×1080 into docs/screenshots, each checked by the
// layout audit and axe.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../common/clock';
import { silentLogger } from '../../common/log';
import { TerminalConfig, type TerminalConfigInput } from '../../main/config/schema';
import { startBrowserMode, type BrowserMode } from '../../main/host/browser-mode';
import { FileSecretStore } from '../../sync/secret-store';
import { ITEMS, LOCATION, MODIFIERS, seedDataDir, startTestCore, type TestCore } from '../core/fixtures';
import { count } from '../core/staff-fixtures';
import { ROUTING, SECRET, until } from '../kitchen/fixtures';
import { freePorts } from '../store-mode/fixtures/ports';
import { launchChromium, waitForCount, waitForText } from './harness';
import { expectAccessible, expectNoLayoutProblems, screenshotIfFailed, settle } from './shots';

const DOCS_SHOTS = join(import.meta.dirname, '../../docs/screenshots');
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 1024, height: 768 },
] as const;
const MINUTE = 60_000;

/** A register's clock that can be set back: what it rings up is placed that long ago. */
class SetBackClock implements Clock {
  back = 0;
  now(): number {
    return Date.now() - this.back;
  }
}

let browser: Browser;
let bar: TestCore & { clock: SetBackClock };
let patio: TestCore & { clock: SetBackClock };
let display: BrowserMode;
let page: Page | undefined;
let registerPorts: [number, number];

async function startRegister(name: string, letter: string, port: number, displayPort: number) {
  const clock = new SetBackClock();
  const storeMode = { mode: 'on', listen: `127.0.0.1:${port}`, peers: `127.0.0.1:${displayPort}`, tillName: name, secret: SECRET } as const;
  // No auto-lock: the clock set back and forward would count as idle minutes.
  return { ...(await startTestCore({ checkout: { tillLetter: letter }, storeMode, staff: { autoLockMinutes: 0 } }, { clock })), clock };
}

/** The displays' data folders, the pass's first. */
const displayDirs: string[] = [];

/** A display in browser mode on the seeded menu, its cloud address unreachable (no key: it never syncs). */
async function startDisplay(port: number, peers: number[], kitchen: TerminalConfigInput['kitchen'] = {}): Promise<BrowserMode> {
  const dataDir = seedDataDir();
  displayDirs.push(dataDir);
  const config = TerminalConfig.parse({
    dataDir,
    api: { baseUrl: 'http://127.0.0.1:9/v1' },
    locationId: LOCATION,
    role: 'kitchen',
    kitchen,
    printing: ROUTING,
    storeMode: { mode: 'on', listen: `127.0.0.1:${port}`, peers: peers.map((p) => `127.0.0.1:${p}`).join(','), tillName: kitchen?.station ? 'Bar station' : 'Pass', secret: SECRET },
  });
  return startBrowserMode({ config, logger: silentLogger, secretStore: new FileSecretStore(join(dataDir, 'secrets.json')) });
}

const heardBoth = (mode: BrowserMode) =>
  until('the display identifies both registers', async () => {
    const response = await mode.core.invoke({ command: 'storeMode.status', payload: {} });
    return response.ok && (response.value as { peers: { tillId: string | null }[] }).peers.every((p) => p.tillId !== null);
  });

async function openDisplay(mode: BrowserMode, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport: SIZES[0], hasTouch: true });
  const opened = await context.newPage();
  opened.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  opened.on('pageerror', (error) => errors.push(error.message));
  await opened.goto(mode.host.launchUrl);
  await opened.getByTestId('kitchen-display').waitFor();
  return opened;
}

/** The screen at every size, tidy, saved into docs/screenshots as kitchen-<name>-<w>x<h>.png; axe-checked at the first. */
async function shots(shown: Page, name: string, sizes: readonly { width: number; height: number }[] = SIZES): Promise<void> {
  for (const [i, size] of sizes.entries()) {
    await shown.setViewportSize(size);
    await settle(shown);
    await shown.screenshot({ path: join(DOCS_SHOTS, `kitchen-${name}-${size.width}x${size.height}.png`) });
    await expectNoLayoutProblems(shown, `${name} at ${size.width}×${size.height}`);
    if (i === 0) await expectAccessible(shown, name);
  }
}

const card = (shown: Page, label: string) => shown.locator('article.kds-ticket').filter({ has: shown.getByRole('heading', { name: label, exact: true }) });
const labelsOn = (shown: Page) => shown.locator('article.kds-ticket h2').allTextContents();

beforeAll(async () => {
  const [barPort, patioPort, displayPort] = (await freePorts(3)) as [number, number, number];
  registerPorts = [barPort, patioPort];
  [bar, patio] = await Promise.all([startRegister('Bar', 'B', barPort, displayPort), startRegister('Patio', 'P', patioPort, displayPort)]);
  display = await startDisplay(displayPort, [barPort, patioPort]);
  browser = await launchChromium();
  await heardBoth(display);
}, 60_000);

afterEach(async (context) => screenshotIfFailed(page, context.task, 'kitchen'));

afterAll(async () => {
  await browser?.close();
  await display?.close();
  await Promise.all([bar?.core.shutdown(), patio?.core.shutdown()]);
});

describe('the kitchen display', () => {
  const errors: string[] = [];
  const ids: Record<string, string> = {};

  it('shows the registers’ orders as tickets in arrival order, coloured by age with the age in words, ADD and VOID marked; tidy and axe clean at three sizes', async () => {
    bar.clock.back = 20 * MINUTE;
    const b1 = await bar.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 2, modifierIds: [MODIFIERS.cheese], note: 'no onions', seat: 1 },
        { menuItemId: ITEMS.latte, quantity: 1, modifierIds: [MODIFIERS.oat] },
      ],
      service: { type: 'dine_in', table: '12', guests: 2 },
    });
    bar.clock.back = 10 * MINUTE;
    const b2 = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], service: { type: 'dine_in', table: '4', guests: 2 } });
    bar.clock.back = 0;
    const p1 = await patio.call('orders.place', {
      lines: [{ menuItemId: ITEMS.soup, quantity: 1 }, { menuItemId: ITEMS.latte, quantity: 2 }],
      service: { type: 'takeout', table: null, guests: null },
      customer: { name: 'Ada', phone: '' },
    });
    Object.assign(ids, { B1: b1.id, B2: b2.id, P1: p1.id });

    page = await openDisplay(display, errors);
    await waitForCount(page.locator('article.kds-ticket'), 3, { timeout: 5_000 });
    expect(await labelsOn(page)).toEqual(['B1', 'B2', 'P1']);
    await waitForText(card(page, 'B1').getByTestId('ticket-age'), /^20 min · Late$/);
    await waitForText(card(page, 'B2').getByTestId('ticket-age'), /^10 min · Waiting$/);
    await waitForText(card(page, 'P1').getByTestId('ticket-age'), /^\d+ s$/);
    expect(await card(page, 'B1').getAttribute('class')).toContain('kds-age-red');
    expect(await card(page, 'B2').getAttribute('class')).toContain('kds-age-amber');
    expect(await card(page, 'P1').getAttribute('class')).toContain('kds-age-fresh');
    await waitForText(page.getByTestId('kds-store'), 'Hearing Bar, Patio');

    // The table changes its mind: one more burger, the latte off (VOID), a soup (ADD).
    await bar.call('orders.update', { id: b1.id, lines: [{ menuItemId: ITEMS.burger, quantity: 3, modifierIds: [MODIFIERS.cheese], note: 'no onions', seat: 1 }, { menuItemId: ITEMS.soup, quantity: 1 }] });
    const b1Lines = card(page, 'B1').locator('.kds-line');
    await waitForCount(b1Lines, 4);
    expect(await b1Lines.allInnerTexts()).toEqual([
      expect.stringMatching(/^2\s+Burger\s+Extra cheese\s+no onions\s+Seat 1$/),
      expect.stringMatching(/^1\s+ADD\s*Burger\s+Extra cheese\s+no onions\s+Seat 1$/),
      expect.stringMatching(/^1\s+ADD\s*Soup of the day$/),
      expect.stringMatching(/^1\s+VOID\s*Café latte\s+Oat milk$/),
    ]);
    // Voided units are not to make: the latte of B1 is left out.
    expect(await page.getByRole('region', { name: 'All day' }).locator('li').allInnerTexts()).toEqual(['3 Burger', '2 Café latte', '2 Soup of the day', '1 Fries']);
    await shots(page, 'display');
    expect(errors).toEqual([]);
  });

  it('bumps a ticket by touch, the order landing fulfilled on its till once; recalls and bumps by keys', async () => {
    const shown = page!;
    await shown.setViewportSize(SIZES[0]);
    // Paid at the bar, so its till can close it when the kitchen bumps it.
    const b2 = await bar.call('orders.get', { id: ids.B2! });
    await bar.call('payments.take', { orderId: b2.id, method: 'cash', amount: b2.total });
    // Once the pass has heard of the payment: a check with money due is bumped as served, nothing sent.
    await expect.poll(() => count(displayDirs[0]!, 'store_replica_docs', "entity_kind = 'payment' AND order_id = ?", b2.id), { timeout: 5_000 }).toBe(1);
    await card(shown, 'B2').getByRole('button', { name: 'Bump B2' }).tap();
    await waitForCount(card(shown, 'B2'), 0, { timeout: 2_000 });
    await expect.poll(async () => (await bar.call('orders.get', { id: ids.B2! })).status, { timeout: 15_000 }).toBe('fulfilled');
    // Once: the till applied one fulfil (audited) and has one fulfil to send the cloud.
    expect(count(bar.dataDir, 'audit_log', "action = 'store.forward.applied' AND entity_id = ?", ids.B2)).toBe(1);
    expect(count(bar.dataDir, 'outbox', "kind = 'order.fulfil' AND entity_id = ?", ids.B2)).toBe(1);
    // The display hears the till's answer.
    await waitForText(shown.getByTestId('kds-last-bumped'), 'B2: Marked fulfilled at its till.', { timeout: 10_000 });

    // Keys: 2 selects the second ticket (P1 now), Enter bumps it, R brings it back, B bumps it again.
    expect(await labelsOn(shown)).toEqual(['B1', 'P1']);
    await shown.keyboard.press('2');
    await card(shown, 'P1').and(shown.locator('[aria-current="true"]')).waitFor();
    await shown.keyboard.press('Enter');
    await waitForCount(card(shown, 'P1'), 0, { timeout: 2_000 });
    await waitForText(shown.getByRole('button', { name: /^Recall/ }), 'Recall P1');
    await shown.keyboard.press('r');
    await card(shown, 'P1').locator('.kds-recalled').waitFor({ timeout: 2_000 });
    expect(await labelsOn(shown)).toEqual(['B1', 'P1']);
    await card(shown, 'P1').and(shown.locator('[aria-current="true"]')).waitFor();
    await shown.keyboard.press('b');
    await waitForCount(card(shown, 'P1'), 0, { timeout: 2_000 });

    // The last one by touch, then the empty display says so.
    await card(shown, 'B1').getByRole('button', { name: 'Bump B1' }).tap();
    await shown.getByText('No tickets. New orders from the tills appear here by themselves.').waitFor({ timeout: 2_000 });
    await shots(shown, 'empty', [SIZES[0]]);
    // Recall by touch brings the last bumped back.
    await shown.getByRole('button', { name: 'Recall B1' }).tap();
    await card(shown, 'B1').locator('.kds-recalled').waitFor({ timeout: 2_000 });
    expect(errors).toEqual([]);
  });

  it('a display for the bar station shows only the lines routed there (Drinks), and its all-day count', async () => {
    const ports = await freePorts(1);
    const station = await startDisplay(ports[0]!, registerPorts, { station: 'bar' });
    try {
      await heardBoth(station);
      const latte = await patio.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 3 }, { menuItemId: ITEMS.burger, quantity: 1 }], service: { type: 'dine_in', table: '7', guests: 3 } });
      await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '9', guests: 2 } });
      const errors: string[] = [];
      const shown = await openDisplay(station, errors);
      await waitForText(shown.locator('h1'), 'Kitchen · bar');
      const ticket = card(shown, latte.number!);
      await ticket.waitFor({ timeout: 5_000 });
      expect(await ticket.locator('.kds-line').allInnerTexts()).toEqual([expect.stringMatching(/^3\s+Café latte$/)]);
      // The fries and the burgers are the grill's: no ticket here has them.
      await expect.poll(async () => (await shown.locator('article.kds-ticket .kds-item').allTextContents()).every((name) => name.includes('Café latte'))).toBe(true);
      await shots(shown, 'station-bar', [SIZES[0]]);
      expect(errors).toEqual([]);
      await shown.context().close();
    } finally {
      await station.close();
    }
  });
});
