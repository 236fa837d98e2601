// The bundle freshness rule browser mode uses at start, on a scratch project tree; the bundle itself
// is React's production build whoever builds it.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../main/host/browser-mode';
import { rendererBundleIsFresh } from '../../main/host/renderer-bundle';

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'pos-bundle-'));
  for (const dir of ['renderer/lib', 'bridge', 'dist/renderer']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'renderer/lib/a.ts'), '');
  writeFileSync(join(root, 'bridge/contract.ts'), '');
  writeFileSync(join(root, 'vite.config.ts'), '');
  return root;
}

function age(path: string, secondsAgo: number): void {
  const t = Date.now() / 1000 - secondsAgo;
  utimesSync(path, t, t);
}

describe('rendererBundleIsFresh', () => {
  it('is stale without a bundle, fresh after a build, stale again when a source changes', () => {
    const root = tree();
    expect(rendererBundleIsFresh(root)).toBe(false);
    for (const path of ['renderer/lib/a.ts', 'renderer/lib', 'renderer', 'bridge/contract.ts', 'bridge', 'vite.config.ts']) age(join(root, path), 60);
    writeFileSync(join(root, 'dist/renderer/index.html'), '<!doctype html>');
    // Built a while ago: a source written in the same clock tick as the bundle would look no newer.
    age(join(root, 'dist/renderer/index.html'), 30);
    expect(rendererBundleIsFresh(root)).toBe(true);
    writeFileSync(join(root, 'renderer/lib/a.ts'), 'changed');
    expect(rendererBundleIsFresh(root)).toBe(false);
  });
});

describe('the renderer bundle', () => {
  it("is a production build even when built with NODE_ENV=test (as tests build it and `npm start` then serves it)", async () => {
    expect(process.env.NODE_ENV).toBe('test'); // vitest's own: the case this guards
    const outDir = mkdtempSync(join(tmpdir(), 'pos-bundle-out-'));
    const { build } = await import('vite');
    await build({ configFile: join(PROJECT_ROOT, 'vite.config.ts'), logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    const assets = join(outDir, 'assets');
    const script = readdirSync(assets)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(assets, file), 'utf8'))
      .join('\n');
    // Booleans: a failure should name the marker, not print 350 KB of bundle.
    expect(script.includes('createRoot'), "the register's bundle, not an empty one").toBe(true);
    expect(script.includes('jsxDEV'), "React's development JSX runtime").toBe(false);
    expect(script.includes('Download the React DevTools'), "React DOM's development build").toBe(false);
  }, 60_000);
});
