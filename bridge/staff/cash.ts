// Counting a cash drawer: the notes and coins of a currency, and what a count comes to. Pure, so
// the count screen and the core add up the same way.
import { z } from 'zod';
import { MAX_TILL_CASH, minorDigits } from '../money';

export { MAX_TILL_CASH };

/** Notes and coins in minor units, largest first. Currencies not listed get a generic set by their digits. */
const DENOMINATIONS: Readonly<Record<string, readonly number[]>> = {
  usd: [10_000, 5_000, 2_000, 1_000, 500, 200, 100, 25, 10, 5, 1],
  cad: [10_000, 5_000, 2_000, 1_000, 500, 200, 100, 25, 10, 5],
  eur: [50_000, 20_000, 10_000, 5_000, 2_000, 1_000, 500, 200, 100, 50, 20, 10, 5, 2, 1],
  gbp: [5_000, 2_000, 1_000, 500, 200, 100, 50, 20, 10, 5, 2, 1],
  aud: [10_000, 5_000, 2_000, 1_000, 500, 200, 100, 50, 20, 10, 5],
  jpy: [10_000, 5_000, 2_000, 1_000, 500, 100, 50, 10, 5, 1],
};

export function denominationsOf(currency: string): readonly number[] {
  const known = DENOMINATIONS[currency.toLowerCase()];
  if (known) return known;
  const unit = 10 ** minorDigits(currency);
  return [100, 50, 20, 10, 5, 2, 1].map((n) => n * unit).concat(unit >= 100 ? [unit / 2, unit / 5, unit / 10, unit / 20, unit / 100].filter(Number.isInteger) : []);
}

/** How many of each note or coin were counted, as a record shows it. */
export const CountedCash = z
  .array(z.strictObject({ value: z.number().int().positive().max(MAX_TILL_CASH), count: z.number().int().min(0).max(100_000) }))
  .max(30)
  .refine((lines) => new Set(lines.map((l) => l.value)).size === lines.length, { message: 'each note or coin is counted once' });

/** A count as a command brings it: at most what a drawer holds in all, so no shift records a float nobody has. */
export const CashCount = CountedCash.refine((lines) => countTotal(lines) <= MAX_TILL_CASH, { message: tooMuchCash(null) });
export type CashCount = z.infer<typeof CashCount>;

/** Why a count past MAX_TILL_CASH is refused; with the currency, in its money. */
export function tooMuchCash(formatted: string | null): string {
  return `That is more than any till holds (at most ${formatted ?? `${MAX_TILL_CASH.toLocaleString('en-US')} in minor units`}). Count again.`;
}

export function countTotal(count: readonly { value: number; count: number }[]): number {
  return count.reduce((sum, line) => sum + line.value * line.count, 0);
}

/** The values in a count that are not notes or coins of `currency`, if any. */
export function unknownDenominations(count: CashCount, currency: string): number[] {
  const known = denominationsOf(currency);
  return count.filter((line) => !known.includes(line.value)).map((line) => line.value);
}
