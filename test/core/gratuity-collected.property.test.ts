// What a check's payments collected of its automatic gratuity, whatever the check, however its guests
// change between payments and whatever voluntary tips are given (docs/tables.md, "Automatic
// gratuity"): on a real core and SQLite file, each payment carrying the least tip the core asks plus
// a voluntary one. The gratuity collected is what the payments were asked for it, never more than it
// charges; with the voluntary tips it makes up every tip to the cent; the day's report adds the same.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { gratuityPartWith } from '../../bridge/checkout/index';
import { ITEMS, startTestCore, type TestCore } from './fixtures';
import { GRATUITY_CONFIG } from './gratuity-fixtures';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.core.shutdown();
  t = undefined;
});

const seated = (guests: number) => ({ type: 'dine_in' as const, table: '12', guests });

const step = fc.record({
  /** The party before this payment: the same, or a new count (across the threshold or not). */
  guests: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
  /** This payment's share of what is due, in percent (the last payment settles the check). */
  share: fc.integer({ min: 1, max: 100 }),
  voluntary: fc.integer({ min: 0, max: 2_500 }),
});

const check = fc.record({
  burgers: fc.integer({ min: 1, max: 10 }),
  fries: fc.integer({ min: 0, max: 6 }),
  guests: fc.integer({ min: 1, max: 12 }),
  steps: fc.array(step, { minLength: 1, maxLength: 4 }),
});

describe('the gratuity collected, for any check, party and tips', () => {
  it('is what the payments were asked for it (all of it once paid), never more than it charges, and with the voluntary tips makes up every tip', async () => {
    t = await startTestCore(GRATUITY_CONFIG);
    const core = t;
    const day = { tips: 0, collected: 0 };
    await fc.assert(
      fc.asyncProperty(check, async ({ burgers, fries, guests, steps }) => {
        const lines = [{ menuItemId: ITEMS.burger, quantity: burgers }, ...(fries > 0 ? [{ menuItemId: ITEMS.fries, quantity: fries }] : [])];
        let view = await core.call('orders.place', { lines, service: seated(guests) });
        let tips = 0;
        let voluntaryGiven = 0;
        let asked = 0;
        let paid = 0;
        for (const [index, next] of steps.entries()) {
          const due = view.total - view.paidAmount;
          if (due === 0) break;
          if (next.guests !== null && next.guests !== view.service.guests) view = await core.call('orders.update', { id: view.id, service: seated(next.guests) });
          const amount = index === steps.length - 1 ? due : Math.max(1, Math.floor((due * next.share) / 100));
          const required = gratuityPartWith(view.gratuity, view.total, view.paidAmount, amount);
          const tip = required + next.voluntary;
          view = (await core.call('payments.take', { orderId: view.id, method: 'card', amount, tip })).order;
          tips += tip;
          voluntaryGiven += next.voluntary;
          asked += required;
          paid += amount;
        }
        const final = await core.call('orders.get', { id: view.id });
        // No cent created or lost: the order holds every amount and every tip taken.
        expect(final.paidAmount).toBe(paid);
        expect(final.paidAmount).toBe(final.total);
        expect(final.tipTotal).toBe(tips);
        const collected = final.gratuity?.collected ?? 0;
        const voluntaryShown = final.tipTotal - collected;
        expect(collected).toBeGreaterThanOrEqual(0);
        expect(collected).toBeLessThanOrEqual(final.gratuity?.charged ?? 0);
        expect(collected + voluntaryShown).toBe(tips);
        if (final.gratuity !== null) {
          // The party, at the threshold at the end, paid all of it, and every voluntary tip stayed a tip.
          expect(collected).toBe(asked);
          expect(collected).toBe(final.gratuity.charged);
          expect(voluntaryShown).toBe(voluntaryGiven);
        }
        day.tips += tips;
        day.collected += collected;
      }),
      { numRuns: 25 },
    );
    const z = await core.call('reports.z', {});
    expect(z.tips.card).toBe(day.tips);
    expect(z.gratuity.collected).toBe(day.collected);
  });
});
