// @vitest-environment happy-dom
// The end-of-day (Z) report screen against a real core with no API (nothing reaches the cloud):
// the day's figures in their tables, the "not complete in the cloud" warning with each order still
// waiting and the offline card exposure, the CSV saved under the core's file name, printing where
// no printer is set up, a cashier let in by a manager's PIN, and a past day picked from the list.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OffsetClock } from '../../common/clock';
import { createBridgeClient, type BridgeClient } from '../../renderer/lib/bridge-client';
import { money } from '../../renderer/lib/format';
import { Reports } from '../../renderer/screens/Reports';
import { ITEMS, STAFF, startTestCore, type TestCore } from '../core/fixtures';
import { FakePrinter } from '../printing/fake-printer';
import { coreForEachTest, renderWith } from './with-core';

// Registered before the core's teardown, so it runs after it: the core stops its print worker first.
const printers: FakePrinter[] = [];
afterEach(async () => {
  for (const printer of printers.splice(0)) await printer.stop();
});
const { start: withCore } = coreForEachTest();

const usd = (amount: number) => money(amount, 'usd');
const fieldError = (field: HTMLElement) => (field.getAttribute('aria-describedby') ? (document.getElementById(field.getAttribute('aria-describedby')!)?.textContent ?? null) : null);

/** The rows of a report section's table: each row's cells as text, the row header first. */
function rowsOf(testId: string): string[][] {
  return [...screen.getByTestId(testId).querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));
}
const rowNamed = (testId: string, name: string) => rowsOf(testId).find((row) => row[0] === name);

/**
 * A day at the till: a shift with a $100.00 float, burgers and fries paid in cash, a latte paid by
 * card (stored offline: there is no API), and an order cancelled.
 */
async function sellADay(client: BridgeClient) {
  await client.call('shift.open', { count: [{ value: 2000, count: 5 }] });
  const cash = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }, { menuItemId: ITEMS.fries, quantity: 1 }] });
  await client.call('payments.take', { orderId: cash.id, method: 'cash', amount: cash.total, tendered: cash.total });
  const card = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 1 }] });
  const cardPayment = await client.call('payments.take', { orderId: card.id, method: 'card', amount: card.total });
  const voided = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.soup, quantity: 1 }] });
  await client.call('orders.cancel', { reason: 'Rung up by mistake', id: voided.id });
  return { cash, card, cardPayment: cardPayment.payment, voided };
}

async function shownReport() {
  return screen.findByRole('article', { name: /^End-of-day report/ });
}

describe('the Z report', () => {
  it("shows the day's figures, with the warning that none of it is in the cloud yet", async () => {
    const client = await withCore({}, undefined, { openShift: false });
    const { cash, card, cardPayment, voided } = await sellADay(client);
    expect(cardPayment.status).toBe('queued_offline');
    const report = await client.call('reports.z', {});
    renderWith(client, <Reports />);
    await shownReport();

    // The warning comes first: every order of the day is still only here.
    const warning = screen.getByRole('region', { name: 'Not complete in the cloud' });
    expect(warning.compareDocumentPosition(screen.getByTestId('report-sales')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const waiting = within(warning)
      .getAllByTestId('not-in-cloud')
      .map((li) => li.textContent);
    expect(waiting).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${cash.label}: order waiting`)), expect.stringMatching(new RegExp(`^${card.label}: .*card payment stored offline`))]));
    expect(within(warning).getByTestId('offline-card-exposure').textContent).toContain(`1 for ${usd(card.total)}`);

    // Sales: two orders (the cancelled one is a void), burgers ×2 and fries and a latte.
    expect(rowNamed('report-sales', 'Orders')?.[1]).toBe('2');
    expect(rowNamed('report-sales', 'Gross sales')?.[1]).toBe(usd(report.sales.gross));
    expect(screen.getByTestId('report-sales').querySelector('tfoot')?.textContent).toBe(`Total${usd(cash.total + card.total)}`);
    expect(rowNamed('report-items', 'Burger')).toEqual(['Burger', 'Mains', '2', '$24.00', '$0.00', '$24.00']);
    expect(rowNamed('report-items', 'Café latte')?.slice(0, 3)).toEqual(['Café latte', 'Drinks', '1']);
    expect(rowNamed('report-categories', 'Mains')?.slice(0, 3)).toEqual(['Mains', '3', '$28.50']);
    expect(rowNamed('report-tenders', 'Cash')?.slice(0, 3)).toEqual(['Cash', '1', usd(cash.total)]);
    expect(rowNamed('report-tenders', 'Card')?.slice(0, 3)).toEqual(['Card', '1', usd(card.total)]);
    expect(rowNamed('report-adjustments', 'Voids (orders cancelled)')).toEqual(['Voids (orders cancelled)', '1', usd(voided.total)]);
    expect(rowNamed('report-staff', STAFF.owner.name)?.slice(0, 3)).toEqual([STAFF.owner.name, '2', usd(cash.total + card.total)]);
    // The open shift on its own line: its float and cash so far, nothing expected or counted yet; the cash total covers closed shifts only.
    const [shiftRow] = rowsOf('report-shifts');
    expect(shiftRow?.[1]).toMatch(/Still open$/);
    expect(shiftRow?.slice(2)).toEqual(['$100.00', usd(cash.total), '$0.00', '$0.00', '$0.00', '$0.00', 'At close', '—', '—']);
    expect(rowNamed('report-cash', 'Closed shifts')?.[1]).toBe('0');
    expect(rowNamed('report-cash', 'Expected')?.[1]).toBe('—');

    // Every table has column headers and row headers.
    for (const table of document.querySelectorAll('table')) {
      expect(table.querySelectorAll('thead th[scope="col"]').length).toBeGreaterThan(1);
      expect(table.getAttribute('aria-labelledby')).toBeTruthy();
    }
  });

  it('exports the CSV as a download under the name the core gives it', async () => {
    const client = await withCore({}, undefined, { openShift: false });
    await sellADay(client);
    const blobs: Blob[] = [];
    const clicks: { download: string; href: string; attached: boolean }[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:report-csv';
    });
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ download: this.download, href: this.getAttribute('href') ?? '', attached: document.body.contains(this) });
    });
    try {
      renderWith(client, <Reports />);
      const report = await shownReport();
      const day = (screen.getByLabelText('Business day') as HTMLSelectElement).value;
      const expected = await client.call('reports.csv', { businessDay: day });
      expect(expected.filename).toMatch(new RegExp(`${day}.*\\.csv$`));
      fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
      await waitFor(() => expect(clicks).toHaveLength(1));
      expect(clicks[0]).toEqual({ download: expected.filename, href: 'blob:report-csv', attached: true });
      expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
      // A byte order mark first, for spreadsheets; then the core's CSV as it is (but for when it was worked out).
      const notWhen = (csv: string) => csv.replace(/^generated at,.*$/m, 'generated at,…');
      const saved = await blobs[0]!.text();
      expect(saved.startsWith('\uFEFFreport,')).toBe(true);
      expect(notWhen(saved.slice(1))).toBe(notWhen(expected.csv));
      // Said once React has drawn what the export set (the download itself is synchronous, the notice's render is not).
      expect((await screen.findByTestId('report-notice')).textContent).toBe(`The report is saved as ${expected.filename}.`);
      // The link is gone again.
      expect(document.querySelector('a[download]')).toBeNull();
      expect(report).toBeTruthy();
    } finally {
      click.mockRestore();
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    }
  });

  it('says printing is not set up where no printer is, and the Print button stays off', async () => {
    const client = await withCore({}, undefined, { openShift: false });
    await sellADay(client);
    renderWith(client, <Reports />);
    await shownReport();
    const note = await screen.findByTestId('report-print-off');
    expect(note.textContent).toBe('Printing is not set up on this terminal, so the report cannot be printed here. Export it as CSV instead.');
    const print = screen.getByRole('button', { name: 'Print' }) as HTMLButtonElement;
    expect(print.disabled).toBe(true);
    expect(print.getAttribute('aria-describedby')).toBe(note.id);
  });

  it('prints on the receipt printer and says so', async () => {
    const receipt = await FakePrinter.start();
    printers.push(receipt);
    const client = await withCore({ printing: { receiptPrinter: receipt.url, autoReceipt: false } }, undefined, { openShift: false });
    await sellADay(client);
    renderWith(client, <Reports />);
    await shownReport();
    const print = screen.getByRole('button', { name: 'Print' }) as HTMLButtonElement;
    await waitFor(() => expect(print.disabled).toBe(false));
    expect(screen.queryByTestId('report-print-off')).toBeNull();
    fireEvent.click(print);
    await waitFor(() => expect(screen.getByTestId('report-notice').textContent).toBe('The report is printing on the receipt printer.'));
    await receipt.waitFor(() => receipt.text().includes('Burger'), 'the report on the receipt printer');
  });

  it("lets a cashier see it once a manager enters their PIN; a wrong PIN is said next to the field", async () => {
    const client = await withCore({}, undefined, { openShift: false });
    await sellADay(client);
    await client.call('staff.signIn', { pin: STAFF.cashier.pin });
    renderWith(client, <Reports />);
    const gate = within(await screen.findByRole('form', { name: 'Approve the report' }));
    expect(screen.queryByRole('article')).toBeNull();
    const pin = gate.getByLabelText('Manager PIN to approve') as HTMLInputElement;
    fireEvent.click(gate.getByRole('button', { name: 'Show the report' }));
    expect(fieldError(pin)).toBe('The approving PIN is 4 to 8 digits.');
    // The cashier's own PIN approves nothing.
    fireEvent.change(pin, { target: { value: STAFF.cashier.pin } });
    fireEvent.click(gate.getByRole('button', { name: 'Show the report' }));
    await waitFor(() => expect(fieldError(screen.getByLabelText('Manager PIN to approve'))).toBeTruthy());
    expect(screen.queryByRole('article')).toBeNull();
    fireEvent.change(screen.getByLabelText('Manager PIN to approve'), { target: { value: STAFF.manager.pin } });
    fireEvent.click(screen.getByRole('button', { name: 'Show the report' }));
    await shownReport();
    expect(rowNamed('report-sales', 'Orders')?.[1]).toBe('2');
  });
});

describe('the day picker', () => {
  let t: TestCore | undefined;
  afterEach(async () => {
    cleanup();
    await t?.core.shutdown();
    t = undefined;
  });

  it('lists the days newest first, shows the newest, and reads an earlier day again', async () => {
    const clock = new OffsetClock();
    t = await startTestCore({}, { clock });
    const core = t.core;
    const client = createBridgeClient({ invoke: (request) => core.invoke(request), onEvent: (listener) => core.subscribe(listener) });
    const first = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    await client.call('payments.take', { orderId: first.id, method: 'card', amount: first.total });
    const firstDay = (await client.call('reports.z', {})).businessDay;
    clock.advance(24 * 60 * 60 * 1000);
    // A day later the till has locked itself: sign in again.
    await client.call('staff.signIn', { pin: STAFF.owner.pin });
    const second = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 3 }] });
    await client.call('payments.take', { orderId: second.id, method: 'card', amount: second.total });
    const days = await client.call('reports.days', {});
    expect(days[0]).not.toBe(firstDay);
    expect(days).toContain(firstDay);

    renderWith(client, <Reports />);
    await shownReport();
    const picker = screen.getByLabelText('Business day') as HTMLSelectElement;
    expect([...picker.options].map((o) => o.value)).toEqual(days);
    expect(picker.value).toBe(days[0]);
    expect(rowNamed('report-items', 'Fries')?.[2]).toBe('3');
    expect(rowNamed('report-items', 'Burger')).toBeUndefined();

    await act(async () => {
      fireEvent.change(picker, { target: { value: firstDay } });
    });
    await waitFor(() => expect(rowNamed('report-items', 'Burger')?.[2]).toBe('1'));
    expect(rowNamed('report-items', 'Fries')).toBeUndefined();
  });
});
