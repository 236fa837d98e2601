// The Orders screen of a till in store mode, in Chromium: another till of the store ("Bar", a real
// core in this process with its own SQLite file) serves its log over mutual TLS on 127.0.0.1, and the
// browser till lists Bar's open orders under "At other tills"; screenshots at both till sizes,
// checked by the layout audit.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalConfig, TerminalConfigInput } from '../../main/config/schema';
import { ITEMS, startTestCore, type TestCore } from '../core/fixtures';
import { goToScreen, launchChromium, openRegister, startTerminal, type Terminal } from './harness';
import { SCREENSHOTS, tillShots } from './shots';
import { freePort } from '../store-mode/fixtures/ports';

const SECRET = Buffer.alloc(32, 0x5c).toString('base64');
let browser: Browser;
let bar: TestCore;
let terminal: Terminal;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const [barPort, frontPort] = [await freePort(), await freePort()];
  bar = await startTestCore({ checkout: { tillLetter: 'B' }, storeMode: { mode: 'on', listen: `127.0.0.1:${barPort}`, tillName: 'Bar', secret: SECRET } });
  browser = await launchChromium();
  terminal = await startTerminal({
    // startTerminal parses the config it is given: the store-mode part as a config file would say it.
    config: { storeMode: { mode: 'on', listen: `127.0.0.1:${frontPort}`, peers: `127.0.0.1:${barPort}`, tillName: 'Front', secret: SECRET } satisfies TerminalConfigInput['storeMode'] } as unknown as Partial<TerminalConfig>,
  });
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
  await bar?.core.shutdown();
});

describe('store mode on the Orders screen', () => {
  it('shows the other till’s open orders under "At other tills", tidy at 1024×768 and 1366×768', async () => {
    const place = (table: string, quantity: number) => bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity }], service: { type: 'dine_in', table, guests: 2 } });
    await place('4', 1);
    const paid = await place('9', 2);
    await bar.call('payments.take', { orderId: paid.id, method: 'cash', amount: paid.total });
    await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: { type: 'takeout', table: null, guests: null }, customer: { name: 'Ada', phone: '' } });
    const { page } = await openRegister(browser, terminal);
    await goToScreen(page, 'Orders');
    const rows = page.locator('tr[data-other-order-id]');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
    // The demo's own history is long: open orders only, and the section scrolled into view for the shots.
    await page.getByRole('combobox', { name: 'Status' }).selectOption('open');
    await page.getByRole('region', { name: 'At other tills' }).scrollIntoViewIfNeeded();
    await tillShots(() => page, 'store-mode')('orders-at-other-tills');
    await page.context().close();
  });
});
