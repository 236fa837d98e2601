// The support bundle IT attaches to a ticket: versions, sync status, the effective configuration and
// the recent log lines, in one JSON file. Built to be safe to e-mail: every secret field is removed and
// every string passes the log redactor again, whatever the caller handed in.
import { open, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redactSecrets } from '../../common/log';

export const DIAGNOSTICS_FORMAT = 'pos-terminal-diagnostics/1';

/**
 * Field names whose values never leave the machine. `…Ref` fields only name a secret-store entry and
 * are kept; a PIN *hash* is removed too (a 4–6 digit PIN falls to brute force).
 */
const SECRET_FIELD = /(secret|token|password|passwd|pin|hash|apikey|api_key|authorization|cookie|credential_value|private)/i;
const REFERENCE_FIELD = /Ref$/;
/**
 * A PIN hash wherever a string carries one, whatever field holds it: a staff member as the flag or
 * POS_STAFF gives it ("Ana:owner:scrypt:<salt>:<hash>"), a raw argv, an error message, a log line.
 */
const PIN_HASH_IN_TEXT = /\bscrypt:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+/g;

/** The log redactor, and every scrypt PIN hash (staff members, the legacy manager PIN) removed. */
function redactText(text: string): string {
  return redactSecrets(text).replace(PIN_HASH_IN_TEXT, 'scrypt:[removed]');
}

/**
 * A copy of `value` without secrets: fields named like one (every staff member's `pinHash`, the
 * legacy `offlinePayments.managerPinHash`, keys, tokens) say only whether they were set, and every
 * string is redacted.
 */
export function removeSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 12) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => removeSecrets(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (SECRET_FIELD.test(key) && !REFERENCE_FIELD.test(key)) {
      // Whether it is set is useful for support; the value is not.
      out[key] = field === '' || field === null || field === undefined ? '[not set]' : '[removed]';
    } else {
      out[key] = removeSecrets(field, depth + 1);
    }
  }
  return out;
}

export interface DiagnosticsInput {
  /** Folder of the rotating log files (pos.log, pos.log.1, …). */
  logDirectory: string;
  /** App, Electron, Chromium, Node and OS versions. */
  versions: Record<string, string>;
  /** The effective configuration and where each setting came from. */
  config: unknown;
  /** What `sync.status` answered, or the error it gave. */
  syncStatus: unknown;
  /** Anything else the shell knows (update state, secret protection level, paths). */
  facts?: Record<string, unknown>;
  /** Bytes kept from the end of each log file. */
  maxLogBytesPerFile?: number;
  now?: () => Date;
}

export interface LogExcerpt {
  file: string;
  sizeBytes: number;
  /** True when only the end of the file is included. */
  truncated: boolean;
  lines: string[];
}

export interface DiagnosticsBundle {
  format: typeof DIAGNOSTICS_FORMAT;
  createdAt: string;
  versions: Record<string, string>;
  facts: unknown;
  config: unknown;
  syncStatus: unknown;
  logs: LogExcerpt[];
}

async function readTail(file: string, maxBytes: number): Promise<{ text: string; size: number; truncated: boolean }> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    let text = buffer.toString('utf8');
    // Drop the partial first line of a tail so every kept line is whole JSON.
    if (length < size) text = text.slice(text.indexOf('\n') + 1);
    return { text, size, truncated: length < size };
  } finally {
    await handle.close();
  }
}

/** Log files newest first: the live file, then .1, .2, … */
async function logFiles(directory: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const rotation = (name: string): number => Number(/\.log(?:\.(\d+))?$/.exec(name)?.[1] ?? 0);
  const candidates = names.filter((name) => /\.log(\.\d+)?$/.test(name)).sort((a, b) => rotation(a) - rotation(b) || a.localeCompare(b));
  const files: string[] = [];
  for (const name of candidates) if ((await stat(join(directory, name))).isFile()) files.push(name);
  return files;
}

export async function buildDiagnosticsBundle(input: DiagnosticsInput): Promise<DiagnosticsBundle> {
  const maxBytes = input.maxLogBytesPerFile ?? 512 * 1024;
  const logs: LogExcerpt[] = [];
  for (const name of await logFiles(input.logDirectory)) {
    const tail = await readTail(join(input.logDirectory, name), maxBytes);
    logs.push({
      file: name,
      sizeBytes: tail.size,
      truncated: tail.truncated,
      lines: tail.text.split('\n').filter((line) => line.length > 0).map(redactText),
    });
  }
  return {
    format: DIAGNOSTICS_FORMAT,
    createdAt: (input.now ?? (() => new Date()))().toISOString(),
    versions: removeSecrets(input.versions) as Record<string, string>,
    facts: removeSecrets(input.facts ?? {}),
    config: removeSecrets(input.config),
    syncStatus: removeSecrets(input.syncStatus),
    logs,
  };
}

/** Writes the bundle to `outputFile` (readable by its owner only) and returns its size. */
export async function writeDiagnosticsBundle(input: DiagnosticsInput, outputFile: string): Promise<{ file: string; bytes: number }> {
  const text = JSON.stringify(await buildDiagnosticsBundle(input), null, 2);
  await writeFile(outputFile, text, { mode: 0o600, flag: 'w' });
  return { file: outputFile, bytes: Buffer.byteLength(text) };
}
