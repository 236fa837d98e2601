// Bundles the Electron main process and the preload for packaging (npm run build:electron):
//   dist/main/electron.js  ESM, Node target: our code inlined, npm dependencies left to node_modules
//                          (electron-builder packs them; better-sqlite3 is rebuilt for Electron there)
//   dist/preload.cjs       CommonJS, one file: a sandboxed preload can require only 'electron'
// No Electron binary is needed, so this runs on the build machines and in CI.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export interface BundleResult {
  mainFile: string;
  preloadFile: string;
  /** Every file inlined into each bundle, for the distribution tests. */
  inputs: { main: string[]; preload: string[] };
}

export async function bundleElectron(outDir = join(ROOT, 'dist')): Promise<BundleResult> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const mainFile = join(outDir, 'main', 'electron.js');
  const preloadFile = join(outDir, 'preload.cjs');
  const common = { absWorkingDir: ROOT, bundle: true, metafile: true, sourcemap: 'linked', legalComments: 'none', logLevel: 'warning' } as const;

  const main = await build({
    ...common,
    entryPoints: [join(ROOT, 'main/electron/main.ts')],
    outfile: mainFile,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: ['electron', ...Object.keys(pkg.dependencies ?? {})],
  });
  const preload = await build({
    ...common,
    entryPoints: [join(ROOT, 'main/preload/index.ts')],
    outfile: preloadFile,
    platform: 'browser',
    format: 'cjs',
    target: 'chrome130',
    external: ['electron'],
  });
  const inputsOf = (metafile: Metafile): string[] => Object.keys(metafile.inputs).sort();
  return { mainFile, preloadFile, inputs: { main: inputsOf(main.metafile), preload: inputsOf(preload.metafile) } };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await bundleElectron();
  console.log(`bundled ${result.mainFile} (${result.inputs.main.length} modules) and ${result.preloadFile} (${result.inputs.preload.length} modules)`);
}
