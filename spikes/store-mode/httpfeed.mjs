// Candidate 3: each till's log is a table of its own SQLite file, written in the same transaction as the
// cashier's rows; peers pull "everything after seq N" over HTTPS with mutual TLS 1.3 (node:https server,
// undici client), long-polling when they are caught up, and apply each page with their cursor in one
// transaction. No file beside SQLite, no new native module (better-sqlite3 and undici are the app's own).
//   owner <dir> <certDir>: A, the single writer of its log; serves GET /feed?after=N&limit=L&waitMs=W
//   peer  <dir> <certDir>: B, keeps a replica of A's log and a cursor
import https from 'node:https';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import { tlsFiles } from './certs.mjs';
import { childGuard, du, LIVE_ENTRIES, LIVE_RATE_PER_S, makeEntry, mb, nowNs, onMessage, rssSampler, send, sleep, summarizeMs } from './lib.mjs';

const [role, dir, certDir] = process.argv.slice(2);
childGuard();
mkdirSync(dir, { recursive: true });
const db = new Database(join(dir, 'till.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');

if (role === 'owner') {
  db.exec(`
    CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
    -- stands for the cashier's domain rows + outbox row
    CREATE TABLE IF NOT EXISTS outbox_sim (op_id TEXT PRIMARY KEY, payload BLOB NOT NULL);
    -- the till's log: dense, ordered by commit (one writer connection), never rewritten
    CREATE TABLE IF NOT EXISTS store_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, op_id TEXT NOT NULL UNIQUE, body BLOB NOT NULL);`);
  db.prepare('INSERT OR IGNORE INTO meta VALUES (?, ?)').run('log_id', randomUUID());
  const logId = db.prepare("SELECT v FROM meta WHERE k = 'log_id'").pluck().get();
  const insOutbox = db.prepare('INSERT INTO outbox_sim VALUES (?, ?)');
  const insLog = db.prepare('INSERT INTO store_log (op_id, body) VALUES (?, ?)');
  const page = db.prepare('SELECT seq, body FROM store_log WHERE seq > ? ORDER BY seq LIMIT ?').raw();
  const waiters = new Set();
  // One cashier write: domain rows, outbox row and log row in ONE transaction.
  const write = db.transaction((buf) => { const opId = JSON.parse(buf).opId; insOutbox.run(opId, buf); insLog.run(opId, buf); });
  const appended = () => { for (const w of waiters) w(); waiters.clear(); };

  const t = tlsFiles(certDir, 'till-a');
  const refused = { noCert: 0, unknownTill: 0 };
  const server = https.createServer({ ...t, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.3' }, async (req, res) => {
    const cn = req.socket.getPeerCertificate()?.subject?.CN;
    if (cn !== 'till-b') { refused.unknownTill++; res.writeHead(403).end(); return; } // the store's till list
    const u = new URL(req.url, 'https://till-a');
    const after = Number(u.searchParams.get('after') ?? 0);
    const limit = Math.min(2000, Number(u.searchParams.get('limit') ?? 500));
    const waitMs = Math.min(25_000, Number(u.searchParams.get('waitMs') ?? 0));
    let rows = page.all(after, limit);
    if (rows.length === 0 && waitMs > 0) {
      await new Promise((resolve) => { const tm = setTimeout(resolve, waitMs); waiters.add(() => { clearTimeout(tm); resolve(); }); });
      rows = page.all(after, limit);
    }
    // Frames: 8-byte seq, 4-byte length, body.
    const parts = [];
    for (const [seq, body] of rows) { const h = Buffer.alloc(12); h.writeBigUInt64BE(BigInt(seq)); h.writeUInt32BE(body.length, 8); parts.push(h, body); }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-log-id': logId });
    res.end(Buffer.concat(parts));
  });
  server.on('tlsClientError', () => { refused.noCert++; });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  send({ type: 'ready', port: server.address().port });

  for (;;) {
    const m = await onMessage('*');
    if (m.type === 'fill') {
      // Fixture for catch-up: N entries, 500 per transaction.
      const many = db.transaction((bufs) => { for (const b of bufs) { const opId = JSON.parse(b).opId; insOutbox.run(opId, b); insLog.run(opId, b); } });
      for (let i = 0; i < m.n; i += 500) many(Array.from({ length: Math.min(500, m.n - i) }, (_, k) => makeEntry(i + k)));
      send({ type: 'filled' });
    } else if (m.type === 'live') {
      const commitMs = [];
      for (let i = 0; i < LIVE_ENTRIES; i++) {
        const t0 = nowNs();
        write(makeEntry(i));
        commitMs.push(Number(nowNs() - t0) / 1e6);
        appended();
        await sleep(1000 / LIVE_RATE_PER_S);
      }
      send({ type: 'lived', commit: summarizeMs(commitMs) });
    } else if (m.type === 'stats') {
      db.pragma('wal_checkpoint(TRUNCATE)');
      let logBytes = null;
      try { logBytes = db.prepare("SELECT SUM(pgsize) FROM dbstat WHERE name LIKE '%store_log%'").pluck().get(); } catch { /* no dbstat */ }
      send({ type: 'stats', dbMB: mb(du(join(dir, 'till.db'))), logTableMB: logBytes == null ? null : mb(logBytes), besideSqliteMB: 0, refused, rssMB: mb(process.memoryUsage().rss) });
    } else if (m.type === 'stop') { server.close(); db.close(); process.exit(0); }
  }
} else {
  db.exec(`
    CREATE TABLE IF NOT EXISTS replica_log (origin TEXT NOT NULL, seq INTEGER NOT NULL, op_id TEXT NOT NULL UNIQUE, body BLOB NOT NULL, PRIMARY KEY (origin, seq));
    CREATE TABLE IF NOT EXISTS peer_cursor (origin TEXT PRIMARY KEY, log_id TEXT NOT NULL, seq INTEGER NOT NULL);`);
  const insRep = db.prepare('INSERT OR IGNORE INTO replica_log VALUES (?, ?, ?, ?)');
  const setCursor = db.prepare('INSERT INTO peer_cursor VALUES (?, ?, ?) ON CONFLICT(origin) DO UPDATE SET log_id = excluded.log_id, seq = excluded.seq');
  // Entries and the cursor in one transaction: a crash replays the page, INSERT OR IGNORE makes it once.
  const apply = db.transaction((origin, logId, entries) => {
    for (const e of entries) insRep.run(origin, e.seq, JSON.parse(e.body).opId, e.body);
    setCursor.run(origin, logId, entries[entries.length - 1].seq);
  });
  const { port, mode, total } = await onMessage('go');
  const rss = rssSampler();
  const agent = new Agent({ connect: { ...tlsFiles(certDir, 'till-b'), servername: 'till-a', minVersion: 'TLSv1.3' }, keepAliveTimeout: 30_000 });
  const fetchPage = async (after, limit, waitMs) => {
    const { statusCode, headers, body } = await request(`https://127.0.0.1:${port}/feed?after=${after}&limit=${limit}&waitMs=${waitMs}`, { dispatcher: agent });
    const buf = Buffer.from(await body.arrayBuffer());
    if (statusCode !== 200) throw new Error(`feed answered ${statusCode}`);
    const entries = [];
    for (let o = 0; o < buf.length;) { const seq = Number(buf.readBigUInt64BE(o)); const n = buf.readUInt32BE(o + 8); entries.push({ seq, body: buf.subarray(o + 12, o + 12 + n) }); o += 12 + n; }
    return { logId: headers['x-log-id'], entries, bytes: buf.length };
  };

  if (mode === 'live') {
    const lat = [];
    let cursor = 0;
    while (lat.length < LIVE_ENTRIES) {
      const { logId, entries } = await fetchPage(cursor, 500, 25_000);
      if (entries.length === 0) continue;
      apply('till-a', logId, entries);
      const t = nowNs();
      for (const e of entries) lat.push(Number(t - BigInt(JSON.parse(e.body).sentNs)) / 1e6);
      cursor = entries[entries.length - 1].seq;
    }
    send({ type: 'result', latency: summarizeMs(lat), rssMB: rss.stop() });
  } else {
    // Catch-up: pages of 2000 (~2 MB); the next page is fetched while this one is applied.
    const applyIt = mode === 'catchup';
    const t0 = nowNs();
    let cursor = 0; let got = 0; let bytes = 0;
    let next = fetchPage(0, 2000, 0);
    while (got < total) {
      const p = await next;
      if (p.entries.length === 0) throw new Error('feed ended early');
      cursor = p.entries[p.entries.length - 1].seq;
      got += p.entries.length; bytes += p.bytes;
      next = got < total ? fetchPage(cursor, 2000, 0) : null;
      if (applyIt) apply('till-a', p.logId, p.entries);
    }
    const ms = Number(nowNs() - t0) / 1e6;
    const count = applyIt ? db.prepare('SELECT COUNT(*) FROM replica_log').pluck().get() : got;
    db.pragma('wal_checkpoint(TRUNCATE)');
    send({ type: 'result', ms: Math.round(ms * 10) / 10, entries: count, MBps: Math.round((bytes / 1048576 / (ms / 1000)) * 10) / 10, rssMB: rss.stop(), replicaDbMB: mb(du(join(dir, 'till.db'))) });
  }
  await onMessage('stop');
  await agent.close();
  db.close();
  process.exit(0);
}
