// Starts a till as its own process and talks to it: a bare feed till (fixtures/till-child.ts) or a
// till running a real core (fixtures/core-till.ts). Every process a test starts is killed when the
// test ends, and dies by itself at its deadline anyway.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { childArgs } from '../child-script';
import type { CoreTillConfig } from './fixtures/core-till';
import type { TillChildConfig } from './fixtures/till-child';

const CHILD = resolve(import.meta.dirname, 'fixtures/till-child.ts');
const CORE_CHILD = resolve(import.meta.dirname, 'fixtures/core-till.ts');

export interface TillMessage {
  type: string;
  [key: string]: unknown;
}

export interface TillProcess {
  port: number;
  /** A core till with store mode off has none: do not read it there. */
  tillId: string;
  dataDir: string;
  process: ChildProcess;
  send(message: object): void;
  /** The next message of `type` from now on (or already queued), within `timeoutMs`. */
  next(type: string, timeoutMs?: number): Promise<TillMessage>;
  /** Waits for a message of `type` that satisfies `until`, dropping the others of that type. */
  waitFor(type: string, until: (m: TillMessage) => boolean, timeoutMs?: number): Promise<TillMessage>;
  /** Everything it wrote on stdout and stderr (its log lines). */
  output(): string;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'pos-store-mode-'));
}

/** `launcher` runs node through another command (`ip netns exec NAME`), which must exec it with its descriptors. */
export async function startTill(
  config: Omit<TillChildConfig, 'dataDir' | 'port'> & { dataDir?: string; port?: number },
  secret: string | undefined,
  launcher: readonly string[] = [],
): Promise<TillProcess> {
  const dataDir = config.dataDir ?? tempDataDir();
  return startChildProcess(CHILD, { port: 0, ...config, dataDir }, secret, { launcher });
}

/**
 * A till running a real core in store mode (or off), on a data folder the caller seeded; `launcher`
 * runs node through another command (`ip netns exec NAME`), which must exec it with its descriptors.
 */
export function startCoreTill(config: CoreTillConfig, secret: string | undefined, launcher: readonly string[] = []): Promise<TillProcess> {
  return startChildProcess(CORE_CHILD, config, secret, { launcher });
}

export interface ChildOptions {
  /** Runs node through another command (`ip netns exec NAME`), which must exec it with its descriptors. */
  launcher?: readonly string[];
  readyTimeoutMs?: number;
  /** Collects the child as soon as it is spawned, so the test's clean-up kills it even if it never gets ready. */
  started?: TillProcess[];
}

/**
 * Starts `script` (a child of test/store-mode/fixtures or test/bench) with `config` as its one argument,
 * the store secret in its environment (none when undefined), and waits for its `ready` (port and till id,
 * when it sends them). A child that never gets ready is killed.
 */
export async function startChildProcess(
  script: string,
  config: { tillName: string; dataDir?: string; port?: number },
  secret: string | undefined,
  options: ChildOptions = {},
): Promise<TillProcess> {
  const { launcher = [], readyTimeoutMs = 30_000 } = options;
  const env: NodeJS.ProcessEnv = { ...process.env, POS_LOG_LEVEL: 'info' };
  delete env.POS_STORE_SECRET;
  if (secret !== undefined) env.POS_STORE_SECRET = secret;
  const command = [...launcher, process.execPath, ...childArgs(script), JSON.stringify(config)];
  const child = spawn(command[0] as string, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const queue: TillMessage[] = [];
  const listeners = new Set<() => void>();
  child.on('message', (m: TillMessage) => {
    queue.push(m);
    for (const listener of listeners) listener();
  });

  const waitFor = (type: string, until: (m: TillMessage) => boolean, timeoutMs = 30_000): Promise<TillMessage> =>
    new Promise((resolvePromise, reject) => {
      const check = (): void => {
        for (let i = 0; i < queue.length; i++) {
          const m = queue[i] as TillMessage;
          if (m.type !== type) continue;
          queue.splice(i--, 1);
          if (until(m)) return finish(() => resolvePromise(m));
        }
        if (child.exitCode !== null || child.signalCode !== null) finish(() => reject(new Error(`till ${config.tillName} exited before '${type}':\n${output}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`till ${config.tillName}: no '${type}' within ${timeoutMs} ms:\n${output.slice(-4000)}`))), timeoutMs);
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        listeners.delete(check);
        child.off('exit', check);
        settle();
      };
      listeners.add(check);
      child.on('exit', check);
      check();
    });

  const handle: TillProcess = {
    port: config.port ?? 0,
    tillId: '',
    dataDir: config.dataDir ?? '',
    process: child,
    send: (message) => void child.send(message),
    next: (type, timeoutMs) => waitFor(type, () => true, timeoutMs),
    waitFor,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'stop' });
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  options.started?.push(handle);
  try {
    const ready = await waitFor('ready', () => true, readyTimeoutMs);
    handle.tillId = (ready.tillId as string | null | undefined) ?? '';
    if (typeof ready.port === 'number') handle.port = ready.port;
  } catch (error) {
    await handle.kill();
    throw error;
  }
  return handle;
}
