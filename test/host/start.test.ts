// `npm start` as its own process (main/host/launch.mjs, which runs a bundle of main/host/start.ts):
// a bad configuration stops it before anything starts, with the source and field named; a good
// one prints the launch link and serves the register; a stale bundle is rebuilt first.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../main/host/browser-mode';
import { ITEMS, LOCATION, reopenStore, startTestCore } from '../core/fixtures';

/** What `npm start` runs. */
const NPM_START = [join(PROJECT_ROOT, 'main/host/launch.mjs')];
const BUNDLE = join(PROJECT_ROOT, 'dist/host/start.mjs');

function runStart(env: Record<string, string>, untilLaunch: boolean): Promise<{ code: number | null; stderr: string; launchUrl: string | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, NPM_START, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, POS_BROWSER_MODE: '1', POS_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let stopping = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const launch = /Open: (\S+)/.exec(stderr);
      if (untilLaunch && launch && !stopping) {
        stopping = true;
        child.kill('SIGTERM');
        child.once('close', (code) => resolve({ code, stderr, launchUrl: launch[1] as string }));
      }
    });
    // 'close', not 'exit': under load the process can exit before its last stderr chunk is read.
    child.once('close', (code) => {
      if (!untilLaunch || !/Open: /.test(stderr)) resolve({ code, stderr, launchUrl: null });
    });
  });
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
    const first = await runStart(env, true);
    const second = await runStart(env, true);
    // SIGTERM as soon as the link is printed (the core may still be starting) is a clean exit.
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(first.stderr).toMatch(/Electron is not available here \(POS_BROWSER_MODE=1\); starting browser mode/);
    expect(first.launchUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#launch=pos_launch_[A-Za-z0-9_-]+$/);
    expect(second.launchUrl?.split('#')[1]).not.toBe(first.launchUrl?.split('#')[1]);
  });

  it('rebuilds its bundle when a source is newer than it, then runs the new one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pos-start-'));
    const env = { POS_DATA_DIR: dataDir, POS_API_BASE_URL: 'http://127.0.0.1:9/v1' };
    expect((await runStart(env, true)).code).toBe(0); // a bundle exists now
    const longAgo = new Date('2001-01-01T00:00:00Z');
    utimesSync(BUNDLE, longAgo, longAgo); // every source is newer than it
    const result = await runStart(env, true);
    expect(result.code).toBe(0);
    expect(result.launchUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#launch=/);
    expect(statSync(BUNDLE).mtimeMs).toBeGreaterThan(longAgo.getTime());
    expect(readdirSync(join(PROJECT_ROOT, 'dist/host')).filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });

  it('on SIGTERM with changes waiting, closes at once without a second signal and keeps them in the store', async () => {
    const placed = await startTestCore();
    await placed.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }] });
    await placed.core.shutdown();
    const result = await runStart({ POS_DATA_DIR: placed.dataDir, POS_API_BASE_URL: 'http://127.0.0.1:9/v1', POS_LOCATION_ID: LOCATION }, true);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Quitting with 1 change saved on this terminal/);
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
    const store = reopenStore(placed.dataDir);
    try {
      expect(store.outbox.unfinishedCount()).toBe(1);
    } finally {
      store.close();
    }
  });
});
