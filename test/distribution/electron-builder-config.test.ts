// Packaging cannot run on the CI machines (no Electron binary, no signing identities), so the
// configuration is checked the way electron-builder would read it: against the JSON Schema that
// app-builder-lib ships, plus the release rules this project depends on.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const schema = require('app-builder-lib/scheme.json') as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

type Config = Record<string, unknown> & {
  win: Record<string, unknown>;
  mac: Record<string, unknown>;
  linux: Record<string, unknown>;
  nsis: Record<string, unknown>;
  msi: Record<string, unknown>;
  publish: Record<string, unknown>;
  electronFuses: Record<string, boolean>;
};

function readConfig(file: string): Config {
  return parse(readFileSync(join(ROOT, file), 'utf8')) as Config;
}

function schemaErrors(config: unknown): string[] {
  return validate(config) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

const config = readConfig('electron-builder.yml');

describe('electron-builder.yml', () => {
  it('matches the schema of the installed app-builder-lib', () => {
    expect(schemaErrors(config)).toEqual([]);
  });

  it('the Azure Trusted Signing variant matches the schema and extends the main file', () => {
    const azure = readConfig('build/azure-trusted-signing.yml');
    expect(schemaErrors(azure)).toEqual([]);
    expect(azure.extends).toBe('electron-builder.yml');
    const azureWin = azure.win as { azureSignOptions: { publisherName: string } };
    // The updater checks installers against one publisher name whichever way they were signed.
    expect(config.win.signtoolOptions).toMatchObject({ publisherName: [azureWin.azureSignOptions.publisherName] });
  });

  it('catches a typo, a wrong type and an unknown fuse', () => {
    expect(schemaErrors({ ...config, forceCodeSignin: true }).join()).toMatch(/additionalProperty.*forceCodeSignin/);
    expect(schemaErrors({ ...config, asarUnpack: 42 }).length).toBeGreaterThan(0);
    expect(schemaErrors({ ...config, electronFuses: { ...config.electronFuses, runAsNod: false } }).join()).toMatch(/runAsNod/);
  });

  it('refuses to build an unsigned release', () => {
    expect(config.forceCodeSigning).toBe(true);
    for (const platform of [config.win, config.mac, config.linux]) expect(platform.forceCodeSigning).toBeUndefined();
    expect(config.win.verifyUpdateCodeSignature).toBe(true);
  });

  it('flips every fuse the security checklist asks for', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
  });

  it('packs the bundles the app loads and unpacks the native module', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string> };
    expect(pkg.main).toBe('dist/main/electron.js');
    expect(config.files).toEqual(expect.arrayContaining(['package.json', 'dist/main/**', 'dist/preload.cjs', 'dist/renderer/**']));
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**');
    expect(config.npmRebuild).toBe(true);
    // Only production dependencies are packaged: the native module must be one of them.
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['better-sqlite3', 'electron-updater']));
  });

  it('builds every installer IT deploys, with signing and notarization where the OS checks it', () => {
    const targets = (platform: Record<string, unknown>): string[] => (platform.target as { target: string }[]).map((t) => t.target);
    expect(targets(config.win)).toEqual(['nsis', 'msi']);
    expect(targets(config.mac)).toEqual(['dmg', 'zip']);
    expect(targets(config.linux)).toEqual(['AppImage', 'deb']);
    expect(config.mac).toMatchObject({ hardenedRuntime: true, notarize: true, entitlements: 'build/entitlements.mac.plist' });
    expect(config.msi).toMatchObject({ perMachine: true });
    expect(config.msi.upgradeCode).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(config.nsis).toMatchObject({ perMachine: false, deleteAppDataOnUninstall: false });
  });

  it('grants the hardened runtime nothing but JIT', () => {
    const plist = readFileSync(join(ROOT, 'build/entitlements.mac.plist'), 'utf8');
    expect([...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1])).toEqual(['com.apple.security.cs.allow-jit']);
  });

  it('updates from a generic feed whose address is given at release time', () => {
    expect(config.publish).toEqual({ provider: 'generic', url: '${env.POS_UPDATE_URL}', channel: 'latest' });
    expect(existsSync(join(ROOT, 'docs/release.md'))).toBe(true);
    expect(readFileSync(join(ROOT, 'docs/release.md'), 'utf8')).toContain('POS_UPDATE_URL');
  });
});
