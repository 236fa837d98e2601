// Where `npm start` logs: JSON lines in a rotating file in the data folder (what IT and the
// diagnostics export read), never mixed into the console a person reads. `--verbose` adds the
// same lines to the console, one short readable line each.
import { accessSync, constants as fsConstants, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pino, { type DestinationStream } from 'pino';
import { createLogger, createRotatingLogFile, type Logger } from '../../common/log';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** pino's own fields, shown as the line's time, level and text rather than repeated as fields. */
const FRAME = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg']);

/** One JSON log line as "12:04:31 INFO  sync engine started (baseUrl=http://…)". */
export function prettyLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toTimeString().slice(0, 8);
  const level = (LEVELS[entry.level as number] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key]) => !FRAME.has(key))
    .map(([key, value]) => `${key}=${value !== null && typeof value === 'object' ? ((value as { message?: unknown }).message ?? JSON.stringify(value)) : String(value)}`);
  return `${time} ${level} ${String(entry.msg ?? '')}${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`;
}

function prettyConsole(): DestinationStream {
  return { write: (line: string) => void process.stderr.write(`${prettyLogLine(line)}\n`) };
}

/**
 * Makes the folder (and its parents) and checks it can be written. A recursive mkdir on a
 * read-only file system says ENOENT; the nearest folder that exists says why (EROFS, EACCES).
 */
function makeWritableFolder(directory: string): void {
  try {
    mkdirSync(directory, { recursive: true });
  } catch (error) {
    let existing = dirname(directory);
    while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
    accessSync(existing, fsConstants.W_OK);
    throw error;
  }
  accessSync(directory, fsConstants.W_OK);
}

export interface HostLog {
  logger: Logger;
  /** The live log file. */
  file: string;
  /** Flushes and closes the file: call it last, before the process exits. */
  close(): Promise<void>;
}

/**
 * Throws the file system's error (EROFS, EACCES, ENOSPC…) at once when the log folder cannot be
 * made or written: the rotating file would meet it later, inside the library, as an unhandled
 * rejection that prints a raw stack.
 */
export function openHostLog(dataDir: string, verbose: boolean): HostLog {
  const directory = join(dataDir, 'logs');
  makeWritableFolder(directory);
  const logFile = createRotatingLogFile({ directory });
  // Each stream takes every line the logger lets through (POS_LOG_LEVEL decides, not the stream).
  const destination = verbose
    ? pino.multistream([
        { stream: logFile.destination, level: 'trace' },
        { stream: prettyConsole(), level: 'trace' },
      ])
    : logFile.destination;
  return { logger: createLogger({ name: 'terminal', destination }), file: join(directory, 'pos.log'), close: () => logFile.close() };
}
