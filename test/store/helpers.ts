// Real SQLite files in a fresh temporary folder per test.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const folders: string[] = [];

/** A path for a database file in a folder removed after the test. */
export function tempDbPath(name = 'store.db'): string {
  const folder = mkdtempSync(join(tmpdir(), 'pos-store-'));
  folders.push(folder);
  return join(folder, name);
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export { cashier, serverOrder, threeLineOrder } from './fixtures';
