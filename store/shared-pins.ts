// PINs known to be shared (migration 33; docs/staff.md, "A PIN two people share"): in store mode two
// people added with the same PIN on two tills before they met are both on every till, and such a PIN
// must name neither, across restarts too. What is kept is who shares a PIN with whom, never the PIN:
// one row per member (staff_id), the group of members found sharing one PIN (group_id), and a
// reference to the PIN hash the member had then (hash_ref: SHA-256 of their stored scrypt string,
// salt included). The reference only tells whether the member still has that hash; it is not a
// digest of the PIN (a guess needs the salt, which only the staff row holds, and a scrypt), so it
// says nothing once the member's PIN changed, and no more than the staff row while it has not.
//
// A row holds while its member still has that hash: a member given a new PIN (or whose PIN was
// released, or changed on another till) drops out, and a group with fewer than two holders left is
// gone. An inactive holder stays in (brought back with the same PIN, the PIN is shared again) but
// is not counted as sharing it: a PIN is shared while two active holders have it.
import { createHash } from 'node:crypto';
import { newId } from '../common/ids';
import type { SqlRunner } from './database';

/** A member as the staff table has them now. */
interface Holding {
  staff_id: string;
  group_id: string;
  hash_ref: string;
  /** Null: no staff row any more. */
  pin_hash: string | null;
  active: number | null;
}

/** A member who holds the PIN hash they had when the PIN was found shared. */
export interface SharedPinHolder {
  id: string;
  pin_hash: string;
  active: boolean;
}

/** What stands in for a member's PIN hash in the table: SHA-256 of the whole scrypt string (salt included). */
export function pinHashRef(pinHash: string): string {
  return createHash('sha256').update(pinHash, 'utf8').digest('base64url');
}

export class SharedPins {
  constructor(
    private readonly sql: SqlRunner,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {}

  /**
   * Records `members` (two or more, each with the PIN hash they had when checked) as sharing one PIN.
   * A member already recorded with that same hash keeps their group, which the others join (groups
   * of it meet: it is one PIN). Answers whether anything new was learned: false when every one of
   * them was already recorded, with that hash, in one group.
   */
  record(members: readonly { id: string; pin_hash: string }[], now: number): boolean {
    return this.transaction(() => {
      const rows = this.sql.allSql<{ staff_id: string; group_id: string; hash_ref: string }>(
        'SELECT staff_id, group_id, hash_ref FROM staff_shared_pins WHERE staff_id IN (SELECT value FROM json_each(?))',
        [JSON.stringify(members.map((m) => m.id))],
      );
      const refs = new Map(members.map((m) => [m.id, pinHashRef(m.pin_hash)]));
      const groups = [...new Set(rows.filter((r) => refs.get(r.staff_id) === r.hash_ref).map((r) => r.group_id))];
      const [kept] = groups;
      const known = groups.length === 1 && members.every((m) => rows.some((r) => r.staff_id === m.id && r.group_id === kept && r.hash_ref === refs.get(m.id)));
      if (known) return false;
      const group = kept ?? newId('spg_', now);
      for (const other of groups.slice(1)) this.sql.runSql('UPDATE staff_shared_pins SET group_id = ? WHERE group_id = ?', [group, other]);
      for (const member of members) {
        this.sql.runSql(
          `INSERT INTO staff_shared_pins (staff_id, group_id, hash_ref, found_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (staff_id) DO UPDATE SET group_id = excluded.group_id, hash_ref = excluded.hash_ref, found_at = excluded.found_at`,
          [member.id, group, refs.get(member.id)!, now],
        );
      }
      return true;
    });
  }

  /**
   * The holders of each group still standing (two or more holding their hash), by group. Rows whose
   * member no longer has the hash (or no longer exists), and groups left with fewer than two holders,
   * are deleted on the way: they share nothing any more.
   */
  #groups(): Map<string, SharedPinHolder[]> {
    const rows = this.sql.allSql<Holding>(
      `SELECT p.staff_id, p.group_id, p.hash_ref, s.pin_hash, s.active
       FROM staff_shared_pins AS p LEFT JOIN staff AS s ON s.id = p.staff_id`,
      [],
    );
    const groups = new Map<string, SharedPinHolder[]>();
    const gone: string[] = [];
    for (const row of rows) {
      if (row.pin_hash === null || pinHashRef(row.pin_hash) !== row.hash_ref) {
        gone.push(row.staff_id);
        continue;
      }
      const holders = groups.get(row.group_id) ?? [];
      holders.push({ id: row.staff_id, pin_hash: row.pin_hash, active: row.active === 1 });
      groups.set(row.group_id, holders);
    }
    const dissolved = [...groups].filter(([, holders]) => holders.length < 2);
    for (const [group] of dissolved) groups.delete(group);
    if (gone.length > 0 || dissolved.length > 0) {
      this.transaction(() => {
        for (const id of gone) this.sql.runSql('DELETE FROM staff_shared_pins WHERE staff_id = ?', [id]);
        for (const [group] of dissolved) this.sql.runSql('DELETE FROM staff_shared_pins WHERE group_id = ?', [group]);
      });
    }
    return groups;
  }

  /**
   * When `staffId`'s PIN is known to be shared (they hold the hash recorded for them, and so does at
   * least one other active member of their group): every holder of their group, they included, active
   * or not. Else null.
   */
  sharersOf(staffId: string): SharedPinHolder[] | null {
    if (this.#empty()) return null;
    for (const holders of this.#groups().values()) {
      if (!holders.some((h) => h.id === staffId)) continue;
      const active = holders.filter((h) => h.active);
      return active.length >= 2 && active.some((h) => h.id === staffId) ? holders : null;
    }
    return null;
  }

  /** The active members whose PIN is known to be shared with another active member (the Staff screen's mark). */
  sharedIds(): Set<string> {
    const ids = new Set<string>();
    if (this.#empty()) return ids;
    for (const holders of this.#groups().values()) {
      const active = holders.filter((h) => h.active);
      if (active.length >= 2) for (const holder of active) ids.add(holder.id);
    }
    return ids;
  }

  #empty(): boolean {
    return this.sql.allSql<{ one: number }>('SELECT 1 AS one FROM staff_shared_pins LIMIT 1', []).length === 0;
  }
}
