// Pulls, webhooks and completions write the base layer only: pending local changes survive them.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { openStore } from '../../store';
import { cashier, serverOrder, tempDbPath, threeLineOrder } from './helpers';

function setup() {
  const clock = new ManualClock(1_800_000_000_000);
  const store = openStore(tempDbPath(), { clock });
  return { clock, store };
}

const burger = {
  id: 'mi_srv_burger',
  location_id: 'loc_srv',
  category_id: 'cat_srv_mains',
  name: 'Burger',
  description: 'Beef',
  price: 900,
  currency: 'usd',
  available: true,
  low_stock: false,
  modifier_ids: ['mod_srv_cheese'],
  deleted: false,
};

describe('pulls', () => {
  it('upserts a page by server id and saves its cursor in the same transaction', () => {
    const { store, clock } = setup();
    const ids = store.server.applyPullPage({ kind: 'menu_item', scope: 'menu_item:loc_srv', records: [burger], cursor: 'page-2', pullStartedAt: clock.now() });
    expect(ids).toEqual(['mi_srv_burger']);
    expect(store.server.getCursor('menu_item:loc_srv')).toEqual({ cursor: 'page-2', highWaterMark: null });
    expect(store.localIdFor('menu_item', 'mi_srv_burger')).toBe('mi_srv_burger');
    store.server.applyPullPage({ kind: 'menu_item', scope: 'menu_item:loc_srv', records: [{ id: 'mi_srv_burger', price: 950 }], cursor: null, pullStartedAt: clock.now() });
    expect(store.cashier.getMenuItem('mi_srv_burger')).toMatchObject({ price: 950, name: 'Burger' });
    expect(store.server.getCursor('menu_item:loc_srv')?.cursor).toBeNull();
    store.close();
  });

  it('never erases a pending local change, and the merged view follows its completion', () => {
    const { store, clock } = setup();
    store.server.applyServerRecord('menu_item', burger);
    store.cashier.setAvailable('mi_srv_burger', false, cashier); // 86'd at the till, not pushed yet
    store.server.applyPullPage({ kind: 'menu_item', scope: 'menu_item:loc_srv', records: [{ ...burger, price: 1000, available: true }], cursor: null, pullStartedAt: clock.now() });
    expect(store.cashier.getMenuItem('mi_srv_burger')).toMatchObject({ available: false, price: 1000 });
    const [op] = store.outbox.readyOperations(clock.now(), 10);
    expect(op).toMatchObject({ kind: 'menu_item.update', payload: { available: false } });
    store.outbox.markInFlight(op!.opId, clock.now());
    store.outbox.completeOperation(op!.opId, { serverRecord: { ...burger, price: 1000, available: false } });
    expect(store.db.prepare('SELECT layer FROM menu_items WHERE id = ?').pluck().all('mi_srv_burger')).toEqual(['base']);
    expect(store.cashier.getMenuItem('mi_srv_burger')).toMatchObject({ available: false, price: 1000 });
    store.close();
  });

  it('keeps a local order that was never pushed through a full pull and its sweep', () => {
    const { store, clock } = setup();
    const start = clock.now();
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_a')], cursor: null, pullStartedAt: start });
    const local = store.cashier.createOrder(threeLineOrder(), cashier);
    clock.advance(60_000);
    const secondPull = clock.now();
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [], cursor: null, pullStartedAt: secondPull });
    expect(store.server.sweepDeletions('order', 'order:all', secondPull)).toEqual(['ord_srv_a']);
    expect(store.cashier.listOrders().map((o) => o.id)).toEqual([local.id]);
    store.close();
  });

  it('sweeps only the scope pulled, and keeps pending changes of a swept entity replayable', () => {
    const { store, clock } = setup();
    const start = clock.now();
    store.server.applyPullPage({ kind: 'menu_item', scope: 'menu_item:loc_srv', records: [burger], cursor: null, pullStartedAt: start });
    store.server.applyPullPage({ kind: 'menu_item', scope: 'menu_item:loc_other', records: [{ ...burger, id: 'mi_srv_other' }], cursor: null, pullStartedAt: start });
    store.cashier.updateMenuItem('mi_srv_burger', { name: 'Cheeseburger' }, cashier);
    clock.advance(1);
    expect(store.server.sweepDeletions('menu_item', 'menu_item:loc_srv', clock.now())).toEqual(['mi_srv_burger']);
    expect(store.cashier.getMenuItem('mi_srv_other')).toBeDefined();
    // Its update can no longer form an item: hidden, but still queued for the server to judge.
    expect(store.cashier.getMenuItem('mi_srv_burger')).toBeUndefined();
    expect(store.outbox.unfinishedCount()).toBe(1);
    store.close();
  });

  it('keeps cursors and high-water marks per scope', () => {
    const { store } = setup();
    expect(store.server.getCursor('order:all')).toBeUndefined();
    store.server.setCursor('order:all', { highWaterMark: 42 });
    store.server.setCursor('order:all', { cursor: 'c1' });
    expect(store.server.getCursor('order:all')).toEqual({ cursor: 'c1', highWaterMark: 42 });
    store.close();
  });

  it('rolls the whole page back if one record is not a whole entity', () => {
    const { store, clock } = setup();
    expect(() =>
      store.server.applyPullPage({ kind: 'menu_item', scope: 's', records: [burger, { id: 'mi_half', name: 'No price' }], cursor: 'next', pullStartedAt: clock.now() }),
    ).toThrow(/mi_half is not a whole menu_item/);
    expect(store.cashier.getMenuItem('mi_srv_burger')).toBeUndefined();
    expect(store.server.getCursor('s')).toBeUndefined();
    store.close();
  });

  it('maps server references to local ids', () => {
    const { store, clock } = setup();
    const local = store.cashier.createOrder(threeLineOrder(), cashier);
    const [create] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.completeOperation(create!.opId, { serverId: 'ord_srv_9' });
    store.server.applyServerRecord('payment', {
      id: 'pay_srv_1', order_id: 'ord_srv_9', payment_intent_id: null, method: 'card', amount: local.total, currency: 'usd', status: 'succeeded', created_at: clock.now(),
    });
    expect(store.cashier.getPayment('pay_srv_1')?.order_id).toBe(local.id);
    store.close();
  });

  it('folds an entity pulled before its create reply into the local one', () => {
    const { store, clock } = setup();
    const local = store.cashier.createOrder(threeLineOrder(), cashier);
    const [create] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.markInFlight(create!.opId, clock.now());
    store.server.applyServerRecord('order', serverOrder('ord_srv_race'));
    store.outbox.completeOperation(create!.opId, { serverId: 'ord_srv_race' });
    expect(store.cashier.listOrders().map((o) => o.id)).toEqual([local.id]);
    expect(store.localIdFor('order', 'ord_srv_race')).toBe(local.id);
    store.close();
  });
});

describe('webhook inbox', () => {
  it('applies an event once and reports duplicates', () => {
    const { store, clock } = setup();
    const event = { eventId: 'evt_1', type: 'menu_item.updated', payload: burger, receivedAt: clock.now() };
    let applied = 0;
    const apply = () => {
      applied++;
      store.server.applyServerRecord('menu_item', burger);
    };
    expect(store.server.recordWebhookEvent(event, apply)).toBe('applied');
    expect(store.server.recordWebhookEvent(event, apply)).toBe('duplicate');
    expect(applied).toBe(1);
    expect(store.server.hasWebhookEvent('evt_1')).toBe(true);
    expect(store.cashier.getMenuItem('mi_srv_burger')).toBeDefined();
    store.close();
  });

  it('keeps an event that fails to apply, with why, and none of its effects, until it is settled', () => {
    const { store, clock } = setup();
    const event = { eventId: 'evt_2', type: 'menu_item.updated', payload: { id: 'evt_2' }, receivedAt: clock.now() };
    const outcome = store.server.recordWebhookEvent(event, () => {
      store.server.applyServerRecord('menu_item', burger);
      throw new Error('unknown event shape');
    });
    expect(outcome).toEqual({ kept: 'unknown event shape' });
    expect(store.server.hasWebhookEvent('evt_2')).toBe(true);
    expect(store.cashier.getMenuItem('mi_srv_burger')).toBeUndefined();
    expect(store.server.unappliedWebhookEvents()).toEqual([{ eventId: 'evt_2', type: 'menu_item.updated', payload: { id: 'evt_2' }, receivedAt: clock.now(), reason: 'unknown event shape' }]);
    // A redelivery is a duplicate: the kept event is settled by a fetch, not by the sender.
    expect(store.server.recordWebhookEvent(event, () => undefined)).toBe('duplicate');
    store.server.noteWebhookEventError('evt_2', 'GET failed: 404');
    expect(store.server.unappliedWebhookEvents()[0]?.reason).toBe('GET failed: 404');
    store.server.settleWebhookEvent('evt_2');
    expect(store.server.unappliedWebhookEvents()).toEqual([]);
    store.close();
  });

  it('a webhook for an order with a pending local change does not hide that change', () => {
    const { store, clock } = setup();
    store.server.applyServerRecord('order', serverOrder('ord_srv_w'));
    store.cashier.updateOrder('ord_srv_w', { notes: 'allergy: nuts' }, cashier);
    store.server.recordWebhookEvent({ eventId: 'evt_3', type: 'order.updated', payload: {}, receivedAt: clock.now() }, () => {
      store.server.applyServerRecord('order', { id: 'ord_srv_w', notes: '', total: 1234 });
    });
    expect(store.cashier.getOrder('ord_srv_w')).toMatchObject({ notes: 'allergy: nuts', total: 1234 });
    store.server.removeServerRecord('order', 'ord_srv_w');
    expect(store.cashier.getOrder('ord_srv_w')).toBeUndefined();
    store.close();
  });
});
