// A real failure injected inside a cashier write (a trigger that aborts an insert) must leave
// neither domain rows nor outbox rows nor audit rows behind.
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../store';
import { cashier, tempDbPath, threeLineOrder } from './helpers';

function counts(store: Store): Record<string, number> {
  const tables = ['orders', 'outbox', 'outbox_dependencies', 'audit_log', 'payment_intents'];
  return Object.fromEntries(tables.map((t) => [t, store.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]));
}

describe('atomicity of cashier writes', () => {
  it.each([
    ['the outbox insert', 'outbox'],
    ['the audit insert', 'audit_log'],
    ['the order row insert', 'orders'],
  ])('a failure in %s leaves nothing of the order', (_name, table) => {
    const store = openStore(tempDbPath());
    const kept = store.cashier.createOrder(threeLineOrder(), cashier);
    const before = counts(store);
    store.db.exec(`CREATE TEMP TRIGGER fail_write BEFORE INSERT ON main.${table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    expect(() => store.cashier.createOrder(threeLineOrder(), cashier)).toThrow('injected failure');
    expect(counts(store)).toEqual(before);
    expect(store.cashier.listOrders().map((o) => o.id)).toEqual([kept.id]);
    store.db.exec('DROP TRIGGER temp.fail_write');
    // The connection is healthy afterwards: the next write commits whole.
    store.cashier.createOrder(threeLineOrder(), cashier);
    expect(counts(store).outbox).toBe(before.outbox! + 1);
    store.close();
  });

  it('a failing dependency insert undoes the payment intent and its pending row', () => {
    const store = openStore(tempDbPath());
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const before = counts(store);
    store.db.exec(`CREATE TEMP TRIGGER fail_dep BEFORE INSERT ON main.outbox_dependencies BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    expect(() => store.cashier.createPaymentIntent(order.id, order.total, 'usd', cashier)).toThrow('injected failure');
    expect(counts(store)).toEqual(before);
    store.close();
  });

  it('a failure after an update rolls the order back to its previous merged state', () => {
    const store = openStore(tempDbPath());
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    store.db.exec(`CREATE TEMP TRIGGER fail_audit BEFORE INSERT ON main.audit_log BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    expect(() => store.cashier.updateOrder(order.id, { notes: 'changed', lines: [threeLineOrder().lines[0]!] }, cashier)).toThrow('injected failure');
    expect(store.cashier.getOrder(order.id)).toEqual(order);
    expect(store.outbox.readyOperations(Number.MAX_SAFE_INTEGER, 10).map((op) => op.kind)).toEqual(['order.create']);
    store.close();
  });

  it('several writes grouped in store.transaction commit or vanish together', () => {
    const store = openStore(tempDbPath());
    expect(() =>
      store.transaction(() => {
        store.cashier.createOrder(threeLineOrder(), cashier);
        store.cashier.createOrder(threeLineOrder(), cashier);
        throw new Error('cashier walked away');
      }),
    ).toThrow('cashier walked away');
    expect(counts(store)).toMatchObject({ orders: 0, outbox: 0, audit_log: 0 });
    store.close();
  });
});
