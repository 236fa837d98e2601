// `npm run profile:pull-budget [orders]`: what a full order pull may spend per record to reach
// 0.8× the raw page fetch, against what its unavoidable parts cost on this machine, all in one run.
// The raw fetch loop gives the budget (its wall time per record ÷ 0.8) and the client's own floor
// (HTTP + JSON.parse); the captured pages then go through each later stage alone: the client's
// zod validation, the record conversion, the store's page transactions, and the same rows written
// by bare better-sqlite3 statements (the SQLite floor). Last, a real pull, with its main thread's CPU.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { clientListEnvelopeSchema, clientOrderSchema, type ClientOrder } from '../../../api/client-records';
import { systemClock } from '../../../common/clock';
import { silentLogger } from '../../../common/log';
import { openStore, type ServerRecord, type Store } from '../../../store/index';
import { ApiClient } from '../../../sync/api-client';
import { ApiKeyCredentials } from '../../../sync/credentials';
import { DEFAULT_TUNING } from '../../../sync/engine';
import { Puller } from '../../../sync/pull';
import { claimOwnOrders, orderRecord } from '../../../sync/server-records';
import type { BenchSandboxInfo } from '../bench-orders';

const count = Number(process.argv[2] ?? 50_000);
const PER_PAGE = DEFAULT_TUNING.pull.perPage;
const fixture = fileURLToPath(new URL('../../sync/fixtures/bench-sandbox.ts', import.meta.url));
const sandbox = spawn(process.execPath, ['--import', 'tsx', fixture, String(count)], { stdio: ['pipe', 'pipe', 'inherit'] });
const info = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: sandbox.stdout! }).once('line', resolve))) as BenchSandboxInfo;
const scratch = mkdtempSync(join(tmpdir(), 'pull-budget-'));
let stores = 0;
const freshStore = (): Store => openStore(join(scratch, `store-${++stores}.db`));

/** CPU milliseconds of a process or thread from /proc (utime + stime, 10 ms clock ticks). */
function cpuMs(stat: string): number {
  const fields = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const mainThread = `/proc/${process.pid}/task/${process.pid}/stat`;
const wholeTerminal = `/proc/${process.pid}/stat`;
const sandboxProcess = `/proc/${sandbox.pid}/stat`;

/** Runs `fn` three times (the first warms the JIT up) and returns the fastest µs per record. */
function fastest(records: number, fn: () => void): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    fn();
    if (round > 0) best = Math.min(best, ((performance.now() - started) * 1000) / records);
  }
  return best;
}

/** The pages a keyset pull asks for, as the puller does: created_after the last record minus 1 ms. */
async function pageUrls(agent: Agent): Promise<string[]> {
  const urls: string[] = [];
  let after: string | undefined;
  for (;;) {
    const url = `${info.baseUrl}/orders?per_page=${PER_PAGE}${after === undefined ? '' : `&created_after=${encodeURIComponent(after)}`}`;
    urls.push(url);
    const res = await request(url, { dispatcher: agent, headers: { authorization: `Bearer ${info.apiKey}` } });
    const { data } = (await res.body.json()) as { data: { created_at: string }[] };
    if (data.length < PER_PAGE) return urls;
    after = new Date(Date.parse(data[data.length - 1]!.created_at) - 1).toISOString();
  }
}

/** The bench's raw loop: the same pages one after the other, parsed, nothing stored. */
async function rawFetch(agent: Agent, urls: readonly string[], keep = false): Promise<{ bodies: string[]; records: number; wallUs: number; cpuUs: number }> {
  const bodies: string[] = [];
  let records = 0;
  const cpuBefore = cpuMs(mainThread);
  const started = performance.now();
  for (const url of urls) {
    const res = await request(url, { dispatcher: agent, headers: { authorization: `Bearer ${info.apiKey}` } });
    const text = await res.body.text();
    records += (JSON.parse(text) as { data: unknown[] }).data.length;
    if (keep) bodies.push(text);
  }
  const wallUs = ((performance.now() - started) * 1000) / records;
  return { bodies, records, wallUs, cpuUs: ((cpuMs(mainThread) - cpuBefore) * 1000) / records };
}

function applyPages(store: Store, pages: readonly { data: ClientOrder[]; records: ServerRecord[] }[]): void {
  pages.forEach(({ data, records }, n) =>
    store.refetchableTransaction(() => {
      claimOwnOrders(store, data);
      store.server.applyPullPage({ kind: 'order', scope: 'order:all', records, cursor: String(n), pullStartedAt: 1 });
    }),
  );
}

/** The rows the store wrote, written again page by page with bare statements: rows, self-links, cursor, commit. */
function sqliteFloor(written: Store, pageSizes: readonly number[]): number {
  const rows = written.db.prepare(`SELECT * FROM orders WHERE layer = 'base' ORDER BY rowid`).raw().all() as unknown[][];
  const columns = (written.db.prepare(`SELECT * FROM orders LIMIT 0`).columns() as { name: string }[]).map((c) => c.name);
  const placeholders = `(${columns.map(() => '?').join(', ')})`;
  const idColumn = columns.indexOf('id');
  return fastest(rows.length, () => {
    const store = freshStore();
    const { db } = store;
    db.pragma('synchronous = NORMAL'); // as the store's pull pages commit (docs/store.md)
    const insert = new Map<number, ReturnType<typeof db.prepare>>();
    const link = db.prepare(`INSERT INTO id_map (entity_kind, local_id, server_id) SELECT 'order', value, value FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`);
    const cursor = db.prepare(`INSERT INTO sync_cursors (scope, cursor, updated_at) VALUES ('order:all', ?, ?) ON CONFLICT (scope) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at`);
    const page = db.transaction((pageRows: unknown[][], n: number) => {
      let statement = insert.get(pageRows.length);
      if (!statement) insert.set(pageRows.length, (statement = db.prepare(`INSERT INTO orders (${columns.join(', ')}) VALUES ${Array(pageRows.length).fill(placeholders).join(', ')}`)));
      statement.run(pageRows.flat());
      link.run(JSON.stringify(pageRows.map((row) => row[idColumn])));
      cursor.run(String(n), Date.now());
    });
    let offset = 0;
    pageSizes.forEach((size, n) => {
      page(rows.slice(offset, offset + size), n);
      offset += size;
    });
    store.close();
  });
}

/** A full pull into a fresh store, as the bench runs it: wall time and this thread's CPU per record. */
async function realPull(api: ApiClient): Promise<{ wallUs: number; mainCpuUs: number; terminalCpuUs: number; sandboxCpuUs: number }> {
  const store = freshStore();
  const puller = new Puller({ api, store, clock: systemClock, logger: silentLogger, tuning: DEFAULT_TUNING.pull });
  const before = [mainThread, wholeTerminal, sandboxProcess].map(cpuMs);
  const started = performance.now();
  const { records } = await puller.fullPull(puller.orderScope(null));
  const wallUs = ((performance.now() - started) * 1000) / records;
  const [mainCpuUs, terminalCpuUs, sandboxCpuUs] = [mainThread, wholeTerminal, sandboxProcess].map((stat, i) => ((cpuMs(stat) - before[i]!) * 1000) / records);
  const result = { wallUs, mainCpuUs: mainCpuUs!, terminalCpuUs: terminalCpuUs!, sandboxCpuUs: sandboxCpuUs! };
  store.close();
  return result;
}

try {
  // In the bench's order: a warm-up pull, the raw loop, the measured pull. The stages come after,
  // from pages fetched again, so their memory does not weigh on the pull.
  const api = new ApiClient({ baseUrl: info.baseUrl, credentials: new ApiKeyCredentials(async () => info.apiKey) });
  await realPull(api);
  const agent = new Agent({ connections: 1 });
  const urls = await pageUrls(agent);
  const raw = await rawFetch(agent, urls);
  const real = await realPull(api);
  await api.close();
  const { bodies } = await rawFetch(agent, urls, true);
  await agent.close();

  const json = bodies.map((body) => JSON.parse(body) as unknown);
  const pageSchema = clientListEnvelopeSchema(clientOrderSchema);
  const validate = () => json.map((page) => pageSchema.parse(page).data as ClientOrder[]);
  const zodUs = fastest(raw.records, validate);
  const validated = validate();
  const convertUs = fastest(raw.records, () => validated.map((data) => data.map(orderRecord)));
  const pages = validated.map((data) => ({ data, records: data.map(orderRecord) }));
  // Pages overlap by a millisecond: the store sees each record once per page it is on.
  const storeUs = fastest(raw.records, () => {
    const store = freshStore();
    applyPages(store, pages);
    store.close();
  });
  const written = freshStore();
  applyPages(written, pages);
  const seen = new Set<string>();
  const newPerPage = pages.map(({ records }) => records.filter((r) => !seen.has(r.id) && seen.add(r.id)).length);
  const floorUs = sqliteFloor(written, newPerPage.filter((n) => n > 0));
  written.close();

  const budget = raw.wallUs / 0.8;
  const floors = raw.cpuUs + zodUs + floorUs;
  const line = (name: string, us: number) => console.log(`${name.padEnd(58)} ${us.toFixed(1).padStart(6)} µs`);
  console.log(`${raw.records} records in ${urls.length} pages of ${PER_PAGE}, µs per record:`);
  line('raw page fetch, wall (sequential GETs, parsed)', raw.wallUs);
  line('budget for 0.8× raw: a pull may take at most', budget);
  console.log('unavoidable on the pull thread:');
  line('  HTTP + JSON.parse (the raw loop\'s own thread CPU)', raw.cpuUs);
  line('  client zod validation of the pages', zodUs);
  line('  SQLite floor: the same rows, links, cursors, commits', floorUs);
  line('  sum', floors);
  line('left in the budget for everything else', budget - floors);
  console.log('what the terminal spends:');
  line('  record conversion (orderRecord)', convertUs);
  line('  store page transactions (incl. the SQLite floor)', storeUs);
  line('  full pull, main thread CPU', real.mainCpuUs);
  line('  full pull, CPU of all its threads', real.terminalCpuUs);
  line('  full pull, wall', real.wallUs);
  line('the sandbox\'s CPU during the pull', real.sandboxCpuUs);
  line('both processes\' CPU over 2 cores: no split of the work beats', (real.terminalCpuUs + real.sandboxCpuUs) / 2);
  console.log(`ratio now ${(raw.wallUs / real.wallUs).toFixed(2)}× raw`);
} finally {
  sandbox.stdin!.end();
  rmSync(scratch, { recursive: true, force: true });
}
