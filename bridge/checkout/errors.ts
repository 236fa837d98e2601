// The one error the checkout arithmetic throws. Its message is shown to the cashier as is, so it
// says what is wrong in plain words; `code` lets the UI branch without parsing the message.
import { formatMoney } from '../money';

export type CheckoutErrorCode =
  | 'invalid_number' // not a whole number, negative where it cannot be, beyond the safe range
  | 'invalid_quantity'
  | 'invalid_price'
  | 'invalid_discount'
  | 'discount_too_large'
  | 'invalid_tax_rate'
  | 'invalid_split'
  | 'empty_split_check'
  | 'invalid_refund'
  | 'too_large';

export class CheckoutError extends Error {
  override readonly name = 'CheckoutError';

  constructor(
    readonly code: CheckoutErrorCode,
    message: string,
    /** The check line (0-based) the problem is on, when there is one, so the UI can point at it. */
    readonly lineIndex: number | null = null,
  ) {
    super(message);
  }
}

/**
 * An amount as the cashier reads it: "$12.00" when the currency is known. Without one the same
 * integer is $12.00 or ¥1,200, so it is shown as minor units rather than guessed.
 */
export function describeAmount(amount: number, currency?: string): string {
  if (!Number.isSafeInteger(amount)) return String(amount);
  if (currency !== undefined) {
    try {
      return formatMoney(amount, currency);
    } catch {
      // A malformed currency must not hide the real error behind a formatting one.
    }
  }
  return `${amount.toLocaleString('en-US')} (minor units)`;
}

/** Basis points as a percent: 875 → "8.75%", 10000 → "100%". */
export function describePercent(bps: number): string {
  if (!Number.isFinite(bps)) return `${bps} basis points`;
  return `${(bps / 100).toLocaleString('en-US', { maximumFractionDigits: 4 })}%`;
}

/**
 * A rate in parts per million as a percent: 88_750 → "8.875%", 200_000 → "20%", 1 → "0.0001%",
 * 10_000_000 → "1,000%". A fraction of a ppm (never valid) is still shown as the number it is.
 */
export function describeRatePpm(ppm: number): string {
  if (!Number.isFinite(ppm)) return `${ppm} parts per million`;
  // 10 digits: every whole ppm reads exactly (4 digits), and a stray fraction is not rounded away.
  return `${(ppm / 10_000).toLocaleString('en-US', { maximumFractionDigits: 10 })}%`;
}
