// Seats and courses on the register in Chromium against the sandbox (issue 25): a party of four at
// table 12 seated from the floor, drinks for the table and mains per seat rung up with the seat and
// course chips, Mains held and the check sent; opened again from the floor, Mains reads HELD and
// fires. The register is screenshotted at 1024×768 and 1366×768 before and after the fire (tidy by
// the layout audit, axe clean), as is the courses editor: test-results/screenshots/seats-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callCore, goToScreen, launchChromium, openRegister, startTerminal, type Terminal } from './harness';
import { expectAccessible, SCREENSHOTS, screenshotIfFailed, tillShots, TILL_VIEWPORTS } from './shots';

let browser: Browser;
let terminal: Terminal;
let page: Page | undefined;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [browser, terminal] = await Promise.all([launchChromium(), startTerminal()]);
});

afterEach(async (context) => {
  await screenshotIfFailed(page, context.task, 'seats');
  await page?.context().close();
  page = undefined;
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
});

describe('seats and courses on the register', () => {
  it('rings up a table by seat and course, holds Mains, sends it, then fires Mains from the reopened check, readable at both sizes', async () => {
    ({ page } = await openRegister(browser, terminal, { viewport: TILL_VIEWPORTS[0] }));
    const floor = await callCore(terminal, 'tables.saveSection', { name: 'Main' });
    await callCore(terminal, 'tables.saveTable', { sectionId: floor.sections[0]!.id, name: '12', seats: 8, shape: 'rect', x: 0, y: 0, width: 4, height: 2 });
    const { items } = await callCore(terminal, 'menu.snapshot', {});
    const plain = items.filter((i) => i.available && i.modifiers.length === 0 && i.modifierGroups.length === 0);
    expect(plain.length).toBeGreaterThanOrEqual(3);
    const tile = (index: number) => page!.locator(`.menu-grid .tile[data-item-id="${plain[index]!.id}"]`);

    await goToScreen(page, 'Tables', { keyboard: true });
    await page.getByTestId('table-12').click();
    const seat = page.getByRole('dialog');
    await seat.getByLabel('How many guests?').fill('4');
    await seat.getByRole('button', { name: 'Start the check' }).click();

    // This till rings checks up by seat and course: asked once, kept as the till's preference.
    await page.getByRole('button', { name: 'Seats & courses' }).click();
    const seats = page.getByRole('group', { name: 'Seat for the next items' });
    const courses = page.getByRole('group', { name: 'Course for the next items' });
    await courses.getByRole('button', { name: 'Drinks' }).click();
    await tile(0).click();
    await tile(0).click();
    await courses.getByRole('button', { name: 'Mains' }).click();
    for (const [n, item] of [[1, 1], [2, 2], [3, 1], [4, 2]] as const) {
      await seats.getByRole('button', { name: `Seat ${n}` }).click();
      await tile(item).click();
    }
    await courses.getByRole('button', { name: 'Dessert' }).click();
    await seats.getByRole('button', { name: 'Seat 2' }).click();
    await tile(2).click();
    await page.getByRole('button', { name: 'Hold Mains' }).click();
    await page.getByTestId('course-Mains').getByText('HELD').waitFor();
    await expect.poll(() => page!.locator('.ticket-lines .line-place').allTextContents()).toEqual(['Table · Drinks', 'S1 · Mains', 'S2 · Mains', 'S3 · Mains', 'S4 · Mains', 'S2 · Dessert']);
    const shot = tillShots(() => page!, 'seats');
    await shot('register-new');
    await expectAccessible(page, 'the register with seats and courses');

    await page.getByRole('button', { name: /^Save open/ }).click();
    await page.locator('.ticket-lines .line-place').first().waitFor({ state: 'detached' });
    await goToScreen(page, 'Tables');
    await page.getByTestId('table-12').click();
    await page.getByRole('button', { name: 'Fire Mains' }).waitFor();
    await shot('register-held');
    await page.getByRole('button', { name: 'Fire Mains' }).click();
    await page.getByTestId('course-Mains').getByText('FIRED').waitFor();
    await shot('register-fired');
    await expectAccessible(page, 'the register with a course fired');
    const [order] = await callCore(terminal, 'orders.list', { status: 'open' });
    expect(order!.courses).toEqual([{ course: 'course_mains', state: 'fired' }]);

    await goToScreen(page, 'Tables');
    await page.getByRole('button', { name: 'Edit floor' }).click();
    await page.getByRole('region', { name: 'Courses' }).waitFor();
    await shot('courses-editor');
    await expectAccessible(page, 'the courses editor');
  });
});
