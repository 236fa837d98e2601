// Retention: old orders the cloud has in full are deleted with their intents, payments, refunds and
// id links; every order with something the cloud lacks stays, whatever its age.
import { describe, expect, it } from 'vitest';
import { openStore, type OrderDoc, type Store } from '../../store';
import { cashier, tempDbPath, threeLineOrder } from './helpers';

/** A clock the cases set to when each order was placed. */
class SettableClock {
  constructor(private at: number) {}
  now(): number {
    return this.at;
  }
  set(at: number): void {
    this.at = at;
  }
}

const DAY = 86_400_000;
const NOW = 1_800_000_000_000;
const CUTOFF = NOW - 90 * DAY;

/** Completes the entity's next unfinished operation as the server would, optionally with the server's copy. */
function confirm(store: Store, kind: 'order' | 'payment_intent', id: string, at: number, serverRecord?: Record<string, unknown> & { id: string }): void {
  const opId = store.outbox.latestUnfinished(kind, id);
  if (!opId) throw new Error(`nothing unfinished for ${kind} ${id}`);
  store.outbox.markInFlight(opId, at);
  store.outbox.completeOperation(opId, serverRecord ? { serverRecord } : { serverId: `srv_${id}` }, at);
}

/** An order placed at `at`, created on the server and fulfilled there. */
function syncedOrder(store: Store, clock: SettableClock, at: number): OrderDoc {
  clock.set(at);
  const order = store.cashier.createOrder(threeLineOrder(), cashier);
  confirm(store, 'order', order.id, at);
  store.cashier.fulfilOrder(order.id, cashier);
  confirm(store, 'order', order.id, at);
  return order;
}

type Case = [name: string, make: (store: Store, clock: SettableClock) => string, pruned: boolean];

const OLD = NOW - 200 * DAY;
const CASES: Case[] = [
  ['old, synced and fulfilled', (s, c) => syncedOrder(s, c, OLD).id, true],
  ['old, synced, paid by card (intent created and captured on the server)', (s, c) => {
    const order = syncedOrder(s, c, OLD);
    const intent = s.cashier.createPaymentIntent(order.id, order.total, 'usd', cashier);
    confirm(s, 'payment_intent', intent.id, OLD);
    s.cashier.capturePaymentIntent(intent.id, cashier);
    confirm(s, 'payment_intent', intent.id, OLD);
    return order.id;
  }, true],
  ['old, create pending (never sent)', (s, c) => {
    c.set(OLD);
    return s.cashier.createOrder(threeLineOrder(), cashier).id;
  }, false],
  ['old, create in flight', (s, c) => {
    c.set(OLD);
    const order = s.cashier.createOrder(threeLineOrder(), cashier);
    s.outbox.markInFlight(s.outbox.latestUnfinished('order', order.id) as string, OLD);
    return order.id;
  }, false],
  ['old, synced, a later change dead-lettered', (s, c) => {
    const order = syncedOrder(s, c, OLD);
    s.transaction(() => s.db.prepare(`UPDATE orders SET status = 'open' WHERE id = ?`).run(order.id));
    s.cashier.updateOrder(order.id, { notes: 'no onions' }, cashier);
    s.outbox.deadLetter(s.outbox.latestUnfinished('order', order.id) as string, 'refused', OLD);
    s.transaction(() => s.db.prepare(`UPDATE orders SET status = 'fulfilled' WHERE id = ?`).run(order.id));
    return order.id;
  }, false],
  ['old, synced, fulfil still pending', (s, c) => {
    c.set(OLD);
    const order = s.cashier.createOrder(threeLineOrder(), cashier);
    confirm(s, 'order', order.id, OLD);
    s.cashier.fulfilOrder(order.id, cashier);
    return order.id;
  }, false],
  ['old, synced, repriced and not settled', (s, c) => {
    c.set(OLD);
    const order = s.cashier.createOrder(threeLineOrder(), cashier);
    confirm(s, 'order', order.id, OLD, { ...order, id: `srv_${order.id}`, status: 'fulfilled', total: order.total + 100 });
    return order.id;
  }, false],
  ['old, synced, repriced and settled', (s, c) => {
    c.set(OLD);
    const order = s.cashier.createOrder(threeLineOrder(), cashier);
    confirm(s, 'order', order.id, OLD, { ...order, id: `srv_${order.id}`, status: 'fulfilled', total: order.total + 100 });
    s.repricedOrders.settle(order.id, 'manager', OLD);
    return order.id;
  }, true],
  ['old, synced, card payment intent still queued', (s, c) => {
    const order = syncedOrder(s, c, OLD);
    s.cashier.createPaymentIntent(order.id, order.total, 'usd', cashier);
    return order.id;
  }, false],
  ['old, synced, paid in cash (the cloud never gets cash)', (s, c) => {
    const order = syncedOrder(s, c, OLD);
    s.cashier.recordCashPayment(order.id, order.total, 'usd', cashier);
    return order.id;
  }, false],
  ['old, synced but still open', (s, c) => {
    c.set(OLD);
    const order = s.cashier.createOrder(threeLineOrder(), cashier);
    confirm(s, 'order', order.id, OLD);
    return order.id;
  }, false],
  ['recent, synced and fulfilled', (s, c) => syncedOrder(s, c, NOW - 10 * DAY).id, false],
];

describe('retention', () => {
  it.each(CASES)('%s → pruned: %s', async (_name, make, pruned) => {
    const clock = new SettableClock(NOW);
    const store = openStore(tempDbPath(), { clock });
    const id = make(store, clock);
    const keptAlongside = syncedOrder(store, clock, NOW - DAY).id;
    clock.set(NOW);
    const before = store.cashier.getOrder(id);
    const totals = await store.retention.prune(CUTOFF, { batch: 2 });
    expect(totals.deleted).toBe(pruned ? 1 : 0);
    expect(store.cashier.getOrder(keptAlongside)).toBeDefined();
    if (pruned) {
      expect(store.db.prepare(`SELECT count(*) FROM orders WHERE id = ?`).pluck().get(id)).toBe(0);
      expect(store.db.prepare(`SELECT count(*) FROM id_map WHERE entity_kind = 'order' AND local_id = ?`).pluck().get(id)).toBe(0);
      expect(store.db.prepare(`SELECT count(*) FROM payment_intents WHERE order_id = ?`).pluck().get(id)).toBe(0);
      expect(store.db.prepare(`SELECT count(*) FROM id_map WHERE entity_kind = 'payment_intent'`).pluck().get()).toBe(0);
      expect(store.db.prepare(`SELECT count(*) FROM repriced_orders WHERE order_id = ?`).pluck().get(id)).toBe(0);
    } else {
      expect(store.cashier.getOrder(id)).toEqual(before);
      expect(store.db.prepare(`SELECT count(*) FROM orders WHERE id = ?`).pluck().get(id)).toBeGreaterThan(0);
    }
    expect(store.integrityCheck()).toEqual(['ok']);
    expect(store.db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    store.close();
  });

  it('walks a pass in bounded batches with a cursor, examining each old order once', () => {
    const clock = new SettableClock(NOW);
    const store = openStore(tempDbPath(), { clock });
    const ids = Array.from({ length: 7 }, (_, i) => syncedOrder(store, clock, OLD + i).id);
    clock.set(OLD + 3);
    store.cashier.recordCashPayment(ids[3] as string, 100, 'usd', cashier);
    let cursor = store.retention.pruneBatch(CUTOFF, undefined, 3);
    expect(cursor).toMatchObject({ deleted: 3, kept: 0 });
    cursor = store.retention.pruneBatch(CUTOFF, cursor.next ?? undefined, 3);
    expect(cursor).toMatchObject({ deleted: 2, kept: 1 });
    const last = store.retention.pruneBatch(CUTOFF, cursor.next ?? undefined, 3);
    expect(last).toEqual({ deleted: 1, kept: 0, next: null });
    expect(store.cashier.listOrders({ limit: 10 }).map((o) => o.id)).toEqual([ids[3]]);
    store.close();
  });
});
