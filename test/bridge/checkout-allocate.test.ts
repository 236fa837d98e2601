// allocate, applyBps and applyPpm: the primitives every checkout figure is built from. A unit
// created or lost here shows up as a till that does not balance.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, applyBps, applyPpm, CheckoutError, describeRatePpm } from '../../bridge/checkout';

const RUNS = { numRuns: 400 };
// Cents of a café and yen of a banquet hall alike: small amounts, 0, and zero-decimal-sized totals.
const amount = fc.oneof(fc.integer({ min: -100_000, max: 100_000 }), fc.constant(0), fc.integer({ min: -1e11, max: 1e11 }));
const weights = fc.array(fc.oneof(fc.nat(1000), fc.constant(0), fc.nat(1e9)), { minLength: 1, maxLength: 12 });

describe('allocate', () => {
  it('sums exactly, keeps the sign of the total and stays within one unit of the exact share', () => {
    fc.assert(
      fc.property(amount, weights, (total, ws) => {
        const parts = allocate(total, ws);
        expect(parts).toHaveLength(ws.length);
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
        const weightSum = ws.reduce((a, b) => a + b, 0);
        parts.forEach((part, i) => {
          expect(Number.isSafeInteger(part)).toBe(true);
          expect(Object.is(part, -0)).toBe(false);
          if (total > 0) expect(part).toBeGreaterThanOrEqual(0);
          if (total < 0) expect(part).toBeLessThanOrEqual(0);
          if (total === 0) expect(part).toBe(0);
          // Exact share in BigInt, compared as |part × W − total × w| < W.
          const W = BigInt(weightSum === 0 ? ws.length : weightSum);
          const w = BigInt(weightSum === 0 ? 1 : (ws[i] ?? 0));
          const gap = BigInt(part) * W - BigInt(total) * w;
          expect((gap < 0n ? -gap : gap) < W).toBe(true);
        });
      }),
      RUNS,
    );
  });

  it('splits a negative total as the mirror of the positive one', () => {
    fc.assert(
      fc.property(amount, weights, (total, ws) => {
        expect(allocate(-total, ws)).toEqual(allocate(total, ws).map((part) => 0 - part));
      }),
      RUNS,
    );
  });

  it('uses the largest remainders and gives ties to the earlier index', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(allocate(2, [1, 1, 1])).toEqual([1, 1, 0]);
    // 10 × [1, 2, 3] / 6 = 1.67, 3.33, 5: the .67 wins the leftover unit.
    expect(allocate(10, [1, 2, 3])).toEqual([2, 3, 5]);
    expect(allocate(1000, [1000, 0, 450])).toEqual([690, 0, 310]);
    expect(allocate(7, [0, 5, 0])).toEqual([0, 7, 0]);
  });

  it('splits evenly when every weight is 0, and returns [] for 0 over nothing', () => {
    expect(allocate(10, [0, 0, 0])).toEqual([4, 3, 3]);
    expect(allocate(0, [0, 0])).toEqual([0, 0]);
    expect(allocate(0, [])).toEqual([]);
  });

  it('stays exact beyond 2^53 intermediate products (yen totals × large weights)', () => {
    expect(allocate(99_999_999_999, [999_999_999, 1])).toEqual([99_999_999_899, 100]);
    expect(allocate(Number.MAX_SAFE_INTEGER, [1, 1])).toEqual([4_503_599_627_370_496, 4_503_599_627_370_495]);
  });

  it.each<[string, number, number[]]>([
    ['a total with nowhere to go', 5, []],
    ['a negative weight', 10, [1, -1]],
    ['a fractional weight', 10, [1.5, 1]],
    ['a fractional total', 10.5, [1, 1]],
    ['an unsafe total', Number.MAX_SAFE_INTEGER + 2, [1]],
    ['NaN', Number.NaN, [1]],
  ])('refuses %s', (_why, total, ws) => {
    expect(() => allocate(total, ws)).toThrow(CheckoutError);
  });

  it('says what is wrong in words', () => {
    expect(() => allocate(10, [1, -1])).toThrow('The share 2 of the split cannot be negative (got -1).');
    expect(() => allocate(10.5, [1])).toThrow('The amount to split must be a whole number (got 10.5).');
  });
});

describe('applyBps', () => {
  it('rounds half away from zero', () => {
    expect(applyBps(1000, 875)).toBe(88); // 87.5
    expect(applyBps(-1000, 875)).toBe(-88);
    expect(applyBps(1449, 1000)).toBe(145); // 144.9
    expect(applyBps(1444, 1000)).toBe(144); // 144.4
    expect(applyBps(1, 5000)).toBe(1); // 0.5
    expect(applyBps(1, 4999)).toBe(0);
    expect(applyBps(0, 10_000)).toBe(0);
    expect(applyBps(1234, 10_000)).toBe(1234);
  });

  it('is exact for zero-decimal-sized amounts where doubles would drop units', () => {
    // 99,999,999,999 × 8,875 ≈ 8.9e14 × 10: past 2^53 in the intermediate product.
    expect(applyBps(99_999_999_999, 8875)).toBe(88_749_999_999); // 88,749,999,999.1125
    expect(applyBps(100_000_000_001, 5000)).toBe(50_000_000_001); // .5 rounds up
    fc.assert(
      fc.property(fc.integer({ min: -1e11, max: 1e11 }), fc.integer({ min: 0, max: 10_000 }), (a, bps) => {
        const exact = BigInt(a) * BigInt(bps);
        const got = BigInt(applyBps(a, bps));
        // Within half a unit of the exact value; on an exact half, the result is the one further from zero.
        const abs = (x: bigint) => (x < 0n ? -x : x);
        const gap = abs(got * 10_000n - exact);
        expect(gap <= 5000n).toBe(true);
        if (gap === 5000n) expect(abs(got) * 10_000n > abs(exact)).toBe(true);
      }),
      RUNS,
    );
  });

  it('refuses non-integers and results beyond the safe range', () => {
    expect(() => applyBps(10.5, 100)).toThrow(CheckoutError);
    expect(() => applyBps(100, 87.5)).toThrow(CheckoutError);
    expect(() => applyBps(Number.MAX_SAFE_INTEGER, 20_000)).toThrow('too large to compute exactly');
  });
});

describe('applyPpm', () => {
  it('rounds half away from zero, to a millionth of the amount', () => {
    expect(applyPpm(1000, 88_750)).toBe(89); // 8.875% of $10.00 = 88.75
    expect(applyPpm(-1000, 88_750)).toBe(-89);
    expect(applyPpm(450, 88_750)).toBe(40); // 39.9375
    expect(applyPpm(1000, 87_500)).toBe(88); // 87.5
    expect(applyPpm(1, 500_000)).toBe(1); // 0.5
    expect(applyPpm(1, 499_999)).toBe(0);
    expect(applyPpm(-1, 500_000)).toBe(-1);
    expect(applyPpm(1_000_000, 1)).toBe(1); // 0.0001% of 1,000,000
    expect(applyPpm(0, 10_000_000)).toBe(0);
    expect(applyPpm(1234, 1_000_000)).toBe(1234);
    expect(applyPpm(1234, 10_000_000)).toBe(12_340);
  });

  it('is exact for zero-decimal-sized amounts where doubles would drop units', () => {
    expect(applyPpm(99_999_999_999, 88_750)).toBe(8_875_000_000); // 8,874,999,999.91125
    // 99,999,999,999 × 500,001 ≈ 5e16 is past 2^53: doubles round this .499999 up to a whole unit too many.
    expect(applyPpm(99_999_999_999, 500_001)).toBe(50_000_099_999); // 50,000,099,999.499999
    expect(applyPpm(100_000_000_001, 500_000)).toBe(50_000_000_001); // .5 rounds up
    fc.assert(
      fc.property(fc.integer({ min: -1e11, max: 1e11 }), fc.integer({ min: 0, max: 10_000_000 }), (a, ppm) => {
        const exact = BigInt(a) * BigInt(ppm);
        const got = BigInt(applyPpm(a, ppm));
        const abs = (x: bigint) => (x < 0n ? -x : x);
        const gap = abs(got * 1_000_000n - exact);
        expect(gap <= 500_000n).toBe(true);
        if (gap === 500_000n) expect(abs(got) * 1_000_000n > abs(exact)).toBe(true);
      }),
      RUNS,
    );
  });

  it('agrees with applyBps on every whole-basis-point rate (ppm = bps × 100)', () => {
    fc.assert(
      fc.property(amount, fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 100_000 })), (a, bps) => {
        expect(applyPpm(a, bps * 100)).toBe(applyBps(a, bps));
      }),
      RUNS,
    );
  });

  it('refuses non-integers and results beyond the safe range', () => {
    expect(() => applyPpm(10.5, 100)).toThrow(CheckoutError);
    expect(() => applyPpm(100, 88_750.5)).toThrow('The rate (in parts per million) must be a whole number (got 88750.5).');
    expect(() => applyPpm(100, Number.NaN)).toThrow(CheckoutError);
    expect(() => applyPpm(Number.MAX_SAFE_INTEGER, 2_000_000)).toThrow('too large to compute exactly');
  });
});

describe('describeRatePpm', () => {
  it('writes a rate in parts per million as the percent a cashier reads', () => {
    expect(describeRatePpm(88_750)).toBe('8.875%');
    expect(describeRatePpm(200_000)).toBe('20%');
    expect(describeRatePpm(87_500)).toBe('8.75%');
    expect(describeRatePpm(1)).toBe('0.0001%');
    expect(describeRatePpm(0)).toBe('0%');
    expect(describeRatePpm(-1)).toBe('-0.0001%');
    expect(describeRatePpm(10_000_000)).toBe('1,000%');
    expect(describeRatePpm(12_345)).toBe('1.2345%');
    expect(describeRatePpm(88_750.5)).toBe('8.87505%');
    expect(describeRatePpm(Number.NaN)).toBe('NaN parts per million');
  });
});
