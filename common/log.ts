// Structured logging with secrets scrubbed before anything is written. Every Node-side component
// logs through this; `console.log` is linted out of store/, sync/ and main/.
import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** Credential shapes of the /v1 API and of our own per-launch tokens. */
const SECRET_VALUE = /\b(sk_(?:test|live)_|at_live_|rt_live_|whsec_|pos_launch_)[A-Za-z0-9_-]+/g;

/** Field names whose values are never logged, wherever they appear. */
const SECRET_KEYS = [
  'authorization',
  'apiKey',
  'api_key',
  'access_token',
  'refresh_token',
  'client_secret',
  'secret',
  'signingSecret',
  'signing_secret',
  'token',
  'password',
  'pin',
  'managerPin',
  'code_verifier',
];

export function redactSecrets(text: string): string {
  return text.replace(SECRET_VALUE, (_match, prefix: string) => `${prefix}[redacted]`);
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
