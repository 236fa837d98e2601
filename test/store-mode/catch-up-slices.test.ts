// A catch-up's page applied on a real store file (docs/store-mode-catch-up.md): in slices sized by the
// time they take, each with its cursor in one transaction, the event loop served between them; and the
// write-ahead log checkpointed by a worker thread meanwhile, the store's own checkpoints back after.
import { existsSync, renameSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../common/log';
import { applyInSlices, WalCheckpointer } from '../../main/core/store-link';
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

describe("the log's checkpointer during a catch-up", () => {
  const autocheckpoint = (s: Store) => s.db.pragma('wal_autocheckpoint', { simple: true });
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } });

  it("checkpoints on its own connection while busy, gives the store its own checkpoints back when idle, and ends before the store's clean close", async () => {
    const s = store();
    const checkpointer = new WalCheckpointer(s, logger);
    const before = statSync(s.file).size;
    checkpointer.busy();
    expect(autocheckpoint(s)).toBe(16_384);
    let seq = 1;
    // Writes stay in the log (the store checkpoints only 64 MiB behind): the file grows once the worker copies them in.
    await expect
      .poll(() => {
        s.replicas.apply(ORIGIN, LOG_ID, orderEntries(50, seq), 1_000, SELF);
        seq += 50;
        return statSync(s.file).size;
      }, { timeout: 30_000 })
      .toBeGreaterThan(before);
    // Two peers' pages at once: the first done does not give checkpoints back while the second applies.
    checkpointer.busy();
    checkpointer.idle();
    expect(autocheckpoint(s)).toBe(16_384);
    checkpointer.idle();
    expect(autocheckpoint(s)).toBe(1000);

    await checkpointer.stop();
    const file = s.file;
    s.close();
    // The worker's connection is gone: the store's close was the last, and removed its log.
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(replicaCount(openStore(file))).toBe(seq - 1);
  });

  it('holds a catch-up back between slices while the worker copies a long log back, and never once it is gone', async () => {
    const s = store();
    const checkpointer = new WalCheckpointer(s, logger);
    const entries = orderEntries(4_000);
    checkpointer.busy();
    // 40 MB and more of log in 40-entry slices: the wait comes round several times (what it saves is measured
    // in docs/store-mode-catch-up.md, not here: it depends on how the threads are scheduled).
    for (let start = 0; start < entries.length; start += 40) {
      s.replicas.apply(ORIGIN, LOG_ID, entries.slice(start, start + 40), 1_000, SELF);
      await new Promise((resolve) => setImmediate(resolve));
      await checkpointer.keepUp();
    }
    checkpointer.idle();
    expect(replicaCount(s)).toBe(4_000);
    await checkpointer.stop();
    // No worker to wait for: it returns at once, the catch-up goes on with the store's own checkpoints.
    await checkpointer.keepUp();
    s.replicas.apply(ORIGIN, LOG_ID, orderEntries(5, 4_001), 1_000, SELF);
    expect(replicaCount(s)).toBe(4_005);
  });

  it('a checkpointer that cannot open the file leaves the store checkpointing in its commits, and says so', async () => {
    const s = store();
    const checkpointer = new WalCheckpointer(s, logger);
    // The file moved under the open store: its connection keeps it, a new one cannot open it.
    renameSync(s.file, `${s.file}.moved`);
    checkpointer.busy();
    await expect.poll(() => lines.some((line) => line.includes('store-mode.checkpointer-failed')), { timeout: 30_000 }).toBe(true);
    expect(autocheckpoint(s)).toBe(1000);
    checkpointer.idle();
    // Failed for good: the next catch-up page leaves the store's checkpoints alone.
    checkpointer.busy();
    expect(autocheckpoint(s)).toBe(1000);
    checkpointer.idle();
    await checkpointer.stop();
    s.replicas.apply(ORIGIN, LOG_ID, orderEntries(5), 1_000, SELF);
    expect(replicaCount(s)).toBe(5);
  });
});
