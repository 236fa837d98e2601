// The durable print queue (store/print-queue.ts, migration 13) on real SQLite files.
import { describe, expect, it } from 'vitest';
import { openStore, STORE_MIGRATIONS, StoreError, type NewPrintJob, type Store } from '../../store';
import { receiptJob } from '../../printing';
import { sampleReceipt } from './fixtures';
import { tempDbPath } from './helpers';
import { cashier, threeLineOrder } from '../store/fixtures';

function job(key: string, overrides: Partial<NewPrintJob> = {}): NewPrintJob {
  return { printer: 'receipt', kind: 'receipt', orderId: 'ord_1', payload: sampleReceipt(key), dedupeKey: `receipt:${key}`, ...overrides };
}

function withStore<T>(fn: (store: Store, file: string) => T): T {
  const file = tempDbPath();
  const store = openStore(file);
  try {
    return fn(store, file);
  } finally {
    store.close();
  }
}

describe('migration 13', () => {
  it('adds print_jobs to a store at version 12, keeping its orders', () => {
    const file = tempDbPath();
    const older = openStore(file, { migrations: STORE_MIGRATIONS.slice(0, 12) });
    // Written as a store at version 12 held it (raw SQL: today's code writes today's columns).
    const order = { id: 'ord_v12', total: 3100 };
    const lines = JSON.stringify(threeLineOrder().lines);
    older.db
      .prepare(`INSERT INTO orders (id, layer, location_id, status, currency, customer_name, customer_phone, notes, total, created_at, updated_at, lines) VALUES (?, 'pending', 'loc_1', 'open', 'usd', 'Ann', '', '', ?, 1, 1, ?)`)
      .run(order.id, order.total, lines);
    older.close();
    // Migration 13 alone: print_jobs is its doing, not a later migration's.
    const store = openStore(file, { migrations: STORE_MIGRATIONS.slice(0, 13) });
    try {
      expect(store.version).toBe(13);
      expect(store.db.prepare('SELECT total FROM orders WHERE id = ?').pluck().get(order.id)).toBe(order.total);
      expect(store.db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('print_jobs')).toEqual([
        'id', 'printer', 'kind', 'order_id', 'payload', 'dedupe_key', 'state', 'attempts', 'next_attempt_at', 'last_error', 'created_at', 'updated_at', 'printed_at', 'reprint',
      ]);
      // The claim is an index search, never a scan of the printed history.
      const plan = store.db.prepare(`EXPLAIN QUERY PLAN SELECT * FROM print_jobs WHERE printer = ? AND state = 'pending' ORDER BY created_at, rowid LIMIT 1`).all('receipt') as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toContain('USING INDEX print_jobs_queue');
      expect(() => store.db.prepare(`INSERT INTO print_jobs (id, printer, kind, payload, dedupe_key, state, next_attempt_at, created_at, updated_at) VALUES ('x', 'receipt', 'fax', '{}', 'k', 'pending', 0, 0, 0)`).run()).toThrow(/CHECK/);
    } finally {
      store.close();
    }
    // And on to the latest version, the order and the print queue still there.
    const latest = openStore(file);
    try {
      expect(latest.version).toBe(STORE_MIGRATIONS.length);
      expect(latest.cashier.getOrder(order.id)?.total).toBe(order.total);
      expect(latest.printQueue.enqueue([job('A1')], 1_000).added).toHaveLength(1);
    } finally {
      latest.close();
    }
  });
});

describe('enqueue', () => {
  it('queues a job once per dedupe key, across calls and reopenings', () => {
    const file = tempDbPath();
    let store = openStore(file);
    const first = store.printQueue.enqueue([job('A1'), job('A2')], 1_000);
    expect(first.added.map((j) => j.dedupeKey)).toEqual(['receipt:A1', 'receipt:A2']);
    expect(first.duplicates).toEqual([]);
    expect(first.added[0]).toMatchObject({ printer: 'receipt', kind: 'receipt', orderId: 'ord_1', state: 'pending', attempts: 0, nextAttemptAt: 1_000, createdAt: 1_000, printedAt: null, reprint: false });
    expect(first.added[0]?.id).toMatch(/^pj_/);
    expect(first.added[0]?.payload).toEqual(sampleReceipt('A1'));
    expect(store.printQueue.enqueue([job('A1')], 2_000)).toEqual({ added: [], duplicates: ['receipt:A1'] });
    store.close();
    store = openStore(file);
    try {
      expect(store.printQueue.enqueue([job('A2'), job('A3')]).duplicates).toEqual(['receipt:A2']);
      expect(store.printQueue.list().map((j) => j.dedupeKey)).toEqual(['receipt:A1', 'receipt:A2', 'receipt:A3']);
    } finally {
      store.close();
    }
  });

  it('commits with the sale it prints, or not at all', () =>
    withStore((store) => {
      const order = store.transaction(() => {
        const created = store.cashier.createOrder(threeLineOrder(), cashier);
        store.printQueue.enqueue([receiptJob({ orderId: created.id, key: 'placed', doc: sampleReceipt('A4') })]);
        return created;
      });
      expect(store.printQueue.list({ orderId: order.id }).map((j) => j.dedupeKey)).toEqual([`receipt:${order.id}:placed`]);

      expect(() =>
        store.transaction(() => {
          const created = store.cashier.createOrder(threeLineOrder(), cashier);
          store.printQueue.enqueue([receiptJob({ orderId: created.id, key: 'placed', doc: sampleReceipt('A5') })]);
          throw new Error('the payment failed');
        }),
      ).toThrow('the payment failed');
      expect(store.printQueue.list()).toHaveLength(1);
      expect(store.cashier.listOrders()).toHaveLength(1);
    }));
});

describe('a job\'s life', () => {
  it('claims the oldest pending job of a printer when it is due, first in first out', () =>
    withStore((store) => {
      const q = store.printQueue;
      const [a, b] = q.enqueue([job('B1'), job('B2'), job('K1', { printer: 'grill', kind: 'kitchen' })], 100).added;
      expect(q.claim('receipt', 100)?.id).toBe(a?.id);
      expect(q.claim('grill', 100)?.dedupeKey).toBe('receipt:K1');
      expect(q.claim('bar', 100)).toBeUndefined();
      // The head waits for its backoff: the job behind it waits too.
      q.markFailed(a!.id, 500, 'printer offline', 110);
      expect(q.get(a!.id)).toMatchObject({ state: 'pending', lastError: 'printer offline', nextAttemptAt: 500 });
      expect(q.claim('receipt', 200)).toBeUndefined();
      expect(q.nextAttemptAt('receipt')).toBe(500);
      expect(q.claim('receipt', 500)?.id).toBe(a?.id);
      q.markSending(a!.id, 501);
      q.markDone(a!.id, 502);
      expect(q.claim('receipt', 503)?.id).toBe(b?.id);
    }));

  it('goes pending → sending → done, durably, and refuses what its state forbids', () =>
    withStore((store) => {
      const q = store.printQueue;
      const [a] = q.enqueue([job('C1')], 100).added;
      const sending = q.markSending(a!.id, 200);
      expect(sending).toMatchObject({ state: 'sending', attempts: 1, updatedAt: 200 });
      expect(() => q.markSending(a!.id, 201)).toThrow(StoreError);
      expect(q.markDone(a!.id, 300)).toMatchObject({ state: 'done', printedAt: 300, lastError: null });
      expect(q.markDone(a!.id, 400).printedAt).toBe(300); // done twice: no-op
      expect(() => q.retry(a!.id)).toThrow(/printed already/);
      expect(() => q.discard(a!.id)).toThrow(/printed already/);
      expect(() => q.markFailed(a!.id, 1, 'x')).toThrow(/cannot fail/);
      expect(() => q.markDone('pj_missing')).toThrow(/no print job/);
    }));

  it('keeps an in-doubt job out of the queue until a person reprints, redirects, confirms or discards it', () =>
    withStore((store) => {
      const q = store.printQueue;
      const [a, b, c, d] = q.enqueue([job('D1'), job('D2'), job('D3'), job('D4')], 100).added;
      for (const j of [a, b, c, d]) q.markSending(j!.id, 110);
      q.markInDoubt(a!.id, 'the connection broke off', 120);
      expect(q.jobsInDoubt().map((j) => j.id)).toEqual([a, b, c, d].map((j) => j!.id));
      expect(q.claim('receipt', 1_000)).toBeUndefined();
      expect(q.countsByPrinter().get('receipt')).toEqual({ pending: 0, sending: 4, failed: 0 });

      expect(q.retry(a!.id, 130)).toMatchObject({ state: 'pending', reprint: true, nextAttemptAt: 130, lastError: null });
      expect(q.redirect(b!.id, 'grill', 130)).toMatchObject({ state: 'pending', printer: 'grill', reprint: true });
      expect(q.markDone(c!.id, 130)).toMatchObject({ state: 'done', printedAt: 130 });
      expect(q.discard(d!.id, 130)).toMatchObject({ state: 'discarded', reprint: true });
      expect(q.jobsInDoubt()).toEqual([]);
      expect(q.retry(d!.id, 140)).toMatchObject({ state: 'pending', reprint: true });
    }));

  it('fails a job that cannot print for good, until retried', () =>
    withStore((store) => {
      const q = store.printQueue;
      const [a] = q.enqueue([job('E1')], 100).added;
      expect(q.markFailed(a!.id, null, 'its receipt document cannot be printed', 110)).toMatchObject({ state: 'failed' });
      expect(q.claim('receipt', 1_000)).toBeUndefined();
      expect(q.countsByPrinter().get('receipt')).toEqual({ pending: 0, sending: 0, failed: 1 });
      expect(q.list({ state: 'failed' }).map((j) => j.id)).toEqual([a!.id]);
      expect(q.retry(a!.id, 120)).toMatchObject({ state: 'pending', reprint: false, lastError: null });
      expect(q.list({ state: ['pending', 'failed'], printer: 'receipt' })).toHaveLength(1);
    }));

  it('prunes done and discarded jobs older than a cutoff', () =>
    withStore((store) => {
      const q = store.printQueue;
      const [a, b, c] = q.enqueue([job('F1'), job('F2'), job('F3')], 100).added;
      q.markSending(a!.id, 100);
      q.markDone(a!.id, 100);
      q.discard(b!.id, 100);
      expect(q.pruneFinished(50)).toBe(0);
      expect(q.pruneFinished(200)).toBe(2);
      expect(q.list().map((j) => j.id)).toEqual([c!.id]);
    }));
});
