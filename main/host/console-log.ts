// Where `npm start` logs: JSON lines in a rotating file in the data folder (what IT and the
// diagnostics export read), never mixed into the console a person reads. `--verbose` adds the
// same lines to the console, one short readable line each.
import { join } from 'node:path';
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

export interface HostLog {
  logger: Logger;
  /** The live log file. */
  file: string;
  /** Flushes and closes the file: call it last, before the process exits. */
  close(): Promise<void>;
}

export function openHostLog(dataDir: string, verbose: boolean): HostLog {
  const directory = join(dataDir, 'logs');
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
