// Suggested tips on the payment screen.
import { applyBps } from './allocate';
import { CheckoutError, describePercent } from './errors';
import { requireNonNegativeInteger } from './guards';

/** The buttons the tip screen offers unless the venue sets its own: 15%, 18%, 20%. */
export const DEFAULT_TIP_PERCENTS_BPS: readonly number[] = Object.freeze([1500, 1800, 2000]);

/** The tip for a suggested percentage of what the payment puts toward the check: applyBps(base, bps). */
export function tipFor(base: number, percentBps: number): number {
  requireNonNegativeInteger(base, 'amount the tip is based on');
  // Over 100% is almost surely a slip of the finger (a 150 meant as 15%); a larger tip is typed as an amount.
  if (!Number.isInteger(percentBps) || percentBps < 0 || percentBps > 10_000) {
    throw new CheckoutError('invalid_number', `A tip of ${describePercent(percentBps)} is not possible: a suggested tip is between 0% and 100%.`);
  }
  return applyBps(base, percentBps);
}
