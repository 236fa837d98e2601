// What a device may be asked, by its role (docs/kitchen-display.md, "What it cannot do"). A kitchen
// display answers its own commands, the status reads of its header and joining the store by a code,
// with no one signed in, and refuses everything else (payments, reports, settings, menus, staff,
// orders) before the request is even read, so nothing else can run there. A register refuses the
// display's commands but tells anyone what it is (kitchen.display), so the page knows which app to show.
import { KITCHEN_COMMANDS, type DeviceRole } from '../../../bridge/kitchen/contract';
import type { BridgeResponse } from '../../../bridge/protocol';
import type { StaffDoc } from '../../../store/index';
import type { CommandContext } from '../dispatch';
import { CoreError } from '../errors';
import type { Act } from '../staff/desk';

/**
 * What a kitchen display answers: its own commands, the store's and the cloud's status for its header,
 * and joining the store by a code (a display without its store secret yet: the code is the manager's word).
 */
export const KITCHEN_ALLOWED: ReadonlySet<string> = new Set<string>([...KITCHEN_COMMANDS, 'storeMode.status', 'storeMode.join', 'sync.status']);
/** What every device answers, signed in or not. */
const ANY_ROLE: ReadonlySet<string> = new Set<string>(['kitchen.display']);

const REFUSED_ON_KITCHEN = 'This is a kitchen display: it shows and bumps tickets only. Take payments, change orders, menus or staff, and see reports or settings on a register.';
const REFUSED_ON_REGISTER = 'This till is a register: kitchen tickets are shown on a kitchen display (--role kitchen).';

type Invoke = (raw: unknown) => Promise<BridgeResponse>;

export class RoleGate {
  readonly #kitchenAct: Act;

  constructor(
    readonly role: DeviceRole,
    /** The display's station, in the name of whoever it acts as (the order's till shows it in its audit). */
    station: string,
  ) {
    const name = station === '' ? 'Kitchen display' : `Kitchen display (${station})`;
    const display: StaffDoc = { id: 'kitchen-display', name, role: 'cashier', pin_hash: '', active: true, provisioned: false, created_at: 0, updated_at: 0 };
    this.#kitchenAct = { by: display, approver: { kind: 'none' } };
  }

  /** Whether this device answers `command` at all. */
  allows(command: string): boolean {
    if (ANY_ROLE.has(command)) return true;
    return this.role === 'kitchen' ? KITCHEN_ALLOWED.has(command) : !KITCHEN_COMMANDS.includes(command as (typeof KITCHEN_COMMANDS)[number]);
  }

  /** The invoker behind the gate: a command the role does not answer is refused before its request is read or anything runs. */
  guard(invoke: Invoke): Invoke {
    return async (raw) => {
      const command = raw !== null && typeof raw === 'object' ? (raw as { command?: unknown }).command : undefined;
      if (typeof command === 'string' && !this.allows(command)) {
        return { ok: false, error: { code: 'invalid_command', message: this.role === 'kitchen' ? REFUSED_ON_KITCHEN : REFUSED_ON_REGISTER } };
      }
      return invoke(raw);
    };
  }

  /**
   * Who runs a command with no one signed in: on a kitchen display, the display itself; anywhere,
   * kitchen.display answers anyone. Null: the usual sign-in rules.
   */
  context(command: string): CommandContext | null {
    if (this.role === 'kitchen') return { act: () => this.#kitchenAct };
    if (ANY_ROLE.has(command)) return { act: () => { throw new CoreError('needs_sign_in', 'Sign in with your PIN first.'); } };
    return null;
  }
}
