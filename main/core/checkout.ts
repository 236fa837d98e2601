// The checkout of one order: which tax rules apply, what the check comes to, how the bill splits,
// what the cloud is told beyond the spec, and what its discounts give away (who may give them:
// bridge/checkout/approval.ts). The arithmetic is bridge/checkout's (the register previews with
// the same functions); this maps store documents onto it. An order the till priced is re-priced
// from what it froze (lines, discounts, rules), so the figures never drift; an order from the
// cloud shows the cloud's figures.
import { allocate, CheckoutError, priceCheck, reviewDiscounts, splitByItems, splitEvenly, type CheckBreakdown, type DiscountReview, type SplitPart } from '../../bridge/checkout/index';
import type { AppliedDiscount, Check, CheckoutRules, Discount, PricingRules, SplitView } from '../../bridge/contract';
import type { DiscountDoc, LocationDoc, OrderDoc, OrderLineDoc, PricingDoc } from '../../store/index';
import { DISCOUNTS_MAX } from '../../api/requests';
import { CoreError } from './errors';

/** What a till asks until IT or a manager says otherwise (docs/config.md, "Checkout"). */
export const DEFAULT_CHECKOUT: CheckoutRules = {
  tillLetter: 'A',
  tipPercents: [1500, 1800, 2000],
  cashTips: false,
  tipBasis: 'total',
  // A comp or anything above 20% or $20.00 is a manager's call.
  discountApproval: { percentBps: 2000, amount: 2000 },
  autoGratuity: null,
};

export const NO_TAX: PricingRules = { taxIncluded: false, rounding: 'per_line', rates: [] };

export type EffectivePricing = PricingRules & { source: 'location' | 'terminal' };

/** The location's rules where its record has rates (the cloud is the store's truth), else this terminal's. */
export function effectivePricing(location: LocationDoc | undefined, terminal: PricingRules): EffectivePricing {
  const tax = location?.tax;
  if (tax?.rates && tax.rates.length > 0) {
    return {
      taxIncluded: tax.prices_include_tax ?? terminal.taxIncluded,
      rounding: tax.rounding ?? terminal.rounding,
      rates: tax.rates.map((r) => ({ taxClass: r.tax_class, name: r.name, ratePpm: r.rate_ppm })),
      source: 'location',
    };
  }
  return { ...terminal, source: 'terminal' };
}

export function pricingDoc(rules: PricingRules): PricingDoc {
  return { tax_included: rules.taxIncluded, rounding: rules.rounding, rates: rules.rates.map((r) => ({ tax_class: r.taxClass, name: r.name, rate_ppm: r.ratePpm })) };
}

export function pricingRules(doc: PricingDoc): PricingRules {
  return { taxIncluded: doc.tax_included, rounding: doc.rounding, rates: doc.rates.map((r) => ({ taxClass: r.tax_class, name: r.name, ratePpm: r.rate_ppm })) };
}

function unitPrice(line: OrderLineDoc): number {
  return line.unit_price + line.modifiers.reduce((sum, m) => sum + m.price, 0);
}

/** The check of lines priced with `rules`: throws CheckoutError (a discount too large...), its amounts in `currency`. */
export function priceLines(lines: readonly OrderLineDoc[], discount: DiscountDoc | null, rules: PricingRules, currency?: string): CheckBreakdown {
  return priceCheck(
    lines.map((line) => ({ quantity: line.quantity, unitPrice: unitPrice(line), taxClass: line.tax_class, discount: line.discount })),
    discount,
    { ...rules, currency },
  );
}

/** The same refusal as a command error, next to the field it concerns. */
export function checkoutRefusal(error: unknown): never {
  if (!(error instanceof CheckoutError)) throw error;
  const path = error.lineIndex === null ? 'discount' : `lines.${error.lineIndex}.discount`;
  throw new CoreError('invalid_command', error.message, [{ path, message: error.message }]);
}

/** A check that only knows its lines' amounts (an order the till did not price): each line's total is its gross. */
function itemsBreakdown(lines: readonly OrderLineDoc[], total: number, taxIncluded: boolean, taxTotal: number, discountTotal: number): CheckBreakdown {
  const grosses = lines.map((line) => line.quantity * unitPrice(line));
  const totals = grosses.some((g) => g > 0) ? allocate(total, grosses) : grosses.map(() => 0);
  return {
    subtotal: grosses.reduce((a, b) => a + b, 0),
    lineDiscountTotal: 0,
    orderDiscountTotal: discountTotal,
    discountTotal,
    taxTotal,
    taxIncluded,
    total,
    taxes: [],
    lines: grosses.map((gross, i) => ({ gross, lineDiscount: 0, orderDiscount: 0, net: totals[i]!, tax: 0, total: totals[i]! })),
  };
}

export interface PricedOrder {
  check: Check;
  breakdown: CheckBreakdown;
}

/** What the order comes to: the till's pricing when it priced it, else the cloud's figures, else its items. */
export function priceOrder(doc: OrderDoc): PricedOrder {
  if (doc.pricing) {
    try {
      const breakdown = priceLines(doc.lines, doc.discount, pricingRules(doc.pricing), doc.currency);
      return { breakdown, check: tillCheck(doc, breakdown) };
    } catch (error) {
      // Another till changed the lines under a discount that no longer fits: the items stand alone.
      if (!(error instanceof CheckoutError)) throw error;
    }
  }
  const cloud = doc.cloud_check;
  if (cloud) {
    const subtotal = cloud.subtotal ?? doc.total;
    const discountTotal = cloud.discount_total ?? 0;
    const taxTotal = cloud.tax_total ?? 0;
    const taxIncluded = cloud.tax_included ?? false;
    const total = cloud.total ?? subtotal - discountTotal + (taxIncluded ? 0 : taxTotal);
    const breakdown = itemsBreakdown(doc.lines, total, taxIncluded, taxTotal, discountTotal);
    return {
      breakdown,
      check: { subtotal, discountTotal, taxTotal, taxIncluded, total, taxes: taxTotal > 0 ? [{ name: 'Tax', ratePpm: 0, amount: taxTotal }] : [], orderDiscount: null, source: 'cloud' },
    };
  }
  const breakdown = itemsBreakdown(doc.lines, doc.total, false, 0, 0);
  return { breakdown, check: { subtotal: doc.total, discountTotal: 0, taxTotal: 0, taxIncluded: false, total: doc.total, taxes: [], orderDiscount: null, source: 'items' } };
}

function tillCheck(doc: OrderDoc, b: CheckBreakdown): Check {
  return {
    subtotal: b.subtotal,
    discountTotal: b.discountTotal,
    taxTotal: b.taxTotal,
    taxIncluded: b.taxIncluded,
    total: b.total,
    taxes: b.taxes.map((t) => ({ name: t.name, ratePpm: t.ratePpm, amount: t.amount })),
    orderDiscount: doc.discount ? { ...doc.discount, amount: b.orderDiscountTotal } : null,
    source: 'till',
  };
}

export function appliedLineDiscount(line: OrderLineDoc, breakdown: CheckBreakdown, index: number): AppliedDiscount | null {
  return line.discount ? { ...line.discount, amount: breakdown.lines[index]?.lineDiscount ?? 0 } : null;
}

/**
 * The split's parts and which are paid (by what the payments naming each part put toward it); null
 * if the plan no longer fits the lines. An even split shares what was still due when no part had
 * been paid: money taken before the split (`paidOutsideParts`) is not split again.
 */
export function splitView(doc: OrderDoc, priced: PricedOrder, paidByPart: ReadonlyMap<string, number>, paidOutsideParts: number): SplitView | null {
  const plan = doc.split;
  if (!plan) return null;
  let parts: SplitPart[];
  try {
    parts =
      plan.kind === 'even'
        ? splitEvenly(Math.max(0, priced.check.total - paidOutsideParts), plan.parts)
        : splitByItems(priced.breakdown, plan.assignment);
  } catch (error) {
    if (error instanceof CheckoutError) return null;
    throw error;
  }
  return { plan, parts: parts.map((p) => ({ label: p.label, amount: p.amount, paid: (paidByPart.get(p.label) ?? 0) >= p.amount })) };
}

/**
 * What the cloud is told beyond the spec (docs/spec-gaps.md, "Checkout"): how the order is served,
 * its discounts and tax as the till computed them. A server that models none ignores them.
 */
export function wireExtras(doc: Pick<OrderDoc, 'lines' | 'service' | 'discount'>, breakdown: CheckBreakdown | null): Record<string, unknown> {
  const extras: Record<string, unknown> = {};
  if (doc.service?.type) {
    extras.order_type = doc.service.type;
    extras.table = doc.service.table;
    extras.guests = doc.service.guests;
  }
  if (breakdown) {
    extras.discounts = [
      ...doc.lines.flatMap((line, index) => (line.discount ? [{ reason: line.discount.reason, amount: breakdown.lines[index]!.lineDiscount, line: index }] : [])),
      ...(doc.discount ? [{ reason: doc.discount.reason, amount: breakdown.orderDiscountTotal, line: null }] : []),
    ].filter((d) => d.amount > 0);
    extras.tax_total = breakdown.taxTotal;
    extras.tax_included = breakdown.taxIncluded;
  }
  return extras;
}

/**
 * What a priced draft gives away, judged against the approval limits (bridge/checkout/approval.ts).
 * A draft with more discounts than the cloud keeps on one order is refused here, before anyone
 * pays: the cloud would refuse the order after the customer had gone.
 */
export function reviewDraft(lines: readonly OrderLineDoc[], breakdown: CheckBreakdown, limits: CheckoutRules['discountApproval'], currency?: string): DiscountReview {
  const discounts = lines.filter((line, index) => line.discount && breakdown.lines[index]!.lineDiscount > 0).length + (breakdown.orderDiscountTotal > 0 ? 1 : 0);
  if (discounts > DISCOUNTS_MAX) {
    const message = `One order can carry at most ${DISCOUNTS_MAX} discounts (this one has ${discounts}): take a discount off the whole order instead of line by line, or start a second order.`;
    throw new CoreError('invalid_command', message, [{ path: 'discount', message }]);
  }
  return reviewDiscounts(breakdown, lines.map((line) => line.name), limits, currency);
}

/** One discount as the audit log records it: on which line (null: the order), what it took off, and whether it was a comp. */
export interface GivenDiscount {
  line: number | null;
  item: string | null;
  kind: Discount['kind'];
  value: number;
  reason: string;
  amount: number;
  comp: boolean;
}

/**
 * Every discount of a priced draft. A line discount is a comp when its line is left at zero; the
 * order discount is one when it leaves the order, or any line it takes from, at zero.
 */
export function givenDiscounts(lines: readonly OrderLineDoc[], discount: Discount | DiscountDoc | null, breakdown: CheckBreakdown, review: DiscountReview): GivenDiscount[] {
  const comped = new Set(review.compedLines);
  const given: GivenDiscount[] = lines.flatMap((line, i) =>
    line.discount
      ? [{ line: i, item: line.name, kind: line.discount.kind, value: line.discount.value, reason: line.discount.reason, amount: breakdown.lines[i]?.lineDiscount ?? 0, comp: comped.has(i) }]
      : [],
  );
  if (discount) {
    const comp = review.orderComped || review.compedLines.some((i) => (breakdown.lines[i]?.orderDiscount ?? 0) > 0);
    given.push({ line: null, item: null, kind: discount.kind, value: discount.value, reason: discount.reason, amount: breakdown.orderDiscountTotal, comp });
  }
  return given;
}

/** The discounts of `after` not on the order before (a changed order audits only what it adds or changes). */
export function newDiscounts(before: readonly GivenDiscount[], after: readonly GivenDiscount[]): GivenDiscount[] {
  const key = (d: GivenDiscount) => JSON.stringify([d.line === null ? 'order' : d.item, d.kind, d.value, d.reason, d.line === null ? d.amount : null]);
  const left = new Map<string, number>();
  for (const d of before) left.set(key(d), (left.get(key(d)) ?? 0) + 1);
  return after.filter((d) => {
    const n = left.get(key(d)) ?? 0;
    if (n > 0) left.set(key(d), n - 1);
    return n === 0;
  });
}
