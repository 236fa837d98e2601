// `npm start`: runs main/host/start.ts from one bundled file, rebuilt when any source is newer,
// instead of through tsx. Loading the ~200 modules of the core and the embedded sandbox through
// tsx's loader hooks was half of a cold start; the Electron build ships bundled the same way.
// Plain JavaScript, so that nothing has to be compiled before it runs.
import { mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// At the same depth as main/host, so that import.meta.url finds the project root from either.
const BUNDLE = join(ROOT, 'dist', 'host', 'start.mjs');
const SOURCES = ['api', 'bridge', 'common', 'main', 'printing', 'sandbox', 'store', 'store-mode', 'sync', 'package.json'];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function bundleIsFresh() {
  let built;
  try {
    built = statSync(BUNDLE).mtimeMs;
  } catch {
    return false;
  }
  return SOURCES.every((source) => newestMtime(join(ROOT, source)) <= built);
}

/**
 * Bundles start.ts with our code inlined and npm packages left to node_modules; written whole or not at
 * all. Its source map goes in a file of its own (start.mjs.map), as the Electron bundle's does: inline,
 * it was ~23 MB of every browser-mode till's memory (a data URL in the bundle's source, and the map loaded).
 */
async function buildBundle() {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'main', 'host', 'start.ts')],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
  });
  mkdirSync(dirname(BUNDLE), { recursive: true });
  // The map first: a bundle is never there before the map that goes with it.
  for (const suffix of ['.map', '']) {
    const file = result.outputFiles.find((output) => output.path === `${BUNDLE}${suffix}`);
    const partial = `${BUNDLE}${suffix}.${process.pid}.tmp`;
    writeFileSync(partial, file.contents);
    renameSync(partial, `${BUNDLE}${suffix}`); // a concurrent start sees the old file or the new one, never half of one
  }
}

if (!bundleIsFresh()) await buildBundle();
// Stack traces name the bundle's lines (dist/host/start.mjs:line:column) unless asked: with
// POS_SOURCE_MAPS=1 they name the .ts files, the map read in to do so (a few MB; docs/config.md).
if (process.env.POS_SOURCE_MAPS === '1') process.setSourceMapsEnabled(true);
await import(pathToFileURL(BUNDLE).href);
