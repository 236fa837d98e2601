// A refund's words (issue 24, item 13; docs/spec-gaps.md, "A refund's words"): "Other" needs a few
// words, which reach the core with payments.refund and payments.refundItems, are kept with the
// refund (through the cloud's confirmation), audited and printed on its receipt, and never sent to
// the cloud. Through the bridge on a real core, a real SQLite file and a fake TCP receipt printer.
import { afterEach, describe, expect, it } from 'vitest';
import { FakePrinter } from '../printing/fake-printer';
import { ITEMS, reopenStore, startTestCore, type TestCore } from './fixtures';
import { auditSince, lastAuditId, ok, raw, refusal, snapshot } from './staff-fixtures';

let t: TestCore | undefined;
let receipt: FakePrinter | undefined;
afterEach(async () => {
  await t?.core.shutdown();
  await receipt?.stop();
  t = undefined;
  receipt = undefined;
});

/** An order of fries and soup (11.50) paid in cash, by the owner with the drawer open. */
async function paidInCash(core: TestCore) {
  const order = await ok(core.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }, { menuItemId: ITEMS.soup, quantity: 1 }] });
  return ok(core.core, 'payments.take', { orderId: order.id, method: 'cash', amount: order.total });
}

describe('a refund’s words', () => {
  it('“Other” with no words is refused next to the words, by amount and by item, and nothing changes', async () => {
    t = await startTestCore();
    const { order, payment } = await paidInCash(t);
    const before = snapshot(t.dataDir, { guard: true, audit: true });
    const byAmount = { paymentId: payment.id, amount: 100, reason: 'other' };
    const byItem = { orderId: order.id, items: [{ lineIndex: 0, quantity: 1 }], reason: 'other' };
    for (const [command, payload] of [
      ['payments.refund', byAmount],
      ['payments.refund', { ...byAmount, note: '   ' }],
      ['payments.refundItems', byItem],
      ['payments.refundItems', { ...byItem, note: '' }],
    ] as const) {
      const refused = refusal(await raw(t.core, command, payload));
      expect(refused.code, JSON.stringify(payload)).toBe('invalid_command');
      expect(refused.message).toBe('Some details are missing or wrong (note: say in a few words what happened: “Other” alone tells nothing). Nothing was changed.');
      expect(refused.issues).toEqual([{ path: 'note', message: 'say in a few words what happened: “Other” alone tells nothing' }]);
    }
    // Words longer than the dialog takes are refused too, whatever the reason.
    const long = refusal(await raw(t.core, 'payments.refund', { ...byAmount, reason: 'duplicate', note: 'x'.repeat(101) }));
    expect(long.issues).toEqual([{ path: 'note', message: 'say it in at most 100 characters' }]);
    expect(snapshot(t.dataDir, { guard: true, audit: true })).toEqual(before);
    expect((await ok(t.core, 'orders.get', { id: order.id })).refundedAmount).toBe(0);
  });

  it('keeps the words with the refund through the cloud’s confirmation, audits and prints them, and tells the cloud only the reason', async () => {
    receipt = await FakePrinter.start();
    t = await startTestCore({ printing: { receiptPrinter: receipt.url } });
    const order = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    const card = await ok(t.core, 'payments.take', { orderId: order.id, method: 'card', amount: order.total });
    // The cloud has confirmed the card: its payment record is what a refund goes against.
    const setup = reopenStore(t.dataDir);
    setup.server.applyServerRecord('payment', {
      id: 'pay_cloud_card', order_id: order.id, payment_intent_id: card.payment.id, method: 'card', amount: order.total, currency: 'usd', status: 'succeeded', created_at: Date.now(),
    });
    setup.close();

    const from = lastAuditId(t.dataDir);
    const { refund } = await ok(t.core, 'payments.refund', { paymentId: card.payment.id, amount: 300, reason: 'other', note: '  Burger was cold  ' });
    await receipt.waitFor(() => receipt!.text().includes('REFUND'), 'the refund receipt');
    expect(receipt.text()).toContain('Reason: Other: Burger was cold');
    expect(refund.note).toBe('Burger was cold');
    expect(auditSince(t.dataDir, from)).toContainEqual(
      expect.objectContaining({ action: 'refund.create', entity_id: refund.id, detail: expect.objectContaining({ reason: 'other', note: 'Burger was cold' }) }),
    );

    const store = reopenStore(t.dataDir);
    try {
      expect(store.cashier.getRefund(refund.id)?.note).toBe('Burger was cold');
      const [op] = store.outbox.readyOperations(Date.now() + 1000, 10).filter((o) => o.kind === 'refund.create');
      expect(op?.payload).toEqual({ payment_id: 'pay_cloud_card', amount: 300, reason: 'other' });
      // The cloud confirms with its own record, which has no words: the till keeps them.
      store.outbox.completeOperation(op!.opId, { serverRecord: { id: 're_cloud_1', payment_id: 'pay_cloud_card', amount: 300, currency: 'usd', reason: 'other', status: 'succeeded', created_at: Date.now() } });
      expect(store.cashier.getRefund(refund.id)).toMatchObject({ status: 'succeeded', reason: 'other', note: 'Burger was cold' });
    } finally {
      store.close();
    }
  });

  it('gives a refund by item its words on every refund it makes; a refund with none keeps none', async () => {
    t = await startTestCore();
    const { order, payment } = await paidInCash(t);
    const { refunds } = await ok(t.core, 'payments.refundItems', { orderId: order.id, items: [{ lineIndex: 1, quantity: 1 }], reason: 'other', note: 'Soup sent back' });
    const plain = await ok(t.core, 'payments.refund', { paymentId: payment.id, amount: 100, reason: 'requested_by_customer' });
    const store = reopenStore(t.dataDir);
    try {
      expect(refunds.map((r) => store.cashier.getRefund(r.id)?.note)).toEqual(['Soup sent back']);
      expect(store.cashier.getRefund(plain.refund.id)?.note).toBeNull();
    } finally {
      store.close();
    }
  });
});
