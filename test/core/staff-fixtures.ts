// Helpers for the staff, permission and shift suites: the store file read behind the core's back
// (a read-only SQLite connection on the live file), the audit log, a core restarted on the same
// data folder, and bridge answers checked without throwing.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { CommandInput, CommandName, CommandResult } from '../../bridge/contract';
import type { BridgeResponse } from '../../bridge/protocol';
import type { Clock } from '../../common/clock';
import { silentLogger } from '../../common/log';
import { TerminalConfig, type TerminalConfigInput } from '../../main/config/schema';
import { startCore, type Core } from '../../main/core/index';
import { FileSecretStore } from '../../sync/secret-store';
import { LOCATION, STAFF, testStaffConfig, type StaffKey } from './fixtures';

/** The id a provisioned member gets (main/core/staff/desk.ts: from the name). */
export function provisionedId(name: string): string {
  return `stf_cfg_${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

/** The id of each test staff member as the configuration provisions them. */
export const STAFF_ID: Record<StaffKey, string> = {
  owner: provisionedId(STAFF.owner.name),
  manager: provisionedId(STAFF.manager.name),
  cashier: provisionedId(STAFF.cashier.name),
  cashier2: provisionedId(STAFF.cashier2.name),
};

/** Runs `fn` on a read-only connection to the live store file (WAL: sees every committed write). */
export function readDb<T>(dataDir: string, fn: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'terminal.db'), { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The sign-in guard: wrong PINs in a row, every PIN check of the last 24 h, the till's budgets of them. */
const GUARD = ['sign_in_guard', 'pin_attempts', 'pin_budgets'];
/** Kept apart: the audit log and the sign-in guard (asked for), print jobs (by id: their state moves as a printer prints), SQLite's own. */
const APART = new Set(['audit_log', ...GUARD, 'print_jobs', 'sqlite_sequence']);

/**
 * Everything a command could change, as text: every row of every table of the store, the print
 * jobs by id, and optionally the sign-in guard and the audit log. Equal snapshots: nothing changed.
 */
export function snapshot(dataDir: string, options: { guard?: boolean; audit?: boolean } = {}): Record<string, string> {
  return readDb(dataDir, (db) => {
    const out: Record<string, string> = {};
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
    for (const table of tables.filter((t) => !APART.has(t))) out[table] = JSON.stringify(db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all());
    out.print_jobs = JSON.stringify(db.prepare('SELECT id, printer, kind, order_id FROM print_jobs ORDER BY id').all());
    if (options.guard) for (const table of GUARD) out[table] = JSON.stringify(db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all());
    if (options.audit) out.audit_log = JSON.stringify(db.prepare('SELECT * FROM audit_log ORDER BY id').all());
    return out;
  });
}

export interface AuditRow {
  id: number;
  at: number;
  actor: string;
  action: string;
  entity_kind: string | null;
  entity_id: string | null;
  detail: Record<string, unknown>;
}

export function lastAuditId(dataDir: string): number {
  return readDb(dataDir, (db) => (db.prepare('SELECT COALESCE(MAX(id), 0) AS n FROM audit_log').get() as { n: number }).n);
}

/** Audit entries written after `afterId`, oldest first. */
export function auditSince(dataDir: string, afterId: number): AuditRow[] {
  return readDb(dataDir, (db) =>
    (db.prepare('SELECT * FROM audit_log WHERE id > ? ORDER BY id').all(afterId) as (Omit<AuditRow, 'detail'> & { detail: string })[]).map((r) => ({
      ...r,
      detail: JSON.parse(r.detail) as Record<string, unknown>,
    })),
  );
}

export function count(dataDir: string, table: string, where = '1 = 1', ...params: unknown[]): number {
  return readDb(dataDir, (db) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...params) as { n: number }).n);
}

/** Starts a core on an existing data folder (a restart), the test staff provisioned unless the config lists its own. */
export async function startCoreOn(dataDir: string, config: Partial<TerminalConfigInput> = {}, clock?: Clock): Promise<Core> {
  const staff = config.staff?.members !== undefined ? config.staff : { ...config.staff, members: testStaffConfig().members as never };
  return startCore(TerminalConfig.parse({ dataDir, locationId: LOCATION, ...config, staff }), {
    logger: silentLogger,
    secretStore: new FileSecretStore(join(dataDir, 'secrets.json')),
    ...(clock ? { clock } : {}),
  });
}

export type Invoke = Pick<Core, 'invoke'>;

export async function raw(core: Invoke, command: CommandName | string, payload: unknown): Promise<BridgeResponse> {
  return core.invoke({ command, payload });
}

export async function ok<C extends CommandName>(core: Invoke, command: C, payload: CommandInput<C>): Promise<CommandResult<C>> {
  const response = await core.invoke({ command, payload });
  if (!response.ok) throw new Error(`${command} was refused: ${response.error.code}: ${response.error.message}`);
  return response.value as CommandResult<C>;
}

/** The refusal of a bridge answer (fails the test if it was not refused). */
export function refusal(response: BridgeResponse): { code: string; message: string; issues?: { path: string; message: string }[] } {
  expect(response.ok, `expected a refusal, got ${JSON.stringify(response).slice(0, 300)}`).toBe(false);
  if (response.ok) throw new Error('unreachable');
  return response.error as { code: string; message: string; issues?: { path: string; message: string }[] };
}

/** Signs `who` in by PIN (or locks the till for null), failing the test if refused. */
export async function as(core: Invoke, who: StaffKey | null): Promise<void> {
  const response = await core.invoke(who === null ? { command: 'staff.lock', payload: {} } : { command: 'staff.signIn', payload: { pin: STAFF[who].pin } });
  if (!response.ok) throw new Error(`sign-in of ${who} refused: ${response.error.message}`);
}
