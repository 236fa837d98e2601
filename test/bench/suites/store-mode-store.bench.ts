// Store mode with real cores as processes (issue 26), each figure next to its raw limit measured in the
// same run:
//   - an order committed on one of three register tills (test/store-mode/fixtures/core-till.ts), the three
//     selling about 10 orders a second together, → first seen on each other till's storeMode.orders and
//     on a kitchen display's kitchen.tickets (test/store-mode/fixtures/bench-display.ts, a process too):
//     p50 / p95 / max, next to a mutual TLS 1.3 loopback round trip of 1 KB between two processes
//     (test/store-mode/fixtures/bench-tls-echo.ts and this one). Every watcher polls every 10 ms, so up
//     to ~10 ms of each figure is the poll interval;
//   - a catch-up with real cores: till A's log holds 10,000 orders (20 rung up through its bridge, the
//     rest cloned from those entries with fresh ids straight into A's store_log while A is stopped:
//     placing 10,000 through the bridge takes minutes here), then a fresh till B
//     (test/store-mode/fixtures/bench-core-till.ts) starts pulling A: from B's store link starting (its
//     `store-mode.started` log line) to B's cursor for A at A's max seq (read from B's file), next to
//     the same bytes over one mutual TLS 1.3 connection between two processes on this machine; and a
//     register tap on B (`orders.list`, limit 20, through its core's bridge, timed inside B) during the
//     catch-up next to the same tap on B idle afterwards;
//   - the same catch-up (A, B and the raw pair) in a network namespace of its own whose loopback is held to a
//     store LAN's speed (tc tbf at 100 Mbit/s, then 1 Gbit/s, MTU 1500), the raw transfer measured over the same link:
//     skipped, with a line saying why, where namespaces or tc cannot be used.
// STORE_MODE_BENCH_CPU_PROF=<dir>: B runs under node --cpu-prof, its profile written there when it stops
// (read it with test/bench/profile/summarise.ts).
//   - the catch-up on loopback again with an order rung up on B every 200 ms meanwhile: each order's wait, next to
//     the same on B idle afterwards (a register's write waits for the store's one writer: store/write-turn.ts).
// STORE_MODE_BENCH_PARTS=catch-up,1gbit: only those parts (live, catch-up, 100mbit, 1gbit, writes; all by default).
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { createTillIdentity } from '../../../store-mode/identity';
import { openStore } from '../../../store/index';
import { ITEMS, seedDataDir } from '../../core/fixtures';
import { ROUTING } from '../../kitchen/fixtures';
import { BENCH_CORE_TILL, BENCH_DISPLAY, BENCH_TLS_ECHO, startBenchChild } from '../../store-mode/fixtures/bench-processes';
import type { BenchCoreTillConfig } from '../../store-mode/fixtures/bench-core-till';
import { keyFile } from '../../store-mode/fixtures/key-file';
import { freePorts } from '../../store-mode/fixtures/ports';
import { startChildProcess, startCoreTill, startTill, type TillProcess } from '../../store-mode/till-process';
import { ip, namespacesUnavailable } from '../../store-mode/fixtures/netns-lan';
import { percentile, row, type BenchRow, type BenchSuite } from '../harness';

const SECRET = Buffer.alloc(32, 0x5c).toString('base64');
const TILLS = 3;
/** Each till rings one up every this many ms (plus the commit's own time): about 10 a second together. */
const PLACE_INTERVAL_MS = 290;
const ORDERS_PER_TILL = 40;
const CATCHUP_ORDERS = 10_000;
const TEMPLATE_ORDERS = 20;
const TAP = { command: 'orders.list', payload: { limit: 20 }, intervalMs: 20 };
/** Orders rung up on B every 200 ms (a rush, and enough samples in a catch-up of seconds), in the `writes` part beside TAP. */
const WRITE_TAP = { command: 'orders.place', payload: { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], service: { type: 'dine_in', table: '9', guests: 2 } }, intervalMs: 200 };
const ROUND_TRIP_BYTES = 1024;
const POLL_NOTE = 'polled every 10 ms: up to ~10 ms of it is the poll';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const wallClock = (): number => performance.timeOrigin + performance.now();
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const log = (line: string) => void process.stderr.write(`  store-mode-store: ${line}\n`);

interface Placed {
  id: string;
  at: number;
}

async function call<T>(till: TillProcess, command: string, payload: unknown = {}): Promise<T> {
  till.send({ type: 'call', command, payload });
  const { response } = (await till.next('answer')) as unknown as { response: { ok: boolean; value?: T; error?: { message: string } } };
  if (!response.ok) throw new Error(`${command}: ${response.error?.message}`);
  return response.value as T;
}

async function waitForPeers(till: TillProcess, peers: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await call<{ peers: { tillId: string | null }[] }>(till, 'storeMode.status');
    if (status.peers.filter((p) => p.tillId !== null).length === peers) return;
    if (Date.now() > deadline) throw new Error(`a till has not heard its ${peers} peers within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** 1 KB ping-pong over one mutual TLS 1.3 connection from this process to an echo process: ms per round trip, sorted. */
async function tlsRoundTrips(count: number): Promise<number[]> {
  const echo = await startBenchChild(BENCH_TLS_ECHO, { tillName: 'Echo', deadlineMs: 60_000 }, SECRET);
  try {
    const identity = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bench', keyStore: keyFile(join(mkdtempSync(join(tmpdir(), 'pos-bench-')), 'k.json')) });
    const socket = connect({ ...identity.tls, host: '127.0.0.1', port: echo.port, minVersion: 'TLSv1.3', checkServerIdentity: () => undefined });
    await new Promise((resolve, reject) => {
      socket.once('secureConnect', resolve);
      socket.once('error', reject);
    });
    const message = Buffer.alloc(ROUND_TRIP_BYTES, 0x62);
    const samples: number[] = [];
    for (let i = 0; i < count + 20; i++) {
      const start = process.hrtime.bigint();
      await new Promise<void>((resolve) => {
        let received = 0;
        const onData = (chunk: Buffer) => {
          received += chunk.length;
          if (received < ROUND_TRIP_BYTES) return;
          socket.off('data', onData);
          resolve();
        };
        socket.on('data', onData);
        socket.write(message);
      });
      if (i >= 20) samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    socket.destroy();
    return sorted(samples);
  } finally {
    await echo.stop();
  }
}

interface LiveFigures {
  toTill: number[];
  toDisplay: number[];
  orders: number;
  perSecond: number;
  missing: number;
  load: string;
}

/** Three registers and a display, each pulling the others; the registers sell ~10 orders a second together. */
async function liveOrders(): Promise<LiveFigures> {
  const started: TillProcess[] = [];
  try {
    const ports = (await freePorts(TILLS + 1)) as number[];
    const displayPort = ports[TILLS] as number;
    const peer = (port: number) => `127.0.0.1:${port}`;
    const names = ['Bar', 'Patio', 'Front'];
    const [tills, display] = await Promise.all([
      Promise.all(
        names.map(async (name, i) => {
          const peers = [...ports.slice(0, TILLS).filter((_, j) => j !== i), displayPort].map(peer);
          const till = await startCoreTill({ dataDir: seedDataDir(), tillName: name, tillLetter: name[0] as string, storeMode: 'on', port: ports[i] as number, peers, deadlineMs: 120_000 }, SECRET);
          started.push(till);
          return till;
        }),
      ),
      (async () => {
        const d = await startBenchChild(BENCH_DISPLAY, { dataDir: seedDataDir(), tillName: 'Pass', port: displayPort, peers: ports.slice(0, TILLS).map(peer), deadlineMs: 120_000, printing: ROUTING }, SECRET);
        started.push(d);
        return d;
      })(),
    ]);
    // Every till has heard the two others and the display, and the display the three tills, before anything is measured.
    await Promise.all([...tills.map((till) => waitForPeers(till, TILLS)), waitForPeers(display, TILLS)]);
    for (const watcher of [...tills, display]) watcher.send({ type: 'watch' });
    // One order each, not measured: the first of each process's paths (connections, statements) warm.
    tills.forEach((till, i) => till.send({ type: 'place', count: 1, intervalMs: 0, table: String(90 + i) }));
    await Promise.all(tills.map((till) => till.next('placed', 30_000)));
    await sleep(1_000);

    const load = loadAverage();
    const rungUp = await Promise.all(
      tills.map(async (till, i) => {
        // Staggered, so the three do not commit in step.
        await sleep((i * PLACE_INTERVAL_MS) / TILLS);
        till.send({ type: 'place', count: ORDERS_PER_TILL, intervalMs: PLACE_INTERVAL_MS, table: String(i + 1) });
        return ((await till.next('placed', 90_000)) as unknown as { orders: Placed[] }).orders;
      }),
    );
    const all = rungUp.flat();
    const times = all.map((o) => o.at);
    const perSecond = (all.length - 1) / ((Math.max(...times) - Math.min(...times)) / 1000);

    // Until every order is seen everywhere it should be, or 10 s.
    const seen = async (p: TillProcess) => {
      p.send({ type: 'seen' });
      return ((await p.next('seen')) as unknown as { at: Record<string, number> }).at;
    };
    const deadline = Date.now() + 10_000;
    let tillSeen: Record<string, number>[] = [];
    let displaySeen: Record<string, number> = {};
    for (;;) {
      tillSeen = await Promise.all(tills.map(seen));
      displaySeen = await seen(display);
      const complete = rungUp.every((orders, i) => tillSeen.every((at, j) => j === i || orders.every((o) => at[o.id] !== undefined))) && all.every((o) => displaySeen[o.id] !== undefined);
      if (complete || Date.now() > deadline) break;
      await sleep(200);
    }
    const toTill: number[] = [];
    let missing = 0;
    for (const [i, orders] of rungUp.entries())
      for (const [j, at] of tillSeen.entries()) {
        if (j === i) continue;
        for (const order of orders) {
          const first = at[order.id];
          if (first === undefined) missing++;
          else toTill.push(first - order.at);
        }
      }
    const toDisplay: number[] = [];
    for (const order of all) {
      const first = displaySeen[order.id];
      if (first === undefined) missing++;
      else toDisplay.push(first - order.at);
    }
    return { toTill: sorted(toTill), toDisplay: sorted(toDisplay), orders: all.length, perSecond, missing, load };
  } finally {
    await Promise.all(started.map((p) => p.stop()));
  }
}

interface CatchUpFigures {
  entries: number;
  orders: number;
  bytes: number;
  catchUpMs: number;
  firstPageMs: number;
  rawMs: number[];
  during: number[];
  duringCallOnly: number[];
  idle: number[];
  /** With a write tap (the `writes` part): each write due → answered, during the catch-up and idle afterwards. */
  writesDuring: number[];
  writesIdle: number[];
  /** The same entries applied to a fresh seeded store in this process, pages of 1,000: B's SQLite work alone. */
  applyInProcessMs: number[];
  load: string;
}

/**
 * Clones A's first orders' log entries into its store_log (A stopped) until the log holds `orders`
 * orders: each clone's entity ids replaced by fresh ones throughout its body, a fresh op id.
 */
function fillLog(dataDir: string, orders: number): void {
  const db = new Database(join(dataDir, 'terminal.db'));
  try {
    const template = db.prepare('SELECT op_id AS opId, entity_kind AS kind, entity_id AS entityId, CAST(body AS TEXT) AS body FROM store_log ORDER BY seq').all() as { opId: string; kind: string; entityId: string; body: string }[];
    const entityIds = [...new Set(template.map((t) => t.entityId))];
    const templateOrders = new Set(template.filter((t) => t.kind === 'order').map((t) => t.entityId)).size;
    const insert = db.prepare('INSERT INTO store_log (op_id, entity_kind, entity_id, body, created_at) VALUES (?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (let have = templateOrders; have < orders; have += templateOrders) {
        const fresh = new Map(entityIds.map((id) => [id, randomUUID()]));
        for (const entry of template) {
          let body = entry.body;
          for (const [old, id] of fresh) body = body.replaceAll(old, id);
          insert.run(randomUUID(), entry.kind, fresh.get(entry.entityId), Buffer.from(body), Date.now());
        }
      }
    })();
  } finally {
    db.close();
  }
}

/** A's log applied to a fresh seeded store in this process, 1,000 entries a page (the feed's page): ms per page. */
function applyInProcess(dirA: string, maxSeq: number): number[] {
  const db = new Database(join(dirA, 'terminal.db'), { readonly: true });
  const read = db.prepare('SELECT seq, op_id AS opId, body FROM store_log WHERE seq > ? ORDER BY seq LIMIT 1000');
  const store = openStore(join(seedDataDir(), 'terminal.db'));
  const pages: number[] = [];
  try {
    for (let after = 0; after < maxSeq; ) {
      const entries = read.all(after) as { seq: number; opId: string; body: Buffer }[];
      const start = performance.now();
      store.replicas.apply('bench-origin', 'bench-log', entries, Date.now(), 'bench-self');
      pages.push(performance.now() - start);
      after = entries.at(-1)!.seq;
    }
  } finally {
    store.close();
    db.close();
  }
  return pages;
}

/** The same bytes over one mutual TLS 1.3 connection between two till processes (the feed bench's method). */
async function rawTransfers(bytes: number, times: number, launcher: readonly string[]): Promise<number[]> {
  const pair: TillProcess[] = [];
  try {
    const a = await startTill({ tillName: 'Raw A', deadlineMs: 60_000 }, SECRET, launcher);
    pair.push(a);
    const b = await startTill({ tillName: 'Raw B', deadlineMs: 60_000 }, SECRET, launcher);
    pair.push(b);
    const ms: number[] = [];
    for (let i = 0; i < times; i++) {
      a.send({ type: 'serveRaw', bytes });
      const { port } = await a.next('rawServing');
      b.send({ type: 'fetchRaw', port });
      const fetched = await b.next('rawFetched', 60_000);
      if (fetched.bytes !== bytes) throw new Error(`raw transfer: ${String(fetched.bytes)} of ${bytes} bytes`);
      ms.push(fetched.ms as number);
    }
    return ms;
  } finally {
    await Promise.all(pair.map((p) => p.stop()));
  }
}

/** A token bucket's depth per rate: at least one tick's worth of the rate (the kernel's timer), and a frame. */
const LINK_BURST: Record<string, string> = { '100mbit': '64kb', '1gbit': '512kb' };

/** A network namespace of its own whose loopback carries `rate` at most (tc's token bucket), for A, B and the raw pair. */
interface HeldLink {
  rate: string;
  launcher: string[];
  remove(): void;
}

/** The link, or why it cannot be made here. */
function holdLink(rate: string): HeldLink | string {
  const ns = `pos-bench-${process.pid}-${rate}`;
  const unavailable = namespacesUnavailable(`${ns}-probe`);
  if (unavailable !== null) return unavailable;
  const remove = (): void => {
    try {
      ip('netns', 'del', ns);
    } catch {
      // Already gone.
    }
  };
  try {
    ip('netns', 'add', ns);
    process.once('exit', remove);
    // Ethernet's frame size, and a token bucket at the rate (netem's rate needs a module this kernel may lack).
    ip('-n', ns, 'link', 'set', 'lo', 'mtu', '1500', 'up');
    execFileSync('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'tbf', 'rate', rate, 'burst', LINK_BURST[rate] ?? '512kb', 'latency', '50ms'], { stdio: 'pipe' });
    return { rate, launcher: ['ip', 'netns', 'exec', ns], remove };
  } catch (error) {
    remove();
    return `cannot hold a namespace's loopback to ${rate} (tc tbf): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

async function catchUp(link: HeldLink | null = null, writes = false): Promise<CatchUpFigures> {
  const started: TillProcess[] = [];
  const launcher = link?.launcher ?? [];
  try {
    const [portA, portB] = (await freePorts(2)) as [number, number];
    const dirA = seedDataDir();
    const specA = { dataDir: dirA, tillName: 'Bar', tillLetter: 'B', storeMode: 'on' as const, port: portA, peers: [], deadlineMs: 150_000 };
    const first = await startCoreTill(specA, SECRET);
    started.push(first);
    first.send({ type: 'place', count: TEMPLATE_ORDERS, intervalMs: 0, table: '1' });
    await first.next('placed', 60_000);
    await first.stop();
    fillLog(dirA, CATCHUP_ORDERS);
    const dbA = new Database(join(dirA, 'terminal.db'), { readonly: true });
    const held = dbA.prepare("SELECT COUNT(*) AS entries, MAX(seq) AS maxSeq, SUM(length(body) + length(op_id) + 13) AS bytes, COUNT(DISTINCT CASE WHEN entity_kind = 'order' THEN entity_id END) AS orders FROM store_log").get() as { entries: number; maxSeq: number; bytes: number; orders: number };
    dbA.close();
    const a = await startCoreTill(specA, SECRET, launcher);
    started.push(a);

    const rawMs = await rawTransfers(held.bytes, 3, launcher);

    const dirB = seedDataDir();
    const load = loadAverage();
    const db = new Database(join(dirB, 'terminal.db'), { readonly: true });
    const cursor = db.prepare('SELECT seq FROM store_cursors WHERE origin = ?').pluck();
    let firstPageAt: number | undefined;
    let caughtUpAt: number | undefined;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const seq = (cursor.get(a.tillId) as number | undefined) ?? 0;
        const now = wallClock();
        if (seq > 0) firstPageAt ??= now;
        if (seq >= held.maxSeq) {
          caughtUpAt = now;
          return;
        }
        await sleep(10);
      }
    })();
    let b: TillProcess;
    try {
      const profileDir = process.env.STORE_MODE_BENCH_CPU_PROF;
      // node's flags go before the script: a shell execs node ($0) with them and the child's own arguments.
      const profiler = profileDir ? ['/bin/sh', '-c', `exec "$0" --cpu-prof --cpu-prof-dir='${profileDir}' "$@"`] : [];
      const configB: BenchCoreTillConfig = { dataDir: dirB, tillName: 'Patio', tillLetter: 'P', port: portB, peers: [`127.0.0.1:${portA}`], deadlineMs: 150_000, taps: { read: TAP, ...(writes ? { write: WRITE_TAP } : {}) } };
      b = await startChildProcess(BENCH_CORE_TILL, configB, SECRET, { launcher: [...launcher, ...profiler], readyTimeoutMs: 60_000 });
      started.push(b);
      const deadline = Date.now() + 90_000;
      while (caughtUpAt === undefined && Date.now() < deadline) await sleep(50);
    } finally {
      watching = false;
      await watcher;
      db.close();
    }
    if (caughtUpAt === undefined) throw new Error(`B did not catch up with A's ${held.entries} entries within 90 s`);
    // Idle afterwards: the same taps for 3 s (8 s with writes).
    await sleep(writes ? 8_000 : 3_000);
    b.send({ type: 'tapStop' });
    type Sample = { at: number; ms: number; callMs: number };
    const tapped = (await b.next('tapped')) as unknown as { samples: { read: Sample[]; write?: Sample[] } };
    const samples = tapped.samples.read;
    const writeSamples = tapped.samples.write ?? [];
    writeFileSync(join(dirB, 'bench-output.log'), b.output());
    const startLine = b
      .output()
      .split('\n')
      .map((line) => {
        try {
          return JSON.parse(line) as { event?: string; time?: number };
        } catch {
          return {};
        }
      })
      .find((entry) => entry.event === 'store-mode.started');
    if (startLine?.time === undefined) throw new Error("B's log has no store-mode.started line");
    const startAt = startLine.time;
    const tapsFrom = samples[0]?.at ?? Number.NaN;
    const caughtUpEnd = caughtUpAt;
    const duringCatchUp = samples.filter((s) => s.at >= startAt && s.at <= caughtUpEnd);
    log(`B's log: ${join(dirB, 'bench-output.log')}`);
    log(`catch-up: B's store link started at +0 ms, first page committed +${Math.round((firstPageAt ?? Number.NaN) - startAt)} ms, taps from +${Math.round(tapsFrom - startAt)} ms, caught up +${Math.round(caughtUpAt - startAt)} ms`);
    return {
      entries: held.entries,
      orders: held.orders,
      bytes: held.bytes,
      catchUpMs: caughtUpAt - startAt,
      firstPageMs: (firstPageAt ?? Number.NaN) - startAt,
      rawMs,
      during: sorted(duringCatchUp.map((s) => s.ms)),
      duringCallOnly: sorted(duringCatchUp.map((s) => s.callMs)),
      idle: sorted(samples.filter((s) => s.at > caughtUpEnd + 1_000).map((s) => s.ms)),
      writesDuring: sorted(writeSamples.filter((s) => s.at >= startAt && s.at <= caughtUpEnd).map((s) => s.ms)),
      writesIdle: sorted(writeSamples.filter((s) => s.at > caughtUpEnd + 1_000).map((s) => s.ms)),
      // The store's own cost does not depend on the link: measured once, with the loopback run.
      applyInProcessMs: link || writes ? [] : applyInProcess(dirA, held.maxSeq),
      load,
    };
  } finally {
    await Promise.all(started.map((p) => p.stop()));
  }
}

/** The catch-up at a store LAN's speed: its row, or a line saying why it was not run. */
async function catchUpOverLink(rate: string): Promise<BenchRow[]> {
  const link = holdLink(rate);
  if (typeof link === 'string') {
    log(`catch-up over ${rate}: skipped, ${link}`);
    return [];
  }
  try {
    const c = await catchUp(link);
    const rawMs = sorted(c.rawMs)[1] as number;
    const mb = c.bytes / 1048576;
    log(`catch-up over ${rate}: ${c.entries} entries in ${Math.round(c.catchUpMs)} ms (first page after ${Math.round(c.firstPageMs)} ms); raw ${c.rawMs.map((x) => Math.round(x)).join(' / ')} ms; tap p95 ${ms(percentile(c.during, 95))}; load ${c.load}`);
    return [
      row({
        name: `the same catch-up with A and B on a link of ${rate} (a network namespace's loopback, MTU 1500, held to it by tc tbf) (${Math.round(c.catchUpMs)} ms, first page ${Math.round(c.firstPageMs)} ms; load ${c.load})`,
        value: mb / (c.catchUpMs / 1000),
        unit: 'MB/s',
        baselineName: `same bytes over mutual TLS 1.3 on the same link (median of ${c.rawMs.map((x) => Math.round(x)).join(' / ')} ms)`,
        baseline: mb / (rawMs / 1000),
        better: 'higher',
        target: '≥ 0.5× raw TLS',
        ok: c.catchUpMs <= 2 * rawMs,
      }),
    ];
  } finally {
    link.remove();
  }
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

const suite: BenchSuite = {
  name: 'store-mode-store',
  async run(): Promise<BenchRow[]> {
    log(`load average at start: ${loadAverage()}`);
    const only = benchParts();
    return [
      ...(only.has('live') ? await liveRows() : []),
      ...(only.has('catch-up') ? await catchUpRows() : []),
      ...(only.has('100mbit') ? await catchUpOverLink('100mbit') : []),
      ...(only.has('1gbit') ? await catchUpOverLink('1gbit') : []),
      ...(only.has('writes') ? await writesDuringCatchUp() : []),
    ];
  },
};

/** The live rows: orders rung up on 3 tills, each seen on another till's bridge and on the display. */
async function liveRows(): Promise<BenchRow[]> {
  const roundTrips = await tlsRoundTrips(200);
  const live = await liveOrders();
  log(`live: ${live.orders} orders at ${live.perSecond.toFixed(1)}/s, load ${live.load}; → other till p50 ${ms(percentile(live.toTill, 50))} p95 ${ms(percentile(live.toTill, 95))} max ${ms(live.toTill.at(-1) ?? Number.NaN)}; → display p50 ${ms(percentile(live.toDisplay, 50))} p95 ${ms(percentile(live.toDisplay, 95))} max ${ms(live.toDisplay.at(-1) ?? Number.NaN)}; not seen ${live.missing}; TLS round trip p50 ${percentile(roundTrips, 50).toFixed(3)} p95 ${percentile(roundTrips, 95).toFixed(3)} ms`);
  const setting = `${TILLS} tills + display, ${live.orders} orders at ${live.perSecond.toFixed(1)}/s, load ${live.load}, ${POLL_NOTE}`;
  const rowsFor = (to: string, values: number[]) => [
    row({
      name: `order committed on a till → first seen on ${to}, ${values.length} samples (${setting}), p50`,
      value: percentile(values, 50),
      unit: 'ms',
      baselineName: 'mutual TLS 1.3 loopback round trip 1 KB, two processes, p50',
      baseline: percentile(roundTrips, 50),
      better: 'lower',
      target: 'informational',
      ok: true,
    }),
    row({
      name: `order committed on a till → first seen on ${to}, ${values.length} samples (max ${ms(values.at(-1) ?? Number.NaN)}${live.missing ? `, ${live.missing} never seen in 10 s` : ''}), p95`,
      value: percentile(values, 95),
      unit: 'ms',
      baselineName: 'mutual TLS 1.3 loopback round trip 1 KB, two processes, p95',
      baseline: percentile(roundTrips, 95),
      better: 'lower',
      target: 'p95 < 250 ms',
      ok: percentile(values, 95) < 250 && live.missing === 0,
    }),
  ];
  return [...rowsFor("another till's bridge (storeMode.orders)", live.toTill), ...rowsFor("the kitchen display's kitchen.tickets", live.toDisplay)];
}

/** The catch-up on loopback and the register tap during it. */
async function catchUpRows(): Promise<BenchRow[]> {
  const c = await catchUp();
  const rawMs = sorted(c.rawMs)[1] as number;
  const mb = c.bytes / 1048576;
  log(`catch-up: ${c.entries} entries (${c.orders} orders, ${mb.toFixed(1)} MB framed) in ${Math.round(c.catchUpMs)} ms (first page after ${Math.round(c.firstPageMs)} ms); raw ${c.rawMs.map((x) => Math.round(x)).join(' / ')} ms; taps during ${c.during.length} (due → answered p50 ${ms(percentile(c.during, 50))} p95 ${ms(percentile(c.during, 95))}; the call alone p50 ${ms(percentile(c.duringCallOnly, 50))} p95 ${ms(percentile(c.duringCallOnly, 95))}), idle ${c.idle.length}; the same entries applied in this process: ${c.applyInProcessMs.length} pages, ${Math.round(c.applyInProcessMs.reduce((x, y) => x + y, 0))} ms in all, per page p50 ${ms(percentile(sorted(c.applyInProcessMs), 50))} max ${ms(Math.max(...c.applyInProcessMs))}; load ${c.load}; load now ${loadAverage()}`);
  const rawMBps = mb / (rawMs / 1000);
  const feedMBps = mb / (c.catchUpMs / 1000);
  return [
    row({
      name: `catch-up of a fresh till B (real core) from A: ${c.entries.toLocaleString('en-US')} entries (${c.orders.toLocaleString('en-US')} orders: ${TEMPLATE_ORDERS} rung up, the rest cloned into A's store_log; ${mb.toFixed(1)} MB) committed on B, link start → cursor at A's max (${Math.round(c.catchUpMs)} ms, first page ${Math.round(c.firstPageMs)} ms; load ${c.load})`,
      value: feedMBps,
      unit: 'MB/s',
      baselineName: `same bytes over mutual TLS 1.3 between two processes (median of ${c.rawMs.map((x) => Math.round(x)).join(' / ')} ms)`,
      baseline: rawMBps,
      better: 'higher',
      target: '≥ 0.5× raw TLS',
      ok: feedMBps >= 0.5 * rawMBps,
    }),
    row({
      name: `register tap on B during its catch-up (${TAP.command} limit 20, due every ${TAP.intervalMs} ms, timed in B from due to answered), ${c.during.length} samples, p50`,
      value: percentile(c.during, 50),
      unit: 'ms',
      baselineName: `same tap on B idle afterwards, ${c.idle.length} samples, p50`,
      baseline: percentile(c.idle, 50),
      better: 'lower',
      target: 'informational',
      ok: true,
    }),
    row({
      name: `register tap on B during its catch-up, ${c.during.length} samples (max ${ms(c.during.at(-1) ?? Number.NaN)}), p95`,
      value: percentile(c.during, 95),
      unit: 'ms',
      baselineName: `same tap on B idle afterwards, p95`,
      baseline: percentile(c.idle, 95),
      better: 'lower',
      target: 'p95 < 8 ms',
      ok: percentile(c.during, 95) < 8,
    }),
  ];
}

/** The catch-up on loopback again, a cashier ringing up orders on B meanwhile: their wait for the store's writer. */
async function writesDuringCatchUp(): Promise<BenchRow[]> {
  const c = await catchUp(null, true);
  log(`catch-up with writes: ${c.entries} entries in ${Math.round(c.catchUpMs)} ms; ${WRITE_TAP.command} every ${WRITE_TAP.intervalMs} ms: during ${c.writesDuring.length} p50 ${ms(percentile(c.writesDuring, 50))} p95 ${ms(percentile(c.writesDuring, 95))} max ${ms(c.writesDuring.at(-1) ?? Number.NaN)}; idle ${c.writesIdle.length} p50 ${ms(percentile(c.writesIdle, 50))} max ${ms(c.writesIdle.at(-1) ?? Number.NaN)}; read tap p95 ${ms(percentile(c.during, 95))}; load ${c.load}`);
  return [
    row({
      name: `an order rung up on B during its catch-up (${WRITE_TAP.command} every ${WRITE_TAP.intervalMs} ms beside the read tap, due → answered; the catch-up ${Math.round(c.catchUpMs)} ms; load ${c.load}), ${c.writesDuring.length} samples (max ${ms(c.writesDuring.at(-1) ?? Number.NaN)}), p95`,
      value: percentile(c.writesDuring, 95),
      unit: 'ms',
      baselineName: `the same on B idle afterwards, ${c.writesIdle.length} samples, p95`,
      baseline: percentile(c.writesIdle, 95),
      better: 'lower',
      target: 'informational',
      ok: true,
    }),
  ];
}

const BENCH_PARTS = ['live', 'catch-up', '100mbit', '1gbit', 'writes'] as const;

/** The parts to run: all, or those named in STORE_MODE_BENCH_PARTS (comma-separated), e.g. `catch-up,1gbit` while working on the catch-up. */
function benchParts(): Set<string> {
  const named = process.env.STORE_MODE_BENCH_PARTS?.split(',').map((part) => part.trim()).filter(Boolean);
  if (!named) return new Set(BENCH_PARTS);
  const unknown = named.filter((part) => !(BENCH_PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) throw new Error(`STORE_MODE_BENCH_PARTS: unknown part ${unknown.join(', ')} (the parts: ${BENCH_PARTS.join(', ')})`);
  return new Set(named);
}

export default suite;
