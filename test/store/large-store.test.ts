// A store at scale (200,000 orders here; the bench uses 1,000,000): open stays bounded, damage is
// still refused without a byte changed, the register's queries are index searches, and pruning
// keeps every order the cloud lacks. The file is generated once for the whole file of tests.
import { copyFileSync, mkdtempSync, openSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, STORE_MIGRATIONS, StoreError, type Store } from '../../store';
import { SEARCH_ORDERS_SQL, searchOrdersParameters } from '../../store/cashier';
import { writeCleanCloseMarker } from '../../store/integrity';
import { CANDIDATES_SQL } from '../../store/retention';
import { cashier, sha256, threeLineOrder } from './helpers';
import { buildLargeStore, DAY_MS, orderId } from './large-store';

const ORDERS = 200_000;
const NOW = 1_800_000_000_000;
const folder = mkdtempSync(join(tmpdir(), 'pos-large-store-'));
const file = join(folder, 'store.db');
let migrationMs = 0;

beforeAll(() => {
  buildLargeStore(file, { orders: ORDERS, now: NOW, version: 10 });
  const started = performance.now();
  openStore(file, { clock: { now: () => NOW } }).close(); // whole-file check (no clean close yet) + migration 11
  migrationMs = performance.now() - started;
}, 60_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function expectCorrupt(path: string): void {
  const before = sha256(path);
  let error: unknown;
  try {
    openStore(path).close();
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(StoreError);
  expect((error as StoreError).code).toBe('corrupt_database');
  expect((error as StoreError).message).toContain(path);
  expect(sha256(path)).toBe(before);
}

/** Overwrites one page in the middle of the file (inside the orders) with garbage. */
function damagePage(path: string): void {
  const pageSize = 4096;
  const page = Math.floor(statSync(path).size / pageSize / 2);
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, page * pageSize);
  } finally {
    closeSync(fd);
  }
}

function plan(store: Store, sql: string, parameters: unknown[]): string[] {
  return (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map((r) => r.detail);
}

describe(`a store with ${ORDERS.toLocaleString('en-US')} orders`, () => {
  it('migrates to the indexes in seconds, then opens after a clean close without reading the whole file', () => {
    expect(migrationMs).toBeLessThan(30_000);
    const started = performance.now();
    const store = openStore(file);
    const openMs = performance.now() - started;
    const page = store.cashier.listOrders({ limit: 50 });
    const firstDataMs = performance.now() - started;
    expect(store.openCheck).toBe('register_tables');
    expect(store.version).toBe(STORE_MIGRATIONS.length);
    expect(page).toHaveLength(50);
    expect(page[0]?.id).toBe(orderId(ORDERS - 1));
    expect(openMs).toBeLessThan(500);
    expect(firstDataMs).toBeLessThan(1_000);
    store.close();
  });

  it('refuses a copy with a damaged page, reading it whole since it was not closed cleanly here, and leaves it byte for byte', () => {
    const copy = join(folder, 'damaged.db');
    copyFileSync(file, copy);
    damagePage(copy);
    expectCorrupt(copy);
    rmSync(copy);
  });

  it('finds damage after a clean close with the check after start, reports it, and refuses the file at the next open', async () => {
    const copy = join(folder, 'rotted.db');
    copyFileSync(file, copy);
    damagePage(copy);
    writeCleanCloseMarker(copy); // as if the disk went bad after a clean close
    const before = sha256(copy);
    const store = openStore(copy);
    expect(store.openCheck).toBe('register_tables');
    const report = await store.verifyIntegrity();
    expect(report.status).toBe('corrupt');
    store.close();
    expect(sha256(copy)).toBe(before);
    expectCorrupt(copy);
    rmSync(copy, { force: true });
  });

  it('answers the register from indexes: orders list, status filter, shift figures, customer search, payments, pruning', () => {
    const store = openStore(file);
    const list = (filter: { status?: string; createdFrom?: number }) => {
      let query = store.kysely.selectFrom('orders_merged').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(50).offset(0);
      if (filter.status) query = query.where('status', '=', filter.status);
      if (filter.createdFrom !== undefined) query = query.where('created_at', '>=', filter.createdFrom);
      return query.compile();
    };
    const plans = {
      list: list({}),
      status: list({ status: 'open' }),
      shift: list({ createdFrom: NOW - DAY_MS }),
      payments: { sql: 'SELECT DISTINCT id FROM payments WHERE order_id IN (?, ?) ORDER BY id', parameters: ['a', 'b'] },
    };
    for (const [name, { sql, parameters }] of Object.entries(plans)) {
      const details = plan(store, sql, [...parameters]);
      expect(details.filter((d) => d.startsWith('SCAN')), `${name}: ${details.join(' / ')}`).toEqual([]);
      expect(details.some((d) => /USING (COVERING )?INDEX orders_by_layer_(status_)?created|payments_by_order/.test(d)), name).toBe(true);
    }
    const search = plan(store, SEARCH_ORDERS_SQL, searchOrdersParameters('mar', 50));
    expect(search.some((d) => d.includes('orders_by_customer_name')) && search.some((d) => d.includes('orders_by_customer_phone')) && search.some((d) => d.includes('orders_by_number'))).toBe(true);
    expect(search.filter((d) => /^SCAN (orders|o)\b/.test(d))).toEqual([]);
    expect(plan(store, CANDIDATES_SQL, [0, '', NOW, 500])).toEqual([expect.stringMatching(/^SEARCH orders USING (COVERING )?INDEX orders_by_layer_created \(layer=\? AND \(created_at,id\)>\(\?,\?\) AND created_at<\?\)$/)]);
    store.close();
  });

  it('finds the newest orders of a customer by the start of the name or phone', () => {
    const store = openStore(file);
    const found = store.cashier.searchOrders('maria', 20);
    const expected = store.db
      .prepare(`SELECT id FROM orders WHERE lower(customer_name) LIKE 'maria%' ORDER BY created_at DESC, id DESC LIMIT 20`)
      .pluck()
      .all();
    expect(found.map((o) => o.id)).toEqual(expected);
    const byPhone = store.cashier.searchOrders('+1 555 0042', 5);
    expect(byPhone.length).toBeGreaterThan(0);
    expect(byPhone.every((o) => o.customer?.phone === '+1 555 0042')).toBe(true);
    expect(store.cashier.searchOrders('zzz')).toEqual([]);
    store.close();
  });

  it('prunes the old synced orders in bounded batches and keeps every unsynced one', async () => {
    const copy = join(folder, 'prune.db');
    copyFileSync(file, copy);
    let at = NOW - 300 * DAY_MS;
    const store = openStore(copy, { clock: { now: () => at } });
    const unsynced: string[] = [];
    for (const make of [
      () => store.cashier.createOrder(threeLineOrder(), cashier).id, // create pending
      () => {
        const id = store.cashier.createOrder(threeLineOrder(), cashier).id;
        store.outbox.markInFlight(store.outbox.latestUnfinished('order', id) as string, at);
        return id;
      },
      () => {
        const id = orderId(10); // a pulled order changed here, change dead-lettered
        store.transaction(() => store.db.prepare(`UPDATE orders SET status = 'open' WHERE id = ?`).run(id));
        store.cashier.updateOrder(id, { notes: 'refused' }, cashier);
        store.outbox.deadLetter(store.outbox.latestUnfinished('order', id) as string, 'refused', at);
        store.transaction(() => store.db.prepare(`UPDATE orders SET status = 'fulfilled' WHERE id = ?`).run(id));
        return id;
      },
      () => {
        const id = orderId(20); // the server repriced it; nobody settled the difference
        store.db.prepare(`INSERT INTO repriced_orders VALUES (?, 2150, 2250, 'usd', ?, NULL, NULL)`).run(id, at);
        return id;
      },
      () => {
        const id = orderId(30); // paid in cash: the cloud never has it
        store.cashier.recordCashPayment(id, 2150, 'usd', cashier);
        return id;
      },
    ]) {
      unsynced.push(make());
      at += DAY_MS;
    }
    const cutoff = NOW - 90 * DAY_MS;
    const recent = store.db.prepare(`SELECT count(*) FROM orders WHERE created_at >= ?`).pluck().get(cutoff) as number;
    const oldBase = store.db.prepare(`SELECT count(*) FROM orders WHERE layer = 'base' AND created_at < ?`).pluck().get(cutoff) as number;
    const started = performance.now();
    const totals = await store.retention.prune(cutoff);
    const pruneMs = performance.now() - started;
    // The two orders created here have no base row yet: a pass never even looks at them.
    expect(totals).toEqual({ deleted: oldBase - 3, kept: 3 });
    // The refused change keeps its pending row (shown as refused until a person decides): ids, not rows.
    expect(store.db.prepare(`SELECT count(DISTINCT id) FROM orders WHERE created_at < ?`).pluck().get(cutoff)).toBe(unsynced.length);
    expect(store.db.prepare(`SELECT count(*) FROM orders WHERE created_at >= ?`).pluck().get(cutoff)).toBe(recent);
    for (const id of unsynced) expect(store.cashier.getOrder(id), id).toBeDefined();
    expect(store.db.prepare(`SELECT count(*) FROM payments WHERE order_id NOT IN (SELECT id FROM orders)`).pluck().get()).toBe(0);
    expect(store.db.prepare(`SELECT count(*) FROM id_map WHERE entity_kind = 'order' AND local_id NOT IN (SELECT id FROM orders)`).pluck().get()).toBe(0);
    console.info(`pruned ${totals.deleted} orders in ${pruneMs.toFixed(0)} ms (${Math.round(totals.deleted / (pruneMs / 1000))}/s); migration 11 took ${migrationMs.toFixed(0)} ms with the whole-file check`);
    store.close();
  });
});
