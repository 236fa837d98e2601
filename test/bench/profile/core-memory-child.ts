// The bare core's till for test/bench/profile/core-memory.ts: what the store-mode memory bench's bare
// core does (a real core, store mode off, the owner signed in, a drawer open, orders rung up), with
// the process's memory printed at each step as one JSON line per step on stdout. Argument: the config
// as JSON ({ dataDir, staff, orders }).
import { readFileSync, readdirSync } from 'node:fs';
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from 'node:v8';

interface ProbeConfig {
  dataDir: string;
  staff: { members: { name: string; role: string; pinHash: string }[] };
  orders: number;
  settleMs: number;
}

const config = JSON.parse(process.argv[2] as string) as ProbeConfig;
const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

/** Resident kB of each kind of mapping in /proc/self/smaps: the heap, anonymous, each file. */
function mappings(): Record<string, number> {
  const totals = new Map<string, number>();
  let name = '';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const path = head[1] ?? '';
      name = path === '' ? '[anon]' : path.startsWith('/') ? (path.split('/').pop() ?? path) : path;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) totals.set(name, (totals.get(name) ?? 0) + Number(rss[1]));
  }
  return Object.fromEntries([...totals].filter(([, kb]) => kb >= 512).sort((a, b) => b[1] - a[1]).map(([k, kb]) => [k, Math.round(kb / 102.4) / 10]));
}

/** The largest anonymous mappings by resident size: V8's heap pages, malloc arenas (64 MB reserved each), stacks. */
function largestAnonymous(): string[] {
  const found: { range: string; sizeKb: number; rssKb: number }[] = [];
  let current: { range: string; sizeKb: number; rssKb: number } | null = null;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = head[3] === '' ? { range: head[1]!, sizeKb: (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 1024, rssKb: 0 } : null;
      if (current) found.push(current);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rssKb = Number(rss[1]);
  }
  return found.sort((a, b) => b.rssKb - a.rssKb).slice(0, 12).map((m) => `${(m.rssKb / 1024).toFixed(1)}/${(m.sizeKb / 1024).toFixed(1)}`);
}

function status(field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN) / 1024;
}

function rollup(field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))?.[1] ?? Number.NaN) / 1024;
}

function threads(): string[] {
  return readdirSync('/proc/self/task').map((t) => readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim());
}

function report(step: string): void {
  const usage = process.memoryUsage();
  const heap = getHeapStatistics();
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, `${mb(s.space_size)}/${mb(s.space_used_size)}`]));
  const line = {
    step,
    rss: mb(usage.rss),
    hwm: Math.round(status('VmHWM') * 10) / 10,
    anon: Math.round(rollup('Anonymous') * 10) / 10,
    fileBacked: Math.round((rollup('Rss') - rollup('Anonymous')) * 10) / 10,
    heapTotal: mb(usage.heapTotal),
    heapUsed: mb(usage.heapUsed),
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
    malloced: mb(heap.malloced_memory),
    spaces,
    threads: threads(),
    ...(process.env.PROBE_MAPPINGS ? { mappings: mappings(), anonymous: largestAnonymous() } : {}),
  };
  console.log(JSON.stringify(line));
}

report('node started');
const { TerminalConfig } = await import('../../../main/config/schema');
const { startCore } = await import('../../../main/core/index');
const { createLogger } = await import('../../../common/log');
const pino = (await import('pino')).default;
const { ITEMS, LOCATION, openShift, signIn } = await import('../../core/fixtures');
report('core imported');

const logger = createLogger({ name: 'probe', destination: pino.destination({ dest: 2, sync: true }) });
const core = await startCore(TerminalConfig.parse({ dataDir: config.dataDir, locationId: LOCATION, staff: config.staff, checkout: { tillLetter: 'Z' } }), { logger });
report('core started');
await signIn(core, 'owner');
const shift = await core.invoke({ command: 'shift.current', payload: {} });
if (shift.ok && shift.value === null) await openShift(core);
report('signed in, drawer open');

/**
 * Rings up `config.orders` orders, listing and searching after each, as the bench's rounds do: the
 * ms each orders.place took (the first, the median, the slowest), to see a GC's cost to the register.
 */
async function work(): Promise<string> {
  const took: number[] = [];
  for (let i = 0; i < config.orders; i++) {
    const started = performance.now();
    const placed = await core.invoke({ command: 'orders.place', payload: { lines: [{ menuItemId: ITEMS.fries, quantity: 1 + (i % 3) }], service: { type: 'dine_in', table: String(1 + (i % 9)), guests: 2 } } });
    took.push(performance.now() - started);
    if (!placed.ok) throw new Error(`orders.place: ${placed.error.message}`);
    await core.invoke({ command: 'orders.list', payload: { limit: 100 } });
    await core.invoke({ command: 'orders.list', payload: { search: 'maria', limit: 50 } });
  }
  const sorted = [...took].sort((a, b) => a - b);
  return `orders.place first ${took[0]?.toFixed(1)} ms, median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)}`;
}
report(`worked (${config.orders} orders; ${await work()})`);
await new Promise((resolve) => setTimeout(resolve, config.settleMs));
report(`settled ${config.settleMs / 1000} s`);
if (typeof globalThis.gc === 'function') {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 500));
  report('after a full GC');
}
if (process.env.PROBE_SNAPSHOT) console.error(`heap snapshot: ${writeHeapSnapshot(process.env.PROBE_SNAPSHOT)}`);
// Past the scrypt thread's idle end (main/config/scrypt-thread.ts): what a till left alone holds.
await new Promise((resolve) => setTimeout(resolve, 12_000));
report(`settled ${config.settleMs / 1000 + 12} s`);
report(`worked again (${config.orders} orders; ${await work()})`);
// Once more at once (no trim between): the register's pace once warm, to compare with the line above.
report(`worked a third time (${config.orders} orders; ${await work()})`);
await core.shutdown();
process.exit(0);
