// Adopting a quiet till's orders on real SQLite files (store/store-adoption.ts): the adopter's outbox
// gets the quiet till's unconfirmed operations with the same op ids, payloads and dependencies, looking
// before the first send; confirmed entities keep their cloud id; every till hides the quiet till's copies;
// the quiet till, back, gives the orders up once, and a change it made after the adopter's copy goes to
// the dead letters for a person rather than being sent by neither or both.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { openStore, type Store } from '../../store';
import { cashier, tempDbPath, threeLineOrder } from './helpers';

const T0 = 1_800_000_000_000;
const [TILL_A, TILL_B, TILL_C] = ['a'.repeat(64), 'b'.repeat(64), 'c'.repeat(64)];
const MANAGER = { id: 'stf_cfg_max', name: 'Max', role: 'manager' as const };

function till(): { store: Store; clock: ManualClock } {
  const clock = new ManualClock(T0);
  return { store: openStore(tempDbPath(), { clock, storeMode: true }), clock };
}

/** `to` pulls everything `from` logged after what it has (one page). */
function pull(to: Store, from: Store, origin: string, self: string): void {
  const after = to.replicas.cursor(origin)?.seq ?? 0;
  const page = from.log.read(after, 10_000);
  if (page.length > 0) to.replicas.apply(origin, from.log.logId(), page, T0, self);
}

const outbox = (store: Store) =>
  store.db.prepare('SELECT op_id AS opId, kind, entity_id AS entityId, payload, state, last_error AS lastError FROM outbox ORDER BY seq').all() as {
    opId: string; kind: string; entityId: string; payload: string; state: string; lastError: string | null;
  }[];

describe('adopting a quiet till’s orders', () => {
  it('copies what the cloud does not have with the same op ids, payloads and dependencies, links what it has, and hides the quiet till’s copies', () => {
    const { store: a, clock } = till();
    const { store: c } = till();
    const { store: b } = till();
    // A: one order in the cloud and still open, with a change that is not; one order never sent.
    const tab = a.cashier.createOrder(threeLineOrder(), cashier);
    const [create] = a.outbox.claimReady(clock.now(), 1);
    a.outbox.completeOperation(create!.opId, { serverId: 'ord_srv_tab' }, clock.now());
    clock.advance(1_000);
    a.cashier.updateOrder(tab.id, { notes: 'window seat' }, cashier);
    const fresh = a.cashier.createOrder(threeLineOrder(), cashier);
    a.cashier.updateOrder(fresh.id, { notes: 'no ice' }, cashier);
    const aOps = outbox(a).filter((op) => op.state === 'pending');
    expect(aOps).toHaveLength(3);
    pull(c, a, TILL_A, TILL_C);
    pull(b, a, TILL_A, TILL_B);
    expect(c.adoptions.adoptable(TILL_A).map((order) => order.orderId).sort()).toEqual([tab.id, fresh.id].sort());
    // One page brought the tab's create, its reaching the cloud and a later change: its cloud id is kept.
    expect(b.replicas.ownedElsewhere(['ord_srv_tab', fresh.id, 'ord_unknown'])).toEqual(new Map([['ord_srv_tab', null], [fresh.id, null]]));

    const adopted = c.transaction(() => c.adoptions.adopt({ origin: TILL_A, originName: 'Bar', self: TILL_C, adoptionId: 'adopt_1', by: MANAGER, approvedBy: null, now: T0 + 5_000 }));
    expect(adopted.orders).toHaveLength(2);
    expect(adopted.operations).toBe(3);
    // The same operations, in A's order, each looking before its first send.
    const cOps = outbox(c);
    expect(cOps.map(({ opId, kind, entityId, payload }) => ({ opId, kind, entityId, payload }))).toEqual(aOps.map(({ opId, kind, entityId, payload }) => ({ opId, kind, entityId, payload })));
    for (const op of cOps) expect(op.lastError).toMatch(/^ambiguous since \d+: taken over from Bar, which may have sent it$/);
    // The fresh order's change waits for its create, as on A.
    const deps = c.db.prepare('SELECT op_id AS opId, depends_on_op_id AS dependsOn FROM outbox_dependencies').all();
    expect(deps).toEqual(a.db.prepare('SELECT op_id AS opId, depends_on_op_id AS dependsOn FROM outbox_dependencies').all());
    // The tab keeps its cloud id; both are C's orders as A last had them.
    expect(c.ids.serverIdFor('order', tab.id)).toBe('ord_srv_tab');
    expect(c.cashier.getOrder(tab.id)?.notes).toBe('window seat');
    expect(c.cashier.getOrder(fresh.id)?.notes).toBe('no ice');
    // Nothing left to take; A's copies hidden on C, and on B once it pulls C.
    expect(c.adoptions.adoptable(TILL_A)).toEqual([]);
    expect(c.replicas.openOrders()).toEqual([]);
    expect(b.replicas.openOrders().map((order) => order.origin)).toEqual([TILL_A, TILL_A]);
    pull(b, c, TILL_C, TILL_B);
    expect(b.replicas.openOrders().map((order) => [order.id, order.origin]).sort()).toEqual([[tab.id, TILL_C], [fresh.id, TILL_C]].sort());
    expect(b.replicas.tills().find((t) => t.origin === TILL_A)?.ordersNotInCloud).toBe(0);
    for (const store of [a, b, c]) store.close();
  });

  it('the quiet till, back, gives the orders up once; a change it made after the adopter’s copy goes to the dead letters', () => {
    const { store: a, clock } = till();
    const { store: c } = till();
    const given = a.cashier.createOrder(threeLineOrder(), cashier);
    const kept = a.cashier.createOrder(threeLineOrder(), cashier);
    pull(c, a, TILL_A, TILL_C);
    c.transaction(() => c.adoptions.adopt({ origin: TILL_A, originName: 'Bar', self: TILL_C, adoptionId: 'adopt_1', by: MANAGER, approvedBy: null, now: T0 + 5_000 }));
    // A was cut off, not dead: it changed `kept` after C copied it.
    clock.advance(1_000);
    a.cashier.updateOrder(kept.id, { notes: 'made on Bar meanwhile' }, cashier);
    pull(a, c, TILL_C, TILL_A);
    expect(a.adoptions.surrenders(TILL_A).map((s) => s.orderId).sort()).toEqual([given.id, kept.id].sort());

    const results = a.adoptions.surrenders(TILL_A).map((s) => ({ order: s.orderId, ...a.transaction(() => a.adoptions.surrender(TILL_A, s, clock.now())) }));
    const unsent = results.find((r) => r.order === kept.id)!.unsent;
    expect(results.find((r) => r.order === given.id)!.unsent).toEqual([]);
    expect(unsent).toHaveLength(1);
    // Given up: its operation done (C sends it), the order gone from A's rows.
    expect(a.cashier.getOrder(given.id)).toBeUndefined();
    expect(outbox(a).filter((op) => op.entityId === given.id).map((op) => [op.state, op.lastError])).toEqual([['done', 'taken over by another till while this till was away: it sends this change']]);
    // Kept, with its create done (C sends it) and the later change waiting for a person: neither till sends it.
    expect(a.cashier.getOrder(kept.id)).toBeDefined();
    expect(outbox(a).filter((op) => op.entityId === kept.id).map((op) => op.state)).toEqual(['done', 'pending']);
    expect(a.adoptions.surrenders(TILL_A)).toEqual([]);
    // C's replica of A holds no order C does not own.
    expect(c.replicas.openOrders()).toEqual([]);
    a.close();
    c.close();
  });
});
