// The floor in Chromium against the sandbox (issue 25): a floor of two sections with tables in every
// state, screenshotted at 1024×768 and 1366×768 (tidy by the layout audit, axe clean); a party of
// eight seated at table 12 from the floor, rung up and saved open, shows Seated with 8 guests; its
// bill printed from the table's sheet makes it "Check printed". Every tile stays whole at both sizes
// from a minute to weeks after its check began or closed (the page's clock moved on), with 99 guests
// and a long server's name, squeezed by a long "Your tables" row too. Screenshots go to
// test-results/screenshots/tables-*.png (docs/screenshots/tables-floor-1366.png is the 1366×768 floor, copied by hand).
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalConfig } from '../../main/config/schema';
import { FakePrinter } from '../printing/fake-printer';
import { compactAge } from '../../renderer/tables/floor-text';
import { callCore, goToScreen, launchChromium, openRegister, startTerminal, waitForText, type Terminal } from './harness';
import { expectAccessible, expectNoLayoutProblems, SCREENSHOTS, screenshotIfFailed, settle, tillShots, TILL_VIEWPORTS } from './shots';

let browser: Browser;
let terminal: Terminal;
let receipt: FakePrinter;
let page: Page | undefined;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  receipt = await FakePrinter.start();
  [browser, terminal] = await Promise.all([launchChromium(), startTerminal({ config: { printing: { receiptPrinter: receipt.url } as unknown as TerminalConfig['printing'] } })]);
});

afterEach(async (context) => {
  await screenshotIfFailed(page, context.task, 'tables');
  await page?.context().close();
  page = undefined;
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
  await receipt?.stop();
});

/** Main: tables 1–12 and 14 in three rows; Patio: P1–P4. */
async function layOut(): Promise<void> {
  let floor = await callCore(terminal, 'tables.saveSection', { name: 'Main' });
  floor = await callCore(terminal, 'tables.saveSection', { name: 'Patio' });
  const main = floor.sections.find((s) => s.name === 'Main')!.id;
  const patio = floor.sections.find((s) => s.name === 'Patio')!.id;
  const names = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '14'];
  for (const [i, name] of names.entries()) {
    const wide = name === '12';
    await callCore(terminal, 'tables.saveTable', { sectionId: main, name, seats: wide ? 8 : 4, shape: i % 4 === 1 ? 'round' : wide ? 'rect' : 'square', x: (i % 6) * 4, y: Math.floor(i / 6) * 5, width: wide ? 4 : 3, height: 3 });
  }
  for (let i = 0; i < 4; i++) await callCore(terminal, 'tables.saveTable', { sectionId: patio, name: `P${i + 1}`, seats: 2, shape: 'round', x: i * 5, y: 2, width: 3, height: 3 });
}

describe('the floor', () => {
  it('seats a party of eight at table 12 from the floor, then shows it seated, its bill printed, every state readable at both sizes', async () => {
    // The page signs the owner in (the session is the terminal's), then the floor is laid out through the core.
    ({ page } = await openRegister(browser, terminal, { viewport: TILL_VIEWPORTS[0] }));
    await layOut();
    const { items } = await callCore(terminal, 'menu.snapshot', {});
    const item = items.find((i) => i.available && i.modifiers.length === 0)!;
    // Other tables in each state: 3 seated, 5 paid, 7 needs clearing.
    const seated = await callCore(terminal, 'orders.place', { lines: [{ menuItemId: item.id, quantity: 2 }], service: { type: 'dine_in', table: '3', guests: 2 } });
    const paid = await callCore(terminal, 'orders.place', { lines: [{ menuItemId: item.id, quantity: 1 }], service: { type: 'dine_in', table: '5', guests: 4 } });
    const done = await callCore(terminal, 'orders.place', { lines: [{ menuItemId: item.id, quantity: 1 }], service: { type: 'dine_in', table: '7', guests: 3 } });
    await callCore(terminal, 'payments.take', { orderId: paid.id, method: 'cash', amount: paid.total });
    await callCore(terminal, 'payments.take', { orderId: done.id, method: 'cash', amount: done.total });
    await callCore(terminal, 'orders.fulfil', { id: done.id });
    expect(seated.id).toBeTruthy();

    await goToScreen(page, 'Tables', { keyboard: true });
    await page.getByTestId('table-12').click();
    const seat = page.getByRole('dialog');
    await seat.getByLabel('How many guests?').fill('8');
    await seat.getByRole('button', { name: 'Start the check' }).click();
    await page.locator(`.menu-grid .tile[data-item-id="${item.id}"]`).click();
    await page.getByRole('button', { name: /^Save open/ }).click();
    await goToScreen(page, 'Tables');
    await waitForText(page.getByTestId('table-12'), /Seated.*8 guests/);

    await page.getByRole('button', { name: 'Table 12: checks and actions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Print the bill' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    await waitForText(page.getByTestId('table-12'), /Check printed/);
    await receipt.waitFor(() => /due/i.test(receipt.text()), 'the bill of table 12');
    await waitForText(page.getByTestId('table-3'), /Seated/);
    await waitForText(page.getByTestId('table-5'), /Paid/);
    await waitForText(page.getByTestId('table-7'), /Needs clearing/);

    const floor = await callCore(terminal, 'tables.floor', {});
    expect(floor.tables.find((t) => t.name === '12')).toMatchObject({ state: 'check_printed', guests: 8 });
    const shot = tillShots(() => page!, 'tables');
    await shot('floor');
    await expectAccessible(page, 'the floor');

    await page.getByRole('button', { name: 'Table 12: checks and actions' }).click();
    await shot('table-sheet');
    await expectAccessible(page, "a table's sheet");
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Edit floor' }).click();
    await page.getByTestId('edit-table-12').click();
    await shot('editor');
    await expectAccessible(page, 'the floor editor');
  });

  it("keeps every tile's words whole at both sizes whatever the clock says, for a big party and a long server's name", { timeout: 120_000 }, async () => {
    ({ page } = await openRegister(browser, terminal, { viewport: TILL_VIEWPORTS[0] }));
    const p = page;
    // Its own section of the smallest tiles in use (3 cells wide), in every state that says a time.
    const floor = await callCore(terminal, 'tables.saveSection', { name: 'Terrace' });
    const terrace = floor.sections.find((s) => s.name === 'Terrace')!.id;
    for (const [i, name] of ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8'].entries()) {
      await callCore(terminal, 'tables.saveTable', { sectionId: terrace, name, seats: name === 'T5' ? 40 : 4, shape: i % 2 === 1 ? 'round' : 'square', x: (i % 5) * 4, y: Math.floor(i / 5) * 4, width: 3, height: 3 });
    }
    const tableId = async (name: string) => (await callCore(terminal, 'tables.floor', {})).tables.find((t) => t.name === name)!.id;
    const server = await callCore(terminal, 'staff.create', { name: 'Maximiliana Papadopoulou-Whitfield', role: 'cashier', pin: '731904' });
    const { items } = await callCore(terminal, 'menu.snapshot', {});
    const item = items.find((i) => i.available && i.modifiers.length === 0)!;
    const place = (table: string, guests: number) => callCore(terminal, 'orders.place', { lines: [{ menuItemId: item.id, quantity: 1 }], service: { type: 'dine_in', table, guests } });
    const party = await place('T1', 99);
    await callCore(terminal, 'orders.transfer', { id: party.id, toStaffId: server.id });
    // The bill once the cloud has the change: its answer still moves the check's time (the bill would read out of date).
    await expect.poll(async () => (await callCore(terminal, 'orders.get', { id: party.id })).syncState, { timeout: 30_000 }).toBe('synced');
    await callCore(terminal, 'tables.printBill', { id: await tableId('T1') });
    await place('T2', 1);
    const paid = await place('T3', 12);
    await callCore(terminal, 'payments.take', { orderId: paid.id, method: 'cash', amount: paid.total });
    const done = await place('T4', 2);
    await callCore(terminal, 'payments.take', { orderId: done.id, method: 'cash', amount: done.total });
    await callCore(terminal, 'orders.fulfil', { id: done.id });
    // Three more of the owner's own: "Your tables" wraps onto a second row at 1024×768, squeezing the floor.
    for (const name of ['T6', 'T7', 'T8']) await place(name, 4);
    const start = Date.now();

    const tile = (name: string) => p.getByTestId(`table-${name}`);
    // From a minute and a half to weeks later, each half a minute from where its words change (the
    // core's times are a moment after `start`): the floor drawn afresh at each, as the screen reads the clock when it opens.
    const longest = (9 * 60 + 47) * 60_000 + 30_000;
    for (const later of [90_000, 42 * 60_000 + 30_000, longest, 19 * 3_600_000 + 30_000, 3 * 86_400_000 + 30_000, 45 * 86_400_000 + 30_000]) {
      await p.clock.setFixedTime(start + later);
      await goToScreen(p, 'Register');
      await goToScreen(p, 'Tables');
      await p.getByRole('tab', { name: /^Terrace/ }).click();
      const age = compactAge(later);
      await waitForText(tile('T1'), new RegExp(`Check printed.*99 guests · ${age}Maximiliana P\\.$`));
      await waitForText(tile('T4'), new RegExp(`Needs clearing${age} ago$`));
      expect(await tile('T1').getAttribute('aria-label')).toMatch(/^Table T1, Check printed, 99 guests, seated .+ ago, Maximiliana Papadopoulou-Whitfield$/);
      for (const viewport of TILL_VIEWPORTS) {
        await p.setViewportSize(viewport);
        await settle(p);
        await expectNoLayoutProblems(p, `the floor ${age} later at ${viewport.width}×${viewport.height}`);
      }
      // The longest words a tile says (hours and minutes), looked at by a person.
      if (later === longest) await tillShots(() => p, 'tables')('ages');
    }
    await expectAccessible(p, 'the floor with long words');
  });
});
