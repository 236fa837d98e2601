// An order's check in the shape the checkout arithmetic reads (bridge/checkout), built from the
// figures the core sent, so a split or a refund by item is previewed exactly as the core does it.
import type { Order } from '../../bridge/contract';
import { allocate, CheckoutError, refundForUnits, splitByItems, splitEvenly, type CheckBreakdown, type SplitPart } from '../../bridge/checkout';

/**
 * Each line's gross, own discount and total are the order's; its share of the order discount is
 * shared the way priceCheck shares it; the order carries no per-line tax, so the check's tax is
 * spread by net (the previews read only gross and total).
 */
export function breakdownOfOrder(order: Order): CheckBreakdown {
  const { check } = order;
  const lineDiscounts = order.lines.map((line) => line.discount?.amount ?? 0);
  const discountable = order.lines.map((line, index) => line.lineTotal - (lineDiscounts[index] ?? 0));
  const orderShares = allocate(check.orderDiscount?.amount ?? 0, discountable);
  const nets = discountable.map((amount, index) => amount - (orderShares[index] ?? 0));
  const taxes = allocate(check.taxTotal, nets.map((net) => Math.max(0, net)));
  return {
    subtotal: check.subtotal,
    lineDiscountTotal: lineDiscounts.reduce((a, b) => a + b, 0),
    orderDiscountTotal: check.orderDiscount?.amount ?? 0,
    discountTotal: check.discountTotal,
    taxTotal: check.taxTotal,
    taxIncluded: check.taxIncluded,
    total: check.total,
    taxes: check.taxes.map((tax) => ({ taxClass: '', name: tax.name, ratePpm: tax.ratePpm, taxable: 0, amount: tax.amount })),
    lines: order.lines.map((line, index) => ({
      gross: line.lineTotal,
      lineDiscount: lineDiscounts[index] ?? 0,
      orderDiscount: orderShares[index] ?? 0,
      net: nets[index] ?? 0,
      tax: taxes[index] ?? 0,
      total: line.total,
    })),
  };
}

/** What the order still owes (before tips). */
export function balanceDue(order: Pick<Order, 'total' | 'paidAmount'>): number {
  return Math.max(0, order.total - order.paidAmount);
}

/** A preview, or the checkout arithmetic's refusal in words for the cashier. */
export type Preview<T> = { value: T; error: null } | { value: null; error: string };

function preview<T>(compute: () => T): Preview<T> {
  try {
    return { value: compute(), error: null };
  } catch (caught) {
    if (caught instanceof CheckoutError) return { value: null, error: caught.message };
    throw caught;
  }
}

/** The parts an even split would have: the order's total shared by `count`, as the core splits it. */
export function previewEvenSplit(order: Order, count: number): Preview<SplitPart[]> {
  return preview(() => splitEvenly(order.total, count));
}

/**
 * The checks a split by items would have (`assignment[i]`: the check line i goes to, from 1),
 * among `checks` checks: one left without items is refused as splitByItems refuses a gap.
 */
export function previewItemSplit(order: Order, assignment: readonly number[], checks: number): Preview<SplitPart[]> {
  return preview(() => {
    const parts = splitByItems(breakdownOfOrder(order), assignment);
    if (parts.length < checks) {
      throw new CheckoutError('empty_split_check', `Check ${parts.length + 1} of ${checks} has no items: move an item to it or split into fewer checks.`);
    }
    return parts;
  });
}

/** What giving back `units[i]` more units of each line returns, as the core works it out. */
export function refundPreview(order: Order, units: readonly number[]): Preview<number> {
  const check = breakdownOfOrder(order);
  return preview(() =>
    order.lines.reduce((sum, line, index) => {
      const quantity = units[index] ?? 0;
      return quantity === 0 ? sum : sum + refundForUnits(check, index, line.quantity, line.refundedQuantity, quantity);
    }, 0),
  );
}
