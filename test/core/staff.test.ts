// Staff and sign-in (docs/staff.md, "Staff and sign-in"), through the bridge on a real core and a
// real SQLite file: PINs kept only as scrypt hashes, the first run, weak and reused PINs, the
// lockout (counted in the store, approval PINs included), the same answer for any wrong PIN, the
// auto-lock, switching staff, records naming who did them, and staff provisioned by the
// configuration (the legacy manager PIN hash included).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { Permission, type Role } from '../../bridge/staff/roles';
import { ManualClock } from '../../common/clock';
import { hashManagerPin } from '../../main/config/manager-pin';
import { MANAGER_PIN_HASH } from '../../main/config/schema';
import type { Core } from '../../main/core/index';
import { ITEMS, seedDataDir, STAFF, startTestCore, testStaffConfig, type TestCore } from './fixtures';
import { as, auditSince, count, lastAuditId, ok, provisionedId, raw, readDb, refusal, STAFF_ID, startCoreOn } from './staff-fixtures';

const T0 = Date.UTC(2030, 2, 14, 15, 0, 0);
const WRONG = 'That PIN is not right.';

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.shutdown();
});
async function started(t: Promise<TestCore>): Promise<TestCore> {
  const ready = await t;
  cores.push(ready.core);
  return ready;
}
async function startedOn(...args: Parameters<typeof startCoreOn>): Promise<Core> {
  const core = await startCoreOn(...args);
  cores.push(core);
  return core;
}

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const guard = (dataDir: string) => readDb(dataDir, (db) => db.prepare('SELECT failures, locked_until AS lockedUntil FROM sign_in_guard').get() as { failures: number; lockedUntil: number } | undefined);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('PINs', () => {
  it('are kept only as scrypt hashes: the PIN text is nowhere in the store files', async () => {
    const t = await started(startTestCore({}, {}, undefined, { signIn: 'owner', openShift: false }));
    const created = await ok(t.core, 'staff.create', { name: 'Dana Long', role: 'cashier', pin: '73019462' });
    await ok(t.core, 'staff.update', { id: created.id, pin: '58203917' });
    await ok(t.core, 'staff.signIn', { pin: '58203917' });
    expect((await ok(t.core, 'staff.session', {})).signedIn?.id).toBe(created.id);

    const hashes = readDb(t.dataDir, (db) => db.prepare('SELECT pin_hash FROM staff').pluck().all() as string[]);
    expect(hashes).toHaveLength(5);
    for (const hash of hashes) expect(hash).toMatch(MANAGER_PIN_HASH);
    expect(new Set(hashes).size).toBe(5); // salted: no two alike

    const scan = () => {
      for (const file of filesUnder(t.dataDir)) {
        const bytes = readFileSync(file);
        for (const pin of ['73019462', '58203917']) {
          expect(bytes.includes(Buffer.from(pin, 'utf8')), `${pin} in ${file}`).toBe(false);
          expect(bytes.includes(Buffer.from(pin, 'utf16le')), `${pin} (UTF-16) in ${file}`).toBe(false);
        }
      }
    };
    scan(); // the live database and its WAL
    await t.core.shutdown();
    cores.splice(cores.indexOf(t.core), 1);
    expect(existsSync(join(t.dataDir, 'terminal.db'))).toBe(true);
    scan(); // checkpointed
  });
});

describe('the first run', () => {
  it('asks for the owner before anything else, refuses weak and reused PINs, and makes one owner only', async () => {
    const t = await started(startTestCore({ staff: { members: [] } }, {}, undefined, { signIn: null }));
    expect(await ok(t.core, 'staff.session', {})).toMatchObject({ setupNeeded: true, signedIn: null, permissions: [] });
    const locked = refusal(await raw(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] }));
    expect(locked).toMatchObject({ code: 'needs_sign_in', message: expect.stringMatching(/owner/) });
    expect(count(t.dataDir, 'orders')).toBe(0);

    for (const pin of ['1111', '1234', '9876', '0000', '87654321', '123', '12a4']) {
      const error = refusal(await raw(t.core, 'staff.setupOwner', { name: 'Ada Owner', pin }));
      expect(error.code, pin).toBe('invalid_command');
      expect(error.issues?.map((i) => i.path), pin).toEqual(['pin']);
    }
    expect(count(t.dataDir, 'staff')).toBe(0);

    const owner = await ok(t.core, 'staff.setupOwner', { name: 'Ada Owner', pin: '58203917' });
    expect(owner).toMatchObject({ setupNeeded: false, signedIn: { name: 'Ada Owner', role: 'owner', provisioned: false, active: true } });
    expect(owner.permissions.sort()).toEqual([...Permission.options].sort());
    expect(refusal(await raw(t.core, 'staff.setupOwner', { name: 'Eve', pin: '36925814' })).code).toBe('conflict');
    await ok(t.core, 'staff.lock', {});
    expect(refusal(await raw(t.core, 'staff.setupOwner', { name: 'Eve', pin: '36925814' })).code).toBe('conflict');
    expect(count(t.dataDir, 'staff')).toBe(1);

    // Reused and weak PINs when adding staff.
    await ok(t.core, 'staff.signIn', { pin: '58203917' });
    const reused = refusal(await raw(t.core, 'staff.create', { name: 'Bea', role: 'cashier', pin: '58203917' }));
    expect(reused).toMatchObject({ code: 'conflict', issues: [{ path: 'pin' }] });
    const weak = refusal(await raw(t.core, 'staff.create', { name: 'Bea', role: 'cashier', pin: '4567' }));
    expect(weak).toMatchObject({ code: 'invalid_command', issues: [{ path: 'pin' }] });
    const bea = await ok(t.core, 'staff.create', { name: 'Bea', role: 'cashier', pin: '36925814' });
    expect(refusal(await raw(t.core, 'staff.update', { id: bea.id, pin: '58203917' }))).toMatchObject({ code: 'conflict', issues: [{ path: 'pin' }] });
    expect(count(t.dataDir, 'staff')).toBe(2);

    // The only owner cannot be deactivated or demoted; with a second owner, they can.
    const ownerId = owner.signedIn!.id;
    expect(refusal(await raw(t.core, 'staff.update', { id: ownerId, active: false }))).toMatchObject({ code: 'conflict', message: expect.stringMatching(/only owner/) });
    expect(refusal(await raw(t.core, 'staff.update', { id: ownerId, role: 'manager' }))).toMatchObject({ code: 'conflict', message: expect.stringMatching(/only owner/) });
    const second = await ok(t.core, 'staff.create', { name: 'Cy Owner', role: 'owner', pin: '14725836' });
    expect((await ok(t.core, 'staff.update', { id: ownerId, active: false })).active).toBe(false);
    // Deactivated while signed in: no longer signed in, and the PIN opens nothing.
    expect((await ok(t.core, 'staff.session', {})).signedIn).toBeNull();
    expect(refusal(await raw(t.core, 'staff.signIn', { pin: '58203917' }))).toMatchObject({ code: 'needs_sign_in', message: WRONG });
    await ok(t.core, 'staff.signIn', { pin: '14725836' });
    expect(refusal(await raw(t.core, 'staff.update', { id: second.id, active: false })).code).toBe('conflict');
  });
});

describe('the lockout', () => {
  it('after 5 wrong PINs waits 30 s even for the right one, doubles with each further wrong PIN up to 15 min, and a right PIN resets it', async () => {
    const clock = new ManualClock(T0);
    const t = await started(startTestCore({}, { clock }, undefined, { signIn: null }));
    const signIn = (pin: string) => raw(t.core, 'staff.signIn', { pin });
    for (let i = 1; i <= 4; i++) expect(refusal(await signIn('1357'))).toMatchObject({ code: 'needs_sign_in', message: WRONG });
    expect(refusal(await signIn('1357'))).toMatchObject({ code: 'needs_sign_in', message: 'Too many wrong PINs. Try again in 30 seconds.' });
    expect(guard(t.dataDir)).toEqual({ failures: 5, lockedUntil: T0 + 30_000 });
    expect((await ok(t.core, 'staff.session', {})).lockedOutForMs).toBe(30_000);

    // The right PIN is refused while it waits, and does not count.
    expect(refusal(await signIn(STAFF.cashier.pin))).toMatchObject({ code: 'needs_sign_in', message: expect.stringMatching(/Too many wrong PINs/) });
    clock.advance(29_000);
    expect(refusal(await signIn(STAFF.cashier.pin)).message).toBe('Too many wrong PINs. Try again in 1 seconds.');
    expect(guard(t.dataDir)!.failures).toBe(5);

    // After the wait, one more wrong PIN: 60 s.
    clock.advance(1_000);
    expect(refusal(await signIn('1357')).message).toBe('Too many wrong PINs. Try again in 60 seconds.');
    expect(guard(t.dataDir)).toEqual({ failures: 6, lockedUntil: clock.now() + 60_000 });
    clock.advance(59_999);
    expect(refusal(await signIn(STAFF.cashier.pin)).message).toMatch(/Too many wrong PINs/);
    clock.advance(1);
    expect((await ok(t.core, 'staff.signIn', { pin: STAFF.cashier.pin })).signedIn?.id).toBe(STAFF_ID.cashier);
    expect(guard(t.dataDir)).toEqual({ failures: 0, lockedUntil: 0 });
    expect((await ok(t.core, 'staff.session', {})).lockedOutForMs).toBeNull();

    // Doubling up to the cap: 30, 60, 120, 240, 480, then 900 s (not 960). An hour later, so the
    // till's budget of wrong PINs is full again (test/core/pin-guessing.test.ts proves it).
    await ok(t.core, 'staff.lock', {});
    clock.advance(60 * 60_000);
    for (let i = 1; i <= 4; i++) await signIn('1357');
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      await signIn('1357');
      waits.push(guard(t.dataDir)!.lockedUntil - clock.now());
      clock.advance(waits[waits.length - 1]!);
    }
    expect(waits).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000]);
  });

  it('survives a restart: the count is in the store', async () => {
    const clock = new ManualClock(T0);
    const t = await started(startTestCore({}, { clock }, undefined, { signIn: null }));
    for (let i = 0; i < 3; i++) refusal(await raw(t.core, 'staff.signIn', { pin: '1357' }));
    await t.core.shutdown();
    cores.splice(cores.indexOf(t.core), 1);

    const again = await startedOn(t.dataDir, {}, clock);
    expect(refusal(await raw(again, 'staff.signIn', { pin: '1357' })).message).toBe(WRONG);
    expect(refusal(await raw(again, 'staff.signIn', { pin: '1357' })).message).toMatch(/Too many wrong PINs. Try again in 30 seconds/);
    await again.shutdown();
    cores.splice(cores.indexOf(again), 1);

    const third = await startedOn(t.dataDir, {}, clock);
    expect((await ok(third, 'staff.session', {})).lockedOutForMs).toBe(30_000);
    expect(refusal(await raw(third, 'staff.signIn', { pin: STAFF.owner.pin })).message).toMatch(/Too many wrong PINs/);
    clock.advance(30_000);
    expect((await ok(third, 'staff.signIn', { pin: STAFF.owner.pin })).signedIn?.id).toBe(STAFF_ID.owner);
  });

  it('counts wrong approval PINs too, with wrong sign-in PINs, and then refuses even the right approval', async () => {
    const clock = new ManualClock(T0);
    const t = await started(startTestCore({}, { clock }, undefined, { signIn: 'cashier' }));
    const order = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    for (let i = 0; i < 3; i++) {
      expect(refusal(await raw(t.core, 'orders.cancel', { reason: 'Rung up by mistake', id: order.id, managerPin: '1357' }))).toMatchObject({ code: 'needs_manager', message: expect.stringMatching(/not right/) });
    }
    expect(guard(t.dataDir)!.failures).toBe(3);
    await ok(t.core, 'staff.lock', {});
    expect(refusal(await raw(t.core, 'staff.signIn', { pin: '2468' })).message).toBe(WRONG);
    expect(refusal(await raw(t.core, 'staff.signIn', { pin: '2468' })).message).toMatch(/Too many wrong PINs. Try again in 30 seconds/);
    clock.advance(60 * 60_000); // past the wait, and the till's budget of wrong PINs full again
    await as(t.core, 'cashier'); // resets the count in a row
    for (let i = 0; i < 5; i++) refusal(await raw(t.core, 'orders.cancel', { reason: 'Rung up by mistake', id: order.id, managerPin: '1357' }));
    expect((await ok(t.core, 'staff.session', {})).lockedOutForMs).toBe(30_000);
    const refused = refusal(await raw(t.core, 'orders.cancel', { reason: 'Rung up by mistake', id: order.id, managerPin: STAFF.manager.pin }));
    expect(refused).toMatchObject({ code: 'needs_manager', message: expect.stringMatching(/Too many wrong PINs/) });
    expect((await ok(t.core, 'orders.get', { id: order.id })).status).toBe('open');
    expect(refusal(await raw(t.core, 'staff.signIn', { pin: STAFF.manager.pin })).code).toBe('needs_sign_in');
    clock.advance(30_000);
    expect((await ok(t.core, 'orders.cancel', { reason: 'Rung up by mistake', id: order.id, managerPin: STAFF.manager.pin })).status).toBe('cancelled');
  });
});

describe('a wrong PIN names no one', () => {
  it('gets the same answer whoever it might have been, after about as much work as a right one', async () => {
    const t = await started(startTestCore({}, {}, undefined, { signIn: null }));
    const timed = async (pin: string) => {
      const start = performance.now();
      const response = await raw(t.core, 'staff.signIn', { pin });
      return { response, ms: performance.now() - start };
    };
    // Interleaved so the wrong PINs never reach the lockout; each right PIN is its owner's first (not cached).
    const wrongMs: number[] = [];
    const rightMs: number[] = [];
    for (const [who, near] of [['cashier', '6049'], ['cashier2', '7158'], ['manager', '1357'], ['owner', '48262']] as const) {
      const wrong = await timed(near);
      expect(refusal(wrong.response).code).toBe('needs_sign_in');
      wrongMs.push(wrong.ms);
      const right = await timed(STAFF[who].pin);
      expect(right.response.ok, who).toBe(true);
      rightMs.push(right.ms);
      await ok(t.core, 'staff.lock', {});
    }
    const ratio = median(wrongMs) / median(rightMs);
    expect(ratio, `wrong ${wrongMs.map((x) => x.toFixed(1))} ms, right ${rightMs.map((x) => x.toFixed(1))} ms`).toBeGreaterThan(1 / 3);
    expect(ratio).toBeLessThan(3);

    // One digit off a real PIN, a PIN no one has, a longer PIN: the same code, message and issues.
    const answers = [];
    for (const pin of ['6049', '2468', '59370', '48260000']) answers.push(refusal(await raw(t.core, 'staff.signIn', { pin })));
    for (const answer of answers) expect(answer).toEqual({ code: 'needs_sign_in', message: WRONG, issues: [{ path: 'pin', message: WRONG }] });
  });
});

describe('the auto-lock', () => {
  it('locks after the idle time; activity and changes keep it away, passive reads do not', async () => {
    const clock = new ManualClock(T0);
    const t = await started(startTestCore({ staff: { autoLockMinutes: 1 } }, { clock }, undefined, { signIn: 'cashier', openShift: false }));
    const place = () => raw(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    expect((await ok(t.core, 'staff.session', {})).autoLockMs).toBe(60_000);

    const auditFrom = lastAuditId(t.dataDir);
    clock.advance(61_000);
    expect(refusal(await place()).code).toBe('needs_sign_in');
    expect((await ok(t.core, 'staff.session', {})).signedIn).toBeNull();
    expect(auditSince(t.dataDir, auditFrom)).toEqual([expect.objectContaining({ action: 'staff.auto_lock', actor: STAFF_ID.cashier })]);
    expect(count(t.dataDir, 'orders')).toBe(0);

    // staff.activity keeps it alive.
    await as(t.core, 'cashier');
    clock.advance(40_000);
    expect((await ok(t.core, 'staff.activity', {})).signedIn?.id).toBe(STAFF_ID.cashier);
    clock.advance(40_000);
    expect((await place()).ok).toBe(true);
    // So does a change.
    clock.advance(40_000);
    expect((await place()).ok).toBe(true);

    // Passive reads do not.
    clock.advance(40_000);
    expect((await raw(t.core, 'sync.status', {})).ok).toBe(true);
    expect((await raw(t.core, 'orders.list', {})).ok).toBe(true);
    expect((await raw(t.core, 'shift.current', {})).ok).toBe(true);
    clock.advance(21_000);
    expect(refusal(await place()).code).toBe('needs_sign_in');
    expect((await ok(t.core, 'staff.session', {})).signedIn).toBeNull();

    // Activity after the idle time comes too late.
    await as(t.core, 'cashier');
    clock.advance(61_000);
    expect((await ok(t.core, 'staff.activity', {})).signedIn).toBeNull();
    expect(count(t.dataDir, 'orders')).toBe(2);
  });
});

describe('who did what', () => {
  it('switching staff mid-order: the ticket is placed by whoever signs in next', async () => {
    const t = await started(startTestCore({}, {}, undefined, { signIn: 'cashier', openShift: false }));
    await ok(t.core, 'staff.lock', {});
    expect(count(t.dataDir, 'orders')).toBe(0);
    await ok(t.core, 'staff.signIn', { pin: STAFF.cashier2.pin });
    const auditFrom = lastAuditId(t.dataDir);
    const order = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    expect(order.staff).toEqual({ id: STAFF_ID.cashier2, name: STAFF.cashier2.name });
    expect(auditSince(t.dataDir, auditFrom)).toContainEqual(expect.objectContaining({ action: 'order.create', actor: STAFF_ID.cashier2, entity_id: order.id }));
  });

  it('orders, payments and refunds name the staff member, and the audit log carries their ids', async () => {
    const t = await started(startTestCore({}, {}, undefined, { signIn: 'owner', openShift: true }));
    const auditFrom = lastAuditId(t.dataDir);
    await as(t.core, 'cashier');
    const order = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }, { menuItemId: ITEMS.fries, quantity: 1 }] });
    const cash = await ok(t.core, 'payments.take', { orderId: order.id, method: 'cash', amount: 1000 });
    await as(t.core, 'manager');
    const refund = await ok(t.core, 'payments.refund', { paymentId: cash.payment.id, amount: 300, reason: 'requested_by_customer' });
    await as(t.core, 'cashier2');
    const card = await ok(t.core, 'payments.take', { orderId: order.id, method: 'card', amount: order.total - 1000, managerPin: STAFF.manager.pin });

    const view = await ok(t.core, 'orders.get', { id: order.id });
    const ref = (who: 'cashier' | 'cashier2' | 'manager') => ({ id: STAFF_ID[who], name: STAFF[who].name });
    // The order became cashier2's when they charged it (approved by the manager).
    expect(view.staff).toEqual(ref('cashier2'));
    expect(view.payments.find((p) => p.id === cash.payment.id)?.staff).toEqual(ref('cashier'));
    expect(view.payments.find((p) => p.id === card.payment.id)?.staff).toEqual(ref('cashier2'));
    expect(view.payments.flatMap((p) => p.refunds).find((r) => r.id === refund.refund.id)?.staff).toEqual(ref('manager'));

    const audit = auditSince(t.dataDir, auditFrom);
    const by = (action: string) => audit.filter((a) => a.action === action).map((a) => a.actor);
    expect(by('order.create')).toEqual([STAFF_ID.cashier]);
    expect(by('payment.cash')).toEqual([STAFF_ID.cashier]);
    expect(by('refund.create')).toEqual([STAFF_ID.manager]);
    expect(by('payment_intent.create')).toEqual([STAFF_ID.cashier2]);
    expect(audit.find((a) => a.action === 'order.adopt')).toMatchObject({ actor: STAFF_ID.cashier2, entity_id: order.id, detail: { from: STAFF_ID.cashier, approvedBy: STAFF_ID.manager } });
    // No audit entry of these names anyone else, nor no one.
    for (const a of audit) expect(Object.values(STAFF_ID), `${a.action} by ${a.actor}`).toContain(a.actor);
  });
});

describe('staff provisioned by the configuration', () => {
  const hashes = { pat: hashManagerPin('24680'), sam: hashManagerPin('35791'), lee: hashManagerPin('46802'), kim: hashManagerPin('57913') };
  /** A core on `dataDir` whose configuration provisions these members ([name, role, PIN hash]). */
  const startedWith = (dataDir: string, members: [name: string, role: Role, pinHash: string][]) =>
    startedOn(dataDir, { staff: { members: members.map(([name, role, pinHash]) => ({ name, role, pinHash })) } });
  /** These columns of the staff table, by name. */
  const staffByName = (dataDir: string, columns: string) => readDb(dataDir, (db) => db.prepare(`SELECT ${columns} FROM staff ORDER BY name`).all());

  it('adds, updates and deactivates (never deletes) members at start; they cannot be changed at the till', async () => {
    const dataDir = seedDataDir();
    const first = await startedWith(dataDir, [
      ['Pat Owner', 'owner', hashes.pat],
      ['Sam Lead', 'manager', hashes.sam],
      ['Lee Temp', 'cashier', hashes.lee],
    ]);
    expect(staffByName(dataDir, 'name, role, active, provisioned')).toEqual([
      { name: 'Lee Temp', role: 'cashier', active: 1, provisioned: 1 },
      { name: 'Pat Owner', role: 'owner', active: 1, provisioned: 1 },
      { name: 'Sam Lead', role: 'manager', active: 1, provisioned: 1 },
    ]);
    expect((await ok(first, 'staff.signIn', { pin: '46802' })).signedIn?.name).toBe('Lee Temp');
    await first.shutdown();
    cores.splice(cores.indexOf(first), 1);

    // Sam becomes a cashier, Lee leaves the list, Kim joins.
    const core = await startedWith(dataDir, [
      ['Pat Owner', 'owner', hashes.pat],
      ['Sam Lead', 'cashier', hashes.sam],
      ['Kim New', 'cashier', hashes.kim],
    ]);
    expect(staffByName(dataDir, 'id, name, role, active, provisioned')).toEqual([
      { id: provisionedId('Kim New'), name: 'Kim New', role: 'cashier', active: 1, provisioned: 1 },
      { id: provisionedId('Lee Temp'), name: 'Lee Temp', role: 'cashier', active: 0, provisioned: 1 },
      { id: provisionedId('Pat Owner'), name: 'Pat Owner', role: 'owner', active: 1, provisioned: 1 },
      { id: provisionedId('Sam Lead'), name: 'Sam Lead', role: 'cashier', active: 1, provisioned: 1 },
    ]);
    expect(refusal(await raw(core, 'staff.signIn', { pin: '46802' }))).toMatchObject({ code: 'needs_sign_in', message: WRONG });
    expect(await ok(core, 'staff.signIn', { pin: '35791' })).toMatchObject({ signedIn: { role: 'cashier' }, permissions: [] });
    expect((await ok(core, 'staff.signIn', { pin: '57913' })).signedIn?.name).toBe('Kim New');

    await ok(core, 'staff.signIn', { pin: '24680' });
    const list = await ok(core, 'staff.list', {});
    expect(list.find((m) => m.name === 'Lee Temp')).toMatchObject({ active: false, provisioned: true });
    const before = readDb(dataDir, (db) => db.prepare('SELECT * FROM staff ORDER BY id').all());
    for (const change of [{ name: 'Samuel' }, { role: 'manager' as const }, { active: false }, { pin: '97531864' }]) {
      const error = refusal(await raw(core, 'staff.update', { id: provisionedId('Sam Lead'), ...change }));
      expect(error, JSON.stringify(change)).toMatchObject({ code: 'conflict', message: expect.stringMatching(/IT/) });
    }
    expect(refusal(await raw(core, 'staff.update', { id: provisionedId('Lee Temp'), active: true })).code).toBe('conflict');
    expect(readDb(dataDir, (db) => db.prepare('SELECT * FROM staff ORDER BY id').all())).toEqual(before);
  });

  it('the legacy offlinePayments.managerPinHash becomes a manager named "Manager" who can approve', async () => {
    const members = testStaffConfig().members.filter((m) => m.role !== 'manager');
    const t = await started(
      startTestCore({ offlinePayments: { managerPinHash: hashManagerPin('80246') }, staff: { members: members as never } }, {}, undefined, { signIn: 'cashier', openShift: true }),
    );
    const order = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const paid = await ok(t.core, 'payments.take', { orderId: order.id, method: 'cash', amount: 450 });
    expect(refusal(await raw(t.core, 'payments.refund', { paymentId: paid.payment.id, amount: 100, reason: 'other', note: 'Cold soup' })).code).toBe('needs_manager');
    const auditFrom = lastAuditId(t.dataDir);
    await ok(t.core, 'payments.refund', { paymentId: paid.payment.id, amount: 100, reason: 'other', note: 'Cold soup', managerPin: '80246' });
    expect(auditSince(t.dataDir, auditFrom)).toContainEqual(
      expect.objectContaining({ action: 'refund.approved', actor: STAFF_ID.cashier, detail: { approvedBy: provisionedId('Manager') } }),
    );
    await as(t.core, 'owner');
    expect((await ok(t.core, 'staff.list', {})).find((m) => m.id === provisionedId('Manager'))).toEqual({
      id: provisionedId('Manager'),
      name: 'Manager',
      role: 'manager',
      active: true,
      provisioned: true,
    });
    expect((await ok(t.core, 'staff.signIn', { pin: '80246' })).signedIn).toMatchObject({ name: 'Manager', role: 'manager' });
  });
});

describe('who may add and change staff', () => {
  it('a manager adds and changes cashiers only; never a manager or an owner', async () => {
    const t = await started(startTestCore({}, {}, undefined, { signIn: 'manager', openShift: false }));
    const staffRows = () => readDb(t.dataDir, (db) => db.prepare('SELECT * FROM staff ORDER BY id').all());
    const before = staffRows();
    for (const role of ['manager', 'owner'] as const) {
      const error = refusal(await raw(t.core, 'staff.create', { name: `New ${role}`, role, pin: '36925814' }));
      expect(error, role).toMatchObject({ code: 'needs_manager', message: expect.stringMatching(/ask the owner/), issues: [{ path: 'role' }] });
    }
    expect(staffRows()).toEqual(before);

    const hire = await ok(t.core, 'staff.create', { name: 'Nia Hire', role: 'cashier', pin: '36925814' });
    expect(hire).toMatchObject({ role: 'cashier', provisioned: false, active: true });
    expect(refusal(await raw(t.core, 'staff.update', { id: hire.id, role: 'manager' }))).toMatchObject({ code: 'needs_manager', issues: [{ path: 'role' }] });
    expect((await ok(t.core, 'staff.update', { id: hire.id, name: 'Nia H.' })).name).toBe('Nia H.');

    // A cashier approved by a manager may do no more than the manager could.
    await as(t.core, 'cashier');
    const approved = refusal(await raw(t.core, 'staff.create', { name: 'Sneaky', role: 'manager', pin: '14725836', managerPin: STAFF.manager.pin }));
    expect(approved).toMatchObject({ code: 'needs_manager', issues: [{ path: 'role' }] });
    // The owner may.
    await as(t.core, 'owner');
    expect((await ok(t.core, 'staff.update', { id: hire.id, role: 'manager' })).role).toBe('manager');
    await as(t.core, 'manager');
    expect(refusal(await raw(t.core, 'staff.update', { id: hire.id, name: 'Nope' }))).toMatchObject({ code: 'needs_manager', issues: [{ path: 'role' }] });
  });
});
