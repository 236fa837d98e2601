// The bundle freshness rule browser mode uses at start, on a scratch project tree.
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
    expect(rendererBundleIsFresh(root)).toBe(true);
    writeFileSync(join(root, 'renderer/lib/a.ts'), 'changed');
    expect(rendererBundleIsFresh(root)).toBe(false);
  });
});
