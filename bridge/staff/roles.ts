// Who may do what at the till: the roles and the permission each protected action needs, as one
// table. Pure, so the register hides what the signed-in person may not do and the core refuses it
// with the same words.
import { z } from 'zod';

export const Role = z.enum(['cashier', 'manager', 'owner']);
export type Role = z.infer<typeof Role>;

/** Each protected action, with how a refusal names it ("Refunds need …"). */
export const PERMISSIONS = {
  'discount.above_limit': 'A discount above the approval limits',
  'payment.offline_above_limit': 'An offline card payment above the limits',
  refund: 'A refund',
  'order.void': 'Voiding an order or items the kitchen already has',
  'order.adopt': "Taking over another staff member's order",
  'order.walkout': 'Closing an order with money still due (a walkout)',
  'gratuity.remove': "Removing a party's automatic gratuity",
  'orders.reopen': 'Reopening a closed check',
  'drawer.open': 'Opening the cash drawer without a sale',
  'cash.paid_out': 'Paying cash out of the drawer',
  'shift.close': 'Closing a shift',
  'reports.view': 'The end-of-day report',
  'menu.edit': 'Changing the menu',
  'floor.edit': 'Laying out the floor (sections and tables)',
  'settings.store': 'Changing the checkout, tax, payment or printing settings',
  'settings.system': 'Changing the API address, credentials or webhook, or signing the terminal out',
  'staff.manage': 'Adding staff or changing their PINs',
  'terminal.reset': 'Resetting the terminal',
  'sync.resolve': 'Discarding refused changes or print jobs',
  'store.adopt': "Taking over the orders of a till that went quiet",
  'store.pair': 'Pairing a till into the store by a code',
} as const;
export type Permission = keyof typeof PERMISSIONS;
export const Permission = z.enum(Object.keys(PERMISSIONS) as [Permission, ...Permission[]]);

const ALL = Permission.options;
/** What only the owner (or IT) may do: the terminal's connection to the cloud, and wiping it. */
const OWNER_ONLY: readonly Permission[] = ['settings.system', 'terminal.reset'];

/** Selling, taking payment, opening a shift, a safe drop and 86-ing an item need no permission. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  cashier: [],
  manager: ALL.filter((p) => !OWNER_ONLY.includes(p)),
  owner: ALL,
};

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** The least role that has a permission: "needs a manager" or "needs the owner". */
export function leastRoleFor(permission: Permission): Role {
  return Role.options.find((role) => can(role, permission)) ?? 'owner';
}

/** Roles a person may give (or take away) when adding or changing staff: never above their own. */
export function assignableRoles(role: Role): Role[] {
  if (role === 'owner') return [...Role.options];
  if (role === 'manager') return ['cashier'];
  return [];
}

export const ROLE_NAMES: Readonly<Record<Role, string>> = { cashier: 'Cashier', manager: 'Manager', owner: 'Owner' };

/** A PIN: 4 to 8 digits, never an obvious one (the same digit, or a run such as 1234 or 9876). */
export const STAFF_PIN = /^\d{4,8}$/;
export function weakPinReason(pin: string): string | null {
  if (!STAFF_PIN.test(pin)) return 'A PIN is 4 to 8 digits.';
  const digits = [...pin].map(Number);
  const steps = new Set(digits.slice(1).map((d, i) => d - digits[i]!));
  if (steps.size === 1 && [0, 1, -1].includes([...steps][0]!)) return 'That PIN is too easy to guess (one digit repeated, or a run like 1234). Choose another.';
  return null;
}
