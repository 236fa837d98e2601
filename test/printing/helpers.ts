// Real SQLite files in a fresh temporary folder per test, removed after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const folders: string[] = [];

export function tempDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'pos-printing-'));
  folders.push(folder);
  return folder;
}

export function tempDbPath(name = 'store.db'): string {
  return join(tempDir(), name);
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
