// A fresh till whose location has a long order history in the cloud, over a slow link (1 s per
// round trip, 5 s while the sale is rung up, so the history is still coming however long the
// start and the sale take on a loaded machine): the register sells at once while the history comes
// in the background, and the pill and the sync panel say how far it is.
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../common/ids';
import type { Sandbox } from '../../sandbox/index';
import { launchChromium, openRegister, startTerminal, waitForText, type Terminal } from './harness';

const SHOTS = 'test-results/screenshots';
const HISTORY = 30_000;
let browser: Browser;
let terminal: Terminal;
let page: Page;

/** A year's worth of the location's orders, straight into the sandbox's database, fulfilled. */
async function seedHistory(sandbox: Sandbox): Promise<void> {
  const location = sandbox.credentials.locationIds[0]!;
  const template = await sandbox.db.selectFrom('orders').select('doc').where('location_id', '=', location).orderBy('created_at').limit(1).executeTakeFirstOrThrow();
  const base = JSON.parse(template.doc) as Record<string, unknown>;
  const yearAgo = Date.now() - 365 * 24 * 3600_000;
  for (let offset = 0; offset < HISTORY; offset += 1000) {
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const at = yearAgo + Math.floor(((offset + i) * 360 * 24 * 3600_000) / HISTORY);
      const id = newId('ord_', at);
      const iso = new Date(at).toISOString();
      return { id, location_id: location, status: 'fulfilled', created_at: at, doc: JSON.stringify({ ...base, id, status: 'fulfilled', created_at: iso, updated_at: iso }) };
    });
    await sandbox.db.insertInto('orders').values(rows).execute();
  }
  // A slow link (1 s a round trip) keeps the history coming while the terminal starts and the page opens.
  await sandbox.faults.set({ latency_ms: 1_000 });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
  terminal = await startTerminal({ prepareSandbox: seedHistory });
  ({ page } = await openRegister(browser, terminal));
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
});

describe('first sync of a till with a long history', () => {
  it('takes an order while the history is still coming, and shows how far it is', async () => {
    const pill = page.getByTestId('sync-indicator');
    await waitForText(pill, /First sync \d+%/, { timeout: 15_000 });
    // While the sale is rung up the link slows to 5 s a round trip: however slow the machine, the
    // history is still coming when the sale is done. Then a fast link lets it finish.
    await terminal.sandbox.faults.set({ latency_ms: 5_000 });
    const before = await terminal.sandbox.countOrders();
    await page.locator('.menu-grid .tile:enabled').first().click();
    await page.getByTestId('charge').click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByText('Card', { exact: true }).click();
    await dialog.getByTestId('confirm-payment').click();
    await dialog.waitFor({ state: 'detached' });
    await waitForText(page.locator('.notice'), /^Paid/);
    // Still pulling the history when the sale was done.
    expect(await pill.textContent()).toMatch(/First sync/);
    await page.screenshot({ path: `${SHOTS}/initial-sync-register.png` });
    await pill.click();
    await waitForText(page.getByTestId('sync-progress'), /[\d,]+ of [\d,]+ orders, in the background/);
    await page.screenshot({ path: `${SHOTS}/initial-sync-panel.png` });
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await terminal.sandbox.faults.set({ latency_ms: 0 });
    await waitForText(pill, /Online, all synced/, { timeout: 60_000 });
    expect(await terminal.sandbox.countOrders()).toBe(before + 1);
  });
});
