// Input checks shared by the checkout modules: bad numbers are refused, never rounded or clamped.
import { CheckoutError, type CheckoutErrorCode } from './errors';

/** A whole number JavaScript represents exactly: the only numbers money arithmetic accepts. */
export function requireSafeInteger(value: number, what: string, code: CheckoutErrorCode = 'invalid_number'): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new CheckoutError(code, `The ${what} must be a whole number (got ${String(value)}).`);
  }
}

export function requireNonNegativeInteger(value: number, what: string, code: CheckoutErrorCode = 'invalid_number'): void {
  requireSafeInteger(value, what, code);
  if (value < 0) throw new CheckoutError(code, `The ${what} cannot be negative (got ${value}).`);
}

/** Exact BigInt back to a number, refusing what a number cannot hold exactly. */
export function toSafeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new CheckoutError('too_large', `The ${what} is too large to compute exactly.`);
  }
  return Number(value);
}

/** Σ values, exact, refusing a sum beyond the safe range instead of silently losing cents. */
export function sumExact(values: readonly number[], what: string): number {
  let sum = 0n;
  for (const value of values) sum += BigInt(value);
  return toSafeNumber(sum, what);
}

/**
 * a ÷ b rounded half away from zero (b > 0), exact for any size: the till's "round to the
 * nearest unit" for both charges and negative adjustments.
 */
export function divideRounded(a: bigint, b: bigint): bigint {
  const quotient = a / b; // truncates toward zero
  const remainder = a % b;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice < b) return quotient;
  return a < 0n ? quotient - 1n : quotient + 1n;
}
