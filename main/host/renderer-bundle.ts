// Browser mode serves the built renderer (dist/renderer). It is rebuilt on start when missing or
// older than any renderer or bridge source, so `npm start` on a fresh checkout just works and a
// warm start costs one directory scan.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../common/log';

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function rendererBundleIsFresh(projectRoot: string): boolean {
  let built: number;
  try {
    built = statSync(join(projectRoot, 'dist', 'renderer', 'index.html')).mtimeMs;
  } catch {
    return false;
  }
  const sources = [join(projectRoot, 'renderer'), join(projectRoot, 'bridge'), join(projectRoot, 'vite.config.ts')];
  return sources.every((source) => newestMtime(source) <= built);
}

/** Builds dist/renderer with vite when stale; returns its directory. */
export async function ensureRendererBundle(projectRoot: string, logger: Logger): Promise<string> {
  const outDir = join(projectRoot, 'dist', 'renderer');
  if (rendererBundleIsFresh(projectRoot)) return outDir;
  logger.info('building the renderer bundle');
  const started = Date.now();
  const { build } = await import('vite');
  await build({ configFile: join(projectRoot, 'vite.config.ts'), logLevel: 'warn' });
  logger.info({ ms: Date.now() - started }, 'renderer bundle built');
  return outDir;
}
