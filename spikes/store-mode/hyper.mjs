// Candidate 1: hypercore + corestore. Each till's log is a signed single-writer hypercore in a corestore
// (RocksDB via hypercore-storage) beside its SQLite file; peers replicate it over a TCP socket wrapped by
// corestore in a Noise stream (@hyperswarm/secret-stream). Two stores: the cashier's write commits to SQLite
// first (with a store_log row, so a crash before the append can be redone), then core.append().
//   writer <dir>: A, owns the core; serves replication on 127.0.0.1
//   reader <dir>: B, replicates A's core and applies it to its own SQLite with a cursor
import net from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Corestore from 'corestore';
import Database from 'better-sqlite3';
import { childGuard, du, LIVE_ENTRIES, LIVE_RATE_PER_S, makeEntry, mb, nowNs, onMessage, rssSampler, send, sleep, summarizeMs } from './lib.mjs';

const [role, dir] = process.argv.slice(2);
childGuard();
mkdirSync(dir, { recursive: true });
const db = new Database(join(dir, 'till.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
const store = new Corestore(join(dir, 'corestore'));

if (role === 'writer') {
  db.exec(`CREATE TABLE IF NOT EXISTS outbox_sim (op_id TEXT PRIMARY KEY, payload BLOB NOT NULL);
    CREATE TABLE IF NOT EXISTS store_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, op_id TEXT NOT NULL UNIQUE, body BLOB NOT NULL);`);
  const insOutbox = db.prepare('INSERT INTO outbox_sim VALUES (?, ?)');
  const insLog = db.prepare('INSERT INTO store_log (op_id, body) VALUES (?, ?)');
  const write = db.transaction((bufs) => { for (const b of bufs) { const opId = JSON.parse(b).opId; insOutbox.run(opId, b); insLog.run(opId, b); } });
  const core = store.get({ name: 'till-log' });
  await core.ready();
  const server = net.createServer((socket) => { socket.pipe(store.replicate(false)).pipe(socket); socket.on('error', () => {}); });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  send({ type: 'ready', port: server.address().port, key: core.key.toString('hex') });
  for (;;) {
    const m = await onMessage('*');
    if (m.type === 'fill') {
      for (let i = 0; i < m.n; i += 500) {
        const bufs = Array.from({ length: Math.min(500, m.n - i) }, (_, k) => makeEntry(i + k));
        write(bufs);
        await core.append(bufs);
      }
      send({ type: 'filled' });
    } else if (m.type === 'live') {
      const commitMs = [];
      for (let i = 0; i < LIVE_ENTRIES; i++) {
        const b = makeEntry(i);
        const t0 = nowNs();
        write([b]); // SQLite first (durable) ...
        await core.append(b); // ... then the log: a crash between the two is redone from store_log at start
        commitMs.push(Number(nowNs() - t0) / 1e6);
        await sleep(1000 / LIVE_RATE_PER_S);
      }
      send({ type: 'lived', commit: summarizeMs(commitMs) });
    } else if (m.type === 'stats') {
      db.pragma('wal_checkpoint(TRUNCATE)');
      send({ type: 'stats', dbMB: mb(du(join(dir, 'till.db'))), besideSqliteMB: mb(du(join(dir, 'corestore'))), rssMB: mb(process.memoryUsage().rss) });
    } else if (m.type === 'stop') { server.close(); await store.close(); db.close(); process.exit(0); }
  }
} else {
  db.exec(`CREATE TABLE IF NOT EXISTS replica_log (origin TEXT NOT NULL, seq INTEGER NOT NULL, op_id TEXT NOT NULL UNIQUE, body BLOB NOT NULL, PRIMARY KEY (origin, seq));
    CREATE TABLE IF NOT EXISTS peer_cursor (origin TEXT PRIMARY KEY, seq INTEGER NOT NULL);`);
  const insRep = db.prepare('INSERT OR IGNORE INTO replica_log VALUES (?, ?, ?, ?)');
  const setCursor = db.prepare('INSERT INTO peer_cursor VALUES (?, ?) ON CONFLICT(origin) DO UPDATE SET seq = excluded.seq');
  const apply = db.transaction((entries) => {
    for (const e of entries) insRep.run('till-a', e.seq, JSON.parse(e.body).opId, e.body);
    setCursor.run('till-a', entries[entries.length - 1].seq);
  });
  const { port, key, mode, total } = await onMessage('go');
  const rss = rssSampler();
  const t0 = nowNs();
  const core = store.get({ key: Buffer.from(key, 'hex') });
  await core.ready();
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.pipe(store.replicate(true)).pipe(socket);

  if (mode === 'live') {
    core.download({ start: 0, end: -1 });
    const lat = [];
    let next = 0; let draining = false;
    await new Promise((resolve) => {
      const drain = async () => {
        if (draining) return; draining = true;
        while (next < core.length) {
          const body = await core.get(next);
          apply([{ seq: next + 1, body }]);
          lat.push(Number(nowNs() - BigInt(JSON.parse(body).sentNs)) / 1e6);
          next++;
        }
        draining = false;
        if (lat.length >= LIVE_ENTRIES) resolve();
      };
      core.on('append', drain);
    });
    send({ type: 'result', latency: summarizeMs(lat), rssMB: rss.stop() });
  } else {
    await core.update({ wait: true });
    const range = core.download({ start: 0, end: total });
    let receivedMs = null;
    range.done().then(() => { receivedMs = Number(nowNs() - t0) / 1e6; });
    if (mode === 'catchup') {
      let batch = []; let seq = 0;
      for await (const body of core.createReadStream({ start: 0, end: total })) {
        batch.push({ seq: ++seq, body });
        if (batch.length === 1000) { apply(batch); batch = []; }
      }
      if (batch.length) apply(batch);
    }
    await range.done();
    const ms = Number(nowNs() - t0) / 1e6;
    receivedMs ??= ms;
    const count = mode === 'catchup' ? db.prepare('SELECT COUNT(*) FROM replica_log').pluck().get() : core.contiguousLength;
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = core.byteLength;
    send({ type: 'result', ms: Math.round(ms * 10) / 10, receivedMs: Math.round(receivedMs * 10) / 10, entries: count,
      MBps: Math.round((bytes / 1048576 / (ms / 1000)) * 10) / 10, rssMB: rss.stop(),
      replicaDbMB: mb(du(join(dir, 'till.db'))), replicaBesideSqliteMB: mb(du(join(dir, 'corestore'))) });
  }
  await onMessage('stop');
  socket.destroy();
  await store.close();
  db.close();
  process.exit(0);
}
