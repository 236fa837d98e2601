// The bridge takes no more than /v1 does (issue 22, finding 6): an order the till accepted but the
// cloud cannot take would be refused after the customer paid. Through the core, as the shells call it.
import { afterEach, describe, expect, it } from 'vitest';
import { DISCOUNT_REASON_MAX } from '../../api/records';
import { DISCOUNTS_MAX, ORDER_LINES_MAX as API_ORDER_LINES_MAX } from '../../api/requests';
import { ORDER_LINES_MAX } from '../../bridge/contract';
import { MAX_AMOUNT, MAX_TILL_CASH } from '../../bridge/money';
import { PAYMENT_CAPS } from '../../bridge/store-mode/contract';
import { ITEMS, reopenStore, STAFF, startTestCore, type TestCore } from './fixtures';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.core.shutdown();
  t = undefined;
});

const line = { menuItemId: ITEMS.fries, quantity: 1 };
const lines = (n: number) => Array.from({ length: n }, () => line);

async function refused(command: string, payload: unknown): Promise<{ code: string; message: string }> {
  const response = await t!.raw(command, payload);
  if (response.ok) throw new Error(`${command} was accepted`);
  return response.error;
}

describe('what the bridge accepts, capped at what /v1 takes', () => {
  it('agrees with the wire contract', () => {
    expect(ORDER_LINES_MAX).toBe(API_ORDER_LINES_MAX);
  });

  it('takes a payment on another till’s order under the same caps as payments.take', () => {
    expect(PAYMENT_CAPS).toEqual({ amount: MAX_AMOUNT, tillCash: MAX_TILL_CASH });
  });

  it('refuses a 101-line order, a change to 101 lines and a refund of 101 items, with nothing written', async () => {
    t = await startTestCore();
    const full = await t.call('orders.place', { lines: lines(ORDER_LINES_MAX) });
    expect(full.lines).toHaveLength(100);
    const before = reopenStore(t.dataDir);
    const queued = before.outbox.outboxStats(Date.now()).pending;
    before.close();

    const placed = await refused('orders.place', { lines: lines(ORDER_LINES_MAX + 1) });
    expect(placed).toMatchObject({ code: 'invalid_command', message: expect.stringMatching(/at most 100 lines/) });
    const small = await t.call('orders.place', { lines: lines(1) });
    expect(await refused('orders.update', { id: small.id, lines: lines(ORDER_LINES_MAX + 1) })).toMatchObject({ code: 'invalid_command' });
    const items = Array.from({ length: ORDER_LINES_MAX + 1 }, (_, lineIndex) => ({ lineIndex, quantity: 1 }));
    expect(await refused('payments.refundItems', { orderId: full.id, items, reason: 'other', note: 'Cold soup', managerPin: STAFF.manager.pin })).toMatchObject({ code: 'invalid_command' });
    expect(await refused('orders.update', { id: small.id, split: { kind: 'items', assignment: Array.from({ length: ORDER_LINES_MAX + 1 }, () => 1) } })).toMatchObject({ code: 'invalid_command' });

    const after = reopenStore(t.dataDir);
    expect(after.outbox.outboxStats(Date.now()).pending).toBe(queued + 1); // only the small order
    expect(after.cashier.getOrder(small.id)?.lines).toHaveLength(1);
    after.close();
  });

  it('refuses a discount reason longer than the cloud keeps', async () => {
    t = await startTestCore();
    const reason = (n: number) => 'x'.repeat(n);
    const discount = (n: number) => ({ kind: 'percent', value: 500, reason: reason(n) });
    expect(await refused('orders.place', { lines: lines(1), discount: discount(DISCOUNT_REASON_MAX + 1) })).toMatchObject({ code: 'invalid_command' });
    expect(await refused('orders.place', { lines: [{ ...line, discount: discount(DISCOUNT_REASON_MAX + 1) }] })).toMatchObject({ code: 'invalid_command' });
    const order = await t.call('orders.place', { lines: lines(1), discount: discount(DISCOUNT_REASON_MAX) } as never);
    expect(order.id).toBeTruthy();
  });

  it('refuses more discounts on one order than the cloud keeps (100 discounted lines and an order discount), before anyone pays', async () => {
    t = await startTestCore();
    const small = { kind: 'percent', value: 500, reason: 'regular' } as const;
    const discounted = Array.from({ length: DISCOUNTS_MAX }, () => ({ ...line, discount: small }));
    const placed = await t.call('orders.place', { lines: discounted });
    const refusal = await refused('orders.place', { lines: discounted, discount: small });
    expect(refusal).toMatchObject({ code: 'invalid_command', message: expect.stringMatching(/at most 100 discounts \(this one has 101\)/) });
    expect(await refused('orders.update', { id: placed.id, discount: small })).toMatchObject({ code: 'invalid_command' });
    expect((await t.call('orders.get', { id: placed.id })).total).toBe(placed.total);
  });
});
