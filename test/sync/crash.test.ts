// Crash during push: the terminal (a child process running the engine on a real store file) is
// SIGKILLed mid-drain 20 times. After each restart it resumes; orders found in flight are looked
// for before being sent again. With the server ignoring Idempotency-Key, every order must still
// end on the server exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childArgs } from '../child-script';
import { cleanupAfterEach, OUR_GAP_DECISIONS, allServerOrders, menuFixture, openStore, placeOrder, startSandbox, tempStoreFile, waitFor } from './harness';

const child = fileURLToPath(new URL('./fixtures/engine-child.ts', import.meta.url));
const defer = cleanupAfterEach();

function run(args: string[]): { process: ChildProcess; exited: Promise<number | null>; output: () => string } {
  const proc = spawn(process.execPath, [...childArgs(child), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  proc.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { process: proc, exited, output: () => output };
}

/** 21 child processes, each started, draining and killed: on a loaded 2-core box beside the rest of the suite this takes up to a minute. */
const CRASH_RUNS_TIMEOUT_MS = 150_000;

describe('crash during push', () => {
  it('survives 20 SIGKILLs mid-drain: every order on the server exactly once', async () => {
    const sandbox = await startSandbox({ seed: 'demo' });
    defer(() => sandbox.close());
    sandbox.updateSettings({ idempotency: 'ignore' });
    // Slow replies widen the window in which a kill lands between "sent" and "recorded".
    await sandbox.faults.set({ latency_ms: 15 });
    const menu = await menuFixture(sandbox);
    const file = tempStoreFile();
    const store = openStore(file);
    const localIds = Array.from({ length: 300 }, (_, n) => placeOrder(store, menu, n).id);
    store.close();
    const before = await sandbox.countOrders();
    const args = [file, sandbox.baseUrl, sandbox.credentials.apiKeys.full];

    let kills = 0;
    let runsThatFoundInFlight = 0;
    while (kills < 20) {
      const started = await sandbox.countOrders();
      const terminal = run(args);
      defer(() => void terminal.process.kill('SIGKILL'));
      // Kill once this run has pushed something, at a random point of its drain.
      await waitFor(async () => (await sandbox.countOrders()) > started || terminal.process.exitCode !== null, 30_000, 'the child to push');
      if (terminal.process.exitCode !== null) break; // drained before it could be killed
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 60)));
      terminal.process.kill('SIGKILL');
      await terminal.exited;
      if (/in-flight-at-start [1-9]/.test(terminal.output())) runsThatFoundInFlight++;
      kills++;
    }
    expect(kills).toBe(20);

    const last = run(args);
    expect(await last.exited, last.output()).toBe(0);
    if (/in-flight-at-start [1-9]/.test(last.output())) runsThatFoundInFlight++;
    // The kills did land between sending and recording: restarts found operations in flight.
    expect(runsThatFoundInFlight).toBeGreaterThan(5);
    expect(last.output()).toContain('drained');

    const reopened = openStore(file);
    defer(() => reopened.close());
    expect(reopened.outbox.unfinishedCount()).toBe(0);
    expect(reopened.outbox.listDeadLetters()).toEqual([]);
    expect(await sandbox.countOrders()).toBe(before + localIds.length);
    const serverIds = localIds.map((id) => reopened.serverIdFor('order', id));
    const onServer = new Map((await allServerOrders(sandbox)).map((o) => [o.id, o]));
    expect(new Set(serverIds).size).toBe(localIds.length);
    expect(serverIds.every((id) => id !== undefined && onServer.has(id))).toBe(true);
    if (OUR_GAP_DECISIONS) for (const id of localIds) expect(onServer.get(reopened.serverIdFor('order', id)!)?.metadata.pos_local_id).toBe(id);
  }, CRASH_RUNS_TIMEOUT_MS);
});
