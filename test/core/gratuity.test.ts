// The automatic gratuity through the bridge (issue 25, item 6): a party at the threshold gets it and
// one guest fewer does not; it rides on the payments' tips in proportion (the parts add up to it to
// the cent, cash too); a payment that would leave it out is refused and records nothing; a manager
// takes it off with a reason; the rule is frozen on the check as its tax rules are.
import { describe, expect, it } from 'vitest';
import { normalizedText } from '../printing/escpos-decode';
import { ITEMS, signIn, STAFF } from './fixtures';
import { GRATUITY_CONFIG, gratuityTills } from './gratuity-fixtures';

const tills = gratuityTills();
const party = (guests: number, table = '12') => ({ lines: [{ menuItemId: ITEMS.burger, quantity: guests }], service: { type: 'dine_in' as const, table, guests } });

describe('automatic gratuity', () => {
  it('is on the check of a party at the threshold, after discounts and before tax, and not one guest below it', async () => {
    const t = await tills.start(GRATUITY_CONFIG);
    const eight = await t.call('orders.place', { ...party(8), discount: { kind: 'amount', value: 600, reason: 'Birthday' } });
    // 8 burgers $96.00, $6.00 off: 18% of $90.00.
    expect(eight.gratuity).toMatchObject({ name: 'Gratuity', percentBps: 1800, minGuests: 8, base: 9_000, amount: 1_620, tax: 0, charged: 1_620, collected: 0, removed: null });
    expect(eight.total).toBe(9_900); // the order's total is what was ordered: the gratuity is a tip
    expect((await t.call('orders.place', party(7, '14'))).gratuity).toBeNull();
    expect((await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 9 }] })).gratuity).toBeNull(); // takeout: no party
    // Fewer guests on the check: no gratuity; more again: it is back.
    expect((await t.call('orders.update', { id: eight.id, service: { type: 'dine_in', table: '12', guests: 7 } })).gratuity).toBeNull();
    expect((await t.call('orders.update', { id: eight.id, service: { type: 'dine_in', table: '12', guests: 8 } })).gratuity?.charged).toBe(1_620);
  });

  it('rides on the tips of the payments that settle the check: their parts add up to it, and one without its part is refused and records nothing', async () => {
    const t = await tills.start(GRATUITY_CONFIG);
    const order = await t.call('orders.place', party(8));
    const charged = order.gratuity!.charged; // 18% of $96.00 = $17.28
    expect(charged).toBe(1_728);
    const third = Math.floor(order.total / 3);

    const refused = await t.core.invoke({ command: 'payments.take', payload: { orderId: order.id, method: 'card', amount: third, tip: 0 } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_command', message: expect.stringContaining('This check carries Gratuity (18%)') } });
    expect((await t.call('orders.get', { id: order.id })).paidAmount).toBe(0);

    const first = await t.call('payments.take', { orderId: order.id, method: 'card', amount: third, tip: 576 });
    // Cash: its part is taken even where cash tips are off, but nothing more.
    const over = await t.core.invoke({ command: 'payments.take', payload: { orderId: order.id, method: 'cash', amount: third, tip: 600 } });
    expect(over).toMatchObject({ ok: false, error: { message: expect.stringContaining('Tips on cash are not taken') } });
    const second = await t.call('payments.take', { orderId: order.id, method: 'cash', amount: third, tip: 576 });
    const last = await t.call('payments.take', { orderId: order.id, method: 'card', amount: order.total - 2 * third, tip: 576 + 1_000 });
    expect([first, second, last].map((r) => r.payment.tip)).toEqual([576, 576, 1_576]);
    expect(last.order.gratuity).toMatchObject({ charged, collected: charged });
    expect(last.order.tipTotal).toBe(charged + 1_000);
    // The day's report says it apart, inside the tips.
    const z = await t.call('reports.z', {});
    expect(z.gratuity).toEqual({ checks: 1, collected: charged, tax: 0 });
    expect(z.tips.card + z.tips.cash).toBe(charged + 1_000);
  });

  it('cannot be dropped by a cashier lowering the guests below the threshold, alone or 10 times at once; a manager may', async () => {
    const t = await tills.start(GRATUITY_CONFIG, {}, undefined, { signIn: 'cashier' });
    const order = await t.call('orders.place', party(8));
    const fewer = { id: order.id, service: { type: 'dine_in' as const, table: '12', guests: 7 } };
    const refusals = await Promise.all(Array.from({ length: 10 }, () => t!.core.invoke({ command: 'orders.update', payload: fewer })));
    for (const refused of refusals) expect(refused).toMatchObject({ ok: false, error: { code: 'needs_manager' } });
    const takeout = await t.core.invoke({ command: 'orders.update', payload: { id: order.id, service: { type: 'takeout', table: null, guests: null } } });
    expect(takeout).toMatchObject({ ok: false, error: { code: 'needs_manager' } });
    expect((await t.call('orders.get', { id: order.id })).gratuity).toMatchObject({ charged: 1_728, removed: null });
    // More guests, or the same, need nobody.
    expect((await t.call('orders.update', { id: order.id, service: { type: 'dine_in', table: '12', guests: 9 } })).gratuity?.charged).toBe(1_728);
    expect((await t.call('orders.update', { ...fewer, managerPin: STAFF.manager.pin })).gratuity).toBeNull();
  });

  it('comes off with a manager, a reason and an audit entry; the payments then carry none of it', async () => {
    const t = await tills.start(GRATUITY_CONFIG);
    const order = await t.call('orders.place', party(10));
    await signIn(t.core, 'cashier');
    const refused = await t.core.invoke({ command: 'orders.removeGratuity', payload: { id: order.id, reason: 'Regulars' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'needs_manager' } });
    await signIn(t.core, 'manager');
    const off = await t.call('orders.removeGratuity', { id: order.id, reason: 'Regulars: the owner says so' });
    expect(off.gratuity?.removed).toMatchObject({ reason: 'Regulars: the owner says so', by: { name: 'Max Manager' } });
    const paid = await t.call('payments.take', { orderId: order.id, method: 'card', amount: order.total, tip: 0 });
    expect(paid.order).toMatchObject({ paidAmount: order.total, tipTotal: 0 });
    expect(paid.order.gratuity).toMatchObject({ collected: 0 });
    const refusedNone = await t.core.invoke({ command: 'orders.removeGratuity', payload: { id: (await t.call('orders.place', party(2, '3'))).id, reason: 'x' } });
    expect(refusedNone).toMatchObject({ ok: false, error: { code: 'conflict', message: 'This check carries no automatic gratuity.' } });
  });

  it('is frozen on the check when it is placed: a change in Settings moves only the checks placed after it', async () => {
    const t = await tills.start(GRATUITY_CONFIG);
    const before = await t.call('orders.place', party(8));
    await t.call('settings.update', { checkout: { autoGratuity: { name: 'Service', percentBps: 2000, minGuests: 6, taxClass: 'standard' } } });
    expect((await t.call('orders.get', { id: before.id })).gratuity).toMatchObject({ name: 'Gratuity', percentBps: 1800 });
    const after = await t.call('orders.place', party(6, '14'));
    // 20% of $72.00 = $14.40, taxed 10% on top: $15.84.
    expect(after.gratuity).toMatchObject({ name: 'Service', percentBps: 2000, amount: 1_440, tax: 144, charged: 1_584 });
    await t.call('settings.update', { checkout: { autoGratuity: null } });
    expect((await t.call('orders.place', party(12, '15'))).gratuity).toBeNull();
  });

  it('is on the bill with the amount due with it and no further tip suggested, and on the receipt apart from any tip', async () => {
    const receipt = await tills.printer();
    const t = await tills.start({ ...(GRATUITY_CONFIG as object), printing: { receiptPrinter: receipt.url } } as never);
    const order = await t.call('orders.place', party(8));
    // $96.00 + $9.60 tax = $105.60 due; $17.28 of gratuity with it.
    await t.call('printing.reprint', { orderId: order.id });
    await receipt.waitFor(() => receipt.text().includes('WITH GRATUITY'), 'the bill');
    const bill = receipt.text();
    expect(bill).toMatch(/Gratuity 18% \(8\+ guests\)\s+\$17\.28/);
    expect(bill).toMatch(/WITH GRATUITY\s+\$122\.88/);
    expect(bill).not.toContain('Suggested tip');
    await t.call('payments.take', { orderId: order.id, method: 'card', amount: order.total, tip: 1_728 + 500 });
    await receipt.waitFor(() => receipt.text().includes('Thank you!'), 'the receipt');
    const paper = normalizedText(receipt.decodedJobs().at(-1)!);
    expect(paper).toMatch(/Gratuity 18% \(8\+ guests\)\s+\$17\.28/);
    expect(paper).toMatch(/Tip\s+\$5\.00/);
  });
});
