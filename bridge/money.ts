// Money on the bridge: integer minor units (cents, yen, fils) with a lowercase ISO 4217 code.
// Pure: runs in the renderer as well as in Node, so only zod and the Intl built-in.
import { z } from 'zod';

export const CurrencyCode = z
  .string()
  .regex(/^[a-z]{3}$/, 'a currency is a 3-letter lowercase ISO 4217 code, e.g. "usd"');
export type CurrencyCode = z.infer<typeof CurrencyCode>;

export const MinorUnits = z.number().int().refine(Number.isSafeInteger, 'amount is beyond the safe integer range');

/**
 * The largest amount any command carries: 1,000,000.00 in a two-digit currency. An order comes
 * to at most this much too, so what is paid toward it and given back always reads.
 */
export const MAX_AMOUNT = 100_000_000;

/** The most cash a drawer holds (a float, a count): 100,000.00 in a two-digit currency. */
export const MAX_TILL_CASH = 10_000_000;

export const Money = z.strictObject({
  /** Integer minor units of `currency`: 1050 usd is $10.50, 1050 jpy is ¥1,050. */
  amount: MinorUnits,
  currency: CurrencyCode,
});
export type Money = z.infer<typeof Money>;

/** How many minor digits a currency has, as Intl knows it (usd 2, jpy 0, bhd 3). */
export function minorDigits(currency: string): number {
  const code = CurrencyCode.parse(currency).toUpperCase();
  return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** Formats integer minor units for people: formatMoney(1050, 'usd') → "$10.50", formatMoney(1050, 'jpy') → "¥1,050". */
export function formatMoney(amount: number, currency: string, locale = 'en-US'): string {
  const { amount: minor, currency: code } = Money.parse({ amount, currency });
  const digits = minorDigits(code);
  const formatter = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: code.toUpperCase(),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return formatter.format(minor / 10 ** digits);
}
