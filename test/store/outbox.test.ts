import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { openStore, OrderLineDoc, StoreError, type OrderLineInput, type ServerRecord } from '../../store';
import { lineRefs, orderTotal } from '../../store/order-lines';
import { cashier, serverOrder, tempDbPath, threeLineOrder } from './helpers';

function setup() {
  const clock = new ManualClock(1_800_000_000_000);
  const file = tempDbPath();
  const store = openStore(file, { clock });
  return { clock, file, store };
}

describe('outbox ordering', () => {
  it('gives each write a stable op id and drains an entity strictly in order', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    store.cashier.updateOrder(order.id, { notes: 'extra napkins' }, cashier);
    store.cashier.fulfilOrder(order.id, cashier);
    const now = clock.now();

    const [create, ...rest] = store.outbox.readyOperations(now, 10);
    expect(rest).toEqual([]);
    expect(create).toMatchObject({
      entityKind: 'order',
      entityId: order.id,
      kind: 'order.create',
      state: 'pending',
      attempts: 0,
      resourceKey: `order:${order.id}`,
      payload: {
        location_id: 'loc_1',
        items: [
          { menu_item_id: 'mi_burger', quantity: 2, modifiers: ['mod_cheese'] },
          { menu_item_id: 'mi_fries', quantity: 1, modifiers: [] },
          { menu_item_id: 'mi_cola', quantity: 3, modifiers: [] },
        ],
        customer: { name: 'Ann', phone: '+1 555 0100' },
      },
    });
    expect(create!.opId).toMatch(/^op_/);

    store.outbox.markInFlight(create!.opId, now);
    expect(store.outbox.readyOperations(now, 10)).toEqual([]);
    store.outbox.completeOperation(create!.opId, { serverId: 'ord_srv_1' }, now);
    const [update] = store.outbox.readyOperations(now, 10);
    expect(update).toMatchObject({ kind: 'order.update', dependsOn: [create!.opId] });
    store.outbox.markInFlight(update!.opId, now);
    store.outbox.completeOperation(update!.opId, {}, now);
    expect(store.outbox.readyOperations(now, 10).map((op) => op.kind)).toEqual(['order.fulfil']);
    // Ops on different entities are independent and come out in outbox order.
    const second = store.cashier.createOrder(threeLineOrder(), cashier);
    expect(store.outbox.readyOperations(now, 10).map((op) => op.entityId)).toEqual([order.id, second.id]);
    expect(store.outbox.readyOperations(now, 1)).toHaveLength(1);
    store.close();
  });

  it('holds a payment intent until its order is created on the server', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const intent = store.cashier.createPaymentIntent(order.id, order.total, 'usd', cashier);
    const ready = store.outbox.readyOperations(clock.now(), 10);
    expect(ready.map((op) => op.kind)).toEqual(['order.create']);
    store.outbox.markInFlight(ready[0]!.opId, clock.now());
    expect(store.outbox.readyOperations(clock.now(), 10)).toEqual([]);
    store.outbox.completeOperation(ready[0]!.opId, { serverId: 'ord_srv' });
    const [pi] = store.outbox.readyOperations(clock.now(), 10);
    expect(pi).toMatchObject({ kind: 'payment_intent.create', entityId: intent.id, payload: { order_id: order.id, amount: order.total, currency: 'usd' } });
    expect(store.serverIdFor('order', order.id)).toBe('ord_srv');
    expect(store.localIdFor('order', 'ord_srv')).toBe(order.id);
    store.close();
  });

  it('claims ready operations in queue order, in flight and durable, with their dependencies', () => {
    const { store, clock, file } = setup();
    const first = store.cashier.createOrder(threeLineOrder(), cashier);
    store.cashier.fulfilOrder(first.id, cashier);
    const second = store.cashier.createOrder(threeLineOrder(), cashier);
    const third = store.cashier.createOrder(threeLineOrder(), cashier);
    clock.advance(1_000);
    const claimed = store.outbox.claimReady(clock.now(), 2);
    // The fulfil waits behind its order's create; the limit leaves the third order pending.
    expect(claimed).toMatchObject([
      { entityId: first.id, kind: 'order.create', state: 'in_flight', attempts: 1, updatedAt: clock.now(), dependsOn: [] },
      { entityId: second.id, kind: 'order.create', state: 'in_flight', attempts: 1, updatedAt: clock.now() },
    ]);
    expect(claimed.map((op) => store.outbox.getOperation(op.opId))).toEqual(claimed);
    expect(store.outbox.readyOperations(clock.now(), 10).map((op) => op.entityId)).toEqual([third.id]);
    store.outbox.completeOperation(claimed[0]!.opId, { serverId: 'ord_srv_claimed' }, clock.now());
    const [fulfil, last, ...none] = store.outbox.claimReady(clock.now(), 10);
    expect(none).toEqual([]);
    expect(fulfil).toMatchObject({ kind: 'order.fulfil', dependsOn: [claimed[0]!.opId], state: 'in_flight' });
    expect(last).toMatchObject({ entityId: third.id, state: 'in_flight' });
    expect(store.outbox.claimReady(clock.now(), 10)).toEqual([]);
    store.close();
    const reopened = openStore(file, { clock });
    expect(reopened.outbox.inFlightOperations().map((op) => op.opId)).toEqual([fulfil!.opId, claimed[1]!.opId, last!.opId]);
    reopened.close();
  });

  it('keeps in-flight operations in flight across a restart, for look-before-resend', () => {
    const { store, clock, file } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const [op] = store.outbox.readyOperations(clock.now(), 10);
    expect(store.outbox.markInFlight(op!.opId, clock.now()).attempts).toBe(1);
    expect(() => store.outbox.markInFlight(op!.opId, clock.now())).toThrow(StoreError);
    store.close();
    const reopened = openStore(file, { clock });
    expect(reopened.outbox.inFlightOperations()).toMatchObject([{ opId: op!.opId, entityId: order.id, state: 'in_flight', attempts: 1 }]);
    reopened.close();
  });

  it('retries later after a transient failure', () => {
    const { store, clock } = setup();
    store.cashier.createOrder(threeLineOrder(), cashier);
    const [op] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.markInFlight(op!.opId, clock.now());
    store.outbox.scheduleRetry(op!.opId, 'ECONNRESET', clock.now() + 5_000);
    expect(store.outbox.readyOperations(clock.now(), 10)).toEqual([]);
    clock.advance(5_000);
    const [again] = store.outbox.readyOperations(clock.now(), 10);
    expect(again).toMatchObject({ opId: op!.opId, attempts: 1, lastError: 'ECONNRESET', state: 'pending' });
    store.outbox.completeOperation(op!.opId, { serverId: 'ord_x' });
    expect(() => store.outbox.scheduleRetry(op!.opId, 'late', clock.now())).toThrow(/done/);
    expect(() => store.outbox.getOperation('op_missing')).toThrow(/no outbox operation/);
    store.close();
  });

  it('reports counts and the age of the oldest unfinished operation', () => {
    const { store, clock } = setup();
    expect(store.outbox.outboxStats(clock.now())).toEqual({ pending: 0, inFlight: 0, deadLetters: 0, oldestPendingAgeMs: null });
    const start = clock.now();
    const a = store.cashier.createOrder(threeLineOrder(), cashier);
    clock.advance(1_000);
    store.cashier.createOrder(threeLineOrder(), cashier);
    store.cashier.createOrder(threeLineOrder(), cashier);
    const [first, second] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.markInFlight(first!.opId, clock.now());
    store.outbox.deadLetter(second!.opId, 'rejected');
    clock.advance(2_000);
    expect(store.outbox.outboxStats(clock.now())).toEqual({ pending: 1, inFlight: 1, deadLetters: 1, oldestPendingAgeMs: clock.now() - start });
    expect(store.outbox.unfinishedCount()).toBe(2);
    expect(first!.entityId).toBe(a.id);
    store.close();
  });
});

describe('id map', () => {
  it('refuses to link an entity to a second server id, or a server id to a second entity', () => {
    const { store, clock } = setup();
    const a = store.cashier.createOrder(threeLineOrder(), cashier);
    const b = store.cashier.createOrder(threeLineOrder(), cashier);
    const [createA, createB] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.completeOperation(createA!.opId, { serverId: 'ord_1' });
    store.outbox.completeOperation(createA!.opId, { serverId: 'ord_1' }); // a repeat is harmless
    expect(() => store.ids.link('order', a.id, 'ord_2')).toThrow(/already linked to server id ord_1/);
    expect(() => store.outbox.completeOperation(createB!.opId, { serverId: 'ord_1' })).toThrow(/already linked to local id/);
    // The refused completion changed nothing.
    expect(store.outbox.getOperation(createB!.opId).state).toBe('pending');
    expect(store.serverIdFor('order', b.id)).toBeUndefined();
    store.close();
  });
});

describe('dead letters', () => {
  it('dead-letters an operation with everything depending on it; the refused order and its payment stay on the till until discarded', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    store.cashier.updateOrder(order.id, { notes: 'v2' }, cashier);
    const intent = store.cashier.createPaymentIntent(order.id, order.total, 'usd', cashier);
    store.cashier.capturePaymentIntent(intent.id, cashier);
    const other = store.cashier.createOrder(threeLineOrder(), cashier);
    const [create] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.markInFlight(create!.opId, clock.now());
    store.outbox.deadLetter(create!.opId, '422 location unknown', clock.now());

    const letters = store.outbox.listDeadLetters();
    expect(letters.map((l) => l.operation.kind)).toEqual(['order.create', 'order.update', 'payment_intent.create', 'payment_intent.capture']);
    expect(letters.every((l) => l.causedByOpId === create!.opId)).toBe(true);
    expect(letters[0]!.reason).toBe('422 location unknown');
    expect(letters[1]!.reason).toContain(`depends on ${create!.opId}`);
    // Never confirmed, but the screen said it was saved: the order, its notes and its captured
    // payment stay, marked refused, until a person decides.
    expect(store.cashier.getOrder(order.id)).toMatchObject({ id: order.id, notes: 'v2', total: order.total });
    expect(store.cashier.getPaymentIntent(intent.id)).toMatchObject({ status: 'captured', amount: order.total });
    expect(store.cashier.paymentsOfOrders([order.id]).intents.map((i) => i.id)).toEqual([intent.id]);
    expect(store.cashier.listOrders().map((o) => o.id).sort()).toEqual([order.id, other.id].sort());
    const states = store.outbox.syncStatesOf([{ kind: 'order', id: order.id }, { kind: 'payment_intent', id: intent.id }, { kind: 'order', id: other.id }]);
    expect(Object.fromEntries(states)).toEqual({ [`order:${order.id}`]: 'dead', [`payment_intent:${intent.id}`]: 'dead', [`order:${other.id}`]: 'unfinished' });
    expect(store.outbox.readyOperations(clock.now(), 10).map((op) => op.entityId)).toEqual([other.id]);
    expect(() => store.outbox.completeOperation(create!.opId)).toThrow(/dead letters/);

    // A restart changes nothing: the view is rows on disk, not memory.
    store.close();
    const reopened = openStore(store.file, { clock });
    expect(reopened.cashier.getOrder(order.id)?.notes).toBe('v2');
    expect(reopened.cashier.getPaymentIntent(intent.id)?.status).toBe('captured');
    reopened.close();
  });

  it('a change made after a refusal joins it in the dead letters: it cannot overtake it, and retry and discard take it along', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const [create] = store.outbox.claimReady(clock.now(), 10);
    store.outbox.deadLetter(create!.opId, '400 too many lines', clock.now());
    const noted = store.cashier.updateOrder(order.id, { notes: 'after the refusal' }, cashier);
    expect(noted.notes).toBe('after the refusal');
    const cash = store.cashier.recordCashPayment(order.id, 500, 'usd', cashier);
    const intent = store.cashier.createPaymentIntent(order.id, 700, 'usd', cashier);
    expect(store.outbox.readyOperations(clock.now(), 10)).toEqual([]);
    expect(store.outbox.unfinishedCount()).toBe(0);
    const letters = store.outbox.listDeadLetters();
    expect(letters.map((l) => [l.operation.kind, l.causedByOpId, l.refusal?.cause])).toEqual([
      ['order.create', create!.opId, undefined],
      ['order.update', create!.opId, 'dependency'],
      ['payment_intent.create', create!.opId, 'dependency'],
    ]);
    expect(letters[2]!.reason).toBe(`depends on ${create!.opId}, which failed: 400 too many lines`);
    expect(store.cashier.getOrder(order.id)?.notes).toBe('after the refusal');
    expect(store.cashier.paymentsOfOrders([order.id])).toMatchObject({ intents: [{ id: intent.id }], payments: [{ id: cash.id }] });

    store.outbox.retryDeadLetter(letters[0]!.id, clock.now());
    expect(store.outbox.listDeadLetters()).toEqual([]);
    expect(store.outbox.readyOperations(clock.now(), 10).map((op) => op.kind)).toEqual(['order.create']);
    store.close();
  });

  it('retries a dead letter with the operations that died because of it', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    store.cashier.updateOrder(order.id, { notes: 'v2' }, cashier);
    const [create] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.deadLetter(create!.opId, 'rejected');
    const [first, dependent] = store.outbox.listDeadLetters();
    expect(() => store.outbox.retryDeadLetter(dependent!.id)).toThrow(
      expect.objectContaining({ code: 'dependency_dead' }) as unknown as Error,
    );
    clock.advance(60_000);
    store.outbox.retryDeadLetter(first!.id, clock.now());
    expect(store.outbox.listDeadLetters()).toEqual([]);
    expect(store.cashier.getOrder(order.id)?.notes).toBe('v2');
    expect(store.outbox.readyOperations(clock.now(), 10)).toMatchObject([{ opId: create!.opId, attempts: 0, nextAttemptAt: clock.now(), lastError: null }]);
    expect(() => store.outbox.retryDeadLetter(first!.id)).toThrow(/no dead letter/);
    store.close();
  });

  it('discards a dead letter and its dependents for good', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    store.cashier.updateOrder(order.id, { notes: 'v2' }, cashier);
    const [create] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.deadLetter(create!.opId, 'rejected');
    expect(store.cashier.getOrder(order.id)?.notes).toBe('v2');
    store.outbox.discardDeadLetter(store.outbox.listDeadLetters()[0]!.id);
    expect(store.outbox.listDeadLetters()).toEqual([]);
    expect(store.outbox.outboxStats(clock.now())).toMatchObject({ pending: 0, deadLetters: 0 });
    // A person gave it up: now, and only now, it leaves the till.
    expect(store.cashier.getOrder(order.id)).toBeUndefined();
    expect(() => store.outbox.discardDeadLetter(1)).toThrow(/no dead letter/);
    store.close();
  });

  it('shows a refused capture of a confirmed card payment until it is discarded', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const intent = store.cashier.createPaymentIntent(order.id, order.total, 'usd', cashier);
    for (const serverId of ['ord_srv', 'pi_srv']) {
      const [op] = store.outbox.claimReady(clock.now(), 1);
      store.outbox.completeOperation(op!.opId, { serverId }, clock.now());
    }
    store.cashier.capturePaymentIntent(intent.id, cashier);
    const [capture] = store.outbox.claimReady(clock.now(), 1);
    store.outbox.deadLetter(capture!.opId, '402 card declined', clock.now());
    expect(store.cashier.getPaymentIntent(intent.id)?.status).toBe('captured');
    expect(store.outbox.syncStatesOf([{ kind: 'payment_intent', id: intent.id }]).get(`payment_intent:${intent.id}`)).toBe('dead');
    store.outbox.discardDeadLetter(store.outbox.listDeadLetters()[0]!.id);
    expect(store.cashier.getPaymentIntent(intent.id)?.status).toBe('authorized');
    store.close();
  });

  it('shows a refused change of a confirmed order until it is discarded, then the confirmed state', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const [create] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.completeOperation(create!.opId, { serverRecord: { id: 'ord_srv', status: 'open', total: order.total } });
    store.cashier.cancelOrder(order.id, cashier);
    expect(store.cashier.getOrder(order.id)?.status).toBe('cancelled');
    const [cancel] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.deadLetter(cancel!.opId, 'cannot cancel a paid order');
    expect(store.cashier.getOrder(order.id)?.status).toBe('cancelled');
    // A newer server copy lands under it: the refused change is replayed on top, still undecided.
    store.server.applyServerRecord('order', { id: 'ord_srv', status: 'open', total: order.total, updated_at: clock.now() + 1 });
    expect(store.cashier.getOrder(order.id)?.status).toBe('cancelled');
    store.outbox.discardDeadLetter(store.outbox.listDeadLetters()[0]!.id);
    expect(store.cashier.getOrder(order.id)).toMatchObject({ status: 'open', notes: 'table 4', total: order.total });
    expect(() => store.outbox.deadLetter(create!.opId, 'late')).toThrow(/done/);
    store.close();
  });
});

describe('pruning', () => {
  it('deletes old done operations but keeps those an unfinished one depends on', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const other = store.cashier.createOrder(threeLineOrder(), cashier);
    store.cashier.createPaymentIntent(order.id, order.total, 'usd', cashier); // depends on order A's create
    const [createA, createB] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.completeOperation(createA!.opId, { serverId: 'ord_a' }, clock.now());
    store.outbox.completeOperation(createB!.opId, { serverId: 'ord_b' }, clock.now());
    clock.advance(1_000);
    expect(store.outbox.pruneCompleted(clock.now())).toBe(1);
    expect(() => store.outbox.getOperation(createB!.opId)).toThrow(/no outbox operation/);
    expect(store.outbox.getOperation(createA!.opId).state).toBe('done');
    expect(store.serverIdFor('order', other.id)).toBe('ord_b');
    expect(store.cashier.getOrder(other.id)?.id).toBe(other.id);
    expect(store.outbox.readyOperations(clock.now(), 10).map((op) => op.kind)).toEqual(['payment_intent.create']);
    store.close();
  });
});

describe("a change of an order's lines against the server's lines", () => {
  // As the store keeps them: the till's own line fields with their defaults.
  const lines = threeLineOrder().lines.map((line) => OrderLineDoc.parse(line));
  const [burger, fries, cola] = lines as [OrderLineInput, OrderLineInput, OrderLineInput];
  const serverLines = (orderLines: OrderLineInput[], updatedAt: number): ServerRecord =>
    serverOrder('ord_server', { lines: orderLines, total: orderTotal(orderLines), updated_at: updatedAt });

  /** An order on the server, then a change of its lines here, claimed for sending. */
  function changedHere(change: OrderLineInput[]) {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const [create] = store.outbox.claimReady(clock.now(), 10);
    store.outbox.completeOperation(create!.opId, { serverRecord: serverLines(lines, clock.now()) }, clock.now());
    clock.advance(1_000);
    store.cashier.updateOrder(order.id, { lines: change }, cashier);
    const [update] = store.outbox.claimReady(clock.now(), 10);
    return { store, clock, order, update: update! };
  }

  it('remembers the lines a change of lines was made on, including earlier changes not yet sent; other changes remember none', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    store.cashier.updateOrder(order.id, { lines: [burger, fries] }, cashier);
    store.cashier.updateOrder(order.id, { lines: [burger] }, cashier);
    store.cashier.updateOrder(order.id, { notes: 'no onions' }, cashier);
    const ops = [store.outbox.claimReady(clock.now(), 1)[0]!];
    for (let n = 0; n < 3; n++) {
      store.outbox.completeOperation(ops.at(-1)!.opId, {}, clock.now());
      ops.push(store.outbox.claimReady(clock.now(), 1)[0]!);
    }
    expect(ops.map((op) => op.basedOn)).toEqual([null, lineRefs(lines), lineRefs([burger, fries]), null]);
    store.close();
  });

  it('carries only what the cashier changed: the register hands over the whole order, and unchanged fields would overwrite another till', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    store.cashier.updateOrder(order.id, { lines: order.lines, customer: order.customer, notes: 'window seat' }, cashier);
    store.cashier.updateOrder(order.id, { lines: [burger], customer: order.customer }, cashier);
    store.cashier.updateOrder(order.id, { lines: [burger], customer: { name: 'Ann', phone: '+1 555 0199' } }, cashier);
    const ops = [store.outbox.claimReady(clock.now(), 1)[0]!];
    for (let n = 0; n < 3; n++) {
      store.outbox.completeOperation(ops.at(-1)!.opId, {}, clock.now());
      ops.push(store.outbox.claimReady(clock.now(), 1)[0]!);
    }
    expect(ops.slice(1).map((op) => op.payload)).toEqual([{}, { items: lineRefs([burger]) }, { customer: { name: 'Ann', phone: '+1 555 0199' } }]);
    expect(store.cashier.getOrder(order.id)).toMatchObject({ notes: 'window seat', lines: [burger], customer: { phone: '+1 555 0199' } });
    store.close();
  });

  it('is sent as it is when the server still has those lines, and not at all when it already has the change', () => {
    const { store, clock, update } = changedHere([burger, { ...cola, quantity: 4 }]);
    expect(store.outbox.rebaseOrderLines(update.opId, serverLines(lines, clock.now()), clock.now())).toEqual({ outcome: 'send' });
    // Split or ordered differently, the same items in the same quantities are the same lines.
    const applied = serverLines([{ ...cola, quantity: 1 }, burger, { ...cola, quantity: 3 }], clock.now());
    expect(store.outbox.rebaseOrderLines(update.opId, applied, clock.now())).toEqual({ outcome: 'applied' });
    store.close();
  });

  it('is merged, durably before it is sent, with a change made elsewhere to other items', () => {
    const { store, clock, order, update } = changedHere([burger, fries, { ...cola, quantity: 4 }]); // one more cola here
    const elsewhere = serverLines([burger, cola], clock.now()); // no fries there
    const result = store.outbox.rebaseOrderLines(update.opId, elsewhere, clock.now());
    expect(result.outcome).toBe('merged');
    const rewritten = store.outbox.getOperation(update.opId);
    expect(rewritten.payload.items).toEqual(lineRefs([burger, { ...cola, quantity: 4 }]));
    expect(rewritten.basedOn).toEqual(lineRefs([burger, cola]));
    expect(store.cashier.getOrder(order.id)).toMatchObject({ lines: [burger, { ...cola, quantity: 4 }], total: 2 * 1000 + 4 * 250 });
    expect(store.server.readBase('order', order.id)?.lines).toEqual([burger, cola]);
    // Sent again against the same server lines (a retry), it goes as it is now.
    expect(store.outbox.rebaseOrderLines(update.opId, elsewhere, clock.now())).toEqual({ outcome: 'send' });
    store.close();
  });

  it('waits in the dead letters when the same item was changed elsewhere; retried, it sends its own quantity for it', () => {
    const { store, clock, order, update } = changedHere([burger, fries, { ...cola, quantity: 5 }]);
    const elsewhere = serverLines([burger, fries, { ...cola, quantity: 1 }], clock.now());
    expect(store.outbox.rebaseOrderLines(update.opId, elsewhere, clock.now())).toEqual({
      outcome: 'conflict',
      conflicts: [{ name: 'Cola', ancestor: 3, ours: 5, theirs: 1 }],
    });
    const [letter] = store.outbox.listDeadLetters();
    expect(letter).toMatchObject({ refusal: { cause: 'conflict', status: null, code: null }, reason: expect.stringContaining('Cola: 5 here, 1 there (was 3)') });
    // This till's change, merged with theirs, stays on screen (marked refused) until a person decides.
    expect(store.cashier.getOrder(order.id)?.lines).toEqual([burger, fries, { ...cola, quantity: 5 }]);
    expect(store.server.readBase('order', order.id)?.lines).toEqual([burger, fries, { ...cola, quantity: 1 }]);

    store.outbox.retryDeadLetter(letter!.id, clock.now());
    expect(store.cashier.getOrder(order.id)?.lines).toEqual([burger, fries, { ...cola, quantity: 5 }]);
    const [retried] = store.outbox.claimReady(clock.now(), 10);
    expect(store.outbox.rebaseOrderLines(retried!.opId, elsewhere, clock.now())).toEqual({ outcome: 'send' });
    store.close();
  });
});
