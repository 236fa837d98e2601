// Discounts: what they are, whether they are allowed, and how much they take off.
import { applyBps } from './allocate';
import { CheckoutError, describeAmount, describePercent } from './errors';
import { requireNonNegativeInteger } from './guards';

export type DiscountKind = 'percent' | 'amount';

export interface DiscountSpec {
  kind: DiscountKind;
  /** percent: basis points 1..10000 (1000 = 10%, 10000 = 100% = a comp); amount: minor units ≥ 1 */
  value: number;
  reason: string;
}

/** Refuses a discount that could not have been meant: no reason, 0%, over 100%, a zero or negative amount. */
export function validateDiscount(discount: DiscountSpec, currency?: string, lineIndex: number | null = null): void {
  // Every discount is audited, so one without a reason is refused, not defaulted.
  if (typeof discount.reason !== 'string' || discount.reason.trim() === '') {
    throw new CheckoutError('invalid_discount', 'A discount needs a reason, e.g. "birthday" or "manager comp".', lineIndex);
  }
  const { kind, value } = discount;
  if (kind === 'percent') {
    if (!Number.isInteger(value) || value < 1 || value > 10_000) {
      throw new CheckoutError(
        'invalid_discount',
        `A discount of ${describePercent(value)} is not possible: a percent discount is between 0.01% and 100%.`,
        lineIndex,
      );
    }
  } else if (kind === 'amount') {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new CheckoutError(
        'invalid_discount',
        `A discount of ${describeAmount(value, currency)} is not possible: an amount off must be at least ${describeAmount(1, currency)}.`,
        lineIndex,
      );
    }
  } else {
    throw new CheckoutError('invalid_discount', `"${String(kind)}" is not a kind of discount: use a percent or an amount.`, lineIndex);
  }
}

/**
 * What `discount` takes off `base`, with the sentence to use when it is more than `base`
 * ("line", "check"...). Shared by priceCheck and discountAmount so a preview and the check agree.
 */
export function discountOff(discount: DiscountSpec, base: number, tooLarge: (amount: string, base: string) => string, currency?: string, lineIndex: number | null = null): number {
  validateDiscount(discount, currency, lineIndex);
  if (discount.kind === 'percent') return applyBps(base, discount.value);
  if (discount.value > base) {
    throw new CheckoutError('discount_too_large', tooLarge(describeAmount(discount.value, currency), describeAmount(base, currency)), lineIndex);
  }
  return discount.value;
}

/**
 * What a discount takes off `base` (for previews and approval checks); throws CheckoutError when
 * the discount is bigger than base or out of range. `currency` only makes the messages read as money.
 */
export function discountAmount(discount: DiscountSpec, base: number, currency?: string): number {
  requireNonNegativeInteger(base, 'amount to discount');
  return discountOff(discount, base, (amount, of) => `A discount of ${amount} is more than the ${of} it applies to.`, currency);
}
