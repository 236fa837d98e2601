// Adopting a quiet till's orders from the sync panel, in Chromium: "Bar" (a real core in this process)
// rings up two orders the cloud never gets and stops; the browser till ("Front") heard them over
// mutual TLS. Once Bar has been quiet long enough (shortened here to 1 s), Front's panel offers to adopt
// them; the dialog asks first. Screenshots of the offer and the dialog at 1024×768 and 1366×768,
// checked by the layout audit and axe; then the adoption names both orders, and the offer is gone.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalConfig, TerminalConfigInput } from '../../main/config/schema';
import { ITEMS, startTestCore, type TestCore } from '../core/fixtures';
import { freePort } from '../store-mode/fixtures/ports';
import { launchChromium, openRegister, startTerminal, type Terminal } from './harness';
import { expectAccessible, SCREENSHOTS, tillShots } from './shots';

const SECRET = Buffer.alloc(32, 0x5c).toString('base64');
let browser: Browser;
let bar: TestCore | null = null;
let terminal: Terminal;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const [barPort, frontPort] = [await freePort(), await freePort()];
  bar = await startTestCore({ checkout: { tillLetter: 'B' }, storeMode: { mode: 'on', listen: `127.0.0.1:${barPort}`, tillName: 'Bar', secret: SECRET } });
  browser = await launchChromium();
  terminal = await startTerminal({
    config: { storeMode: { mode: 'on', listen: `127.0.0.1:${frontPort}`, peers: `127.0.0.1:${barPort}`, tillName: 'Front', secret: SECRET } satisfies TerminalConfigInput['storeMode'] } as unknown as Partial<TerminalConfig>,
    storeModeTiming: { quietBeforeAdoptionMs: 1_000 },
  });
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
  await bar?.core.shutdown();
});

describe('store mode: adopting a quiet till’s orders', () => {
  it('offers Bar’s orders once Bar is quiet, asks first, and takes them over; tidy at both sizes', async () => {
    const till = bar!;
    const placed = [
      await till.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '4', guests: 2 } }),
      await till.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: { type: 'takeout', table: null, guests: null }, customer: { name: 'Ada', phone: '' } }),
    ];
    const { page } = await openRegister(browser, terminal);
    await page.getByTestId('sync-indicator').click();
    const peer = page.getByTestId('store-peer').filter({ hasText: 'Bar' });
    await peer.filter({ hasText: '2 orders not in the cloud yet' }).waitFor({ timeout: 15_000 });

    // Bar stops (its disk is fine, its hardware gone): after the quiet time, the offer appears.
    await till.core.shutdown();
    bar = null;
    const adopt = peer.getByRole('button', { name: 'Adopt Bar’s 2 orders' });
    await adopt.waitFor({ timeout: 15_000 });
    await peer.getByText(/^Nothing answers at 127\.0\.0\.1:\d+: the till is off, or its app is closed\.$/).waitFor({ timeout: 15_000 });
    await tillShots(() => page, 'store-mode')('adopt-offer');
    await expectAccessible(page, 'the sync panel offering to adopt');

    await adopt.click();
    const dialog = page.getByRole('dialog', { name: 'Adopt Bar’s orders?' });
    await dialog.waitFor();
    await tillShots(() => page, 'store-mode')('adopt-dialog');
    await expectAccessible(page, 'the adopt dialog');
    await dialog.getByRole('button', { name: 'Adopt them' }).click();
    const done = peer.getByRole('status');
    await done.waitFor({ timeout: 15_000 });
    const sentence = await done.textContent();
    expect(sentence).toMatch(/^Took over 2 orders from Bar \(.+\): this till sends them to the cloud/);
    for (const order of placed) expect(sentence).toContain(order.label);
    // Nothing left to take: the offer is gone.
    expect(await adopt.count()).toBe(0);
    await page.context().close();
  });
});
