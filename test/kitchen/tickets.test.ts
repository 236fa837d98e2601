// The kitchen display's tickets and bumps on a real core with the kitchen role: the other tills' orders
// come as pages of their logs applied to its replicas (as its feed applies them), and what it answers is
// checked against the print routing, held courses, the lines it first showed, and its own file.
import { afterEach, describe, expect, it } from 'vitest';
import type { KitchenTickets } from '../../bridge/kitchen/contract';
import { reopenStore } from '../core/fixtures';
import { line, RegisterLog, startKitchenCore, type KitchenCore } from './fixtures';

const running: KitchenCore[] = [];
const registers: RegisterLog[] = [];
afterEach(async () => {
  for (const register of registers.splice(0)) register.store.close();
  await Promise.all(running.splice(0).map((t) => t.core.shutdown()));
});

async function display(kitchen: Parameters<typeof startKitchenCore>[0] = {}): Promise<KitchenCore> {
  const t = await startKitchenCore(kitchen);
  running.push(t);
  return t;
}

function register(t: KitchenCore, origin: string, name: string): RegisterLog {
  const till = new RegisterLog(origin.padEnd(64, '0'), name, t.clock);
  registers.push(till);
  return till;
}

const tickets = (t: KitchenCore, station?: string): Promise<KitchenTickets> => t.call('kitchen.tickets', station === undefined ? {} : { station });
const labels = (answer: KitchenTickets) => answer.tickets.map((ticket) => ticket.label);
const marks = (answer: KitchenTickets, label: string) => answer.tickets.find((ticket) => ticket.label === label)?.lines.map((l) => `${l.mark ?? ''}${l.quantity} ${l.name}`);

describe('kitchen tickets', () => {
  it('lists the other tills’ open orders in arrival order, with service, table, customer, lines, seats and courses', async () => {
    const t = await display();
    const bar = register(t, 'b', 'Bar');
    const patio = register(t, 'c', 'Patio');
    const first = bar.place({ lines: [line.burger(2, { cheese: true, note: 'no onions', seat: 1, course: 'course_mains' }), line.latte(1)], service: { type: 'dine_in', table: '12', guests: 2 } }, 'B1');
    t.clock.advance(60_000);
    patio.place({ lines: [line.soup(1)], service: { type: 'takeout', table: null, guests: null }, customer: { name: 'Ada', phone: '' } }, 'P1');
    t.clock.advance(60_000);
    const cancelled = bar.place({ lines: [line.latte(3)] }, 'B2');
    bar.store.cashier.cancelOrder(cancelled.id, { actor: 'stf_cashier' });
    patio.feed(t);
    bar.feed(t);

    const answer = await tickets(t);
    expect(answer.station).toBeNull();
    expect(labels(answer)).toEqual(['B1', 'P1']);
    expect(answer.tickets[0]).toEqual({
      orderId: first.id,
      label: 'B1',
      service: 'dine_in',
      table: '12',
      customerName: null,
      placedAt: new Date(first.created_at).toISOString(),
      tillName: 'Bar',
      recalled: false,
      lines: [
        { name: 'Burger', quantity: 2, modifiers: ['Extra cheese'], note: 'no onions', seat: 1, course: 'Mains', station: 'grill', mark: null },
        { name: 'Café latte', quantity: 1, modifiers: [], note: '', seat: null, course: null, station: 'bar', mark: null },
      ],
    });
    expect(answer.tickets[1]).toMatchObject({ label: 'P1', service: 'takeout', table: null, customerName: 'Ada', tillName: 'Patio' });
    expect(answer.allDay).toEqual([
      { name: 'Burger', quantity: 2 },
      { name: 'Café latte', quantity: 1 },
      { name: 'Soup of the day', quantity: 1 },
    ]);
    expect(answer.now).toBe(new Date(t.clock.now()).toISOString());
  });

  it('shows an online order the display pulled from the cloud, and no order of the tills twice', async () => {
    const t = await display();
    const store = reopenStore(t.dataDir);
    const base = { location_id: 'loc_test', currency: 'usd', notes: '', total: 1200, created_at: 1, updated_at: 1, customer: { name: 'Web', phone: '' } };
    store.server.applyServerRecord('order', { ...base, id: 'ord_srv_online', status: 'open', channel: 'online', lines: [line.burger(1)] });
    // A till's order as the cloud has it: the display shows it from that till's log only.
    store.server.applyServerRecord('order', { ...base, id: 'ord_srv_pos', status: 'open', channel: 'pos', lines: [line.burger(4)] });
    store.close();
    const answer = await tickets(t);
    expect(answer.tickets).toHaveLength(1);
    expect(answer.tickets[0]).toMatchObject({ tillName: null, customerName: 'Web', lines: [{ name: 'Burger', quantity: 1, station: 'grill' }] });
  });

  it('shows a station only its lines (the print routing), an order with none of them not at all, and refuses an unknown station', async () => {
    const t = await display();
    const bar = register(t, 'b', 'Bar');
    bar.place({ lines: [line.burger(1), line.latte(2)] }, 'B1');
    t.clock.advance(1_000);
    bar.place({ lines: [line.latte(1)] }, 'B2');
    bar.feed(t);
    const grill = await tickets(t, 'grill');
    expect(grill.station).toBe('grill');
    expect(labels(grill)).toEqual(['B1']);
    expect(grill.tickets[0]!.lines.map((l) => l.name)).toEqual(['Burger']);
    expect(grill.allDay).toEqual([{ name: 'Burger', quantity: 1 }]);
    const drinks = await tickets(t, 'BAR');
    expect(labels(drinks)).toEqual(['B1', 'B2']);
    expect(drinks.allDay).toEqual([{ name: 'Café latte', quantity: 3 }]);

    const refused = await t.raw('kitchen.tickets', { station: 'fryer' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_command', issues: [{ path: 'station' }] } });
  });

  it('uses the configured station unless asked for another', async () => {
    const t = await display({ station: 'Bar' });
    const bar = register(t, 'b', 'Bar');
    bar.place({ lines: [line.burger(1), line.latte(2)] }, 'B1');
    bar.feed(t);
    expect(await t.call('kitchen.display', {})).toEqual({ role: 'kitchen', station: 'bar', stations: ['grill', 'bar'], amberMinutes: 8, redMinutes: 15 });
    expect((await tickets(t)).tickets[0]!.lines.map((l) => l.name)).toEqual(['Café latte']);
    expect((await tickets(t, 'grill')).tickets[0]!.lines.map((l) => l.name)).toEqual(['Burger']);
  });

  it('leaves a held course off until it is fired, then shows it marked FIRE', async () => {
    const t = await display();
    const bar = register(t, 'b', 'Bar');
    const order = bar.place({ lines: [line.soup(2, 'course_starters'), line.burger(2, { course: 'course_mains' })], courses: [{ course: 'course_mains', state: 'held', at: t.clock.now() }] }, 'B1');
    const heldOnly = bar.place({ lines: [line.burger(1, { course: 'course_mains' })], courses: [{ course: 'course_mains', state: 'held', at: t.clock.now() }] }, 'B2');
    bar.feed(t);
    let answer = await tickets(t);
    expect(labels(answer)).toEqual(['B1']);
    expect(marks(answer, 'B1')).toEqual(['2 Soup of the day']);
    expect(answer.allDay).toEqual([{ name: 'Soup of the day', quantity: 2 }]);

    t.clock.advance(5 * 60_000);
    bar.store.cashier.updateOrder(order.id, { courses: [{ course: 'course_mains', state: 'fired', at: t.clock.now() }] }, { actor: 'stf_cashier' });
    bar.store.cashier.updateOrder(heldOnly.id, { courses: [{ course: 'course_mains', state: 'fired', at: t.clock.now() }] }, { actor: 'stf_cashier' });
    bar.feed(t);
    answer = await tickets(t);
    expect(marks(answer, 'B1')).toEqual(['2 Soup of the day', 'fire2 Burger']);
    // Never shown while held: its first showing is the fired course, unmarked.
    expect(marks(answer, 'B2')).toEqual(['1 Burger']);
  });

  it('marks what was added (ADD) and taken off (VOID) since the ticket was first shown, and counts only what is still to make', async () => {
    const t = await display();
    const bar = register(t, 'b', 'Bar');
    const order = bar.place({ lines: [line.burger(2), line.latte(1)] }, 'B1');
    bar.feed(t);
    expect(marks(await tickets(t), 'B1')).toEqual(['2 Burger', '1 Café latte']);

    bar.store.cashier.updateOrder(order.id, { lines: [line.burger(3), line.soup(1)] }, { actor: 'stf_cashier' });
    bar.feed(t);
    const answer = await tickets(t);
    expect(marks(answer, 'B1')).toEqual(['2 Burger', 'add1 Burger', 'add1 Soup of the day', 'void1 Café latte']);
    expect(answer.allDay).toEqual([
      { name: 'Burger', quantity: 3 },
      { name: 'Soup of the day', quantity: 1 },
    ]);
    // What the display first saw is kept on its file: a restart marks the same.
    const kept = reopenStore(t.dataDir);
    expect(kept.db.prepare('SELECT COUNT(*) FROM kitchen_seen WHERE order_id = ?').pluck().get(order.id)).toBe(1);
    kept.close();
  });
});

describe('bump and recall', () => {
  it('bumps a till’s order off the display at once and forwards one fulfil to its till, however often it is pressed', async () => {
    const t = await display();
    const bar = register(t, 'b', 'Bar');
    const order = bar.place({ lines: [line.burger(1)] }, 'B1');
    bar.pay(order);
    bar.place({ lines: [line.soup(1)] }, 'B2');
    bar.feed(t);

    const answers = await Promise.all(Array.from({ length: 10 }, () => t.call('kitchen.bump', { orderId: order.id })));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ orderId: order.id, label: 'B1', sentence: 'Sent to Bar, waiting for it.' });
    expect(labels(await tickets(t))).toEqual(['B2']);
    // What was sent, as the display's file holds it (storeMode.forwards is a register's read).
    const file = reopenStore(t.dataDir);
    const sent = file.log.forwards.sent(0);
    expect(sent.map((f) => [f.orderId, f.change.kind, f.state])).toEqual([[order.id, 'fulfil', 'pending']]);
    expect(file.db.prepare('SELECT delivery, forward_id AS forwardId FROM kitchen_bumps WHERE order_id = ?').get(order.id)).toEqual({ delivery: 'forwarded', forwardId: sent[0]!.opId });
    file.close();

    // The answer lost: the repeat gets the first bump back, nothing more is sent.
    expect(await t.call('kitchen.bump', { orderId: order.id })).toEqual(answers[0]);
    expect((await tickets(t)).lastBumped).toEqual(answers[0]);
  });

  it('says what became of the last bump at its till: waiting, refused with its reason, applied', async () => {
    const t = await display();
    const bar = register(t, 'b', 'Bar');
    const refused = bar.place({ lines: [line.burger(1)] }, 'B1');
    bar.pay(refused);
    t.clock.advance(1_000);
    const paid = bar.place({ lines: [line.soup(1)] }, 'B2');
    bar.pay(paid);
    bar.feed(t);
    expect(await t.call('kitchen.bump', { orderId: refused.id })).toMatchObject({ sentence: 'Sent to Bar, waiting for it.' });
    bar.answerForwards(t, { outcome: 'refused', reason: 'the order was cancelled meanwhile.' });
    bar.feed(t);
    expect((await tickets(t)).lastBumped).toMatchObject({ label: 'B1', sentence: 'Bar refused: the order was cancelled meanwhile.' });
    // An hour on, the refusal is no longer listed: still not said to be fulfilled.
    t.clock.advance(2 * 60 * 60_000);
    expect((await tickets(t)).lastBumped).toMatchObject({ label: 'B1', sentence: 'Its till refused it: see the order there.' });

    await t.call('kitchen.bump', { orderId: paid.id });
    bar.answerForwards(t, { outcome: 'applied', reason: null });
    bar.feed(t);
    expect((await tickets(t)).lastBumped).toMatchObject({ label: 'B2', sentence: 'Marked fulfilled at its till.' });
  });

  it('bumps a check with money due off the display as served, sending nothing: its till closes it when it is paid', async () => {
    const t = await display();
    const bar = register(t, 'b', 'Bar');
    const check = bar.place({ lines: [line.burger(1)], service: { type: 'dine_in', table: '12', guests: 2 } }, 'B1');
    bar.feed(t);
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.call('kitchen.bump', { orderId: check.id })));
    expect(new Set(answers.map((a) => a.sentence))).toEqual(new Set(['Served: the check stays open at its till until it is paid.']));
    expect((await tickets(t)).tickets).toEqual([]);
    const file = reopenStore(t.dataDir);
    expect(file.log.forwards.sent(0)).toEqual([]);
    expect(file.db.prepare('SELECT delivery FROM kitchen_bumps WHERE order_id = ?').pluck().get(check.id)).toBe('served');
    file.close();
    // Recalled, it is a ticket again; paid meanwhile, a bump now sends the fulfil.
    await t.call('kitchen.recall', { orderId: check.id });
    bar.pay(check);
    bar.feed(t);
    expect(await t.call('kitchen.bump', { orderId: check.id })).toMatchObject({ sentence: 'Sent to Bar, waiting for it.' });
  });

  it('recalls the last bumped ticket marked recalled, once; a bump again sends nothing new while the first fulfil waits', async () => {
    const t = await display();
    const bar = register(t, 'b', 'Bar');
    const order = bar.place({ lines: [line.burger(1)] }, 'B1');
    bar.pay(order);
    bar.feed(t);
    await t.call('kitchen.bump', { orderId: order.id });
    const recalls = await Promise.all(Array.from({ length: 10 }, () => t.call('kitchen.recall', { orderId: order.id })));
    expect(recalls.every((r) => JSON.stringify(r) === JSON.stringify({ orderId: order.id, label: 'B1', recalled: true }))).toBe(true);
    const answer = await tickets(t);
    expect(answer.tickets.map((ticket) => [ticket.label, ticket.recalled])).toEqual([['B1', true]]);
    expect(answer.lastBumped).toBeNull();

    await t.call('kitchen.bump', { orderId: order.id });
    const file = reopenStore(t.dataDir);
    expect(file.log.forwards.sent(0)).toHaveLength(1);
    file.close();
  });

  it('shows a recalled ticket again when its till fulfilled the order meanwhile, and bumps it with nothing sent', async () => {
    const t = await display();
    const bar = register(t, 'b', 'Bar');
    const order = bar.place({ lines: [line.burger(1)] }, 'B1');
    bar.feed(t);
    await t.call('kitchen.bump', { orderId: order.id });
    bar.store.cashier.fulfilOrder(order.id, { actor: 'stf_cashier' });
    bar.feed(t);
    expect((await tickets(t)).tickets).toEqual([]);
    await t.call('kitchen.recall', { orderId: order.id });
    expect((await tickets(t)).tickets.map((ticket) => [ticket.label, ticket.recalled])).toEqual([['B1', true]]);
    expect(await t.call('kitchen.bump', { orderId: order.id })).toMatchObject({ sentence: 'Already closed at its till: nothing was sent.' });
    expect((await tickets(t)).tickets).toEqual([]);
  });

  it('on a station’s display, bumps the station’s part only: nothing is sent, the other stations keep the order', async () => {
    const t = await display({ station: 'grill' });
    const bar = register(t, 'b', 'Bar');
    const order = bar.place({ lines: [line.burger(1), line.latte(1)] }, 'B1');
    bar.feed(t);
    expect(await t.call('kitchen.bump', { orderId: order.id })).toMatchObject({ sentence: 'Done at this station; the pass marks the order fulfilled.' });
    expect((await tickets(t)).tickets).toEqual([]);
    expect(labels(await tickets(t, 'bar'))).toEqual([]);
    const file = reopenStore(t.dataDir);
    expect(file.log.forwards.sent(0)).toEqual([]);
    file.close();
  });

  it('forgets, after a day, what it kept of closed orders, and keeps a bump of an order still open', async () => {
    const t = await display();
    const bar = register(t, 'b', 'Bar');
    const closed = bar.place({ lines: [line.burger(1)] }, 'B1');
    const open = bar.place({ lines: [line.soup(1)] }, 'B2');
    bar.feed(t);
    await tickets(t);
    await t.call('kitchen.bump', { orderId: closed.id });
    await t.call('kitchen.bump', { orderId: open.id });
    bar.store.cashier.fulfilOrder(closed.id, { actor: 'stf_cashier' });
    bar.feed(t);
    const kept = () => {
      const file = reopenStore(t.dataDir);
      try {
        const ids = (table: string) => file.db.prepare(`SELECT order_id FROM ${table} ORDER BY order_id`).pluck().all();
        return { seen: ids('kitchen_seen'), bumps: ids('kitchen_bumps') };
      } finally {
        file.close();
      }
    };
    const both = [closed.id, open.id].sort();
    expect(kept()).toEqual({ seen: both, bumps: both });
    t.clock.advance(25 * 60 * 60_000);
    expect((await tickets(t)).tickets).toEqual([]);
    expect(kept()).toEqual({ seen: [open.id], bumps: [open.id] });
  });

  it('fulfils an online order of its own on the display itself', async () => {
    const t = await display();
    let store = reopenStore(t.dataDir);
    const local = store.server.applyServerRecord('order', { id: 'ord_srv_web', location_id: 'loc_test', status: 'open', channel: 'online', currency: 'usd', notes: '', total: 1200, created_at: 1, updated_at: 1, customer: null, lines: [line.burger(1)] });
    store.close();
    expect(await t.call('kitchen.bump', { orderId: local })).toMatchObject({ orderId: local, sentence: 'Marked fulfilled on this display.' });
    store = reopenStore(t.dataDir);
    expect(store.cashier.getOrder(local)?.status).toBe('fulfilled');
    expect(store.log.forwards.sent(0)).toEqual([]);
    store.close();
  });

  it('refuses a bump of an order no till has and a recall of a ticket never bumped, changing nothing', async () => {
    const t = await display();
    const bar = register(t, 'b', 'Bar');
    const order = bar.place({ lines: [line.burger(1)] }, 'B1');
    bar.feed(t);
    await tickets(t);
    const before = reopenStore(t.dataDir);
    const count = (store: typeof before) => store.db.prepare('SELECT (SELECT COUNT(*) FROM kitchen_bumps) + (SELECT COUNT(*) FROM store_log)').pluck().get();
    const rows = count(before);
    before.close();
    expect(await t.raw('kitchen.bump', { orderId: 'ord_nowhere' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await t.raw('kitchen.recall', { orderId: order.id })).toMatchObject({ ok: false, error: { code: 'not_found', issues: [{ path: 'orderId' }] } });
    expect(await t.raw('kitchen.bump', {})).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    const after = reopenStore(t.dataDir);
    expect(count(after)).toBe(rows);
    after.close();
    expect(labels(await tickets(t))).toEqual(['B1']);
  });
});
