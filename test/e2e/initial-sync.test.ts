// A fresh till whose location has a long order history in the cloud, over a slow link (250 ms per
// round trip: the register sells at once while the history comes in the background, and the
// pill and the sync panel say how far it is.
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../common/ids';
import type { Sandbox } from '../../sandbox/index';
import { launchChromium, openRegister, startTerminal, type Terminal } from './harness';

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
  // A slow link (250 ms a round trip) keeps the history coming for several seconds.
  await sandbox.faults.set({ latency_ms: 250 });
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
    await expect.poll(() => pill.textContent(), { timeout: 15_000 }).toMatch(/First sync \d+%/);
    const before = await terminal.sandbox.countOrders();
    await page.locator('.menu-grid .tile:not([aria-disabled="true"])').first().click();
    await page.getByTestId('charge').click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByText('Card', { exact: true }).click();
    await dialog.getByTestId('confirm-payment').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.notice').textContent()).toMatch(/^Paid/);
    // Still pulling the history when the sale was done.
    expect(await pill.textContent()).toMatch(/First sync/);
    await page.screenshot({ path: `${SHOTS}/initial-sync-register.png` });
    await pill.click();
    await expect.poll(() => page.getByTestId('sync-progress').textContent()).toMatch(/[\d,]+ of [\d,]+ orders, in the background/);
    await page.screenshot({ path: `${SHOTS}/initial-sync-panel.png` });
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => pill.textContent(), { timeout: 60_000 }).toMatch(/Online, all synced/);
    expect(await terminal.sandbox.countOrders()).toBe(before + 1);
  });
});
