// Two tills as separate processes on 127.0.0.1, each deriving the store's trust from the same secret
// on its own: A's log reaches B's SQLite file through the feed, a long poll wakes on an append, B
// killed mid catch-up resumes from its committed cursor, and a replaced log is read again from 0.
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTill, tempDataDir, type TillProcess } from './till-process';

const SECRET = Buffer.alloc(32, 0x2a).toString('base64');
const started: TillProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((till) => till.kill()));
});

async function till(config: Parameters<typeof startTill>[0]): Promise<TillProcess> {
  const process = await startTill({ deadlineMs: 50_000, ...config }, SECRET);
  started.push(process);
  return process;
}

function readDb<T>(dataDir: string, read: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'till.db'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const opIds = (dataDir: string, table: 'store_log' | 'replica_log') => readDb(dataDir, (db) => db.prepare(`SELECT op_id FROM ${table} ORDER BY seq`).pluck().all() as string[]);

describe('store feed between two processes', () => {
  it("brings A's entries into B's SQLite file, and wakes B's long poll on an append", async () => {
    const a = await till({ tillName: 'Bar' });
    a.send({ type: 'append', count: 120, bytes: 1024, batch: 40 });
    await a.next('appended');
    const b = await till({ tillName: 'Patio', peer: { address: `127.0.0.1:${a.port}`, origin: a.tillId }, longPollMs: 20_000 });
    await b.waitFor('applied', (m) => m.seq === 120);
    expect(opIds(b.dataDir, 'replica_log')).toEqual(opIds(a.dataDir, 'store_log'));

    // Caught up, B waits in a long poll (20 s): an append must wake it, not the poll's end.
    const before = Date.now();
    a.send({ type: 'append', count: 1, bytes: 1024, batch: 1 });
    const applied = await b.waitFor('applied', (m) => m.seq === 121, 15_000);
    expect(Date.now() - before).toBeLessThan(10_000);
    expect(applied.entries).toBe(1);
    b.send({ type: 'status' });
    expect((await b.next('status')).puller).toMatchObject({ cursor: { seq: 121 }, entriesApplied: 121, lastError: null, logReplacements: 0 });
    expect(readDb(b.dataDir, (db) => db.prepare('SELECT origin, seq FROM store_cursor').all())).toEqual([{ origin: a.tillId, seq: 121 }]);
  });

  it('resumes after B is SIGKILLed 10 times mid catch-up of 10,000 × 1 KB: nothing lost, nothing doubled', async () => {
    const a = await till({ tillName: 'Bar' });
    a.send({ type: 'append', count: 10_000, bytes: 1024, batch: 500 });
    expect((await a.next('appended')).maxSeq).toBe(10_000);
    const bDir = tempDataDir();
    // Pages of 100: ten kills after at most 6 pages each stay short of the end (6,000 < 10,000).
    const pullA = { dataDir: bDir, tillName: 'Patio', peer: { address: `127.0.0.1:${a.port}`, origin: a.tillId }, pageEntries: 100 };
    const cursorsAtKill: number[] = [];
    for (let kill = 0; kill < 10; kill++) {
      const b = await till(pullA);
      // Killed after a few committed pages: mid-apply of the next one, or mid-fetch.
      const pages = 1 + Math.floor(Math.random() * 6);
      let seen = 0;
      const applied = await b.waitFor('applied', () => ++seen >= pages);
      await b.kill();
      cursorsAtKill.push(applied.seq as number);
    }
    const survivor = await till(pullA);
    await survivor.waitFor('applied', (m) => m.seq === 10_000, 40_000);
    await survivor.stop();

    const expected = opIds(a.dataDir, 'store_log');
    const replica = opIds(bDir, 'replica_log');
    expect(replica.length).toBe(10_000);
    expect(new Set(replica).size).toBe(10_000);
    expect(replica).toEqual(expected);
    expect(readDb(bDir, (db) => db.prepare('SELECT MIN(seq) AS first, MAX(seq) AS last, COUNT(*) AS n FROM replica_log').get())).toEqual({ first: 1, last: 10_000, n: 10_000 });
    // Each restart went on from where the last one had committed.
    expect(cursorsAtKill.every((seq, i) => seq > 0 && seq < 10_000 && (i === 0 || seq >= (cursorsAtKill[i - 1] as number)))).toBe(true);
  });

  it("reads A's log again from 0 when A's file is replaced, keeping what it had", async () => {
    const aDir = tempDataDir();
    let a = await till({ dataDir: aDir, tillName: 'Bar' });
    a.send({ type: 'append', count: 30, bytes: 200, batch: 30 });
    await a.next('appended');
    const port = a.port;
    const b = await till({ tillName: 'Patio', peer: { address: `127.0.0.1:${port}`, origin: a.tillId } });
    await b.waitFor('applied', (m) => m.seq === 30);
    const firstLog = opIds(aDir, 'store_log');

    // Same till (same key), new SQLite file: a new log id, seqs from 1 again.
    await a.stop();
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(aDir, `till.db${suffix}`), { force: true });
    a = await till({ dataDir: aDir, tillName: 'Bar', port });
    a.send({ type: 'append', count: 5, bytes: 200, batch: 5 });
    await a.next('appended');

    await b.waitFor('applied', (m) => m.seq === 5);
    b.send({ type: 'status' });
    expect((await b.next('status')).puller).toMatchObject({ logReplacements: 1, cursor: { seq: 5 } });
    expect(opIds(b.dataDir, 'replica_log').sort()).toEqual([...firstLog, ...opIds(aDir, 'store_log')].sort());
    expect(readDb(b.dataDir, (db) => db.prepare('SELECT replaced FROM store_cursor').pluck().get())).toBe(1);
  });

  it('listens only on the configured address', async () => {
    const a = await till({ tillName: 'Bar' });
    const reached = (host: string) =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host, port: a.port }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
    expect(await reached('127.0.0.1')).toBe(true);
    expect(await reached('127.0.0.2')).toBe(false);
  });
});
