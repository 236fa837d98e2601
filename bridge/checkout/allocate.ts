// Splitting an amount into parts without creating or losing a unit, and percentages of amounts.
// Everything goes through BigInt: 1e11 × 10000 (or × 1_000_000) is past 2^53, where doubles start dropping units.
import { CheckoutError } from './errors';
import { divideRounded, requireNonNegativeInteger, requireSafeInteger, toSafeNumber } from './guards';

/**
 * Splits `total` (any safe integer, may be negative) into parts proportional to `weights`
 * (non-negative integers) by the largest-remainder method; ties go to the earlier index; sum of
 * parts === total exactly; parts all have the sign of total. All weights 0 (or empty weights with
 * total 0) → equal split (still exact). Empty weights with total ≠ 0 throws.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  requireSafeInteger(total, 'amount to split');
  weights.forEach((weight, index) => requireNonNegativeInteger(weight, `share ${index + 1} of the split`));
  if (weights.length === 0) {
    if (total === 0) return [];
    throw new CheckoutError('invalid_split', `There is nothing to split ${total} between.`);
  }

  let weightSum = 0n;
  for (const weight of weights) weightSum += BigInt(weight);
  // Nothing to be proportional to: everyone gets an equal share rather than the money vanishing.
  const big = weightSum === 0n ? weights.map(() => 1n) : weights.map((weight) => BigInt(weight));
  const sum = weightSum === 0n ? BigInt(weights.length) : weightSum;

  // Work on the magnitude so a refund (negative total) splits exactly like the charge it undoes.
  const magnitude = BigInt(Math.abs(total));
  const parts = big.map((weight) => (magnitude * weight) / sum);
  const remainders = big.map((weight) => (magnitude * weight) % sum);
  let left = magnitude - parts.reduce((a, b) => a + b, 0n); // < weights.length

  const order = remainders
    .map((remainder, index) => ({ remainder, index }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of order) {
    if (left === 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    left -= 1n;
  }

  // `0 - 0` keeps -0 out of the results: -0 !== 0 to Object.is and to some serializers.
  return parts.map((part) => (total < 0 ? 0 - Number(part) : Number(part)));
}

/**
 * round(amount × bps / 10000), half away from zero, exact integer arithmetic (amounts up to 1e11
 * and bps up to 10000 do not lose precision).
 */
export function applyBps(amount: number, bps: number): number {
  requireSafeInteger(amount, 'amount');
  requireSafeInteger(bps, 'percentage (in basis points)');
  return toSafeNumber(divideRounded(BigInt(amount) * BigInt(bps), 10_000n), 'percentage of the amount');
}

/**
 * round(amount × ppm / 1_000_000), half away from zero, exact integer arithmetic: the same as
 * applyBps(amount, bps) for ppm = bps × 100, but a rate can be any multiple of 0.0001% (8.875% is
 * 88_750 ppm).
 */
export function applyPpm(amount: number, ppm: number): number {
  requireSafeInteger(amount, 'amount');
  requireSafeInteger(ppm, 'rate (in parts per million)');
  return toSafeNumber(divideRounded(BigInt(amount) * BigInt(ppm), 1_000_000n), 'percentage of the amount');
}
