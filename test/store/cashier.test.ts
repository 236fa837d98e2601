import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../common/clock';
import { openStore, StoreError } from '../../store';
import { SYNC_STATES_OF_SQL } from '../../store/outbox';
import { cashier, tempDbPath, threeLineOrder } from './helpers';

function setup() {
  const clock = new ManualClock(1_800_000_000_000);
  const store = openStore(tempDbPath(), { clock });
  return { clock, store };
}

function expectCode(fn: () => unknown, code: StoreError['code']): void {
  expect(fn).toThrow(StoreError);
  try {
    fn();
  } catch (error) {
    expect((error as StoreError).code).toBe(code);
  }
}

describe('orders', () => {
  it('creates an order with lines, modifiers, customer and notes, and computes the total', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    expect(order).toMatchObject({ status: 'open', currency: 'usd', customer: { name: 'Ann', phone: '+1 555 0100' }, notes: 'table 4', created_at: clock.now() });
    // 2 × (900 + 100) + 1 × 350 + 3 × 250
    expect(order.total).toBe(3100);
    expect(store.cashier.getOrder(order.id)).toEqual(order);
    expect(store.cashier.listAudit({ entityKind: 'order', entityId: order.id })).toMatchObject([{ actor: 'cashier-1', action: 'order.create', detail: { total: 3100, lines: 3 } }]);
    store.close();
  });

  it('refuses an order without lines or with a fractional price, changing nothing', () => {
    const { store } = setup();
    expect(() => store.cashier.createOrder({ ...threeLineOrder(), lines: [] }, cashier)).toThrow(z.ZodError);
    const bad = threeLineOrder();
    bad.lines[0]!.unit_price = 9.5;
    expect(() => store.cashier.createOrder(bad, cashier)).toThrow(z.ZodError);
    expect(store.cashier.listOrders()).toEqual([]);
    expect(store.outbox.unfinishedCount()).toBe(0);
    store.close();
  });

  it('updates an open order, then fulfils it, then refuses further changes', () => {
    const { store } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const updated = store.cashier.updateOrder(order.id, { lines: [threeLineOrder().lines[1]!], customer: null, notes: 'to go' }, cashier);
    expect(updated).toMatchObject({ total: 350, customer: null, notes: 'to go', lines: [{ name: 'Fries' }] });
    expect(store.cashier.fulfilOrder(order.id, cashier).status).toBe('fulfilled');
    expectCode(() => store.cashier.updateOrder(order.id, { notes: 'late' }, cashier), 'conflict');
    expectCode(() => store.cashier.cancelOrder(order.id, cashier), 'conflict');
    expectCode(() => store.cashier.fulfilOrder('ord_missing', cashier), 'not_found');
    expect(store.outbox.readyOperations(Number.MAX_SAFE_INTEGER, 10)).toHaveLength(1);
    expect(store.outbox.unfinishedCount()).toBe(3);
    store.close();
  });

  it('lists by status, location and created range, newest first, with paging', () => {
    const { store, clock } = setup();
    const t0 = clock.now();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(store.cashier.createOrder(threeLineOrder(i % 2 === 0 ? 'loc_a' : 'loc_b'), cashier).id);
      clock.advance(1_000);
    }
    store.cashier.cancelOrder(ids[0]!, cashier);
    expect(store.cashier.listOrders().map((o) => o.id)).toEqual([...ids].reverse());
    expect(store.cashier.listOrders({ status: 'cancelled' }).map((o) => o.id)).toEqual([ids[0]]);
    expect(store.cashier.listOrders({ locationId: 'loc_b' }).map((o) => o.id)).toEqual([ids[3], ids[1]]);
    expect(store.cashier.listOrders({ createdFrom: t0 + 1_000, createdTo: t0 + 3_000 }).map((o) => o.id)).toEqual([ids[2], ids[1]]);
    expect(store.cashier.listOrders({ limit: 2, offset: 2 }).map((o) => o.id)).toEqual([ids[2], ids[1]]);
    expect(store.cashier.listOrders({ status: 'open', locationId: 'loc_a' }).map((o) => o.lines.length)).toEqual([3, 3]);
    expect(() => store.cashier.listOrders({ limit: 0 })).toThrow(z.ZodError);
    store.close();
  });
});

describe('payments and refunds', () => {
  it('creates and captures a card payment intent', () => {
    const { store } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const intent = store.cashier.createPaymentIntent(order.id, order.total, 'usd', cashier);
    expect(intent).toMatchObject({ order_id: order.id, amount: 3100, status: 'authorized' });
    expect(store.cashier.capturePaymentIntent(intent.id, cashier).status).toBe('captured');
    expectCode(() => store.cashier.capturePaymentIntent(intent.id, cashier), 'conflict');
    expectCode(() => store.cashier.capturePaymentIntent('pi_missing', cashier), 'not_found');
    expectCode(() => store.cashier.createPaymentIntent('ord_missing', 100, 'usd', cashier), 'not_found');
    expect(() => store.cashier.createPaymentIntent(order.id, 0, 'usd', cashier)).toThrow(z.ZodError);
    store.close();
  });

  it('records cash locally as confirmed and refunds it partially, never beyond the payment', () => {
    const { store } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const cash = store.cashier.recordCashPayment(order.id, 3100, 'usd', cashier);
    expect(store.db.prepare('SELECT layer FROM payments WHERE id = ?').pluck().all(cash.id)).toEqual(['base']);
    const first = store.cashier.createRefund(cash.id, 1000, 'cold fries', cashier);
    expect(first).toMatchObject({ amount: 1000, status: 'succeeded', currency: 'usd' });
    expectCode(() => store.cashier.createRefund(cash.id, 2101, 'too much', cashier), 'conflict');
    store.cashier.createRefund(cash.id, 2100, 'rest', cashier);
    expect(store.cashier.refundsOf(cash.id).map((r) => r.amount).sort()).toEqual([1000, 2100]);
    expectCode(() => store.cashier.createRefund('pay_missing', 1, 'x', cashier), 'not_found');
    expectCode(() => store.cashier.recordCashPayment('ord_missing', 1, 'usd', cashier), 'not_found');
    // Cash never goes to the outbox; the order create is the only operation.
    expect(store.outbox.unfinishedCount()).toBe(1);
    store.close();
  });

  it('sends card refunds to the server and counts pending ones against the payment', () => {
    const { store, clock } = setup();
    store.server.applyServerRecord('payment', {
      id: 'pay_srv', order_id: 'ord_srv', payment_intent_id: 'pi_srv', method: 'card', amount: 2000, currency: 'eur', status: 'succeeded', created_at: clock.now(),
    });
    const refund = store.cashier.createRefund('pay_srv', 2000, 'wrong order', cashier);
    expect(refund.status).toBe('pending');
    expect(store.outbox.readyOperations(clock.now(), 10)).toMatchObject([
      { kind: 'refund.create', resourceKey: 'payment:pay_srv', payload: { payment_id: 'pay_srv', amount: 2000, reason: 'wrong order' } },
    ]);
    expectCode(() => store.cashier.createRefund('pay_srv', 1, 'again', cashier), 'conflict');
    store.close();
  });
});

describe('payment reads', () => {
  it('returns the intents, payments and refunds of a set of orders in the merged view', () => {
    const { store, clock } = setup();
    const paidByCard = store.cashier.createOrder(threeLineOrder(), cashier);
    const paidInCash = store.cashier.createOrder(threeLineOrder(), cashier);
    const unrelated = store.cashier.createOrder(threeLineOrder(), cashier);
    const intent = store.cashier.createPaymentIntent(paidByCard.id, paidByCard.total, 'usd', cashier);
    store.cashier.capturePaymentIntent(intent.id, cashier);
    const card = { id: 'pay_srv_card', order_id: paidByCard.id, payment_intent_id: intent.id, method: 'card', amount: 3100, currency: 'usd', status: 'succeeded', created_at: clock.now() };
    store.server.applyServerRecord('payment', card);
    const cash = store.cashier.recordCashPayment(paidInCash.id, 3100, 'usd', cashier);
    const refund = store.cashier.createRefund(cash.id, 100, 'spilled', cashier);
    store.cashier.recordCashPayment(unrelated.id, 3100, 'usd', cashier);

    const reads = store.cashier.paymentsOfOrders([paidByCard.id, paidInCash.id]);
    expect(reads.intents).toEqual([{ ...intent, status: 'captured' }]);
    expect(reads.payments.map((p) => p.id).sort()).toEqual([cash.id, 'pay_srv_card'].sort());
    expect(reads.refunds).toEqual([refund]);
    expect(store.cashier.paymentsOfOrders([])).toEqual({ intents: [], payments: [], refunds: [] });
    expect(store.cashier.getPaymentIntent(intent.id)?.status).toBe('captured');
    expect(store.cashier.cardPaymentForIntent(intent.id)?.id).toBe('pay_srv_card');
    expect(store.cashier.cardPaymentForIntent('pi_none')).toBeUndefined();
    store.close();
  });

  /** Three orders: one waiting to be sent, one refused, one synced. */
  function ordersInEachState() {
    const { store, clock } = setup();
    const pending = store.cashier.createOrder(threeLineOrder(), cashier);
    const dead = store.cashier.createOrder(threeLineOrder(), cashier);
    const synced = store.cashier.createOrder(threeLineOrder(), cashier);
    const [, deadOp, syncedOp] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.deadLetter(deadOp!.opId, 'rejected');
    store.outbox.completeOperation(syncedOp!.opId, { serverId: 'ord_synced' });
    return { store, pending, dead, synced };
  }

  it('tells which entities still have operations to send or a dead one', () => {
    const { store, pending, dead, synced } = ordersInEachState();
    expect(store.outbox.entitySyncStates()).toEqual(
      new Map([
        [`order:${pending.id}`, 'unfinished'],
        [`order:${dead.id}`, 'dead'],
      ]),
    );
    expect(synced.id).not.toBe(dead.id);
    store.close();
  });

  it('tells the same for chosen entities only, by index lookups rather than a scan of the outbox', () => {
    const { store, pending, dead, synced } = ordersInEachState();
    const intent = store.cashier.createPaymentIntent(pending.id, 500, 'usd', cashier);
    const shown = [
      { kind: 'order' as const, id: pending.id },
      { kind: 'order' as const, id: dead.id },
      { kind: 'order' as const, id: synced.id },
      { kind: 'payment_intent' as const, id: intent.id },
      { kind: 'refund' as const, id: 're_never_made' },
    ];
    expect(store.outbox.syncStatesOf(shown)).toEqual(
      new Map([
        [`order:${pending.id}`, 'unfinished'],
        [`order:${dead.id}`, 'dead'],
        [`payment_intent:${intent.id}`, 'unfinished'],
      ]),
    );
    // Only what was asked for, even though other entities wait too.
    expect(store.outbox.syncStatesOf([{ kind: 'order', id: dead.id }])).toEqual(new Map([[`order:${dead.id}`, 'dead']]));
    expect(store.outbox.syncStatesOf([{ kind: 'payment_intent', id: pending.id }])).toEqual(new Map());
    expect(store.outbox.syncStatesOf([])).toEqual(new Map());

    const plan = store.db
      .prepare(`EXPLAIN QUERY PLAN ${SYNC_STATES_OF_SQL}`)
      .all('[["order","x"]]') as { detail: string }[];
    expect(plan.map((step) => step.detail).join('\n')).toMatch(/SEARCH o USING (COVERING )?INDEX outbox_by_entity \(entity_kind=\? AND entity_id=\?/);
    store.close();
  });
});

describe('menu, locations, settings', () => {
  it('creates, 86es, flags low stock and deletes menu items in the merged view', () => {
    const { store } = setup();
    const item = store.cashier.createMenuItem({ locationId: 'loc_a', categoryId: null, name: 'Soup', price: 500, currency: 'usd' }, cashier);
    store.cashier.createMenuItem({ locationId: null, categoryId: null, name: 'Water', price: 100, currency: 'usd' }, cashier);
    store.cashier.createMenuItem({ locationId: 'loc_b', categoryId: null, name: 'Pie', price: 400, currency: 'usd' }, cashier);
    expect(store.cashier.listMenu('loc_a').items.map((i) => i.name)).toEqual(['Soup', 'Water']);
    expect(store.cashier.listMenu().items).toHaveLength(3);
    expect(store.cashier.setAvailable(item.id, false, cashier).available).toBe(false);
    const flagged = store.cashier.updateMenuItem(item.id, { lowStock: true, price: 550 }, cashier);
    expect(flagged).toMatchObject({ low_stock: true, price: 550, available: false });
    const ops = store.outbox.readyOperations(Number.MAX_SAFE_INTEGER, 10).map((op) => op.opId);
    expect(ops).toHaveLength(3);
    const update = store.db.prepare("SELECT payload FROM outbox WHERE kind = 'menu_item.update' ORDER BY seq DESC LIMIT 1").pluck().get() as string;
    expect(JSON.parse(update)).toEqual({ price: 550 });
    store.cashier.deleteMenuItem(item.id, cashier);
    expect(store.cashier.getMenuItem(item.id)).toBeUndefined();
    expect(store.cashier.listMenu('loc_a').items.map((i) => i.name)).toEqual(['Water']);
    expectCode(() => store.cashier.updateMenuItem(item.id, { name: 'x' }, cashier), 'not_found');
    store.close();
  });

  it('lists categories and modifiers from the server', () => {
    const { store } = setup();
    store.server.applyServerRecord('category', { id: 'cat_2', name: 'Drinks', position: 2 });
    store.server.applyServerRecord('category', { id: 'cat_1', name: 'Mains', position: 1 });
    store.server.applyServerRecord('modifier', { id: 'mod_1', name: 'Cheese', price: 100 });
    const menu = store.cashier.listMenu();
    expect(menu.categories.map((c) => c.name)).toEqual(['Mains', 'Drinks']);
    expect(menu.modifiers).toEqual([{ id: 'mod_1', name: 'Cheese', price: 100 }]);
    store.close();
  });

  it('updates a location through the outbox', () => {
    const { store, clock } = setup();
    store.server.applyServerRecord('location', { id: 'loc_srv', name: 'Main St', currency: 'usd', address: null, timezone: 'Europe/Paris' });
    expect(store.cashier.updateLocation('loc_srv', { name: 'Main Street' }, cashier).name).toBe('Main Street');
    expect(store.cashier.listLocations().map((l) => l.name)).toEqual(['Main Street']);
    expect(store.outbox.readyOperations(clock.now(), 10)).toMatchObject([{ kind: 'location.update', payload: { name: 'Main Street' } }]);
    expectCode(() => store.cashier.updateLocation('loc_missing', { name: 'x' }, cashier), 'not_found');
    expect(store.cashier.getLocation('loc_missing')).toBeUndefined();
    store.close();
  });

  it('keeps settings as validated JSON and audits who changed them', () => {
    const { store } = setup();
    const Limit = z.object({ perPayment: z.number().int() });
    expect(store.cashier.getSetting('offline_limit', Limit)).toBeUndefined();
    store.cashier.setSetting('offline_limit', { perPayment: 10_000 }, { actor: 'manager' });
    store.cashier.setSetting('offline_limit', { perPayment: 5_000 }, { actor: 'manager' });
    expect(store.cashier.getSetting('offline_limit', Limit)).toEqual({ perPayment: 5_000 });
    expect(() => store.cashier.getSetting('offline_limit', z.string())).toThrow(z.ZodError);
    store.cashier.recordAudit('manager', 'drawer.open', { reason: 'change' });
    expect(store.cashier.listAudit({ limit: 2 }).map((a) => [a.actor, a.action])).toEqual([
      ['manager', 'drawer.open'],
      ['manager', 'setting.set'],
    ]);
    store.close();
  });
});
