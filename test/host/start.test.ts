// `npm start` as its own process (main/host/launch.mjs, which runs a bundle of main/host/start.ts):
// a bad configuration stops it before anything starts, with the source and field named; a good
// one prints the launch link and serves the register; a stale bundle is rebuilt first.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../main/host/browser-mode';
import { ITEMS, LOCATION, reopenStore, startTestCore } from '../core/fixtures';

/** What `npm start` runs. */
const NPM_START = [join(PROJECT_ROOT, 'main/host/launch.mjs')];
const BUNDLE = join(PROJECT_ROOT, 'dist/host/start.mjs');

/** The Electron binary was skipped at install (ELECTRON_SKIP_BINARY_DOWNLOAD=1), as on the build machines. */
const ELECTRON_BINARY_INSTALLED = existsSync(join(PROJECT_ROOT, 'node_modules/electron/path.txt'));

interface StartRun {
  code: number | null;
  stdout: string;
  stderr: string;
  launchUrl: string | null;
}

/** Runs `npm start [args]`; with `until`, SIGTERMs it once the launch link is printed or the terminal is ready. */
function runStart(env: Record<string, string>, until: 'launch' | 'ready' | false, args: string[] = []): Promise<StartRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...NPM_START, ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, POS_BROWSER_MODE: '1', POS_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let stopping = false;
    const launchUrl = () => /Open: (\S+)/.exec(stderr)?.[1] ?? null;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const reached = until === 'launch' ? launchUrl() !== null : until === 'ready' && /POS terminal is ready/.test(stderr);
      if (reached && !stopping) {
        stopping = true;
        child.kill('SIGTERM');
      }
    });
    // 'close', not 'exit': under load the process can exit before its last output chunk is read.
    child.once('close', (code) => resolve({ code, stdout, stderr, launchUrl: launchUrl() }));
  });
}

/** What a person at the console reads: both streams, line by line. */
function consoleLines(run: StartRun): string[] {
  return `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim() !== '');
}

describe('npm start (browser mode)', () => {
  it('refuses a bad configuration, naming source and field, and starts nothing', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'pos-start-')), 'data');
    const result = await runStart({ POS_DATA_DIR: dataDir, POS_WEBHOOK_PORT: '99999' }, false);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/configuration error in environment: POS_WEBHOOK_PORT: must be 0\.\.65535/);
    expect(() => readdirSync(dataDir)).toThrow(/ENOENT/); // no store, no sandbox, nothing written
  });

  it('stops with the reason when the store cannot be opened (a corrupt file is never touched)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pos-start-'));
    const garbage = 'this is not a SQLite database '.repeat(40);
    writeFileSync(join(dataDir, 'terminal.db'), garbage);
    const result = await runStart({ POS_DATA_DIR: dataDir, POS_API_BASE_URL: 'http://127.0.0.1:9/v1' }, false);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/The terminal could not start: .*terminal\.db/);
    expect(readFileSync(join(dataDir, 'terminal.db'), 'utf8')).toBe(garbage);
  });

  it('prints a launch link carrying a fresh per-launch token at every start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pos-start-'));
    const env = { POS_DATA_DIR: dataDir, POS_API_BASE_URL: 'http://127.0.0.1:9/v1' };
    const first = await runStart(env, 'launch');
    const second = await runStart(env, 'launch');
    // SIGTERM as soon as the link is printed (the core may still be starting) is a clean exit.
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(first.stderr).toMatch(/^Starting in browser mode \(POS_BROWSER_MODE=1\)\.$/m);
    expect(first.launchUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#launch=pos_launch_[A-Za-z0-9_-]+$/);
    expect(second.launchUrl?.split('#')[1]).not.toBe(first.launchUrl?.split('#')[1]);
  });

  it('rebuilds its bundle when a source is newer than it, then runs the new one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pos-start-'));
    const env = { POS_DATA_DIR: dataDir, POS_API_BASE_URL: 'http://127.0.0.1:9/v1' };
    expect((await runStart(env, 'launch')).code).toBe(0); // a bundle exists now
    const longAgo = new Date('2001-01-01T00:00:00Z');
    utimesSync(BUNDLE, longAgo, longAgo); // every source is newer than it
    const result = await runStart(env, 'launch');
    expect(result.code).toBe(0);
    expect(result.launchUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#launch=/);
    expect(statSync(BUNDLE).mtimeMs).toBeGreaterThan(longAgo.getTime());
    expect(readdirSync(join(PROJECT_ROOT, 'dist/host')).filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });

  it('on SIGTERM with changes waiting, closes at once without a second signal and keeps them in the store', async () => {
    const placed = await startTestCore();
    await placed.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }] });
    await placed.core.shutdown();
    const result = await runStart({ POS_DATA_DIR: placed.dataDir, POS_API_BASE_URL: 'http://127.0.0.1:9/v1', POS_LOCATION_ID: LOCATION }, 'launch');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\nStopped\. 1 change will be sent next time\.\n$/);
    expect(result.stderr).not.toMatch(/Press Ctrl\+C again/);
    const store = reopenStore(placed.dataDir);
    try {
      expect(store.outbox.unfinishedCount()).toBe(1);
      expect(store.integrityCheck()).toEqual(['ok']);
    } finally {
      store.close();
    }
  });

  it('on Ctrl+C with changes waiting, warns first and quits on the second, keeping them', async () => {
    const placed = await startTestCore();
    await placed.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await placed.core.shutdown();
    const child = spawn(process.execPath, NPM_START, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, POS_BROWSER_MODE: '1', POS_LOG_LEVEL: 'warn', POS_DATA_DIR: placed.dataDir, POS_API_BASE_URL: 'http://127.0.0.1:9/v1', POS_LOCATION_ID: LOCATION },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const seen = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => (pattern.test(stderr) ? resolve() : child.stderr.once('data', check));
        check();
      });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await seen(/POS terminal is ready/);
    child.kill('SIGINT');
    await seen(/1 change has not reached the cloud yet.*\n.*Press Ctrl\+C again to quit anyway/);
    expect(child.exitCode).toBeNull(); // still running after the first Ctrl+C
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    await closed;
    expect(stderr).toMatch(/\nStopped\. 1 change will be sent next time\.\n$/);
    const store = reopenStore(placed.dataDir);
    try {
      expect(store.outbox.unfinishedCount()).toBe(1);
    } finally {
      store.close();
    }
  });
  it.skipIf(ELECTRON_BINARY_INSTALLED)('says in one calm line that browser mode runs because the Electron binary is not installed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pos-start-'));
    const result = await runStart({ POS_DATA_DIR: dataDir, POS_API_BASE_URL: 'http://127.0.0.1:9/v1', POS_BROWSER_MODE: '' }, 'launch');
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/failed to install|delete node_modules/);
    expect(consoleLines(result)[0]).toBe('Starting in browser mode: the Electron binary is not installed (npm install skipped its download).');
  });

  it('keeps the console human: log lines go to the log file, and to the console pretty-printed only with --verbose', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pos-start-'));
    // The embedded sandbox and the sync engine log at info as they start and stop.
    const env = { POS_DATA_DIR: dataDir, POS_LOG_LEVEL: 'info' };
    const quiet = await runStart(env, 'ready');
    expect(quiet.code).toBe(0);
    expect(consoleLines(quiet).filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
    expect(consoleLines(quiet).join('\n')).not.toMatch(/sync engine started/);
    const logFile = join(dataDir, 'logs', 'pos.log');
    const logged = readFileSync(logFile, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(logged).toEqual(expect.arrayContaining(['embedded sandbox started (demo data)', 'sync engine started', 'sync engine stopped']));
    expect(quiet.stderr).toContain(`Logs: ${logFile}`);

    const verbose = await runStart(env, 'ready', ['--verbose']);
    expect(verbose.code).toBe(0);
    expect(consoleLines(verbose).filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
    expect(verbose.stderr).toMatch(/^\d\d:\d\d:\d\d INFO {2}sync engine started \(baseUrl=http:\/\/127\.0\.0\.1:\d+\/v1\)$/m);
  });

  it('says goodbye on exit: nothing waiting, or how many changes go next time', async () => {
    const fresh = await runStart({ POS_DATA_DIR: mkdtempSync(join(tmpdir(), 'pos-start-')), POS_API_BASE_URL: 'http://127.0.0.1:9/v1' }, 'ready');
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toMatch(/\nStopped\. Nothing waiting to sync\.\n$/);

    const placed = await startTestCore();
    for (let n = 0; n < 3; n++) await placed.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await placed.core.shutdown();
    const waiting = await runStart({ POS_DATA_DIR: placed.dataDir, POS_API_BASE_URL: 'http://127.0.0.1:9/v1', POS_LOCATION_ID: LOCATION }, 'ready');
    expect(waiting.code).toBe(0);
    expect(waiting.stderr).toMatch(/\nStopped\. 3 changes will be sent next time\.\n$/);
  });
});
