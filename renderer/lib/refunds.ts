// What the cashier hears of a refund by item before confirming ("$4.55 in cash, $1.81 to the
// card") and after: the plan is bridge/refund-plan.ts, the one the core refunds by.
import type { Order, Refund } from '../../bridge/contract';
import { planItemRefund, type RefundShare } from '../../bridge/refund-plan';
import { money } from './format';
import type { Preview } from './order-check';

export type { RefundShare } from '../../bridge/refund-plan';

/**
 * The payments a refund by item goes back to (bridge/refund-plan.ts, the plan the core refunds
 * by), or why it cannot be done. `units[i]`: units of line i refunded.
 */
export function refundShares(order: Order, units: readonly number[], amount: number): Preview<RefundShare[]> {
  const lineIndexes = units.flatMap((quantity, index) => (quantity > 0 ? [index] : []));
  const { shares, unplaced } = planItemRefund(order, lineIndexes, amount);
  if (unplaced > 0) {
    return { value: null, error: `These items come to ${money(amount, order.currency)}, but only ${money(amount - unplaced, order.currency)} of what was paid can still be refunded.` };
  }
  return { value: shares, error: null };
}

/** The shares of refunds already made (payments.refundItems' answer), each named by its payment's method. */
export function sharesOfRefunds(order: Order, refunds: readonly Refund[]): RefundShare[] {
  return refunds.flatMap((refund) => {
    // A card payment is shown as its intent; its refunds name the cloud's payment record.
    const payment = order.payments.find((p) => p.id === refund.paymentId || p.refunds.some((r) => r.id === refund.id));
    return payment ? [{ paymentId: payment.id, method: payment.method, amount: refund.amount }] : [];
  });
}

/**
 * "$6.36: $4.55 in cash to hand back and $1.81 to the card", or with one kind of payment
 * "$12.00 in cash to hand back" / "$12.00 to 2 cards". `cash` is how the cash part is said.
 */
export function describeShares(shares: readonly RefundShare[], currency: string, cash = 'in cash to hand back'): string {
  const sum = (list: readonly RefundShare[]) => list.reduce((total, share) => total + share.amount, 0);
  const cards = shares.filter((share) => share.method === 'card');
  const cashShares = shares.filter((share) => share.method === 'cash');
  const cardCount = new Set(cards.map((share) => share.paymentId)).size;
  const toCards = cardCount === 1 ? 'to the card' : `to ${cardCount} cards`;
  if (cards.length === 0) return `${money(sum(cashShares), currency)} ${cash}`;
  if (cashShares.length === 0) return `${money(sum(cards), currency)} ${toCards}`;
  return `${money(sum(shares), currency)}: ${money(sum(cashShares), currency)} ${cash} and ${money(sum(cards), currency)} ${toCards}`;
}
