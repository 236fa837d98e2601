// Where credentials live. The Electron shell implements SecretStore with safeStorage; this file
// gives the plain-Node implementation (browser mode, tests): one JSON file readable by its owner
// only, replaced atomically so a crash mid-write leaves either the old or the new secrets.
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

export interface SecretStore {
  get(name: string): Promise<string | null>;
  /** Sets several secrets in one atomic step (an OAuth refresh replaces access and refresh token together). */
  setMany(values: Record<string, string | null>): Promise<void>;
}

const SecretFile = z.record(z.string(), z.string());

export class FileSecretStore implements SecretStore {
  constructor(private readonly filePath: string) {}

  async get(name: string): Promise<string | null> {
    return this.#read()[name] ?? null;
  }

  async setMany(values: Record<string, string | null>): Promise<void> {
    const next = this.#read();
    for (const [name, value] of Object.entries(values)) {
      if (value === null) delete next[name];
      else next[name] = value;
    }
    this.#writeAtomically(JSON.stringify(next));
  }

  #read(): Record<string, string> {
    let text: string;
    try {
      text = readFileSync(this.filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    const parsed = SecretFile.safeParse(safeJson(text));
    if (!parsed.success) throw new Error(`secret file ${this.filePath} is not a JSON object of strings`);
    return parsed.data;
  }

  #writeAtomically(text: string): void {
    mkdirSync(dirname(this.filePath), { recursive: true, mode: 0o700 });
    const temp = `${this.filePath}.${randomBytes(6).toString('hex')}.tmp`;
    // Created 0600 from the first byte: the secrets are never readable by others, even briefly.
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, 0o600); // umask cannot widen it, but an inherited ACL might: be explicit
    renameSync(temp, this.filePath);
    fsyncDirectory(dirname(this.filePath));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
