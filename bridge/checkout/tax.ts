// Sales tax added on top (US style) or VAT already inside the price, rounded per line or per order.
// Whatever the rounding, each rate's amount is split back onto the lines exactly, so the check's
// tax, the tax report and the lines always agree to the unit.
import { allocate, applyPpm } from './allocate';
import { CheckoutError, describeRatePpm } from './errors';
import { divideRounded, requireNonNegativeInteger, requireSafeInteger, sumExact, toSafeNumber } from './guards';

export type TaxRounding = 'per_line' | 'per_order';

export interface TaxRate {
  taxClass: string;
  name: string;
  /** parts per million: 88_750 = 8.875%, 1_000_000 = 100% (discounts and tips stay in basis points) */
  ratePpm: number;
}

export interface PricingRules {
  /** Menu prices already include tax (VAT style): tax is the part of the price that is tax, total does not grow. */
  taxIncluded: boolean;
  rounding: TaxRounding;
  /** A class may have several rates (state + city); each applies to the class's lines. A line whose class has no rate is untaxed. */
  rates: readonly TaxRate[];
  /** Lowercase ISO 4217 code; optional, only used to write amounts in error messages as money. */
  currency?: string;
}

export interface TaxLine {
  taxClass: string;
  name: string;
  /** parts per million, as in TaxRate */
  ratePpm: number;
  taxable: number;
  amount: number;
}

/** What tax needs to know of a line: its amount after discounts, and its class. */
export interface TaxableLine {
  net: number;
  taxClass: string;
}

export interface TaxResult {
  /** Tax of each line, in input order. */
  lineTax: number[];
  /** One per rate with something taxable, in rules.rates order. */
  taxes: TaxLine[];
}

/** The highest rate accepted: 1000%, well above any real tax, low enough to catch a typo'd rate. */
const MAX_RATE_PPM = 10_000_000;
/** 100% in parts per million. */
const PPM = 1_000_000n;

export function validateRules(rules: PricingRules): void {
  if (rules.rounding !== 'per_line' && rules.rounding !== 'per_order') {
    throw new CheckoutError('invalid_tax_rate', `"${String(rules.rounding)}" is not a tax rounding: use per line or per order.`);
  }
  for (const rate of rules.rates) {
    const { ratePpm, name } = rate;
    if (!Number.isInteger(ratePpm) || ratePpm < 0 || ratePpm > MAX_RATE_PPM) {
      throw new CheckoutError(
        'invalid_tax_rate',
        `The tax rate "${name}" of ${describeRatePpm(ratePpm)} is not possible: a rate is between 0% and ${describeRatePpm(MAX_RATE_PPM)}, in steps of 0.0001%.`,
      );
    }
  }
}

/**
 * The tax inside a tax-included amount at combined rate `ratePpm` (parts per million):
 * amount − round(amount × 1_000_000 / (1_000_000 + rate)), half away from zero, exact.
 */
export function taxInside(amount: number, ratePpm: number): number {
  requireSafeInteger(amount, 'amount');
  requireNonNegativeInteger(ratePpm, 'tax rate (in parts per million)');
  const beforeTax = divideRounded(BigInt(amount) * PPM, PPM + BigInt(ratePpm));
  return toSafeNumber(BigInt(amount) - beforeTax, 'tax');
}

export function computeTaxes(lines: readonly TaxableLine[], rules: PricingRules): TaxResult {
  const { rates } = rules;
  // amounts[r][i]: rate r's tax on line i (0 where the rate does not apply).
  const amounts = rates.map(() => lines.map(() => 0));
  const set = (rateIndex: number, lineIndexes: readonly number[], parts: readonly number[]) => {
    lineIndexes.forEach((lineIndex, k) => {
      const row = amounts[rateIndex];
      if (row !== undefined) row[lineIndex] = parts[k] ?? 0;
    });
  };

  for (const taxClass of new Set(rates.map((rate) => rate.taxClass))) {
    const rateIndexes = rates.flatMap((rate, index) => (rate.taxClass === taxClass ? [index] : []));
    const lineIndexes = lines.flatMap((line, index) => (line.taxClass === taxClass ? [index] : []));
    if (lineIndexes.length === 0) continue;
    const nets = lineIndexes.map((index) => lines[index]?.net ?? 0);
    const ppms = rateIndexes.map((index) => rates[index]?.ratePpm ?? 0);
    const classNet = sumExact(nets, 'taxable amount');

    if (!rules.taxIncluded) {
      rateIndexes.forEach((rateIndex, k) => {
        const ratePpm = ppms[k] ?? 0;
        const parts =
          rules.rounding === 'per_line'
            ? nets.map((net) => applyPpm(net, ratePpm))
            : allocate(applyPpm(classNet, ratePpm), nets); // round once, then share by net
        set(rateIndex, lineIndexes, parts);
      });
    } else {
      // Only the class's combined rate tells how much of a price is tax; it is then shared
      // between the class's rates by their size (their ppm).
      const combined = ppms.reduce((a, b) => a + b, 0);
      if (rules.rounding === 'per_line') {
        const perLine = nets.map((net) => allocate(taxInside(net, combined), ppms));
        rateIndexes.forEach((rateIndex, k) => set(rateIndex, lineIndexes, perLine.map((split) => split[k] ?? 0)));
      } else {
        const perRate = allocate(taxInside(classNet, combined), ppms);
        rateIndexes.forEach((rateIndex, k) => set(rateIndex, lineIndexes, allocate(perRate[k] ?? 0, nets)));
      }
    }
  }

  const lineTax = lines.map((_, lineIndex) => sumExact(amounts.map((row) => row[lineIndex] ?? 0), 'tax of a line'));
  const taxes: TaxLine[] = [];
  rates.forEach((rate, rateIndex) => {
    const taxable = sumExact(lines.flatMap((line) => (line.taxClass === rate.taxClass ? [line.net] : [])), 'taxable amount');
    if (taxable === 0) return; // the rate touched nothing worth reporting
    const amount = sumExact(amounts[rateIndex] ?? [], 'tax');
    taxes.push({ taxClass: rate.taxClass, name: rate.name, ratePpm: rate.ratePpm, taxable, amount });
  });
  return { lineTax, taxes };
}
