// npm run build:electron, run for real into a temporary folder: the bundles the packaged app loads.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleElectron, type BundleResult } from '../../build/bundle-electron';

const ROOT = join(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'pos-bundle-'));
let result: BundleResult;
beforeAll(async () => {
  result = await bundleElectron(out);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string> };

describe('electron bundles', () => {
  it('writes the main process where package.json "main" points and the preload next to it', () => {
    expect(result.mainFile).toBe(join(out, 'main', 'electron.js'));
    expect(result.preloadFile).toBe(join(out, 'preload.cjs'));
    expect(pkg.main).toBe('dist/main/electron.js');
  });

  it('main: ESM whose only imports are Node built-ins, electron and packaged dependencies', () => {
    const code = readFileSync(result.mainFile, 'utf8');
    const imported = new Set([...code.matchAll(/^import\s[^;]*?from\s*"([^"]+)"/gm), ...code.matchAll(/^import\s*"([^"]+)"/gm)].map((m) => m[1] as string));
    expect(imported.size).toBeGreaterThan(0);
    const packaged = new Set(['electron', ...Object.keys(pkg.dependencies)]);
    // A package's name: its first path part, or its first two when scoped (@peculiar/x509/…).
    const packageOf = (name: string) => name.split('/').slice(0, name.startsWith('@') ? 2 : 1).join('/');
    const unexpected = [...imported].filter((name) => !name.startsWith('node:') && !builtinModules.includes(name) && !packaged.has(packageOf(name)));
    expect(unexpected).toEqual([]);
    expect(code).not.toMatch(/\brequire\(\s*"better-sqlite3"/); // native module stays external, loaded from app.asar.unpacked
    expect(result.inputs.main.some((file) => file.includes('node_modules/better-sqlite3'))).toBe(false);
  });

  it('main: carries the shell and the core, and never the sandbox, the browser-mode host or tests', () => {
    expect(result.inputs.main).toEqual(expect.arrayContaining(['main/electron/main.ts', 'main/electron/shell.ts', 'main/core/index.ts']));
    expect(result.inputs.main.filter((file) => /^(sandbox|main\/host|test|renderer)\//.test(file))).toEqual([]);
  });

  it('preload: one CommonJS file that requires nothing but electron (a sandboxed preload can load nothing else)', () => {
    const code = readFileSync(result.preloadFile, 'utf8');
    const required = new Set([...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]));
    expect([...required]).toEqual(['electron']);
    expect(code).toContain('exposeInMainWorld');
    expect(code).toContain('"bridge:invoke"');
    expect(result.inputs.preload.filter((file) => /^(main\/(core|electron|config)|store|sync|common)\//.test(file))).toEqual([]);
  });
});
