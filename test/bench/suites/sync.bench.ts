// The sync engine's throughput, each figure next to its raw limit measured in the same run:
// draining queued orders vs the sandbox's raw rate for the same POSTs (autocannon), a full pull vs plain undici
// GETs of the same pages, webhook ingest vs stripe-node's constructEvent plus a raw insert, and
// the terminal's memory with 100,000 orders in its database and its peak during a first sync of
// 100,000. The sandbox runs in its own process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { build } from 'esbuild';
import Stripe from 'stripe';
import { Agent, request } from 'undici';
import { signatureHeader } from '../../../api/signature';
import { systemClock } from '../../../common/clock';
import { newId } from '../../../common/ids';
import { silentLogger } from '../../../common/log';
import { openStore, type Store } from '../../../store/index';
import { ApiClient, type ApiCall, type ApiResult } from '../../../sync/api-client';
import { ApiKeyCredentials } from '../../../sync/credentials';
import { DEFAULT_TUNING } from '../../../sync/engine';
import { Puller } from '../../../sync/pull';
import { buildRequest, ReferenceResolver } from '../../../sync/operations';
import { OutboxPusher } from '../../../sync/push';
import { ORDER_METADATA } from '../../../sync/server-records';
import { queueBenchOrders, type BenchSandboxInfo } from '../bench-orders';
import { row, type BenchRow, type BenchSuite } from '../harness';

interface AutocannonResult {
  requests: { average: number };
  non2xx: number;
  errors: number;
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
type Autocannon = (options: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Each request made afresh by `setupRequest` before it is sent. */
  requests?: { setupRequest: (request: AutocannonRequest) => AutocannonRequest }[];
  connections: number;
  duration: number;
}) => Promise<AutocannonResult>;
// autocannon ships no types; this is the slice of its API used here.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const fixture = (name: string) => fileURLToPath(new URL(`../../sync/fixtures/${name}`, import.meta.url));
const CONCURRENCY = 16;
const DRAIN_ORDERS = 10_000;
const PULL_ORDERS = 50_000;
const LATENCY_MS = 50;
const WEBHOOK_EVENTS = 10_000;
const MEMORY_ORDERS = 100_000;


/** Runs a fixture in its own process; its first stdout line is JSON, the rest comes at close (stdin end). */
async function child<T>(args: string[]): Promise<{ info: T; close: () => Promise<string[]> }> {
  const proc: ChildProcess = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const reader = createInterface({ input: proc.stdout! });
  const first = new Promise<string>((resolve, reject) => {
    reader.on('line', (line) => {
      if (lines.length === 0) resolve(line);
      lines.push(line);
    });
    proc.once('exit', (code) => reject(new Error(`${args.at(-1)} exited with ${code}`)));
  });
  const line = await first;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    info: JSON.parse(line) as T,
    close: async () => {
      proc.stdin!.end();
      await exited;
      return lines.slice(1);
    },
  };
}

function childSandbox(extraOrders: number) {
  return child<BenchSandboxInfo>(['--import', 'tsx', fixture('bench-sandbox.ts'), String(extraOrders)]);
}

function tempStore(): Store {
  return openStore(join(mkdtempSync(join(tmpdir(), 'bench-sync-')), 'terminal.db'));
}

function failures(result: AutocannonResult): string {
  return result.non2xx + result.errors > 0 ? ` (${result.non2xx + result.errors} failed)` : '';
}

async function drainBench(): Promise<BenchRow> {
  const sandbox = await childSandbox(0);
  const store = tempStore();
  const api = new ApiClient({ baseUrl: sandbox.info.baseUrl, credentials: new ApiKeyCredentials(async () => sandbox.info.apiKey), connections: CONCURRENCY });
  try {
    await queueBenchOrders(store, sandbox.info, DRAIN_ORDERS, 'bench');

    // The raw limit sends what the engine sends: the body it builds for a queued order (metadata
    // included) with a fresh operation and local id each time, under a fresh Idempotency-Key,
    // which the sandbox stores with the order in one transaction as it would for the engine.
    const [sample] = store.outbox.readyOperations(Date.now(), 1);
    const template = buildRequest(new ReferenceResolver(store), sample!).body!;
    const headers = { authorization: `Bearer ${sandbox.info.apiKey}`, accept: 'application/json', 'content-type': 'application/json' };
    const url = `${sandbox.info.baseUrl}/orders`;
    const engineLike = (duration: number) =>
      autocannon({
        url,
        method: 'POST',
        headers,
        requests: [
          {
            setupRequest: (request) => {
              const opId = newId('op_');
              const body = { ...template, metadata: { [ORDER_METADATA.operationId]: opId, [ORDER_METADATA.localId]: newId('ord_') } };
              return { ...request, headers: { ...headers, 'idempotency-key': opId }, body: JSON.stringify(body) };
            },
          },
        ],
        connections: CONCURRENCY,
        duration,
      });
    // Warm-up: the sandbox's code is compiled by the time the drain runs; so it must be for the limit.
    await engineLike(2);
    const sameRequests = await engineLike(4);
    // The bare figure (one fixed body, no metadata, no key) stays in view, next to the fair one.
    const bare = await autocannon({ url, method: 'POST', headers, body: JSON.stringify({ ...template, metadata: undefined }), connections: CONCURRENCY, duration: 4 });

    const pusher = new OutboxPusher({ api, store, clock: systemClock, logger: silentLogger, tuning: { ...DEFAULT_TUNING.push, concurrency: CONCURRENCY } });
    const started = performance.now();
    while (store.outbox.unfinishedCount() > 0) {
      const result = await pusher.drain();
      if (result.halt) throw new Error(`drain halted: ${result.halt.error.message}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const rate = DRAIN_ORDERS / seconds;
    const raw = sameRequests.requests.average;
    return row({
      name: `drain ${DRAIN_ORDERS.toLocaleString('en-US')} queued orders (3 lines), ${CONCURRENCY} in flight, durable claims + group commits`,
      value: rate,
      unit: 'orders/s',
      baselineName: `autocannon POST /v1/orders, ${CONCURRENCY} connections, the engine's body + metadata, a new Idempotency-Key each${failures(sameRequests)} (bare: no key, no metadata ${Math.round(bare.requests.average).toLocaleString('en-US')}/s${failures(bare)})`,
      baseline: raw,
      better: 'higher',
      target: '≥ 0.7× raw POST rate (same requests)',
      ok: rate / raw >= 0.7 && store.outbox.listDeadLetters().length === 0 && sameRequests.non2xx + sameRequests.errors === 0,
    });
  } finally {
    await api.close();
    store.close();
    await sandbox.close();
  }
}

/** Records every order-list request the puller makes, so the raw run fetches the same pages. */
class RecordingClient extends ApiClient {
  readonly urls: string[] = [];
  override async call<T>(call: ApiCall<T>): Promise<ApiResult<T>> {
    if (call.method === 'GET' && call.path === '/orders') {
      const url = new URL(this.baseUrl + call.path);
      for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
      this.urls.push(url.toString());
    }
    return super.call(call);
  }
}

async function pullBench(): Promise<BenchRow[]> {
  const sandbox = await childSandbox(PULL_ORDERS);
  const credentials = new ApiKeyCredentials(async () => sandbox.info.apiKey);
  const tuning = DEFAULT_TUNING.pull;
  try {
    // Warm-up pull (and the list of pages it reads).
    const recorder = new RecordingClient({ baseUrl: sandbox.info.baseUrl, credentials });
    const warmStore = tempStore();
    await new Puller({ api: recorder, store: warmStore, clock: systemClock, logger: silentLogger, tuning }).fullPull(new Puller({ api: recorder, store: warmStore, clock: systemClock, logger: silentLogger, tuning }).orderScope(null));
    warmStore.close();
    await recorder.close();

    // Raw: the same pages with plain undici GETs, one after the other, parsed, nothing stored.
    const agent = new Agent({ connections: 1 });
    let rawRecords = 0;
    const rawStarted = performance.now();
    for (const url of recorder.urls) {
      const res = await request(url, { dispatcher: agent, headers: { authorization: `Bearer ${sandbox.info.apiKey}` } });
      rawRecords += ((await res.body.json()) as { data: unknown[] }).data.length;
    }
    const rawRate = rawRecords / ((performance.now() - rawStarted) / 1000);
    await agent.close();

    const { rate, stored } = await timedPull(sandbox.info.baseUrl, credentials);
    // The same pull through a real network's round trip: the sandbox waits 50 ms before each request.
    await setLatency(sandbox.info, LATENCY_MS);
    const latent = await timedPull(sandbox.info.baseUrl, credentials);
    await setLatency(sandbox.info, 0);
    return [
      row({
      name: `full pull of ${sandbox.info.orders.toLocaleString('en-US')} orders, per_page=100, keyset pages, each page + cursor one commit`,
      value: rate,
      unit: 'records/s',
      baselineName: `undici GETs of the same ${recorder.urls.length} pages, parsed, not stored`,
      baseline: rawRate,
      better: 'higher',
      target: '≥ 0.8× raw page fetch',
      ok: rate / rawRate >= 0.8 && stored === sandbox.info.orders,
      }),
      row({
        name: `full pull of ${sandbox.info.orders.toLocaleString('en-US')} orders through ${LATENCY_MS} ms of latency per request, ${tuning.streams} keyset streams`,
        value: latent.rate,
        unit: 'records/s',
        baselineName: 'the same pull on loopback, measured just before',
        baseline: rate,
        better: 'higher',
        target: '≥ 0.8× loopback',
        ok: latent.rate / rate >= 0.8 && latent.stored === sandbox.info.orders,
      }),
    ];
  } finally {
    await sandbox.close();
  }
}

/** A full order pull into a fresh store: records/s, and how many orders it stored. */
async function timedPull(baseUrl: string, credentials: ApiKeyCredentials): Promise<{ rate: number; stored: number }> {
  const api = new ApiClient({ baseUrl, credentials });
  const store = tempStore();
  try {
    const puller = new Puller({ api, store, clock: systemClock, logger: silentLogger, tuning: DEFAULT_TUNING.pull });
    const started = performance.now();
    const result = await puller.fullPull(puller.orderScope(null));
    const rate = result.records / ((performance.now() - started) / 1000);
    return { rate, stored: (store.db.prepare(`SELECT COUNT(*) AS n FROM orders WHERE layer = 'base'`).get() as { n: number }).n };
  } finally {
    store.close();
    await api.close();
  }
}

async function setLatency(info: BenchSandboxInfo, latencyMs: number): Promise<void> {
  const res = await request(`${info.dashboardApiUrl}/faults`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latency_ms: latencyMs }) });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`could not set latency_ms: ${res.statusCode}`);
}

async function webhookBench(): Promise<BenchRow> {
  const secret = 'whsec_bench_secret';
  const terminal = await child<{ url: string }>(['--import', 'tsx', fixture('webhook-terminal.ts'), join(mkdtempSync(join(tmpdir(), 'bench-webhook-')), 'terminal.db'), secret]);
  const receiver = terminal.info;
  const nowIso = new Date().toISOString();
  const bodies = Array.from({ length: WEBHOOK_EVENTS }, (_, n) => {
    const id = newId('ord_');
    return JSON.stringify({
      id: newId('evt_'),
      type: 'order.created',
      created_at: nowIso,
      test: false,
      data: {
        id,
        type: 'order',
        attributes: {
          id, object: 'order', location_id: 'loc_bench', status: 'open', currency: 'usd', customer: null, total: 1200 + n, amount_paid: 0, metadata: {},
          items: [{ id: newId('li_'), menu_item_id: 'mi_bench', name: 'Soup', quantity: 2, price: 600, modifiers: [] }],
          created_at: nowIso, updated_at: nowIso, fulfilled_at: null, cancelled_at: null,
        },
      },
    });
  });
  try {
    // Raw: stripe-node's verification and one plain insert per event, in process, no HTTP.
    const stripe = new Stripe('sk_test_bench');
    const raw = new BetterSqlite3(join(mkdtempSync(join(tmpdir(), 'bench-raw-')), 'raw.db'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = FULL');
    raw.exec('CREATE TABLE inbox (event_id TEXT PRIMARY KEY, payload TEXT NOT NULL)');
    const insert = raw.prepare('INSERT INTO inbox (event_id, payload) VALUES (?, ?)');
    const t = Math.floor(Date.now() / 1000);
    const headers = bodies.map((body) => signatureHeader(secret, body, t));
    const rawStarted = performance.now();
    bodies.forEach((body, i) => {
      const event = stripe.webhooks.constructEvent(body, headers[i]!, secret);
      insert.run(event.id, body);
    });
    const rawRate = WEBHOOK_EVENTS / ((performance.now() - rawStarted) / 1000);
    raw.close();

    const agent = new Agent({ connections: 32 });
    let next = 0;
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < bodies.length) {
          const i = next++;
          const res = await request(receiver.url, { method: 'POST', dispatcher: agent, body: bodies[i], headers: { 'content-type': 'application/json', 'service-signature': headers[i]! } });
          await res.body.text();
          if (res.statusCode !== 200) failures++;
        }
      }),
    );
    const rate = WEBHOOK_EVENTS / ((performance.now() - started) / 1000);
    await agent.close();
    const [report] = await terminal.close();
    const inbox = (JSON.parse(report ?? '{}') as { inbox?: number }).inbox;
    return row({
      name: `webhook ingest over HTTP: verify + durable inbox + apply, 32 connections${failures ? ` (${failures} failed)` : ''}`,
      value: rate,
      unit: 'events/s',
      baselineName: 'stripe-node constructEvent + one raw SQLite insert each, in process',
      baseline: rawRate,
      better: 'higher',
      target: '≥ 5,000 events/s',
      ok: rate >= 5_000 && failures === 0 && inbox === WEBHOOK_EVENTS,
    });
  } finally {
    await terminal.close().catch(() => undefined);
  }
}

async function memoryBench(): Promise<BenchRow> {
  const sandbox = await childSandbox(0);
  const file = join(mkdtempSync(join(tmpdir(), 'bench-memory-')), 'terminal.db');
  const store = openStore(file);
  const now = Date.now();
  for (let offset = 0; offset < MEMORY_ORDERS; offset += 1_000) {
    store.transaction(() => {
      for (let i = offset; i < offset + 1_000; i++) {
        store.server.applyServerRecord('order', {
          id: newId('ord_', now - MEMORY_ORDERS + i),
          location_id: sandbox.info.locationId,
          status: 'fulfilled',
          currency: 'usd',
          customer: null,
          notes: '',
          lines: [{ menu_item_id: 'mi_bench', name: 'Soup', quantity: 2, unit_price: 600, modifiers: [] }],
          total: 1200,
          created_at: now - MEMORY_ORDERS + i,
          updated_at: now - MEMORY_ORDERS + i,
        });
      }
    });
  }
  store.close();
  try {
    // The app ships bundled (main/ is built with esbuild): measure a bundle run by plain node,
    // not the TypeScript loader, whose worker thread would count against the terminal.
    const bundle = join(process.cwd(), 'node_modules', '.cache', 'sync-bench', 'memory-terminal.mjs');
    await build({ entryPoints: [fixture('memory-terminal.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: bundle, logLevel: 'silent' });
    const terminal = await child<{ rss: number; orders: number; lastPullAt: number | null; lastError: string | null }>(['--expose-gc', bundle, file, sandbox.info.baseUrl, sandbox.info.apiKey, sandbox.info.locationId]);
    const report = terminal.info;
    await terminal.close();
    const mb = report.rss / 1024 / 1024;
    return row({
      name: `terminal RSS with ${MEMORY_ORDERS.toLocaleString('en-US')} orders in its database, after first sync${report.lastPullAt === null ? ' (pull did not finish)' : ''}`,
      value: mb,
      unit: 'MB',
      baselineName: 'budget',
      baseline: 150,
      better: 'lower',
      target: '< 150 MB',
      ok: mb < 150 && report.orders === 50 && report.lastPullAt !== null,
    });
  } finally {
    await sandbox.close();
  }
}

/** Orders a fresh till pulls in the first-sync memory row (the issue's budget: < 150 MB at all times). */
const FIRST_SYNC_ORDERS = 100_000;

/**
 * The terminal's peak RSS during a first sync of FIRST_SYNC_ORDERS orders through LATENCY_MS of
 * latency per request (an empty store, the engine's defaults, the bundle run by plain node),
 * sampled every 20 ms and at every status, next to the same process's RSS before it started.
 */
async function firstSyncMemoryBench(): Promise<BenchRow> {
  const sandbox = await childSandbox(FIRST_SYNC_ORDERS);
  try {
    await setLatency(sandbox.info, LATENCY_MS);
    const bundle = join(process.cwd(), 'node_modules', '.cache', 'sync-bench', 'first-sync-terminal.mjs');
    await build({ entryPoints: [fixture('first-sync-terminal.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: bundle, logLevel: 'silent' });
    const terminal = await child<{ idle: number; peak: number; end: number; ms: number; done: boolean; lastError: string | null }>([
      '--expose-gc',
      bundle,
      sandbox.info.baseUrl,
      sandbox.info.apiKey,
      sandbox.info.ordersLocationId,
    ]);
    const report = terminal.info;
    await terminal.close();
    const mb = (bytes: number) => bytes / 1024 / 1024;
    return row({
      name: `terminal peak RSS during a first sync of ${FIRST_SYNC_ORDERS.toLocaleString('en-US')} orders through ${LATENCY_MS} ms (${(report.ms / 1000).toFixed(0)} s; ${mb(report.end).toFixed(0)} MB at the end)${report.done ? '' : ' (did not finish)'}`,
      value: mb(report.peak),
      unit: 'MB',
      baselineName: 'idle RSS of the same process before sync',
      baseline: mb(report.idle),
      better: 'lower',
      target: '< 150 MB at all times',
      ok: mb(report.peak) < 150 && report.done,
    });
  } finally {
    await sandbox.close();
  }
}

const suite: BenchSuite = {
  name: 'sync',
  async run(): Promise<BenchRow[]> {
    return [await drainBench(), ...(await pullBench()), await webhookBench(), await memoryBench(), await firstSyncMemoryBench()];
  },
};

export default suite;
