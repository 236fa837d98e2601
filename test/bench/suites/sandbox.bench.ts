// The sandbox's throughput over loopback, measured by autocannon: POST /v1/orders and
// GET /v1/orders?per_page=100, each next to a raw node:http server answering a fixed JSON body of
// the same size, measured the same way in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../../sandbox/index';
import { row, type BenchRow, type BenchSuite } from '../harness';

interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: { url: string; method?: string; headers?: Record<string, string>; body?: string; connections: number; duration: number }) => Promise<AutocannonResult>;
// autocannon ships no types; this is the slice of its API used here.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const DURATION_SEC = 4;
const CONNECTIONS = 10;

async function rawServer(body: string, status: number): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function failures(result: AutocannonResult): number {
  return result.non2xx + result.errors + result.timeouts;
}

const suite: BenchSuite = {
  name: 'sandbox',
  async run(): Promise<BenchRow[]> {
    const folder = mkdtempSync(join(tmpdir(), 'pos-bench-sandbox-'));
    const sandbox = await startSandbox({ dbFile: join(folder, 'sandbox.sqlite'), seed: 'demo' });
    try {
      const headers = { Authorization: `Bearer ${sandbox.credentials.apiKeys.full}`, 'Content-Type': 'application/json' };
      const menu = await (await fetch(`${sandbox.baseUrl}/menu/items?per_page=100&location_id=${sandbox.credentials.locationIds[0]}`, { headers })).json();
      const items = (menu as { data: { id: string; available: boolean; modifiers: { id: string }[] }[] }).data.filter((i) => i.available).slice(0, 3);
      const orderBody = JSON.stringify({
        location_id: sandbox.credentials.locationIds[0],
        items: items.map((i, n) => ({ menu_item_id: i.id, quantity: n + 1, modifiers: i.modifiers.slice(0, 1).map((m) => m.id) })),
        customer: { name: 'Bench', phone: '+1 555 0100' },
      });
      // Same-size replies for the raw servers: one real reply of each operation.
      const createdReply = await (await fetch(`${sandbox.baseUrl}/orders`, { method: 'POST', headers, body: orderBody })).text();
      const pageReply = await (await fetch(`${sandbox.baseUrl}/orders?per_page=100`, { headers })).text();
      const rawCreate = await rawServer(createdReply, 201);
      const rawPage = await rawServer(pageReply, 200);
      try {
        const measure = (url: string, method: 'GET' | 'POST') =>
          autocannon({ url, method, headers, body: method === 'POST' ? orderBody : undefined, connections: CONNECTIONS, duration: DURATION_SEC });
        const sandboxCreate = await measure(`${sandbox.baseUrl}/orders`, 'POST');
        const rawCreateResult = await measure(`${rawCreate.url}/v1/orders`, 'POST');
        const sandboxPage = await measure(`${sandbox.baseUrl}/orders?per_page=100`, 'GET');
        const rawPageResult = await measure(`${rawPage.url}/v1/orders?per_page=100`, 'GET');
        const note = (r: AutocannonResult) => (failures(r) > 0 ? ` (${failures(r)} failed)` : '');
        return [
          row({
            name: `POST /v1/orders, 3 lines, SQLite file, ${CONNECTIONS} connections${note(sandboxCreate)}`,
            value: sandboxCreate.requests.average,
            unit: 'req/s',
            baselineName: `raw node:http, fixed ${Buffer.byteLength(createdReply)} B JSON`,
            baseline: rawCreateResult.requests.average,
            better: 'higher',
            target: '≥ 500 req/s, no failures',
            ok: sandboxCreate.requests.average >= 500 && failures(sandboxCreate) === 0,
          }),
          row({
            name: `POST /v1/orders p99 latency${note(sandboxCreate)}`,
            value: sandboxCreate.latency.p99,
            unit: 'ms p99',
            baselineName: 'raw node:http p99',
            baseline: Math.max(rawCreateResult.latency.p99, 1),
            better: 'lower',
            target: '≤ 100 ms',
            ok: sandboxCreate.latency.p99 <= 100,
          }),
          row({
            name: `GET /v1/orders?per_page=100 (${Math.round(Buffer.byteLength(pageReply) / 1024)} KiB)${note(sandboxPage)}`,
            value: sandboxPage.requests.average,
            unit: 'req/s',
            baselineName: `raw node:http, fixed ${Buffer.byteLength(pageReply)} B JSON`,
            baseline: rawPageResult.requests.average,
            better: 'higher',
            target: '≥ 500 req/s, no failures',
            ok: sandboxPage.requests.average >= 500 && failures(sandboxPage) === 0,
          }),
        ];
      } finally {
        rawCreate.server.close();
        rawPage.server.close();
      }
    } finally {
      await sandbox.close();
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

export default suite;
