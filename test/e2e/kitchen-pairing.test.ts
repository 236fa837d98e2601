// A kitchen display joining the store by a code, in Chromium: "Bar" (a real core in this process) is in
// the store; the display (browser mode, --role kitchen, its cloud unreachable) is in store mode with a
// secret-store entry named and nothing in it, so it starts unpaired and its whole screen is the join
// form. A wrong code is said next to the field; the right one, typed with the keyboard only, joins
// the store with no one signed in, and the display shows the ticket of an order rung up on Bar.
// Screenshots of the form at 1024×768, 1366×768 and 1920×1080 (test-results/screenshots; the reviewed
// ones are copied to docs/screenshots as kitchen-pairing-*), each checked by the layout audit and axe.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log';
import { TerminalConfig } from '../../main/config/schema';
import { startBrowserMode, type BrowserMode } from '../../main/host/browser-mode';
import { FileSecretStore } from '../../sync/secret-store';
import { ITEMS, LOCATION, seedDataDir, startTestCore, type TestCore } from '../core/fixtures';
import { ROUTING, SECRET } from '../kitchen/fixtures';
import { freePortPair } from '../store-mode/fixtures/ports';
import { launchChromium } from './harness';
import { expectAccessible, expectNoLayoutProblems, SCREENSHOTS, screenshotIfFailed, settle } from './shots';

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 1024, height: 768 },
] as const;

let browser: Browser;
let bar: TestCore;
let display: BrowserMode;
let page: Page | undefined;

/** The screen at every size, tidy and axe clean, saved as kitchen-pairing-<name>-<w>x<h>.png. */
async function shots(shown: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const size of SIZES) {
    await shown.setViewportSize(size);
    await settle(shown);
    await shown.screenshot({ path: join(SCREENSHOTS, `kitchen-pairing-${name}-${size.width}x${size.height}.png`) });
    await expectNoLayoutProblems(shown, `${name} at ${size.width}×${size.height}`);
    await expectAccessible(shown, `${name} at ${size.width}×${size.height}`);
  }
}

beforeAll(async () => {
  // Each till's pairing listener takes its store address's next port.
  const [barPort, displayPort] = [await freePortPair(), await freePortPair()];
  bar = await startTestCore({ checkout: { tillLetter: 'B' }, storeMode: { mode: 'on', listen: `127.0.0.1:${barPort}`, peers: `127.0.0.1:${displayPort}`, tillName: 'Bar', secret: SECRET } });
  const dataDir = seedDataDir();
  const config = TerminalConfig.parse({
    dataDir,
    api: { baseUrl: 'http://127.0.0.1:9/v1' },
    locationId: LOCATION,
    role: 'kitchen',
    printing: ROUTING,
    storeMode: { mode: 'on', listen: `127.0.0.1:${displayPort}`, peers: `127.0.0.1:${barPort}`, tillName: 'Pass', secret: '', secretRef: 'storeMode.storeSecret' },
  });
  display = await startBrowserMode({ config, logger: silentLogger, secretStore: new FileSecretStore(join(dataDir, 'secrets.json')) });
  browser = await launchChromium();
}, 60_000);

afterEach(async (context) => screenshotIfFailed(page, context.task, 'kitchen-pairing'));

afterAll(async () => {
  await browser?.close();
  await display?.close();
  await bar?.core.shutdown();
});

describe('a kitchen display without its store secret', () => {
  it('shows the join form full screen; a wrong code is said at the field; the right one, by keyboard, joins and the tickets show; tidy and axe clean at three sizes', async () => {
    const errors: string[] = [];
    const context = await browser.newContext({ viewport: SIZES[0], hasTouch: true });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(display.host.launchUrl);
    const form = page.getByRole('form', { name: 'Join the store' });
    await form.waitFor();
    await page.getByRole('heading', { level: 1, name: 'Join the store' }).waitFor();
    // No sign-in is asked, and no approval PIN.
    expect(await page.getByLabel(/PIN/).count()).toBe(0);
    await shots(page, 'form');

    const shown = await bar.call('storeMode.pairingCode', {});
    await form.getByLabel('Address of that till').fill(shown.address);
    const wrong = String((Number(shown.code.replace(' ', '')) + 1) % 100_000_000).padStart(8, '0');
    await form.getByLabel('Code').fill(`${wrong.slice(0, 4)} ${wrong.slice(4)}`);
    await form.getByRole('button', { name: 'Join the store' }).click();
    await expect.poll(() => form.getByLabel('Code').getAttribute('aria-invalid'), { timeout: 15_000 }).toBe('true');
    expect((await bar.call('storeMode.status', {})).pairing.open?.wrongCodes).toBe(1);
    await shots(page, 'wrong-code');

    // The keyboard only: the address field, Tab to the code, Enter.
    await page.setViewportSize(SIZES[0]);
    await form.getByLabel('Address of that till').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(shown.address);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(shown.code);
    await expect.poll(() => form.getByLabel('Code').inputValue()).toBe(shown.code);
    await page.keyboard.press('Enter');

    await page.getByTestId('kitchen-display').waitFor({ timeout: 15_000 });
    await page.getByText(/This display is in the store now \(paired with Bar\)/).waitFor();
    const order = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }], service: { type: 'dine_in', table: '12', guests: 2 } });
    await page.locator('article.kds-ticket').filter({ hasText: order.label }).waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
    await context.close();
  });
});
