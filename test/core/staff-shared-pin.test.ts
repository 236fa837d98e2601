// A PIN two people share (docs/staff.md, "A PIN two people share"), on a real core with real store
// files: Nia (a manager added on this till) and Cole (a cashier received from another till's log,
// applied as a peer's page) were given the same PIN before the tills met. In store mode an approval
// with it is refused and approves nothing; a sign-in with it gets through once, the check of the
// other staff after answering finds Cole, the session is signed out at its next command, and the
// PIN is refused from then on (repeated or in parallel) until one of them gets a new PIN; meanwhile
// the staff list marks both (`pinShared`). With store mode off nothing changes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { hashManagerPin } from '../../main/config/manager-pin';
import type { Core } from '../../main/core/index';
import { openStore, type Store } from '../../store';
import { freePorts } from '../store-mode/fixtures/ports';
import { startTestCore, type TestCore } from './fixtures';
import { as, auditSince, lastAuditId, ok, raw, refusal, snapshot, type AuditRow } from './staff-fixtures';

const PIN = '583920';
const NEW_PIN = '694031';
const SHARED = 'This PIN belongs to more than one person since the tills met: a manager must give one of them a new PIN.';
const SIGNED_OUT = /^You were signed out\. The PIN you signed in with belongs to more than one person/;
const [PEER, SELF] = ['b'.repeat(64), 'f'.repeat(64)];
const SECRET = Buffer.alloc(32, 0x5c).toString('base64');
const NIA = 'stf_nia';
const COLE = 'stf_cole';

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.shutdown();
});

type Role = 'cashier' | 'manager' | 'owner';

/** Nia added here; Cole, with the same PIN (another salt), as another till's log brings him. */
function seedSharedPin(store: Store, roles: { nia: Role; cole: Role } = { nia: 'manager', cole: 'cashier' }): void {
  const clock = new ManualClock(1_800_000_000_000);
  store.staff.insert({ id: NIA, name: 'Nia Manager', role: roles.nia, pin_hash: hashManagerPin(PIN), active: true, provisioned: false }, clock.now());
  const peer = openStore(join(mkdtempSync(join(tmpdir(), 'pos-peer-')), 'terminal.db'), { clock, storeMode: true });
  try {
    peer.staff.replicateTo({ tillId: PEER, append: (entry) => peer.log.append(entry) }, clock.now());
    peer.staff.insert({ id: COLE, name: 'Cole Cashier', role: roles.cole, pin_hash: hashManagerPin(PIN), active: true, provisioned: false }, clock.now());
    store.replicas.apply(PEER, peer.log.logId(), peer.log.read(0, 100), clock.now(), SELF);
  } finally {
    peer.close();
  }
}

async function till(mode: 'on' | 'off', signIn: 'owner' | 'cashier' = 'owner', seed: (store: Store) => void = seedSharedPin): Promise<TestCore> {
  const [port] = await freePorts(1);
  const storeMode = mode === 'on' ? { storeMode: { mode: 'on' as const, listen: `127.0.0.1:${port}`, peers: '', tillName: 'Front', secret: SECRET } } : {};
  const t = await startTestCore(storeMode, {}, seed, { signIn });
  cores.push(t.core);
  return t;
}

const actions = (rows: AuditRow[]) => rows.map((row) => row.action);
const signedInId = async (t: TestCore) => (await ok(t.core, 'staff.session', {})).signedIn?.id ?? null;

/**
 * Waits until every PIN check queued so far has run: the scrypt thread hashes one at a time, in
 * order, and a wrong PIN is checked against every hash (one wrong PIN: far from the lockout).
 */
async function scryptDrained(t: TestCore): Promise<void> {
  expect(refusal(await raw(t.core, 'staff.signIn', { pin: '13579246' })).message).toBe('That PIN is not right.');
}

describe('a PIN two people share (store mode)', () => {
  it('an approval with it is refused, audited with both ids, and approves nothing', async () => {
    const t = await till('on', 'cashier');
    const from = lastAuditId(t.dataDir);
    const before = snapshot(t.dataDir);

    const opened = refusal(await raw(t.core, 'printing.openDrawer', { reason: 'change for the float', managerPin: PIN }));
    expect(opened).toMatchObject({ code: 'needs_manager', message: `${SHARED} Nothing was approved.`, issues: [{ path: 'managerPin' }] });
    // Remembered: asked again (the command's own check, then the dialog's), refused again.
    expect(refusal(await raw(t.core, 'staff.checkApproval', { permission: 'drawer.open', managerPin: PIN })).message).toBe(`${SHARED} Nothing was approved.`);
    expect(refusal(await raw(t.core, 'printing.openDrawer', { reason: 'again', managerPin: PIN })).code).toBe('needs_manager');

    expect(snapshot(t.dataDir)).toEqual(before);
    const audit = auditSince(t.dataDir, from);
    expect(actions(audit)).not.toContain('drawer.open');
    expect(actions(audit)).not.toContain('permission.approved');
    const shared = audit.filter((row) => row.action === 'staff.pin-shared');
    expect(shared).toHaveLength(1);
    expect(shared[0]!.detail).toEqual({ staffIds: expect.arrayContaining([NIA, COLE]), kind: 'approval' });
    expect(audit.filter((row) => row.action === 'permission.refused').map((row) => row.detail.approver)).toEqual(['shared', 'shared', 'shared']);
    expect(JSON.stringify(audit)).not.toContain(PIN);
    // The cashier at the till shares no PIN: still signed in.
    expect(await signedInId(t)).not.toBeNull();
  });

  it('a sign-in gets through once; found shared after answering, its next command signs it out and the PIN is refused until one of them gets a new PIN', async () => {
    const t = await till('on');
    const from = lastAuditId(t.dataDir);

    const first = await ok(t.core, 'staff.signIn', { pin: PIN });
    expect([NIA, COLE]).toContain(first.signedIn?.id);
    await expect.poll(() => actions(auditSince(t.dataDir, from)), { timeout: 15_000, interval: 50 }).toContain('staff.pin-shared');
    const found = auditSince(t.dataDir, from).find((row) => row.action === 'staff.pin-shared')!;
    expect(found).toMatchObject({ actor: 'system', detail: { staffIds: expect.arrayContaining([NIA, COLE]), kind: 'sign_in' } });

    // Its next command: refused, signed out.
    const next = refusal(await raw(t.core, 'orders.list', {}));
    expect(next.code).toBe('needs_sign_in');
    expect(next.message).toMatch(SIGNED_OUT);
    expect(await raw(t.core, 'staff.session', {})).toMatchObject({ ok: true, value: { signedIn: null } });
    expect(auditSince(t.dataDir, from).find((row) => row.action === 'staff.signed_out')).toMatchObject({ actor: first.signedIn!.id, detail: { reason: 'pin_shared' } });

    // From then on refused, one after another and all at once; no one gets signed in.
    for (let i = 0; i < 3; i++) expect(refusal(await raw(t.core, 'staff.signIn', { pin: PIN }))).toMatchObject({ code: 'needs_sign_in', message: SHARED });
    const parallel = await Promise.all(Array.from({ length: 6 }, () => raw(t.core, 'staff.signIn', { pin: PIN })));
    for (const response of parallel) expect(refusal(response).message).toBe(SHARED);
    expect(await signedInId(t)).toBeNull();
    // Nor does it approve: a cashier signed in gives it as a manager's PIN.
    await as(t.core, 'cashier');
    expect(refusal(await raw(t.core, 'staff.checkApproval', { permission: 'drawer.open', managerPin: PIN })).message).toBe(`${SHARED} Nothing was approved.`);
    expect(await signedInId(t)).not.toBeNull();

    // A new PIN for Cole: Nia's PIN is hers alone again, and Cole signs in with his new one.
    await as(t.core, 'owner');
    await ok(t.core, 'staff.update', { id: COLE, pin: NEW_PIN });
    const changed = lastAuditId(t.dataDir);
    expect((await ok(t.core, 'staff.signIn', { pin: PIN })).signedIn?.id).toBe(NIA);
    expect((await ok(t.core, 'staff.signIn', { pin: NEW_PIN })).signedIn?.id).toBe(COLE);
    await scryptDrained(t);
    expect(actions(auditSince(t.dataDir, changed))).not.toContain('staff.pin-shared');
    expect(await signedInId(t)).toBe(COLE);
    expect((await raw(t.core, 'orders.list', {})).ok).toBe(true);
    expect((await ok(t.core, 'staff.checkApproval', { permission: 'drawer.open', managerPin: PIN })).approvedBy.id).toBe(NIA);
    expect(JSON.stringify(auditSince(t.dataDir, from))).not.toContain(PIN);
  });

  it('sign-ins sent at once before the check has ended: none holds once it has, and none gets through after', async () => {
    const t = await till('on');
    const from = lastAuditId(t.dataDir);
    // Hashed side by side before the check of the others has run: each may get through, as the same person.
    const burst = await Promise.all(Array.from({ length: 4 }, () => raw(t.core, 'staff.signIn', { pin: PIN })));
    expect(burst.some((response) => response.ok)).toBe(true);
    for (const response of burst.filter((r) => !r.ok)) expect(refusal(response).message).toBe(SHARED);
    await expect.poll(() => actions(auditSince(t.dataDir, from)), { timeout: 15_000, interval: 50 }).toContain('staff.pin-shared');
    expect(actions(auditSince(t.dataDir, from)).filter((action) => action === 'staff.pin-shared')).toHaveLength(1);
    expect(refusal(await raw(t.core, 'shift.current', {})).message).toMatch(SIGNED_OUT);
    const after = await Promise.all(Array.from({ length: 4 }, () => raw(t.core, 'staff.signIn', { pin: PIN })));
    for (const response of after) expect(refusal(response).message).toBe(SHARED);
    expect(await signedInId(t)).toBeNull();
  });

  it('the staff list marks both once the PIN is found shared, and neither once one of them has a new PIN', async () => {
    const t = await till('on');
    const marked = async () => (await ok(t.core, 'staff.list', {})).filter((m) => m.pinShared).map((m) => m.id).sort();
    expect(await marked()).toEqual([]);
    const from = lastAuditId(t.dataDir);

    await ok(t.core, 'staff.signIn', { pin: PIN });
    await expect.poll(() => actions(auditSince(t.dataDir, from)), { timeout: 15_000, interval: 50 }).toContain('staff.pin-shared');
    // Its next command signs that session out; then the owner is back.
    expect(refusal(await raw(t.core, 'staff.session', {})).message).toMatch(SIGNED_OUT);
    await as(t.core, 'owner');
    const listed = await ok(t.core, 'staff.list', {});
    expect(listed.filter((m) => m.pinShared).map((m) => m.id).sort()).toEqual([COLE, NIA]);
    // Everyone else carries no mark, and no row carries a PIN or its hash.
    for (const member of listed.filter((m) => m.id !== NIA && m.id !== COLE)) expect(member.pinShared).toBeUndefined();
    expect(JSON.stringify(listed)).not.toContain(PIN);
    expect(JSON.stringify(listed)).not.toContain('scrypt:');

    await ok(t.core, 'staff.update', { id: COLE, pin: NEW_PIN });
    expect(await marked()).toEqual([]);
  });

  it('two owners with one PIN: the owner’s lift of a lockout signs one in, found shared after, and then lifts nothing', async () => {
    const t = await till('on', 'cashier', (store) => seedSharedPin(store, { nia: 'owner', cole: 'owner' }));
    const lockOut = async () => {
      for (let i = 0; i < 5; i++) await raw(t.core, 'staff.signIn', { pin: `1357924${i}` });
      expect((await ok(t.core, 'staff.session', {})).lockedOutForMs).not.toBeNull();
    };
    await lockOut();
    const from = lastAuditId(t.dataDir);
    expect([NIA, COLE]).toContain((await ok(t.core, 'staff.liftLockout', { pin: PIN })).signedIn?.id);
    await expect.poll(() => actions(auditSince(t.dataDir, from)), { timeout: 15_000, interval: 50 }).toContain('staff.pin-shared');
    expect(refusal(await raw(t.core, 'staff.session', {})).message).toMatch(SIGNED_OUT);
    await lockOut();
    expect(refusal(await raw(t.core, 'staff.liftLockout', { pin: PIN }))).toMatchObject({ code: 'needs_sign_in', message: SHARED });
    expect((await ok(t.core, 'staff.session', {})).lockedOutForMs).not.toBeNull();
  });
});

describe('a PIN two people share, store mode off', () => {
  it('signs in the first found and approves as Nia, as before: no check after answering, no sign-out', async () => {
    const t = await till('off');
    const from = lastAuditId(t.dataDir);
    const first = await ok(t.core, 'staff.signIn', { pin: PIN });
    expect([NIA, COLE]).toContain(first.signedIn?.id);
    await scryptDrained(t);
    expect((await raw(t.core, 'orders.list', {})).ok).toBe(true);
    expect((await ok(t.core, 'staff.signIn', { pin: PIN })).signedIn?.id).toBe(first.signedIn?.id);
    await as(t.core, 'cashier');
    // Only Nia of the two may approve: her PIN approves, as it did.
    expect((await ok(t.core, 'staff.checkApproval', { permission: 'drawer.open', managerPin: PIN })).approvedBy.id).toBe(NIA);
    expect(actions(auditSince(t.dataDir, from))).not.toContain('staff.pin-shared');
  });
});
