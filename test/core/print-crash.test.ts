// A terminal SIGKILLed between "paid" and "printed", 10 times on one data directory: a child
// process (print-crash-child.ts) starts a real core whose receipt printer is down (refusing
// connections, so nothing can print before the kill), sells an order, takes a card payment through
// core.invoke('payments.take') and reports it; the parent kills it at once. Then the printer comes
// back and the core starts once more on the same data: every receipt prints exactly once (counted
// at the printer, per connection), and a further restart prints nothing more. The kill landing
// after a job was marked 'sending' is covered at store level in test/printing/crash.test.ts.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log';
import { TerminalConfig } from '../../main/config/schema';
import { startCore, type Core } from '../../main/core/index';
import { FileSecretStore } from '../../sync/secret-store';
import { childArgs } from '../child-script';
import { FakePrinter } from '../printing/fake-printer';
import { LOCATION, reopenStore, seedDataDir, testStaffConfig } from './fixtures';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'print-crash-child.ts');
const KILLS = 10;
/** After the last receipt arrived: long enough for a duplicate to show up (the worker's first backoff is 250 ms). */
const SETTLE_MS = 1_500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Paid {
  label: string;
  orderId: string;
}

/** Runs the child until it reports the payment, SIGKILLs it on that line, returns what it paid. */
function payAndKill(dataDir: string, printerUrl: string): Promise<Paid> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childArgs(CHILD), dataDir, printerUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let paid: Paid | undefined;
    const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /^paid (\S+) (\S+)$/m.exec(out);
      if (match && !paid) {
        paid = { label: match[1]!, orderId: match[2]! };
        child.kill('SIGKILL');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(guard);
      if (signal !== 'SIGKILL') return reject(new Error(`the child exited on its own (code ${code}): ${err}`));
      if (!paid) return reject(new Error(`the child was killed before it reported a payment: ${out}${err}`));
      resolve(paid);
    });
  });
}

/** The core the child starts, in this process: startTestCore's configuration (its staff provisioned) on an existing data dir. */
function startOn(dataDir: string, printerUrl: string): Promise<Core> {
  return startCore(TerminalConfig.parse({ dataDir, locationId: LOCATION, printing: { receiptPrinter: printerUrl }, staff: testStaffConfig() }), {
    logger: silentLogger,
    secretStore: new FileSecretStore(join(dataDir, 'secrets.json')),
  });
}

/** Order labels (A1, A17, ...) on one printed job, as whole words: A1 is not counted in A10. */
function labelsOn(text: string): Set<string> {
  return new Set(text.match(/\b[A-Z]\d+\b/g) ?? []);
}

/** How many printed jobs of each kind carry each label. Receipts have a TOTAL line; kitchen tickets do not. */
function printedByLabel(printer: FakePrinter): { receipts: Map<string, number>; tickets: Map<string, number> } {
  const receipts = new Map<string, number>();
  const tickets = new Map<string, number>();
  for (const job of printer.decodedJobs()) {
    const tally = /\bTOTAL\b/.test(job.text) ? receipts : tickets;
    for (const label of labelsOn(job.text)) tally.set(label, (tally.get(label) ?? 0) + 1);
  }
  return { receipts, tickets };
}

let printer: FakePrinter | undefined;
let core: Core | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await core?.shutdown();
  core = undefined;
  await printer?.stop();
  printer = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

describe('a terminal killed between the payment and its receipt', () => {
  it(`prints each of ${KILLS} receipts exactly once after the restart, and nothing more after another`, { timeout: 60_000 }, async () => {
    dataDir = seedDataDir();
    const fake = await FakePrinter.start();
    printer = fake;
    await fake.setMode('refuse');

    const paid: Paid[] = [];
    for (let i = 0; i < KILLS; i++) paid.push(await payAndKill(dataDir, fake.url));
    const labels = paid.map((p) => p.label);
    expect(new Set(labels).size, `labels ${labels.join(' ')}`).toBe(KILLS);
    // Nothing reached the printer before a kill: whatever prints now is owed to the restart.
    expect(fake.connections).toHaveLength(0);

    const before = reopenStore(dataDir);
    try {
      const jobs = before.printQueue.list({ limit: 1_000 });
      for (const { orderId, label } of paid) {
        const receipts = jobs.filter((j) => j.orderId === orderId && j.kind === 'receipt');
        expect(receipts.map((j) => j.state), `receipt job of ${label}`).toEqual(['pending']);
      }
      expect(jobs.filter((j) => j.state !== 'pending')).toEqual([]);
    } finally {
      before.close();
    }

    await fake.setMode('up');
    core = await startOn(dataDir, fake.url);
    await fake.waitFor(() => labels.every((label) => (printedByLabel(fake).receipts.get(label) ?? 0) >= 1), `the ${KILLS} receipts`, 20_000);
    await sleep(SETTLE_MS);
    const first = printedByLabel(fake);
    for (const label of labels) {
      expect(first.receipts.get(label), `receipts printed for ${label}`).toBe(1);
      expect(first.tickets.get(label), `kitchen tickets printed for ${label}`).toBe(1);
    }
    expect([...first.receipts.keys()].sort()).toEqual([...labels].sort());
    // One receipt and one kitchen ticket per sale, nothing else, each job a clean connection.
    expect(fake.jobs()).toHaveLength(2 * KILLS);
    expect(fake.jobs().every((c) => c.endedCleanly)).toBe(true);
    await core.shutdown();
    core = undefined;

    const printedBefore = fake.jobs().length;
    core = await startOn(dataDir, fake.url);
    await sleep(SETTLE_MS);
    expect(fake.jobs()).toHaveLength(printedBefore);
    await core.shutdown();
    core = undefined;

    const after = reopenStore(dataDir);
    try {
      const jobs = after.printQueue.list({ limit: 1_000 });
      expect(jobs).toHaveLength(2 * KILLS);
      expect(jobs.filter((j) => j.state !== 'done' || j.attempts !== 1)).toEqual([]);
      for (const { orderId, label } of paid) expect(jobs.filter((j) => j.orderId === orderId).map((j) => j.kind).sort(), label).toEqual(['kitchen', 'receipt']);
    } finally {
      after.close();
    }
  });
});
