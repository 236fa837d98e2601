// Discounts a cashier gives alone, through the bridge as a signed-in cashier would call it
// (issue 22, finding 4): the effective share of every line (its own discount and its part of the
// order's) and the order's total are held to the approval limits, a discount that brings a line or
// the order to zero is a comp and always needs a manager, on orders.place and orders.update alike;
// a refusal changes nothing, and every discount and comp given is audited with who gave and who
// approved it. Then the review itself (bridge/checkout/approval.ts) on random checks.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { applyBps, priceCheck, reviewDiscounts, type CheckLineInput, type DiscountSpec } from '../../bridge/checkout';
import { ITEMS, STAFF, startTestCore, type TestCore } from './fixtures';
import { as, auditSince, lastAuditId, ok, raw, refusal, snapshot, STAFF_ID } from './staff-fixtures';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.core.shutdown();
  t = undefined;
});

/** Burger $12.00, fries $4.50; default limits: 20% and $20.00. */
const burger = (discount?: { kind: 'percent' | 'amount'; value: number; reason: string }) => ({ menuItemId: ITEMS.burger, quantity: 1, ...(discount ? { discount } : {}) });
const amountOff = (value: number, reason = 'Regular') => ({ kind: 'amount' as const, value, reason });
const percentOff = (value: number, reason = 'Regular') => ({ kind: 'percent' as const, value, reason });

async function cashierTill(config: Parameters<typeof startTestCore>[0] = {}): Promise<TestCore> {
  return startTestCore(config, {}, undefined, { signIn: 'cashier' });
}

/** The bridge refuses it for a manager, and nothing but the refusal's audit entry changed. */
async function refusedForManager(test: TestCore, command: 'orders.place' | 'orders.update', payload: unknown): Promise<string> {
  const before = snapshot(test.dataDir);
  const error = refusal(await raw(test.core, command, payload));
  expect(error.code).toBe('needs_manager');
  expect(snapshot(test.dataDir)).toEqual(before);
  return error.message;
}

describe('a cashier alone', () => {
  it('cannot comp an item by an amount off equal to its price', async () => {
    t = await cashierTill();
    await refusedForManager(t, 'orders.place', { lines: [burger(amountOff(1200))] });
    // Nor the whole order by an order discount equal to its total.
    await refusedForManager(t, 'orders.place', { lines: [burger()], discount: amountOff(1200) });
    expect(t.core.pendingOperations()).toBe(0);
  });

  it('cannot take $1,200 off one order in 100 lines each within the per-discount limits', async () => {
    t = await cashierTill();
    // 100 burgers each $12.00 off (a comp per line), and 100 each $2.00 off (16.7%, under 20%): $200 in all.
    await refusedForManager(t, 'orders.place', { lines: Array.from({ length: 100 }, () => burger(amountOff(1200))) });
    await refusedForManager(t, 'orders.place', { lines: Array.from({ length: 100 }, () => burger(amountOff(200))) });
    expect(t.core.pendingOperations()).toBe(0);
  });

  it('cannot stack a line discount and an order discount past the limit (20% + an amount to 100%, 20% + 20%)', async () => {
    t = await cashierTill();
    // 20% off the burger leaves 9.60; 9.60 off the order leaves nothing.
    await refusedForManager(t, 'orders.place', { lines: [burger(percentOff(2000))], discount: amountOff(960) });
    // 20% then 20% of the rest: 36% off the burger.
    await refusedForManager(t, 'orders.place', { lines: [burger(percentOff(2000))], discount: percentOff(2000) });
    // An amount off the order is a share of each line: 5.00 off a 12.00 burger is 41.7%.
    await refusedForManager(t, 'orders.place', { lines: [burger()], discount: amountOff(500) });
    expect(t.core.pendingOperations()).toBe(0);
  });

  it('needs a manager for a comp even when the limits would allow 100%', async () => {
    t = await cashierTill({ checkout: { discountApprovalPercent: 100, discountApprovalAmount: 1_000_000 } });
    await refusedForManager(t, 'orders.place', { lines: [burger(percentOff(10_000, 'Comp – kitchen error'))] });
    await refusedForManager(t, 'orders.place', { lines: [burger(amountOff(1200))] });
    // Within limits this generous, a large discount that leaves something to pay is the cashier's.
    const order = await ok(t.core, 'orders.place', { lines: [burger(percentOff(9000))] });
    expect(order.check.discountTotal).toBe(1080);
  });

  it('gives what is within the limits (line and order together), audited as given by the cashier with no approver', async () => {
    t = await cashierTill();
    const since = lastAuditId(t.dataDir);
    // Burger 10% (1.20), then 10% off the order (1.08 + 0.45 of the fries): 19% off the burger, 10% off the fries, 2.73 in all.
    const order = await ok(t.core, 'orders.place', { lines: [burger(percentOff(1000, 'Loyalty')), { menuItemId: ITEMS.fries, quantity: 1 }], discount: percentOff(1000, 'Happy hour') });
    expect(order.check.discountTotal).toBe(120 + 108 + 45);
    const given = auditSince(t.dataDir, since).filter((e) => e.action === 'discount.given' || e.action === 'comp.given');
    expect(given).toEqual([
      expect.objectContaining({ action: 'discount.given', actor: STAFF_ID.cashier, entity_id: order.id, detail: expect.objectContaining({ line: 0, item: 'Burger', kind: 'percent', value: 1000, reason: 'Loyalty', amount: 120 }) }),
      expect.objectContaining({ action: 'discount.given', actor: STAFF_ID.cashier, entity_id: order.id, detail: expect.objectContaining({ line: null, kind: 'percent', value: 1000, reason: 'Happy hour', amount: 153 }) }),
    ]);
    expect(given.every((e) => !('approvedBy' in e.detail))).toBe(true);
  });
});

describe("with a manager's PIN", () => {
  it('a comp by amount goes through, audited as a comp given by the cashier and approved by the manager', async () => {
    t = await cashierTill();
    const since = lastAuditId(t.dataDir);
    const order = await ok(t.core, 'orders.place', { lines: [burger(amountOff(1200, 'Kitchen error')), { menuItemId: ITEMS.fries, quantity: 1 }], managerPin: STAFF.manager.pin });
    expect(order.lines[0]!.total).toBe(0);
    const audit = auditSince(t.dataDir, since);
    expect(audit.filter((e) => e.action === 'comp.given')).toEqual([
      expect.objectContaining({ actor: STAFF_ID.cashier, entity_id: order.id, detail: expect.objectContaining({ line: 0, item: 'Burger', kind: 'amount', value: 1200, amount: 1200, approvedBy: STAFF_ID.manager }) }),
    ]);
    expect(audit.filter((e) => e.action === 'discount.approved')).toEqual([
      expect.objectContaining({ actor: STAFF_ID.cashier, detail: expect.objectContaining({ approvedBy: STAFF_ID.manager, discounts: [expect.stringMatching(/Burger/)] }) }),
    ]);
  });
});

describe('changing an order', () => {
  it('holds the same limits on orders.update: a comp by lines or by an order discount needs a manager, and a refusal changes nothing', async () => {
    t = await cashierTill();
    const order = await ok(t.core, 'orders.place', { lines: [burger(), { menuItemId: ITEMS.fries, quantity: 1 }] });
    await refusedForManager(t, 'orders.update', { id: order.id, lines: [burger(amountOff(1200)), { menuItemId: ITEMS.fries, quantity: 1 }] });
    await refusedForManager(t, 'orders.update', { id: order.id, discount: amountOff(1650) });
    await refusedForManager(t, 'orders.update', { id: order.id, lines: [burger(percentOff(2000)), { menuItemId: ITEMS.fries, quantity: 1 }], discount: percentOff(2000) });
    // An order discount within the limits on its own, made too large a share by taking a line off.
    const discounted = await ok(t.core, 'orders.update', { id: order.id, discount: amountOff(300) });
    expect(discounted.check.discountTotal).toBe(300);
    await refusedForManager(t, 'orders.update', { id: order.id, lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const since = lastAuditId(t.dataDir);
    await as(t.core, 'manager');
    const comped = await ok(t.core, 'orders.update', { id: order.id, discount: amountOff(1650, 'Complaint') });
    expect(comped.total).toBe(0);
    expect(auditSince(t.dataDir, since).filter((e) => e.action === 'comp.given')).toEqual([
      expect.objectContaining({ actor: STAFF_ID.manager, detail: expect.objectContaining({ line: null, amount: 1650, reason: 'Complaint' }) }),
    ]);
  });

  it('does not ask again for discounts a manager already approved when nothing more comes off', async () => {
    t = await cashierTill();
    const order = await ok(t.core, 'orders.place', { lines: [burger(percentOff(10_000, 'Comp – kitchen error'))], managerPin: STAFF.manager.pin });
    const moved = await ok(t.core, 'orders.update', { id: order.id, service: { type: 'dine_in', table: '7' } });
    expect(moved.check.discountTotal).toBe(1200);
    // Adding an item at full price gives nothing more away either.
    const more = await ok(t.core, 'orders.update', { id: order.id, lines: [burger(percentOff(10_000, 'Comp – kitchen error')), { menuItemId: ITEMS.fries, quantity: 1 }] });
    expect(more.check.discountTotal).toBe(1200);
    // A second comp does.
    await refusedForManager(t, 'orders.update', {
      id: order.id,
      lines: [burger(percentOff(10_000, 'Comp – kitchen error')), { menuItemId: ITEMS.fries, quantity: 1, discount: amountOff(450) }],
    });
  });
});

describe('reviewDiscounts on random checks', () => {
  /** A discount of `kind` valid on `base`, from a seed: percent 0.01%..100%, amount 1..base. */
  const discountOn = (kind: 'percent' | 'amount', seed: number, base: number): DiscountSpec | null =>
    kind === 'percent' ? { kind, value: 1 + (seed % 10_000), reason: 'r' } : base >= 1 ? { kind, value: 1 + (seed % base), reason: 'r' } : null;
  const kind = fc.constantFrom<'percent' | 'amount' | 'none'>('percent', 'amount', 'none', 'none');
  const check = fc.record({
    lines: fc.array(fc.record({ unitPrice: fc.nat(5000), quantity: fc.integer({ min: 1, max: 3 }), kind, seed: fc.nat() }), { minLength: 1, maxLength: 6 }),
    order: fc.record({ kind, seed: fc.nat() }),
    limits: fc.record({ percentBps: fc.nat(10_000), amount: fc.nat(10_000) }),
  });

  it('lets through exactly what stays within the limits: no comp, every line within the percent (to a unit of rounding), the order within the amount', () => {
    fc.assert(
      fc.property(check, ({ lines, order, limits }) => {
        const inputs: CheckLineInput[] = lines.map((l) => ({
          quantity: l.quantity,
          unitPrice: l.unitPrice,
          taxClass: 'food',
          discount: l.kind === 'none' ? null : discountOn(l.kind, l.seed, l.unitPrice * l.quantity),
        }));
        const left = inputs.reduce((sum, l) => sum + l.quantity * l.unitPrice - (l.discount === null ? 0 : l.discount.kind === 'percent' ? applyBps(l.quantity * l.unitPrice, l.discount.value) : l.discount.value), 0);
        const orderDiscount = order.kind === 'none' ? null : discountOn(order.kind, order.seed, left);
        const b = priceCheck(inputs, orderDiscount, { taxIncluded: false, rounding: 'per_line', rates: [] });
        const review = reviewDiscounts(b, inputs.map((_, i) => `Item ${i + 1}`), limits);
        const comp = b.lines.some((l) => l.gross > 0 && l.net === 0);
        const shareOver = b.lines.some((l) => (l.lineDiscount + l.orderDiscount) * 10_000 > limits.percentBps * l.gross + 10_000);
        // Above the limit before the order discount's share was rounded to a unit.
        const shareNearOver = b.lines.some((l) => (l.lineDiscount + l.orderDiscount + 1) * 10_000 > limits.percentBps * l.gross && l.lineDiscount + l.orderDiscount > 0);
        if (review.reasons.length === 0) {
          expect(comp || shareOver || b.discountTotal > limits.amount).toBe(false);
        } else {
          expect(comp || shareNearOver || b.discountTotal > limits.amount).toBe(true);
        }
        expect(review.totalOff).toBe(b.discountTotal);
      }),
      { numRuns: 1000 },
    );
  });
});
