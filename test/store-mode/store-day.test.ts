// The Z report's store view (reports.storeZ, main/core/store-mode/store-z.ts): three real cores in store
// mode sell on one day; the other two tills' logs are applied as pages to the first's replicas, as its
// feed would. Each till's row equals that till's own Z report (net and tax apart for the others: their
// tax rules are not replicated, and the report says so), the totals are the rows' sums, and a till last
// heard before the day closed is named in a sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZReport } from '../../bridge/reports/contract';
import type { StoreDay, StoreDayFigures } from '../../bridge/store-mode/contract';
import { ManualClock } from '../../common/clock';
import { dayFigures, PER_TILL_ONLY, sumFigures } from '../../main/core/store-mode/store-z';
import { ITEMS, reopenStore, STAFF, startTestCore, type TestCore } from '../core/fixtures';
import { freePort } from './fixtures/ports';

const SECRET = Buffer.alloc(32, 0x5c).toString('base64');
const T0 = 1_800_000_000_000;
const HOUR = 3_600_000;

interface Till {
  t: TestCore;
  clock: ManualClock;
  id: string;
  name: string;
}

async function startTill(name: string): Promise<Till> {
  const clock = new ManualClock(T0);
  const port = await freePort();
  const t = await startTestCore({ staff: { autoLockMinutes: 0 }, storeMode: { mode: 'on', listen: `127.0.0.1:${port}`, tillName: name, secret: SECRET } }, { clock });
  const status = await t.call('storeMode.status', {});
  return { t, clock, id: status.till!.id, name };
}

/** A small day: paid in cash with a tip, by card with a tip, a refund, a void, a check left open. */
async function sell(till: Till, scale: number): Promise<void> {
  const { t, clock } = till;
  const cash = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: scale }, { menuItemId: ITEMS.latte, quantity: 1 }] });
  const paid = await t.call('payments.take', { orderId: cash.id, method: 'cash', amount: cash.total });
  clock.advance(60_000);
  const card = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.soup, quantity: scale + 1 }] });
  await t.call('payments.take', { orderId: card.id, method: 'card', amount: card.total, tip: 150 * scale });
  clock.advance(60_000);
  const refundable = paid.payment;
  await t.call('payments.refund', { paymentId: refundable.id, amount: 100 * scale, reason: 'other', note: 'Cold latte', managerPin: STAFF.manager.pin });
  const voided = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }] });
  await t.call('orders.cancel', { id: voided.id, reason: 'Rung up by mistake', managerPin: STAFF.manager.pin });
  const open = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
  await t.call('payments.take', { orderId: open.id, method: 'cash', amount: 200 });
  clock.advance(60_000);
}

/** Hands `from`'s whole log to `to`'s replicas as one page, heard at `heardAt` (the feed's sink does the same). */
function feed(from: Till, to: Till, heardAt: number): void {
  const source = reopenStore(from.t.dataDir);
  const replica = reopenStore(to.t.dataDir);
  try {
    replica.replicas.nameTill(from.id, from.name);
    replica.replicas.apply(from.id, source.log.logId(), source.log.read(0, 10_000), heardAt, to.id);
  } finally {
    source.close();
    replica.close();
  }
}

const row = (day: StoreDay, till: Till): StoreDayFigures => {
  const found = day.tills.find((t) => t.tillId === till.id);
  if (!found) throw new Error(`${till.name} has no row`);
  return found.figures;
};

describe("the store's day", () => {
  let front: Till;
  let bar: Till;
  let patio: Till;
  const own = new Map<string, ZReport>();

  beforeAll(async () => {
    front = await startTill('Front');
    bar = await startTill('Bar');
    patio = await startTill('Patio');
    await sell(front, 1);
    await sell(bar, 2);
    await sell(patio, 3);
    for (const till of [front, bar, patio]) own.set(till.id, await till.t.call('reports.z', {}));
    feed(bar, front, front.clock.now());
    feed(patio, front, front.clock.now() - HOUR);
  }, 60_000);

  afterAll(async () => {
    for (const till of [front, bar, patio]) await till?.t.core.shutdown();
  });

  it("gives each till's row as its own Z report has it, and totals that are exactly the rows' sums", async () => {
    const day = await front.t.call('reports.storeZ', {});
    expect(day.businessDay).toBe(own.get(front.id)!.businessDay);
    expect(day.tills.map((t) => [t.name, t.self])).toEqual([['Front', true], ['Bar', false], ['Patio', false]]);
    // This till's row is its own Z report's figures, tax and all.
    expect(row(day, front)).toEqual(dayFigures(own.get(front.id)!));
    // The others: every figure their own report has, net and tax included (their tax rules travel with their orders).
    for (const till of [bar, patio]) {
      const report = own.get(till.id)!;
      expect(report.sales.orders).toBe(2);
      expect(report.voids.count).toBe(1);
      expect(report.openChecks.count).toBe(1);
      expect(row(day, till)).toEqual(dayFigures(report));
    }
    expect(day.perTillOnly).toEqual([PER_TILL_ONLY.staff]);
    expect(day.totals).toEqual(sumFigures(day.tills.map((t) => t.figures)));
    // No cent created or lost: each money figure of the totals is the three own reports' added up.
    const reports = [...own.values()];
    const add = (pick: (r: ZReport) => number) => reports.reduce((total, r) => total + pick(r), 0);
    expect(day.totals).toMatchObject({
      orders: 6,
      net: add((r) => r.sales.net),
      tax: add((r) => r.sales.tax),
      total: add((r) => r.sales.total),
      cash: add((r) => r.byTender.find((x) => x.method === 'cash')!.amount),
      card: add((r) => r.byTender.find((x) => x.method === 'card')!.amount),
      tips: add((r) => r.tips.card + r.tips.cash),
      refunds: add((r) => r.refunds.amount),
      voids: { count: 3, amount: add((r) => r.voids.amount) },
      openChecks: { count: 3, total: add((r) => r.openChecks.total), due: add((r) => r.openChecks.due) },
    });
    expect(day.totals.tips).toBe(150 * 6);
    // The day has not closed: no till is named as quiet.
    expect(day.incomplete).toEqual([]);
  });

  it('names a till last heard before the day closed, once the day has closed', async () => {
    const { businessDay } = await front.t.call('reports.storeZ', {});
    front.clock.advance(24 * HOUR);
    // Bar is heard again after the close; Patio is not.
    feed(bar, front, front.clock.now());
    const day = await front.t.call('reports.storeZ', { day: businessDay });
    expect(day.incomplete).toHaveLength(1);
    expect(day.incomplete[0]).toMatch(/^Patio: last heard at \d\d:\d\d, before the day closed at \d\d:\d\d — its figures may be incomplete\.$/);
    // The figures of a past day read again as they were.
    expect(row(day, bar)).toEqual(dayFigures(own.get(bar.id)!));
  });

  it('is this till alone with store mode off', async () => {
    const clock = new ManualClock(T0);
    const alone = await startTestCore({}, { clock });
    try {
      const report = await alone.call('reports.z', {});
      const day = await alone.call('reports.storeZ', {});
      expect(day.tills).toHaveLength(1);
      expect(day.tills[0]!.figures).toEqual(dayFigures(report));
      expect(day.totals).toEqual(day.tills[0]!.figures);
      expect(day.perTillOnly).toEqual([]);
    } finally {
      await alone.core.shutdown();
    }
  });
});
