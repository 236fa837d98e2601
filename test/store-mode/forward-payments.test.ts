// A payment taken on one till toward an order another till owns: two real cores in this process (Bar
// owns the order, Front takes the money), each with its own SQLite file, pulling each other over mutual
// TLS on 127.0.0.1. The cash is in Front's drawer, the payment is on Bar's order once with Front's id for
// it and in none of Bar's drawers; 10 parallel payments of what is due take it once; a payment Bar refuses
// is said on Front, its cash handed back once (a paid-out), a refused card never charged. A split made
// from Front is made on Bar, and its parts are paid from Front by label, once each.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ITEMS, STAFF, type StaffKey, type TestCore } from '../core/fixtures';
import { FakePrinter } from '../printing/fake-printer';
import { inProcessTills, tillConfig } from './fixtures/in-process-tills';
import { freePorts } from './fixtures/ports';

const tills = inProcessTills();
const { start, stop } = tills;
let printer: FakePrinter | undefined;
afterEach(async () => {
  await printer?.stop();
  printer = undefined;
});

/** A till taking cash tips, its receipt printer (and cash drawer) at `receiptPrinter` if any. */
function storeMode(name: string, letter: string, port: number, peer: number, dataDir?: string, mode: 'on' | 'off' = 'on', receiptPrinter?: string) {
  const more = { checkout: { cashTips: true }, ...(receiptPrinter ? { printing: { receiptPrinter } } : {}) };
  return tillConfig(name, letter, port, peer, { ...(dataDir ? { dataDir } : {}), mode, more });
}

function rows(till: TestCore, sql: string): unknown[] {
  const db = new Database(join(till.dataDir, 'terminal.db'), { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}
const count = (till: TestCore, sql: string): number => (rows(till, `SELECT COUNT(*) AS n FROM (${sql})`)[0] as { n: number }).n;

/** Bar with one open order (rung up by `server`), listed on Front (its receipt printer at `frontPrinter`). */
async function barAndFront(server: StaffKey = 'owner', frontPrinter?: string) {
  const [barPort, frontPort] = (await freePorts(2)) as [number, number];
  const bar = await start(storeMode('Bar', 'B', barPort, frontPort));
  const front = await start(storeMode('Front', 'F', frontPort, barPort, undefined, 'on', frontPrinter));
  await bar.call('staff.signIn', { pin: STAFF[server].pin });
  const order = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }], service: { type: 'dine_in', table: '7', guests: 2 } });
  await expect.poll(async () => (await front.call('storeMode.orders', {})).orders.map((o) => o.id), { timeout: 15_000 }).toEqual([order.id]);
  return { bar, front, order, ports: { bar: barPort, front: frontPort } };
}

const drawer = async (till: TestCore) => (await till.call('shift.current', {}))!;

describe("store mode: a payment taken on another till's order", () => {
  it('puts the cash in this drawer (which opens) and the payment on the owner’s order once, under this till’s id, in none of the owner’s drawers', async () => {
    printer = await FakePrinter.start();
    const { bar, front, order } = await barAndFront('owner', printer.url);
    const frontBefore = await drawer(front);
    const barBefore = await drawer(bar);
    const tip = 200;
    const taken = await front.call('storeMode.takePayment', { orderId: order.id, method: 'cash', amount: order.total, tip, tendered: order.total + tip + 1_000 });
    expect(taken.change).toBe(1_000);
    expect(taken.forward).toMatchObject({ state: 'pending', change: { kind: 'payment', method: 'cash', amount: order.total, tip }, giveBack: null, sentence: 'Sent to Bar, waiting for it.' });
    // Durable on Front with the forward before the answer: the drawer holds it at once.
    const frontNow = await drawer(front);
    expect(frontNow.cashSales! - frontBefore.cashSales!).toBe(order.total);
    expect(frontNow.cashTips! - frontBefore.cashTips!).toBe(tip);
    expect(frontNow.payments - frontBefore.payments).toBe(1);
    await expect.poll(() => printer!.drawerKicks().length, { timeout: 10_000 }).toBe(1);
    // The guest is at Front: its receipt prints there, the order as Bar has it with this payment on it.
    await expect.poll(() => printer!.text(), { timeout: 10_000 }).toContain(order.label);
    const paper = printer!.text();
    expect(paper).toMatch(/Cash/i);
    expect(paper).toContain('10.00');

    // Bar records it once, with Front's id for it; paid on both tills; not in Bar's drawer.
    const paymentId = (taken.forward.change as { paymentId: string }).paymentId;
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).paidAmount, { timeout: 10_000 }).toBe(order.total);
    const onBar = await bar.call('orders.get', { id: order.id });
    expect(onBar.payments.map((p) => [p.id, p.method, p.amount, p.tip])).toEqual([[paymentId, 'cash', order.total, tip]]);
    const barNow = await drawer(bar);
    expect([barNow.cashSales, barNow.cashTips, barNow.payments]).toEqual([barBefore.cashSales, barBefore.cashTips, barBefore.payments]);
    await expect.poll(async () => (await front.call('storeMode.forwards', {})).forwards, { timeout: 10_000 }).toEqual([]);
    await expect.poll(async () => (await front.call('storeMode.orders', {})).orders.find((o) => o.id === order.id)?.paid.amount, { timeout: 10_000 }).toBe(order.total);
    expect(count(bar, "SELECT 1 FROM store_inbox WHERE state = 'applied'")).toBe(1);
    expect(rows(bar, "SELECT json_extract(detail, '$.from.name') AS till FROM audit_log WHERE action = 'store.forward.applied'")).toEqual([{ till: 'Front' }]);
    expect(rows(front, "SELECT json_extract(detail, '$.method') AS method, json_extract(detail, '$.amount') AS amount FROM audit_log WHERE action = 'store.payment.taken'")).toEqual([{ method: 'cash', amount: order.total }]);

    expect(frontNow.cashForOtherTills! - frontBefore.cashForOtherTills!).toBe(order.total + tip);
    // Bar closes it as any paid order; Front's count expects the cash it took, and its Z says whose sale it was.
    await bar.call('orders.fulfil', { id: order.id });
    expect((await bar.call('orders.get', { id: order.id })).status).toBe('fulfilled');
    const closed = await front.call('shift.close', { count: frontNow.floatCount });
    expect(closed.expected).toBe(frontNow.float + order.total + tip);
    const z = await front.call('reports.z', {});
    expect(z.cash).toMatchObject({ sales: order.total, tips: tip, forOtherTills: order.total + tip });
    expect(z.byTender.find((row) => row.method === 'cash')?.amount ?? 0).toBe(0);
  }, 60_000);

  it('takes what is due once when 10 payments of it are asked at once, and 10 repeats of one request are one payment', async () => {
    const { bar, front, order } = await barAndFront();
    const pay = { orderId: order.id, method: 'card' as const, amount: order.total };
    const answers = await Promise.all(Array.from({ length: 10 }, () => front.raw('storeMode.takePayment', pay)));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    for (const answer of answers.filter((a) => !a.ok)) {
      expect(answer).toMatchObject({ ok: false, error: { code: 'conflict', issues: [{ path: 'amount' }], message: expect.stringMatching(/^This order is paid already, or this till has sent its payments/) } });
    }
    expect(count(front, 'SELECT 1 FROM store_payments_taken')).toBe(1);
    expect((await drawer(front)).cardSales).toBe(order.total);
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).paidAmount, { timeout: 10_000 }).toBe(order.total);
    // The card is Bar's to send to the cloud: one intent, captured, under Front's id.
    const onBar = await bar.call('orders.get', { id: order.id });
    expect(onBar.payments).toHaveLength(1);
    expect(onBar.payments[0]).toMatchObject({ method: 'card', amount: order.total });
    expect(count(bar, "SELECT 1 FROM outbox WHERE kind = 'payment_intent.create'")).toBe(1);

    // A second order: one request repeated 10 times at once is one payment.
    const second = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await expect.poll(async () => (await front.call('storeMode.orders', {})).orders.some((o) => o.id === second.id), { timeout: 10_000 }).toBe(true);
    const request = { command: 'storeMode.takePayment', payload: { orderId: second.id, method: 'cash', amount: 100 }, requestId: 'payment-request-0001' };
    const repeats = await Promise.all(Array.from({ length: 10 }, () => front.core.invoke(request)));
    expect(new Set(repeats.map((answer) => (answer.ok ? (answer.value as { forward: { id: string } }).forward.id : answer.error.message))).size).toBe(1);
    expect(count(front, `SELECT 1 FROM store_payments_taken WHERE order_id = '${second.id}'`)).toBe(1);
    await expect.poll(async () => (await bar.call('orders.get', { id: second.id })).paidAmount, { timeout: 10_000 }).toBe(100);
  }, 60_000);

  it('splits the bill from here, made on the owner; each part is paid once, by its label, and shown paid on both tills', async () => {
    const { bar, front, order } = await barAndFront();
    // Two burgers: one line, so a split by items needs one check per line.
    expect(await front.raw('storeMode.changeOrder', { orderId: order.id, change: { kind: 'split', split: { kind: 'items', assignment: [1, 2] } } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_command', issues: [{ path: 'change.split.assignment' }] },
    });
    await front.call('storeMode.changeOrder', { orderId: order.id, change: { kind: 'split', split: { kind: 'even', parts: 2 } } });
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).split?.plan ?? null, { timeout: 10_000 }).toEqual({ kind: 'even', parts: 2 });
    const onBar = (await bar.call('orders.get', { id: order.id })).split!;
    const listed = async () => (await front.call('storeMode.orders', {})).orders.find((o) => o.id === order.id)!.split;
    // Front prices the parts as Bar does: the same labels and amounts.
    await expect.poll(listed, { timeout: 10_000 }).toEqual(onBar);
    const [first, second] = onBar.parts as [(typeof onBar.parts)[number], (typeof onBar.parts)[number]];

    await front.call('storeMode.takePayment', { orderId: order.id, method: 'cash', amount: first.amount, splitPart: first.label });
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).split?.parts.map((p) => p.paid), { timeout: 10_000 }).toEqual([true, false]);
    await expect.poll(async () => (await listed())?.parts.map((p) => p.paid), { timeout: 10_000 }).toEqual([true, false]);
    // The paid part again: refused here, writing nothing; the other part by card.
    expect(await front.raw('storeMode.takePayment', { orderId: order.id, method: 'card', amount: first.amount, splitPart: first.label })).toMatchObject({
      ok: false,
      error: { code: 'conflict', issues: [{ path: 'splitPart' }] },
    });
    await front.call('storeMode.takePayment', { orderId: order.id, method: 'card', amount: second.amount, splitPart: second.label });
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).paidAmount, { timeout: 10_000 }).toBe(order.total);
    const payments = (await bar.call('orders.get', { id: order.id })).payments.map((p) => [p.method, p.splitPart]);
    expect(payments).toEqual([
      ['cash', first.label],
      ['card', second.label],
    ]);
    expect(count(front, 'SELECT 1 FROM store_payments_taken')).toBe(2);
  }, 60_000);

  it('refuses in words, writing nothing: more than is due, cash with no open drawer, too little cash handed over, another server’s order without a manager, a payment sent as a plain change', async () => {
    const { front, order } = await barAndFront('cashier');
    const before = count(front, 'SELECT 1 FROM store_forwards');
    const refusals = [
      { who: 'owner', payload: { orderId: order.id, method: 'cash', amount: order.total + 1 }, code: 'conflict', path: 'amount' },
      { who: 'owner', payload: { orderId: order.id, method: 'cash', amount: 100, tendered: 50 }, code: 'invalid_command', path: 'tendered' },
      { who: 'owner', payload: { orderId: order.id, method: 'cash', amount: -100 }, code: 'invalid_command', path: 'amount' },
      { who: 'owner', payload: { orderId: 'ord_nowhere', method: 'card', amount: 100 }, code: 'not_found' },
      { who: 'cashier2', payload: { orderId: order.id, method: 'card', amount: 100 }, code: 'needs_manager' },
    ] as const;
    for (const { who, payload, code, ...rest } of refusals) {
      await front.call('staff.signIn', { pin: STAFF[who].pin });
      const answer = await front.raw('storeMode.takePayment', payload);
      expect(answer, JSON.stringify(payload)).toMatchObject({ ok: false, error: { code, ...('path' in rest ? { issues: [{ path: rest.path }] } : {}) } });
    }
    // A payment smuggled in as a plain change (no drawer, no checks of its own) is not one.
    const smuggled = { kind: 'payment', paymentId: 'pay_smuggled', method: 'cash', amount: 100, tip: 0, splitPart: null };
    expect(await front.raw('storeMode.changeOrder', { orderId: order.id, change: smuggled })).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    // Cash with the drawer closed: the drawer comes first.
    await front.call('staff.signIn', { pin: STAFF.owner.pin });
    const current = (await drawer(front))!;
    await front.call('shift.close', { count: current.floatCount });
    expect(await front.raw('storeMode.takePayment', { orderId: order.id, method: 'cash', amount: 100 })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(count(front, 'SELECT 1 FROM store_forwards')).toBe(before);
    expect(count(front, 'SELECT 1 FROM store_payments_taken')).toBe(0);
    // With a manager's PIN, Carl may take a card on Cass's order.
    await front.call('staff.signIn', { pin: STAFF.cashier2.pin });
    await expect(front.call('storeMode.takePayment', { orderId: order.id, method: 'card', amount: 100, managerPin: STAFF.manager.pin })).resolves.toMatchObject({ forward: { state: 'pending' } });
  }, 60_000);

  it('says a refusal on the till that took the money: the cash is handed back once, as a paid-out; a refused card was never charged', async () => {
    printer = await FakePrinter.start();
    const { bar, front, order, ports } = await barAndFront('owner', printer.url);
    // Bar is away while Front takes cash and a card on its order; meanwhile Bar is paid in full itself.
    await stop(bar);
    const cash = await front.call('storeMode.takePayment', { orderId: order.id, method: 'cash', amount: 500 });
    const card = await front.call('storeMode.takePayment', { orderId: order.id, method: 'card', amount: 300 });
    const alone = await start(storeMode('Bar', 'B', ports.bar, ports.front, bar.dataDir, 'off'), true);
    await alone.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    await stop(alone);
    await start(storeMode('Bar', 'B', ports.bar, ports.front, bar.dataDir), true);

    await expect.poll(async () => (await front.call('storeMode.forwards', {})).forwards.map((f) => [f.id, f.state]), { timeout: 15_000 }).toEqual([
      [cash.forward.id, 'refused'],
      [card.forward.id, 'refused'],
    ]);
    const [cashRefused, cardRefused] = (await front.call('storeMode.forwards', {})).forwards;
    expect(cashRefused).toMatchObject({ giveBack: { amount: 500 }, sentence: expect.stringMatching(/^Bar refused: the order was paid meanwhile\. Hand back .*5\.00 in cash\.$/) });
    expect(cardRefused).toMatchObject({ giveBack: null, sentence: 'Bar refused: the order was paid meanwhile. The card was not charged.' });
    // The refused card is out of the drawer's figures; the cash is in it until handed back.
    const held = await drawer(front);
    expect([held.cardSales, held.cashSales]).toEqual([0, 500]);

    expect(await front.raw('storeMode.giveBack', { forwardId: card.forward.id })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const answers = await Promise.all(Array.from({ length: 10 }, () => front.raw('storeMode.giveBack', { forwardId: cash.forward.id })));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    // The drawer opened for the cash taken, and once more to hand it back.
    await expect.poll(() => printer!.drawerKicks().length, { timeout: 10_000 }).toBe(2);
    const after = await drawer(front);
    expect(after.paidOuts - held.paidOuts).toBe(500);
    expect(after.movements.at(-1)).toMatchObject({ kind: 'paid_out', amount: 500, reason: expect.stringMatching(/^Handed back: Bar refused a payment toward order /) });
    const listed = (await front.call('storeMode.forwards', {})).forwards.find((f) => f.id === cash.forward.id)!;
    expect(listed).toMatchObject({ giveBack: null, sentence: expect.stringMatching(/handed back\.$/) });
    // Nothing of Front's reached Bar's order.
    const onBar = await tills.running().at(-1)!.call('orders.get', { id: order.id });
    expect(onBar.payments).toHaveLength(1);
  }, 90_000);
});
