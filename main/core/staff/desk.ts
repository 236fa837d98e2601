// Who is at the till and what they may do: the staff list, PIN sign-in with its lockout, the
// auto-lock, and the one check every protected action goes through (docs/staff.md).
import type { Role} from '../../../bridge/staff/roles';
import { assignableRoles, can, leastRoleFor, PERMISSIONS, ROLE_NAMES, ROLE_PERMISSIONS, weakPinReason, type Permission } from '../../../bridge/staff/roles';
import type { CommandResult } from '../../../bridge/contract';
import type { StaffMember, StaffSession } from '../../../bridge/staff/contract';
import type { Clock } from '../../../common/clock';
import { newId } from '../../../common/ids';
import type { StaffDoc, Store } from '../../../store/index';
import { PIN_LIMITS, RELEASED_PIN_HASH, type PinAttemptKind, type PinOutcome } from '../../../store/staff';
import { LEGACY_MANAGER_ID } from '../../../store/store-staff';
import type { TerminalConfig } from '../../config/schema';
import { CoreError } from '../errors';
import type { EventHub } from '../events';
import { hashPin, pinMatches } from '../../config/manager-pin';
import { PinDirectory } from './pins';

const WRONG_PIN = 'That PIN is not right.';
/** Store mode: a PIN found to be two people's (added on two tills before they met) names neither. */
const SHARED_PIN = 'This PIN belongs to more than one person since the tills met: a manager must give one of them a new PIN.';
const SIGNED_OUT_SHARED = 'You were signed out. The PIN you signed in with belongs to more than one person since the tills met: a manager must give one of them a new PIN.';

/**
 * A PIN given to approve what the signed-in person may not do, once checked. `attempt`: its
 * reservation in the sign-in guard, settled again as wrong if the approver may not do it after all.
 */
export type Approver = { kind: 'none' } | { kind: 'wrong' } | { kind: 'shared' } | { kind: 'locked'; message: string } | { kind: 'staff'; staff: StaffDoc; attempt: number };

/** Who is acting: the signed-in person, and whoever approved with their PIN. */
export interface Act {
  by: StaffDoc;
  approver: Approver;
}

export function staffMember(doc: StaffDoc): StaffMember {
  return { id: doc.id, name: doc.name, role: doc.role, active: doc.active, provisioned: doc.provisioned };
}

/** The id a provisioned member keeps across starts: from the name, so a re-listed name is the same person. */
function provisionedId(name: string): string {
  return `stf_cfg_${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'member'}`;
}

/**
 * A name as the till tells people apart: without case, spaces or punctuation, as the configuration
 * compares provisioned names ("Maria Lopez", "maria lopez" and "Maria-Lopez." are one person);
 * letters of any script count.
 */
function nameKey(name: string): string {
  const lower = name.normalize('NFKC').toLowerCase();
  return lower.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || lower.trim();
}

/** The sentence for PIN entry that waits `waitMs`. */
function waitSentence(waitMs: number): string {
  return `Too many wrong PINs. Try again in ${Math.ceil(waitMs / 1000)} seconds.`;
}

export class StaffDesk {
  readonly #pins = new PinDirectory();
  /** Store mode: the peer versions that had changed the staff when the learned PINs were last checked. */
  #receivedSeen = 0;
  #signedInId: string | null = null;
  /** The signed-in person's PIN was found shared since they signed in: their next command signs them out. */
  #signOutShared = false;
  /** Store mode: the PINs whose check of the remaining staff runs now (by member, one check each). */
  readonly #confirming = new Set<string>();
  #lastActivity = 0;
  /** Changes to the staff list run one after another: each checks, hashes, then writes. */
  #staffChanges: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly config: TerminalConfig,
    private readonly settings: () => { autoLockMinutes: number; drawerMode: 'shared' | 'per_cashier' },
    private readonly clock: Clock,
    private readonly events: EventHub,
  ) {
    this.#provision();
  }

  /** Makes the provisioned staff match the configuration (the legacy manager PIN hash is a manager named "Manager"). */
  #provision(): void {
    const members = this.config.staff.members.map((m) => ({ id: provisionedId(m.name), name: m.name, role: m.role, pin_hash: m.pinHash }));
    const legacy = this.config.offlinePayments.managerPinHash;
    if (legacy !== '' && !members.some((m) => m.id === provisionedId('Manager'))) {
      members.push({ id: provisionedId('Manager'), name: 'Manager', role: 'manager', pin_hash: legacy });
    }
    if (this.store.staff.syncProvisioned(members, this.clock.now())) this.#pins.forget();
  }

  /**
   * Before staff existed a manager could set one manager PIN at the till (kept in the settings).
   * It becomes a manager named "Manager" with that PIN, so an upgrade loses no approval; `forget`
   * then drops it from the settings.
   */
  keepLegacyManagerPin(hash: string | undefined, forget: () => void): void {
    if (hash === undefined || hash === '') return;
    this.store.transaction(() => {
      if (!this.store.staff.get(LEGACY_MANAGER_ID)) {
        this.store.staff.insert({ id: LEGACY_MANAGER_ID, name: 'Manager', role: 'manager', pin_hash: hash, active: true, provisioned: false }, this.clock.now());
        this.store.cashier.recordAudit('system', 'staff.from_manager_pin', { staffId: LEGACY_MANAGER_ID });
      }
      forget();
    });
    this.#pins.forget();
  }

  // ---- the session ----

  #active(): StaffDoc[] {
    return this.store.staff.list().filter((s) => s.active);
  }

  current(): StaffDoc | null {
    if (this.#signedInId === null) return null;
    const doc = this.store.staff.get(this.#signedInId);
    if (!doc?.active) {
      this.#signedInId = null;
      return null;
    }
    return doc;
  }

  session(): StaffSession {
    const by = this.current();
    const { waitMs } = this.store.staff.wait('sign_in', this.clock.now());
    const { autoLockMinutes, drawerMode } = this.settings();
    const seen = by && by.role !== 'cashier' ? this.#guessingSeen() : null;
    return {
      signedIn: by ? staffMember(by) : null,
      permissions: by ? [...ROLE_PERMISSIONS[by.role]] : [],
      setupNeeded: !this.#active().some((s) => s.role === 'owner'),
      lockedOutForMs: waitMs > 0 ? waitMs : null,
      autoLockMs: autoLockMinutes * 60_000,
      drawerMode,
      ...(seen ? { pinGuessing: seen } : {}),
    };
  }

  /** Wrong PINs of the last 24 h, for an owner or a manager, once there were enough to lock entry. */
  #guessingSeen(): { wrongPins: number; since: string } | null {
    const { count, since } = this.store.staff.wrongPinsSince(this.clock.now());
    return count >= PIN_LIMITS.freeTries && since !== null ? { wrongPins: count, since: new Date(since).toISOString() } : null;
  }

  #changed(): StaffSession {
    const view = this.session();
    this.events.emit('staff.session', view);
    return view;
  }

  /** Locks the till when it has gone unused longer than the auto-lock allows; answers whether someone is signed in. */
  checkIdle(): boolean {
    if (this.#signOutShared && this.#signedInId !== null) {
      this.store.cashier.recordAudit(this.#signedInId, 'staff.signed_out', { reason: 'pin_shared' });
      this.#signedInId = null;
      this.#signOutShared = false;
      this.#changed();
      throw new CoreError('needs_sign_in', SIGNED_OUT_SHARED);
    }
    if (this.#signedInId === null) return false;
    const limit = this.settings().autoLockMinutes * 60_000;
    if (limit > 0 && this.clock.now() - this.#lastActivity > limit) {
      this.store.cashier.recordAudit(this.#signedInId, 'staff.auto_lock', { idleMs: this.clock.now() - this.#lastActivity });
      this.#signedInId = null;
      this.#changed();
      return false;
    }
    return this.current() !== null;
  }

  touch(): void {
    this.#lastActivity = this.clock.now();
  }

  lock(): StaffSession {
    if (this.#signedInId !== null) this.store.cashier.recordAudit(this.#signedInId, 'staff.lock', {});
    this.#signedInId = null;
    this.#signOutShared = false;
    return this.#changed();
  }

  #signIn(doc: StaffDoc): StaffSession {
    this.#signedInId = doc.id;
    this.#signOutShared = false;
    this.touch();
    this.store.cashier.recordAudit(doc.id, 'staff.sign_in', {});
    return this.#changed();
  }

  async setupOwner(name: string, pin: string): Promise<StaffSession> {
    const alreadyOwned = () => new CoreError('conflict', 'This terminal already has an owner. Sign in with your PIN.');
    if (!this.session().setupNeeded) throw alreadyOwned();
    this.#requireGoodPin(pin, 'pin');
    const owner = await this.#oneAtATime(async () => {
      this.#requireUnusedName(name, null);
      await this.#requireUnusedPin(pin, null);
      const hash = await hashPin(pin);
      return this.store.transaction(() => {
        // Checked again after the hashing, in the write's transaction: two first-run screens cannot both make an owner.
        if (!this.session().setupNeeded) throw alreadyOwned();
        const doc = this.store.staff.insert({ id: newId('stf_', this.clock.now()), name, role: 'owner', pin_hash: hash, active: true, provisioned: false }, this.clock.now());
        this.store.cashier.recordAudit(doc.id, 'staff.setup_owner', { name });
        return doc;
      });
    });
    this.#pins.forget();
    return this.#signIn(owner);
  }

  /** Runs changes to the staff list one at a time: none checks a PIN or an owner count another is about to change. */
  #oneAtATime<T>(change: () => Promise<T>): Promise<T> {
    const run = this.#staffChanges.then(change, change);
    this.#staffChanges = run.catch(() => undefined);
    return run;
  }

  // ---- PIN checks (store/staff.ts holds the guard: docs/staff.md, "PIN guessing") ----

  /**
   * The PINs learned since launch, forgotten once another till's write changed the staff (store
   * mode): a PIN changed there no longer signs in here.
   */
  #learned(): PinDirectory {
    const received = this.store.staff.receivedFromPeers();
    if (received !== this.#receivedSeen) {
      this.#receivedSeen = received;
      this.#pins.forget();
    }
    return this.#pins;
  }

  /** Reserves a PIN check before hashing it; or the sentence to show while entry waits. */
  #reserve(kind: PinAttemptKind): { seq: number } | { waiting: string } {
    const reserved = this.store.staff.reserveAttempt(kind, this.clock.now());
    return reserved.ok ? { seq: reserved.seq } : { waiting: waitSentence(reserved.waitMs) };
  }

  /**
   * Settles a PIN check. A wrong one is audited; when it leaves PIN entry waiting, so is the
   * lockout, with the wrong PINs of the last 24 h (the owner's notice counts the same).
   */
  #settle(seq: number, outcome: PinOutcome, kind: PinAttemptKind): void {
    const now = this.clock.now();
    const guard = this.store.staff.settleAttempt(seq, outcome, now);
    if (outcome !== 'wrong') return;
    this.store.cashier.recordAudit('unknown', 'staff.wrong_pin', { failures: guard.failures, kind });
    const { waitMs, reason } = this.store.staff.wait('sign_in', now);
    if (waitMs > 0) {
      const { count, since } = this.store.staff.wrongPinsSince(now);
      this.store.cashier.recordAudit('unknown', 'staff.pin_lockout', { waitMs, reason, wrongPins: count, since: since === null ? null : new Date(since).toISOString() });
    }
  }

  /** Hashes a reserved PIN check; a failure to hash settles it as wrong (never left pending). */
  async #check<T>(seq: number, kind: PinAttemptKind, search: () => Promise<T | null>): Promise<T | null> {
    try {
      return await search();
    } catch (error) {
      this.#settle(seq, 'wrong', kind);
      throw error;
    }
  }

  /** The sentence of a refused PIN: the wait if entry now waits, else "not right". */
  #refusedPin(): string {
    const { waitMs } = this.store.staff.wait('sign_in', this.clock.now());
    return waitMs > 0 ? waitSentence(waitMs) : WRONG_PIN;
  }

  async signIn(pin: string): Promise<StaffSession> {
    if (this.#sharedBy(pin)) this.#refuseShared('sign_in');
    // Someone who signed in since launch is found without hashing: no slow step to reserve around,
    // but still only while PIN entry is open.
    const active = this.#active();
    const known = this.#learned().known(pin, active);
    if (known) {
      if (this.#recordedShared(pin, known)) this.#refuseShared('sign_in');
      const { waitMs } = this.store.staff.wait('sign_in', this.clock.now());
      if (waitMs > 0) throw new CoreError('needs_sign_in', waitSentence(waitMs));
      this.store.staff.rightWithoutCheck();
      const session = this.#signIn(known);
      if (!this.#pins.checkedAll(pin)) this.#confirmAlone(pin, known, active.filter((s) => s.id !== known.id));
      return session;
    }
    const reserved = this.#reserve('sign_in');
    if ('waiting' in reserved) throw new CoreError('needs_sign_in', reserved.waiting);
    const found = await this.#check(reserved.seq, 'sign_in', () => this.#learned().findFirst(pin, active));
    if (!found) {
      this.#settle(reserved.seq, 'wrong', 'sign_in');
      this.#changed();
      const message = this.#refusedPin();
      throw new CoreError('needs_sign_in', message, [{ path: 'pin', message }]);
    }
    // Found shared by a check that ended while this PIN was hashed, or recorded so before a restart: it names no one.
    if (this.#sharedBy(pin) || this.#recordedShared(pin, found.found)) this.#refuseShared('sign_in', reserved.seq);
    this.#settle(reserved.seq, 'right', 'sign_in');
    const session = this.#signIn(found.found);
    this.#confirmAlone(pin, found.found, found.rest);
    return session;
  }

  // ---- a PIN two people share (store mode: docs/staff.md, "A PIN two people share") ----

  /** The active members `pin` is known to be shared by, if it is (known since launch: checked before hashing). */
  #sharedBy(pin: string): string[] | null {
    return this.#pins.sharedBy(pin, () => this.store.staff.list());
  }

  /**
   * Whether `member`, whose PIN `pin` was found to be, is recorded in the store as sharing it with
   * another active member (found since launch or before a restart: store/shared-pins.ts). If so the
   * PIN is remembered as shared here too, so the next try is refused before hashing.
   */
  #recordedShared(pin: string, member: StaffDoc): boolean {
    const holders = this.store.sharedPins.sharersOf(member.id);
    if (!holders) return false;
    this.#pins.markShared(pin, holders);
    return true;
  }

  /**
   * Refuses a PIN known to be shared: a PIN check like any other (reserved, so refused while entry
   * waits, and on the till's budget), settled as neutral (it is someone's), audited.
   */
  #refuseShared(kind: 'sign_in' | 'override', reservedSeq?: number): never {
    let seq = reservedSeq;
    if (seq === undefined) {
      const reserved = this.#reserve(kind);
      if ('waiting' in reserved) throw new CoreError('needs_sign_in', reserved.waiting, [{ path: 'pin', message: reserved.waiting }]);
      seq = reserved.seq;
    }
    this.#settle(seq, 'neutral', kind);
    this.store.cashier.recordAudit('unknown', 'staff.pin_refused', { reason: 'pin_shared', kind });
    throw new CoreError('needs_sign_in', SHARED_PIN, [{ path: 'pin', message: SHARED_PIN }]);
  }

  /**
   * Store mode, after a sign-in by PIN has answered: checks the active members not hashed yet on the
   * same scrypt thread (one check per person at a time). Another matching, the PIN is remembered as
   * shared and audited, and a session of either ends at its next command. A till with store mode
   * off never has two people with one PIN from another till: nothing runs.
   */
  #confirmAlone(pin: string, found: StaffDoc, rest: readonly StaffDoc[]): void {
    if (this.config.storeMode.mode !== 'on' || this.#confirming.has(found.id)) return;
    this.#confirming.add(found.id);
    this.#pins
      .confirmAlone(pin, found, rest, this.#pins.generation())
      .then((others) => {
        if (others.length > 0) this.#foundShared([found, ...others], 'sign_in');
      })
      // A hash that failed confirms nothing: the PIN stays unconfirmed, and its next sign-in checks again.
      .catch(() => undefined)
      .finally(() => this.#confirming.delete(found.id));
  }

  /**
   * A PIN found to be each of `members`' (in store mode recorded in the store as shared, in the
   * audit entry's transaction, so a restart keeps it): audited, unless the store already had them
   * all as sharing it; their session ends at its next command.
   */
  #foundShared(members: readonly StaffDoc[], kind: 'sign_in' | 'approval'): void {
    const staffIds = members.map((m) => m.id);
    const storeMode = this.config.storeMode.mode === 'on';
    this.store.transaction(() => {
      const learned = storeMode ? this.store.sharedPins.record(members, this.clock.now()) : true;
      if (learned) this.store.cashier.recordAudit('system', 'staff.pin-shared', { staffIds, kind });
    });
    // Store mode off, two approvers with one PIN (configured so) only see the approval refused.
    if (!storeMode) return;
    if (this.#signedInId !== null && staffIds.includes(this.#signedInId)) this.#signOutShared = true;
  }

  /**
   * Checks a PIN given to approve (before the command runs: the command itself stays synchronous).
   * Only managers and owners can approve anything, so only their PINs are looked for: a cashier's
   * PIN is refused as any wrong one is, after the same work (every manager's and owner's hash). A
   * manager's PIN refused for what only the owner may do is answered as a wrong PIN too; it may be
   * found sooner, which tells no more than signing in with it would, from the same budget. A right
   * approval PIN clears no wrong PIN (only a sign-in does).
   */
  async approver(pin: string | undefined): Promise<Approver> {
    if (pin === undefined) return { kind: 'none' };
    const reserved = this.#reserve('approval');
    if ('waiting' in reserved) return { kind: 'locked', message: reserved.waiting };
    if (this.#sharedBy(pin)) {
      this.#settle(reserved.seq, 'neutral', 'approval');
      return { kind: 'shared' };
    }
    const found = (await this.#check(reserved.seq, 'approval', () => this.#approvers(pin))) ?? [];
    // Two or more, or found shared by another check while this one hashed, or recorded so before a restart: it approves as no one.
    const [approver] = found;
    if (found.length > 1 || (approver !== undefined && (this.#sharedBy(pin) || this.#recordedShared(pin, approver)))) {
      this.#settle(reserved.seq, 'neutral', 'approval');
      if (found.length > 1) this.#foundShared(found, 'approval');
      return { kind: 'shared' };
    }
    this.#settle(reserved.seq, approver ? 'neutral' : 'wrong', 'approval');
    return approver ? { kind: 'staff', staff: approver, attempt: reserved.seq } : { kind: 'wrong' };
  }

  /**
   * Whose PIN an approval PIN is: every manager's and owner's hash is checked, never stopping at the
   * first (but a PIN learned since the staff last changed: found again without hashing, as before,
   * in store mode only once it was checked against everyone). In store mode, one found is checked against the cashiers too (a cashier's own PIN shared
   * with a manager must not approve as the manager), unless it was already checked against everyone
   * since the staff last changed. Two or more found are remembered as shared (store mode).
   */
  async #approvers(pin: string): Promise<StaffDoc[]> {
    const pins = this.#learned();
    const storeMode = this.config.storeMode.mode === 'on';
    const active = this.#active();
    const approvers = active.filter((s) => s.role !== 'cashier');
    const known = pins.known(pin, approvers);
    if (known && (!storeMode || pins.checkedAll(pin))) return [known];
    const found = await pins.matching(pin, approvers);
    const [only] = found;
    if (only === undefined) return found;
    if (found.length > 1) {
      if (storeMode) pins.markShared(pin, found);
      return found;
    }
    if (!storeMode) {
      pins.learn(pin, only.id, false);
      return found;
    }
    const cashiers = await pins.matching(pin, active.filter((s) => s.role === 'cashier'));
    if (cashiers.length > 0) pins.markShared(pin, [only, ...cashiers]);
    else pins.learn(pin, only.id, true);
    return [only, ...cashiers];
  }

  /**
   * Lifts a lockout of PIN entry: the signed-in owner, or an owner giving their PIN (who is then
   * signed in). The owner's PIN is checked on a budget of its own (3 tries, one more every 10 min)
   * that works while entry waits; any other PIN, a manager's included, is refused as wrong.
   */
  async liftLockout(pin: string | undefined): Promise<StaffSession> {
    const by = this.checkIdle() ? this.current() : null;
    if (this.store.staff.wait('sign_in', this.clock.now()).waitMs === 0) {
      throw new CoreError('conflict', 'PIN entry is not locked: sign in with your PIN.');
    }
    if (pin === undefined) {
      if (by?.role !== 'owner') {
        const message = 'Only the owner can lift the lockout: the owner types their PIN.';
        throw new CoreError('needs_manager', message, [{ path: 'pin', message }]);
      }
      this.store.staff.liftLockout(by.id, this.clock.now());
      return this.#changed();
    }
    const reserved = this.#reserve('override');
    if ('waiting' in reserved) throw new CoreError('needs_sign_in', reserved.waiting, [{ path: 'pin', message: reserved.waiting }]);
    const active = this.#active();
    const owners = active.filter((s) => s.role === 'owner');
    const found = await this.#check(reserved.seq, 'override', () => this.#learned().findFirst(pin, owners));
    if (!found) {
      this.#settle(reserved.seq, 'wrong', 'override');
      this.#changed();
      throw new CoreError('needs_sign_in', WRONG_PIN, [{ path: 'pin', message: WRONG_PIN }]);
    }
    // An owner's PIN known to be shared lifts nothing (any other PIN is wrong here, shared or not).
    if (this.#sharedBy(pin) || this.#recordedShared(pin, found.found)) this.#refuseShared('override', reserved.seq);
    const owner = found.found;
    this.#settle(reserved.seq, 'neutral', 'override');
    this.store.staff.liftLockout(owner.id, this.clock.now());
    const session = this.#signIn(owner);
    // Checked against everyone else too (store mode): another owner's, or anyone's, with the same PIN.
    this.#confirmAlone(pin, owner, [...found.rest, ...active.filter((s) => s.role !== 'owner')]);
    return session;
  }

  /** Who acts now; refused when no one is signed in. */
  act(approver: Approver): Act {
    const by = this.current();
    if (!by) throw new CoreError('needs_sign_in', 'Sign in with your PIN first.');
    return { by, approver };
  }

  /**
   * The check every protected action makes: the signed-in person may, or an approver who may gave
   * their PIN. A refusal is audited and changes nothing else. Answers who approved, if anyone.
   */
  require(act: Act, permission: Permission): string | null {
    if (can(act.by.role, permission)) return null;
    const approver = this.#approverFor(act, permission);
    // Recorded when given: the action's own entry may name it too (discount.approved...).
    this.store.cashier.recordAudit(act.by.id, 'permission.approved', { permission, approvedBy: approver.id });
    return approver.id;
  }

  /**
   * Whose PIN was given to approve `permission` (staff.checkApproval), asked when the approval is
   * given, before the dialog closes on it. Refused as `require` refuses, wrong PIN for wrong PIN;
   * it approves nothing (the command asks again), so nothing is recorded but a refusal.
   */
  checkApproval(act: Act, permission: Permission): CommandResult<'staff.checkApproval'> {
    const approver = this.#approverFor(act, permission);
    return { approvedBy: { id: approver.id, name: approver.name }, message: `Approved by ${approver.name}.` };
  }

  /** The approver of `act` when they may approve `permission`; else the refusal, audited. */
  #approverFor(act: Act, permission: Permission): StaffDoc {
    const { approver } = act;
    if (approver.kind === 'staff' && approver.staff.active && can(approver.staff.role, permission)) return approver.staff;
    // Someone's PIN who may not approve this is refused as a wrong PIN, and counted as one: the
    // answer must not tell a guesser that the PIN is someone's.
    if (approver.kind === 'staff') this.#settle(approver.attempt, 'wrong', 'approval');
    const needs = `${PERMISSIONS[permission]} needs ${leastRoleFor(permission) === 'owner' ? 'the owner' : 'a manager'}`;
    const message =
      approver.kind === 'none'
        ? `${needs}: they can approve it with their PIN.`
        : approver.kind === 'locked'
          ? approver.message
          : approver.kind === 'shared'
            ? `${SHARED_PIN} Nothing was approved.`
            : `${this.#refusedPin()} ${needs}. Nothing was changed.`;
    this.store.cashier.recordAudit(act.by.id, 'permission.refused', { permission, approver: approver.kind === 'staff' ? 'wrong' : approver.kind });
    throw new CoreError('needs_manager', message, approver.kind === 'none' ? undefined : [{ path: 'managerPin', message }]);
  }

  /** The audit detail of an approved action. */
  static approval(approvedBy: string | null): { approvedBy?: string } {
    return approvedBy ? { approvedBy } : {};
  }

  // ---- the staff list ----

  /** Active staff by name, for anyone signed in: whom a check can be given to. */
  roster(): { id: string; name: string }[] {
    return this.store.staff
      .list()
      .filter((m) => m.active)
      .map((m) => ({ id: m.id, name: m.name }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  list(act: Act): StaffMember[] {
    this.require(act, 'staff.manage');
    // The mark comes from what the store recorded (store/shared-pins.ts), so a restart keeps it.
    const shared = this.store.sharedPins.sharedIds();
    return this.store.staff.list().map((doc) => (shared.has(doc.id) ? { ...staffMember(doc), pinShared: true } : staffMember(doc)));
  }

  #requireGoodPin(pin: string, path: string): void {
    const weak = weakPinReason(pin);
    if (weak) throw new CoreError('invalid_command', weak, [{ path, message: weak }]);
  }

  /** Refuses a name an active member already has (ignoring case, spaces and punctuation). */
  #requireUnusedName(name: string, exceptId: string | null): void {
    const key = nameKey(name);
    const other = this.#active().find((s) => s.id !== exceptId && nameKey(s.name) === key);
    if (other) {
      const message = `${other.name} is already on the staff. Give a name that tells them apart.`;
      throw new CoreError('conflict', message, [{ path: 'name', message }]);
    }
  }

  /**
   * Inactive members (not provisioned) whose PIN is `pin`: once it is someone else's, theirs is
   * released (RELEASED_PIN_HASH), so they come back only with a new one.
   */
  async #awayWithPin(pin: string, exceptId: string | null): Promise<StaffDoc[]> {
    const away = this.store.staff.list().filter((s) => !s.active && !s.provisioned && s.id !== exceptId && s.pin_hash !== RELEASED_PIN_HASH);
    const matches = await Promise.all(away.map((s) => pinMatches(pin, s.pin_hash)));
    return away.filter((_, i) => matches[i]);
  }

  /** In the write's transaction: the PIN given now is no longer theirs. */
  #releasePins(away: readonly StaffDoc[], by: string): void {
    for (const member of away) {
      this.store.staff.update(member.id, { pin_hash: RELEASED_PIN_HASH }, this.clock.now());
      this.store.cashier.recordAudit(by, 'staff.pin_released', { staffId: member.id });
    }
  }

  /**
   * Refuses a PIN already someone's. That answer names a PIN as someone's, so each PIN given to set
   * is a check on its own budget (20, one more every 3 min), refused while PIN entry waits, and one
   * found in use counts as a wrong PIN.
   */
  async #requireUnusedPin(pin: string, exceptId: string | null): Promise<void> {
    const reserved = this.#reserve('pin_set');
    if ('waiting' in reserved) {
      const message = reserved.waiting.replace('wrong PINs', 'PINs tried');
      throw new CoreError('conflict', message, [{ path: 'pin', message }]);
    }
    const others = this.#active().filter((s) => s.id !== exceptId);
    const inUse = await this.#check(reserved.seq, 'pin_set', () => this.#learned().find(pin, others));
    this.#settle(reserved.seq, inUse ? 'wrong' : 'neutral', 'pin_set');
    if (inUse) {
      const message = 'That PIN is already in use. Choose another.';
      throw new CoreError('conflict', message, [{ path: 'pin', message }]);
    }
  }

  #requireMayAssign(act: Act, role: Role, path: string): void {
    const actorRole = act.approver.kind === 'staff' && can(act.approver.staff.role, 'staff.manage') && !can(act.by.role, 'staff.manage') ? act.approver.staff.role : act.by.role;
    if (!assignableRoles(actorRole).includes(role)) {
      const message = `A ${ROLE_NAMES[actorRole].toLowerCase()} cannot add or change a ${ROLE_NAMES[role].toLowerCase()}: ask the owner.`;
      this.store.cashier.recordAudit(act.by.id, 'permission.refused', { permission: 'staff.manage', role });
      throw new CoreError('needs_manager', message, [{ path, message }]);
    }
  }

  create(act: Act, input: { name: string; role: Role; pin: string }): Promise<StaffMember> {
    const approvedBy = this.require(act, 'staff.manage');
    this.#requireMayAssign(act, input.role, 'role');
    this.#requireGoodPin(input.pin, 'pin');
    return this.#oneAtATime(() => this.#create(act, input, approvedBy));
  }

  async #create(act: Act, input: { name: string; role: Role; pin: string }, approvedBy: string | null): Promise<StaffMember> {
    this.#requireUnusedName(input.name, null);
    await this.#requireUnusedPin(input.pin, null);
    const away = await this.#awayWithPin(input.pin, null);
    const hash = await hashPin(input.pin);
    const doc = this.store.transaction(() => {
      this.#releasePins(away, act.by.id);
      const created = this.store.staff.insert({ id: newId('stf_', this.clock.now()), name: input.name, role: input.role, pin_hash: hash, active: true, provisioned: false }, this.clock.now());
      this.store.cashier.recordAudit(act.by.id, 'staff.create', { staffId: created.id, name: input.name, role: input.role, ...StaffDesk.approval(approvedBy) });
      return created;
    });
    this.#pins.forget();
    this.#changed();
    return staffMember(doc);
  }

  update(act: Act, input: { id: string; name?: string; role?: Role; pin?: string; active?: boolean }): Promise<StaffMember> {
    const approvedBy = this.require(act, 'staff.manage');
    // One at a time: two changes at once could each leave "another owner" or take the same PIN.
    return this.#oneAtATime(() => this.#update(act, input, approvedBy));
  }

  async #update(act: Act, input: { id: string; name?: string; role?: Role; pin?: string; active?: boolean }, approvedBy: string | null): Promise<StaffMember> {
    const current = this.store.staff.get(input.id);
    if (!current) throw new CoreError('not_found', 'That staff member is not on this terminal. Refresh the list.');
    if (current.provisioned) throw new CoreError('conflict', `${current.name} is set up by IT in the configuration: ask IT to change them.`);
    this.#requireMayAssign(act, current.role, 'role');
    if (input.role !== undefined) this.#requireMayAssign(act, input.role, 'role');
    const losesOwner = current.role === 'owner' && current.active && ((input.role !== undefined && input.role !== 'owner') || input.active === false);
    if (losesOwner && this.#active().filter((s) => s.role === 'owner').length === 1) {
      throw new CoreError('conflict', `${current.name} is the only owner. Make someone else owner first.`);
    }
    const comesBack = input.active === true && !current.active;
    if ((input.active ?? current.active) && (input.name !== undefined || comesBack)) this.#requireUnusedName(input.name ?? current.name, current.id);
    if (comesBack && input.pin === undefined && current.pin_hash === RELEASED_PIN_HASH) {
      const message = `${current.name}'s PIN was given to someone else while they were away. Give them a new PIN to bring them back.`;
      throw new CoreError('conflict', message, [{ path: 'pin', message }]);
    }
    let away: StaffDoc[] = [];
    if (input.pin !== undefined) {
      this.#requireGoodPin(input.pin, 'pin');
      await this.#requireUnusedPin(input.pin, current.id);
      away = await this.#awayWithPin(input.pin, current.id);
    }
    const hash = input.pin === undefined ? undefined : await hashPin(input.pin);
    const doc = this.store.transaction(() => {
      this.#releasePins(away, act.by.id);
      const updated = this.store.staff.update(
        input.id,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.role !== undefined ? { role: input.role } : {}),
          ...(hash !== undefined ? { pin_hash: hash } : {}),
          ...(input.active !== undefined ? { active: input.active } : {}),
        },
        this.clock.now(),
      );
      const changed = { name: input.name, role: input.role, pin: input.pin === undefined ? undefined : 'changed', active: input.active };
      this.store.cashier.recordAudit(act.by.id, 'staff.update', { staffId: input.id, ...changed, ...StaffDesk.approval(approvedBy) });
      return updated;
    });
    this.#pins.forget();
    this.#changed();
    return staffMember(doc);
  }

  /** Names of staff by id, for records that name who did them. */
  names(ids: readonly string[]): Map<string, string> {
    return this.store.staff.names(ids);
  }
}
