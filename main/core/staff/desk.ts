// Who is at the till and what they may do: the staff list, PIN sign-in with its lockout, the
// auto-lock, and the one check every protected action goes through (docs/staff.md).
import type { Role} from '../../../bridge/staff/roles';
import { assignableRoles, can, leastRoleFor, PERMISSIONS, ROLE_NAMES, ROLE_PERMISSIONS, weakPinReason, type Permission } from '../../../bridge/staff/roles';
import type { StaffMember, StaffSession } from '../../../bridge/contract';
import type { Clock } from '../../../common/clock';
import { newId } from '../../../common/ids';
import type { StaffDoc, Store } from '../../../store/index';
import type { TerminalConfig } from '../../config/schema';
import { CoreError } from '../errors';
import type { EventHub } from '../events';
import { hashPin } from '../../config/manager-pin';
import { PinDirectory } from './pins';

/** Wrong PINs allowed in a row before PIN entry waits; the wait then doubles up to the cap. */
const FREE_TRIES = 5;
const FIRST_WAIT_MS = 30_000;
const MAX_WAIT_MS = 15 * 60_000;
const WRONG_PIN = 'That PIN is not right.';

/** A PIN given to approve what the signed-in person may not do, once checked. */
export type Approver = { kind: 'none' } | { kind: 'wrong' } | { kind: 'locked'; message: string } | { kind: 'staff'; staff: StaffDoc };

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

export class StaffDesk {
  readonly #pins = new PinDirectory();
  #signedInId: string | null = null;
  #lastActivity = 0;

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
      if (!this.store.staff.get('stf_legacy_manager')) {
        this.store.staff.insert({ id: 'stf_legacy_manager', name: 'Manager', role: 'manager', pin_hash: hash, active: true, provisioned: false }, this.clock.now());
        this.store.cashier.recordAudit('system', 'staff.from_manager_pin', { staffId: 'stf_legacy_manager' });
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
    const guard = this.store.staff.guard();
    const wait = guard.lockedUntil - this.clock.now();
    const { autoLockMinutes, drawerMode } = this.settings();
    return {
      signedIn: by ? staffMember(by) : null,
      permissions: by ? [...ROLE_PERMISSIONS[by.role]] : [],
      setupNeeded: !this.#active().some((s) => s.role === 'owner'),
      lockedOutForMs: wait > 0 ? wait : null,
      autoLockMs: autoLockMinutes * 60_000,
      drawerMode,
    };
  }

  #changed(): StaffSession {
    const view = this.session();
    this.events.emit('staff.session', view);
    return view;
  }

  /** Locks the till when it has gone unused longer than the auto-lock allows; answers whether someone is signed in. */
  checkIdle(): boolean {
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
    return this.#changed();
  }

  #signIn(doc: StaffDoc): StaffSession {
    this.#signedInId = doc.id;
    this.touch();
    this.store.cashier.recordAudit(doc.id, 'staff.sign_in', {});
    return this.#changed();
  }

  async setupOwner(name: string, pin: string): Promise<StaffSession> {
    if (!this.session().setupNeeded) throw new CoreError('conflict', 'This terminal already has an owner. Sign in with your PIN.');
    this.#requireGoodPin(pin, 'pin');
    const hash = await hashPin(pin);
    // Checked again after the hashing: two first-run screens cannot both make an owner.
    if (!this.session().setupNeeded) throw new CoreError('conflict', 'This terminal already has an owner. Sign in with your PIN.');
    await this.#requireUnusedPin(pin, null);
    const owner = this.store.transaction(() => {
      const doc = this.store.staff.insert({ id: newId('stf_', this.clock.now()), name, role: 'owner', pin_hash: hash, active: true, provisioned: false }, this.clock.now());
      this.store.cashier.recordAudit(doc.id, 'staff.setup_owner', { name });
      return doc;
    });
    this.#pins.forget();
    return this.#signIn(owner);
  }

  /** How long PIN entry still waits, as a sentence; null when it is open. */
  #lockedOut(): string | null {
    const wait = this.store.staff.guard().lockedUntil - this.clock.now();
    return wait > 0 ? `Too many wrong PINs. Try again in ${Math.ceil(wait / 1000)} seconds.` : null;
  }

  /** The PIN's owner among active staff, counting a wrong PIN toward the lockout. */
  async #identify(pin: string): Promise<StaffDoc | null> {
    const found = await this.#pins.find(pin, this.#active());
    const guard = this.store.staff.guard();
    if (found) {
      if (guard.failures > 0) this.store.staff.setGuard({ failures: 0, lockedUntil: 0 });
      return found;
    }
    const failures = guard.failures + 1;
    const lockedUntil = failures >= FREE_TRIES ? this.clock.now() + Math.min(FIRST_WAIT_MS * 2 ** (failures - FREE_TRIES), MAX_WAIT_MS) : guard.lockedUntil;
    this.store.staff.setGuard({ failures, lockedUntil });
    this.store.cashier.recordAudit('unknown', 'staff.wrong_pin', { failures });
    return null;
  }

  async signIn(pin: string): Promise<StaffSession> {
    const locked = this.#lockedOut();
    if (locked) throw new CoreError('needs_sign_in', locked);
    const found = await this.#identify(pin);
    if (!found) {
      this.#changed();
      throw new CoreError('needs_sign_in', this.#lockedOut() ?? WRONG_PIN, [{ path: 'pin', message: this.#lockedOut() ?? WRONG_PIN }]);
    }
    return this.#signIn(found);
  }

  /** Checks a PIN given to approve (before the command runs: the command itself stays synchronous). */
  async approver(pin: string | undefined): Promise<Approver> {
    if (pin === undefined) return { kind: 'none' };
    const locked = this.#lockedOut();
    if (locked) return { kind: 'locked', message: locked };
    const found = await this.#identify(pin);
    return found ? { kind: 'staff', staff: found } : { kind: 'wrong' };
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
    const { approver } = act;
    if (approver.kind === 'staff' && approver.staff.active && can(approver.staff.role, permission)) {
      // Recorded when given: the action's own entry may name it too (discount.approved...).
      this.store.cashier.recordAudit(act.by.id, 'permission.approved', { permission, approvedBy: approver.staff.id });
      return approver.staff.id;
    }
    const needs = `${PERMISSIONS[permission]} needs ${leastRoleFor(permission) === 'owner' ? 'the owner' : 'a manager'}`;
    const message =
      approver.kind === 'none'
        ? `${needs}: they can approve it with their PIN.`
        : approver.kind === 'wrong'
          ? `${WRONG_PIN} ${needs}. Nothing was changed.`
          : approver.kind === 'locked'
            ? approver.message
            : `${approver.staff.name} may not approve this either: ${needs.toLowerCase()}.`;
    this.store.cashier.recordAudit(act.by.id, 'permission.refused', {
      permission,
      approver: approver.kind === 'staff' ? approver.staff.id : approver.kind,
    });
    throw new CoreError('needs_manager', message, approver.kind === 'none' ? undefined : [{ path: 'managerPin', message }]);
  }

  /** The audit detail of an approved action. */
  static approval(approvedBy: string | null): { approvedBy?: string } {
    return approvedBy ? { approvedBy } : {};
  }

  // ---- the staff list ----

  list(act: Act): StaffMember[] {
    this.require(act, 'staff.manage');
    return this.store.staff.list().map(staffMember);
  }

  #requireGoodPin(pin: string, path: string): void {
    const weak = weakPinReason(pin);
    if (weak) throw new CoreError('invalid_command', weak, [{ path, message: weak }]);
  }

  async #requireUnusedPin(pin: string, exceptId: string | null): Promise<void> {
    const others = this.#active().filter((s) => s.id !== exceptId);
    if (await this.#pins.find(pin, others)) {
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

  async create(act: Act, input: { name: string; role: Role; pin: string }): Promise<StaffMember> {
    const approvedBy = this.require(act, 'staff.manage');
    this.#requireMayAssign(act, input.role, 'role');
    this.#requireGoodPin(input.pin, 'pin');
    await this.#requireUnusedPin(input.pin, null);
    const hash = await hashPin(input.pin);
    const doc = this.store.transaction(() => {
      const created = this.store.staff.insert({ id: newId('stf_', this.clock.now()), name: input.name, role: input.role, pin_hash: hash, active: true, provisioned: false }, this.clock.now());
      this.store.cashier.recordAudit(act.by.id, 'staff.create', { staffId: created.id, name: input.name, role: input.role, ...StaffDesk.approval(approvedBy) });
      return created;
    });
    this.#pins.forget();
    this.#changed();
    return staffMember(doc);
  }

  async update(act: Act, input: { id: string; name?: string; role?: Role; pin?: string; active?: boolean }): Promise<StaffMember> {
    const approvedBy = this.require(act, 'staff.manage');
    const current = this.store.staff.get(input.id);
    if (!current) throw new CoreError('not_found', 'That staff member is not on this terminal. Refresh the list.');
    if (current.provisioned) throw new CoreError('conflict', `${current.name} is set up by IT in the configuration: ask IT to change them.`);
    this.#requireMayAssign(act, current.role, 'role');
    if (input.role !== undefined) this.#requireMayAssign(act, input.role, 'role');
    const losesOwner = current.role === 'owner' && current.active && ((input.role !== undefined && input.role !== 'owner') || input.active === false);
    if (losesOwner && this.#active().filter((s) => s.role === 'owner').length === 1) {
      throw new CoreError('conflict', `${current.name} is the only owner. Make someone else owner first.`);
    }
    if (input.pin !== undefined) {
      this.#requireGoodPin(input.pin, 'pin');
      await this.#requireUnusedPin(input.pin, current.id);
    }
    const hash = input.pin === undefined ? undefined : await hashPin(input.pin);
    const doc = this.store.transaction(() => {
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
