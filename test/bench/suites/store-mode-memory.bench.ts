// Issue 26's memory target: "a till in store mode with 3 peers stays under 100 MB RSS at 100,000
// orders" (docs/bench-store-memory.md). A till process (a real core, test/store-mode/fixtures/memory-core-till.ts)
// whose own SQLite file holds 100,000 orders (and the log entry store mode wrote for each) and the
// three other tills' logs replicated (3 × 33,334 entries and their orders' documents), its three peers
// running as processes of their own (store mode on, each with a log of 33,334 entries): all four start
// caught up (test/bench/fixtures/memory-store-files.ts writes the files), so the feeds are live long
// polls, as in a store open for months. The feeds are shown working both ways (an order rung up on each
// peer is listed on the till, the till's are listed on a peer), the till is worked for a while
// (storeMode.orders, orders.list, a search, orders rung up), and left to settle. RSS is read by this
// process from /proc/<pid>/status: VmHWM (the peak since the process started, start-up included), the
// highest VmRSS sampled while worked, and VmRSS after the settle.
// The raw limit, same run: the same core process, store mode off, on a freshly seeded (empty) store,
// worked the same way; and, for that limit, a bare Node process with the core's native modules loaded.
// Then a fifth till joins on an empty file: the RSS peak of its first catch-up of the three peers' logs
// (3 × 33,335 entries pulled over the feed). Last (it can block the till's thread), how long
// storeMode.status takes to answer on the measured till.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { seedDataDir, testStaffConfig } from '../../core/fixtures';
import type { MemoryTillConfig } from '../../store-mode/fixtures/memory-core-till';
import { freePorts } from '../../store-mode/fixtures/ports';
import {
  closeCleanly,
  firstLogBody,
  logIdOf,
  tillIdOf,
  writeCursor,
  writeOwnOrders,
  writeReplica,
  type OrderSeries,
  type ReplicatedTill,
} from '../fixtures/memory-store-files';
import { row, type BenchRow, type BenchSuite } from '../harness';

const ROOT = resolve(import.meta.dirname, '../../..');
const SCRIPT = resolve(ROOT, 'test/store-mode/fixtures/memory-core-till.ts');
const SECRET = Buffer.alloc(32, 0x6d).toString('base64');
const OWN_ORDERS = 100_000;
const PEER_ORDERS = 33_334;
const PEERS = [
  { name: 'Bar', letter: 'B' },
  { name: 'Patio', letter: 'P' },
  { name: 'Kiosk', letter: 'K' },
];
/** Open orders per till (the rest fulfilled): what storeMode.orders lists of each peer. */
const OPEN_PER_TILL = 20;
const WORK_ROUNDS = 15;
const PLACED_PER_ROUND = 2;
/** How long the bench waits for storeMode.status on the till (after the memory figures are taken). */
const STATUS_WAIT_MS = 30_000;
/** How long the bench waits for a joining till to pull the three peers' logs. */
const CATCH_UP_WAIT_MS = 150_000;
const SETTLE_MS = 8_000;
const TARGET_MB = 100;
const DEADLINE_MS = 300_000;
/**
 * Node flags for the measured till only, to find out where its memory goes, e.g.
 * POS_BENCH_MEMORY_FLAGS='--heapsnapshot-signal=SIGUSR2' or '--prof --logfile=/tmp/till.log'.
 */
const TILL_FLAGS = (process.env.POS_BENCH_MEMORY_FLAGS ?? '').split(' ').filter(Boolean);

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const mb = (kb: number) => kb / 1024;

interface Message {
  type: string;
  [key: string]: unknown;
}

interface MemoryTill {
  name: string;
  dataDir: string;
  child: ChildProcess;
  call<T>(command: string, payload?: unknown): Promise<T>;
  request(message: object, reply: string, timeoutMs?: number): Promise<Message>;
  stop(): Promise<void>;
}

let tillBundle: string | null = null;

/**
 * The till's script bundled as the Electron main is (build/bundle-electron.ts: its map in a file of
 * its own, source maps not enabled), not as test/child-script.ts bundles the tests' children (an
 * inline map, enabled): that map alone held 20–25 MB of each till's RSS (docs/store-mode-memory.md).
 */
function tillArgs(): string[] {
  if (tillBundle === null) {
    const out = join(ROOT, 'node_modules', '.cache', 'store-mode-memory');
    mkdirSync(out, { recursive: true });
    tillBundle = join(out, `memory-core-till-${process.pid}.mjs`);
    // Inside node_modules, so that its bare imports resolve. Built before any till starts.
    buildSync({ entryPoints: [SCRIPT], outfile: tillBundle, bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node22', sourcemap: 'linked', legalComments: 'none', logLevel: 'error' });
  }
  return [tillBundle];
}

/** VmRSS and VmHWM of a process, in kB. */
function procMemory(pid: number): { rssKb: number; hwmKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
}

/** A core till (store mode on or off) as a child process, answering over IPC as core-till.ts does. */
async function startMemoryTill(config: MemoryTillConfig, nodeFlags: readonly string[] = []): Promise<MemoryTill> {
  const env: NodeJS.ProcessEnv = { ...process.env, POS_LOG_LEVEL: 'warn', POS_STORE_SECRET: SECRET };
  const child = spawn(process.execPath, [...nodeFlags, ...tillArgs(), JSON.stringify(config)], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const queue: Message[] = [];
  let wake = () => {};
  child.on('message', (m: Message) => {
    queue.push(m);
    wake();
  });
  const next = async (type: string, timeoutMs = 60_000): Promise<Message> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = queue.findIndex((m) => m.type === type);
      if (at !== -1) return queue.splice(at, 1)[0] as Message;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`till ${config.tillName} exited before '${type}':\n${output}`);
      if (Date.now() > deadline) throw new Error(`till ${config.tillName}: no '${type}' within ${timeoutMs} ms:\n${output}`);
      await new Promise<void>((done) => {
        const timer = setTimeout(done, 100);
        wake = () => {
          clearTimeout(timer);
          done();
        };
      });
    }
  };
  // Several callers at once would take each other's answers: one request at a time.
  let chain: Promise<unknown> = Promise.resolve();
  const request = (message: object, reply: string, timeoutMs?: number): Promise<Message> => {
    const answer = chain.then(() => {
      child.send(message);
      return next(reply, timeoutMs);
    });
    chain = answer.catch(() => undefined);
    return answer;
  };
  try {
    await next('ready', 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    name: config.tillName,
    dataDir: config.dataDir,
    child,
    request,
    async call<T>(command: string, payload: unknown = {}): Promise<T> {
      const { response } = (await request({ type: 'call', command, payload }, 'answer')) as unknown as { response: { ok: boolean; value?: T; error?: { message: string } } };
      if (!response.ok) throw new Error(`${config.tillName} ${command}: ${response.error?.message}`);
      return response.value as T;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'stop' });
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Samples a process's VmRSS every 100 ms until stopped: the highest seen, and one line a second for the log. */
function sampleRss(pid: number, label: string): { stop(): { maxKb: number; timeline: string } } {
  let maxKb = 0;
  const timeline: number[] = [];
  let ticks = 0;
  const timer = setInterval(() => {
    try {
      const { rssKb } = procMemory(pid);
      maxKb = Math.max(maxKb, rssKb);
      if (ticks++ % 10 === 0) timeline.push(Math.round(mb(rssKb)));
    } catch {
      // The process ended.
    }
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return { maxKb, timeline: `${label} RSS MB each second: ${timeline.join(' ')}` };
    },
  };
}

interface Figures {
  /** VmHWM at the end: the peak since the process started. */
  peakMb: number;
  /** The highest VmRSS sampled while it was worked (after start). */
  workedMaxMb: number;
  /** VmRSS after the settle. */
  settledMb: number;
  breakdown: string;
  timeline: string;
}

/** Works a till as a cashier's screens would for a while, then lets it settle: its RSS figures. */
async function workAndMeasure(till: MemoryTill, expectListed: number | null): Promise<Figures> {
  const pid = till.child.pid as number;
  const sampler = sampleRss(pid, till.name);
  for (let round = 0; round < WORK_ROUNDS; round++) {
    const { orders } = await till.call<{ orders: unknown[] }>('storeMode.orders');
    if (expectListed !== null && orders.length !== expectListed) throw new Error(`${till.name} lists ${orders.length} orders of the other tills, expected ${expectListed}`);
    await till.call('orders.list', { limit: 100 });
    await till.call('orders.list', { search: ['maria', 'bob', 'b12', '555 01'][round % 4], limit: 50 });
    await till.request({ type: 'place', count: PLACED_PER_ROUND, intervalMs: 20, table: String(round + 1) }, 'placed', 60_000);
    await sleep(300);
  }
  const { maxKb, timeline } = sampler.stop();
  await sleep(SETTLE_MS);
  const { rssKb, hwmKb } = procMemory(pid);
  const memory = (await till.request({ type: 'memory' }, 'memory')) as unknown as { usage: NodeJS.MemoryUsage; heap: { mallocedMemory: number } };
  const m = (bytes: number) => (bytes / 1048576).toFixed(1);
  const breakdown = `${till.name}: RSS ${mb(rssKb).toFixed(1)} MB = JS heap ${m(memory.usage.heapTotal)} MB (used ${m(memory.usage.heapUsed)}), external ${m(memory.usage.external)} MB (array buffers ${m(memory.usage.arrayBuffers)}), V8 malloced ${m(memory.heap.mallocedMemory)} MB, the rest native (code, SQLite, OpenSSL, threads)`;
  return { peakMb: mb(hwmKb), workedMaxMb: mb(maxKb), settledMb: mb(rssKb), breakdown, timeline };
}

/** From the till's start: until it lists `listed` orders of the other tills (all pulled), its RSS peak and the time taken. */
async function catchUp(till: MemoryTill, listed: number): Promise<{ peakMb: number; ms: number | null; timeline: string }> {
  const pid = till.child.pid as number;
  const sampler = sampleRss(pid, `${till.name} (catching up)`);
  const started = performance.now();
  let ms: number | null = null;
  while (performance.now() - started < CATCH_UP_WAIT_MS) {
    const { orders } = await till.call<{ orders: unknown[] }>('storeMode.orders');
    if (orders.length === listed) {
      ms = performance.now() - started;
      break;
    }
    await sleep(500);
  }
  const { timeline } = sampler.stop();
  await sleep(SETTLE_MS);
  const memory = (await till.request({ type: 'memory' }, 'memory')) as unknown as { usage: NodeJS.MemoryUsage };
  const m = (bytes: number) => (bytes / 1048576).toFixed(1);
  const settled = `${till.name} ${SETTLE_MS / 1000} s after: RSS ${mb(procMemory(pid).rssKb).toFixed(1)} MB, JS heap ${m(memory.usage.heapTotal)} MB (used ${m(memory.usage.heapUsed)}), external ${m(memory.usage.external)} MB`;
  return { peakMb: mb(procMemory(pid).hwmKb), ms, timeline: `${timeline}\n  ${settled}` };
}

/** ms until `storeMode.status` answers, or null when it did not within STATUS_WAIT_MS. */
async function statusTime(till: MemoryTill): Promise<number | null> {
  const started = performance.now();
  try {
    await till.request({ type: 'call', command: 'storeMode.status', payload: {} }, 'answer', STATUS_WAIT_MS);
    return performance.now() - started;
  } catch {
    return null;
  }
}

/** Until `till` lists `count` orders of the other tills. */
async function waitForListed(till: MemoryTill, count: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { orders } = await till.call<{ orders: unknown[] }>('storeMode.orders');
    if (orders.length === count) return;
    if (Date.now() > deadline) throw new Error(`${till.name} lists ${orders.length} orders of the other tills, expected ${count}`);
    await sleep(200);
  }
}

/**
 * A bare Node process with what the core loads natively (better-sqlite3 with a file open, undici,
 * pino, zod), idle: what any till process costs before the core's own code and data. Its VmRSS in MB.
 */
async function bareNodeRss(): Promise<number> {
  const script = `
    import Database from 'better-sqlite3'; import 'undici'; import 'pino'; import 'zod';
    const db = new Database(process.env.POS_BENCH_BARE_DB);
    db.pragma('journal_mode = WAL'); db.exec('CREATE TABLE t (x)');
    console.log('ready'); setTimeout(() => {}, 60_000);`;
  const folder = mkdtempSync(join(tmpdir(), 'pos-bench-bare-'));
  const env = { ...process.env, POS_BENCH_BARE_DB: join(folder, 'bare.db') };
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((done, fail) => {
      child.stdout?.once('data', () => done());
      child.once('exit', (code) => fail(new Error(`the bare Node process exited (${code})`)));
    });
    await sleep(2_000);
    return mb(procMemory(child.pid as number).rssKb);
  } finally {
    child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The four tills' files: this till's 100,000 orders and the three peers' logs, all caught up on each other. */
async function writeStore(template: ReturnType<typeof firstLogBody>): Promise<{ till: { dataDir: string }; peers: { name: string; letter: string; dataDir: string }[] }> {
  const now = Date.now();
  const started = performance.now();
  const tillDir = seedDataDir();
  const peerDirs = PEERS.map((peer) => ({ ...peer, dataDir: seedDataDir() }));
  const ownSeries: OrderSeries = { letter: 'T', count: OWN_ORDERS, open: OPEN_PER_TILL, now };
  const tillLog: ReplicatedTill = { origin: await tillIdOf(tillDir, SECRET, 'Counter'), name: 'Counter', logId: logIdOf(tillDir), series: ownSeries, seq: writeOwnOrders(tillDir, template, ownSeries, true) };
  const peerLogs: ReplicatedTill[] = [];
  for (const peer of peerDirs) {
    const series: OrderSeries = { letter: peer.letter, count: PEER_ORDERS, open: OPEN_PER_TILL, now };
    peerLogs.push({ origin: await tillIdOf(peer.dataDir, SECRET, peer.name), name: peer.name, logId: logIdOf(peer.dataDir), series, seq: writeOwnOrders(peer.dataDir, template, series, false) });
  }
  for (const log of peerLogs) writeReplica(tillDir, template, log, now);
  // The peers hold none of the others' entries: only cursors at their ends, so they long-poll (and pull what the till rings up).
  for (const [i, peer] of peerDirs.entries()) for (const other of [tillLog, ...peerLogs.filter((_, j) => j !== i)]) writeCursor(peer.dataDir, other, now);
  for (const dir of [tillDir, ...peerDirs.map((p) => p.dataDir)]) closeCleanly(dir);
  process.stderr.write(`  wrote ${OWN_ORDERS} own orders + ${PEERS.length} × ${PEER_ORDERS} replicated in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return { till: { dataDir: tillDir }, peers: peerDirs };
}

const suite: BenchSuite = {
  name: 'store-mode memory',
  async run(): Promise<BenchRow[]> {
    const started: MemoryTill[] = [];
    const dirs: string[] = [];
    const config = (dataDir: string, tillName: string, tillLetter: string, storeMode: 'on' | 'off', port: number, peers: string[]): MemoryTillConfig => {
      dirs.push(dataDir);
      // Hashed here, once: a till given hashes, as the product is, runs no scrypt on its main thread.
      return { dataDir, tillName, tillLetter, storeMode, port, peers, deadlineMs: DEADLINE_MS, staff: testStaffConfig() };
    };
    const start = async (c: MemoryTillConfig, nodeFlags: readonly string[] = []) => {
      const till = await startMemoryTill(c, nodeFlags);
      started.push(till);
      return till;
    };
    try {
      const ports = await freePorts(7);
      // A real entry to copy: one order rung up on a core in store mode.
      const sample = await start(config(seedDataDir(), 'Sample', 'S', 'on', ports[0]!, []));
      await sample.request({ type: 'place', count: 1, intervalMs: 0, table: '1' }, 'placed');
      await sample.stop();
      const template = firstLogBody(sample.dataDir);

      const bareNodeMb = await bareNodeRss();
      // The raw limit: the same process, store mode off, on an empty store, worked the same way.
      const bare = await start(config(seedDataDir(), 'Bare', 'Z', 'off', ports[1]!, []));
      const bareFigures = await workAndMeasure(bare, 0);
      const bareStatusMs = await statusTime(bare);
      await bare.stop();

      const files = await writeStore(template);
      const tillPort = ports[2]!;
      const peerPorts = PEERS.map((_, i) => ports[3 + i]!);
      const address = (port: number) => `127.0.0.1:${port}`;
      const peers = await Promise.all(
        files.peers.map((peer, i) =>
          start(config(peer.dataDir, peer.name, peer.letter, 'on', peerPorts[i]!, [tillPort, ...peerPorts.filter((_, j) => j !== i)].map(address))),
        ),
      );
      const till = await start(config(files.till.dataDir, 'Counter', 'T', 'on', tillPort, peerPorts.map(address)), TILL_FLAGS);
      // The feeds work both ways: an order rung up on each peer is listed here (this till pulled it)...
      await Promise.all(peers.map((peer) => peer.request({ type: 'place', count: 1, intervalMs: 0, table: '40' }, 'placed')));
      const listed = PEERS.length * (OPEN_PER_TILL + 1);
      await waitForListed(till, listed);
      const storeFigures = await workAndMeasure(till, listed);
      // ...and what this till rang up meanwhile is listed on a peer (it pulled them), beside the other two peers' one each.
      await waitForListed(peers[0]!, WORK_ROUNDS * PLACED_PER_ROUND + PEERS.length - 1);
      const peerRss = peers.map((p) => `${p.name} ${mb(procMemory(p.child.pid as number).rssKb).toFixed(0)} MB`).join(', ');
      for (const line of [bareFigures.timeline, storeFigures.timeline, bareFigures.breakdown, storeFigures.breakdown, `peers (${PEER_ORDERS} orders each in their logs): ${peerRss}`]) process.stderr.write(`  ${line}\n`);
      // A till joining the store on an empty file: its first catch-up of the three peers' logs.
      const joiner = await start(config(seedDataDir(), 'Joiner', 'J', 'on', ports[6]!, peerPorts.map(address)), TILL_FLAGS);
      const joined = await catchUp(joiner, listed);
      process.stderr.write(`  ${joined.timeline}\n`);
      await joiner.stop();
      // Last, once the memory figures are taken: a status that does not answer blocks the till's thread.
      const statusMs = await statusTime(till);
      if (statusMs === null) {
        process.stderr.write(`  storeMode.status did not answer within ${STATUS_WAIT_MS} ms: the till is killed\n`);
        till.child.kill('SIGKILL');
      }

      const what = `till RSS, store mode on, 3 peers live, ${OWN_ORDERS.toLocaleString('en-US')} own orders + ${(PEERS.length * PEER_ORDERS).toLocaleString('en-US')} replicated`;
      return [
        row({
          name: `${what}: peak (VmHWM, start-up included)`,
          value: storeFigures.peakMb,
          unit: 'MB',
          baselineName: 'same core, store mode off, empty store: peak',
          baseline: bareFigures.peakMb,
          better: 'lower',
          target: `< ${TARGET_MB} MB`,
          ok: storeFigures.peakMb < TARGET_MB,
        }),
        row({
          name: `${what}: while worked (highest VmRSS sampled)`,
          value: storeFigures.workedMaxMb,
          unit: 'MB',
          baselineName: 'same core, store mode off, empty store: same',
          baseline: bareFigures.workedMaxMb,
          better: 'lower',
          target: `< ${TARGET_MB} MB`,
          ok: storeFigures.workedMaxMb < TARGET_MB,
        }),
        row({
          name: `${what}: settled ${SETTLE_MS / 1000} s after (VmRSS)`,
          value: storeFigures.settledMb,
          unit: 'MB',
          baselineName: 'same core, store mode off, empty store: settled',
          baseline: bareFigures.settledMb,
          better: 'lower',
          target: `< ${TARGET_MB} MB`,
          ok: storeFigures.settledMb < TARGET_MB,
        }),
        row({
          name: `a till joining on an empty file: first catch-up of ${PEERS.length} × ${(PEER_ORDERS + 1).toLocaleString('en-US')} entries from the live peers (${joined.ms === null ? `NOT DONE within ${CATCH_UP_WAIT_MS / 1000} s` : `${(joined.ms / 1000).toFixed(1)} s`}): peak (VmHWM)`,
          value: joined.peakMb,
          unit: 'MB',
          baselineName: 'same core, store mode off, empty store: peak',
          baseline: bareFigures.peakMb,
          better: 'lower',
          target: `< ${TARGET_MB} MB`,
          ok: joined.ms !== null && joined.peakMb < TARGET_MB,
        }),
        row({
          name: `storeMode.status answer on that till (${PEERS.length} × ${PEER_ORDERS.toLocaleString('en-US')} replicated orders)${statusMs === null ? ': NO ANSWER, bench stopped waiting' : ''}`,
          value: statusMs ?? STATUS_WAIT_MS,
          unit: statusMs === null ? 'ms (>)' : 'ms',
          baselineName: 'same command, bare core (store mode off)',
          baseline: bareStatusMs ?? Number.NaN,
          better: 'lower',
          target: `answers (bench waits ${STATUS_WAIT_MS / 1000} s)`,
          ok: statusMs !== null,
        }),
        row({
          name: 'bare core, store mode off, empty store: settled (VmRSS), the limit above',
          value: bareFigures.settledMb,
          unit: 'MB',
          baselineName: 'bare Node process, better-sqlite3 + undici + pino + zod loaded, idle',
          baseline: bareNodeMb,
          better: 'lower',
          target: 'informational',
          ok: true,
        }),
      ];
    } finally {
      await Promise.all(started.map((t) => t.stop()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      if (tillBundle !== null) for (const file of [tillBundle, `${tillBundle}.map`]) rmSync(file, { force: true });
    }
  },
};

export default suite;
