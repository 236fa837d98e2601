// The floor's speed (issue 25), in Chromium against browser mode on a real core: a floor of 60 tables
// (all in one section, the most a screen draws at once) with 40 open checks.
// - Tables tab → every table drawn in its state and laid out, next to the core's own tables.floor
//   (what the screen waits for, without HTTP or React);
// - tap a seated table → its check on the register (DOM updated and laid out), from the end of the
//   tap (the click), next to a bare DOM append and layout in the same page. A tap is a press of
//   PRESS_MS before the click, as a finger's is (the screen asks for the check when the press begins).
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { silentLogger } from '../../../common/log';
import { TerminalConfig } from '../../../main/config/schema';
import { startCore, type Core } from '../../../main/core/index';
import { PROJECT_ROOT } from '../../../main/host/browser-mode';
import { startBrowserHost } from '../../../main/host/http-bridge';
import { ensureRendererBundle } from '../../../main/host/renderer-bundle';
import { ITEMS, LOCATION, seedDataDir, signIn, testStaffConfig } from '../../core/fixtures';
import { launchChromium } from '../../e2e/harness';
import { measureBareDomAppend } from '../browser';
import { percentile, row, sampleMicrosAsync, type BenchSuite } from '../harness';

const TABLES = 60;
const OPEN_CHECKS = 40;
const ROUNDS = 60;
/** How long a tap holds: a finger's is 70–120 ms; less, to be fair to the screen. */
const PRESS_MS = 50;

async function call(core: Core, command: string, payload: unknown): Promise<unknown> {
  const response = await core.invoke({ command, payload });
  if (!response.ok) throw new Error(`${command}: ${response.error.message}`);
  return response.value;
}

/** 60 tables of 2×2 cells, 12 to a row, in one section; checks at the first 40, whose labels it returns (T1's first). */
async function layOutAndSeat(core: Core): Promise<string[]> {
  const floor = (await call(core, 'tables.saveSection', { name: 'Main' })) as { sections: { id: string }[] };
  const sectionId = floor.sections[0]!.id;
  for (let i = 0; i < TABLES; i++) {
    await call(core, 'tables.saveTable', { sectionId, name: `T${i + 1}`, seats: 4, shape: i % 3 === 0 ? 'round' : 'square', x: (i % 12) * 2, y: Math.floor(i / 12) * 2, width: 2, height: 2 });
  }
  const labels: string[] = [];
  for (let i = 0; i < OPEN_CHECKS; i++) {
    const lines = [{ menuItemId: ITEMS.burger, quantity: 1 + (i % 3) }, { menuItemId: ITEMS.latte, quantity: 1 }];
    const order = (await call(core, 'orders.place', { lines, service: { type: 'dine_in', table: `T${i + 1}`, guests: 2 + (i % 4) } })) as { label: string };
    labels.push(order.label);
  }
  return labels;
}

/**
 * Tables tab → all tables drawn and laid out, in ms (in-page clock); the Register tab in between,
 * shown (it stays mounted, hidden, under other screens) and the floor gone before the clock starts.
 */
async function measureFloorOpen(page: Page, rounds: number): Promise<number[]> {
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  return page.evaluate(
    async ({ count, tables }) => {
      const samples: number[] = [];
      for (let i = 0; i < count; i++) {
        [...document.querySelectorAll<HTMLButtonElement>('nav .screen-tab')].find((b) => b.textContent?.startsWith('Register'))!.click();
        while (document.querySelector('.floor-grid') || !document.querySelector('.register:not([hidden]) .menu-grid')) await new Promise((resolve) => setTimeout(resolve, 0));
        const start = performance.now();
        [...document.querySelectorAll<HTMLButtonElement>('nav .screen-tab')].find((b) => b.textContent?.startsWith('Tables'))!.click();
        while (document.querySelectorAll('.floor-grid .floor-table').length < tables) await new Promise((resolve) => setTimeout(resolve, 0));
        void (document.querySelector('.floor-grid') as HTMLElement).offsetHeight;
        samples.push(performance.now() - start);
      }
      return samples;
    },
    { count: rounds, tables: TABLES },
  );
}

/**
 * Tap a seated table (pressed, then clicked) → its check's lines on the register, shown and laid out,
 * in ms from the click. The register shows the check of that table (its label), not the one before:
 * hidden under the floor, it still holds the last one.
 */
async function measureTableTaps(page: Page, rounds: number, labels: readonly string[]): Promise<number[]> {
  return page.evaluate(
    async ({ count, seated, tables, pressMs, labels }) => {
      const samples: number[] = [];
      for (let i = 0; i < count; i++) {
        [...document.querySelectorAll<HTMLButtonElement>('nav .screen-tab')].find((b) => b.textContent?.startsWith('Tables'))!.click();
        while (document.querySelectorAll('.floor-grid .floor-table').length < tables) await new Promise((resolve) => setTimeout(resolve, 0));
        const table = (i * 7) % seated;
        const tile = document.querySelector<HTMLButtonElement>(`[data-testid="table-T${table + 1}"]`)!;
        tile.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, pointerType: 'touch' }));
        await new Promise((resolve) => setTimeout(resolve, pressMs));
        const start = performance.now();
        tile.click();
        let lines: HTMLElement | null = null;
        while (
          document.querySelector('.register:not([hidden]) [data-testid="editing-label"]')?.textContent !== labels[table] ||
          !(lines = document.querySelector<HTMLElement>('.register:not([hidden]) [data-testid="ticket-lines"]'))?.textContent?.includes('Burger')
        )
          await new Promise((resolve) => setTimeout(resolve, 0));
        void lines.offsetHeight;
        samples.push(performance.now() - start);
      }
      return samples;
    },
    { count: rounds, seated: OPEN_CHECKS, tables: TABLES, pressMs: PRESS_MS, labels },
  );
}

const p95 = (samples: number[]) => percentile([...samples].sort((a, b) => a - b), 95);

const suite: BenchSuite = {
  name: 'tables',
  async run() {
    await ensureRendererBundle(PROJECT_ROOT, silentLogger);
    const config = TerminalConfig.parse({ dataDir: seedDataDir(), locationId: LOCATION, staff: testStaffConfig() });
    const core = await startCore(config, { logger: silentLogger });
    await signIn(core, 'owner');
    const labels = await layOutAndSeat(core);
    const host = await startBrowserHost({ host: core, rendererDir: join(PROJECT_ROOT, 'dist', 'renderer'), logger: silentLogger });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
      await page.goto(host.launchUrl);
      await page.locator('.menu-grid .tile').first().waitFor();
      await measureFloorOpen(page, 10); // warm-up: JIT, style caches
      const opens = await measureFloorOpen(page, ROUNDS);
      const floorCommand = (await sampleMicrosAsync(() => call(core, 'tables.floor', {}).then(() => undefined), ROUNDS)).map((us) => us / 1000);
      await measureTableTaps(page, 10, labels);
      const taps = await measureTableTaps(page, ROUNDS, labels);
      const bare = await measureBareDomAppend(page, ROUNDS);
      return [
        row({
          name: `Tables tab → the floor drawn (${TABLES} tables, ${OPEN_CHECKS} open checks)`,
          value: p95(opens),
          unit: 'ms p95',
          baselineName: 'tables.floor in the core alone',
          baseline: p95(floorCommand),
          better: 'lower',
          target: 'p95 < 50 ms',
          ok: p95(opens) < 50,
        }),
        row({
          name: `tap a seated table (pressed ${PRESS_MS} ms) → its check on the register`,
          value: p95(taps),
          unit: 'ms p95',
          baselineName: 'bare DOM append + layout, same page',
          baseline: p95(bare),
          better: 'lower',
          target: 'p95 < 16 ms',
          ok: p95(taps) < 16,
        }),
      ];
    } finally {
      await browser.close();
      await host.close().catch(() => undefined);
      await core.shutdown();
    }
  },
};

export default suite;
