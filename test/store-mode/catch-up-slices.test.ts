// A page applied on the register's thread (docs/store-mode-catch-up.md): in slices sized by the time they
// take, each with its cursor in one transaction, the event loop served between them. The apply thread's
// side is test/store-mode/apply-thread.test.ts.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { applyInSlices } from '../../main/core/store-mode/catch-up';
import { openStore, type ReplicaEntry, type Store } from '../../store/index';
import { tempDbPath } from '../store/helpers';

const ORIGIN = 'a'.repeat(64);
const LOG_ID = 'log-a';
const SELF = 'b'.repeat(64);

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) if (store.db.open) store.close();
});

function store(): Store {
  const s = openStore(tempDbPath('till.db'));
  opened.push(s);
  return s;
}

/** Order entries as a till logs them (store-log.ts): one order each, about 1 KB. */
function orderEntries(count: number, firstSeq = 1): ReplicaEntry[] {
  return Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    const doc = { id, status: 'open', currency: 'usd', total: 450, created_at: 1_000 + i, updated_at: 1_000 + i, lines: [], notes: 'x'.repeat(800) };
    const body = { op: 'order.create', kind: 'order', id, order: id, synced: false, doc, staff: null };
    return { seq: firstSeq + i, opId: `op-${id}`, body: Buffer.from(JSON.stringify(body)) };
  });
}

const replicaCount = (s: Store) => s.db.prepare('SELECT COUNT(*) FROM store_replica_log WHERE origin = ?').pluck().get(ORIGIN) as number;
const docCount = (s: Store) => s.db.prepare("SELECT COUNT(*) FROM store_replica_docs WHERE origin = ? AND entity_kind = 'order'").pluck().get(ORIGIN) as number;

describe('a catch-up page applied in slices', () => {
  it('commits each slice with its cursor, sized from the pace, and serves the event loop between slices', async () => {
    const s = store();
    const entries = orderEntries(300);
    const slices: { size: number; cursorBefore: number; served: number }[] = [];
    let served = 0;
    const serve = (): void => {
      served++;
      if (served < 10_000) setImmediate(serve);
    };
    setImmediate(serve);
    // A slow pace asks for the fewest entries a slice may hold.
    const pace = { msPerEntry: 10 };
    const cursor = await applyInSlices(entries, pace, (slice) => {
      slices.push({ size: slice.length, cursorBefore: s.replicas.cursor(ORIGIN)?.seq ?? 0, served });
      return s.replicas.apply(ORIGIN, LOG_ID, slice, 1_000, SELF);
    });
    served = 10_000;

    expect(cursor).toEqual({ logId: LOG_ID, seq: 300 });
    expect(s.replicas.cursor(ORIGIN)).toEqual({ logId: LOG_ID, seq: 300 });
    expect(replicaCount(s)).toBe(300);
    expect(docCount(s)).toBe(300);
    expect(slices[0]?.size).toBe(5);
    expect(slices.reduce((sum, slice) => sum + slice.size, 0)).toBe(300);
    for (const [i, slice] of slices.entries()) {
      // The last holds what is left of the page.
      if (i < slices.length - 1) expect(slice.size).toBeGreaterThanOrEqual(5);
      expect(slice.size).toBeLessThanOrEqual(500);
      // Each slice starts from the cursor the one before committed: nothing skipped, nothing twice.
      expect(slice.cursorBefore).toBe(slices.slice(0, i).reduce((sum, before) => sum + before.size, 0));
      // The loop ran other work before every slice but the first.
      if (i > 0) expect(slice.served).toBeGreaterThan(slices[i - 1]!.served);
    }
    // The pace moved to what the slices took (well under 10 ms an entry, or bounded to half of it each slice).
    expect(pace.msPerEntry).toBeLessThan(10);
  });

  it('a quick pace fills a slice up to its bound', async () => {
    const s = store();
    const sizes: number[] = [];
    await applyInSlices(orderEntries(600), { msPerEntry: 0.000_1 }, (slice) => {
      sizes.push(slice.length);
      return s.replicas.apply(ORIGIN, LOG_ID, slice, 1_000, SELF);
    });
    expect(sizes[0]).toBe(500);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(600);
    expect(replicaCount(s)).toBe(600);
  });

  it('a slice that fails leaves the slices before it committed; the page again from the cursor applies the rest once', async () => {
    const s = store();
    const entries = orderEntries(60);
    let slicesRun = 0;
    const failing = applyInSlices(entries, { msPerEntry: 10 }, (slice) => {
      if (++slicesRun === 4) throw new Error('power cut');
      return s.replicas.apply(ORIGIN, LOG_ID, slice, 1_000, SELF);
    });
    await expect(failing).rejects.toThrow('power cut');
    expect(s.replicas.cursor(ORIGIN)).toEqual({ logId: LOG_ID, seq: 15 });
    expect(replicaCount(s)).toBe(15);

    // The puller asks again from the committed cursor; a page overlapping it changes nothing twice.
    const cursor = await applyInSlices(entries.slice(10), { msPerEntry: 0.01 }, (slice) => s.replicas.apply(ORIGIN, LOG_ID, slice, 1_000, SELF));
    expect(cursor).toEqual({ logId: LOG_ID, seq: 60 });
    expect(replicaCount(s)).toBe(60);
    expect(docCount(s)).toBe(60);
  });
});
