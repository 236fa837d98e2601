// One time, the location's, on paper (issue 24, item 5): a document prints its time in the zone and
// locale it carries, and the core gives every document the location's, so a US store's receipt,
// kitchen ticket and Z report say "3/14/25, 4:41 AM" in Los Angeles, not day-first 24-hour time.
import { afterEach, describe, expect, it } from 'vitest';
import { clientLocationSchema } from '../../api/client-records';
import { ManualClock } from '../../common/clock';
import { formatTime, renderReceipt } from '../../printing';
import type { Store } from '../../store/index';
import { locationRecord } from '../../sync/server-records';
import { ITEMS, LOCATION, startTestCore, type TestCore } from '../core/fixtures';
import { decodeEscPos, normalizedText } from './escpos-decode';
import { FakePrinter } from './fake-printer';
import { sampleReceipt } from './fixtures';

// 11:41 UTC: 4:41 AM in Los Angeles (PDT), 12:41 in Paris (CET).
const T0 = '2025-03-14T11:41:00.000Z';

describe('a document prints its time in the zone and locale it carries', () => {
  it('month first and on a 12-hour clock for en-US, day first on a 24-hour clock for fr-FR; en-US for a job queued before documents carried one', () => {
    expect(formatTime({ iso: T0, timeZone: 'America/Los_Angeles', locale: 'en-US' })).toBe('3/14/25, 4:41 AM');
    expect(formatTime({ iso: T0, timeZone: 'Europe/Paris', locale: 'fr-FR' })).toBe('14/03/2025 12:41');
    expect(formatTime({ iso: T0, timeZone: 'America/New_York' })).toBe('3/14/25, 7:41 AM');
    const paper = normalizedText(decodeEscPos(renderReceipt(sampleReceipt('A17', { time: { iso: T0, timeZone: 'America/Los_Angeles' } }), { target: 'escpos', cpl: 42 })));
    expect(paper).toContain('3/14/25, 4:41 AM');
  });
});

describe('a US store in Los Angeles, on a computer in UTC', () => {
  let t: TestCore | undefined;
  const printers: FakePrinter[] = [];
  afterEach(async () => {
    await t?.core.shutdown();
    t = undefined;
    for (const printer of printers.splice(0)) await printer.stop();
  });

  const inLosAngeles = (store: Store) =>
    store.server.applyServerRecord(
      'location',
      locationRecord(
        clientLocationSchema.parse({
          id: LOCATION,
          name: 'Test Kitchen',
          currency: 'usd',
          address: { line1: '1 Main St', city: 'Los Angeles', region: 'CA', postal_code: '90012', country: 'US' },
          timezone: 'America/Los_Angeles',
        }),
      ),
    );

  it('prints the receipt, the kitchen ticket and the Z report at 4:41 AM, month first', async () => {
    const [receipt, kitchen] = [await FakePrinter.start(), await FakePrinter.start()];
    printers.push(receipt, kitchen);
    t = await startTestCore(
      { printing: { receiptPrinter: receipt.url, kitchenPrinters: [`kitchen=${kitchen.url}`] }, staff: { autoLockMinutes: 0 } },
      { clock: new ManualClock(Date.parse(T0)) },
      inLosAngeles,
    );
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total });
    const { businessDay } = await t.call('reports.z', {});
    await t.call('reports.print', { businessDay });

    const papers = (printer: FakePrinter) => printer.decodedJobs().map((job) => normalizedText(job.text));
    await receipt.waitFor(() => papers(receipt).some((p) => p.includes('Z REPORT')), 'the Z report');
    await kitchen.waitFor(() => papers(kitchen).length > 0, 'the kitchen ticket');
    const customer = papers(receipt).find((p) => p.includes(`Order ${order.label}`));
    const report = papers(receipt).find((p) => p.includes('Z REPORT'));
    for (const paper of [customer, report, papers(kitchen)[0]]) {
      expect(paper).toContain('3/14/25, 4:41 AM');
      expect(paper).not.toContain('14/03/2025');
    }
  });
});
