// `npx tsx test/bench/profile/first-sync-memory.ts [orders] [latency ms] [-- node flags...]`: the
// sync bench's first-sync memory row alone (100,000 orders through 50 ms by default), for working
// on the pull's memory: the same bench sandbox in its own process and the same bundled terminal
// run by plain node (test/sync/fixtures/first-sync-terminal.ts). Node flags after `--` go to the
// terminal (`--trace-gc`, `--heap-prof`, `--max-semi-space-size=2`...). Prints the terminal's report.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { request } from 'undici';
import type { BenchSandboxInfo } from '../bench-orders';

const args = process.argv.slice(2);
const dashDash = args.indexOf('--');
const [ordersArg, latencyArg] = dashDash === -1 ? args : args.slice(0, dashDash);
const nodeFlags = dashDash === -1 ? [] : args.slice(dashDash + 1);
const orders = Number(ordersArg ?? 100_000);
const latencyMs = Number(latencyArg ?? 50);

const fixture = (name: string) => fileURLToPath(new URL(`../../sync/fixtures/${name}`, import.meta.url));
const sandbox = spawn(process.execPath, ['--import', 'tsx', fixture('bench-sandbox.ts'), String(orders)], { stdio: ['pipe', 'pipe', 'inherit'] });
const info = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: sandbox.stdout! }).once('line', resolve))) as BenchSandboxInfo;
try {
  const res = await request(`${info.dashboardApiUrl}/faults`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latency_ms: latencyMs }) });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`could not set latency_ms: ${res.statusCode}`);
  const bundle = join(process.cwd(), 'node_modules', '.cache', 'sync-bench', 'first-sync-terminal-profile.mjs');
  await build({ entryPoints: [fixture('first-sync-terminal.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: bundle, logLevel: 'silent' });
  const terminal = spawn(process.execPath, [...nodeFlags, '--expose-gc', bundle, info.baseUrl, info.apiKey, info.ordersLocationId], { stdio: ['ignore', 'pipe', 'inherit'] });
  // --trace-gc and the like print on stdout too: they go to stderr; the report is the JSON line.
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: terminal.stdout! }).on('line', (text) => (text.startsWith('{') ? resolve(text) : process.stderr.write(`${text}\n`))),
  );
  const report = JSON.parse(line) as Record<string, unknown>;
  const mb = (bytes: unknown) => (typeof bytes === 'number' ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes);
  console.log(JSON.stringify({ ...report, idle: mb(report.idle), peak: mb(report.peak), end: mb(report.end) }, null, 1));
  await new Promise((resolve) => terminal.once('exit', resolve));
} finally {
  sandbox.stdin!.end();
}
