// Automatic gratuity for large parties: a percentage of what the table ordered (after discounts,
// before tax), added when the party reaches the restaurant's threshold. It is charged as a tip on
// the check's payments, never as a line: the order and its total stay what was ordered, for the
// kitchen, for refunds by item and for the cloud (docs/spec-gaps.md, "Automatic gratuity").
import { divideRounded, requireNonNegativeInteger } from './guards';
import { applyBps } from './allocate';
import { CheckoutError, describePercent } from './errors';
import { computeTaxes, type PricingRules } from './tax';

/** A gratuity above 30% is a slip of the finger, not a house rule. */
export const GRATUITY_PERCENT_MAX_BPS = 3000;
/** The name printed on the check: "Gratuity 18%", "Service charge". */
export const GRATUITY_NAME_MAX = 24;

export interface AutoGratuityRule {
  /** Printed on the check and the receipt. */
  name: string;
  /** Of the check before tax and after discounts, in basis points (1800 = 18%). */
  percentBps: number;
  /** Parties of this many guests or more get it. */
  minGuests: number;
  /** The tax class whose rates tax it, or null where a gratuity is not taxed. */
  taxClass: string | null;
}

/** What the check says of the gratuity: its base, its amount, its tax, and what is charged for both. */
export interface Gratuity {
  name: string;
  percentBps: number;
  /** What it is a percentage of: the check less its discounts, before tax. */
  base: number;
  amount: number;
  /** Its tax where the restaurant taxes gratuities (inside `amount` when menu prices include tax). */
  tax: number;
  /** What the guests pay for it: amount, plus its tax when tax is added on top. */
  charged: number;
}

/** The check's figures a gratuity reads. */
export interface GratuityCheck {
  subtotal: number;
  discountTotal: number;
  taxTotal: number;
  taxIncluded: boolean;
}

/** How the check and the paper name it: "Gratuity 18% (8+ guests)". */
export function gratuityLabel(gratuity: Pick<AutoGratuityRule, 'name' | 'percentBps' | 'minGuests'>): string {
  return `${gratuity.name} ${describePercent(gratuity.percentBps)} (${gratuity.minGuests}+ guests)`;
}

/** Refuses a rule no restaurant means; the message names what to change. */
export function validateGratuityRule(rule: AutoGratuityRule): void {
  if (!Number.isInteger(rule.percentBps) || rule.percentBps < 1 || rule.percentBps > GRATUITY_PERCENT_MAX_BPS) {
    throw new CheckoutError('invalid_number', `A gratuity of ${describePercent(rule.percentBps)} is not possible: it is between 0.01% and ${describePercent(GRATUITY_PERCENT_MAX_BPS)}.`);
  }
  if (!Number.isInteger(rule.minGuests) || rule.minGuests < 2 || rule.minGuests > 99) {
    throw new CheckoutError('invalid_number', `A gratuity for parties of ${String(rule.minGuests)} is not possible: the threshold is 2 to 99 guests.`);
  }
}

/** Whether a party of `guests` gets the rule's gratuity. */
export function gratuityApplies(rule: AutoGratuityRule | null, guests: number | null): rule is AutoGratuityRule {
  return rule !== null && guests !== null && guests >= rule.minGuests;
}

/**
 * The gratuity of a check under `rule`: applyBps(check before tax and after discounts, percent),
 * taxed with the rates of the rule's class by the check's own rules (on top, or inside the amount
 * when menu prices include tax). Never negative; 0 on an empty or fully comped check.
 */
export function gratuityOf(check: GratuityCheck, rule: AutoGratuityRule, pricing: PricingRules): Gratuity {
  validateGratuityRule(rule);
  const base = Math.max(0, check.subtotal - check.discountTotal - (check.taxIncluded ? check.taxTotal : 0));
  const amount = applyBps(base, rule.percentBps);
  const tax = rule.taxClass === null ? 0 : computeTaxes([{ net: amount, taxClass: rule.taxClass }], pricing).lineTax[0] ?? 0;
  return { name: rule.name, percentBps: rule.percentBps, base, amount, tax, charged: amount + (pricing.taxIncluded ? 0 : tax) };
}

/**
 * The part of the gratuity's charge a payment of `amount` toward a check of `total` carries, when
 * `paidBefore` had already been paid toward it: the gratuity follows the money in proportion, and
 * the payment that settles the check carries what is left, so the parts always add up to `charged`
 * to the unit whatever the payments (split evenly, by items, or any amounts).
 */
export function gratuityShare(charged: number, total: number, paidBefore: number, amount: number): number {
  for (const [value, what] of [
    [charged, 'gratuity'],
    [total, 'check total'],
    [paidBefore, 'amount already paid'],
    [amount, 'payment'],
  ] as const) {
    requireNonNegativeInteger(value, what);
  }
  if (total === 0) return paidBefore === 0 ? charged : 0;
  const upTo = (paid: number) => Number(divideRounded(BigInt(charged) * BigInt(Math.min(paid, total)), BigInt(total)));
  return upTo(paidBefore + amount) - upTo(paidBefore);
}

/**
 * What a payment of `amount` must carry of a check's gratuity, `paidBefore` having been paid toward the
 * check's `total` and `collected` of the gratuity carried by those payments: what is left of it, in
 * proportion to what this payment settles of what is left to pay (the settling payment carries all
 * that is left). The gratuity can grow after a payment (the party reaching the threshold, a check
 * merged in): the payments after it carry what the earlier ones did not. None once taken off.
 */
export function gratuityPartWith(
  gratuity: { charged: number; collected: number; removed: unknown } | null,
  total: number,
  paidBefore: number,
  amount: number,
): number {
  if (gratuity === null || gratuity.removed !== null) return 0;
  return gratuityShare(Math.max(0, gratuity.charged - gratuity.collected), Math.max(0, total - paidBefore), 0, amount);
}
