// Tips, split checks and refund by item: every way of cutting a check up must add back to it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocate,
  CheckoutError,
  DEFAULT_TIP_PERCENTS_BPS,
  priceCheck,
  refundForUnits,
  splitByItems,
  splitEvenly,
  tipFor,
  type CheckLineInput,
  type PricingRules,
} from '../../bridge/checkout';

const RUNS = { numRuns: 300 };
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const due = fc.oneof(fc.nat(100_000), fc.constant(0), fc.integer({ min: 0, max: 1e11 }));
const line = (unitPrice: number, extra: Partial<CheckLineInput> = {}): CheckLineInput => ({ quantity: 1, unitPrice, taxClass: 'food', discount: null, ...extra });
const nyc: PricingRules = { taxIncluded: false, rounding: 'per_order', rates: [{ taxClass: 'food', name: 'Sales tax', ratePpm: 87_500 }] };

// A priced check, with quantities: cents or yen, sometimes a percent off, either tax style.
const checkArb = fc
  .record({
    lines: fc.array(
      fc.record({
        quantity: fc.integer({ min: 1, max: 12 }),
        unitPrice: fc.oneof(fc.nat(5000), fc.constant(0), fc.integer({ min: 0, max: 1e9 })),
        discountBps: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
      }),
      { minLength: 1, maxLength: 8 },
    ),
    orderBps: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
    taxIncluded: fc.boolean(),
    rounding: fc.constantFrom<'per_line' | 'per_order'>('per_line', 'per_order'),
    ratePpm: fc.oneof(fc.integer({ min: 0, max: 250_000 }), fc.constant(88_750)),
  })
  .map(({ lines, orderBps, taxIncluded, rounding, ratePpm }) => {
    const inputs = lines.map(({ quantity, unitPrice, discountBps }) => ({
      quantity,
      unitPrice,
      taxClass: 'food',
      discount: discountBps === null ? null : { kind: 'percent' as const, value: discountBps, reason: 'promo' },
    }));
    const check = priceCheck(inputs, orderBps === null ? null : { kind: 'percent', value: orderBps, reason: 'staff' }, {
      taxIncluded,
      rounding,
      rates: [{ taxClass: 'food', name: 'Tax', ratePpm }],
    });
    return { inputs, check };
  });

describe('tipFor', () => {
  it('is the percentage of the base, rounded half away from zero', () => {
    expect(DEFAULT_TIP_PERCENTS_BPS).toEqual([1500, 1800, 2000]);
    expect(DEFAULT_TIP_PERCENTS_BPS.map((bps) => tipFor(4250, bps))).toEqual([638, 765, 850]); // 637.5 → 638
    expect(tipFor(1999, 1800)).toBe(360); // 359.82
    expect(tipFor(0, 2000)).toBe(0);
    expect(tipFor(3500, 0)).toBe(0);
    expect(tipFor(4800, 1500)).toBe(720); // ¥4,800 → ¥720
  });

  it.each<[string, number, number, RegExp]>([
    ['a negative base', -100, 1500, /cannot be negative/],
    ['a fractional base', 10.5, 1500, /must be a whole number/],
    ['a tip over 100%', 1000, 15_000, /A tip of 150% is not possible: a suggested tip is between 0% and 100%./],
    ['a negative tip', 1000, -100, /A tip of -1% is not possible/],
  ])('refuses %s', (_why, base, bps, message) => {
    expect(() => tipFor(base, bps)).toThrow(CheckoutError);
    expect(() => tipFor(base, bps)).toThrow(message);
  });
});

describe('splitEvenly', () => {
  it('parts add up to what is due and differ by at most one unit', () => {
    fc.assert(
      fc.property(due, fc.integer({ min: 1, max: 50 }), (amount, n) => {
        const parts = splitEvenly(amount, n);
        expect(parts).toHaveLength(n);
        expect(sum(parts.map((p) => p.amount))).toBe(amount);
        expect(Math.max(...parts.map((p) => p.amount)) - Math.min(...parts.map((p) => p.amount))).toBeLessThanOrEqual(1);
        expect(parts.map((p) => p.label)).toEqual(parts.map((_, i) => `${i + 1} of ${n}`));
        parts.forEach((p) => expect(p.lineIndexes).toEqual([]));
      }),
      RUNS,
    );
  });

  it('gives the odd units to the first payers', () => {
    expect(splitEvenly(1000, 3)).toEqual([
      { label: '1 of 3', amount: 334, lineIndexes: [] },
      { label: '2 of 3', amount: 333, lineIndexes: [] },
      { label: '3 of 3', amount: 333, lineIndexes: [] },
    ]);
    expect(splitEvenly(0, 2).map((p) => p.amount)).toEqual([0, 0]);
    expect(splitEvenly(2555, 1).map((p) => p.amount)).toEqual([2555]);
  });

  it.each<[string, number, number, RegExp]>([
    ['0 ways', 1000, 0, /A check can be split between 1 and 50 ways \(got 0\)./],
    ['51 ways', 1000, 51, /between 1 and 50 ways \(got 51\)/],
    ['2.5 ways', 1000, 2.5, /got 2.5/],
    ['a negative amount', -1, 2, /cannot be negative/],
  ])('refuses %s', (_why, amount, n, message) => {
    expect(() => splitEvenly(amount, n)).toThrow(CheckoutError);
    expect(() => splitEvenly(amount, n)).toThrow(message);
  });
});

describe('splitByItems', () => {
  it('each check pays for its own lines, and the checks add up to the check total', () => {
    fc.assert(
      fc.property(checkArb, fc.nat(), fc.array(fc.nat(), { maxLength: 8 }), ({ check }, partsSeed, picks) => {
        const n = check.lines.length;
        const parts = 1 + (partsSeed % n);
        // Lines 0..parts-1 make sure every check gets one; the rest go anywhere.
        const assignment = check.lines.map((_, i) => (i < parts ? parts - i : 1 + ((picks[i] ?? i) % parts)));
        const split = splitByItems(check, assignment);
        expect(split).toHaveLength(parts);
        expect(sum(split.map((p) => p.amount))).toBe(check.total);
        split.forEach((p, k) => {
          expect(p.label).toBe(`${k + 1} of ${parts}`);
          expect(p.lineIndexes.length).toBeGreaterThan(0);
          expect(p.lineIndexes.every((i) => assignment[i] === k + 1)).toBe(true);
          expect(p.amount).toBe(sum(p.lineIndexes.map((i) => check.lines[i]!.total)));
        });
        expect(split.flatMap((p) => p.lineIndexes).sort((a, b) => a - b)).toEqual(check.lines.map((_, i) => i));
      }),
      RUNS,
    );
  });

  it('splits $10.00 + 3 × $4.50 at 8.75% per order by who had what', () => {
    const check = priceCheck([line(1000), line(450), line(450), line(450)], null, nyc);
    expect(check.total).toBe(2556);
    expect(splitByItems(check, [1, 2, 1, 2])).toEqual([
      { label: '1 of 2', amount: 1088 + 489, lineIndexes: [0, 2] },
      { label: '2 of 2', amount: 490 + 489, lineIndexes: [1, 3] },
    ]);
  });

  const check = priceCheck([line(1000), line(450), line(450)], null, nyc);
  it.each<[string, number[], RegExp]>([
    ['a check left empty', [1, 3, 3], /^Check 2 of 3 has no items: move an item to it or split into fewer checks.$/],
    ['a far-off check number', [1, 1, 1e12], /^Check 2 of 1000000000000 has no items/],
    ['an item with no check', [1, 2], /^Every item must go to a check: 2 of the 3 items have one.$/],
    ['a negative check', [1, -1, 1], /^Item 2 is put on check -1; checks are numbered from 1 \(0: shared\).$/],
    ['every item shared', [0, 0, 0], /^Every item is shared: put at least one on check 1.$/],
    ['check 1.5', [1, 1.5, 1], /Item 2 is put on check 1.5/],
  ])('refuses %s', (_why, assignment, message) => {
    expect(() => splitByItems(check, assignment)).toThrow(CheckoutError);
    expect(() => splitByItems(check, assignment)).toThrow(message);
  });

  it('refuses to split a check with no items', () => {
    expect(() => splitByItems(priceCheck([], null, nyc), [])).toThrow('There are no items on this check to split.');
  });
});

describe('refundForUnits', () => {
  it('refunding every unit, in chunks of any size, gives back exactly the line total, smaller units first', () => {
    fc.assert(
      fc.property(checkArb, fc.nat(), fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 12, maxLength: 12 }), ({ inputs, check }, pick, chunks) => {
        const lineIndex = pick % check.lines.length;
        const quantity = inputs[lineIndex]!.quantity;
        const units = allocate(check.lines[lineIndex]!.total, new Array<number>(quantity).fill(1));
        let refunded = 0;
        let returned = 0;
        for (const chunk of chunks) {
          if (refunded === quantity) break;
          const take = Math.min(chunk, quantity - refunded);
          const amount = refundForUnits(check, lineIndex, quantity, refunded, take);
          // The same as the matching units of allocate(total, ones), taken from the end.
          expect(amount).toBe(sum(units.slice(quantity - refunded - take, quantity - refunded)));
          returned += amount;
          refunded += take;
        }
        expect(refunded).toBe(quantity);
        expect(returned).toBe(check.lines[lineIndex]!.total);
        expect(() => refundForUnits(check, lineIndex, quantity, quantity, 1)).toThrow(CheckoutError);
      }),
      RUNS,
    );
  });

  it('refunds one of three $4.50 coffees after a 10% order discount and tax', () => {
    // Line 0: 3 × $4.50 = 13.50, 10% off → 12.15 (share of 1.35 → 1.35), tax 8.75% per line = 1.063 → 1.06: 13.21.
    const check = priceCheck([line(450, { quantity: 3 })], { kind: 'percent', value: 1000, reason: 'staff' }, { ...nyc, rounding: 'per_line' });
    expect(check.lines[0]!.total).toBe(1321); // units: 441, 440, 440
    expect(refundForUnits(check, 0, 3, 0, 1)).toBe(440);
    expect(refundForUnits(check, 0, 3, 1, 1)).toBe(440);
    expect(refundForUnits(check, 0, 3, 2, 1)).toBe(441);
    expect(refundForUnits(check, 0, 3, 0, 3)).toBe(1321);
  });

  it('handles a line of many units without listing them', () => {
    const check = priceCheck([line(7, { quantity: 1_000_000 })], null, nyc);
    expect(refundForUnits(check, 0, 1_000_000, 0, 1_000_000)).toBe(check.lines[0]!.total);
  });

  const check = priceCheck([line(450, { quantity: 3 }), line(1000)], null, nyc);
  it.each<[string, () => unknown, RegExp]>([
    ['more units than are left', () => refundForUnits(check, 0, 3, 2, 2), /^Only 1 of the 3 on this line can still be refunded \(2 already were\); 2 were asked for.$/],
    ['0 units', () => refundForUnits(check, 0, 3, 0, 0), /The number of units to refund must be a whole number of at least 1 \(got 0\)./],
    ['a negative already-refunded count', () => refundForUnits(check, 0, 3, -1, 1), /already refunded must be a whole number of at least 0/],
    ['a line that is not on the check', () => refundForUnits(check, 2, 1, 0, 1), /^There is no item 3 on this check.$/],
    ['a quantity that does not match the line', () => refundForUnits(check, 0, 4, 0, 1), /^Item 1 was not sold as 4 units/],
  ])('refuses %s', (_why, run, message) => {
    expect(run).toThrow(CheckoutError);
    expect(run).toThrow(message);
  });
});
