// A voluntary tip is on top of the automatic gratuity, never part of it (docs/tables.md, "Automatic
// gratuity"): the gratuity is owed in full by the check's payments, and the day's report counts
// only what they carried of it as gratuity.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizedText } from '../printing/escpos-decode';
import { ITEMS } from './fixtures';
import { GRATUITY_CONFIG, gratuityTills } from './gratuity-fixtures';

const tills = gratuityTills();
const seated = (guests: number) => ({ type: 'dine_in' as const, table: '12', guests });
// 8 burgers: $96.00 + $9.60 tax = $105.60; 18% of $96.00 = $17.28, $8.64 with each half.
const eightBurgers = (guests: number) => ({ lines: [{ menuItemId: ITEMS.burger, quantity: 8 }], service: seated(guests) });

describe('a voluntary tip and the automatic gratuity', () => {
  it('a tip above a payment’s part is on top: the next payment still carries its whole part, and the report counts the gratuity alone', async () => {
    const t = await tills.start(GRATUITY_CONFIG);
    const order = await t.call('orders.place', eightBurgers(8));
    expect(order.gratuity).toMatchObject({ charged: 1_728, collected: 0 });
    const first = await t.call('payments.take', { orderId: order.id, method: 'card', amount: 5_280, tip: 864 + 1_000 });
    expect(first.order.gratuity).toMatchObject({ collected: 864 });
    for (const tip of [0, 863]) {
      const short = await t.core.invoke({ command: 'payments.take', payload: { orderId: order.id, method: 'card', amount: 5_280, tip } });
      expect(short).toMatchObject({ ok: false, error: { code: 'invalid_command', message: expect.stringContaining('at least $8.64') } });
    }
    const last = await t.call('payments.take', { orderId: order.id, method: 'card', amount: 5_280, tip: 864 });
    expect(last.order.gratuity).toMatchObject({ charged: 1_728, collected: 1_728 });
    expect(last.order.tipTotal).toBe(1_728 + 1_000);
    const z = await t.call('reports.z', {});
    expect(z.gratuity).toEqual({ checks: 1, collected: 1_728, tax: 0 });
    expect(z.tips.card).toBe(1_728 + 1_000);
  });

  // Each payment keeps the part of its tip that was gratuity when it was taken (migration 32): the
  // gratuity that appears later does not reach back into a tip given before it.
  it('a tip given before the party reached the threshold is a tip: the later payments carry all of the gratuity, and the receipt says so', async () => {
    const receipt = await tills.printer();
    const t = await tills.start({ ...(GRATUITY_CONFIG as object), printing: { receiptPrinter: receipt.url } } as never);
    const order = await t.call('orders.place', eightBurgers(6));
    expect(order.gratuity).toBeNull();
    await t.call('payments.take', { orderId: order.id, method: 'card', amount: 5_280, tip: 1_000 });
    // Two more guests sit down: $17.28 is owed, and nothing of it was paid yet.
    const eight = await t.call('orders.update', { id: order.id, service: seated(8) });
    expect(eight.gratuity).toMatchObject({ charged: 1_728, collected: 0 });
    const short = await t.core.invoke({ command: 'payments.take', payload: { orderId: order.id, method: 'card', amount: 5_280, tip: 864 } });
    expect(short).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    const last = await t.call('payments.take', { orderId: order.id, method: 'card', amount: 5_280, tip: 1_728 });
    expect(last.order.gratuity).toMatchObject({ charged: 1_728, collected: 1_728 });
    expect(last.order.tipTotal).toBe(1_000 + 1_728);
    const z = await t.call('reports.z', {});
    expect(z.gratuity).toEqual({ checks: 1, collected: 1_728, tax: 0 });
    expect(z.tips.card).toBe(1_000 + 1_728);
    // The last payment's receipt: the gratuity apart, and the voluntary $10.00 as the tip.
    await receipt.waitFor(() => receipt.count('Thank you!') >= 2, 'the second receipt');
    const paper = normalizedText(receipt.decodedJobs().at(-1)!);
    expect(paper).toMatch(/Gratuity 18% \(8\+ guests\)\s+\$17\.28/);
    expect(paper).toMatch(/Tip\s+\$10\.00/);
  });

  it('a tip given before a check was merged in is a tip: the party pays all of the gratuity after the merge', async () => {
    const t = await tills.start(GRATUITY_CONFIG);
    // Four burgers for four: $48.00 + $4.80 tax = $52.80, no gratuity.
    const into = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 4 }], service: seated(4) });
    expect(into.gratuity).toBeNull();
    await t.call('payments.take', { orderId: into.id, method: 'card', amount: 2_640, tip: 1_000 });
    const from = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 4 }], service: { type: 'dine_in', table: '14', guests: 4 } });
    // Eight for eight burgers: $105.60, $26.40 paid, $17.28 of gratuity of which nothing paid yet.
    const merged = await t.call('orders.merge', { into: into.id, from: from.id });
    expect(merged.service.guests).toBe(8);
    expect(merged.gratuity).toMatchObject({ charged: 1_728, collected: 0 });
    const short = await t.raw('payments.take', { orderId: into.id, method: 'card', amount: 7_920, tip: 1_727 });
    expect(short).toMatchObject({ ok: false, error: { code: 'invalid_command', message: expect.stringContaining('at least $17.28') } });
    const last = await t.call('payments.take', { orderId: into.id, method: 'card', amount: 7_920, tip: 1_728 });
    expect(last.order.gratuity).toMatchObject({ charged: 1_728, collected: 1_728 });
    expect(last.order.tipTotal).toBe(1_000 + 1_728);
    const z = await t.call('reports.z', {});
    expect(z.gratuity).toEqual({ checks: 1, collected: 1_728, tax: 0 });
    expect(z.tips.card).toBe(1_000 + 1_728);
  });

  it('a payment taken before the parts were recorded counts as it did: what today’s gratuity asks of its tip', async () => {
    const t = await tills.start(GRATUITY_CONFIG);
    const order = await t.call('orders.place', eightBurgers(8));
    await t.call('payments.take', { orderId: order.id, method: 'card', amount: 5_280, tip: 864 + 500 });
    await t.call('payments.take', { orderId: order.id, method: 'card', amount: 5_280, tip: 864 });
    // As a till upgraded from before migration 32 has them: no part recorded.
    const db = new Database(join(t.dataDir, 'terminal.db'));
    try {
      expect(db.prepare('UPDATE payment_intents SET gratuity = NULL WHERE order_id = ?').run(order.id).changes).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    const view = await t.call('orders.get', { id: order.id });
    expect(view.gratuity).toMatchObject({ charged: 1_728, collected: 1_728 });
    expect(view.tipTotal).toBe(1_728 + 500);
  });
});
