// `npx tsx main/config/lift-lockout.ts [--data-dir <dir>]` lifts a lockout of PIN entry on a till
// (docs/it.md, "Lockout"; docs/staff.md, "PIN guessing"): the wrong PINs so far stop counting toward
// the wait and the till's budget of wrong PINs is full again. It works with the app running or not
// (the store is shared through SQLite's WAL) and writes `staff.lockout_lifted` by "it" to the audit
// log. The data folder is --data-dir, else POS_DATA_DIR, else the user's default (docs/it.md, §4).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqlRunner } from '../../store/database';
import { StaffRoster } from '../../store/staff';
import { defaultDataDir } from './load';
import { runWhenInvoked, type CliResult } from './cli';

export const LIFT_LOCKOUT_USAGE = [
  'usage: npx tsx main/config/lift-lockout.ts [--data-dir <dir>]',
  '',
  "Lifts a lockout of PIN entry on this till's store (terminal.db in the data folder: --data-dir,",
  'else POS_DATA_DIR, else the default folder). The app may be running. Audited as done by IT.',
].join('\n');

/** The PIN guard's migration: a store older than it has no lockout this can lift. */
const GUARD_VERSION = 15;

export type LiftLockoutResult = CliResult;

export interface LiftLockoutEnvironment {
  env?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  home?: string;
  now?: () => number;
}

/** The command without its process: `args` are what follows the script's name. */
export function liftLockoutCommand(args: readonly string[], environment: LiftLockoutEnvironment = {}): LiftLockoutResult {
  const refuse = (message: string): LiftLockoutResult => ({ code: 2, stdout: '', stderr: `${message}\n` });
  if (args.includes('--help') || args.includes('-h')) return { code: 0, stdout: `${LIFT_LOCKOUT_USAGE}\n`, stderr: '' };
  const env = environment.env ?? process.env;
  let dataDir = env.POS_DATA_DIR ?? '';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--data-dir' && args[i + 1] !== undefined) dataDir = args[++i]!;
    else if (arg.startsWith('--data-dir=')) dataDir = arg.slice('--data-dir='.length);
    else return refuse(`lift-lockout: unexpected ${arg}\n\n${LIFT_LOCKOUT_USAGE}`);
  }
  if (dataDir === '') dataDir = defaultDataDir(environment.platform ?? process.platform, env, environment.home ?? homedir());
  const file = join(dataDir, 'terminal.db');
  if (!existsSync(file)) return refuse(`lift-lockout: no store at ${file}: give the till's data folder with --data-dir.`);

  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version < GUARD_VERSION) return refuse(`lift-lockout: the store at ${file} is older than this app: start the app once, then run this again.`);
    const runInTransaction = db.transaction((fn: () => unknown) => fn());
    const roster = new StaffRoster(new SqlRunner(db), <T>(fn: () => T) => runInTransaction.immediate(fn) as T);
    const now = (environment.now ?? Date.now)();
    const lifted = roster.liftLockout('it', now);
    const wrong = lifted.since === null ? 'no wrong PINs in the last 24 hours' : `${lifted.wrongPins} wrong PINs since ${new Date(lifted.since).toISOString()}`;
    return { code: 0, stdout: `PIN entry is open on ${file} (${wrong}; ${lifted.inARow} in a row were forgiven).\n`, stderr: '' };
  } finally {
    db.close();
  }
}

runWhenInvoked(import.meta.url, liftLockoutCommand);
