// Permissions as one table (bridge/staff/roles.ts, docs/staff.md "Roles and permissions"): every
// protected action, through the bridge on a real core and a real SQLite file, is refused for each
// role without its permission (needs_manager, nothing changed, a `permission.refused` audit entry
// naming the permission and who asked), refused with a wrong approval PIN, done when someone
// allowed gives their PIN (the audit entry names them as approvedBy), and done without any PIN by
// a role that has it. Then: a locked till refuses every command but the lock screen's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands, type CommandName } from '../../bridge/contract';
import { can, leastRoleFor, PERMISSIONS, Role, ROLE_PERMISSIONS, weakPinReason, type Permission } from '../../bridge/staff/roles';
import type { TerminalConfigInput } from '../../main/config/schema';
import { drawerJob } from '../../printing/index';
import type { Store } from '../../store/index';
import { FakePrinter } from '../printing/fake-printer';
import { ITEMS, STAFF, startTestCore, type StaffKey, type TestCore } from './fixtures';
import { as, auditSince, count, lastAuditId, ok, raw, readDb, refusal, snapshot, STAFF_ID } from './staff-fixtures';

/** What a row's steps can reach: the core, its data folder, the business day, a receipt printer if it has one. */
interface Ctx {
  t: TestCore;
  day: string;
  printer: FakePrinter | null;
}

interface Row<S = unknown> {
  label: string;
  permission: Permission;
  /** A receipt printer on the terminal (drawer kicks, printed reports). */
  printer?: boolean;
  config?: Partial<TerminalConfigInput>;
  seed?: (store: Store) => void;
  /** The owner opens the till's drawer (empty float) at start; default yes. */
  openShift?: boolean;
  /** Sets up what the action works on; `actor` acts next. May leave anyone signed in. */
  setup?: (c: Ctx, actor: StaffKey) => Promise<S>;
  command: CommandName;
  payload: (s: S, c: Ctx) => Record<string, unknown>;
  /** Who acts for a role (taking over an order: the other cashier, not the one who placed it). */
  actAs?: Partial<Record<Role, StaffKey>>;
  /**
   * What an approved run leaves: an audit entry naming the approver (default); the fresh store of
   * a reset (the wiped store cannot keep it); or only an answer past the permission check (OAuth
   * is not set up here, so it cannot run).
   */
  approved?: 'audited' | 'reset' | 'past-check';
}

const row = <S,>(r: Row<S>): Row => r as Row;

let pinSeq = 0;
/** A fresh, acceptable PIN nobody has (6 digits; the test staff's have 4). */
function freshPin(): string {
  for (;;) {
    pinSeq += 1;
    const pin = String(100_000 + ((pinSeq * 7_919 + 31_337) % 900_000));
    if (weakPinReason(pin) === null) return pin;
  }
}

/** Places an order signed in as `who`. */
async function place(c: Ctx, who: StaffKey, lines: { menuItemId: string; quantity: number }[] = [{ menuItemId: ITEMS.fries, quantity: 1 }]): Promise<string> {
  await as(c.t.core, who);
  return (await ok(c.t.core, 'orders.place', { lines })).id;
}

/** A cash sale of fries (4.50) by the owner in the open till drawer: a payment to refund, cash for a paid-out. */
async function cashSale(c: Ctx): Promise<{ orderId: string; paymentId: string }> {
  const orderId = await place(c, 'owner');
  const paid = await ok(c.t.core, 'payments.take', { orderId, method: 'cash', amount: 450 });
  return { orderId, paymentId: paid.payment.id };
}

/** Several refused changes (menu edits the cloud refused), for discarding. */
function seedDeadLetters(store: Store): void {
  for (const [i, id] of [ITEMS.soup, ITEMS.fries, ITEMS.latte, ITEMS.burger].entries()) {
    store.cashier.updateMenuItem(id, { price: 1000 + i }, { actor: 'seed' });
    const opId = store.db.prepare('SELECT op_id FROM outbox WHERE entity_id = ? ORDER BY seq DESC LIMIT 1').pluck().get(id) as string;
    store.outbox.deadLetter(opId, 'the server refused it', 1_800_000_000_000, { cause: 'invalid', status: 422, code: 'invalid_request' });
  }
}

/** Drawer kicks waiting for a receipt printer this terminal does not have: jobs to discard. */
function seedPrintJobs(store: Store): void {
  store.printQueue.enqueue([1, 2, 3, 4, 5].map((n) => drawerJob({ key: `seeded-${n}` })));
}

const ROWS: Row[] = [
  row({
    label: 'a 50% discount on a new order',
    permission: 'discount.above_limit',
    setup: async (c, actor) => as(c.t.core, actor),
    command: 'orders.place',
    payload: () => ({ lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], discount: { kind: 'percent', value: 5000, reason: 'Staff meal' } }),
  }),
  row({
    label: 'a 50% discount added to an order',
    permission: 'discount.above_limit',
    setup: async (c, actor) => place(c, actor, [{ menuItemId: ITEMS.burger, quantity: 1 }]),
    command: 'orders.update',
    payload: (id: string) => ({ id, discount: { kind: 'percent', value: 5000, reason: 'Regular' } }),
  }),
  row({
    label: 'an offline card payment above the limits',
    permission: 'payment.offline_above_limit',
    config: { offlinePayments: { perTransaction: 500, total: 1000 } },
    setup: async (c, actor) => place(c, actor, [{ menuItemId: ITEMS.burger, quantity: 1 }]),
    command: 'payments.take',
    payload: (orderId: string) => ({ orderId, method: 'card', amount: 1200 }),
  }),
  row({
    label: 'a refund by amount',
    permission: 'refund',
    setup: async (c) => cashSale(c),
    command: 'payments.refund',
    payload: (s: { paymentId: string }) => ({ paymentId: s.paymentId, amount: 100, reason: 'requested_by_customer' }),
  }),
  row({
    label: 'a refund by item',
    permission: 'refund',
    setup: async (c) => cashSale(c),
    command: 'payments.refundItems',
    payload: (s: { orderId: string }) => ({ orderId: s.orderId, items: [{ lineIndex: 0, quantity: 1 }], reason: 'requested_by_customer' }),
  }),
  row({
    label: "removing a party's automatic gratuity",
    permission: 'gratuity.remove',
    config: { checkout: { autoGratuityGuests: 6, autoGratuityPercent: 18 } },
    setup: async (c, actor) => {
      await as(c.t.core, actor);
      return (await ok(c.t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 6 }], service: { type: 'dine_in', table: '12', guests: 6 } })).id;
    },
    command: 'orders.removeGratuity',
    payload: (id: string) => ({ id, reason: 'Regulars: the owner says so' }),
  }),
  row({
    label: 'reopening a closed check',
    permission: 'orders.reopen',
    setup: async (c) => {
      const { orderId } = await cashSale(c);
      await ok(c.t.core, 'orders.fulfil', { id: orderId });
      return orderId;
    },
    command: 'orders.reopen',
    payload: (id: string) => ({ id, reason: 'Forgot the dessert' }),
  }),
  row({
    label: 'cancelling an order',
    permission: 'order.void',
    setup: async (c, actor) => place(c, actor),
    command: 'orders.cancel',
    payload: (id: string) => ({ id, reason: 'Rung up by mistake' }),
  }),
  row({
    label: "taking a unit off an order's lines",
    permission: 'order.void',
    setup: async (c, actor) => place(c, actor, [{ menuItemId: ITEMS.fries, quantity: 2 }]),
    command: 'orders.update',
    payload: (id: string) => ({ id, lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] }),
  }),
  row({
    label: 'closing an order with money due (a walkout)',
    permission: 'order.walkout',
    setup: async (c, actor) => place(c, actor),
    command: 'orders.fulfil',
    payload: (id: string) => ({ id, walkout: { reason: 'left without paying' } }),
  }),
  row({
    label: "changing another cashier's order",
    permission: 'order.adopt',
    actAs: { cashier: 'cashier2' },
    setup: async (c) => place(c, 'cashier'),
    command: 'orders.update',
    payload: (id: string) => ({ id, notes: 'by the window' }),
  }),
  row({
    label: "merging another cashier's checks",
    permission: 'order.adopt',
    actAs: { cashier: 'cashier2' },
    setup: async (c) => ({ into: await place(c, 'cashier'), from: await place(c, 'cashier') }),
    command: 'orders.merge',
    payload: (s: { into: string; from: string }) => ({ into: s.into, from: s.from }),
  }),
  row({
    label: "charging another cashier's order",
    permission: 'order.adopt',
    actAs: { cashier: 'cashier2' },
    setup: async (c) => place(c, 'cashier'),
    command: 'payments.take',
    payload: (orderId: string) => ({ orderId, method: 'card', amount: 450 }),
  }),
  row({
    label: 'opening the drawer without a sale',
    permission: 'drawer.open',
    printer: true,
    command: 'printing.openDrawer',
    payload: () => ({ reason: 'change for the float' }),
  }),
  row({
    label: 'a paid-out',
    permission: 'cash.paid_out',
    setup: async (c) => cashSale(c),
    command: 'shift.moveCash',
    payload: () => ({ kind: 'paid_out', amount: 100, reason: 'window cleaner' }),
  }),
  row({
    label: 'closing the shift',
    permission: 'shift.close',
    setup: async (c) => {
      await as(c.t.core, 'owner');
      if ((await ok(c.t.core, 'shift.current', {})) === null) await ok(c.t.core, 'shift.open', { count: [] });
    },
    command: 'shift.close',
    payload: () => ({ count: [{ value: 100, count: 2 }], note: '' }),
  }),
  row({ label: 'the Z report', permission: 'reports.view', command: 'reports.z', payload: () => ({}) }),
  row({ label: "the store's day", permission: 'reports.view', command: 'reports.storeZ', payload: () => ({}) }),
  row({ label: 'the list of report days', permission: 'reports.view', command: 'reports.days', payload: () => ({}) }),
  row({ label: 'the Z report as CSV', permission: 'reports.view', command: 'reports.csv', payload: (_s, c) => ({ businessDay: c.day }) }),
  row({ label: 'printing the Z report', permission: 'reports.view', printer: true, command: 'reports.print', payload: (_s, c) => ({ businessDay: c.day }) }),
  row({
    label: 'creating a menu item',
    permission: 'menu.edit',
    command: 'menu.createItem',
    payload: () => ({ name: 'Tea', price: 300, categoryId: 'cat_drinks' }),
  }),
  row({ label: 'adding a section to the floor', permission: 'floor.edit', command: 'tables.saveSection', payload: () => ({ name: `Patio ${freshPin()}` }) }),
  row({
    label: 'changing the courses',
    permission: 'floor.edit',
    command: 'tables.saveCourses',
    payload: () => ({ courses: [{ id: 'course_drinks', name: 'Drinks' }, { id: 'course_mains', name: `Mains ${freshPin()}` }] }),
  }),
  row({ label: 'changing a menu item', permission: 'menu.edit', command: 'menu.updateItem', payload: () => ({ id: ITEMS.soup, changes: { price: 750 } }) }),
  row({
    label: 'deleting a menu item',
    permission: 'menu.edit',
    setup: async (c) => {
      await as(c.t.core, 'owner');
      return (await ok(c.t.core, 'menu.createItem', { name: `Special ${freshPin()}`, price: 900, categoryId: 'cat_mains' })).id;
    },
    command: 'menu.deleteItem',
    payload: (id: string) => ({ id }),
  }),
  ...(
    [
      ['offline limits', { offlineLimits: { perTransaction: 5000, total: 20000 } }],
      ['the charge confirmation', { confirmChargeAbove: 50_000 }],
      ['the checkout rules', { checkout: { cashTips: true } }],
      ['the tax rules', { taxRules: { taxIncluded: false, rounding: 'per_line', rates: [{ taxClass: 'standard', name: 'VAT', ratePpm: 100_000 }] } }],
      ['automatic receipts', { autoReceipt: false }],
      ['the drawer mode', { drawerMode: 'per_cashier' }],
      ['the auto-lock', { autoLockMinutes: 10 }],
    ] as const
  ).map(([what, change]) =>
    row({ label: `settings: ${what}`, permission: 'settings.store', openShift: false, command: 'settings.update', payload: () => ({ ...change }) }),
  ),
  ...(
    [
      ['the API address', { apiBaseUrl: 'http://127.0.0.1:9/v1' }],
      ['the API host', { apiHost: 'http://127.0.0.1:9' }],
      ['the OAuth address', { authUrl: 'http://127.0.0.1:9' }],
      ['the location', { locationId: 'loc_test' }],
      ['the webhook', { webhook: { enabled: false, host: '127.0.0.1', port: 0 } }],
      ['the webhook signing secret', { webhookSigningSecret: 'whsec_test_secret' }],
    ] as const
  ).map(([what, change]) => row({ label: `settings: ${what}`, permission: 'settings.system', openShift: false, command: 'settings.update', payload: () => ({ ...change }) })),
  row({ label: 'an API key', permission: 'settings.system', command: 'credentials.setApiKey', payload: () => ({ apiKey: 'sk_test_perm1234' }) }),
  // Store mode is off on a test terminal: the answer comes from past the permission check (test/store-mode/adoption.test.ts adopts for real).
  row({ label: "taking over a quiet till's orders", permission: 'store.adopt', command: 'storeMode.adoptTill', payload: () => ({ tillId: 'a'.repeat(64) }), approved: 'past-check' }),
  row({ label: 'showing a code to pair a till into the store', permission: 'store.pair', command: 'storeMode.pairingCode', payload: () => ({}), approved: 'past-check' }),
  row({ label: 'joining the store with a code', permission: 'store.pair', command: 'storeMode.join', payload: () => ({ address: '127.0.0.1:9', code: '1234 5678' }), approved: 'past-check' }),
  row({ label: 'connecting with OAuth', permission: 'settings.system', command: 'credentials.connectOAuth', payload: () => ({}), approved: 'past-check' }),
  row({ label: 'signing the terminal out', permission: 'settings.system', command: 'session.signOut', payload: () => ({ despitePending: true }) }),
  row({
    label: 'adding a staff member',
    permission: 'staff.manage',
    command: 'staff.create',
    payload: () => ({ name: `New Hire ${pinSeq}`, role: 'cashier', pin: freshPin() }),
  }),
  row({
    label: 'changing a staff member',
    permission: 'staff.manage',
    setup: async (c) => {
      await as(c.t.core, 'owner');
      return (await ok(c.t.core, 'staff.create', { name: `Temp ${pinSeq}`, role: 'cashier', pin: freshPin() })).id;
    },
    command: 'staff.update',
    // One active person per name: each case renames its own member to a name of its own.
    payload: (id: string) => ({ id, name: `Renamed ${id}` }),
  }),
  row({ label: 'the staff list', permission: 'staff.manage', command: 'staff.list', payload: () => ({}) }),
  row({ label: 'resetting the terminal', permission: 'terminal.reset', command: 'terminal.reset', payload: () => ({ confirmPendingLoss: true }), approved: 'reset' }),
  row({
    label: 'discarding a print job',
    permission: 'sync.resolve',
    seed: seedPrintJobs,
    setup: async (c) => readDb(c.t.dataDir, (db) => db.prepare("SELECT id FROM print_jobs WHERE state <> 'discarded' ORDER BY id LIMIT 1").pluck().get() as string),
    command: 'printing.discardJob',
    payload: (id: string) => ({ id }),
  }),
  row({
    label: 'discarding a refused change',
    permission: 'sync.resolve',
    seed: seedDeadLetters,
    setup: async (c) => (await ok(c.t.core, 'sync.status', {})).deadLetters[0]!.id,
    command: 'sync.discardDeadLetter',
    payload: (id: string) => ({ id }),
  }),
];

/** The staff member who approves a permission: the least role that has it. */
const approverFor = (permission: Permission): StaffKey => (leastRoleFor(permission) === 'owner' ? 'owner' : 'manager');
const WRONG_PIN = '0000';

describe('every permission has a row', () => {
  it('the table covers every permission in PERMISSIONS', () => {
    expect(new Set(ROWS.map((r) => r.permission))).toEqual(new Set(Object.keys(PERMISSIONS)));
  });
});

for (const r of ROWS) {
  const lacking = Role.options.filter((role) => !ROLE_PERMISSIONS[role].includes(r.permission));
  const allowed = Role.options.filter((role) => can(role, r.permission));
  const approver = approverFor(r.permission);
  const who = (role: Role): StaffKey => r.actAs?.[role] ?? (role as StaffKey);
  // Whether the command's payload can carry an approval PIN at all (a strict payload refuses unknown keys).
  const parsed = commands[r.command].payload.safeParse({ managerPin: WRONG_PIN });
  const takesPin = parsed.success || !parsed.error.issues.some((i) => i.code === 'unrecognized_keys' && i.keys.includes('managerPin'));

  describe(`${r.permission}: ${r.label} (${r.command})`, () => {
    const c = {} as Ctx;
    beforeAll(async () => {
      c.printer = r.printer ? await FakePrinter.start() : null;
      const config: Partial<TerminalConfigInput> = { ...r.config, ...(c.printer ? { printing: { receiptPrinter: c.printer.url } } : {}) };
      c.t = await startTestCore(config, {}, r.seed, { signIn: 'owner', openShift: r.openShift ?? true });
      c.day = (await ok(c.t.core, 'reports.days', {}))[0]!;
    });
    afterAll(async () => {
      await c.t?.core.shutdown();
      await c.printer?.stop();
    });

    /** Sets the row's state up, then signs the actor in. */
    async function ready(actor: StaffKey): Promise<unknown> {
      const s = r.setup ? await r.setup(c, actor) : undefined;
      await as(c.t.core, actor);
      return s;
    }

    for (const role of lacking) {
      const actor = who(role);

      it(`is refused for a ${role} (${actor}) with needs_manager; nothing changes; the refusal is audited`, async () => {
        const s = await ready(actor);
        const before = snapshot(c.t.dataDir, { guard: true });
        const auditFrom = lastAuditId(c.t.dataDir);
        const error = refusal(await raw(c.t.core, r.command, r.payload(s, c)));
        expect(error.code).toBe('needs_manager');
        expect(error.message).toMatch(leastRoleFor(r.permission) === 'owner' ? /needs the owner/ : /needs a manager/);
        expect(snapshot(c.t.dataDir, { guard: true })).toEqual(before);
        expect(auditSince(c.t.dataDir, auditFrom)).toEqual([
          expect.objectContaining({ action: 'permission.refused', actor: STAFF_ID[actor], detail: expect.objectContaining({ permission: r.permission }) }),
        ]);
      });

      if (!takesPin) {
        if (role === lacking[0]) {
          it('can carry an approval PIN (managerPin), as its refusal says ("they can approve it with their PIN")', () => {
            expect(takesPin, `${r.command} has no managerPin in bridge/contract.ts: no one can approve it`).toBe(true);
          });
        }
        continue;
      }

      it(`is refused for a ${role} with a wrong approval PIN, which counts toward the lockout`, async () => {
        const s = await ready(actor);
        const before = snapshot(c.t.dataDir);
        const auditFrom = lastAuditId(c.t.dataDir);
        const error = refusal(await raw(c.t.core, r.command, { ...r.payload(s, c), managerPin: WRONG_PIN }));
        expect(error.code).toBe('needs_manager');
        expect(error.message).toMatch(/not right/);
        expect(error.issues?.map((i) => i.path)).toEqual(['managerPin']);
        expect(snapshot(c.t.dataDir)).toEqual(before);
        expect(readDb(c.t.dataDir, (db) => db.prepare('SELECT failures FROM sign_in_guard').pluck().get())).toBe(1);
        const audit = auditSince(c.t.dataDir, auditFrom);
        expect(audit.map((a) => a.action)).toEqual(['staff.wrong_pin', 'permission.refused']);
        expect(audit[1]).toMatchObject({ actor: STAFF_ID[actor], detail: { permission: r.permission, approver: 'wrong' } });
      });

      if (role === 'manager' || (approver === 'owner' && role === 'cashier')) {
        it(`is refused for a ${role} approved by someone who may not do it either (a manager's PIN), as a wrong PIN is, and counted as one`, async () => {
          const s = await ready(actor);
          const before = snapshot(c.t.dataDir);
          const auditFrom = lastAuditId(c.t.dataDir);
          const error = refusal(await raw(c.t.core, r.command, { ...r.payload(s, c), managerPin: STAFF.manager.pin }));
          expect(error.code).toBe('needs_manager');
          expect(error.message).toMatch(/^That PIN is not right\. .* Nothing was changed\.$/);
          expect(error.message).not.toContain(STAFF.manager.name);
          expect(snapshot(c.t.dataDir)).toEqual(before);
          expect(readDb(c.t.dataDir, (db) => db.prepare('SELECT failures FROM sign_in_guard').pluck().get())).toBe(1);
          const audit = auditSince(c.t.dataDir, auditFrom);
          expect(audit.map((a) => a.action)).toEqual(['staff.wrong_pin', 'permission.refused']);
          expect(audit[1]).toMatchObject({ detail: { permission: r.permission, approver: 'wrong' } });
        });
      }

      it(`is done for a ${role} with the PIN of ${approver}, and the audit names who approved`, async () => {
        const s = await ready(actor);
        const auditFrom = lastAuditId(c.t.dataDir);
        const response = await raw(c.t.core, r.command, { ...r.payload(s, c), managerPin: STAFF[approver].pin });
        if (r.approved === 'past-check') {
          // OAuth is not set up on a test terminal: the answer comes from past the permission check.
          expect(refusal(response).code).toBe('unavailable');
          return;
        }
        expect(response, JSON.stringify(response).slice(0, 300)).toMatchObject({ ok: true });
        if (r.approved === 'reset') {
          // The store it would be audited in is gone: a fresh one, no one signed in.
          expect(count(c.t.dataDir, 'locations')).toBe(0);
          expect((await ok(c.t.core, 'staff.session', {})).signedIn).toBeNull();
          return;
        }
        const audit = auditSince(c.t.dataDir, auditFrom);
        expect(audit.filter((a) => a.action === 'permission.refused')).toEqual([]);
        expect(audit, `an audit entry by ${actor} approved by ${approver}: ${JSON.stringify(audit.map((a) => [a.action, a.actor, a.detail]))}`).toContainEqual(
          expect.objectContaining({ actor: STAFF_ID[actor], detail: expect.objectContaining({ approvedBy: STAFF_ID[approver] }) }),
        );
      });
    }

    for (const role of allowed) {
      it(`is done for a ${role} without any PIN`, async () => {
        const actor = who(role);
        const s = await ready(actor);
        const auditFrom = lastAuditId(c.t.dataDir);
        const response = await raw(c.t.core, r.command, r.payload(s, c));
        if (r.approved === 'past-check') {
          expect(refusal(response).code).toBe('unavailable');
          return;
        }
        expect(response, JSON.stringify(response).slice(0, 300)).toMatchObject({ ok: true });
        if (r.approved !== 'reset') expect(auditSince(c.t.dataDir, auditFrom).filter((a) => a.action === 'permission.refused')).toEqual([]);
      });
    }
  });
}

// ---- a locked till ----

/** The lock screen's commands (docs/staff.md, "While no one is signed in"). */
const PUBLIC = new Set<CommandName>([
  'staff.session', 'staff.signIn', 'staff.setupOwner', 'staff.liftLockout', 'staff.lock', 'staff.activity',
  'sync.status', 'printing.status', 'settings.get', 'location.get', 'menu.snapshot', 'storeMode.status',
  // The page asks it before anyone signs in, to choose the register or the kitchen display.
  'kitchen.display',
]);

/** A valid payload for every command in the contract (typed over CommandName: a new command must be added here). */
const SAMPLE: Record<CommandName, unknown> = {
  'menu.snapshot': {},
  'menu.search': { query: 'fr' },
  'menu.createItem': { name: 'Tea', price: 300, categoryId: 'cat_drinks', managerPin: STAFF.manager.pin },
  'menu.updateItem': { id: ITEMS.soup, changes: { price: 800 }, managerPin: STAFF.manager.pin },
  'menu.deleteItem': { id: ITEMS.soup, managerPin: STAFF.manager.pin },
  'menu.setAvailable': { id: ITEMS.soup, available: false },
  'orders.place': { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] },
  'orders.list': {},
  'orders.get': { id: 'ord_x' },
  'orders.update': { id: 'ord_x', notes: 'x' },
  'orders.fulfil': { id: 'ord_x' },
  'orders.cancel': { id: 'ord_x', reason: 'Rung up by mistake', managerPin: STAFF.manager.pin },
  'orders.removeGratuity': { id: 'ord_x', reason: 'Regulars', managerPin: STAFF.manager.pin },
  'orders.merge': { into: 'ord_x', from: 'ord_y', managerPin: STAFF.manager.pin },
  'orders.reopen': { id: 'ord_x', reason: 'Forgot the dessert', managerPin: STAFF.manager.pin },
  'payments.take': { orderId: 'ord_x', method: 'cash', amount: 100 },
  'payments.refund': { paymentId: 'pay_x', amount: 100, reason: 'other', note: 'Cold soup', managerPin: STAFF.manager.pin },
  'payments.refundItems': { orderId: 'ord_x', items: [{ lineIndex: 0, quantity: 1 }], reason: 'other', note: 'Cold soup' },
  'printing.status': {},
  'printing.preview': { orderId: 'ord_x' },
  'printing.reprint': { orderId: 'ord_x' },
  'printing.openDrawer': { reason: 'change', managerPin: STAFF.manager.pin },
  'printing.retryJob': { id: 'job_x' },
  'printing.redirectJob': { id: 'job_x', printer: 'receipt' },
  'printing.discardJob': { id: 'job_x' },
  'printing.confirmPrinted': { id: 'job_x' },
  'location.get': {},
  'location.list': {},
  'orders.transfer': { id: 'ord_x', toStaffId: STAFF_ID.cashier, managerPin: STAFF.manager.pin },
  'staff.roster': {},
  'tables.floor': {},
  'tables.saveSection': { name: 'Patio', managerPin: STAFF.manager.pin },
  'tables.removeSection': { id: 'sec_x', managerPin: STAFF.manager.pin },
  'tables.saveTable': { sectionId: 'sec_x', name: '12', seats: 4, shape: 'square', x: 0, y: 0, width: 2, height: 2, managerPin: STAFF.manager.pin },
  'tables.removeTable': { id: 'tbl_x', managerPin: STAFF.manager.pin },
  'tables.printBill': { id: 'tbl_x' },
  'tables.clear': { id: 'tbl_x' },
  'tables.courses': {},
  'storeMode.status': {},
  'storeMode.orders': {},
  'storeMode.forwards': {},
  'kitchen.display': {},
  'kitchen.tickets': {},
  'kitchen.bump': { orderId: 'ord_x' },
  'kitchen.recall': { orderId: 'ord_x' },
  'storeMode.changeOrder': { orderId: 'ord_elsewhere', change: { kind: 'fulfil' } },
  'storeMode.takePayment': { orderId: 'ord_elsewhere', method: 'cash', amount: 500 },
  'storeMode.giveBack': { forwardId: 'fwd_elsewhere' },
  'storeMode.adoptTill': { tillId: 'a'.repeat(64), managerPin: STAFF.manager.pin },
  'storeMode.pairingCode': { managerPin: STAFF.manager.pin },
  'storeMode.cancelPairing': {},
  'storeMode.join': { address: '127.0.0.1:9', code: '1234 5678', managerPin: STAFF.manager.pin },
  'reports.storeZ': {},
  'tables.saveCourses': { courses: [{ name: 'Drinks' }, { name: 'Mains' }], managerPin: STAFF.manager.pin },
  'orders.holdCourse': { id: 'ord_x', course: 'course_mains' },
  'orders.fireCourse': { id: 'ord_x', course: 'course_mains' },
  'shift.summary': {},
  'shift.current': {},
  'shift.open': { count: [{ value: 100, count: 1 }] },
  'shift.moveCash': { kind: 'drop', amount: 100, reason: 'safe' },
  'shift.close': { count: [], managerPin: STAFF.manager.pin },
  'staff.session': {},
  'staff.setupOwner': { name: 'Eve', pin: '8642' },
  'staff.signIn': { pin: STAFF.cashier.pin },
  'staff.liftLockout': {},
  'staff.lock': {},
  'staff.activity': {},
  'staff.checkApproval': { permission: 'refund', managerPin: STAFF.manager.pin },
  'staff.list': {},
  'staff.create': { name: 'Eve', role: 'cashier', pin: '8642', managerPin: STAFF.owner.pin },
  'staff.update': { id: STAFF_ID.cashier, name: 'Eve' },
  'reports.days': {},
  'reports.z': {},
  'reports.csv': { businessDay: '2030-01-01' },
  'reports.print': { businessDay: '2030-01-01' },
  'settings.get': {},
  'settings.update': { autoLockMinutes: 0, managerPin: STAFF.owner.pin },
  'credentials.setApiKey': { apiKey: 'sk_test_locked1' },
  'credentials.connectOAuth': {},
  'credentials.oauthStatus': {},
  'sync.status': {},
  'sync.now': {},
  'sync.retryDeadLetter': { id: '1' },
  'sync.discardDeadLetter': { id: '1' },
  'sync.settleRepricedOrder': { id: 'ord_x' },
  'session.pending': {},
  'session.signOut': { despitePending: true },
  'terminal.reset': { confirmPendingLoss: true, managerPin: STAFF.owner.pin },
};

describe('a locked till', () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'owner', openShift: true });
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    await t.call('staff.lock', {});
  });
  afterAll(() => t?.core.shutdown());

  it('the sample payloads are valid for their commands', () => {
    for (const [name, payload] of Object.entries(SAMPLE)) expect(commands[name as CommandName].payload.safeParse(payload).success, name).toBe(true);
  });

  // A register refuses the kitchen's commands signed in or not (test/kitchen/role-gate.test.ts).
  const locked = (Object.keys(commands) as CommandName[]).filter((name) => !PUBLIC.has(name) && !name.startsWith('kitchen.'));
  it.each(locked)('refuses %s with needs_sign_in and changes nothing', async (name) => {
    const before = snapshot(t.dataDir, { guard: true, audit: true });
    const error = refusal(await t.raw(name, SAMPLE[name]));
    expect(error.code).toBe('needs_sign_in');
    expect(snapshot(t.dataDir, { guard: true, audit: true })).toEqual(before);
  });

  it('answers the lock screen’s reads', async () => {
    for (const name of ['staff.session', 'sync.status', 'printing.status', 'settings.get', 'location.get', 'menu.snapshot'] as const) {
      expect(await t.raw(name, SAMPLE[name]), name).toMatchObject({ ok: true });
    }
    expect((await t.call('staff.session', {})).signedIn).toBeNull();
  });
});
