// A party of eight, end to end in Chromium against the sandbox (issue 25; docs/tables.md), with a
// kitchen printer and a receipt printer that are real TCP fake printers and the automatic gratuity
// for parties of 8 or more: seated at table 12 from the floor, drinks for five seats and mains for
// all eight rung up by seat and course, both courses held and sent; drinks fired, then mains, each
// FIRE ticket naming TABLE 12 and its course; the bill printed from the table's sheet with the
// gratuity on it (the table reads "Check printed"); split by seat in the payment's bill panel, each
// seat's check paid (the first by card, the others in cash), the gratuity riding on each; the table
// Paid, its check completed in Orders, then "Table is cleared" and Free. A second check at table 3
// is moved to table 14 with Move… and found there on the floor. The floor, the ticket, the table's
// sheet, the payment and the split are screenshotted at 1024×768 and 1366×768 (tidy by the layout
// audit, axe clean): test-results/screenshots/party-*.png (copied by hand to docs/screenshots/).
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MenuItem } from '../../bridge/contract';
import type { TerminalConfig } from '../../main/config/schema';
import { normalizedText } from '../printing/escpos-decode';
import { FakePrinter } from '../printing/fake-printer';
import { callCore, goToScreen, launchChromium, openRegister, startTerminal, waitForCount, waitForText, type Terminal } from './harness';
import { expectAccessible, SCREENSHOTS, screenshotIfFailed, tillShots, WIDE_TILL } from './shots';

let browser: Browser;
let terminal: Terminal;
let receipt: FakePrinter;
let kitchen: FakePrinter;
let page: Page | undefined;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [receipt, kitchen] = await Promise.all([FakePrinter.start(), FakePrinter.start()]);
  [browser, terminal] = await Promise.all([
    launchChromium(),
    startTerminal({
      config: {
        // The harness takes the parsed config's type; these are the flags' values it parses.
        printing: { receiptPrinter: receipt.url, kitchenPrinters: [`kitchen=${kitchen.url}`] } as unknown as TerminalConfig['printing'],
        checkout: { autoGratuityGuests: 8, autoGratuityPercent: 18 } as unknown as TerminalConfig['checkout'],
      },
    }),
  ]);
});

afterEach(async (context) => {
  await screenshotIfFailed(page, context.task, 'party');
  await page?.context().close();
  page = undefined;
});

afterAll(async () => {
  await browser?.close();
  await terminal?.close();
  await receipt?.stop();
  await kitchen?.stop();
});

/** Main: tables 1–12 and 14 in three rows, 12 a long table for eight. */
async function layOut(): Promise<void> {
  const floor = await callCore(terminal, 'tables.saveSection', { name: 'Main' });
  const main = floor.sections[0]!.id;
  for (const [i, name] of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '14'].entries()) {
    const long = name === '12';
    await callCore(terminal, 'tables.saveTable', { sectionId: main, name, seats: long ? 8 : 4, shape: long ? 'rect' : i % 4 === 1 ? 'round' : 'square', x: (i % 6) * 4, y: Math.floor(i / 6) * 5, width: long ? 4 : 3, height: 3 });
  }
}

/** The FIRE tickets the kitchen printer has printed, as text. */
const fireTickets = () => kitchen.decodedJobs().map((job) => normalizedText(job)).filter((text) => text.includes('FIRE'));

describe('a party of eight', () => {
  it('is seated at table 12, fired course by course, billed with the gratuity, split by seat, paid and cleared; another check moves to table 14', { timeout: 150_000 }, async () => {
    let errors: string[];
    ({ page, errors } = await openRegister(browser, terminal, { viewport: WIDE_TILL }));
    const p = page;
    await layOut();
    const { items } = await callCore(terminal, 'menu.snapshot', {});
    const named = (name: string): MenuItem => {
      const found = items.find((i) => i.name === name);
      if (!found) throw new Error(`the demo menu has no ${name}`);
      return found;
    };
    const drinks = ['Lager', 'House red wine', 'House white wine'].map(named);
    const mains = ['Steak frites', 'Grilled salmon', 'Roast half chicken', 'Fish & chips'].map(named);
    const category = (name: string) => p.getByRole('navigation', { name: 'Categories' }).getByRole('button', { name, exact: true });
    const tile = (item: MenuItem) => p.locator(`.menu-grid .tile[data-item-id="${item.id}"]`);
    const table = (name: string) => p.getByTestId(`table-${name}`);
    const sheetOf = (name: string) => p.getByRole('button', { name: `Table ${name}: checks and actions` });
    const dialog = () => p.locator('dialog[open]');
    const shot = tillShots(() => p, 'party');

    // Seated from the floor: tap table 12, eight guests.
    await goToScreen(p, 'Tables', { keyboard: true });
    await table('12').click();
    await dialog().getByLabel('How many guests?').fill('8');
    await dialog().getByRole('button', { name: 'Start the check' }).click();

    // Drinks for seats 1–5 and a main for every seat, by seat and course; both courses held.
    await p.getByRole('button', { name: 'Seats & courses' }).click();
    const seats = p.getByRole('group', { name: 'Seat for the next items' });
    const courses = p.getByRole('group', { name: 'Course for the next items' });
    await category('Beer & Wine').click();
    await courses.getByRole('button', { name: 'Drinks' }).click();
    for (let seat = 1; seat <= 5; seat++) {
      await seats.getByRole('button', { name: `Seat ${seat}` }).click();
      await tile(drinks[seat % drinks.length]!).click();
    }
    await category('Mains').click();
    await courses.getByRole('button', { name: 'Mains' }).click();
    for (let seat = 1; seat <= 8; seat++) {
      await seats.getByRole('button', { name: `Seat ${seat}` }).click();
      await tile(mains[seat % mains.length]!).click();
    }
    await p.getByRole('button', { name: 'Hold Drinks' }).click();
    await p.getByRole('button', { name: 'Hold Mains' }).click();
    await p.getByTestId('course-Drinks').getByText('HELD').waitFor();
    await p.getByTestId('course-Mains').getByText('HELD').waitFor();
    const places = Array.from({ length: 5 }, (_, i) => `S${i + 1} · Drinks`).concat(Array.from({ length: 8 }, (_, i) => `S${i + 1} · Mains`));
    await waitForCount(p.locator('.ticket-lines .line-place'), places.length);
    expect(await p.locator('.ticket-lines .line-place').allTextContents()).toEqual(places);
    await shot('ticket');
    await expectAccessible(p, 'the ticket with seats and courses');
    await p.getByRole('button', { name: /^Save open/ }).click();
    await p.locator('.ticket-lines .line-place').first().waitFor({ state: 'detached' });

    // The floor: table 12 seated with its eight guests.
    await goToScreen(p, 'Tables');
    await waitForText(table('12'), /Seated.*8 guests/);
    const [order] = await callCore(terminal, 'orders.list', { status: 'open', search: '12' });
    expect(order).toMatchObject({ service: { type: 'dine_in', table: '12', guests: 8 }, courses: [{ state: 'held' }, { state: 'held' }] });
    expect(order!.gratuity).toMatchObject({ percentBps: 1800, minGuests: 8, removed: null });
    await shot('floor');
    await expectAccessible(p, 'the floor with the party seated');

    // Opened from the floor: drinks fired, then mains, one FIRE ticket each naming the table and the course.
    await table('12').click();
    await p.getByRole('button', { name: 'Fire Drinks' }).click();
    await p.getByTestId('course-Drinks').getByText('FIRED').waitFor();
    await kitchen.waitFor(() => fireTickets().length === 1, 'the FIRE ticket for the drinks', 10_000);
    await p.getByRole('button', { name: 'Fire Mains' }).click();
    await p.getByTestId('course-Mains').getByText('FIRED').waitFor();
    await kitchen.waitFor(() => fireTickets().length === 2, 'the FIRE ticket for the mains', 10_000);
    const [fireDrinks, fireMains] = fireTickets();
    expect(fireDrinks).toContain('TABLE 12 - DRINKS');
    expect(fireDrinks).toMatch(/S5 1 x /);
    expect(fireDrinks).not.toMatch(/Steak frites|Grilled salmon/);
    expect(fireMains).toContain('TABLE 12 - MAINS');
    expect(fireMains).toMatch(/S8 1 x /);
    expect(fireMains).not.toMatch(/Lager|wine/);
    expect(fireDrinks).toContain(order!.label);

    // The bill from the table's sheet, with the gratuity on it; the table reads "Check printed".
    await goToScreen(p, 'Tables');
    await sheetOf('12').click();
    await dialog().getByRole('button', { name: 'Print the bill' }).click();
    await waitForText(dialog().locator('[role="status"]'), /^The bill is printing/);
    await shot('sheet');
    await expectAccessible(p, "table 12's sheet with its bill printing");
    await dialog().getByRole('button', { name: 'Done' }).click();
    await waitForText(table('12'), /Check printed/);
    await receipt.waitFor(() => receipt.text().includes('WITH GRATUITY'), 'the bill of table 12', 10_000);
    expect(receipt.text()).toMatch(/Gratuity 18% \(8\+ guests\)/);

    // Paid by seat: the party's check split in one tap, every seat's check paid, the gratuity on each.
    await table('12').click();
    await p.getByTestId('charge').click();
    const pay = dialog();
    await pay.getByTestId('gratuity-part').waitFor();
    expect(await pay.getByTestId('gratuity-part').textContent()).toMatch(/^Gratuity \(18%, parties of 8 or more\): \$\d+\.\d\d with this payment$/);
    await shot('payment');
    await expectAccessible(p, 'the payment of the party');
    await pay.getByRole('button', { name: 'By seat (8 checks)' }).click();
    await waitForCount(pay.getByTestId('split-part'), 8);
    await shot('split');
    await expectAccessible(p, 'the bill split by seat');
    const paidParts = pay.getByTestId('split-part').filter({ has: p.locator('.badge-paid') });
    for (let part = 1; part <= 8; part++) {
      await pay.getByText(part === 1 ? 'Card' : 'Cash', { exact: true }).click();
      const confirm = pay.getByTestId('confirm-payment');
      await waitForText(confirm, part === 1 ? /^Charge \$[\d.]+ \(incl\. \$[\d.]+ gratuity\)/ : /^Take \$[\d.]+ cash \(incl\. \$[\d.]+ gratuity\)/);
      await confirm.click();
      if (part < 8) await waitForCount(paidParts, part);
    }
    await pay.waitFor({ state: 'detached' });
    const paid = await callCore(terminal, 'orders.get', { id: order!.id });
    expect(paid.paidAmount).toBe(paid.total);
    expect(paid.payments.map((payment) => [payment.method, payment.splitPart])).toEqual([['card', expect.any(String)], ...Array.from({ length: 7 }, () => ['cash', expect.any(String)])]);
    expect(paid.gratuity!.collected).toBe(paid.gratuity!.charged);

    // Paid on the floor; completed in Orders, it needs clearing; cleared, it is free.
    await goToScreen(p, 'Tables');
    await waitForText(table('12'), /Paid/);
    await goToScreen(p, 'Orders');
    await p.locator(`tr[data-order-id="${order!.id}"]`).getByRole('button', { name: order!.label, exact: true }).click();
    await p.getByRole('button', { name: 'Mark completed' }).click();
    await goToScreen(p, 'Tables');
    await waitForText(table('12'), /Needs clearing/);
    await table('12').click();
    await dialog().getByRole('button', { name: 'Table is cleared' }).click();
    await waitForText(table('12'), /Free/);

    // A second check, at table 3, moved to table 14 with Move… from its sheet.
    const second = await callCore(terminal, 'orders.place', { lines: [{ menuItemId: drinks[0]!.id, quantity: 2 }], service: { type: 'dine_in', table: '3', guests: 2 } });
    await waitForText(table('3'), /Seated/);
    await sheetOf('3').click();
    await dialog().getByRole('button', { name: `Move ${second.label} to another table` }).click();
    await dialog().getByLabel(`Move ${second.label} to table`).selectOption({ label: '14 · Free' });
    await dialog().getByRole('button', { name: 'Move', exact: true }).click();
    await waitForText(dialog().locator('[role="status"]'), `${second.label} is at table 14 now.`);
    await dialog().getByRole('button', { name: 'Done' }).click();
    await waitForText(table('14'), /Seated.*2 guests/);
    await waitForText(table('3'), /Free/);
    expect((await callCore(terminal, 'orders.get', { id: second.id })).service.table).toBe('14');
    const floor = await callCore(terminal, 'tables.floor', {});
    expect(floor.tables.filter((t) => ['3', '12', '14'].includes(t.name)).map((t) => [t.name, t.state])).toEqual([
      ['3', 'free'],
      ['12', 'free'],
      ['14', 'seated'],
    ]);
    expect(errors).toEqual([]);
  });
});
