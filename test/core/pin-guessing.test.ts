// PIN guessing (issue 22, findings 1 to 3; docs/staff.md, "PIN guessing"), through the bridge on a
// real core and a real SQLite file, the clock moved by hand: every PIN check is reserved in the store
// before its hash, so PINs sent at once cannot slip past the limit; the till's budget of wrong PINs
// is not refilled by signing back in; an approval PIN of someone who may not approve is a wrong PIN;
// an owner (by PIN, on a budget of its own) or IT (from the command line) lifts a lockout, which
// survives a restart until then; PINs given to set are rationed and set one at a time.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import type { Core } from '../../main/core/index';
import { liftLockoutCommand } from '../../main/config/lift-lockout';
import { openStore, STORE_MIGRATIONS } from '../../store/index';
import { lockoutWait, PIN_LIMITS } from '../../store/staff';
import { ITEMS, seedDataDir, STAFF, startTestCore, type TestCore } from './fixtures';
import { as, auditSince, count, lastAuditId, ok, raw, readDb, refusal, STAFF_ID, startCoreOn } from './staff-fixtures';
import { join } from 'node:path';

const T0 = Date.UTC(2030, 2, 14, 15, 0, 0);
const WRONG = 'That PIN is not right.';
const WAITING = /^Too many wrong PINs\. Try again in \d+ seconds\.$/;
/** PINs no test staff member has (fixtures.ts: 4826, 5937, 6048, 7159), none of them obvious. */
const guesses = (n: number) => Array.from({ length: n }, (_, i) => String(2000 + i * 7).padStart(4, '0'));

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.shutdown();
});
async function started(t: Promise<TestCore>): Promise<TestCore> {
  const ready = await t;
  cores.push(ready.core);
  return ready;
}

const wrongPinsChecked = (dataDir: string, since: number) => auditSince(dataDir, since).filter((a) => a.action === 'staff.wrong_pin').length;
const failuresInARow = (dataDir: string) => readDb(dataDir, (db) => db.prepare('SELECT failures FROM sign_in_guard').pluck().get() as number);

describe('finding 1: PIN guessing is limited per till', () => {
  it('signing back in with your own PIN between guesses does not reset the budget: 10 wrong PINs, then entry waits; an hour allows at most 12 more', async () => {
    const clock = new ManualClock(T0);
    const t = await started(startTestCore({}, { clock }, undefined, { signIn: 'cashier' }));
    const from = lastAuditId(t.dataDir);
    // Four colleagues' PINs guessed at a time, the cashier's own PIN between: the reported attack.
    let refused: string | null = null;
    for (const [i, pin] of guesses(40).entries()) {
      const answer = await raw(t.core, 'staff.signIn', { pin });
      if (!answer.ok) {
        const { message } = refusal(answer);
        if (message !== WRONG) {
          refused = message;
          break;
        }
      }
      if (i % 4 === 3) await raw(t.core, 'staff.signIn', { pin: STAFF.cashier.pin });
    }
    // The guess that spent the budget is answered with the wait it leaves.
    expect(refused).toMatch(WAITING);
    expect(wrongPinsChecked(t.dataDir, from)).toBe(PIN_LIMITS.budgets.guess.capacity);
    // The cashier's own PIN waits too: the budget is the till's, and a right PIN does not refill it.
    expect(refusal(await raw(t.core, 'staff.signIn', { pin: STAFF.cashier.pin })).message).toMatch(WAITING);
    const { lockedOutForMs } = await ok(t.core, 'staff.session', {});
    expect(lockedOutForMs).toBeGreaterThan(0);

    // The attacker waits out each refusal for an hour, signing back in between guesses.
    const hourFrom = lastAuditId(t.dataDir);
    let elapsed = 0;
    for (const pin of guesses(200).slice(40)) {
      const wait = (await ok(t.core, 'staff.session', {})).lockedOutForMs ?? 0;
      if (elapsed + wait > 60 * 60_000) break;
      clock.advance(wait);
      elapsed += wait;
      // Checked: wrong, or (the budget spent again by it) the wait it leaves.
      expect(refusal(await raw(t.core, 'staff.signIn', { pin })).code).toBe('needs_sign_in');
      await raw(t.core, 'staff.signIn', { pin: STAFF.cashier.pin });
    }
    const perHour = (60 * 60_000) / PIN_LIMITS.budgets.guess.refillMs;
    expect(wrongPinsChecked(t.dataDir, hourFrom)).toBeLessThanOrEqual(perHour + 1);
    expect(wrongPinsChecked(t.dataDir, hourFrom)).toBeGreaterThan(0); // slowed, not shut
  });

  it('PINs sent at once are reserved before hashing: 39 wrong PINs and then the manager’s check 5, and the manager is not signed in', async () => {
    const clock = new ManualClock(T0);
    const t = await started(startTestCore({}, { clock }, undefined, { signIn: null }));
    const from = lastAuditId(t.dataDir);
    const answers = await Promise.all([...guesses(39), STAFF.manager.pin].map((pin) => raw(t.core, 'staff.signIn', { pin })));
    // The fifth reservation already locks entry: every answer, the first four's too, says so.
    for (const answer of answers) expect(refusal(answer)).toMatchObject({ code: 'needs_sign_in', message: expect.stringMatching(WAITING) });
    expect(wrongPinsChecked(t.dataDir, from)).toBe(PIN_LIMITS.freeTries);
    expect(await ok(t.core, 'staff.session', {})).toMatchObject({ signedIn: null, lockedOutForMs: lockoutWait(PIN_LIMITS.freeTries) });
  });

  it('a right PIN does not give back the budget other requests spent, even interleaved with them at once', async () => {
    const clock = new ManualClock(T0);
    const t = await started(startTestCore({}, { clock }, undefined, { signIn: null }));
    const from = lastAuditId(t.dataDir);
    const pins = guesses(12);
    // A guess, the cashier's own PIN, a guess, all at once, round after round.
    for (let round = 0; round < 6; round++) {
      const batch = [pins[2 * round]!, STAFF.cashier.pin, pins[2 * round + 1]!];
      await Promise.all(batch.map((pin) => raw(t.core, 'staff.signIn', { pin })));
    }
    expect(wrongPinsChecked(t.dataDir, from)).toBe(PIN_LIMITS.budgets.guess.capacity);
    expect(refusal(await raw(t.core, 'staff.signIn', { pin: guesses(13).at(-1)! })).message).toMatch(WAITING);
  });
});

describe('finding 2: a lockout can be lifted', () => {
  it('by an owner’s PIN on a budget of its own, by IT from the command line; it survives a restart until lifted; the owner is told', async () => {
    const clock = new ManualClock(T0);
    const t = await started(startTestCore({}, { clock }, undefined, { signIn: null }));
    expect(refusal(await raw(t.core, 'staff.liftLockout', { pin: STAFF.owner.pin })).code).toBe('conflict'); // nothing to lift
    // Wrong PINs at the lock screen, each wait waited out, until the budget is spent.
    for (const pin of guesses(PIN_LIMITS.budgets.guess.capacity)) {
      clock.advance((await ok(t.core, 'staff.session', {})).lockedOutForMs ?? 0);
      refusal(await raw(t.core, 'staff.signIn', { pin }));
    }
    const locked = (await ok(t.core, 'staff.session', {})).lockedOutForMs!;
    expect(locked).toBe(PIN_LIMITS.maxWaitMs);
    expect(refusal(await raw(t.core, 'staff.signIn', { pin: STAFF.owner.pin })).message).toMatch(WAITING);

    // Only an owner lifts it: a manager's PIN is a wrong PIN; no PIN with no owner signed in is refused.
    expect(refusal(await raw(t.core, 'staff.liftLockout', {})).code).toBe('needs_manager');
    expect(refusal(await raw(t.core, 'staff.liftLockout', { pin: STAFF.manager.pin }))).toMatchObject({ code: 'needs_sign_in', message: WRONG });
    const from = lastAuditId(t.dataDir);
    const lifted = await ok(t.core, 'staff.liftLockout', { pin: STAFF.owner.pin });
    expect(lifted).toMatchObject({ signedIn: { id: STAFF_ID.owner }, lockedOutForMs: null });
    expect(lifted.pinGuessing).toEqual({ wrongPins: PIN_LIMITS.budgets.guess.capacity + 1, since: new Date(T0).toISOString() });
    expect(auditSince(t.dataDir, from)).toContainEqual(
      expect.objectContaining({ action: 'staff.lockout_lifted', actor: STAFF_ID.owner, detail: expect.objectContaining({ wrongPins: PIN_LIMITS.budgets.guess.capacity + 1 }) }),
    );
    expect(auditSince(t.dataDir, 0).filter((a) => a.action === 'staff.pin_lockout').length).toBeGreaterThan(0);
    // The notice is for owners and managers, not cashiers.
    await as(t.core, 'manager');
    expect((await ok(t.core, 'staff.session', {})).pinGuessing?.wrongPins).toBe(PIN_LIMITS.budgets.guess.capacity + 1);
    await as(t.core, 'cashier');
    expect((await ok(t.core, 'staff.session', {})).pinGuessing).toBeUndefined();

    // The owner's override has its own small budget: guessing through it soon waits too.
    await ok(t.core, 'staff.lock', {});
    for (const pin of guesses(PIN_LIMITS.freeTries)) refusal(await raw(t.core, 'staff.signIn', { pin }));
    const overrides = await Promise.all(guesses(20).slice(10).map((pin) => raw(t.core, 'staff.liftLockout', { pin })));
    expect(overrides.map((a) => refusal(a).message).filter((m) => m === WRONG).length).toBeLessThanOrEqual(PIN_LIMITS.budgets.override.capacity);
    expect(refusal(await raw(t.core, 'staff.liftLockout', { pin: STAFF.owner.pin })).message).toMatch(WAITING);

    // A restart keeps the lockout; IT lifts it from the command line with the app running.
    await t.core.shutdown();
    cores.splice(cores.indexOf(t.core), 1);
    const again = await startCoreOn(t.dataDir, {}, clock);
    cores.push(again);
    expect((await ok(again, 'staff.session', {})).lockedOutForMs).toBeGreaterThan(0);
    const itFrom = lastAuditId(t.dataDir);
    const cli = liftLockoutCommand(['--data-dir', t.dataDir], { now: () => clock.now() });
    expect(cli).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^PIN entry is open on .*terminal\.db/) });
    expect(auditSince(t.dataDir, itFrom)).toEqual([expect.objectContaining({ action: 'staff.lockout_lifted', actor: 'it' })]);
    expect((await ok(again, 'staff.session', {})).lockedOutForMs).toBeNull();
    expect((await ok(again, 'staff.signIn', { pin: STAFF.cashier.pin })).signedIn?.id).toBe(STAFF_ID.cashier);
  });

  it('the command line refuses a folder with no store, and says how to use it', () => {
    expect(liftLockoutCommand(['--data-dir', join(seedDataDir(), 'nothing-here')])).toMatchObject({ code: 2, stderr: expect.stringMatching(/no store at/) });
    expect(liftLockoutCommand(['--nonsense'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/usage:/) });
    expect(liftLockoutCommand(['--help'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/--data-dir/) });
  });

  it('a store upgraded from migration 14 keeps its count and its lockout', () => {
    const dir = seedDataDir();
    const file = join(dir, 'upgrade.db');
    const old = openStore(file, { migrations: STORE_MIGRATIONS.slice(0, 14) });
    const lockedUntil = T0 + 60_000;
    old.db.prepare('INSERT INTO sign_in_guard (id, failures, locked_until) VALUES (1, 6, ?)').run(lockedUntil);
    old.close();
    const store = openStore(file);
    try {
      expect(store.staff.guard()).toEqual({ failures: 6, lockedUntil });
      expect(store.staff.wait('sign_in', T0)).toEqual({ waitMs: 60_000, reason: 'lockout' });
      expect(store.staff.reserveAttempt('sign_in', T0)).toEqual({ ok: false, waitMs: 60_000, reason: 'lockout' });
    } finally {
      store.close();
    }
  });
});

describe('finding 3: an approval PIN names no one', () => {
  it('someone’s PIN who may not approve gets the wrong PIN’s answer and counts as one, alone or sent many at once', async () => {
    const clock = new ManualClock(T0);
    const t = await started(startTestCore({}, { clock }, undefined, { signIn: 'cashier' }));
    const order = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const cancel = (managerPin: string) => raw(t.core, 'orders.cancel', { reason: 'Rung up by mistake', id: order.id, managerPin });

    const wrong = refusal(await cancel('2468'));
    const colleague = refusal(await cancel(STAFF.cashier2.pin));
    const own = refusal(await cancel(STAFF.cashier.pin));
    expect(wrong).toMatchObject({ code: 'needs_manager', message: expect.stringMatching(/^That PIN is not right\. /) });
    expect(colleague).toEqual(wrong);
    expect(own).toEqual(wrong);
    expect(failuresInARow(t.dataDir)).toBe(3);

    // Many at once, a colleague's PIN among wrong ones and the manager's last: counted before hashing.
    await as(t.core, 'cashier');
    const from = lastAuditId(t.dataDir);
    const pins = [...guesses(12).flatMap((pin) => [pin, STAFF.cashier2.pin]), STAFF.manager.pin];
    const answers = (await Promise.all(pins.map(cancel))).map(refusal);
    for (const answer of answers) {
      expect(answer.code).toBe('needs_manager');
      expect(answer.message).not.toMatch(new RegExp(STAFF.cashier2.name));
      expect(answer.message).toMatch(/^(That PIN is not right\.|Too many wrong PINs\.)/);
    }
    expect(wrongPinsChecked(t.dataDir, from)).toBe(PIN_LIMITS.freeTries);
    expect((await ok(t.core, 'orders.get', { id: order.id })).status).toBe('open');
    expect(count(t.dataDir, 'audit_log', "action = 'permission.refused' AND detail LIKE ?", `%${STAFF_ID.cashier2}%`)).toBe(0);
  });
});

describe('PINs given to set', () => {
  it('are rationed, one in use counts as a wrong PIN, and two changes at once cannot take the same PIN', async () => {
    const clock = new ManualClock(T0);
    const t = await started(startTestCore({}, { clock }, undefined, { signIn: 'manager', openShift: false }));
    const dana = await ok(t.core, 'staff.create', { name: 'Dana Long', role: 'cashier', pin: '73019462' });

    // Looking for whose PIN it is by setting it: "in use" is a wrong PIN, counted.
    expect(refusal(await raw(t.core, 'staff.update', { id: dana.id, pin: STAFF.owner.pin }))).toMatchObject({ code: 'conflict', message: expect.stringMatching(/already in use/) });
    expect(failuresInARow(t.dataDir)).toBe(1);

    // Two new staff with one PIN at once: one of them gets it.
    const both = await Promise.all(['Eve', 'Fay'].map((name) => raw(t.core, 'staff.create', { name, role: 'cashier', pin: '50718293' })));
    expect(both.filter((a) => a.ok)).toHaveLength(1);
    expect(refusal(both.find((a) => !a.ok)!)).toMatchObject({ code: 'conflict', message: expect.stringMatching(/already in use/) });

    // Every PIN given to set costs from a budget of its own: a walk through PINs soon waits.
    const walk = await Promise.all(guesses(30).map((pin) => raw(t.core, 'staff.update', { id: dana.id, pin: `${pin}1` })));
    const waited = walk.filter((a) => !a.ok).map((a) => refusal(a).message);
    expect(walk.filter((a) => a.ok).length).toBeLessThanOrEqual(PIN_LIMITS.budgets.pin_set.capacity - 4);
    expect(waited.length).toBeGreaterThan(0);
    for (const message of waited) expect(message).toMatch(/^Too many PINs tried\. Try again in \d+ seconds\.$/);
  });

  it('two first-run screens at once make one owner', async () => {
    const t = await started(startTestCore({ staff: { members: [] } }, {}, undefined, { signIn: null }));
    const answers = await Promise.all([
      raw(t.core, 'staff.setupOwner', { name: 'Ada Owner', pin: '58203917' }),
      raw(t.core, 'staff.setupOwner', { name: 'Bob Owner', pin: '36925814' }),
    ]);
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(refusal(answers.find((a) => !a.ok)!).code).toBe('conflict');
    expect(count(t.dataDir, 'staff', "role = 'owner'")).toBe(1);
  });
});
