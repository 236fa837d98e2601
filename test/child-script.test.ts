// The folder of child bundles stays bounded: a bundle idle over an hour is removed, one used since is
// kept, and so is the bundle being handed out however old it looks. A process whose bundle was removed
// builds it again.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childArgs, MAX_IDLE_MS, pruneBundles } from './child-script';

const made: string[] = [];
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pos-child-script-'));
  made.push(dir);
  return dir;
}

/** A file in `dir` last modified `idleMs` before `now`. */
function fileIdle(dir: string, name: string, now: number, idleMs: number): string {
  const file = join(dir, name);
  writeFileSync(file, 'export {};\n');
  const at = new Date(now - idleMs);
  utimesSync(file, at, at);
  return file;
}

describe('child bundles', () => {
  it('removes the bundles idle over an hour, and keeps those used since and the one handed out', () => {
    const dir = tempDir();
    const now = Date.parse('2026-11-27T08:00:00Z');
    fileIdle(dir, 'aaaa-old.mjs', now, MAX_IDLE_MS + 1_000);
    fileIdle(dir, 'bbbb-old.mjs', now, 24 * MAX_IDLE_MS);
    fileIdle(dir, 'aaaa-1234.mjs.99.tmp', now, MAX_IDLE_MS + 1_000);
    fileIdle(dir, 'aaaa-recent.mjs', now, MAX_IDLE_MS - 1_000);
    fileIdle(dir, 'bbbb-just-written.mjs', now, 0);
    const keep = fileIdle(dir, 'cccc-handed-out.mjs', now, 2 * MAX_IDLE_MS);

    pruneBundles(dir, keep, now);

    expect(readdirSync(dir).sort()).toEqual(['aaaa-recent.mjs', 'bbbb-just-written.mjs', 'cccc-handed-out.mjs']);
  });

  it('marks a bundle used each time a child starts from it, and builds it again once removed', () => {
    const script = join(tempDir(), 'child.ts');
    writeFileSync(script, "const greeting: string = 'ran';\nconsole.log(greeting);\n");
    const run = () => spawnSync(process.execPath, childArgs(script), { encoding: 'utf8' }).stdout.trim();

    const bundle = childArgs(script).at(-1) as string;
    made.push(bundle);
    const long = new Date(Date.now() - 2 * MAX_IDLE_MS);
    utimesSync(bundle, long, long);
    expect(run()).toBe('ran');
    expect(Date.now() - statSync(bundle).mtimeMs).toBeLessThan(MAX_IDLE_MS);

    rmSync(bundle);
    expect(run()).toBe('ran');
    expect(existsSync(bundle)).toBe(true);
  });
});
