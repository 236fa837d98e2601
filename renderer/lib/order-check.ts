// Previews of a split or a refund by item, from the figures the core sent, with the arithmetic
// the core uses (bridge/checkout), so the screen says what the core will do.
import type { Order } from '../../bridge/contract';
import { CheckoutError, refundForUnits, splitByItems, splitEvenly, type CheckLines, type SplitPart } from '../../bridge/checkout';

/** The order's lines as the split and refund arithmetic reads them: each line's gross and total, as the core sent them. */
export function linesOfOrder(order: Order): CheckLines {
  return { lines: order.lines.map((line) => ({ gross: line.lineTotal, total: line.total })) };
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
    const parts = splitByItems(linesOfOrder(order), assignment);
    if (parts.length < checks) {
      throw new CheckoutError('empty_split_check', `Check ${parts.length + 1} of ${checks} has no items: move an item to it or split into fewer checks.`);
    }
    return parts;
  });
}

/** What giving back `units[i]` more units of each line returns, as the core works it out. */
export function refundPreview(order: Order, units: readonly number[]): Preview<number> {
  const check = linesOfOrder(order);
  return preview(() =>
    order.lines.reduce((sum, line, index) => {
      const quantity = units[index] ?? 0;
      return quantity === 0 ? sum : sum + refundForUnits(check, index, line.quantity, line.refundedQuantity, quantity);
    }, 0),
  );
}
