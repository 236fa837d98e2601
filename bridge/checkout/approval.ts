// Which discounts a cashier may give alone. A discount is judged by what it does to the check,
// not by how it was typed: the share each line ends up with off (its own discount and its part of
// the order's together, percent or amount alike) against the percent limit, everything off the
// order against the amount limit, and a discount that leaves a line or the order at zero is a comp,
// which is always a manager's (docs/staff.md, "Discounts and comps"). Pure, so the register can
// ask the same question before sending.
import type { CheckBreakdown } from './pricing';
import { describeAmount, describePercent } from './errors';

export interface DiscountLimits {
  /** The largest share of any line a cashier may take off, basis points. */
  percentBps: number;
  /** The most a cashier may take off one order in all, minor units. */
  amount: number;
}

export interface DiscountReview {
  /** Everything off the order: line discounts and the order discount. */
  totalOff: number;
  /** The lines (0-based) a discount brought to zero, and whether the whole order was. */
  compedLines: number[];
  orderComped: boolean;
  /** Lines whose share off is above the percent limit. */
  overShareLines: number[];
  /** The largest share off any line, basis points rounded up (0 with nothing off). */
  largestShareBps: number;
  /** What needs a manager, in the cashier's words; empty when the cashier may give it alone. */
  reasons: string[];
}

/**
 * Line i's share off, exact: its own discount plus its part of the order discount, where the part
 * is the order discount's rate of what the line discounts left (before the allocation's rounding,
 * so a share exactly at the limit is not pushed over by a unit).
 */
function shareAbove(b: CheckBreakdown, i: number, bps: number): boolean {
  const line = b.lines[i]!;
  const gross = BigInt(line.gross);
  if (gross === 0n) return false;
  const discountable = BigInt(b.subtotal - b.lineDiscountTotal);
  const own = BigInt(line.lineDiscount);
  // (own + (gross − own) × orderOff / discountable) / gross > bps / 10000, without dividing.
  const off = discountable === 0n ? own * 10_000n : (own * discountable + (gross - own) * BigInt(b.orderDiscountTotal)) * 10_000n;
  const limit = BigInt(bps) * gross * (discountable === 0n ? 1n : discountable);
  return off > limit;
}

function shareBps(b: CheckBreakdown, i: number): number {
  const line = b.lines[i]!;
  if (line.gross === 0) return 0;
  const off = BigInt(line.lineDiscount + line.orderDiscount) * 10_000n;
  const gross = BigInt(line.gross);
  return Number((off + gross - 1n) / gross);
}

/** Reviews a priced check against the limits; `names` are the lines' names, for the reasons. */
export function reviewDiscounts(breakdown: CheckBreakdown, names: readonly string[], limits: DiscountLimits, currency?: string): DiscountReview {
  const lines = breakdown.lines;
  const compedLines = lines.flatMap((line, i) => (line.gross > 0 && line.lineDiscount + line.orderDiscount >= line.gross ? [i] : []));
  const orderComped = breakdown.subtotal > 0 && breakdown.discountTotal >= breakdown.subtotal;
  const overShareLines = lines.flatMap((_, i) => (shareAbove(breakdown, i, limits.percentBps) ? [i] : []));
  const largestShareBps = lines.reduce((max, _, i) => Math.max(max, shareBps(breakdown, i)), 0);
  const name = (i: number) => names[i] ?? `line ${i + 1}`;

  const reasons: string[] = [];
  if (orderComped) reasons.push(`the whole order comped (${describeAmount(breakdown.discountTotal, currency)} off)`);
  else for (const i of compedLines) reasons.push(`${name(i)} comped (${describeAmount(lines[i]!.gross, currency)} off)`);
  for (const i of overShareLines.filter((i) => !compedLines.includes(i))) {
    reasons.push(`${name(i)}: ${describePercent(shareBps(breakdown, i))} off, above the ${describePercent(limits.percentBps)} limit`);
  }
  if (breakdown.discountTotal > limits.amount) {
    reasons.push(`${describeAmount(breakdown.discountTotal, currency)} off the order in all, above the ${describeAmount(limits.amount, currency)} limit`);
  }
  return { totalOff: breakdown.discountTotal, compedLines, orderComped, overShareLines, largestShareBps, reasons };
}

/**
 * Whether changing an order from `before` to `after` gives away anything a manager has not
 * approved: nothing needs approval when the order was already above the limits (so approved) and
 * the change takes no more off, comps no further line and makes no share larger.
 */
export function givesMoreAway(before: DiscountReview | null, after: DiscountReview): boolean {
  if (after.reasons.length === 0) return false;
  if (before === null || before.reasons.length === 0) return true;
  return (
    after.totalOff > before.totalOff ||
    after.compedLines.length > before.compedLines.length ||
    (after.orderComped && !before.orderComped) ||
    after.largestShareBps > before.largestShareBps ||
    after.overShareLines.length > before.overShareLines.length
  );
}
