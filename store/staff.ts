// Staff of this terminal and the sign-in guard (migration 14). Only PIN hashes are kept; the core
// hashes and compares (main/core/staff). Nothing here is ever sent to the cloud.
import type { SqlRunner } from './database';
import { StoreError } from './errors';

export type StaffRole = 'cashier' | 'manager' | 'owner';

export interface StaffDoc {
  id: string;
  name: string;
  role: StaffRole;
  pin_hash: string;
  active: boolean;
  provisioned: boolean;
  created_at: number;
  updated_at: number;
}

interface StaffRow extends Omit<StaffDoc, 'active' | 'provisioned'> {
  active: number;
  provisioned: number;
}

const fromRow = (r: StaffRow): StaffDoc => ({ ...r, active: r.active === 1, provisioned: r.provisioned === 1 });

/** Wrong PINs in a row, and until when PIN entry is refused (ms). */
export interface SignInGuardState {
  failures: number;
  lockedUntil: number;
}

export class StaffRoster {
  constructor(
    private readonly sql: SqlRunner,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {}

  list(): StaffDoc[] {
    return this.sql.allSql<StaffRow>('SELECT * FROM staff ORDER BY active DESC, name COLLATE NOCASE', []).map(fromRow);
  }

  get(id: string): StaffDoc | undefined {
    const row = this.sql.allSql<StaffRow>('SELECT * FROM staff WHERE id = ?', [id])[0];
    return row ? fromRow(row) : undefined;
  }

  /** Names of many staff at once (records name who did them). */
  names(ids: readonly string[]): Map<string, string> {
    if (ids.length === 0) return new Map();
    const rows = this.sql.allSql<{ id: string; name: string }>('SELECT id, name FROM staff WHERE id IN (SELECT value FROM json_each(?))', [JSON.stringify([...new Set(ids)])]);
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  insert(doc: Omit<StaffDoc, 'created_at' | 'updated_at'>, now: number): StaffDoc {
    this.sql.runSql('INSERT INTO staff (id, name, role, pin_hash, active, provisioned, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      doc.id,
      doc.name,
      doc.role,
      doc.pin_hash,
      doc.active ? 1 : 0,
      doc.provisioned ? 1 : 0,
      now,
      now,
    ]);
    return this.get(doc.id)!;
  }

  update(id: string, change: Partial<Pick<StaffDoc, 'name' | 'role' | 'pin_hash' | 'active'>>, now: number): StaffDoc {
    const current = this.get(id);
    if (!current) throw new StoreError('not_found', `staff ${id} not found`);
    const next = { ...current, ...change };
    this.sql.runSql('UPDATE staff SET name = ?, role = ?, pin_hash = ?, active = ?, updated_at = ? WHERE id = ?', [next.name, next.role, next.pin_hash, next.active ? 1 : 0, now, id]);
    return this.get(id)!;
  }

  /**
   * Makes the provisioned staff match the configuration: each listed member is added or brought up
   * to date (name, role, PIN hash, active); a provisioned member no longer listed is deactivated,
   * never deleted (past records still name them). Answers whether anything changed.
   */
  syncProvisioned(members: readonly { id: string; name: string; role: StaffRole; pin_hash: string }[], now: number): boolean {
    return this.transaction(() => {
      let changed = false;
      const listed = new Set(members.map((m) => m.id));
      for (const member of members) {
        const current = this.get(member.id);
        if (!current) {
          this.insert({ ...member, active: true, provisioned: true }, now);
          changed = true;
        } else if (current.name !== member.name || current.role !== member.role || current.pin_hash !== member.pin_hash || !current.active || !current.provisioned) {
          this.sql.runSql('UPDATE staff SET name = ?, role = ?, pin_hash = ?, active = 1, provisioned = 1, updated_at = ? WHERE id = ?', [member.name, member.role, member.pin_hash, now, member.id]);
          changed = true;
        }
      }
      for (const stale of this.list().filter((s) => s.provisioned && s.active && !listed.has(s.id))) {
        this.sql.runSql('UPDATE staff SET active = 0, updated_at = ? WHERE id = ?', [now, stale.id]);
        changed = true;
      }
      return changed;
    });
  }

  guard(): SignInGuardState {
    const row = this.sql.allSql<{ failures: number; locked_until: number }>('SELECT failures, locked_until FROM sign_in_guard WHERE id = 1', [])[0];
    return row ? { failures: row.failures, lockedUntil: row.locked_until } : { failures: 0, lockedUntil: 0 };
  }

  setGuard(state: SignInGuardState): void {
    this.sql.runSql(
      'INSERT INTO sign_in_guard (id, failures, locked_until) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until',
      [state.failures, state.lockedUntil],
    );
  }
}
