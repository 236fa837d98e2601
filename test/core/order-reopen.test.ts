// Reopening a closed check (issue 25, item 7; docs/tables.md, "Reopening a closed check"), through
// the bridge on a real core and SQLite file: a manager's call with a reason (a cashier needs a PIN,
// and a wrong one counts toward the lockout as any other), audited; one reopening per check however
// many arrive at once; an extra charge goes on a linked check paid as usual, a removal is refunded
// by item on the original; the Z report says what reopened checks added and gave back, and the day
// still adds up with nothing counted twice.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { PIN_LIMITS } from '../../store/staff';
import { ITEMS, signIn, STAFF, startTestCore, type TestCore } from './fixtures';
import { auditSince, lastAuditId, readDb, refusal, snapshot, STAFF_ID } from './staff-fixtures';

const T0 = Date.UTC(2030, 2, 14, 15, 0, 0);

let t: TestCore | undefined;
afterEach(async () => {
  await t?.core.shutdown();
  t = undefined;
});

/** A dine-in check at table 9 for 3, rung up and paid by `who` (cash), completed. */
async function closedCheck(c: TestCore) {
  const order = await c.call('orders.place', {
    lines: [
      { menuItemId: ITEMS.burger, quantity: 2 },
      { menuItemId: ITEMS.fries, quantity: 1 },
    ],
    service: { type: 'dine_in', table: '9', guests: 3 },
  });
  await c.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
  return c.call('orders.fulfil', { id: order.id });
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('reopening a closed check', () => {
  it('needs a manager: a cashier without a PIN is refused, a wrong PIN counts toward the lockout, and nothing changes', async () => {
    t = await startTestCore({}, { clock: new ManualClock(T0) }, undefined, { signIn: 'cashier', openShift: true });
    const order = await closedCheck(t);
    const before = snapshot(t.dataDir);
    const mark = lastAuditId(t.dataDir);
    expect(refusal(await t.raw('orders.reopen', { id: order.id, reason: 'Forgot the dessert' }))).toMatchObject({ code: 'needs_manager' });
    for (let i = 0; i < PIN_LIMITS.freeTries; i += 1) {
      expect(refusal(await t.raw('orders.reopen', { id: order.id, reason: 'Forgot the dessert', managerPin: String(2000 + i * 7) }))).toMatchObject({ code: 'needs_manager' });
    }
    expect(auditSince(t.dataDir, mark).filter((a) => a.action === 'staff.wrong_pin')).toHaveLength(PIN_LIMITS.freeTries);
    // Entry now waits, for the manager's right PIN too.
    expect(refusal(await t.raw('orders.reopen', { id: order.id, reason: 'Forgot the dessert', managerPin: STAFF.manager.pin })).message).toMatch(/^Too many wrong PINs/);
    expect((await t.call('staff.session', {})).lockedOutForMs).toBeGreaterThan(0);
    expect(snapshot(t.dataDir)).toEqual(before);
  });

  it('refuses a bad reason next to the field, an open, cancelled or walked-out check, changing nothing', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'manager', openShift: true });
    const order = await closedCheck(t);
    const open = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const cancelled = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await t.call('orders.cancel', { id: cancelled.id, reason: 'Rung up twice' });
    const walked = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await t.call('orders.fulfil', { id: walked.id, walkout: { reason: 'Left without paying' } });
    const before = snapshot(t.dataDir, { audit: true });
    expect(refusal(await t.raw('orders.reopen', { id: order.id, reason: '   ' }))).toMatchObject({ code: 'invalid_command', issues: [{ path: 'reason' }] });
    expect(refusal(await t.raw('orders.reopen', { id: order.id, reason: 'x'.repeat(121) }))).toMatchObject({ code: 'invalid_command', issues: [{ path: 'reason' }] });
    expect(refusal(await t.raw('orders.reopen', { id: open.id, reason: 'Add a drink' })).message).toMatch(/still open/);
    expect(refusal(await t.raw('orders.reopen', { id: cancelled.id, reason: 'Add a drink' })).message).toMatch(/cancelled check cannot be reopened/);
    expect(refusal(await t.raw('orders.reopen', { id: walked.id, reason: 'Add a drink' })).message).toMatch(/walkout/);
    expect(refusal(await t.raw('orders.reopen', { id: 'ord_nowhere', reason: 'Add a drink' }))).toMatchObject({ code: 'not_found' });
    expect(snapshot(t.dataDir, { audit: true })).toEqual(before);
  });

  it('makes one reopening of ten at once, audited with the reason and who did it', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'cashier', openShift: true });
    const order = await closedCheck(t);
    // A manager reopens it: ten PINs at once would spend the till's PIN budget (docs/staff.md), not reopen twice.
    await signIn(t.core, 'manager');
    const mark = lastAuditId(t.dataDir);
    const answers = await Promise.all(Array.from({ length: 10 }, () => t!.raw('orders.reopen', { id: order.id, reason: '  Forgot the dessert ' })));
    expect(answers.map((a) => (a.ok ? 'ok' : a.error.message))).toEqual(Array(10).fill('ok'));
    const reopens = auditSince(t.dataDir, mark).filter((a) => a.action === 'order.reopen');
    expect(reopens).toEqual([expect.objectContaining({ actor: STAFF_ID.manager, entity_id: order.id, detail: { label: order.label, reason: 'Forgot the dessert' } })]);
    expect(readDb(t.dataDir, (db) => db.prepare('SELECT COUNT(*) AS n FROM order_links').get())).toEqual({ n: 1 });
    const view = await t.call('orders.get', { id: order.id });
    expect(view.reopened).toMatchObject({ linked: null, reason: 'Forgot the dessert', by: { id: STAFF_ID.manager }, approvedBy: null });
    expect(view.status).toBe('fulfilled');
  });

  it('an extra charge goes on a linked check at the table, for its server, paid as usual; a removal is refunded by item on the original; the Z report adds up', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'cashier', openShift: true });
    const order = await closedCheck(t);
    const reopened = await t.call('orders.reopen', { id: order.id, reason: 'Forgot the dessert', lines: [{ menuItemId: ITEMS.soup, quantity: 1 }], managerPin: STAFF.manager.pin });
    const linked = await t.call('orders.get', { id: reopened.reopened!.linked!.id });
    expect(linked).toMatchObject({ status: 'open', reopenOf: { id: order.id, label: order.label }, service: { type: 'dine_in', table: '9', guests: 3 }, staff: { id: STAFF_ID.cashier } });
    expect(linked.lines.map((l) => [l.name, l.quantity])).toEqual([['Soup of the day', 1]]);
    expect(reopened.reopened?.linked).toEqual({ id: linked.id, label: linked.label });

    // A repeat without lines answers the same reopening; one with lines is told where they go.
    const before = snapshot(t.dataDir, { audit: true });
    expect((await t.call('orders.reopen', { id: order.id, reason: 'Again' })).reopened?.linked?.id).toBe(linked.id);
    expect(refusal(await t.raw('orders.reopen', { id: order.id, reason: 'Again', lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] })).message).toMatch(new RegExp(`goes on its check ${linked.label}`));
    expect(snapshot(t.dataDir, { audit: true })).toEqual(before);

    await t.call('payments.take', { orderId: linked.id, method: 'cash', amount: linked.total });
    await t.call('orders.fulfil', { id: linked.id });
    // The fries come off: refunded by item on the original, which stays the sale it was.
    const refunded = await t.call('payments.refundItems', { orderId: order.id, items: [{ lineIndex: 1, quantity: 1 }], reason: 'requested_by_customer', managerPin: STAFF.manager.pin });
    expect(refunded.amount).toBe(450);
    expect(refunded.order).toMatchObject({ status: 'fulfilled', total: order.total, refundedAmount: 450 });

    await signIn(t.core, 'manager');
    const z = await t.call('reports.z', {});
    expect(z.reopened).toEqual({
      checks: 1,
      added: 700,
      refunded: 450,
      orders: [
        {
          orderId: order.id,
          label: order.label,
          linkedLabel: linked.label,
          reason: 'Forgot the dessert',
          added: 700,
          refunded: 450,
          staff: { id: STAFF_ID.cashier, name: STAFF.cashier.name },
          approvedBy: { id: STAFF_ID.manager, name: STAFF.manager.name },
        },
      ],
    });
    // Two sales, each counted once: the original as it was sold, the linked check's soup.
    expect(z.sales.orders).toBe(2);
    expect(z.sales.net).toBe(2 * 1200 + 450 + 700);
    expect(z.sales.total).toBe(order.total + linked.total);
    expect(z.refunds.amount).toBe(450);
    const tenders = sum(z.byTender.map((row) => row.net));
    expect(tenders).toBe(order.total + linked.total - 450);
    expect(z.voids.count).toBe(0);
    expect(z.openChecks.count).toBe(0);
  });

  it('an empty reopening is for refunds only; its linked check opens with the first additions, and can be cancelled as any check', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'owner', openShift: true });
    const order = await closedCheck(t);
    await t.call('orders.reopen', { id: order.id, reason: 'Burger was cold' });
    await t.call('payments.refundItems', { orderId: order.id, items: [{ lineIndex: 0, quantity: 1 }], reason: 'requested_by_customer' });
    const added = await t.call('orders.reopen', { id: order.id, reason: 'And a drink', lines: [{ menuItemId: ITEMS.latte, quantity: 1 }] });
    const linked = added.reopened!.linked!;
    expect(added.reopened!.reason).toBe('Burger was cold');
    await t.call('orders.cancel', { id: linked.id, reason: 'Changed their mind' });
    const z = await t.call('reports.z', {});
    expect(z.reopened).toMatchObject({ checks: 1, added: 0, refunded: 1200 });
    expect(z.sales.orders).toBe(1);
    expect(z.voids.count).toBe(1);
  });
});
