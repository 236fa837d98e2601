// Where a refund by item goes back, as the refund dialog says it before confirming
// (renderer/lib/refunds.ts), against what the real core then does: the payments of the refunded
// lines' check first when the bill is split by items, then the newest first, each up to what it
// put toward the order less what it gave back already, tips never; and the words for it.
import { describe, expect, it } from 'vitest';
import type { Order } from '../../bridge/contract';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { describeShares, refundShares, sharesOfRefunds, type RefundShare } from '../../renderer/lib/refunds';
import { ITEMS } from '../core/fixtures';
import { payByCardInTheCloud, placeBurgersAndFries } from './order-fixtures';
import { coreForEachTest } from './with-core';

const { start: withCore, core } = coreForEachTest();

/**
 * The renderer's shares for `units` (in the order it takes from the payments), then the core's
 * refunds for the same units as shares, in that order too (the core lists them by payment).
 */
async function predictedAndDone(client: BridgeClient, order: Order, units: number[]) {
  const items = units.flatMap((quantity, lineIndex) => (quantity > 0 ? [{ lineIndex, quantity }] : []));
  const done = await client.call('payments.refundItems', { orderId: order.id, items, reason: 'requested_by_customer' });
  const predicted = refundShares(order, units, done.amount);
  const taken = predicted.value?.map((share) => share.paymentId) ?? [];
  const byTaking = (a: RefundShare, b: RefundShare) => taken.indexOf(a.paymentId) - taken.indexOf(b.paymentId);
  return { predicted, done: sharesOfRefunds(done.order, done.refunds).sort(byTaking), after: done.order };
}

describe('refund shares', () => {
  it('go to the payment of the refunded line’s check first when the bill is split by items', async () => {
    const client = await withCore();
    const order = await client.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 2 },
        { menuItemId: ITEMS.fries, quantity: 1 },
      ],
    });
    const split = await client.call('orders.update', { id: order.id, split: { kind: 'items', assignment: [1, 2] } });
    const [burgers, fries] = split.split!.parts;
    // The burgers' check paid first: "newest first" alone would refund the fries' payment.
    await client.call('payments.take', { orderId: order.id, method: 'cash', amount: burgers!.amount, splitPart: burgers!.label });
    const paid = await client.call('payments.take', { orderId: order.id, method: 'cash', amount: fries!.amount, splitPart: fries!.label });
    const { predicted, done } = await predictedAndDone(client, paid.order, [1, 0]);
    expect(predicted.value).toEqual(done);
    expect(done).toEqual([{ paymentId: paid.order.payments[0]!.id, method: 'cash', amount: 1200 }]);
  });

  it('go to the newest payment first and spill over to older ones, minus what they gave back already and never their tips', async () => {
    const client = await withCore();
    // Burgers 2 × 12.00 + fries 4.50 = 28.50: a card 15.00 + 5.00 tip, cash 5.00, cash 8.50 (2.00 of it given back by amount).
    const order = await placeBurgersAndFries(client);
    await payByCardInTheCloud(client, core().dataDir, order.id, 1500, 500);
    await client.call('payments.take', { orderId: order.id, method: 'cash', amount: 500 });
    const last = await client.call('payments.take', { orderId: order.id, method: 'cash', amount: 850 });
    const refunded = await client.call('payments.refund', { paymentId: last.payment.id, amount: 200, reason: 'other', note: 'Cold soup' });
    // One burger (12.00): the 6.50 left of the newest cash, the older cash's 5.00, then 0.50 of the card.
    const first = await predictedAndDone(client, refunded.order, [1, 0]);
    expect(first.predicted.value).toEqual(first.done);
    expect(first.done.map((share) => [share.method, share.amount])).toEqual([
      ['cash', 650],
      ['cash', 500],
      ['card', 50],
    ]);
    expect(describeShares(first.done, 'usd')).toBe('$12.00: $11.50 in cash to hand back and $0.50 to the card');
    // The other burger and the fries (16.50) are more than the card's 14.50 left (its tip is not the order's): refused before asking, as the core refuses it.
    const tooMuch = refundShares(first.after, [1, 1], 1650);
    expect(tooMuch.error).toBe('These items come to $16.50, but only $14.50 of what was paid can still be refunded.');
    await expect(client.call('payments.refundItems', { orderId: order.id, items: [{ lineIndex: 0, quantity: 1 }, { lineIndex: 1, quantity: 1 }], reason: 'other', note: 'Cold soup' })).rejects.toMatchObject({
      message: tooMuch.error,
    });
    const second = await predictedAndDone(client, first.after, [0, 1]);
    expect(second.predicted.value).toEqual(second.done);
    expect(second.done.map((share) => [share.method, share.amount])).toEqual([['card', 450]]);
    expect(describeShares(second.done, 'usd')).toBe('$4.50 to the card');
  });

  it('are said in cash and to each card', () => {
    const share = (paymentId: string, method: 'card' | 'cash', amount: number) => ({ paymentId, method, amount });
    expect(describeShares([share('c1', 'cash', 455), share('k1', 'card', 181)], 'usd')).toBe('$6.36: $4.55 in cash to hand back and $1.81 to the card');
    expect(describeShares([share('k1', 'card', 300), share('k2', 'card', 200)], 'usd')).toBe('$5.00 to 2 cards');
    expect(describeShares([share('c1', 'cash', 455), share('k1', 'card', 181)], 'usd', 'in cash')).toBe('$6.36: $4.55 in cash and $1.81 to the card');
  });
});
