// An order's automatic gratuity: the rule the order was placed under (frozen on it, as its tax rules
// are), applied to its check and its party, and what its payments have carried of it. The
// arithmetic is bridge/checkout/gratuity.ts (the payment screen previews with the same functions).
import { gratuityApplies, gratuityOf, gratuityPartWith, type AutoGratuityRule } from '../../bridge/checkout/index';
import type { Check, CheckoutRules, OrderGratuity } from '../../bridge/contract';
import type { GratuityDoc, OrderDoc } from '../../store/index';
import { NO_TAX, pricingRules } from './checkout';

/** The rule as an order keeps it: null when the restaurant adds none. */
export function gratuityDoc(rule: CheckoutRules['autoGratuity']): GratuityDoc | null {
  return rule === null ? null : { rule: { name: rule.name, percent_bps: rule.percentBps, min_guests: rule.minGuests, tax_class: rule.taxClass }, removed: null };
}

function ruleOf(doc: GratuityDoc): AutoGratuityRule {
  return { name: doc.rule.name, percentBps: doc.rule.percent_bps, minGuests: doc.rule.min_guests, taxClass: doc.rule.tax_class };
}

/** A payment as the gratuity counts it: `gratuity`, the part of its tip recorded as gratuity when it was taken (null: not recorded). */
export interface GratuityPayment {
  amount: number;
  tip: number;
  gratuity: number | null;
}

/**
 * The order's gratuity as the screens and the paper show it; null when its party does not get one.
 * `payments`: those that count (not failed), in the order they were taken.
 */
export function orderGratuity(doc: OrderDoc, check: Check, payments: readonly GratuityPayment[]): OrderGratuity | null {
  const kept = doc.gratuity;
  if (kept === null || !gratuityApplies(ruleOf(kept), doc.service?.guests ?? null)) return null;
  const rule = ruleOf(kept);
  const gratuity = gratuityOf(check, rule, doc.pricing ? pricingRules(doc.pricing) : NO_TAX);
  const removed = kept.removed;
  // Taken off, what had been carried stays counted and no more.
  const collected = removed !== null && removed.collected !== null ? removed.collected : gratuityCollected(gratuity.charged, check.total, payments);
  return {
    ...gratuity,
    minGuests: rule.minGuests,
    collected,
    removed: removed === null ? null : { reason: removed.reason, by: removed.staff_id === null ? null : { id: removed.staff_id, name: removed.staff_name ?? 'Unknown' }, at: new Date(removed.at).toISOString() },
  };
}

/**
 * What the payments carried of a gratuity that charges `charged` today: each the part recorded on
 * it when it was taken, so that a voluntary tip given before the gratuity grew (the party reached
 * the threshold, a check was merged in) stays a tip. A payment taken before the parts were recorded
 * (migration 32) counts what of its tip today's gratuity would have asked of it. Never more than
 * `charged`: what the payments carried beyond a gratuity that shrank since is a tip.
 */
function gratuityCollected(charged: number, total: number, payments: readonly GratuityPayment[]): number {
  let collected = 0;
  let paidBefore = 0;
  for (const payment of payments) {
    const part = payment.gratuity ?? Math.min(payment.tip, gratuityPartWith({ charged, collected, removed: null }, total, paidBefore, payment.amount));
    collected = Math.min(charged, collected + part);
    paidBefore += payment.amount;
  }
  return collected;
}

/**
 * The least tip a payment of `amount` must carry: its part of the gratuity (nothing once a manager
 * removed it). A payment below it would close the check without the gratuity, which is a manager's
 * call, not the payment screen's.
 */
export function gratuityDueWith(gratuity: OrderGratuity | null, checkTotal: number, paidBefore: number, amount: number): number {
  return gratuityPartWith(gratuity, checkTotal, paidBefore, amount);
}
