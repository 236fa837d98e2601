// Store mode's log and replicas on real SQLite files: each outbox operation appends one entry in its
// own transaction (none when store mode is off), and a peer's replica applies pages once, keeps the
// newest document, and survives a replaced log.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { openStore, type LogBody, type Store } from '../../store';
import { cashier, tempDbPath, threeLineOrder } from './helpers';

const T0 = 1_800_000_000_000;

function till(storeMode: boolean): { store: Store; clock: ManualClock } {
  const clock = new ManualClock(T0);
  return { store: openStore(tempDbPath(), { clock, storeMode }), clock };
}

const bodies = (store: Store): LogBody[] => store.log.read(0, 1_000).map((entry) => JSON.parse(Buffer.from(entry.body).toString('utf8')) as LogBody);
const logRows = (store: Store): number => store.db.prepare('SELECT COUNT(*) FROM store_log').pluck().get() as number;

describe('the till log', () => {
  it('writes nothing when store mode is off', () => {
    const { store } = till(false);
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    store.cashier.updateOrder(order.id, { notes: 'no ice' }, cashier);
    store.cashier.recordCashPayment(order.id, 500, 'usd', cashier);
    expect(logRows(store)).toBe(0);
    expect(store.outbox.unfinishedCount()).toBe(2);
    store.close();
  });

  it("appends one entry per operation, in its transaction, with the document after the write and the operation's kind", () => {
    const { store, clock } = till(true);
    let heard = 0;
    store.log.onAppended(() => heard++);
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    expect(heard).toBe(1);
    clock.advance(1_000);
    store.cashier.updateOrder(order.id, { notes: 'no ice' }, cashier);
    const ops = store.outbox.readyOperations(clock.now(), 10);
    expect(store.log.read(0, 10).map((e) => e.opId)).toEqual([ops[0]!.opId, expect.stringMatching(/^op_/)]);
    const [create, update] = bodies(store);
    expect(create).toMatchObject({ op: 'order.create', kind: 'order', id: order.id, order: order.id, synced: false, doc: { status: 'open', notes: 'table 4' } });
    expect(update).toMatchObject({ op: 'order.update', doc: { notes: 'no ice', total: order.total } });
    // Kept small: what a peer has no use for is left out; the tax rules travel (the store's day needs them).
    expect(create!.doc).not.toHaveProperty('cloud_check');
    expect(create!.doc).toHaveProperty('pricing');

    // A write that fails leaves no entry, and no one is woken.
    expect(() =>
      store.transaction(() => {
        store.cashier.updateOrder(order.id, { notes: 'rolled back' }, cashier);
        throw new Error('the write failed');
      }),
    ).toThrow('the write failed');
    expect(logRows(store)).toBe(2);
    expect(heard).toBe(2);

    // Reaching the cloud is an entry too: the order is synced once nothing of it is left to send.
    const [first] = store.outbox.claimReady(clock.now(), 1);
    store.outbox.completeOperation(first!.opId, { serverId: 'ord_srv_1' }, clock.now());
    expect(bodies(store).at(-1)).toMatchObject({ op: 'done', id: order.id, synced: false });
    const [second] = store.outbox.claimReady(clock.now(), 1);
    store.outbox.completeOperation(second!.opId, {}, clock.now());
    expect(bodies(store).at(-1)).toMatchObject({ op: 'done', id: order.id, synced: true, doc: { notes: 'no ice' } });
    expect(store.log.read(0, 10).map((e) => e.opId).slice(2)).toEqual([`${first!.opId}.done`, `${second!.opId}.done`]);
    expect(store.log.maxSeq()).toBe(4);
    expect(heard).toBe(4);
    store.close();
  });

  it('carries card payments and cash settled at the till, each with the order it belongs to', () => {
    const { store } = till(true);
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const intent = store.cashier.createPaymentIntent(order.id, 1_000, 'usd', cashier);
    store.cashier.capturePaymentIntent(intent.id, cashier);
    // Cash has no operation: its repository hands it to the log in its own transaction (store/cashier.ts).
    store.cashier.recordCashPayment(order.id, 700, 'usd', cashier);
    expect(bodies(store).map((b) => [b.op, b.kind, b.order, b.synced])).toEqual([
      ['order.create', 'order', order.id, false],
      ['payment_intent.create', 'payment_intent', order.id, false],
      ['payment_intent.capture', 'payment_intent', order.id, false],
      ['settled', 'payment', order.id, true],
    ]);
    store.close();
  });
});

describe('replicas of another till', () => {
  const page = (from: Store) => from.log.read(0, 1_000);

  it('apply a page with its cursor once, keep the newest document, and list the open orders with what was paid', () => {
    const a = till(true);
    const b = till(true);
    const order = a.store.cashier.createOrder({ ...threeLineOrder(), service: { type: 'dine_in', table: '12', guests: 2 } }, cashier);
    a.store.cashier.recordCashPayment(order.id, 900, 'usd', cashier, { tip: 100 });
    a.clock.advance(1_000);
    a.store.cashier.updateOrder(order.id, { notes: 'birthday' }, cashier);
    const logId = a.store.log.logId();
    expect(logId).toMatch(/^[0-9a-f]{32}$/);

    const all = page(a.store);
    b.store.replicas.nameTill('till-a', 'Bar');
    expect(b.store.replicas.apply('till-a', logId, all.slice(0, 2), T0, 'till-b')).toEqual({ logId, seq: 2 });
    // The whole log again (a page fetched twice): nothing is doubled.
    expect(b.store.replicas.apply('till-a', logId, all, T0 + 5, 'till-b')).toEqual({ logId, seq: 3 });
    expect(b.store.db.prepare('SELECT COUNT(*) FROM store_replica_log').pluck().get()).toBe(3);
    expect(b.store.replicas.cursor('till-a')).toEqual({ logId, seq: 3 });
    // Nothing of B's own log: a replica is not this till's write.
    expect(logRows(b.store)).toBe(0);

    const [listed] = b.store.replicas.openOrders();
    expect(listed).toMatchObject({ id: order.id, origin: 'till-a', ownerName: 'Bar', table: '12', serviceType: 'dine_in', total: order.total, paid: 800, reachedCloud: false, ownerHeardAt: T0 + 5 });
    expect(b.store.replicas.tills()).toEqual([{ origin: 'till-a', name: 'Bar', cursor: { logId, seq: 3 }, heardAt: T0 + 5, replaced: 0, ordersNotInCloud: 1 }]);

    // An older entry of the same entity (seq 1) never replaces a newer one.
    b.store.db.prepare('DELETE FROM store_replica_log').run();
    b.store.replicas.apply('till-a', logId, all.slice(0, 1), T0 + 6, 'till-b');
    expect(JSON.parse(b.store.db.prepare("SELECT doc FROM store_replica_docs WHERE entity_kind = 'order'").pluck().get() as string)).toMatchObject({ notes: 'birthday' });
    a.store.close();
    b.store.close();
  });

  it("read a replaced log again from 0, keeping what they had, and let the new file's entries win", () => {
    const a = till(true);
    const b = till(true);
    const first = a.store.cashier.createOrder(threeLineOrder(), cashier);
    b.store.replicas.apply('till-a', a.store.log.logId(), page(a.store), T0, 'till-b');

    // Same till, new file: another log id, seqs from 1 again.
    const replaced = till(true);
    const second = replaced.store.cashier.createOrder(threeLineOrder(), cashier);
    const newLogId = replaced.store.log.logId();
    expect(newLogId).not.toBe(a.store.log.logId());
    expect(b.store.replicas.logReplaced('till-a', newLogId, T0 + 1)).toEqual({ logId: newLogId, seq: 0 });
    b.store.replicas.apply('till-a', newLogId, page(replaced.store), T0 + 2, 'till-b');
    expect(b.store.replicas.openOrders().map((o) => o.id).sort()).toEqual([first.id, second.id].sort());
    expect(b.store.db.prepare('SELECT log_id, seq FROM store_replica_log ORDER BY log_id = ?').all(newLogId)).toEqual([
      { log_id: a.store.log.logId(), seq: 1 },
      { log_id: newLogId, seq: 1 },
    ]);
    expect(b.store.replicas.tills()[0]).toMatchObject({ replaced: 1, cursor: { logId: newLogId, seq: 1 } });
    for (const s of [a, b, replaced]) s.store.close();
  });

  it('keep an entry whose body is not a document they know, and skip only its document', () => {
    const b = till(true);
    const cursor = b.store.replicas.apply('till-a', 'log1', [{ seq: 1, opId: 'op_x', body: Buffer.from('{"from":"a newer till"}') }], T0, 'till-b');
    expect(cursor).toEqual({ logId: 'log1', seq: 1 });
    expect(b.store.db.prepare('SELECT COUNT(*) FROM store_replica_docs').pluck().get()).toBe(0);
    expect(b.store.replicas.openOrders()).toEqual([]);
    b.store.close();
  });
});
