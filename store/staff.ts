// Staff of this terminal and the sign-in guard (migrations 14 and 15). Only PIN hashes are kept; the
// core hashes and compares (main/core/staff). Nothing here is ever sent to the cloud. In store mode the
// staff are the store's: each write of a shared member also goes out in the till's log (store-staff.ts).
//
// The guard limits PIN guessing (docs/staff.md, "PIN guessing"). Every PIN check reserves an attempt
// here, synchronously, before the slow hash: the reservation is refused while entry waits, and it
// takes a token from the till's budget of wrong PINs at once, so requests sent together cannot slip
// past the limit. A right PIN gives its own token back and clears only the wrong PINs reserved before
// it (its own sequence); it never refills the budget: only time does.
import type { SqlRunner } from './database';
import { StoreError } from './errors';
import { fieldTimesOf, sharedMember, STAFF_FIELDS, staffEntry, staffReceived, type FieldTimes, type StaffOutlet } from './store-staff';

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
  written_by: string | null;
  /** When each field was last written (store-staff.ts), JSON; NULL: all at updated_at. */
  field_times: string | null;
}

/**
 * The PIN hash of an inactive member whose PIN was given to someone else while they were away: it
 * matches no PIN, so bringing them back takes a new one (two active staff never share a PIN).
 */
export const RELEASED_PIN_HASH = 'released';

const fromRow = ({ written_by: _writer, field_times: _times, ...r }: StaffRow): StaffDoc => ({ ...r, active: r.active === 1, provisioned: r.provisioned === 1 });

/** Wrong PINs in a row, and until when PIN entry is refused (ms). */
export interface SignInGuardState {
  failures: number;
  lockedUntil: number;
}

/**
 * What a PIN check is for: signing in, approving, the owner's override of a lockout, or setting a
 * PIN (whose "already in use" answer tells that a PIN is someone's, so it is rationed too).
 */
export type PinAttemptKind = 'sign_in' | 'approval' | 'override' | 'pin_set';
/**
 * pending: being hashed (counted as wrong until settled); right: a sign-in, clears the wrong PINs
 * before it; neutral: a right PIN that clears nothing (an approval; a PIN to set found unused).
 */
export type PinOutcome = 'wrong' | 'right' | 'neutral';

type BudgetName = 'guess' | 'override' | 'pin_set';

/** The limits, in one place (docs/staff.md gives them in figures). */
export const PIN_LIMITS = {
  /** Wrong PINs in a row before entry waits; the wait then doubles up to the cap. */
  freeTries: 5,
  firstWaitMs: 30_000,
  maxWaitMs: 15 * 60_000,
  /**
   * Token buckets, per till: a check takes a token, time alone puts them back. `guess`: sign-in and
   * approval PINs (a right one returns its own token); `override`: an owner lifting a lockout with
   * their PIN; `pin_set`: PINs given to set (each one checked against everyone's costs a token).
   */
  budgets: {
    guess: { capacity: 10, refillMs: 5 * 60_000 },
    override: { capacity: 3, refillMs: 10 * 60_000 },
    pin_set: { capacity: 20, refillMs: 3 * 60_000 },
  } satisfies Record<BudgetName, { capacity: number; refillMs: number }>,
  /** Attempts older than this are forgotten; the owner's notice counts wrong PINs over it. */
  windowMs: 24 * 60 * 60_000,
} as const;

const budgetOf = (kind: PinAttemptKind): BudgetName => (kind === 'override' ? 'override' : kind === 'pin_set' ? 'pin_set' : 'guess');

/** The wait after `failures` wrong PINs in a row (0 below the free tries). */
export function lockoutWait(failures: number): number {
  if (failures < PIN_LIMITS.freeTries) return 0;
  return Math.min(PIN_LIMITS.firstWaitMs * 2 ** (failures - PIN_LIMITS.freeTries), PIN_LIMITS.maxWaitMs);
}

/** A reserved attempt, or how long entry still waits and why. */
export type PinReservation = { ok: true; seq: number } | { ok: false; waitMs: number; reason: 'lockout' | 'budget' };

export class StaffRoster {
  /** Store mode, while the link runs: where shared members' writes go (null: kept here, logged when it starts). */
  #outlet: StaffOutlet | null = null;

  constructor(
    private readonly sql: SqlRunner,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {}

  /**
   * Store mode: from now on each write of a shared member appends its version to the log through
   * `outlet`, in the write's transaction; null stops it. Started, it logs at once every shared member
   * whose version is not in the log yet (written before store mode, or while the link was stopped).
   */
  replicateTo(outlet: StaffOutlet | null, now: number): void {
    this.#outlet = outlet;
    if (!outlet) return;
    this.transaction(() => {
      const unlogged = this.sql.allSql<StaffRow>('SELECT * FROM staff WHERE written_by IS NULL', []).map(fromRow).filter(sharedMember);
      for (const member of unlogged) this.#publish(member, now);
    });
  }

  /** How many versions written on other tills have changed this till's staff (the desk forgets learned PINs when it moves). */
  receivedFromPeers(): number {
    return staffReceived(this.sql);
  }

  /** Logs a shared member's version (inside the write's transaction), or marks it not logged yet. */
  #publish(member: StaffDoc, now: number): void {
    if (!sharedMember(member)) return;
    const outlet = this.#outlet;
    this.sql.runSql('UPDATE staff SET written_by = ? WHERE id = ?', [outlet?.tillId ?? null, member.id]);
    if (!outlet) return;
    const { provisioned: _provisioned, ...version } = member;
    outlet.append(staffEntry({ ...version, field_times: this.#fieldTimes(member.id, member.updated_at) }, outlet.tillId, now));
  }

  /** When each field of the member was last written (store-staff.ts). */
  #fieldTimes(id: string, updatedAt: number): FieldTimes {
    const [row] = this.sql.allSql<{ field_times: string | null }>('SELECT field_times FROM staff WHERE id = ?', [id]);
    return fieldTimesOf(row?.field_times ?? null, updatedAt);
  }

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
    return this.transaction(() => {
      this.sql.runSql('INSERT INTO staff (id, name, role, pin_hash, active, provisioned, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
        doc.id, doc.name, doc.role, doc.pin_hash, doc.active ? 1 : 0, doc.provisioned ? 1 : 0, now, now,
      ]);
      const created = this.get(doc.id)!;
      this.#publish(created, now);
      return created;
    });
  }

  update(id: string, change: Partial<Pick<StaffDoc, 'name' | 'role' | 'pin_hash' | 'active'>>, now: number): StaffDoc {
    const current = this.get(id);
    if (!current) throw new StoreError('not_found', `staff ${id} not found`);
    const next = { ...current, ...change };
    // Later than the version it replaces, even one another till wrote by a clock ahead of this one's:
    // a change made here after seeing that version wins over it on every till.
    const at = Math.max(now, current.updated_at + 1);
    return this.transaction(() => {
      // Only the fields this write changes take its time: a field another till changed meanwhile keeps its change (store-staff.ts).
      const times = this.#fieldTimes(id, current.updated_at);
      for (const field of STAFF_FIELDS) if (next[field] !== current[field]) times[field] = at;
      this.sql.runSql('UPDATE staff SET name = ?, role = ?, pin_hash = ?, active = ?, updated_at = ?, field_times = ? WHERE id = ?', [next.name, next.role, next.pin_hash, next.active ? 1 : 0, at, JSON.stringify(times), id]);
      const updated = this.get(id)!;
      this.#publish(updated, now);
      return updated;
    });
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

  #clearedThrough(): number {
    return this.sql.allSql<{ n: number }>('SELECT cleared_through AS n FROM sign_in_guard WHERE id = 1', [])[0]?.n ?? 0;
  }

  #writeGuard(state: SignInGuardState, clearedThrough: number): void {
    this.sql.runSql(
      'INSERT INTO sign_in_guard (id, failures, locked_until, cleared_through) VALUES (1, ?, ?, ?) ' +
        'ON CONFLICT (id) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until, cleared_through = excluded.cleared_through',
      [state.failures, state.lockedUntil, clearedThrough],
    );
  }

  /** Tokens left in a budget now (fractions: it refills continuously). */
  #tokens(name: BudgetName, now: number): number {
    const { capacity, refillMs } = PIN_LIMITS.budgets[name];
    const row = this.sql.allSql<{ tokens: number; at: number }>('SELECT tokens, at FROM pin_budgets WHERE name = ?', [name])[0];
    if (!row) return capacity;
    return Math.min(capacity, row.tokens + Math.max(0, now - row.at) / refillMs);
  }

  #setTokens(name: BudgetName, tokens: number, now: number): void {
    this.sql.runSql('INSERT INTO pin_budgets (name, tokens, at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET tokens = excluded.tokens, at = excluded.at', [
      name,
      Math.min(tokens, PIN_LIMITS.budgets[name].capacity),
      now,
    ]);
  }

  /**
   * The wrong PINs in a row (pending ones counted as wrong) since the last right sign-in or lift,
   * and the lock they make, written back. A PIN to set counts only once found in use.
   */
  #recount(): SignInGuardState {
    const cleared = this.#clearedThrough();
    const row = this.sql.allSql<{ n: number; last: number | null }>(
      "SELECT COUNT(*) AS n, MAX(at) AS last FROM pin_attempts WHERE seq > ? AND (outcome = 'wrong' OR (outcome = 'pending' AND kind <> 'pin_set'))",
      [cleared],
    )[0]!;
    const state = { failures: row.n, lockedUntil: row.n >= PIN_LIMITS.freeTries && row.last !== null ? row.last + lockoutWait(row.n) : 0 };
    this.#writeGuard(state, cleared);
    return state;
  }

  /** How long PIN entry of this kind still waits (0: open), and why. */
  wait(kind: PinAttemptKind, now: number): { waitMs: number; reason: 'lockout' | 'budget' } {
    const lockout = kind === 'override' ? 0 : Math.max(0, this.guard().lockedUntil - now);
    const name = budgetOf(kind);
    const tokens = this.#tokens(name, now);
    const budget = tokens >= 1 ? 0 : Math.ceil((1 - tokens) * PIN_LIMITS.budgets[name].refillMs);
    return lockout >= budget ? { waitMs: lockout, reason: 'lockout' } : { waitMs: budget, reason: 'budget' };
  }

  /**
   * Reserves one PIN check, before it is hashed: refused while entry waits (a lockout, or the
   * budget spent); otherwise a token is taken and the attempt counts as wrong until settled.
   */
  reserveAttempt(kind: PinAttemptKind, now: number): PinReservation {
    return this.transaction(() => {
      const waiting = this.wait(kind, now);
      if (waiting.waitMs > 0) return { ok: false, ...waiting };
      this.sql.runSql('DELETE FROM pin_attempts WHERE at < ?', [now - PIN_LIMITS.windowMs]);
      const name = budgetOf(kind);
      const tokens = this.#tokens(name, now) - 1;
      this.#setTokens(name, tokens, now);
      const seq = Number(this.sql.runSql("INSERT INTO pin_attempts (kind, at, outcome) VALUES (?, ?, 'pending')", [kind, now]).lastInsertRowid);
      this.#recount();
      return { ok: true, seq };
    });
  }

  /**
   * Settles a reserved attempt once hashed. A right PIN (or a neutral one) gives its own token back;
   * a right sign-in also clears the wrong PINs reserved before it, never those after. A neutral
   * approval found not to be allowed after all is settled again as wrong (its token taken back).
   */
  settleAttempt(seq: number, outcome: PinOutcome, now: number): SignInGuardState {
    return this.transaction(() => {
      const row = this.sql.allSql<{ kind: PinAttemptKind; outcome: string }>('SELECT kind, outcome FROM pin_attempts WHERE seq = ?', [seq])[0];
      const before = this.guard();
      if (!row || row.outcome === outcome || row.outcome === 'wrong' || row.outcome === 'right') return before;
      this.sql.runSql('UPDATE pin_attempts SET outcome = ? WHERE seq = ?', [outcome, seq]);
      const name = budgetOf(row.kind);
      // A PIN to set costs its token whatever it finds: the answer "in use" is what a guesser wants.
      if (name !== 'pin_set') {
        if (outcome !== 'wrong') this.#setTokens(name, this.#tokens(name, now) + 1, now);
        else if (row.outcome === 'neutral') this.#setTokens(name, this.#tokens(name, now) - 1, now);
      }
      if (outcome === 'right') this.#writeGuard(before, Math.max(this.#clearedThrough(), seq));
      return this.#recount();
    });
  }

  /**
   * A right sign-in found without hashing (a PIN that signed in since launch: no slow step, so
   * nothing to reserve): it clears the wrong PINs before it, as a settled right sign-in does.
   */
  rightWithoutCheck(): void {
    this.transaction(() => {
      if (this.guard().failures === 0) return;
      const last = this.sql.allSql<{ n: number | null }>('SELECT MAX(seq) AS n FROM pin_attempts', [])[0]?.n ?? 0;
      this.#writeGuard(this.guard(), Math.max(this.#clearedThrough(), last));
      this.#recount();
    });
  }

  /**
   * Lifts a lockout (the owner, or IT from the command line): the wrong PINs so far no longer count
   * toward the wait and the guessing budget is full again. Audited as `staff.lockout_lifted` by
   * `actor` (a staff id, or "it"), with the wrong PINs of the last 24 h. Answers what it lifted.
   */
  liftLockout(actor: string, now: number): { inARow: number; wrongPins: number; since: number | null } {
    return this.transaction(() => {
      const { failures } = this.guard();
      const last = this.sql.allSql<{ n: number | null }>('SELECT MAX(seq) AS n FROM pin_attempts', [])[0]?.n ?? 0;
      this.#writeGuard({ failures: 0, lockedUntil: 0 }, Math.max(this.#clearedThrough(), last));
      this.#setTokens('guess', PIN_LIMITS.budgets.guess.capacity, now);
      const seen = this.wrongPinsSince(now);
      const lifted = { inARow: failures, wrongPins: seen.count, since: seen.since };
      this.sql.runSql("INSERT INTO audit_log (at, actor, action, entity_kind, entity_id, detail) VALUES (?, ?, 'staff.lockout_lifted', NULL, NULL, ?)", [
        now,
        actor,
        JSON.stringify(lifted),
      ]);
      return lifted;
    });
  }

  /** Wrong PINs over the last `windowMs` and when the first of them was typed. */
  wrongPinsSince(now: number): { count: number; since: number | null } {
    const row = this.sql.allSql<{ n: number; first: number | null }>("SELECT COUNT(*) AS n, MIN(at) AS first FROM pin_attempts WHERE outcome = 'wrong' AND at >= ?", [
      now - PIN_LIMITS.windowMs,
    ])[0]!;
    return { count: row.n, since: row.first };
  }
}
