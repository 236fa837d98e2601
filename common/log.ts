// Structured logging with secrets scrubbed before anything is written. Every Node-side component
// logs through this; `console.log` is linted out of store/, sync/ and main/.
import { once } from 'node:events';
import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';
import { createStream } from 'rotating-file-stream';

export type Logger = PinoLogger;

/** Credential shapes of the /v1 API and of our own per-launch tokens. */
const SECRET_VALUE = /\b(sk_(?:test|live)_|at_live_|rt_live_|whsec_|pos_launch_)[A-Za-z0-9_-]+/g;
/** HTTP credentials written into a message (a header line, a curl dump): the scheme stays, the value goes. */
const AUTHORIZATION_VALUE = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;

/** Field names whose values are never logged, wherever they appear. */
const SECRET_KEYS = [
  'authorization',
  'apiKey',
  'api_key',
  'access_token',
  'refresh_token',
  'client_secret',
  'clientSecret',
  'accessToken',
  'refreshToken',
  'cookie',
  'set-cookie',
  'secret',
  'signingSecret',
  'signing_secret',
  'token',
  'password',
  'pin',
  'managerPin',
  'code_verifier',
];

/**
 * A secret field serialised into a string (a raw JSON body, a form body, a query string):
 * `"client_secret":"…"`, `client_secret=…`, `pin: 1234`. The key stays so the line still reads.
 */
const SECRET_FIELD_IN_TEXT = new RegExp(
  `(["']?\\b(?:${SECRET_KEYS.map((k) => k.replace(/[-_]/g, '[-_]?')).join('|')})\\b["']?\\s*[:=]\\s*["']?)(?!(?:Bearer|Basic)\\s)([^"'&,;\\s}]+)`,
  'gi',
);

export function redactSecrets(text: string): string {
  // Authorization first: "Bearer at_live_…" becomes "Bearer [redacted]", not a half-redacted token.
  return text
    .replace(AUTHORIZATION_VALUE, (_match, scheme: string) => `${scheme} [redacted]`)
    .replace(SECRET_VALUE, (_match, prefix: string) => `${prefix}[redacted]`)
    .replace(SECRET_FIELD_IN_TEXT, (_match, key: string, value: string) => (value === '[redacted]' ? `${key}${value}` : `${key}[redacted]`));
}

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) {
    return { type: value.name, message: redactSecrets(value.message), stack: value.stack && redactSecrets(value.stack) };
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEYS.some((k) => k.toLowerCase() === key.toLowerCase()) ? '[redacted]' : scrub(v, depth + 1);
  }
  return out;
}

export interface LoggerOptions {
  level?: pino.LevelWithSilent;
  /** Where lines go; stdout by default. The Electron shell passes a rotating file stream. */
  destination?: DestinationStream;
  name?: string;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      name: options.name ?? 'pos',
      level: options.level ?? process.env.POS_LOG_LEVEL ?? 'info',
      // Every structured field and every message passes through the scrubber.
      formatters: { log: (fields) => scrub(fields) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((a) => (typeof a === 'string' ? redactSecrets(a) : a)) as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** A logger that writes nothing: for tests and benchmarks that do not assert on logs. */
export const silentLogger: Logger = pino({ level: 'silent' });

export interface RotatingLogFileOptions {
  /** Folder of the log files; created if missing. */
  directory: string;
  /** Name of the live file; rotated copies are `<name>.1` (newest) … `<name>.<maxFiles>`. */
  fileName?: string;
  /** Rotate once the live file reaches this many bytes. */
  maxFileBytes?: number;
  /** Rotated copies kept besides the live file; older ones are deleted. */
  maxFiles?: number;
}

export interface RotatingLogFile {
  destination: DestinationStream;
  /** Flushes buffered lines and closes the file: call it last on shutdown. */
  close(): Promise<void>;
}

/**
 * A size-bounded set of log files (classic logrotate numbering) so a terminal that runs for years never
 * fills its disk. Lines reach it already scrubbed by `createLogger`.
 */
export function createRotatingLogFile(options: RotatingLogFileOptions): RotatingLogFile {
  const fileName = options.fileName ?? 'pos.log';
  // In logrotate mode the generator receives only the rotation index (null for the live file).
  const rotatedName = (index: number | Date | null): string => (typeof index === 'number' ? `${fileName}.${index}` : fileName);
  const stream = createStream(rotatedName, {
    path: options.directory,
    size: `${options.maxFileBytes ?? 10 * 1024 * 1024}B`,
    rotate: options.maxFiles ?? 5,
  });
  // A log write that fails (disk full, folder removed) must never take the till down with it.
  stream.on('error', () => {});
  return {
    destination: stream,
    async close() {
      if (stream.writableFinished) return;
      stream.end();
      await once(stream, 'finish');
    },
  };
}
