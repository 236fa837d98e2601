// Migration 30 rebuilds the replicas as rowid tables (docs/store-mode-catch-up.md): a till upgraded with
// other tills' logs on it keeps every entry and document, still applies each entry once, and lists the
// same orders; an entry's body of ~1.8 KB now stays in its row.
import { describe, expect, it } from 'vitest';
import { openStore, STORE_MIGRATIONS, type ReplicaEntry } from '../../store';
import { tempDbPath } from './helpers';

const BEFORE_APPENDED_REPLICAS = 29;
const BAR = 'a'.repeat(64);
const PATIO = 'c'.repeat(64);
const SELF = 'b'.repeat(64);

/** An order's entry as a till logs it (store-log.ts LogBody), about 1.8 KB like a real one with its lines. */
function orderEntry(seq: number, id: string, changes: { status?: string; total?: number; synced?: boolean; serverId?: string } = {}): ReplicaEntry {
  const doc = { id, status: changes.status ?? 'open', number: `B-${seq}`, currency: 'usd', total: changes.total ?? 450, created_at: 1_000 + seq, updated_at: 1_000 + seq, lines: [], notes: 'x'.repeat(1_600) };
  const body = { op: 'order.update', kind: 'order', id, order: id, synced: changes.synced ?? false, doc, staff: 'staff_ana', ...(changes.serverId ? { serverId: changes.serverId } : {}) };
  return { seq, opId: `op_${id}_${seq}`, body: Buffer.from(JSON.stringify(body)) };
}

/** A version-29 file with Bar's log (two files of it: one replaced) and Patio's applied as that version's code wrote them. */
function seedVersion29(file: string): void {
  const older = openStore(file, { migrations: STORE_MIGRATIONS.slice(0, BEFORE_APPENDED_REPLICAS) });
  const db = older.db;
  const entry = db.prepare('INSERT INTO store_replica_log (origin, log_id, seq, op_id, body) VALUES (?, ?, ?, ?, ?)');
  const doc = db.prepare(
    'INSERT OR REPLACE INTO store_replica_docs (origin, entity_kind, entity_id, order_id, log_id, seq, synced, doc, staff, server_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const cursor = db.prepare('INSERT INTO store_cursors (origin, till_name, log_id, seq, heard_at, replaced) VALUES (?, ?, ?, ?, 5, ?)');
  db.transaction(() => {
    const logged = [
      [BAR, 'bar-old', orderEntry(1, 'ord_bar_1')],
      [BAR, 'bar-new', orderEntry(1, 'ord_bar_2', { total: 900 })],
      [BAR, 'bar-new', orderEntry(2, 'ord_bar_1', { status: 'paid', synced: true, serverId: 'srv_1' })],
      [PATIO, 'patio', orderEntry(1, 'ord_patio_1')],
    ] as const;
    // Each entity's row replaced by its newer entry, as that version's upsert did.
    for (const [origin, logId, e] of logged) {
      entry.run(origin, logId, e.seq, e.opId, e.body);
      const body = JSON.parse(Buffer.from(e.body).toString('utf8')) as { id: string; synced: boolean; doc: unknown; serverId?: string };
      doc.run(origin, 'order', body.id, body.id, logId, e.seq, body.synced ? 1 : 0, JSON.stringify(body.doc), 'staff_ana', body.serverId ?? null);
    }
    cursor.run(BAR, 'Bar', 'bar-new', 2, 1);
    cursor.run(PATIO, 'Patio', 'patio', 1, 0);
  })();
  older.close();
}

const logRows = (file: string) => {
  const store = openStore(file, { migrations: STORE_MIGRATIONS.slice(0, BEFORE_APPENDED_REPLICAS) });
  try {
    return {
      log: store.db.prepare('SELECT origin, log_id, seq, op_id, body FROM store_replica_log ORDER BY origin, log_id, seq').all(),
      docs: store.db.prepare('SELECT * FROM store_replica_docs ORDER BY origin, entity_kind, entity_id').all(),
    };
  } finally {
    store.close();
  }
};

describe('migration 30: the replicas as rowid tables', () => {
  it("keeps every replicated entry and document, applies an entry once, and lists the same orders", () => {
    const file = tempDbPath();
    seedVersion29(file);
    const before = logRows(file);
    const store = openStore(file);
    expect(store.version).toBe(STORE_MIGRATIONS.length);

    expect(store.db.prepare('SELECT origin, log_id, seq, op_id, body FROM store_replica_log ORDER BY origin, log_id, seq').all()).toEqual(before.log);
    expect(store.db.prepare('SELECT * FROM store_replica_docs ORDER BY origin, entity_kind, entity_id').all()).toEqual(before.docs);
    const indexes = store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('store_replica_log', 'store_replica_docs') ORDER BY name").pluck().all();
    expect(indexes).toEqual([
      'store_replica_docs_by_entity',
      'store_replica_docs_by_order',
      'store_replica_docs_by_server',
      'store_replica_docs_by_status',
      'store_replica_log_by_op',
    ]);
    expect(store.replicas.openOrders().map((o) => [o.id, o.ownerName, o.total])).toEqual([
      ['ord_bar_2', 'Bar', 900],
      ['ord_patio_1', 'Patio', 450],
    ]);
    expect(store.replicas.ownedElsewhere(['ord_bar_2', 'srv_1'])).toEqual(new Map([['ord_bar_2', 'Bar']]));

    // A page fetched again after the upgrade changes nothing (the op id's unique index); a newer entry replaces the document.
    const again = orderEntry(2, 'ord_bar_1', { status: 'paid', synced: true, serverId: 'srv_1' });
    store.replicas.apply(BAR, 'bar-new', [again, orderEntry(3, 'ord_bar_2', { status: 'paid', total: 950 })], 10, SELF);
    expect(store.db.prepare('SELECT COUNT(*) FROM store_replica_log WHERE origin = ?').pluck().get(BAR)).toBe(4);
    expect(store.replicas.order('ord_bar_2')).toMatchObject({ origin: BAR, seq: 3, doc: { status: 'paid', total: 950 } });
    expect(store.replicas.openOrders().map((o) => o.id)).toEqual(['ord_patio_1']);
    expect(store.replicas.cursor(BAR)).toEqual({ logId: 'bar-new', seq: 3 });
    expect(store.integrityCheck()).toEqual(['ok']);
    store.close();
  });

  it('keeps a 1.8 KB body in its row: no overflow page for the log', () => {
    const store = openStore(tempDbPath());
    store.replicas.apply(PATIO, 'patio', Array.from({ length: 200 }, (_, i) => orderEntry(i + 1, `ord_${i}`)), 10, SELF);
    const pages = (type: string) => store.db.prepare("SELECT COUNT(*) FROM dbstat WHERE name IN ('store_replica_log', 'store_replica_docs') AND pagetype = ?").pluck().get(type) as number;
    expect(pages('leaf')).toBeGreaterThan(0);
    expect(pages('overflow')).toBe(0);
    store.close();
  });
});
