// The steps the browser cases share to look at a screen: let it settle, screenshot it, check it
// with the layout audit (test/e2e/layout-audit.ts) and with axe, at the two window sizes tills have.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { auditLayout } from './layout-audit';

export const SCREENSHOTS = 'test-results/screenshots';
export const SMALL_TILL = { width: 1024, height: 768 } as const;
export const WIDE_TILL = { width: 1366, height: 768 } as const;
/** Wide first and small last, so the cases go on at the smaller size. */
export const TILL_VIEWPORTS = [WIDE_TILL, SMALL_TILL] as const;

/** Fonts and the React commit after the last change settle, over `frames` animation frames. */
export async function settle(page: Page, frames: 1 | 2 = 2): Promise<void> {
  if (frames === 1) await page.evaluate(() => document.fonts.ready.then(() => new Promise((resolve) => requestAnimationFrame(resolve))));
  else await page.evaluate(() => document.fonts.ready.then(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))));
}

/** The layout audit finds nothing cut off or out of reach on screen now. */
export async function expectNoLayoutProblems(page: Page, label: string): Promise<void> {
  const problems = await page.evaluate(auditLayout);
  expect(problems.map((p) => `${p.kind}: ${p.element} (${p.detail})`), label).toEqual([]);
}

/**
 * `shot(name)`: the screen as it is now at both till sizes, tidy at each, saved as
 * `${SCREENSHOTS}/${prefix}-<name>-<w>x<h>.png`; the page is left at 1024×768.
 */
export function tillShots(page: () => Page, prefix: string): (name: string) => Promise<void> {
  return async (name) => {
    for (const viewport of TILL_VIEWPORTS) {
      await page().setViewportSize(viewport);
      await settle(page());
      await page().screenshot({ path: `${SCREENSHOTS}/${prefix}-${name}-${viewport.width}x${viewport.height}.png` });
      await expectNoLayoutProblems(page(), `${name} at ${viewport.width}×${viewport.height}`);
    }
  };
}

/** No axe violation of any impact on what is on screen now. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), what).toEqual([]);
}

/** After a case: what its page showed if it failed, as `${SCREENSHOTS}/<prefix>-failed-<case>.png`, for a person to look at. */
export async function screenshotIfFailed(page: Page | undefined, task: { name: string; result?: { state?: string } }, prefix: string): Promise<void> {
  if (task.result?.state !== 'fail' || page === undefined || page.isClosed()) return;
  await page.screenshot({ path: `${SCREENSHOTS}/${prefix}-failed-${task.name.slice(0, 60).replace(/\W+/g, '-')}.png` }).catch(() => undefined);
}
