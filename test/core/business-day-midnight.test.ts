// The day's report across midnight in the location's time zone (issue 24, item 5, and its "Done
// when"): random nights of sales between 20:00 and 05:00 where the location is (Los Angeles, on a
// till whose clock reads UTC), each sale on the business day that began at 04:00 local before it,
// whatever the date in UTC or on the calendar. Every sale is in exactly one day's report, and each
// report's figures add up to the sales it holds.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientLocationSchema } from '../../api/client-records';
import { ManualClock } from '../../common/clock';
import type { Store } from '../../store/index';
import { locationRecord } from '../../sync/server-records';
import { ITEMS, LOCATION, startTestCore, type TestCore } from './fixtures';

const ZONE = 'America/Los_Angeles';
/** 2025-01-06 20:00 in Los Angeles (PST, UTC−8): 04:00 UTC on the 7th. */
const FIRST_EVENING = Date.parse('2025-01-07T04:00:00.000Z');
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The business day (YYYY-MM-DD) of an instant in Los Angeles: the local date of 4 hours earlier. */
function expectedDay(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms - 4 * HOUR_MS);
}

const located = (store: Store) =>
  store.server.applyServerRecord('location', locationRecord(clientLocationSchema.parse({ id: LOCATION, name: 'Night Owl', currency: 'usd', timezone: ZONE, address: { line1: '1 Sunset Blvd', country: 'US' } })));

let clock: ManualClock;
let t: TestCore;
beforeAll(async () => {
  clock = new ManualClock(FIRST_EVENING - HOUR_MS);
  // No auto-lock: the clock jumps hours between sales.
  t = await startTestCore({ staff: { autoLockMinutes: 0 } }, { clock }, located, { signIn: 'owner', openShift: true });
});
afterAll(async () => {
  await t?.core.shutdown();
});

describe('a night of sales across midnight where the location is', () => {
  it('puts each sale on the business day that began at 04:00 local before it, and every report adds up', { timeout: 60_000 }, async () => {
    let night = 0;
    await fc.assert(
      fc.asyncProperty(
        // Minutes after 20:00 local (up to 05:00 the next morning), in order, with a quantity each.
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 9 * 60 - 1 }), quantity: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 6 }),
        async (sales) => {
          // Each run is a night of its own, a week after the last: no report mixes two runs.
          const evening = FIRST_EVENING + night++ * 7 * DAY_MS;
          const placed: { id: string; day: string; total: number }[] = [];
          for (const sale of [...sales].sort((a, b) => a.at - b.at)) {
            const at = evening + sale.at * 60_000 + placed.length * 1_000;
            clock.advance(Math.max(0, at - clock.now()));
            const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: sale.quantity }] });
            await t.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
            await t.call('orders.fulfil', { id: order.id });
            expect(order.businessDay, new Date(clock.now()).toISOString()).toBe(expectedDay(clock.now()));
            placed.push({ id: order.id, day: expectedDay(clock.now()), total: order.total });
          }
          for (const day of new Set(placed.map((p) => p.day))) {
            const report = await t.call('reports.z', { businessDay: day });
            const ofDay = placed.filter((p) => p.day === day);
            expect(report.sales.orders, day).toBe(ofDay.length);
            expect(report.sales.net + report.sales.tax, day).toBe(ofDay.reduce((sum, p) => sum + p.total, 0));
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
