// How a test starts a TypeScript script as a child process: bundled once per test process with
// esbuild (dependencies stay in node_modules), then run by plain node. A `tsx` start compiles every
// file again and costs seconds on a loaded 2-core machine; the crash suites start 20 and more
// children each, so their time went to starting, not to what they prove.
import { buildSync } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
// Inside node_modules, so the bundle's bare imports (better-sqlite3, undici…) resolve as the sources' do.
const OUT = join(ROOT, 'node_modules', '.cache', 'test-children');
const built = new Map<string, string>();

/** The node arguments that run `script` (a path from the repo root, or absolute), before its own arguments. */
export function childArgs(script: string): string[] {
  const entry = resolve(ROOT, script);
  let bundle = built.get(entry);
  if (!bundle) {
    mkdirSync(OUT, { recursive: true });
    bundle = join(OUT, `${createHash('sha256').update(entry).digest('hex').slice(0, 16)}-${process.pid}.mjs`);
    // Written whole, then renamed: a child never starts on half a file.
    buildSync({ entryPoints: [entry], outfile: `${bundle}.tmp`, bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node22', sourcemap: 'inline', logLevel: 'error' });
    renameSync(`${bundle}.tmp`, bundle);
    built.set(entry, bundle);
  }
  return ['--enable-source-maps', bundle];
}
