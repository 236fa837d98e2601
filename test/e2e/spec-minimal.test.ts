// The terminal in Chromium against a /v1 that sends only what the spec shows (the sandbox's
// spec-minimal profile, records in the {id, type, attributes} shape): the menu shows, an order
// syncs, an order made on the server appears, and a server sending garbage is named in the sync
// panel in one readable sentence instead of a green pill.
// One browser and one terminal for the file; every case opens its own page, and the case that
// makes the server send garbage puts the menu back in a `finally` and waits until the terminal
// reads it again.
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuSnapshot } from '../../bridge/contract';
import { callCore, launchChromium, openRegister, startTerminal, waitForText, type Terminal } from './harness';
import { screenshotIfFailed } from './shots';

const SHOTS = 'test-results/screenshots';
let browser: Browser;
let terminal: Terminal;
let page: Page;
/** The console errors and CSP violations of the case's page. */
let consoleErrors: string[];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
  terminal = await startTerminal({ sandbox: { profile: 'spec-minimal', recordShape: 'jsonapi' } });
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
});

// A page of its own for every case: the register, the owner signed in, the drawer open.
beforeEach(async () => {
  ({ page, errors: consoleErrors } = await openRegister(browser, terminal));
});

afterEach(async ({ task }) => {
  await screenshotIfFailed(page, task, 'spec-minimal');
  await page?.context().close();
  expect(consoleErrors, 'console errors').toEqual([]);
});

async function openSyncPanel(): Promise<void> {
  await page.getByTestId('sync-indicator').click();
  await page.locator('dialog[open]').waitFor();
}

async function closeDialog(): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('dialog[open]').waitFor({ state: 'detached' });
}

describe('against a spec-minimal /v1', () => {
  it('shows the menu, sells an order that reaches the server once, and reads back', async () => {
    await expect.poll(() => page.locator('.menu-grid .tile').count()).toBeGreaterThan(50);
    await waitForText(page.getByTestId('sync-indicator'), /Online, all synced/, { timeout: 15_000 });
    const before = await terminal.sandbox.countOrders();
    await page.locator('.menu-grid .tile:enabled').first().click();
    await page.getByTestId('charge').click();
    await page.locator('dialog[open]').waitFor();
    const dialog = page.locator('dialog[open]');
    await dialog.getByText('Card', { exact: true }).click();
    await dialog.getByTestId('confirm-payment').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => terminal.sandbox.countOrders(), { timeout: 15_000 }).toBe(before + 1);
    await waitForText(page.getByTestId('sync-pending'), '0 waiting', { timeout: 15_000 });
    expect(await terminal.sandbox.countOrders()).toBe(before + 1);
    await page.screenshot({ path: `${SHOTS}/spec-minimal-register.png` });
  });

  it('an order made on the server appears in the orders list after a sync', async () => {
    const menu = (await terminal.mode.core.invoke({ command: 'menu.snapshot', payload: {} })) as { value: MenuSnapshot };
    const item = menu.value.items.find((i) => i.available)!.id;
    const reply = await fetch(`${terminal.sandbox.baseUrl}/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${terminal.sandbox.credentials.apiKeys.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ location_id: terminal.sandbox.credentials.locationIds[0], items: [{ menu_item_id: item, quantity: 4 }], customer: { name: 'Online order', phone: '555-0142' } }),
    });
    expect(reply.status).toBe(201);
    await openSyncPanel();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await closeDialog();
    await page.getByRole('button', { name: /^Orders/ }).click();
    await page.getByText('Online order').first().waitFor({ timeout: 15_000 });
    await page.screenshot({ path: `${SHOTS}/spec-minimal-orders.png` });
  });

  it('a server sending garbage: the pill is not green and the panel says what could not be read', async () => {
    const menuAsItWas = await terminal.sandbox.db.selectFrom('menu_items').select(['id', 'doc']).execute();
    try {
      await sql`UPDATE menu_items SET doc = json_set(doc, '$.price', 'twelve dollars')`.execute(terminal.sandbox.db);
      await openSyncPanel();
      await page.getByRole('button', { name: 'Sync now' }).click();
      await waitForText(page.getByTestId('read-problem').first(), /The menu from the cloud could not be read\./, { timeout: 15_000 });
      await page.screenshot({ path: `${SHOTS}/spec-minimal-read-problem.png` });
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await closeDialog();
      expect(await page.getByTestId('sync-indicator').textContent()).toMatch(/Cloud data unreadable/);
      expect(await page.getByTestId('sync-indicator').getAttribute('class')).toMatch(/sync-bad/);
    } finally {
      // The menu as the server had it, read again: no other case finds the cloud unreadable.
      for (const row of menuAsItWas) await terminal.sandbox.db.updateTable('menu_items').set({ doc: row.doc }).where('id', '=', row.id).execute();
      await vi.waitFor(
        async () => {
          await callCore(terminal, 'sync.now', {});
          if ((await callCore(terminal, 'sync.status', {})).readProblems.length > 0) throw new Error('the terminal still cannot read the cloud');
        },
        { timeout: 15_000, interval: 200 },
      );
    }
  });
});
