// The terminal in Chromium against a /v1 that sends only what the spec shows (the sandbox's
// spec-minimal profile, records in the {id, type, attributes} shape): the menu shows, an order
// syncs, an order made on the server appears, and a server sending garbage is named in the sync
// panel in one readable sentence instead of a green pill.
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuSnapshot } from '../../bridge/contract';
import { launchChromium, openRegister, startTerminal, type Terminal } from './harness';

const SHOTS = 'test-results/screenshots';
let browser: Browser;
let terminal: Terminal;
let page: Page;
let consoleErrors: string[];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
  terminal = await startTerminal({ sandbox: { profile: 'spec-minimal', recordShape: 'jsonapi' } });
  ({ page, errors: consoleErrors } = await openRegister(browser, terminal));
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
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
    await expect.poll(() => page.getByTestId('sync-indicator').textContent(), { timeout: 15_000 }).toMatch(/Online, all synced/);
    const before = await terminal.sandbox.countOrders();
    await page.locator('.menu-grid .tile:not([aria-disabled="true"])').first().click();
    await page.getByTestId('charge').click();
    await page.locator('dialog[open]').waitFor();
    const dialog = page.locator('dialog[open]');
    await dialog.getByText('Card', { exact: true }).click();
    await dialog.getByTestId('confirm-payment').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('sync-pending').textContent(), { timeout: 15_000 }).toBe('0 waiting');
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
    await expect.poll(() => page.getByText('Online order').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/spec-minimal-orders.png` });
  });

  it('a server sending garbage: the pill is not green and the panel says what could not be read', async () => {
    await sql`UPDATE menu_items SET doc = json_set(doc, '$.price', 'twelve dollars')`.execute(terminal.sandbox.db);
    await openSyncPanel();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => page.getByTestId('read-problem').first().textContent(), { timeout: 15_000 }).toMatch(/The menu from the cloud could not be read\./);
    await page.screenshot({ path: `${SHOTS}/spec-minimal-read-problem.png` });
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await closeDialog();
    expect(await page.getByTestId('sync-indicator').textContent()).toMatch(/Cloud data unreadable/);
    expect(await page.getByTestId('sync-indicator').getAttribute('class')).toMatch(/sync-bad/);
  });

  it('ran without a console error', () => {
    expect(consoleErrors).toEqual([]);
  });
});
