// Store mode's staff (docs/store-mode.md, "Built (layer 4)"): staff are the store's. Each write of a
// member on a till goes out as one entry of that till's log, in the write's transaction: the row with
// its PIN hash (never a PIN), when each of its fields was last written, and the till that wrote it. A
// till applying a peer's page merges field by field: each of name, role, PIN hash and active keeps its
// latest write (a tie: the greater value), so two tills changing different fields of one member in an
// outage both keep their change (a deactivation is not undone by a PIN change made elsewhere), every
// till ends on the same row whatever order the pages arrive in, and a version applied twice changes
// nothing. An entry without field times (a till of an older version) stands for all of them at its
// updated_at. Provisioned members are not shared: each till's configuration owns them (the same id on
// every till, from the name), and so is the manager a till made from its old settings' manager PIN.
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
    /** When each field was last written (absent from an older till's entry: all at updated_at). */
    field_times: z.object({ name: z.number().int(), role: z.number().int(), pin_hash: z.number().int(), active: z.number().int() }).optional(),
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

/** The fields merged one by one, each keeping its latest write. */
export const STAFF_FIELDS = ['name', 'role', 'pin_hash', 'active'] as const;
export type StaffField = (typeof STAFF_FIELDS)[number];
export type FieldTimes = Record<StaffField, number>;

/** A row's field times as stored (JSON, or NULL: every field at the row's updated_at). */
export function fieldTimesOf(stored: string | null, updatedAt: number): FieldTimes {
  const parsed = stored === null ? null : StaffEntryBody.shape.staff.shape.field_times.safeParse(JSON.parse(stored));
  return parsed?.success && parsed.data ? parsed.data : { name: updatedAt, role: updatedAt, pin_hash: updatedAt, active: updatedAt };
}

type MemberValues = Pick<StaffEntryBody['staff'], StaffField>;

/**
 * `incoming` merged into `current` field by field: the later write of each field wins, a tie the
 * greater value (the same on every till); null when `current` keeps every field.
 */
export function mergeMember(current: { values: MemberValues; times: FieldTimes }, incoming: { values: MemberValues; times: FieldTimes }): { values: MemberValues; times: FieldTimes } | null {
  const values = { ...current.values };
  const times = { ...current.times };
  let changed = false;
  for (const field of STAFF_FIELDS) {
    const [mine, theirs] = [current.values[field], incoming.values[field]];
    const later = incoming.times[field] > current.times[field];
    const tie = incoming.times[field] === current.times[field] && String(theirs) > String(mine);
    if (!later && !tie) continue;
    if (theirs !== mine || incoming.times[field] !== current.times[field]) changed = true;
    Object.assign(values, { [field]: theirs });
    times[field] = incoming.times[field];
  }
  return changed ? { values, times } : null;
}

/** The member's version as it goes out in the log. */
export function staffEntry(member: StaffEntryBody['staff'], tillId: string, now: number): RawEntry {
  const body: StaffEntryBody = { op: 'staff', staff: member, till: tillId };
  return { entryId: newId('stw_', now), kind: 'staff', id: member.id, body, now };
}

/** Whether a member is the store's (shared with the other tills) rather than this till's configuration's. */
export const sharedMember = (member: { id: string; provisioned: boolean }): boolean => !member.provisioned && member.id !== LEGACY_MANAGER_ID;

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
  const incoming = { values: { name: m.name, role: m.role, pin_hash: m.pin_hash, active: m.active }, times: m.field_times ?? fieldTimesOf(null, m.updated_at) };
  const [row] = sql.allSql<{ name: string; role: MemberValues['role']; pin_hash: string; active: number; provisioned: number; updated_at: number; field_times: string | null; written_by: string | null }>(
    'SELECT name, role, pin_hash, active, provisioned, updated_at, field_times, written_by FROM staff WHERE id = ?',
    [m.id],
  );
  if (row?.provisioned === 1) return true;
  let changed: boolean;
  if (!row) {
    sql.runSql('INSERT INTO staff (id, name, role, pin_hash, active, provisioned, created_at, updated_at, field_times, written_by) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)', [
      m.id, m.name, m.role, m.pin_hash, m.active ? 1 : 0, m.created_at, Math.max(...Object.values(incoming.times)), JSON.stringify(incoming.times), till,
    ]);
    changed = true;
  } else {
    const current = { values: { name: row.name, role: row.role, pin_hash: row.pin_hash, active: row.active === 1 }, times: fieldTimesOf(row.field_times, row.updated_at) };
    const merged = mergeMember(current, incoming);
    changed = merged !== null;
    if (merged) {
      // A write of this till not logged yet (written_by NULL) stays to be logged, merged.
      sql.runSql('UPDATE staff SET name = ?, role = ?, pin_hash = ?, active = ?, updated_at = ?, field_times = ?, written_by = COALESCE(?, written_by) WHERE id = ?', [
        merged.values.name, merged.values.role, merged.values.pin_hash, merged.values.active ? 1 : 0, Math.max(...Object.values(merged.times)), JSON.stringify(merged.times), row.written_by === null ? null : till, m.id,
      ]);
    }
  }
  if (changed) {
    sql.runSql("INSERT INTO store_meta (key, value) VALUES ('staff_received', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1", []);
  }
  return true;
}

/** How many peer versions have changed this till's staff so far. */
export function staffReceived(sql: SqlRunner): number {
  return Number(sql.allSql<{ value: string }>("SELECT value FROM store_meta WHERE key = 'staff_received'", [])[0]?.value ?? 0);
}
