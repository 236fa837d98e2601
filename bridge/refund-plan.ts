// Where the money of a refund by item goes back: the core refunds by this plan, and the register
// says it before the cashier confirms ("$4.55 in cash, $1.81 to the card"). Pure: both sides run it.
import type { Order } from './contract';
import type { PaymentMethod } from './primitives';

/** What one payment gives back. */
export interface RefundShare {
  paymentId: string;
  method: PaymentMethod;
  amount: number;
}

/**
 * The payments `amount` goes back to when units of the lines `lineIndexes` are refunded: first
 * those that paid the checks of these lines (a split by items), then the newest first; each gives
 * back at most what it put toward the order less what it gave back already (tips stay with the
 * staff). `unplaced` is what no payment can take (0 when the plan covers the amount).
 */
export function planItemRefund(order: Order, lineIndexes: readonly number[], amount: number): { shares: RefundShare[]; unplaced: number } {
  const live = order.payments.filter((payment) => payment.status !== 'failed');
  const plan = order.split?.plan;
  const checks = new Set<string>();
  if (plan?.kind === 'items') {
    const count = Math.max(...plan.assignment);
    for (const index of lineIndexes) checks.add(`${plan.assignment[index]} of ${count}`);
  }
  const ofTheseChecks = (splitPart: string | null) => splitPart !== null && checks.has(splitPart);
  const ordered = [...live.filter((p) => ofTheseChecks(p.splitPart)), ...live.filter((p) => !ofTheseChecks(p.splitPart)).reverse()];
  const shares: RefundShare[] = [];
  let unplaced = amount;
  for (const payment of ordered) {
    if (unplaced === 0) break;
    const room = payment.amount - payment.refundedAmount;
    if (room <= 0) continue;
    const take = Math.min(room, unplaced);
    shares.push({ paymentId: payment.id, method: payment.method, amount: take });
    unplaced -= take;
  }
  return { shares, unplaced };
}
