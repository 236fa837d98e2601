// One time, the location's (issue 24, item 5), in the core: the locale every date and time is told
// in comes from the location's country as /v1 sends it (address.country), or from IT's `locale`,
// else en-US; a zone this computer does not know is no zone; and what the core writes in words
// (the changes at stake before a sign-out or reset) and on paper is in that zone and locale.
import { afterEach, describe, expect, it } from 'vitest';
import { clientLocationSchema } from '../../api/client-records';
import { ManualClock } from '../../common/clock';
import { pendingLoss } from '../../main/core/pending-loss';
import { locationLocale, locationView, withConfiguredLocale } from '../../main/core/views';
import { LocationDoc, type Store } from '../../store/index';
import { locationRecord } from '../../sync/server-records';
import { FakePrinter } from '../printing/fake-printer';
import { normalizedText } from '../printing/escpos-decode';
import { ITEMS, LOCATION, reopenStore, startTestCore, type TestCore } from './fixtures';

// 11:41 UTC: 12:41 in Paris (CET).
const T0 = '2025-03-14T11:41:00.000Z';

const record = (fields: Record<string, unknown>) => locationRecord(clientLocationSchema.parse({ id: LOCATION, name: 'Test Kitchen', currency: 'eur', ...fields }));
const located = (fields: Record<string, unknown>) => (store: Store) => store.server.applyServerRecord('location', record(fields));
const PARIS = { address: { line1: '12 Rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' }, timezone: 'Europe/Paris' };

describe('the locale of a location', () => {
  it('is the language most used in its country, with the country; en-US when it has none or one no one knows', () => {
    expect(['US', 'FR', 'CA', 'GB', 'DE', 'JP'].map(locationLocale)).toEqual(['en-US', 'fr-FR', 'en-CA', 'en-GB', 'de-DE', 'ja-JP']);
    expect([null, 'QQ', 'ZZ', 'usa', ''].map(locationLocale)).toEqual(['en-US', 'en-US', 'en-US', 'en-US', 'en-US']);
  });

  it('reads the country from the address /v1 sends, and forgets it with an address that names none', () => {
    expect(record({ address: { line1: '1 Main St', country: 'us' } })).toMatchObject({ address: '1 Main St, us', country: 'US' });
    expect(record({ address: '1 Main St, Springfield' }).country).toBeNull();
    expect(record({ address: null }).country).toBeNull();
    expect('country' in record({ name: 'No address sent' })).toBe(false);
  });

  it('reads a location stored before the country was kept', () => {
    const old = LocationDoc.parse({ id: LOCATION, name: 'Old', currency: 'usd', address: '1 Main St', timezone: 'America/Chicago', tax: null });
    expect(old.country).toBeNull();
    expect(locationView(old)).toMatchObject({ timezone: 'America/Chicago', locale: 'en-US' });
  });

  it("says no zone ('': this computer's) for one this computer does not know, and IT's locale wins over the country's", () => {
    const doc = LocationDoc.parse({ id: LOCATION, name: 'Mars', currency: 'usd', address: null, timezone: 'Mars/Olympus', country: 'FR' });
    const view = locationView(doc);
    expect(view).toMatchObject({ timezone: '', locale: 'fr-FR' });
    expect(withConfiguredLocale(view, 'en-GB').locale).toBe('en-GB');
    expect(withConfiguredLocale(view, '')).toBe(view);
  });
});

describe('what the core tells in words and on paper', () => {
  let t: TestCore | undefined;
  const printers: FakePrinter[] = [];
  afterEach(async () => {
    await t?.core.shutdown();
    t = undefined;
    for (const printer of printers.splice(0)) await printer.stop();
  });

  it('says when the oldest change not in the cloud was made in the location’s zone and locale', async () => {
    t = await startTestCore({}, { clock: new ManualClock(Date.parse(T0)) }, located(PARIS));
    await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const store = reopenStore(t.dataDir);
    try {
      const later = Date.parse(T0) + 60_000;
      expect(pendingLoss(store, later, 'Europe/Paris', 'fr-FR').message).toMatch(/, the oldest made today at 12:41\.$/);
      expect(pendingLoss(store, later, 'America/New_York', 'en-US').message).toMatch(/, the oldest made today at 7:41 AM\.$/);
      expect(pendingLoss(store, later + 86_400_000, 'Europe/Paris', 'fr-FR').message).toMatch(/, the oldest made 14 mars at 12:41\.$/);
    } finally {
      store.close();
    }
  });

  // ---- these need the country kept by the store and the locale passed by the cashier and the core (see the report of issue 24, item 5) ----

  it('a store in Paris: location.get says fr-FR, the country survives a restart, and the receipt and kitchen ticket print day first on a 24-hour clock', async () => {
    const [receipt, kitchen] = [await FakePrinter.start(), await FakePrinter.start()];
    printers.push(receipt, kitchen);
    t = await startTestCore(
      { printing: { receiptPrinter: receipt.url, kitchenPrinters: [`kitchen=${kitchen.url}`] }, staff: { autoLockMinutes: 0 } },
      { clock: new ManualClock(Date.parse(T0)) },
      located(PARIS),
    );
    expect(await t.call('location.get', {})).toMatchObject({ timezone: 'Europe/Paris', locale: 'fr-FR' });
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total });
    const papers = (printer: FakePrinter) => printer.decodedJobs().map((job) => normalizedText(job.text));
    await receipt.waitFor(() => papers(receipt).some((p) => p.includes(`Order ${order.label}`)), 'the receipt');
    await kitchen.waitFor(() => papers(kitchen).length > 0, 'the kitchen ticket');
    for (const paper of [papers(receipt).find((p) => p.includes(`Order ${order.label}`)), papers(kitchen)[0]]) expect(paper).toContain('14/03/2025 12:41');
    expect((await t.call('session.pending', {})).message).toMatch(/, the oldest made today at 12:41\.$/);

    const store = reopenStore(t.dataDir);
    try {
      expect(store.cashier.getLocation(LOCATION)?.country).toBe('FR');
    } finally {
      store.close();
    }
  });

  it("IT's locale wins over the country's, on location.get and location.list", async () => {
    t = await startTestCore({ locale: 'en-GB' }, { clock: new ManualClock(Date.parse(T0)) }, located(PARIS));
    expect((await t.call('location.get', {})).locale).toBe('en-GB');
    expect((await t.call('location.list', {})).map((l) => l.locale)).toEqual(['en-GB']);
  });

  it("'today' on the Shift screen is the business day: at 02:00 it began at 04:00 the day before", async () => {
    // 01:00 UTC on the 15th is 02:00 in Paris: the business day of the 14th, begun at 04:00 (03:00 UTC).
    t = await startTestCore({}, { clock: new ManualClock(Date.parse('2025-03-15T01:00:00.000Z')) }, located(PARIS));
    expect((await t.call('shift.summary', {})).since).toBe('2025-03-14T03:00:00.000Z');
  });
});
