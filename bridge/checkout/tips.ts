// Suggested tips on the payment screen.
import { applyBps } from './allocate';
import { CheckoutError, describePercent } from './errors';
import { requireNonNegativeInteger } from './guards';

/** The buttons the tip screen offers unless the venue sets its own: 15%, 18%, 20%. */
export const DEFAULT_TIP_PERCENTS_BPS: readonly number[] = Object.freeze([1500, 1800, 2000]);

/**
 * What suggested tips are a percentage of, for `amount` paid toward a check: the amount itself, or
 * (basis 'pre_tax') the amount less its share of the check's tax, in proportion, rounded half up.
 * Never more than the amount, never negative; the same whether tax is added or included.
 */
export function tipBase(amount: number, check: { total: number; taxTotal: number }, basis: 'total' | 'pre_tax'): number {
  requireNonNegativeInteger(amount, 'amount the tip is based on');
  if (basis === 'total' || check.total <= 0 || check.taxTotal <= 0) return amount;
  const taxShare = Math.floor((amount * check.taxTotal * 2 + check.total) / (check.total * 2));
  return Math.max(0, amount - Math.min(amount, taxShare));
}

/** The tip for a suggested percentage of what the payment puts toward the check: applyBps(base, bps). */
export function tipFor(base: number, percentBps: number): number {
  requireNonNegativeInteger(base, 'amount the tip is based on');
  // Over 100% is almost surely a slip of the finger (a 150 meant as 15%); a larger tip is typed as an amount.
  if (!Number.isInteger(percentBps) || percentBps < 0 || percentBps > 10_000) {
    throw new CheckoutError('invalid_number', `A tip of ${describePercent(percentBps)} is not possible: a suggested tip is between 0% and 100%.`);
  }
  return applyBps(base, percentBps);
}
