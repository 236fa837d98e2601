// A split by seat (bridge/checkout/split.ts seatAssignment + splitByItems with shared lines): for
// any priced order, each seat's check is its own lines plus an even share of the table's lines,
// and the checks add up to the order's total, to the cent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckoutError, priceCheck } from '../../bridge/checkout';
import { seatAssignment, splitByItems } from '../../bridge/checkout/split';

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

// A priced order whose lines sit at seats 1..40 or at none (for the table); discounts, either tax style.
const orderArb = fc
  .record({
    lines: fc.array(
      fc.record({
        quantity: fc.integer({ min: 1, max: 12 }),
        unitPrice: fc.oneof(fc.nat(5000), fc.constant(0), fc.integer({ min: 0, max: 1e8 })),
        discountBps: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
        seat: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null, freq: 3 }),
      }),
      { minLength: 1, maxLength: 30 },
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
    const check = priceCheck(inputs, orderBps === null ? null : { kind: 'percent', value: orderBps, reason: 'staff' }, { taxIncluded, rounding, rates: [{ taxClass: 'food', name: 'Tax', ratePpm }] });
    return { seats: lines.map((l) => l.seat), check };
  });

describe('a split by seat', () => {
  it('adds up to the order’s total; each check is its seat’s lines plus an even share of the table’s, the odd cents on the first checks', () => {
    fc.assert(
      fc.property(orderArb, ({ seats, check }) => {
        const assignment = seatAssignment(seats);
        const distinct = [...new Set(seats.filter((s) => s !== null))].sort((a, b) => a - b);
        if (distinct.length < 2) {
          expect(assignment).toBeNull();
          return;
        }
        const parts = splitByItems(check, assignment!);
        expect(parts).toHaveLength(distinct.length);
        expect(sum(parts.map((p) => p.amount))).toBe(check.total);
        const shared = sum(seats.flatMap((seat, i) => (seat === null ? [check.lines[i]!.total] : [])));
        const shares = parts.map((part, k) => {
          // Check k is seat distinct[k]'s: exactly its lines.
          expect(part.lineIndexes).toEqual(seats.flatMap((seat, i) => (seat === distinct[k] ? [i] : [])));
          return part.amount - sum(part.lineIndexes.map((i) => check.lines[i]!.total));
        });
        expect(sum(shares)).toBe(shared);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
        expect(shares).toEqual([...shares].sort((a, b) => b - a));
      }),
      { numRuns: 300 },
    );
  });

  it('is not offered with fewer than two seats, and a split with every line shared is refused', () => {
    expect(seatAssignment([null, 3, 3, null])).toBeNull();
    expect(seatAssignment([2, null, 7, 2])).toEqual([1, 0, 2, 1]);
    const check = priceCheck([{ quantity: 1, unitPrice: 1000, taxClass: 'food', discount: null }], null, { taxIncluded: false, rounding: 'per_order', rates: [] });
    expect(() => splitByItems(check, [0])).toThrow(CheckoutError);
  });
});
