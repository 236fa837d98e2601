// A catch-up's pages applied by the store's apply thread (store/replica-apply-thread.ts through
// main/core/store-mode/catch-up.ts PageApplier), on real store files: what it leaves in the store is what
// StoreReplicas.apply on the register's thread leaves for the same pages, entry for entry, whatever the
// page holds (entries it must leave to the register's thread, malformed bodies, a log read again); the
// register's thread is served meanwhile, and leaves checkpoints to the thread; a thread that cannot open the file leaves every page to the
// register's thread, and says so.
import { randomUUID } from 'node:crypto';
import { existsSync, renameSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../common/log';
import { PageApplier } from '../../main/core/store-mode/catch-up';
import { openStore, type ReplicaEntry, type Store } from '../../store/index';
import { tempDbPath } from '../store/helpers';

const ORIGIN = 'a'.repeat(64);
const SELF = 'b'.repeat(64);
const NOW = 1_795_000_000_000;

const lines: string[] = [];
const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } });

const opened: { store: Store; pages: PageApplier }[] = [];
afterEach(async () => {
  for (const { store, pages } of opened.splice(0)) {
    await pages.stop();
    if (store.db.open) store.close();
  }
});

function till(): { store: Store; pages: PageApplier } {
  const store = openStore(tempDbPath('till.db'));
  const opened_ = { store, pages: new PageApplier(store, SELF, () => NOW, logger) };
  opened.push(opened_);
  return opened_;
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

/**
 * A page as a catch-up brings it: orders created, changed and paid (several entries an entity, the cloud id on
 * one of them only), documents gone (null), texts beyond ASCII, and entries the thread must leave to the register's thread:
 * a member of the store's staff, a body that is not JSON, an array, an id of 100 UTF-16 units but 101 bytes.
 */
function mixedPage(orders: number, firstSeq = 1): ReplicaEntry[] {
  const bodies: Buffer[] = [];
  for (let i = 0; i < orders; i++) {
    const id = `ord_${randomUUID()}`;
    const doc = { id, status: 'open', currency: 'usd', total: 450 + i, created_at: 1_000 + i, updated_at: 1_000 + i, lines: [{ name: 'Crème brûlée 🍮', quantity: 1, unit_price: 450 }], notes: 'x'.repeat(i % 700) };
    bodies.push(json({ op: 'order.create', kind: 'order', id, order: id, synced: false, doc, staff: 'stf_1' }));
    if (i % 3 === 0) bodies.push(json({ op: 'order.synced', kind: 'order', id, order: id, synced: true, doc: { ...doc, updated_at: 2_000 }, staff: null, serverId: `srv_${i}` }));
    if (i % 3 === 0) bodies.push(json({ op: 'order.update', kind: 'order', id, order: id, synced: false, doc: { ...doc, status: 'fulfilled', updated_at: 3_000 } }));
    if (i % 4 === 0) bodies.push(json({ op: 'payment.create', kind: 'payment', id: `pay_${i}`, order: id, synced: false, doc: { id: `pay_${i}`, amount: 450, order_id: id } }));
    if (i % 5 === 0) bodies.push(json({ op: 'payment.delete', kind: 'payment', id: `pay_${i - 1}`, order: null, synced: true, doc: null }));
    if (i === 7) bodies.push(json({ op: 'staff', staff: { id: 'stf_9', name: 'Zoë', role: 'cashier', pin_hash: 'scrypt:x:y', active: true, created_at: 1, updated_at: 2 }, till: ORIGIN }));
    if (i === 11) bodies.push(Buffer.from('{"kind": "order", not json'));
    if (i === 12) bodies.push(json([1, 2, 3]));
    if (i === 13) bodies.push(json({ kind: 'order', id: `é${'x'.repeat(99)}`, order: null, synced: false, doc: { id: 'long' } }));
  }
  return bodies.map((body, i) => ({ seq: firstSeq + i, opId: `op_${randomUUID()}`, body }));
}

interface DocRow {
  entity_id: string;
  server_id: string | null;
  doc: string | null;
}

/** Everything a replica apply writes, in a comparable form (documents as parsed JSON: SQLite and JSON.stringify space them alike but may escape differently). */
function replicaState(store: Store) {
  const all = (sql: string) => store.db.prepare(sql).all();
  return {
    log: all('SELECT origin, log_id, seq, op_id, hex(body) AS body FROM store_replica_log ORDER BY origin, seq'),
    docs: (all('SELECT * FROM store_replica_docs ORDER BY origin, entity_kind, entity_id') as DocRow[]).map((row) => ({ ...row, doc: row.doc === null ? null : (JSON.parse(row.doc) as { status?: string }) })),
    cursors: all('SELECT origin, log_id, seq, heard_at, replaced FROM store_cursors ORDER BY origin'),
    staff: all('SELECT id, name, role, pin_hash, active FROM staff ORDER BY id'),
  };
}

/** The same pages on the register's thread alone: StoreReplicas.apply, one transaction a page. */
function appliedHere(pages: { logId: string; entries: ReplicaEntry[] }[]) {
  const store = openStore(tempDbPath('reference.db'));
  try {
    for (const page of pages) store.replicas.apply(ORIGIN, page.logId, page.entries, NOW, SELF);
    return replicaState(store);
  } finally {
    store.close();
  }
}

describe("a catch-up's pages on the apply thread", () => {
  it('leave the store as the register-thread apply does, entries it cannot take applied in order between its transactions', async () => {
    const { store, pages } = till();
    const page = mixedPage(600);
    const first = page.slice(0, 1_000);
    const second = page.slice(1_000);
    expect(await pages.apply(ORIGIN, 'log-1', first)).toEqual({ logId: 'log-1', seq: first.at(-1)!.seq });
    expect(await pages.apply(ORIGIN, 'log-1', second)).toEqual({ logId: 'log-1', seq: second.at(-1)!.seq });

    const state = replicaState(store);
    expect(state).toEqual(appliedHere([{ logId: 'log-1', entries: first }, { logId: 'log-1', entries: second }]));
    // What the page holds: every entry once, the newest document of each entity, the cloud id carried, the member applied.
    expect(state.log).toHaveLength(page.length);
    expect(state.staff.some((member) => (member as { name: string }).name === 'Zoë')).toBe(true);
    const synced = state.docs.filter((doc) => doc.server_id !== null);
    expect(synced).toHaveLength(200);
    expect(synced.every((doc) => doc.doc?.status === 'fulfilled')).toBe(true);
    expect(state.docs.some((doc) => doc.entity_id.startsWith('é'))).toBe(true);
    // On the thread, not on the register's thread after a failure.
    expect(lines.some((line) => line.includes('store-mode.apply-thread-failed'))).toBe(false);
  });

  it("a log read again after it was replaced (every entry already held) is left to the register's thread, with the same outcome", async () => {
    const { store, pages } = till();
    const page = mixedPage(150);
    await pages.apply(ORIGIN, 'log-1', page);
    store.replicas.logReplaced(ORIGIN, 'log-2', NOW);
    const again = page.map((entry, i) => ({ ...entry, seq: i + 1 }));
    await pages.apply(ORIGIN, 'log-2', again);
    const reference = openStore(tempDbPath('reference.db'));
    try {
      reference.replicas.apply(ORIGIN, 'log-1', page, NOW, SELF);
      reference.replicas.logReplaced(ORIGIN, 'log-2', NOW);
      reference.replicas.apply(ORIGIN, 'log-2', again, NOW, SELF);
      expect(replicaState(store)).toEqual(replicaState(reference));
    } finally {
      reference.close();
    }
  });

  it("serves the register's thread while it applies, and ends before the store's clean close", async () => {
    const { store, pages } = till();
    const page = mixedPage(3_000).filter((entry) => entry.body.toString().includes('"kind"')).map((entry, i) => ({ ...entry, seq: i + 1 }));
    let served = 0;
    const tick = setInterval(() => served++, 1);
    const began = performance.now();
    const writes: number[] = [];
    // A register's write meanwhile waits one of the thread's transactions at most.
    const writing = setInterval(() => {
      const start = performance.now();
      store.transaction(() => store.db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('probe', ?, 0) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(String(start)));
      writes.push(performance.now() - start);
    }, 5);
    const autocheckpoint = () => store.db.pragma('wal_autocheckpoint', { simple: true });
    try {
      const applying = pages.apply(ORIGIN, 'log-1', page);
      // While the thread lives it alone checkpoints: the register's commits only for a log far behind.
      expect(autocheckpoint()).toBe(16_384);
      await applying;
    } finally {
      clearInterval(tick);
      clearInterval(writing);
    }
    const took = performance.now() - began;
    expect(store.replicas.cursor(ORIGIN)).toEqual({ logId: 'log-1', seq: page.length });
    // The event loop kept turning: far more timer callbacks than a blocked loop (one at the end) would run.
    expect(served).toBeGreaterThan(Math.min(20, took / 10));
    expect(writes.length).toBeGreaterThan(0);
    await pages.stop();
    expect(autocheckpoint()).toBe(1000);
    const file = store.file;
    store.close();
    // The thread's connection was closed first: the store's close was the last, and removed the log.
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('a thread ending idle as the next page starts a new one leaves the new one its checkpoints and its page', async () => {
    const { store, pages } = till();
    const plainPage = (firstSeq: number): ReplicaEntry[] =>
      Array.from({ length: 300 }, (_, i) => {
        const id = `ord_${randomUUID()}`;
        return { seq: firstSeq + i, opId: `op_${randomUUID()}`, body: json({ op: 'order.create', kind: 'order', id, order: id, synced: false, doc: { id, status: 'open', total: i } }) };
      });
    const onRegisterThread = vi.spyOn(store.replicas, 'apply');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await pages.apply(ORIGIN, 'log-1', plainPage(1));
      // Idle long enough: the first thread is told to close, and the next page starts a second before it has gone.
      vi.advanceTimersByTime(10_000);
      const second = pages.apply(ORIGIN, 'log-1', plainPage(301));
      vi.useRealTimers();
      expect(await second).toEqual({ logId: 'log-1', seq: 600 });
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      vi.useRealTimers();
    }
    // The first thread's exit neither gave the register its checkpoints back nor settled the second's page as failed.
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(16_384);
    expect(onRegisterThread).not.toHaveBeenCalled();
    expect(store.db.prepare('SELECT COUNT(*) FROM store_replica_docs').pluck().get()).toBe(600);
    await pages.stop();
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it("a thread that cannot open the file leaves every page to the register's thread, and says so", async () => {
    const { store, pages } = till();
    // The file moved under the open store: its connection keeps it, a new one cannot open it.
    renameSync(store.file, `${store.file}.moved`);
    const page = mixedPage(200);
    expect(await pages.apply(ORIGIN, 'log-1', page)).toEqual({ logId: 'log-1', seq: page.length });
    expect(lines.some((line) => line.includes('store-mode.apply-thread-failed'))).toBe(true);
    const more = mixedPage(200, page.length + 1);
    await pages.apply(ORIGIN, 'log-1', more);
    expect(store.db.prepare('SELECT COUNT(*) FROM store_replica_log').pluck().get()).toBe(page.length + more.length);
  });
});
