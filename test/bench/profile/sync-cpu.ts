// `npm run profile:sync -- pull [orders]` or `-- drain [orders]`: one pull (or drain) against the
// benchmark sandbox in its own process, reporting the rate and the CPU each side spent per record
// (this process from process.cpuUsage, the sandbox from /proc/<pid>/stat). The bench gives the
// ratio; this says where the time goes. Add `node --cpu-prof` (this process) or
// SANDBOX_CPU_PROF=<dir> (the sandbox) and read the profiles with ./summarise.ts.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../../../common/clock';
import { silentLogger } from '../../../common/log';
import { openStore } from '../../../store/index';
import { ApiClient } from '../../../sync/api-client';
import { ApiKeyCredentials } from '../../../sync/credentials';
import { DEFAULT_TUNING } from '../../../sync/engine';
import { Puller } from '../../../sync/pull';
import { OutboxPusher } from '../../../sync/push';
import { queueBenchOrders, type BenchSandboxInfo } from '../bench-orders';

const [mode = 'pull', countArg] = process.argv.slice(2);
if (mode !== 'pull' && mode !== 'drain') throw new Error(`usage: sync-cpu.ts pull|drain [orders], not ${mode}`);
const count = Number(countArg ?? (mode === 'pull' ? 50_000 : 5_000));

const fixture = fileURLToPath(new URL('../../sync/fixtures/bench-sandbox.ts', import.meta.url));
const profileDir = process.env.SANDBOX_CPU_PROF;
const sandbox = spawn(process.execPath, [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), '--import', 'tsx', fixture, String(mode === 'pull' ? count : 0)], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const info = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: sandbox.stdout! }).once('line', resolve))) as BenchSandboxInfo;

/** CPU milliseconds the sandbox process has used (utime + stime, in 10 ms clock ticks). */
function sandboxCpuMs(): number {
  const fields = readFileSync(`/proc/${sandbox.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const api = new ApiClient({ baseUrl: info.baseUrl, credentials: new ApiKeyCredentials(async () => info.apiKey), connections: 16 });
const store = openStore(join(mkdtempSync(join(tmpdir(), 'profile-sync-')), 'terminal.db'));

async function pull(into = store): Promise<number> {
  const puller = new Puller({ api, store: into, clock: systemClock, logger: silentLogger, tuning: DEFAULT_TUNING.pull });
  return (await puller.fullPull(puller.orderScope(null))).records;
}

/** As the bench does: a first pull into a throwaway store, so the measured one runs compiled code. */
async function warmUp(): Promise<void> {
  const scratch = openStore(join(mkdtempSync(join(tmpdir(), 'profile-sync-')), 'warm-up.db'));
  try {
    await pull(scratch);
  } finally {
    scratch.close();
  }
}

async function drain(): Promise<number> {
  const pusher = new OutboxPusher({ api, store, clock: systemClock, logger: silentLogger, tuning: { ...DEFAULT_TUNING.push, concurrency: 16 } });
  while (store.outbox.unfinishedCount() > 0) {
    const result = await pusher.drain();
    if (result.halt) throw new Error(`drain halted: ${result.halt.error.message}`);
  }
  return count;
}

try {
  await (mode === 'pull' ? warmUp() : queueBenchOrders(store, info, count, 'profile'));
  const cpuBefore = process.cpuUsage();
  const sandboxBefore = sandboxCpuMs();
  const started = performance.now();
  const records = mode === 'pull' ? await pull() : await drain();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const terminalMs = (cpu.user + cpu.system) / 1000;
  const sandboxMs = sandboxCpuMs() - sandboxBefore;
  const perRecord = (ms: number) => `${((ms * 1000) / records).toFixed(1)} µs`;
  console.log(
    `${mode}: ${records} records in ${wallMs.toFixed(0)} ms = ${Math.round((records / wallMs) * 1000)}/s; ` +
      `CPU per record: terminal ${perRecord(terminalMs)}, sandbox ${perRecord(sandboxMs)}`,
  );
} finally {
  store.close();
  await api.close();
  sandbox.stdin!.end();
}
