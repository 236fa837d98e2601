// What suggested tips are a percentage of (the checkout's tip basis): the payment itself, or the
// payment less its share of the check's tax. Never more than the payment nor below nothing; the
// parts of a split add up to the check before tax within a cent a part.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tipBase } from '../../bridge/checkout';

describe('the base of a suggested tip', () => {
  it('is what is paid on the total basis, and the check before tax when the whole check is paid on the pre-tax basis', () => {
    const check = { total: 10_875, taxTotal: 875 };
    expect(tipBase(10_875, check, 'total')).toBe(10_875);
    expect(tipBase(10_875, check, 'pre_tax')).toBe(10_000);
    expect(tipBase(5_000, { total: 5_000, taxTotal: 0 }, 'pre_tax')).toBe(5_000);
    expect(tipBase(0, check, 'pre_tax')).toBe(0);
  });

  it('stays between nothing and the payment, and the parts of a split add up to the check before tax', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 1, max: 12 }), (total, taxPermille, parts) => {
        const taxTotal = Math.floor((total * taxPermille) / 10_000);
        const check = { total, taxTotal };
        const shares = Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
        const bases = shares.map((share) => tipBase(share, check, 'pre_tax'));
        bases.forEach((base, i) => {
          expect(base).toBeGreaterThanOrEqual(0);
          expect(base).toBeLessThanOrEqual(shares[i]!);
        });
        expect(Math.abs(bases.reduce((a, b) => a + b, 0) - (total - taxTotal))).toBeLessThanOrEqual(parts);
      }),
    );
  });
});
