// The floor in Chromium against the sandbox (issue 25): a floor of two sections with tables in every
// state, screenshotted at 1024×768 and 1366×768 (tidy by the layout audit, axe clean); a party of
// eight seated at table 12 from the floor, rung up and saved open, shows Seated with 8 guests; its
// bill printed from the table's sheet makes it "Check printed". Every tile stays whole at both sizes
// from a minute to weeks after its check began or closed (the page's clock moved on), with 99 guests
// and a long server's name, squeezed by a long "Your tables" row too. Small tiles (2×2, the editor's new 3×3, a
// 12-character name, round tables) show their lines by priority, whole, inside their circle and clear of their ⋯
// (measured in the page), and the ⋯ sits inside a round table's circle. Screenshots go to
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
    // Every tile says its state in words at both sizes (the word is what a colour-blind eye reads):
    // "Needs clearing", too wide for table 7's tile at 1024×768, breaks onto two lines rather than going.
    for (const viewport of TILL_VIEWPORTS) {
      await page.setViewportSize(viewport);
      await settle(page);
      for (const tile of await page.evaluate(measureTiles)) {
        const state = tile.lines.find((line) => line.kind === 'floor-table-state');
        expect(state?.shown && !state.cut, `table ${tile.name}'s state at ${viewport.width}×${viewport.height}: ${JSON.stringify(state)}`).toBe(true);
      }
    }

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
  it('fits a new 2×2 table seated, a 12-character name and a round table with its ⋯ at both sizes: lines dropped by priority, never cut', { timeout: 120_000 }, async () => {
    ({ page } = await openRegister(browser, terminal, { viewport: TILL_VIEWPORTS[0] }));
    const p = page;
    // The floor editor's new table is 2×2: the smallest tile a floor usually has.
    const floor = await callCore(terminal, 'tables.saveSection', { name: 'Corner' });
    const corner = floor.sections.find((s) => s.name === 'Corner')!.id;
    const layout = [
      { name: 'C1', shape: 'square', x: 0, y: 0, width: 2, height: 2 },
      { name: 'C2', shape: 'square', x: 3, y: 0, width: 2, height: 2 },
      { name: 'C3', shape: 'square', x: 6, y: 0, width: 2, height: 2 },
      { name: 'C4', shape: 'square', x: 9, y: 0, width: 2, height: 2 },
      { name: 'C5', shape: 'square', x: 12, y: 0, width: 2, height: 2 },
      // The size the floor editor gives a new table: a seated one shows its name, state, guests and time at 1024×768.
      { name: 'C6', shape: 'square', x: 15, y: 0, width: 3, height: 3 },
      { name: 'PATIOCORNER1', shape: 'square', x: 0, y: 3, width: 2, height: 2 },
      { name: 'PATIOCORNER2', shape: 'rect', x: 3, y: 3, width: 3, height: 3 },
      { name: 'WINDOWBOOTH7', shape: 'round', x: 7, y: 3, width: 3, height: 3 },
      { name: 'R1', shape: 'round', x: 0, y: 7, width: 2, height: 2 },
      { name: 'R2', shape: 'round', x: 3, y: 7, width: 3, height: 3 },
      { name: 'R3', shape: 'round', x: 7, y: 7, width: 4, height: 4 },
      { name: 'R4', shape: 'round', x: 12, y: 7, width: 4, height: 2 },
    ] as const;
    for (const table of layout) await callCore(terminal, 'tables.saveTable', { sectionId: corner, seats: 4, ...table });
    const tableId = async (name: string) => (await callCore(terminal, 'tables.floor', {})).tables.find((t) => t.name === name)!.id;
    const server = await callCore(terminal, 'staff.create', { name: 'Bartholomew Okonkwo-Lindqvist', role: 'cashier', pin: '864209' });
    const { items } = await callCore(terminal, 'menu.snapshot', {});
    const item = items.find((i) => i.available && i.modifiers.length === 0)!;
    const place = (table: string, guests: number) => callCore(terminal, 'orders.place', { lines: [{ menuItemId: item.id, quantity: 1 }], service: { type: 'dine_in', table, guests } });
    // C1 seated (another server's, so it names them), C2 its bill printed, C3 paid, C4 needs clearing, C5 free.
    const c1 = await place('C1', 12);
    await callCore(terminal, 'orders.transfer', { id: c1.id, toStaffId: server.id });
    await place('C2', 4);
    await expect.poll(async () => (await callCore(terminal, 'sync.status', {})).pending, { timeout: 30_000 }).toBe(0);
    await callCore(terminal, 'tables.printBill', { id: await tableId('C2') });
    const paid = await place('C3', 2);
    await callCore(terminal, 'payments.take', { orderId: paid.id, method: 'cash', amount: paid.total });
    const done = await place('C4', 2);
    await callCore(terminal, 'payments.take', { orderId: done.id, method: 'cash', amount: done.total });
    await callCore(terminal, 'orders.fulfil', { id: done.id });
    for (const name of ['C6', 'PATIOCORNER1', 'PATIOCORNER2', 'WINDOWBOOTH7', 'R1', 'R2', 'R3', 'R4']) {
      const order = await place(name, 3);
      await callCore(terminal, 'orders.transfer', { id: order.id, toStaffId: server.id });
    }
    const start = Date.now();
    // Seated 9 h 47 min: the longest words a tile's time says.
    await p.clock.setFixedTime(start + (9 * 60 + 47) * 60_000 + 30_000);
    await goToScreen(p, 'Register');
    await goToScreen(p, 'Tables');
    await p.getByRole('tab', { name: /^Corner/ }).click();
    await waitForText(p.getByTestId('table-C2'), /Check printed/);
    await waitForText(p.getByTestId('table-C4'), /Needs clearing/);
    expect(await p.getByTestId('table-PATIOCORNER1').getAttribute('aria-label')).toMatch(/^Table PATIOCORNER1, Seated, 3 guests, seated .+ ago, Bartholomew Okonkwo-Lindqvist$/);
    expect(await p.getByTestId('table-PATIOCORNER1').getAttribute('title')).toBe(await p.getByTestId('table-PATIOCORNER1').getAttribute('aria-label'));

    for (const viewport of TILL_VIEWPORTS) {
      await p.setViewportSize(viewport);
      await settle(p);
      const size = `${viewport.width}×${viewport.height}`;
      const tiles = await p.evaluate(measureTiles);
      await p.screenshot({ path: `${SCREENSHOTS}/tables-small-tiles-${viewport.width}x${viewport.height}.png` });
      const tile = (name: string) => tiles.find((t) => t.name === name)!;
      const shown = (name: string) => tile(name).lines.filter((line) => line.shown).map((line) => line.kind);
      for (const t of tiles) {
        const where = `${t.name} at ${size}`;
        const [rx, ry] = [(t.box.right - t.box.left) / 2, (t.box.bottom - t.box.top) / 2];
        const [cx, cy] = [t.box.left + rx, t.box.top + ry];
        // Inside the tile's border, and for a round tile inside its circle (the ellipse inside its 2 px border).
        const inside = (b: TileGeometry['box']) =>
          b.left >= t.box.left + 1.5 &&
          b.right <= t.box.right - 1.5 &&
          b.top >= t.box.top + 1.5 &&
          b.bottom <= t.box.bottom - 1.5 &&
          (t.shape !== 'round' || [b.left, b.right].every((x) => [b.top, b.bottom].every((y) => ((x - cx) / (rx - 1.5)) ** 2 + ((y - cy) / (ry - 1.5)) ** 2 <= 1.001)));
        const visible = t.lines.filter((line) => line.shown);
        expect(visible[0]?.kind, `${where}: the name is always shown`).toBe('floor-table-name');
        for (const line of visible) {
          expect(inside(line), `${where}: "${line.text}" whole inside the tile (${JSON.stringify({ line, box: t.box, more: t.more })})`).toBe(true);
          // Never cut mid-word: only a name the rule gave up on is cut, by its ellipsis.
          if (line.kind !== 'floor-table-name') expect(line.cut, `${where}: "${line.text}" not cut`).toBe(false);
          if (t.more) {
            const clear = line.right <= t.more.left + 0.5 || line.left >= t.more.right - 0.5 || line.bottom <= t.more.top + 0.5 || line.top >= t.more.bottom - 0.5;
            expect(clear, `${where}: "${line.text}" not under the ⋯ button`).toBe(true);
          }
        }
        // Dropped by priority: the server before the short line, the short line before the state.
        const kinds = visible.map((line) => line.kind);
        const order = ['floor-table-name', 'floor-table-state', 'floor-table-detail', 'floor-table-server'].filter((kind) => t.lines.some((line) => line.kind === kind && line.text !== ''));
        expect(kinds, `${where}: lines kept by priority`).toEqual(order.slice(0, kinds.length));
        if (t.more) {
          expect(inside(t.more), `${where}: its ⋯ button inside the tile${t.shape === 'round' ? "'s circle" : ''}`).toBe(true);
          expect(t.more.right - t.more.left, `${where}: ⋯ at least 32 px`).toBeGreaterThanOrEqual(32);
        }
      }
      // The new table's size, seated: its name, state, guests and time (and its server where the floor is not squeezed by
      // "Your tables"); a 2×2 one at least its name, and its state from 1366 wide.
      expect(shown('C6').slice(0, 3), `C6 at ${size}`).toEqual(['floor-table-name', 'floor-table-state', 'floor-table-detail']);
      expect(shown('C1').slice(0, viewport.width > 1024 ? 2 : 1), `C1 at ${size}`).toEqual(['floor-table-name', 'floor-table-state'].slice(0, viewport.width > 1024 ? 2 : 1));
      // A 12-character name with no space: whole on two lines on the new table's size, with its state; cut by an
      // ellipsis only where even two lines beside the ⋯ do not fit (a 2×2 tile; a 3×3 round one at 1024), the full name in its title.
      expect(tile('PATIOCORNER2').lines[0]!.cut, `PATIOCORNER2 whole at ${size}`).toBe(false);
      expect(shown('PATIOCORNER2').slice(0, 2), `PATIOCORNER2 at ${size}`).toEqual(['floor-table-name', 'floor-table-state']);
      if (viewport.width > 1024) expect(tile('WINDOWBOOTH7').lines[0]!.cut, `WINDOWBOOTH7 whole at ${size}`).toBe(false);
      await expectNoLayoutProblems(p, `small tiles at ${size}`);
    }
    await expectAccessible(p, 'the floor with small tiles');
  });
});

/**
 * What each tile of the floor shows now, measured in the page: its box, the lines it shows (a line
 * left out by the tile's rule is not shown at all), each line's box, and its ⋯ button's box.
 */
interface TileGeometry {
  name: string;
  shape: string;
  box: { left: number; top: number; right: number; bottom: number };
  lines: { kind: string; text: string; shown: boolean; left: number; top: number; right: number; bottom: number; cut: boolean }[];
  more: { left: number; top: number; right: number; bottom: number } | null;
}

function measureTiles(): TileGeometry[] {
  const rect = (el: Element) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  return [...document.querySelectorAll<HTMLElement>('.floor-grid .floor-table')].map((cell) => {
    const main = cell.querySelector<HTMLElement>('.floor-table-main')!;
    const more = cell.querySelector<HTMLElement>('.floor-table-more');
    return {
      name: main.dataset['testid']!.replace(/^table-/, ''),
      shape: [...cell.classList].find((c) => c.startsWith('shape-'))!.slice('shape-'.length),
      box: rect(main),
      lines: [...main.querySelector('.floor-table-lines')!.children]
        .filter((line) => !line.classList.contains('visually-hidden'))
        .map((line) => {
          const el = line as HTMLElement;
          return {
            kind: el.className,
            text: (el.textContent ?? '').trim(),
            shown: el.checkVisibility({ checkVisibilityCSS: true }),
            ...rect(el),
            cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
          };
        }),
      more: more ? rect(more) : null,
    };
  });
}
