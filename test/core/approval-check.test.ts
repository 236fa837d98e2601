// An approval PIN checked when it is given (issue 24, item 13; docs/staff.md, "Checked when given"):
// staff.checkApproval, through the bridge on a real core and a real SQLite file, names who approves
// or refuses with the command's own words; it is a PIN check on the till's budget like any other
// (PINs sent at once cannot slip past it), approves nothing by itself, and the command it is for
// still checks its PIN.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import type { Core } from '../../main/core/index';
import { PIN_LIMITS } from '../../store/staff';
import { ITEMS, STAFF, startTestCore, type TestCore } from './fixtures';
import { auditSince, lastAuditId, ok, raw, refusal, snapshot, STAFF_ID } from './staff-fixtures';

const T0 = Date.UTC(2030, 2, 14, 15, 0, 0);
const WRONG = 'That PIN is not right. A discount above the approval limits needs a manager. Nothing was changed.';
const WAITING = /^Too many wrong PINs\. Try again in \d+ seconds\.$/;
/** PINs no test staff member has (fixtures.ts: 4826, 5937, 6048, 7159), none of them obvious. */
const guesses = (n: number) => Array.from({ length: n }, (_, i) => String(2000 + i * 7).padStart(4, '0'));

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.shutdown();
});
async function cashierCore(): Promise<TestCore> {
  const t = await startTestCore({}, { clock: new ManualClock(T0) }, undefined, { signIn: 'cashier' });
  cores.push(t.core);
  return t;
}

const check = (t: TestCore, managerPin: string, permission = 'discount.above_limit') => raw(t.core, 'staff.checkApproval', { permission, managerPin });
const wrongPinsChecked = (t: TestCore, since: number) => auditSince(t.dataDir, since).filter((a) => a.action === 'staff.wrong_pin').length;

describe('staff.checkApproval', () => {
  it('names the manager or owner whose PIN it is; any other PIN gets the wrong PIN’s answer, word for word, next to the PIN', async () => {
    const t = await cashierCore();
    const before = snapshot(t.dataDir);
    const from = lastAuditId(t.dataDir);

    expect(await ok(t.core, 'staff.checkApproval', { permission: 'discount.above_limit', managerPin: STAFF.manager.pin })).toEqual({
      approvedBy: { id: STAFF_ID.manager, name: STAFF.manager.name },
      message: `Approved by ${STAFF.manager.name}.`,
    });
    expect((await ok(t.core, 'staff.checkApproval', { permission: 'terminal.reset', managerPin: STAFF.owner.pin })).approvedBy.id).toBe(STAFF_ID.owner);

    const wrong = refusal(await check(t, '2468'));
    expect(wrong).toEqual({ code: 'needs_manager', message: WRONG, issues: [{ path: 'managerPin', message: WRONG }] });
    // A colleague's PIN, the cashier's own, a manager's for what only the owner may do: a wrong PIN each.
    expect(refusal(await check(t, STAFF.cashier2.pin))).toEqual(wrong);
    expect(refusal(await check(t, STAFF.cashier.pin))).toEqual(wrong);
    expect(refusal(await check(t, STAFF.manager.pin, 'terminal.reset')).message).toBe('That PIN is not right. Resetting the terminal needs the owner. Nothing was changed.');

    // Each refusal is audited and counted; a right PIN approves nothing, so nothing else is written.
    const audit = auditSince(t.dataDir, from);
    expect(audit.filter((a) => a.action === 'staff.wrong_pin')).toHaveLength(4);
    expect(audit.filter((a) => a.action === 'permission.refused')).toHaveLength(4);
    expect(audit.filter((a) => a.action === 'permission.approved')).toEqual([]);
    expect(snapshot(t.dataDir)).toEqual(before);
  });

  it('PINs sent at once are reserved before hashing: 39 wrong ones and then the manager’s check 5 in all, and the manager’s is refused unchecked', async () => {
    const t = await cashierCore();
    const from = lastAuditId(t.dataDir);
    const answers = await Promise.all([...guesses(39), STAFF.manager.pin].map((pin) => check(t, pin)));
    for (const answer of answers) {
      const { code, message } = refusal(answer);
      expect(code).toBe('needs_manager');
      expect(message).toMatch(/^(That PIN is not right\. |Too many wrong PINs\.)/);
    }
    expect(refusal(answers.at(-1)!).message).toMatch(WAITING);
    expect(wrongPinsChecked(t, from)).toBe(PIN_LIMITS.freeTries);
    // Entry waits for everyone: the manager's right PIN too, and signing in.
    expect(refusal(await check(t, STAFF.manager.pin)).message).toMatch(WAITING);
    expect((await ok(t.core, 'staff.session', {})).lockedOutForMs).toBeGreaterThan(0);
  });

  it('approves nothing by itself: the order it was asked for still checks its own PIN on saving', async () => {
    const t = await cashierCore();
    const comp = { lines: [{ menuItemId: ITEMS.soup, quantity: 1, discount: { kind: 'percent' as const, value: 10_000, reason: 'Comp – kitchen error' } }] };
    expect((await ok(t.core, 'staff.checkApproval', { permission: 'discount.above_limit', managerPin: STAFF.manager.pin })).approvedBy.id).toBe(STAFF_ID.manager);
    // A caller that skips the check, or sends another PIN after it, is refused at the save.
    expect(refusal(await raw(t.core, 'orders.place', comp))).toMatchObject({ code: 'needs_manager' });
    expect(refusal(await raw(t.core, 'orders.place', { ...comp, managerPin: '2468' })).message).toBe(WRONG);
    const from = lastAuditId(t.dataDir);
    const order = await ok(t.core, 'orders.place', { ...comp, managerPin: STAFF.manager.pin });
    expect(order.total).toBe(0);
    expect(auditSince(t.dataDir, from)).toContainEqual(expect.objectContaining({ action: 'discount.approved', detail: expect.objectContaining({ approvedBy: STAFF_ID.manager }) }));
  });

  it('is refused while the till is locked, and for a permission the contract does not know', async () => {
    const t = await cashierCore();
    expect(refusal(await check(t, STAFF.manager.pin, 'everything'))).toMatchObject({ code: 'invalid_command' });
    await ok(t.core, 'staff.lock', {});
    expect(refusal(await check(t, STAFF.manager.pin))).toMatchObject({ code: 'needs_sign_in' });
  });
});
