// A menu item's barcode or PLU is kept by the till only (/v1's menu item has no such field, see
// docs/spec-gaps.md): the server never sends it, so pulls, webhooks and replies must leave it as
// the till set it, the way an order's notes survive them.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { openStore, STORE_MIGRATIONS, StoreError } from '../../store';
import { cashier, tempDbPath } from './helpers';

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
  modifier_ids: [],
  deleted: false,
};

const BARCODE_MIGRATION = 10;

function setup() {
  const clock = new ManualClock(1_800_000_000_000);
  const store = openStore(tempDbPath(), { clock });
  return { clock, store };
}

const pull = (store: ReturnType<typeof setup>['store'], clock: ManualClock, record: Record<string, unknown> & { id: string }) =>
  store.server.applyPullPage({ kind: 'menu_item', scope: 'menu_item:loc_srv', records: [record], cursor: null, pullStartedAt: clock.now() });

describe('menu item barcode (till only)', () => {
  it('survives a pull of the same item from the server, before and after its change is pushed', () => {
    const { store, clock } = setup();
    pull(store, clock, burger);
    expect(store.cashier.getMenuItem(burger.id)?.barcode).toBeNull();
    store.cashier.updateMenuItem(burger.id, { barcode: '4006381333931', price: 990 }, cashier);
    // The code is the till's: nothing of it goes to /v1.
    const [op] = store.outbox.readyOperations(clock.now(), 10);
    expect(op?.payload).toEqual({ price: 990 });
    // A pull while the change waits, with another description from the server.
    clock.advance(1000);
    pull(store, clock, { ...burger, description: 'Beef, brioche' });
    expect(store.cashier.getMenuItem(burger.id)).toMatchObject({ barcode: '4006381333931', price: 990, description: 'Beef, brioche' });
    // The server confirms (its record has no barcode), then a later pull brings the same item again.
    store.outbox.markInFlight(op!.opId, clock.now());
    store.outbox.completeOperation(op!.opId, { serverRecord: { ...burger, price: 990 } });
    clock.advance(1000);
    pull(store, clock, { ...burger, price: 975, name: 'Cheeseburger' });
    expect(store.server.readBase('menu_item', burger.id)?.barcode).toBe('4006381333931');
    expect(store.cashier.getMenuItem(burger.id)).toMatchObject({ barcode: '4006381333931', price: 975, name: 'Cheeseburger' });
    // A webhook's copy of the item leaves it too.
    store.server.applyServerRecord('menu_item', { ...burger, available: false });
    expect(store.cashier.getMenuItem(burger.id)).toMatchObject({ barcode: '4006381333931', available: false });
    store.close();
  });

  it('queues nothing for the cloud when only the code changes, and the code wins over the item’s queued changes', () => {
    const { store, clock } = setup();
    pull(store, clock, burger);
    store.cashier.setAvailable(burger.id, false, cashier);
    store.cashier.updateMenuItem(burger.id, { barcode: '42' }, cashier);
    // Only the 86 waits: a PATCH with no field would be refused (and would undo the code with it).
    expect(store.outbox.outboxStats(clock.now()).pending).toBe(1);
    expect(store.outbox.readyOperations(clock.now(), 10).map((op) => op.payload)).toEqual([{ available: false }]);
    expect(store.cashier.getMenuItem(burger.id)).toMatchObject({ barcode: '42', available: false });
    clock.advance(1000);
    pull(store, clock, { ...burger, price: 950 });
    expect(store.cashier.getMenuItem(burger.id)).toMatchObject({ barcode: '42', available: false, price: 950 });
    const [op] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.markInFlight(op!.opId, clock.now());
    store.outbox.completeOperation(op!.opId, { serverRecord: { ...burger, price: 950, available: false } });
    expect(store.cashier.getMenuItem(burger.id)).toMatchObject({ barcode: '42', available: false });

    // An item created here whose create still waits (its patch carries the first code).
    const shake = store.cashier.createMenuItem({ locationId: null, categoryId: null, name: 'Shake', price: 500, currency: 'usd', barcode: '7' }, cashier);
    store.cashier.updateMenuItem(shake.id, { barcode: '8' }, cashier);
    expect(store.outbox.outboxStats(clock.now()).pending).toBe(1);
    const [create] = store.outbox.readyOperations(clock.now(), 10);
    store.outbox.markInFlight(create!.opId, clock.now());
    const { barcode: _barcode, ...sent } = shake;
    store.outbox.completeOperation(create!.opId, { serverRecord: { ...sent, id: 'mi_srv_shake' } });
    expect(store.cashier.getMenuItem(shake.id)?.barcode).toBe('8');
    store.close();
  });

  it('keeps the code of an item created here through the reply that confirms it', () => {
    const { store, clock } = setup();
    const created = store.cashier.createMenuItem({ locationId: 'loc_1', categoryId: null, name: 'Lemonade', price: 425, currency: 'usd', barcode: '42' }, cashier);
    const [op] = store.outbox.readyOperations(clock.now(), 10);
    expect(op?.payload).not.toHaveProperty('barcode');
    store.outbox.markInFlight(op!.opId, clock.now());
    const { barcode: _barcode, ...sent } = created;
    store.outbox.completeOperation(op!.opId, { serverRecord: { ...sent, id: 'mi_srv_lemonade' } });
    expect(store.cashier.getMenuItem(created.id)?.barcode).toBe('42');
    store.close();
  });

  it('refuses a code another item already has, and changes nothing', () => {
    const { store, clock } = setup();
    pull(store, clock, burger);
    pull(store, clock, { ...burger, id: 'mi_srv_fries', name: 'Fries' });
    store.cashier.updateMenuItem(burger.id, { barcode: '1234' }, cashier);
    const queued = store.outbox.outboxStats(clock.now()).pending;
    expect(() => store.cashier.updateMenuItem('mi_srv_fries', { barcode: '1234', price: 1 }, cashier)).toThrow(StoreError);
    expect(() => store.cashier.createMenuItem({ locationId: null, categoryId: null, name: 'Shake', price: 500, currency: 'usd', barcode: '1234' }, cashier)).toThrow(
      /barcode 1234 is already on menu item mi_srv_burger/,
    );
    expect(store.outbox.outboxStats(clock.now()).pending).toBe(queued);
    expect(store.cashier.getMenuItem('mi_srv_fries')).toMatchObject({ barcode: null, price: 900 });
    // The item keeps its own code on another change, and a deleted item's code is free again.
    store.cashier.updateMenuItem(burger.id, { barcode: '1234', price: 990 }, cashier);
    store.cashier.deleteMenuItem(burger.id, cashier);
    expect(store.cashier.updateMenuItem('mi_srv_fries', { barcode: '1234' }, cashier).barcode).toBe('1234');
    store.close();
  });

  it('migration 10: items and a queued new item from before it read back without a code', () => {
    const file = tempDbPath();
    // Version 8 as a till left it: a pulled item, and a new item whose create waits in the outbox
    // (its patch, written before the field existed, has no barcode).
    const older = openStore(file, { migrations: STORE_MIGRATIONS.filter((m) => m.version < BARCODE_MIGRATION) });
    const insertItem = older.db.prepare(
      `INSERT INTO menu_items (id, layer, location_id, category_id, name, description, price, currency, available, low_stock, modifier_ids, deleted)
       VALUES (?, ?, NULL, NULL, ?, '', ?, 'usd', 1, 0, '[]', 0)`,
    );
    insertItem.run(burger.id, 'base', 'Burger', 900);
    insertItem.run('mi_local_shake', 'pending', 'Shake', 500);
    const oldPatch = { id: 'mi_local_shake', location_id: null, category_id: null, name: 'Shake', description: '', price: 500, currency: 'usd', available: true, low_stock: false, modifier_ids: [], deleted: false };
    older.db
      .prepare(
        `INSERT INTO outbox (op_id, entity_kind, entity_id, kind, payload, patch, resource_key, state, next_attempt_at, created_at, updated_at)
         VALUES ('op_shake', 'menu_item', 'mi_local_shake', 'menu_item.create', '{}', ?, 'menu_item:mi_local_shake', 'pending', 0, 0, 0)`,
      )
      .run(JSON.stringify(oldPatch));
    older.close();
    const store = openStore(file);
    expect(store.version).toBe(STORE_MIGRATIONS.length);
    expect(store.cashier.getMenuItem(burger.id)?.barcode).toBeNull();
    expect(store.cashier.getMenuItem('mi_local_shake')).toMatchObject({ name: 'Shake', barcode: null });
    // A later change of it refused by the cloud, then discarded: the pending layer is replayed
    // from the queued create, which must still make a whole item, or the item would vanish.
    const edit = store.cashier.updateMenuItem('mi_local_shake', { price: 550 }, cashier);
    expect(edit.price).toBe(550);
    store.outbox.deadLetter(store.outbox.latestUnfinished('menu_item', 'mi_local_shake')!, 'invalid_request');
    expect(store.cashier.getMenuItem('mi_local_shake')).toMatchObject({ name: 'Shake', price: 550, barcode: null });
    store.outbox.discardDeadLetter(store.outbox.listDeadLetters()[0]!.id);
    expect(store.cashier.getMenuItem('mi_local_shake')).toMatchObject({ name: 'Shake', price: 500, barcode: null });
    expect(store.cashier.listMenu().items.map((i) => i.barcode)).toEqual([null, null]);
    store.close();
  });
});
