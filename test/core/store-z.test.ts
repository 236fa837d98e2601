// The store's day from replicated documents (main/core/store-mode/store-z.ts), over random small days
// of other tills: every order sold on the day is counted once (a sale, an open check or a void), every
// cent taken, tipped or given back on the day is in the totals once, nothing of another day is, and
// the totals are the rows' sums.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DayRecords } from '../../main/core/staff/day-records';
import { buildZReport } from '../../main/core/staff/z-report';
import { buildStoreDay, dayWindow, sumFigures } from '../../main/core/store-mode/store-z';
import type { ReplicaDayDoc } from '../../store/store-replicas';

const DAY = '2027-01-15';
const { from, to } = dayWindow(DAY, 'UTC');
const EMPTY: DayRecords = { businessDay: DAY, currency: 'usd', location: 'Main', till: 'A', generatedAt: new Date(to).toISOString(), sales: [], payments: [], refunds: [], voids: [], openChecks: [], walkouts: [], reopenings: [], shifts: [] };

interface Money {
  amount: number;
  tip: number;
  at: number;
  refund: { amount: number; at: number } | null;
}
interface Sold {
  status: 'open' | 'fulfilled' | 'cancelled';
  onDay: boolean;
  prices: number[];
  created: number;
  updated: number;
  payments: Money[];
}

/** A time on the day, or on the day after (outside its window). */
const time = fc.oneof(fc.integer({ min: from, max: to - 1 }), fc.integer({ min: to, max: to + 20 * 3_600_000 }));
const money = fc.record({
  amount: fc.integer({ min: 1, max: 5_000 }),
  tip: fc.integer({ min: 0, max: 500 }),
  at: time,
  refund: fc.option(fc.record({ amount: fc.integer({ min: 1, max: 1 }), at: time }), { nil: null }),
});
const sold = fc.record({
  status: fc.constantFrom('open', 'fulfilled', 'cancelled'),
  onDay: fc.boolean(),
  prices: fc.array(fc.integer({ min: 50, max: 3_000 }), { minLength: 1, maxLength: 3 }),
  created: fc.integer({ min: from, max: to - 1 }),
  updated: time,
  payments: fc.array(money, { maxLength: 2 }),
});
const tills = fc.array(fc.array(sold, { maxLength: 4 }), { minLength: 1, maxLength: 3 });

function docsOf(days: Sold[][]): ReplicaDayDoc[] {
  const docs: ReplicaDayDoc[] = [];
  days.forEach((orders, t) => {
    const origin = String(t + 1).repeat(64);
    const doc = (kind: string, id: string, orderId: string, body: Record<string, unknown>) => docs.push({ origin, kind, id, orderId, synced: true, doc: body });
    orders.forEach((o, n) => {
      const id = `ord_${t}_${n}`;
      const total = o.prices.reduce((a, b) => a + b, 0);
      doc('order', id, id, {
        id, location_id: 'loc', status: o.status, currency: 'usd', customer: null, notes: '', total, check_total: total,
        lines: o.prices.map((price, i) => ({ menu_item_id: `mi_${i}`, name: `Item ${i}`, quantity: 1, unit_price: price, modifiers: [] })),
        created_at: o.created, updated_at: Math.max(o.created, o.updated), number: `B${n}`, business_day: o.onDay ? DAY : '2027-01-14',
      });
      o.payments.forEach((p, k) => {
        const payId = `pay_${t}_${n}_${k}`;
        doc('payment', payId, id, { id: payId, order_id: id, payment_intent_id: null, method: 'cash', amount: p.amount + p.tip, tip: p.tip, currency: 'usd', status: 'succeeded', created_at: p.at, split_part: null });
        if (p.refund) doc('refund', `ref_${t}_${n}_${k}`, id, { id: `ref_${t}_${n}_${k}`, payment_id: payId, amount: p.refund.amount, currency: 'usd', reason: 'other', status: 'succeeded', created_at: p.refund.at });
      });
    });
  });
  return docs;
}

const inDay = (ms: number) => ms >= from && ms < to;

describe("the store's day from replicas", () => {
  it('counts each order of the day once and each cent of the day once, across random tills', () => {
    fc.assert(
      fc.property(tills, (days) => {
        const store = buildStoreDay({
          day: DAY,
          timeZone: 'UTC',
          now: to + 21 * 3_600_000,
          currency: 'usd',
          self: { tillId: 'self', name: 'Front', report: buildZReport(EMPTY) },
          others: days.map((_, t) => ({ tillId: String(t + 1).repeat(64), name: `Till ${t + 1}`, heardAt: to + 3_600_000 })),
          docs: docsOf(days),
          categoryOf: () => null,
        });
        expect(store.totals).toEqual(sumFigures(store.tills.map((t) => t.figures)));
        expect(store.incomplete).toEqual([]);
        const all = days.flat();
        const money = all.flatMap((o) => o.payments);
        const add = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        expect(store.totals.cash).toBe(add(money.filter((p) => inDay(p.at)).map((p) => p.amount)));
        expect(store.totals.tips).toBe(add(money.filter((p) => inDay(p.at)).map((p) => p.tip)));
        expect(store.totals.refunds).toBe(add(money.flatMap((p) => (p.refund && inDay(p.refund.at) ? [p.refund.amount] : []))));
        expect(store.totals.card).toBe(0);
        const cancelledOnDay = all.filter((o) => o.status === 'cancelled' && inDay(Math.max(o.created, o.updated)));
        expect(store.totals.voids.count).toBe(cancelledOnDay.length);
        // Each order sold on the day is a sale, an open check, or was cancelled by the day's end: one of them, once.
        const ofDay = all.filter((o) => o.onDay);
        const cancelledByEnd = ofDay.filter((o) => o.status === 'cancelled' && Math.max(o.created, o.updated) < to);
        expect(store.totals.orders + store.totals.openChecks.count + cancelledByEnd.length).toBe(ofDay.length);
        expect(store.totals.openChecks.due).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 150 },
    );
  });

  it('names a till heard before the close, and one known only from its log', () => {
    const store = buildStoreDay({
      day: DAY,
      timeZone: 'UTC',
      now: to + 3_600_000,
      currency: 'usd',
      self: { tillId: 'self', name: 'Front', report: buildZReport(EMPTY) },
      others: [
        { tillId: '1'.repeat(64), name: 'Bar', heardAt: to - 3_600_000 * 6 - 20 * 60_000 },
        { tillId: '2'.repeat(64), name: 'Patio', heardAt: null },
        { tillId: '3'.repeat(64), name: 'Host', heardAt: to + 60_000 },
      ],
      docs: [],
      categoryOf: () => null,
    });
    expect(store.incomplete).toEqual([
      'Bar: last heard at 21:40, before the day closed at 04:00 — its figures may be incomplete.',
      'Patio: known only from its log here, never heard from since — its figures may be incomplete.',
    ]);
    expect(store.tills.map((t) => t.name)).toEqual(['Front', 'Bar', 'Host', 'Patio']);
  });
});
