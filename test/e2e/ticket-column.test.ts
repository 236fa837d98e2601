// The ticket column at the two window sizes tills have (1024×768 and 1366×768), in Chromium
// against the sandbox: a table's usual order (8 lines) is readable whole, the selected line is
// always in view (a line added or picked again below the fold is scrolled to), and the order type
// and the customer are reachable without being covered by the totals. Screenshots of each case go
// to test-results/screenshots/ticket-column-*.png for a person to look at.
// One browser and one terminal for the file; every case opens its own page and rings up its own ticket.
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MenuItem } from '../../bridge/contract';
import { callCore, launchChromium, openRegister, startTerminal, waitForCount, waitForText, type Terminal } from './harness';
import { expectAccessible, expectNoLayoutProblems, SCREENSHOTS, settle, TILL_VIEWPORTS } from './shots';

let browser: Browser;
let terminal: Terminal;
let plain: MenuItem[];
const pages: Page[] = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [browser, terminal] = await Promise.all([launchChromium(), startTerminal()]);
  // The first page signs the owner in and opens the drawer: the session is the terminal's.
  const { page } = await openRegister(browser, terminal, { viewport: TILL_VIEWPORTS[0] });
  pages.push(page);
  plain = await vi.waitFor(
    async () => {
      const { items } = await callCore(terminal, 'menu.snapshot', {});
      const oneTap = items.filter((item) => item.available && item.modifiers.length === 0);
      if (oneTap.length < 10) throw new Error(`the first pull has brought ${oneTap.length} one-tap items, not 10 yet`);
      return oneTap;
    },
    { timeout: 15_000, interval: 100 },
  );
});

afterAll(async () => {
  for (const page of pages) await page.context().close();
  await browser?.close();
  await terminal?.close();
});

async function pageAt(viewport: { width: number; height: number }): Promise<Page> {
  const { page } = await openRegister(browser, terminal, { viewport });
  pages.push(page);
  return page;
}

const lines = (page: Page) => page.getByTestId('ticket-lines').locator('.ticket-line');

/** Taps the item's tile (a search first, so the tile is on the grid whatever the page of tiles). */
async function add(page: Page, item: MenuItem): Promise<void> {
  const search = page.locator('#menu-search');
  await search.fill(item.name);
  await page.locator(`.menu-grid .tile[data-item-id="${item.id}"]`).click();
  await search.fill('');
}

async function ringUp(page: Page, count: number): Promise<void> {
  for (const item of plain.slice(0, count)) await add(page, item);
  await waitForCount(lines(page), count);
}

/**
 * Whether the whole of `line` can be seen: inside the window, inside the list's scroll box, and the
 * element at its name's middle is the line itself (not the totals or a panel drawn over it).
 */
function wholeInView(line: Locator): Promise<{ inView: boolean; detail: string }> {
  return line.evaluate((li) => {
    const rect = li.getBoundingClientRect();
    const list = li.closest('.ticket-lines') as HTMLElement;
    const box = list.getBoundingClientRect();
    const top = Math.max(box.top, 0);
    const bottom = Math.min(box.top + list.clientHeight, window.innerHeight);
    const name = (li.querySelector('.line-name') as HTMLElement).getBoundingClientRect();
    const hit = document.elementFromPoint(name.left + name.width / 2, name.top + name.height / 2);
    const inside = rect.top >= top - 1 && rect.bottom <= bottom + 1;
    return {
      inView: inside && hit !== null && li.contains(hit),
      detail: `line ${Math.round(rect.top)}–${Math.round(rect.bottom)}, visible ${Math.round(top)}–${Math.round(bottom)}, at its name: ${hit?.className ?? 'nothing'}`,
    };
  });
}

async function expectAllInView(page: Page, what: string): Promise<void> {
  const count = await lines(page).count();
  for (let i = 0; i < count; i++) {
    const { inView, detail } = await wholeInView(lines(page).nth(i));
    expect(inView, `${what}: line ${i + 1} of ${count} in view (${detail})`).toBe(true);
  }
}

const selected = (page: Page) => page.getByTestId('ticket-lines').locator('.ticket-line.selected');

describe.each(TILL_VIEWPORTS)('the ticket column at $width×$height', (viewport) => {
  const size = `${viewport.width}x${viewport.height}`;

  it('shows a table’s order of 8 lines whole, with the totals and the actions below them', async () => {
    const page = await pageAt(viewport);
    await ringUp(page, 8);
    // Dine in at table 12 for 4, named: the order type and the customer are set, as on a busy night.
    await page.keyboard.press('Alt+D');
    await page.getByLabel('Table').fill('12');
    await page.getByLabel('Guests').fill('4');
    // The details close into the order row, which says them.
    await page.getByRole('button', { name: /^Done/ }).click();
    await waitForText(page.getByTestId('order-details-toggle'), 'Table 12 · 4 guests, Add customer & notes');
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/ticket-column-8-lines-${size}.png` });
    await expectAllInView(page, `8 lines at ${size}`);
    for (const control of [page.getByTestId('charge'), page.getByTestId('ticket-total')]) {
      const box = (await control.boundingBox())!;
      expect(box.y + box.height, `${String(control)} inside the window`).toBeLessThanOrEqual(viewport.height);
    }
    await expectNoLayoutProblems(page, `8 lines at ${size}`);
    await expectAccessible(page, `the register with 8 lines at ${size}`);
  });

  it('scrolls the selected line into view: a line added below the fold, and one picked again above it', async () => {
    const page = await pageAt(viewport);
    await ringUp(page, 10);
    await add(page, plain[10] ?? plain[0]!);
    const last = lines(page).last();
    await expect.poll(async () => (await wholeInView(selected(page))).inView, { message: 'the new line is in view' }).toBe(true);
    expect(await last.evaluate((li) => li.classList.contains('selected') || li.nextElementSibling === null)).toBe(true);
    // The first item again: its line (now scrolled out above) is selected and brought back.
    await add(page, plain[0]!);
    await lines(page).first().and(page.locator('.selected')).waitFor();
    await expect.poll(async () => (await wholeInView(lines(page).first())).inView, { message: 'the first line, picked again, is in view' }).toBe(true);
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/ticket-column-selected-${size}.png` });
  });

  it('reaches the order type and the customer without the totals over them', async () => {
    const page = await pageAt(viewport);
    await ringUp(page, 8);
    await page.getByRole('button', { name: /Add customer & notes/ }).click();
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('Ada Lovelace');
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/ticket-column-customer-${size}.png` });
    for (const field of [name, page.getByLabel('Phone'), page.getByLabel('Notes'), page.getByRole('radio', { name: /Dine in/ })]) {
      await field.scrollIntoViewIfNeeded();
      const onTop = await field.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return hit !== null && (hit === el || el.contains(hit) || hit.contains(el));
      });
      expect(onTop, `${String(field)} is not under something else`).toBe(true);
      await field.click({ trial: true });
    }
    await expectNoLayoutProblems(page, `customer open at ${size}`);
    await expectAccessible(page, `the register with the customer open at ${size}`);
  });
});
