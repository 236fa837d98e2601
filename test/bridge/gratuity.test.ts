// Automatic gratuity: a percentage of the check before tax and after discounts for parties at or
// above the threshold, taxed only where the restaurant says so, and shared over the payments so
// that whatever the payments, their parts add up to the gratuity to the unit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gratuityApplies, gratuityOf, gratuityPartWith, gratuityShare, type AutoGratuityRule } from '../../bridge/checkout/gratuity';
import { CheckoutError, type PricingRules } from '../../bridge/checkout';

const RULE: AutoGratuityRule = { name: 'Gratuity 18%', percentBps: 1800, minGuests: 8, taxClass: null };
const SALES_TAX: PricingRules = { taxIncluded: false, rounding: 'per_line', rates: [{ taxClass: 'food', name: 'Sales tax', ratePpm: 87_500 }] };
const VAT: PricingRules = { taxIncluded: true, rounding: 'per_line', rates: [{ taxClass: 'food', name: 'VAT', ratePpm: 200_000 }] };

describe('automatic gratuity', () => {
  it('applies at the threshold and not one guest below it, nor without a rule or a party size', () => {
    expect(gratuityApplies(RULE, 8)).toBe(true);
    expect(gratuityApplies(RULE, 9)).toBe(true);
    expect(gratuityApplies(RULE, 7)).toBe(false);
    expect(gratuityApplies(RULE, null)).toBe(false);
    expect(gratuityApplies(null, 12)).toBe(false);
  });

  it('is a percentage of the check after discounts and before tax, untaxed by default', () => {
    // $200.00 of food, $20.00 off, 8.75% on top: 18% of $180.00.
    const check = { subtotal: 20_000, discountTotal: 2_000, taxTotal: 1_575, taxIncluded: false };
    expect(gratuityOf(check, RULE, SALES_TAX)).toEqual({ name: 'Gratuity 18%', percentBps: 1800, base: 18_000, amount: 3_240, tax: 0, charged: 3_240 });
  });

  it('is taxed with its class when the restaurant taxes gratuities: on top, or inside with VAT-style prices', () => {
    const check = { subtotal: 20_000, discountTotal: 0, taxTotal: 1_750, taxIncluded: false };
    expect(gratuityOf(check, { ...RULE, taxClass: 'food' }, SALES_TAX)).toMatchObject({ amount: 3_600, tax: 315, charged: 3_915 });
    // €120.00 of food with 20% inside: €100.00 before tax, 18% of it is €18.00, €3.00 of which is VAT.
    const vat = { subtotal: 12_000, discountTotal: 0, taxTotal: 2_000, taxIncluded: true };
    expect(gratuityOf(vat, { ...RULE, taxClass: 'food' }, VAT)).toMatchObject({ base: 10_000, amount: 1_800, tax: 300, charged: 1_800 });
  });

  it('refuses a rule no restaurant means, saying what is wrong', () => {
    const check = { subtotal: 1_000, discountTotal: 0, taxTotal: 0, taxIncluded: false };
    expect(() => gratuityOf(check, { ...RULE, percentBps: 3_001 }, SALES_TAX)).toThrow(CheckoutError);
    expect(() => gratuityOf(check, { ...RULE, percentBps: 0 }, SALES_TAX)).toThrow(/between 0.01% and 30%/);
    expect(() => gratuityOf(check, { ...RULE, minGuests: 1 }, SALES_TAX)).toThrow(/2 to 99 guests/);
  });

  it('follows the money: the payment that settles the check carries what is left', () => {
    // $100.00 check, $18.00 gratuity, paid $33.33 + $33.33 + $33.34.
    const shares = [gratuityShare(1_800, 10_000, 0, 3_333), gratuityShare(1_800, 10_000, 3_333, 3_333), gratuityShare(1_800, 10_000, 6_666, 3_334)];
    expect(shares).toEqual([600, 600, 600]);
    expect(gratuityShare(1_800, 10_000, 0, 10_000)).toBe(1_800);
    expect(gratuityShare(0, 0, 0, 0)).toBe(0);
  });

  it('never creates or loses a cent: any payments that settle a check carry exactly its gratuity (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5_000_000 }), fc.integer({ min: 1, max: 3_000 }), fc.array(fc.integer({ min: 1, max: 1_000 }), { minLength: 1, maxLength: 12 }), (total, bps, weights) => {
        const charged = Math.floor((total * bps) / 10_000);
        // Payments in the proportions drawn, the last one settling the check.
        const sum = weights.reduce((a, b) => a + b, 0);
        const payments = weights.map((w) => Math.floor((total * w) / sum));
        payments[payments.length - 1]! += total - payments.reduce((a, b) => a + b, 0);
        let paid = 0;
        const shares = payments.map((amount) => {
          const share = gratuityShare(charged, total, paid, amount);
          paid += amount;
          return share;
        });
        shares.forEach((share) => expect(share).toBeGreaterThanOrEqual(0));
        expect(shares.reduce((a, b) => a + b, 0)).toBe(charged);
      }),
    );
  });

  it('asks the payments after a gratuity grew for all that the earlier ones did not carry (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 0, max: 3_000 })), { minLength: 1, maxLength: 12 }),
        (total, steps) => {
          // Each payment pays its weight of the check; before it, the gratuity may be any size (a party
          // reaching the threshold, a check merged in): it ends at the last step's.
          const sum = steps.reduce((a, [w]) => a + w, 0);
          const payments = steps.map(([w]) => Math.floor((total * w) / sum));
          payments[payments.length - 1]! += total - payments.reduce((a, b) => a + b, 0);
          let paid = 0;
          let collected = 0;
          let charged = 0;
          payments.forEach((amount, i) => {
            charged = Math.max(charged, Math.floor((total * steps[i]![1]) / 10_000));
            const part = gratuityPartWith({ charged, collected, removed: null }, total, paid, amount);
            expect(part).toBeGreaterThanOrEqual(0);
            collected += part;
            paid += amount;
          });
          expect(collected).toBe(charged);
          expect(gratuityPartWith({ charged, collected, removed: { reason: 'regulars' } }, total, 0, total)).toBe(0);
        },
      ),
    );
  });
});

