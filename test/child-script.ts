// How a test starts a TypeScript script as a child process: bundled once per test process with
// esbuild (dependencies stay in node_modules), then run by plain node. A `tsx` start compiles every
// file again and costs seconds on a loaded 2-core machine; the crash suites start 20 and more
// children each, so their time went to starting, not to what they prove.
//
// The bundles share one folder between every test process and every test run on the machine. A
// bundle is named by its script and its content (`<script hash>-<content hash>.mjs`), so processes
// built from the same sources share one file, and each start of a child from a bundle sets its
// modification time: its last use. Whenever a process writes a bundle, it removes every bundle not
// used for MAX_IDLE_MS (an hour) but its own: no process starts a child from a file that old
// without marking it first, and a child reads its bundle as it starts, so no file is removed that a
// process is about to run. A process that finds its bundle removed (idle over an hour) builds it again.
import { buildSync } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
// Inside node_modules, so the bundle's bare imports (better-sqlite3, undici…) resolve as the sources' do.
const OUT = join(ROOT, 'node_modules', '.cache', 'test-children');
export const MAX_IDLE_MS = 60 * 60_000;
const built = new Map<string, string>();

/** The node arguments that run `script` (a path from the repo root, or absolute), before its own arguments. */
export function childArgs(script: string): string[] {
  const entry = resolve(ROOT, script);
  let bundle = built.get(entry);
  if (!bundle || !markUsed(bundle)) {
    bundle = build(entry);
    built.set(entry, bundle);
  }
  return ['--enable-source-maps', bundle];
}

function build(entry: string): string {
  mkdirSync(OUT, { recursive: true });
  const [output] = buildSync({
    entryPoints: [entry], outfile: join(OUT, 'bundle.mjs'), write: false, bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node22', sourcemap: 'inline', logLevel: 'error',
  }).outputFiles;
  if (!output) throw new Error(`esbuild wrote nothing for ${entry}`);
  const bundle = join(OUT, `${hash(entry)}-${hash(output.contents)}.mjs`);
  if (!markUsed(bundle)) {
    // Written whole, then renamed: a child never starts on half a file.
    const partial = `${bundle}.${process.pid}.tmp`;
    writeFileSync(partial, output.contents);
    renameSync(partial, bundle);
  }
  pruneBundles(OUT, bundle, Date.now());
  return bundle;
}

function hash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 16);
}

/** Sets `bundle`'s last use to now; false when it is not there (never written, or removed as idle). */
function markUsed(bundle: string): boolean {
  const now = new Date();
  try {
    utimesSync(bundle, now, now);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Removes every file of `dir` but `keep` last modified more than MAX_IDLE_MS before `now`; other processes may remove the same ones. */
export function pruneBundles(dir: string, keep: string, now: number): void {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (file === keep) continue;
    try {
      if (now - statSync(file).mtimeMs > MAX_IDLE_MS) rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
