// Printing's and store mode's packages are loaded when used, not by every till: a bundle hoists each
// package import to its top, so they are required (receiptline, @peculiar/x509, bonjour-service) or
// imported (@noble/curves) where used. A till with store mode off and no printer, bundled as the app
// is and worked, must hold none of them; then, used once, each shows up (the check sees them). A till in
// store mode loads the certificate library only at a start that mints its certificates.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { childArgs } from '../child-script';
import { seedDataDir, testStaffConfig } from '../core/fixtures';

const LAZY = /\/node_modules\/(receiptline|bonjour-service|@peculiar\/x509|reflect-metadata|@noble\/curves)\//;
const lazyIn = (modules: string[]): string[] => [...new Set(modules.filter((m) => LAZY.test(m)).map((m) => LAZY.exec(m)?.[1] as string))].sort();

const work = mkdtempSync(join(tmpdir(), 'pos-lazy-'));
const dataDir = seedDataDir();
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

interface Step {
  step: string;
  required: string[];
}

function runTill(importLog: string): Promise<Step[]> {
  const hooks = pathToFileURL(join(import.meta.dirname, 'fixtures', 'record-imports.mjs')).href;
  const register = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(hooks)});`)}`;
  const child = spawn(process.execPath, ['--import', register, ...childArgs('test/store-mode/fixtures/lazy-packages-till.ts'), JSON.stringify({ dataDir, staff: testStaffConfig() })], {
    env: { ...process.env, POS_TEST_IMPORTS: importLog, POS_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`the till exited ${code}: ${stderr}`));
      else resolve(stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Step));
    });
  });
}

describe('packages loaded when used', () => {
  it('a till with store mode off and no printer loads none of printing’s and store mode’s packages', async () => {
    const importLog = join(work, 'imports.txt');
    writeFileSync(importLog, '');
    const [worked, used] = await runTill(importLog);
    const [importedWorking, importedUsing = ''] = readFileSync(importLog, 'utf8').split('used:\n');
    const imported = (part: string): string[] => part.split('\n').filter((line) => line !== '');

    // The records are live: the core's own packages are seen imported, and each lazy one once used.
    expect(imported(importedWorking ?? '').some((url) => url.includes('/node_modules/better-sqlite3/'))).toBe(true);
    expect(lazyIn(imported(importedUsing))).toEqual(['@noble/curves']);
    expect(lazyIn(used?.required ?? [])).toEqual(['@peculiar/x509', 'receiptline', 'reflect-metadata']);

    expect(worked?.step).toBe('worked');
    expect(lazyIn(imported(importedWorking ?? ''))).toEqual([]);
    expect(lazyIn(worked?.required ?? [])).toEqual([]);
  }, 60_000);

  it('a till in store mode loads the certificate library only when it mints: its first start, not the next', () => {
    const secretsFile = join(work, 'secrets.json');
    const start = () => JSON.parse(execFileSync(process.execPath, [...childArgs('test/store-mode/fixtures/identity-start.ts'), secretsFile], { encoding: 'utf8' }).trim().split('\n').at(-1) as string) as { tillId: string; cert: string; required: string[] };
    const first = start();
    const second = start();
    expect(lazyIn(first.required)).toEqual(['@peculiar/x509', 'reflect-metadata']);
    expect(second.tillId).toBe(first.tillId);
    expect(second.cert).toBe(first.cert);
    expect(lazyIn(second.required)).toEqual([]);
    // The kept certificates are in the secrets file beside the key, and nothing else is.
    expect(Object.keys(JSON.parse(readFileSync(secretsFile, 'utf8')) as object).sort()).toEqual(['storeMode.tillCertificates', 'storeMode.tillKey']);
  }, 60_000);
});
