// `npx tsx test/bench/profile/core-memory.ts [orders] [-- node flags...]`: where the bare core's
// memory goes (docs/store-mode-memory.md). Starts the core as the store-mode memory bench's bare
// core does (store mode off, a seeded empty store, the staff hashed here, the owner signed in, a
// drawer open), rings up `orders` orders (30 by default), and prints at each step: RSS, VmHWM,
// anonymous and file-backed RSS, the JS heap by space, external, V8's malloced memory, the process's
// threads, and what orders.place took. Bundled as the tests' children are (test/child-script.ts:
// an inline map, enabled), or with PROBE_BUNDLE=product as the Electron main is (below).
// PROBE_MAPPINGS=1 adds the resident MB of each mapping (/proc/self/smaps) and the largest anonymous
// mappings; PROBE_SNAPSHOT=<file> writes a heap snapshot once settled (summarise it with
// test/bench/profile/heap-summary.ts). Node flags after `--` go to the core's process: e.g.
// `--expose-gc` adds a step after a full GC, `--max-semi-space-size=1` caps the young generation.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { buildSync } from 'esbuild';
import { childArgs } from '../../child-script';
import { seedDataDir, testStaffConfig } from '../../core/fixtures';

const ROOT = resolve(import.meta.dirname, '../../..');
const args = process.argv.slice(2);
const dashDash = args.indexOf('--');
const [ordersArg] = dashDash === -1 ? args : args.slice(0, dashDash);
const nodeFlags = dashDash === -1 ? [] : args.slice(dashDash + 1);

/** Inside node_modules, so that its bare imports resolve; removed with its map at the end. */
const PRODUCT_BUNDLE = join(ROOT, 'node_modules', '.cache', 'core-memory', `child-${process.pid}.mjs`);

function productBundle(): string {
  const outfile = PRODUCT_BUNDLE;
  buildSync({ entryPoints: [join(ROOT, 'test/bench/profile/core-memory-child.ts')], outfile, bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node22', sourcemap: 'linked', legalComments: 'none', logLevel: 'error' });
  return outfile;
}

const dataDir = seedDataDir();
try {
  const config = { dataDir, staff: testStaffConfig(), orders: Number(ordersArg ?? 30), settleMs: 8_000 };
  // PROBE_BUNDLE=product: bundled as the Electron main is (build/bundle-electron.ts: the map in a file
  // of its own, source maps not enabled), not as the tests' children are (an inline map, enabled).
  const run = process.env.PROBE_BUNDLE === 'product' ? [productBundle()] : childArgs('test/bench/profile/core-memory-child.ts');
  const child = spawn(process.execPath, [...nodeFlags, ...run, JSON.stringify(config)], {
    env: { POS_LOG_LEVEL: 'warn', ...process.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.startsWith('{')) {
      process.stderr.write(`${line}\n`);
      continue;
    }
    const { step, spaces, threads, mappings, anonymous, ...figures } = JSON.parse(line) as Record<string, unknown>;
    console.log(`${String(step)}: ${Object.entries(figures).map(([k, v]) => `${k} ${String(v)}`).join(', ')}`);
    console.log(`  heap spaces (MB size/used): ${Object.entries(spaces as Record<string, string>).map(([k, v]) => `${k.replace(/_space$/, '')} ${v}`).join(', ')}`);
    console.log(`  threads (${(threads as string[]).length}): ${(threads as string[]).join(', ')}`);
    if (mappings) console.log(`  resident MB by mapping: ${Object.entries(mappings as Record<string, number>).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    if (anonymous) console.log(`  largest anonymous mappings (MB resident/size): ${(anonymous as string[]).join(', ')}`);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  for (const file of [PRODUCT_BUNDLE, `${PRODUCT_BUNDLE}.map`]) rmSync(file, { force: true });
}
