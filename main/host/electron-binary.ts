// Whether the Electron binary is installed, found the way the electron package finds it (the
// path.txt its install script writes) without requiring the package: its index throws "Electron
// failed to install correctly, please delete node_modules/electron…" whenever the download was
// skipped on purpose (ELECTRON_SKIP_BINARY_DOWNLOAD=1), and that is no failure for `npm start`.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type ElectronBinary = { path: string } | { missing: string };

export function findElectronBinary(resolveFrom: string, env: Readonly<Record<string, string | undefined>> = process.env): ElectronBinary {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(resolveFrom).resolve('electron/package.json'));
  } catch {
    return { missing: 'the electron package is not installed' };
  }
  const pathFile = join(packageDir, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  // The package's own override for a binary kept elsewhere (electron/index.js honours it too).
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!override && executable === '') return { missing: 'the Electron binary is not installed (npm install skipped its download)' };
  const path = override ? join(override, executable || 'electron') : join(packageDir, 'dist', executable);
  return existsSync(path) ? { path } : { missing: `the Electron binary is not at ${path}` };
}
