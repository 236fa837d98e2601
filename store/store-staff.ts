// Store mode's staff (docs/store-mode.md, "Built (layer 4)"): staff are the store's. Each write of a
// member on a till goes out as one entry of that till's log, in the write's transaction: the row with
// its PIN hash (never a PIN) and the till that wrote it. A till applying a peer's page keeps the newer
// version of each member: the later updated_at, then the greater writer till id, so every till ends on
// the same row whatever order the pages arrive in, and a version applied twice changes nothing.
// Provisioned members are not shared: each till's configuration owns them (the same id on every till,
// from the name), and so is the manager a till made from its old settings' manager PIN.
import { z } from 'zod';
import { newId } from '../common/ids';
import type { SqlRunner } from './database';
import type { RawEntry } from './store-forwards';

/** The member made from a till's legacy manager PIN (main/core/staff/desk.ts): the same id on every till, so kept to each. */
export const LEGACY_MANAGER_ID = 'stf_legacy_manager';

/** A member's version as it travels (the body of its entry in the writing till's log). */
export const StaffEntryBody = z.object({
  op: z.literal('staff'),
  staff: z.object({
    id: z.string().min(1).max(100),
    name: z.string().min(1).max(100),
    role: z.enum(['cashier', 'manager', 'owner']),
    pin_hash: z.string().min(1).max(500),
    active: z.boolean(),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  }),
  /** The till whose write this is: breaks a tie of two writes in the same ms. */
  till: z.string().min(1).max(100),
});
export type StaffEntryBody = z.infer<typeof StaffEntryBody>;

/** Where a till's shared staff writes go: its log, under its till id (the link sets it while it runs). */
export interface StaffOutlet {
  tillId: string;
  append(entry: RawEntry): void;
}

/** The member's version as it goes out in the log. */
export function staffEntry(member: StaffEntryBody['staff'], tillId: string, now: number): RawEntry {
  const body: StaffEntryBody = { op: 'staff', staff: member, till: tillId };
  return { entryId: newId('stw_', now), kind: 'staff', id: member.id, body, now };
}

/** Whether a member is the store's (shared with the other tills) rather than this till's configuration's. */
export const sharedMember = (member: { id: string; provisioned: boolean }): boolean => !member.provisioned && member.id !== LEGACY_MANAGER_ID;

// The newer version replaces: later updated_at, then the greater writer; never a provisioned row or the legacy manager.
const UPSERT_SQL = `
  INSERT INTO staff (id, name, role, pin_hash, active, provisioned, created_at, updated_at, written_by) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET
    name = excluded.name, role = excluded.role, pin_hash = excluded.pin_hash, active = excluded.active, updated_at = excluded.updated_at, written_by = excluded.written_by
  WHERE staff.provisioned = 0
    AND (excluded.updated_at > staff.updated_at OR (excluded.updated_at = staff.updated_at AND excluded.written_by > COALESCE(staff.written_by, '')))`;

/**
 * A page's entry, if it is a member's version: kept when newer than this till's (inside the page's
 * transaction). Answers whether the entry was a staff entry at all. Each version that changes a row
 * counts in `store_meta.staff_received`: the staff desk forgets the PINs it learned when it moves.
 */
export function receiveStaff(sql: SqlRunner, body: unknown): boolean {
  const entry = StaffEntryBody.safeParse(body);
  if (!entry.success) return false;
  const { staff: m, till } = entry.data;
  if (m.id === LEGACY_MANAGER_ID) return true;
  const changed = sql.runSql(UPSERT_SQL, [m.id, m.name, m.role, m.pin_hash, m.active ? 1 : 0, m.created_at, m.updated_at, till]).changes;
  if (changed > 0) {
    sql.runSql("INSERT INTO store_meta (key, value) VALUES ('staff_received', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1", []);
  }
  return true;
}

/** How many peer versions have changed this till's staff so far. */
export function staffReceived(sql: SqlRunner): number {
  return Number(sql.allSql<{ value: string }>("SELECT value FROM store_meta WHERE key = 'staff_received'", [])[0]?.value ?? 0);
}
