// The staff room's side of the bridge (docs/staff.md): who works here and who is at the till (sign-in
// by PIN, the lock, approvals), and each drawer's shift (the float counted in, cash moved, the blind
// count out). The roles and permissions are in ./roles, counting a drawer in ./cash; bridge/contract.ts
// merges the commands and events in.
import { z } from 'zod';
import { command, Empty, Id, IsoTime, ManagerPin, TillCash, Total } from '../primitives';
import { CashCount, CountedCash } from './cash';
import { Permission, Role } from './roles';

const StaffPin = z.string().regex(/^\d{4,8}$/, 'a PIN is 4 to 8 digits');

// ---- staff ----

/** A staff member as records name them. */
export const StaffRef = z.object({ id: Id, name: z.string() });
export type StaffRef = z.infer<typeof StaffRef>;

export const StaffMember = StaffRef.extend({
  role: Role,
  active: z.boolean(),
  /** Provisioned by IT in the configuration: changed there, not at the till. */
  provisioned: z.boolean(),
  /**
   * Store mode: their PIN is known to be someone else's too (found since the tills met), so it names
   * no one until one of them is given a new PIN (docs/staff.md). Absent: not known to be shared.
   */
  pinShared: z.boolean().optional(),
});
export type StaffMember = z.infer<typeof StaffMember>;

/** Who is at the till, and what the lock screen needs. */
export const StaffSession = z.object({
  signedIn: StaffMember.nullable(),
  permissions: z.array(Permission),
  /** No owner yet: the first run asks for the owner's name and PIN before anything else. */
  setupNeeded: z.boolean(),
  /** PIN entry is refused for this long after repeated wrong PINs; null when it is open. */
  lockedOutForMs: z.number().int().nonnegative().nullable(),
  /** The till locks itself after this long without use; 0: never. */
  autoLockMs: z.number().int().nonnegative(),
  /** One drawer for the till, or one per cashier (each opens and counts their own). */
  drawerMode: z.enum(['shared', 'per_cashier']),
  /** To an owner or a manager only, when the last 24 h saw enough wrong PINs to lock entry: how many, since when. */
  pinGuessing: z.object({ wrongPins: z.number().int().positive(), since: IsoTime }).optional(),
});
export type StaffSession = z.infer<typeof StaffSession>;

// ---- shifts and the drawer ----

export const CashMovement = z.object({
  id: Id,
  kind: z.enum(['paid_out', 'drop']),
  amount: z.number().int().positive(),
  reason: z.string(),
  staff: StaffRef,
  at: IsoTime,
});
export type CashMovement = z.infer<typeof CashMovement>;

/** A drawer's shift: counted float in, cash moved, counted out. What is expected stays hidden until the count is in (a blind count). */
export const ShiftView = z.object({
  id: Id,
  /** "Till A", or the cashier's name when each has a drawer. */
  drawer: z.string(),
  status: z.enum(['open', 'closed']),
  businessDay: z.string(),
  openedAt: IsoTime,
  openedBy: StaffRef,
  currency: z.string(),
  float: Total,
  floatCount: CountedCash,
  /**
   * Cash taken toward orders, cash tips and cash refunded during the shift. While the shift is
   * open they add up to what the drawer should hold, so only those who may read the report
   * ('reports.view') get them; to anyone else they are null until the count is in (a blind count).
   */
  cashSales: z.number().int().nullable(),
  cashTips: z.number().int().nullable(),
  cashRefunds: z.number().int().nullable(),
  /**
   * Of the cash sales and tips above, what was taken here toward other tills' orders (store mode: their
   * sales are on their reports, the cash is in this drawer); null when the others are.
   */
  cashForOtherTills: z.number().int().nullable(),
  paidOuts: z.number().int(),
  drops: z.number().int(),
  cardSales: z.number().int(),
  cardTips: z.number().int(),
  payments: z.number().int().nonnegative(),
  movements: z.array(CashMovement),
  closedAt: IsoTime.nullable(),
  closedBy: StaffRef.nullable(),
  count: CountedCash.nullable(),
  counted: z.number().int().nullable(),
  /** float + cash sales + cash tips − cash refunds − paid-outs − drops; null while open. */
  expected: z.number().int().nullable(),
  /** counted − expected: positive over, negative short; null while open. */
  overShort: z.number().int().nullable(),
  note: z.string(),
});
export type ShiftView = z.infer<typeof ShiftView>;

export const ShiftSummary = z.object({
  since: IsoTime,
  currency: z.string(),
  orders: z.number().int(),
  cancelled: z.number().int(),
  /**
   * Cash taken, cash tips, refunds and the net: null to those who may not read the report while
   * their drawer's shift is open, as they would add up to what it should hold (a blind count).
   */
  byMethod: z.object({ card: Total, cash: Total.nullable() }),
  /** Tips on top of the payments, by tender. */
  tips: z.object({ card: Total, cash: Total.nullable() }),
  /** Tax and discounts on the day's orders that were not cancelled. */
  tax: z.number().int(),
  discounts: z.number().int(),
  queuedOffline: Total,
  refunded: Total.nullable(),
  net: z.number().int().nullable(),
});
export type ShiftSummary = z.infer<typeof ShiftSummary>;

export const staffCommands = {
  'shift.summary': command(z.strictObject({ since: IsoTime.optional() }).default({}), ShiftSummary),
  /** The shift of the drawer the signed-in person works (the till's, or their own): null when none is open. */
  'shift.current': command(Empty, ShiftView.nullable()),
  /** Opens the drawer's shift with the float counted by note and coin. */
  'shift.open': command(z.strictObject({ count: CashCount, managerPin: ManagerPin.optional() }), ShiftView),
  /** A paid-out (cash leaves for a purpose: a delivery, tips paid) or a drop (cash taken to the safe). */
  'shift.moveCash': command(
    z.strictObject({
      kind: z.enum(['paid_out', 'drop']),
      amount: TillCash.positive(),
      reason: z.string().trim().min(1, 'say what the cash is for').max(120),
      managerPin: ManagerPin.optional(),
    }),
    ShiftView,
  ),
  /** Closes the shift with the drawer counted blind: the answer is the first to show what was expected. */
  'shift.close': command(z.strictObject({ count: CashCount, note: z.string().trim().max(300).default(''), managerPin: ManagerPin.optional() }), ShiftView),

  /** Who is signed in; answered when no one is. */
  'staff.session': command(Empty, StaffSession),
  /** The first run: the owner's name and PIN, before anything else (only while no owner exists). */
  'staff.setupOwner': command(z.strictObject({ name: z.string().trim().min(1, 'give your name').max(60), pin: StaffPin }), StaffSession),
  /** Signs in by PIN alone; the same answer for any wrong PIN, and a growing wait after several. */
  'staff.signIn': command(z.strictObject({ pin: StaffPin }), StaffSession),
  /**
   * Lifts a lockout of PIN entry: the signed-in owner, or an owner's PIN (checked on a small budget of
   * its own that works while entry waits; the owner is then signed in). Refused when entry is open.
   */
  'staff.liftLockout': command(z.strictObject({ pin: StaffPin.optional() }).default({}), StaffSession),
  /** Locks the till (sign out): a ticket being rung up stays on screen for whoever signs in next. */
  'staff.lock': command(Empty, StaffSession),
  /** The person at the till is still using it (keeps the auto-lock away). */
  'staff.activity': command(Empty, StaffSession),
  /**
   * Checks an approval PIN when it is given (a comp in the discount dialog, before "Yes, refund"):
   * whose it is, when they may approve `permission`; else the refusal the command itself would
   * give. A PIN check like any other, on the same budgets and lockout. The command approved checks
   * its PIN again: this answer approves nothing by itself.
   */
  'staff.checkApproval': command(z.strictObject({ permission: Permission, managerPin: ManagerPin }), z.object({ approvedBy: StaffRef, message: z.string() })),
  /** Who works here, by name (active staff only, no roles): whom a check can be given to. */
  'staff.roster': command(Empty, z.array(StaffRef)),
  'staff.list': command(z.strictObject({ managerPin: ManagerPin.optional() }).default({}), z.array(StaffMember)),
  'staff.create': command(
    z.strictObject({ name: z.string().trim().min(1, 'give a name').max(60), role: Role, pin: StaffPin, managerPin: ManagerPin.optional() }),
    StaffMember,
  ),
  'staff.update': command(
    z.strictObject({
      id: Id,
      name: z.string().trim().min(1, 'give a name').max(60).optional(),
      role: Role.optional(),
      pin: StaffPin.optional(),
      active: z.boolean().optional(),
      managerPin: ManagerPin.optional(),
    }),
    StaffMember,
  ),
};

export const staffEvents = {
  /** Someone signed in, the till locked (by hand or after idle time), or the staff list changed. */
  'staff.session': StaffSession,
  /** A shift opened, moved cash or closed. */
  'shift.changed': z.object({}),
};
