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
const SOURCES = ['api', 'bridge', 'common', 'main', 'sandbox', 'store', 'sync', 'package.json'];

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

/** Bundles start.ts with our code inlined and npm packages left to node_modules; written whole or not at all. */
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
    sourcemap: 'inline',
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
  });
  const [file] = result.outputFiles;
  const partial = `${BUNDLE}.${process.pid}.tmp`;
  mkdirSync(dirname(BUNDLE), { recursive: true });
  writeFileSync(partial, file.contents);
  renameSync(partial, BUNDLE); // a concurrent start sees the old bundle or the new one, never half of one
}

if (!bundleIsFresh()) await buildBundle();
process.setSourceMapsEnabled(true); // stack traces name the .ts files
await import(pathToFileURL(BUNDLE).href);
