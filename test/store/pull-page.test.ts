// applyPullPage asks what it must know once per page (links, rows, unfinished operations) and
// leaves unchanged rows alone: the answers must be the ones a record-by-record write gives.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { openStore, StoreError } from '../../store';
import { cashier, serverOrder, tempDbPath } from './helpers';

function setup() {
  const clock = new ManualClock(1_800_000_000_000);
  return { clock, store: openStore(tempDbPath(), { clock }) };
}

const rowIds = (store: ReturnType<typeof openStore>, table: string) => store.db.prepare(`SELECT rowid FROM ${table} ORDER BY rowid`).pluck().all();

describe('a pulled page', () => {
  it('writes lines and modifiers whole, maps references, and reads back as the server sent it', () => {
    const { store, clock } = setup();
    store.server.applyPullPage({ kind: 'menu_item', scope: 'menu_item:all', records: [{ id: 'mi_srv_burger', location_id: null, category_id: null, name: 'Burger', description: '', price: 900, currency: 'usd', available: true, low_stock: false, modifier_ids: [], deleted: false }], cursor: null, pullStartedAt: clock.now() });
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_1'), serverOrder('ord_srv_2', { total: 900 })], cursor: 'next', pullStartedAt: clock.now() });
    const { id: _id, ...expected } = serverOrder('ord_srv_1');
    expect(store.cashier.getOrder('ord_srv_1')).toMatchObject(expected);
    expect(store.cashier.getOrder('ord_srv_2')?.lines).toHaveLength(2);
    const modifiersOf = store.db.prepare(`SELECT COUNT(*) FROM orders, json_each(orders.lines) AS line, json_each(line.value, '$.modifiers') WHERE orders.id = ?`).pluck();
    expect(modifiersOf.get('ord_srv_1')).toBe(1);
    expect(modifiersOf.get('ord_srv_2')).toBe(1);
    store.close();
  });

  it('leaves rows whose content did not change untouched, but marks them seen by the new pull', () => {
    const { store, clock } = setup();
    const first = clock.now();
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_1'), serverOrder('ord_srv_2')], cursor: null, pullStartedAt: first });
    const before = { orders: rowIds(store, 'orders') };
    clock.advance(60_000);
    const second = clock.now();
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_1'), serverOrder('ord_srv_2', { status: 'fulfilled' })], cursor: null, pullStartedAt: second });
    expect(rowIds(store, 'orders')).toContain(before.orders[0]);
    expect(store.db.prepare(`SELECT rowid FROM orders WHERE id = 'ord_srv_1'`).pluck().get()).toBe(before.orders[0]);
    expect(store.cashier.getOrder('ord_srv_2')?.status).toBe('fulfilled');
    expect(store.server.staleBaseIds('order', 'order:all', second)).toEqual([]);
    store.close();
  });

  it('keeps a pending local change over an unchanged re-pull and over a changed one', () => {
    const { store, clock } = setup();
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_1')], cursor: null, pullStartedAt: clock.now() });
    store.cashier.fulfilOrder('ord_srv_1', cashier);
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_1')], cursor: null, pullStartedAt: clock.now() });
    expect(store.cashier.getOrder('ord_srv_1')?.status).toBe('fulfilled');
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_1', { customer: { name: 'Bea', phone: '' } })], cursor: null, pullStartedAt: clock.now() });
    expect(store.cashier.getOrder('ord_srv_1')).toMatchObject({ status: 'fulfilled', customer: { name: 'Bea' } });
    store.close();
  });

  it('takes the last copy of a record the page holds twice', () => {
    const { store, clock } = setup();
    const ids = store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_1'), serverOrder('ord_srv_1', { total: 100 })], cursor: null, pullStartedAt: clock.now() });
    expect(ids).toEqual(['ord_srv_1', 'ord_srv_1']);
    expect(store.cashier.getOrder('ord_srv_1')?.total).toBe(100);
    expect(store.db.prepare(`SELECT json_array_length(lines) FROM orders WHERE id = 'ord_srv_1'`).pluck().get()).toBe(2);
    store.close();
  });

  it('refuses, whole, a server id that is already the local id of another linked entity', () => {
    const { store, clock } = setup();
    store.ids.link('order', 'ord_local_1', 'ord_srv_9');
    let error: unknown;
    try {
      store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_2'), serverOrder('ord_local_1')], cursor: 'next', pullStartedAt: clock.now() });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('conflict');
    expect((error as StoreError).message).toContain('already linked to server id ord_srv_9');
    expect(store.cashier.getOrder('ord_srv_2')).toBeUndefined();
    expect(store.server.getCursor('order:all')).toBeUndefined();
    store.close();
  });
});

describe('a pulled page or single record older than the stored base', () => {
  it('keeps the newer stored order and still marks it seen, so a sweep keeps it', () => {
    const { store, clock } = setup();
    const pullStartedAt = clock.now();
    // A webhook wrote the fulfilled order while the pull's page (fetched earlier) was on its way.
    store.server.applyServerRecord('order', serverOrder('ord_srv_1', { status: 'fulfilled', updated_at: 1_700_000_060_000 }));
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_1')], cursor: null, pullStartedAt });
    expect(store.cashier.getOrder('ord_srv_1')).toMatchObject({ status: 'fulfilled', updated_at: 1_700_000_060_000 });
    expect(store.server.staleBaseIds('order', 'order:all', pullStartedAt)).toEqual([]);
    expect(store.server.sweepDeletions('order', 'order:all', pullStartedAt)).toEqual([]);
    // A late single record (webhook redelivery, GET) is refused the same way.
    store.server.applyServerRecord('order', serverOrder('ord_srv_1', { status: 'cancelled', updated_at: 1_700_000_030_000 }));
    expect(store.cashier.getOrder('ord_srv_1')?.status).toBe('fulfilled');
    store.close();
  });

  it('applies an incoming record whose updated_at is equal to or newer than the stored one', () => {
    const { store, clock } = setup();
    store.server.applyServerRecord('order', serverOrder('ord_srv_1', { updated_at: 1_700_000_060_000 }));
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_1', { total: 1800, updated_at: 1_700_000_060_000 })], cursor: null, pullStartedAt: clock.now() });
    expect(store.cashier.getOrder('ord_srv_1')?.total).toBe(1800);
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_1', { status: 'fulfilled', updated_at: 1_700_000_090_000 })], cursor: null, pullStartedAt: clock.now() });
    expect(store.cashier.getOrder('ord_srv_1')).toMatchObject({ status: 'fulfilled', updated_at: 1_700_000_090_000 });
    store.close();
  });

  it('keeps a pending local change on top of the newer stored copy it kept', () => {
    const { store, clock } = setup();
    store.server.applyServerRecord('order', serverOrder('ord_srv_1', { customer: { name: 'Bea', phone: '' }, updated_at: 1_700_000_060_000 }));
    store.cashier.updateOrder('ord_srv_1', { notes: 'no onions' }, cashier);
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [serverOrder('ord_srv_1')], cursor: null, pullStartedAt: clock.now() });
    expect(store.cashier.getOrder('ord_srv_1')).toMatchObject({ customer: { name: 'Bea' }, notes: 'no onions' });
    store.close();
  });

  it('writes a page of new records larger than one multi-row insert whole, each with its link', () => {
    const { store, clock } = setup();
    const records = Array.from({ length: 450 }, (_, i) => serverOrder(`ord_srv_${String(i).padStart(3, '0')}`, { total: i + 1 }));
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records, cursor: 'next', pullStartedAt: clock.now() });
    expect(store.db.prepare(`SELECT COUNT(*) FROM orders WHERE layer = 'base'`).pluck().get()).toBe(450);
    expect(store.db.prepare(`SELECT COUNT(*) FROM id_map WHERE entity_kind = 'order' AND local_id = server_id`).pluck().get()).toBe(450);
    expect(store.cashier.getOrder('ord_srv_449')).toMatchObject({ total: 450, lines: records[449]!.lines });
    store.close();
  });

  it('refuses a page naming a server id whose local id is linked to another, and writes none of it', () => {
    const { store, clock } = setup();
    store.ids.link('order', 'ord_srv_2', 'ord_srv_elsewhere');
    const page = { kind: 'order' as const, scope: 'order:all', records: [serverOrder('ord_srv_1'), serverOrder('ord_srv_2')], cursor: 'next', pullStartedAt: clock.now() };
    expect(() => store.server.applyPullPage(page)).toThrow(StoreError);
    expect(store.cashier.getOrder('ord_srv_1')).toBeUndefined();
    expect(store.localIdFor('order', 'ord_srv_1')).toBeUndefined();
    expect(store.server.getCursor('order:all')).toBeUndefined();
    store.close();
  });

  it('gives an order without notes its till-only default whether it is new or came back after a sweep', () => {
    const { store, clock } = setup();
    const { notes: _notes, ...withoutNotes } = serverOrder('ord_srv_1');
    store.server.applyServerRecord('order', withoutNotes);
    expect(store.cashier.getOrder('ord_srv_1')?.notes).toBe('');
    store.server.removeServerRecord('order', 'ord_srv_1');
    expect(store.localIdFor('order', 'ord_srv_1')).toBe('ord_srv_1');
    store.server.applyPullPage({ kind: 'order', scope: 'order:all', records: [withoutNotes], cursor: null, pullStartedAt: clock.now() });
    expect(store.cashier.getOrder('ord_srv_1')).toMatchObject({ notes: '', total: 2300 });
    store.close();
  });
});
