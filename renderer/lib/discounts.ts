// Discounts and comps as the cashier types them: read whole or refused with a reason (never
// "fixed"), and whether the manager has to approve them before the order is sent.
import type { CheckoutRules, Discount } from '../../bridge/contract';
import { CheckoutError, discountAmount } from '../../bridge/checkout';
import { money, readAmount, readPercent, toAmountText, toPercentText } from './format';

/** One tap fills the reason; anything else is typed. */
export const QUICK_REASONS = ['Comp – kitchen error', 'Staff meal', 'Loyalty', 'Manager courtesy'] as const;

/** What the bridge takes (bridge/contract.ts, Discount): a longer reason is said here, not refused by the core after. */
const MAX_REASON_LENGTH = 100;
const FULL = 10_000;

/** A comp is 100% off, asked for as its own choice so nobody types "100". */
export type DiscountMode = 'percent' | 'amount' | 'comp';

export interface DiscountForm {
  mode: DiscountMode;
  /** As typed: "10" (percent) or "2.50" (amount); unused for a comp. */
  valueText: string;
  reason: string;
}

export type DiscountFieldErrors = { value?: string; reason?: string };

export type DiscountReading = { discount: Discount; off: number; errors: null } | { discount: null; off: null; errors: DiscountFieldErrors };

export function formOfDiscount(discount: Discount | null, digits: number): DiscountForm {
  if (!discount) return { mode: 'percent', valueText: '', reason: '' };
  if (discount.kind === 'percent') {
    return discount.value === FULL ? { mode: 'comp', valueText: '', reason: discount.reason } : { mode: 'percent', valueText: toPercentText(discount.value), reason: discount.reason };
  }
  return { mode: 'amount', valueText: toAmountText(discount.value, digits), reason: discount.reason };
}

/** The discount the form asks for on `base`, with what it takes off, or a message per field. */
export function readDiscount(form: DiscountForm, base: number, currency: string): DiscountReading {
  const errors: DiscountFieldErrors = {};
  let asked: Pick<Discount, 'kind' | 'value'> | null = null;
  if (form.mode === 'comp') {
    asked = { kind: 'percent', value: FULL };
  } else if (form.mode === 'percent') {
    const read = readPercent(form.valueText, { min: 1, max: FULL });
    if (read.error !== null) errors.value = read.error;
    else asked = { kind: 'percent', value: read.value };
  } else {
    const read = readAmount(form.valueText, currency, { min: 1 });
    if (read.error !== null) errors.value = read.error;
    else asked = { kind: 'amount', value: read.amount };
  }
  const reason = form.reason.trim();
  if (reason === '') errors.reason = 'Give the discount a reason, e.g. "Staff meal".';
  else if (reason.length > MAX_REASON_LENGTH) errors.reason = `A reason is at most ${MAX_REASON_LENGTH} characters (this one has ${reason.length}).`;

  let off: number | null = null;
  if (asked) {
    try {
      // The same arithmetic the check uses: an amount larger than what it applies to is refused.
      // The reason was read above on its own, so a missing one does not hide a bad value.
      off = discountAmount({ ...asked, reason: 'value only' }, base, currency);
    } catch (caught) {
      if (!(caught instanceof CheckoutError)) throw caught;
      errors.value = caught.message;
    }
  }
  if (asked === null || off === null || errors.value !== undefined || errors.reason !== undefined) return { discount: null, off: null, errors };
  return { discount: { ...asked, reason }, off, errors: null };
}

/**
 * Whether the discount is above the approval limits, as the core decides it (needs_manager): a
 * percent above the percent limit, or an amount off above the amount limit. Asking before the
 * order is sent spares the cashier a refusal.
 */
export function needsApproval(discount: Discount, off: number, limits: CheckoutRules['discountApproval']): boolean {
  return (discount.kind === 'percent' && discount.value > limits.percentBps) || off > limits.amount;
}

/** "10% off · Loyalty", "$2.00 off · Staff meal", "Comp – kitchen error". */
export function describeDiscount(discount: Pick<Discount, 'kind' | 'value' | 'reason'>, currency: string): string {
  if (discount.kind === 'percent' && discount.value === FULL) return /^comp\b/i.test(discount.reason) ? discount.reason : `Comp · ${discount.reason}`;
  const size = discount.kind === 'percent' ? `${toPercentText(discount.value)}%` : money(discount.value, currency);
  return `${size} off · ${discount.reason}`;
}
