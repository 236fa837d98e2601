// A PIN two people share (docs/staff.md, "A PIN two people share"), on a real core with real store
// files: Nia (a manager added on this till) and Cole (a cashier received from another till's log,
// applied as a peer's page) were given the same PIN before the tills met. In store mode an approval
// with it is refused and approves nothing; a sign-in with it gets through once, the check of the
// other staff after answering finds Cole, the session is signed out at its next command, and the
// PIN is refused from then on (repeated or in parallel) until one of them gets a new PIN; meanwhile
// the staff list marks both (`pinShared`). With store mode off nothing changes.
import { createHash, createHmac } from 'node:crypto';
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
import { as, auditSince, lastAuditId, ok, raw, readDb, refusal, snapshot, STAFF_ID, startCoreOn, type AuditRow } from './staff-fixtures';

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

async function storeModeOn(): Promise<{ storeMode: { mode: 'on'; listen: string; peers: string; tillName: string; secret: string } }> {
  const [port] = await freePorts(1);
  return { storeMode: { mode: 'on' as const, listen: `127.0.0.1:${port}`, peers: '', tillName: 'Front', secret: SECRET } };
}

async function till(mode: 'on' | 'off', signIn: 'owner' | 'cashier' = 'owner', seed: (store: Store) => void = seedSharedPin): Promise<TestCore> {
  const storeMode = mode === 'on' ? await storeModeOn() : {};
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
    // Everything but the record of who shares the PIN (store/shared-pins.ts), which the refusal writes.
    const unchanged = () => {
      const { staff_shared_pins: _recorded, ...rest } = snapshot(t.dataDir);
      return rest;
    };
    const before = unchanged();

    const opened = refusal(await raw(t.core, 'printing.openDrawer', { reason: 'change for the float', managerPin: PIN }));
    expect(opened).toMatchObject({ code: 'needs_manager', message: `${SHARED} Nothing was approved.`, issues: [{ path: 'managerPin' }] });
    // Remembered: asked again (the command's own check, then the dialog's), refused again.
    expect(refusal(await raw(t.core, 'staff.checkApproval', { permission: 'drawer.open', managerPin: PIN })).message).toBe(`${SHARED} Nothing was approved.`);
    expect(refusal(await raw(t.core, 'printing.openDrawer', { reason: 'again', managerPin: PIN })).code).toBe('needs_manager');

    expect(unchanged()).toEqual(before);
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

describe('a PIN two people share, after a restart (store mode)', () => {
  /** The core closed and started again on the same data folder (store mode on): nothing of the last launch's memory is left. */
  async function restart(t: TestCore): Promise<Core> {
    await t.core.shutdown();
    cores.splice(cores.indexOf(t.core), 1);
    const again = await startCoreOn(t.dataDir, await storeModeOn());
    cores.push(again);
    return again;
  }

  /** Finds the PIN shared the way a till first does: a sign-in with it, the check of the others after answering. */
  async function findShared(t: TestCore): Promise<void> {
    const from = lastAuditId(t.dataDir);
    await ok(t.core, 'staff.signIn', { pin: PIN });
    await expect.poll(() => actions(auditSince(t.dataDir, from)), { timeout: 15_000, interval: 50 }).toContain('staff.pin-shared');
  }

  const marked = async (core: Core) => (await ok(core, 'staff.list', {})).filter((m) => m.pinShared).map((m) => m.id).sort();
  const sessionOf = async (core: Core) => (await ok(core, 'staff.session', {})).signedIn?.id ?? null;

  it('is still refused at sign-in and at approval, and both are still marked, until one of them gets a new PIN', async () => {
    const t = await till('on');
    await findShared(t);
    const core = await restart(t);
    const from = lastAuditId(t.dataDir);
    const lastCheck = readDb(t.dataDir, (db) => db.prepare('SELECT COALESCE(MAX(seq), 0) FROM pin_attempts').pluck().get() as number);

    // Sign-in: refused, one at a time and all at once; no one is signed in.
    expect(refusal(await raw(core, 'staff.signIn', { pin: PIN }))).toMatchObject({ code: 'needs_sign_in', message: SHARED });
    const parallel = await Promise.all(Array.from({ length: 4 }, () => raw(core, 'staff.signIn', { pin: PIN })));
    for (const response of parallel) expect(refusal(response).message).toBe(SHARED);
    expect(refusal(await raw(core, 'staff.signIn', { pin: PIN })).message).toBe(SHARED);
    expect(await sessionOf(core)).toBeNull();
    // Approval: refused, approving nothing; the cashier who gave it stays signed in.
    await as(core, 'cashier');
    expect(refusal(await raw(core, 'staff.checkApproval', { permission: 'drawer.open', managerPin: PIN })).message).toBe(`${SHARED} Nothing was approved.`);
    expect(refusal(await raw(core, 'printing.openDrawer', { reason: 'change', managerPin: PIN }))).toMatchObject({ code: 'needs_manager', message: `${SHARED} Nothing was approved.` });
    expect(await sessionOf(core)).toBe(STAFF_ID.cashier);

    const audit = auditSince(t.dataDir, from);
    expect(audit.filter((row) => row.action === 'staff.pin_refused').map((row) => row.detail)).toEqual(Array.from({ length: 6 }, () => ({ reason: 'pin_shared', kind: 'sign_in' })));
    expect(audit.filter((row) => row.action === 'permission.refused').map((row) => row.detail.approver)).toEqual(['shared', 'shared']);
    // Known from before the restart: nothing new found, so no second `staff.pin-shared`.
    expect(actions(audit)).not.toContain('staff.pin-shared');
    expect(actions(audit)).not.toContain('drawer.open');
    expect(actions(audit)).not.toContain('permission.approved');
    expect(JSON.stringify(audit)).not.toContain(PIN);
    // Each refusal was a PIN check on the till's budget, settled as someone's.
    const checks = readDb(t.dataDir, (db) => db.prepare('SELECT kind, outcome, COUNT(*) AS n FROM pin_attempts WHERE seq > ? GROUP BY kind, outcome ORDER BY kind, outcome').all(lastCheck));
    expect(checks).toEqual([
      { kind: 'approval', outcome: 'neutral', n: 2 },
      { kind: 'sign_in', outcome: 'neutral', n: 6 },
      { kind: 'sign_in', outcome: 'right', n: 1 },
    ]);

    await as(core, 'owner');
    expect(await marked(core)).toEqual([COLE, NIA]);

    // A new PIN for Cole: the old one is Nia's alone again, after the restart as before it.
    await ok(core, 'staff.update', { id: COLE, pin: NEW_PIN });
    expect(await marked(core)).toEqual([]);
    const changed = lastAuditId(t.dataDir);
    expect((await ok(core, 'staff.signIn', { pin: PIN })).signedIn?.id).toBe(NIA);
    await scryptDrained({ ...t, core });
    expect((await raw(core, 'orders.list', {})).ok).toBe(true);
    expect(actions(auditSince(t.dataDir, changed))).not.toContain('staff.pin-shared');
    expect(readDb(t.dataDir, (db) => db.prepare('SELECT COUNT(*) FROM staff_shared_pins').pluck().get())).toBe(0);
  });

  it('ends when one of them is deactivated, and is refused again when they are brought back with the same PIN', async () => {
    const t = await till('on', 'cashier');
    // Found by an approval this time.
    expect(refusal(await raw(t.core, 'staff.checkApproval', { permission: 'drawer.open', managerPin: PIN })).message).toBe(`${SHARED} Nothing was approved.`);
    const core = await restart(t);
    expect(refusal(await raw(core, 'staff.signIn', { pin: PIN })).message).toBe(SHARED);

    await as(core, 'owner');
    expect(await marked(core)).toEqual([COLE, NIA]);
    await ok(core, 'staff.update', { id: COLE, active: false });
    expect(await marked(core)).toEqual([]);
    expect((await ok(core, 'staff.signIn', { pin: PIN })).signedIn?.id).toBe(NIA);
    await scryptDrained({ ...t, core });
    expect((await raw(core, 'orders.list', {})).ok).toBe(true);

    // Cole back with the PIN he had: it is two active people's again, after another restart too.
    await as(core, 'owner');
    await ok(core, 'staff.update', { id: COLE, active: true });
    expect(await marked(core)).toEqual([COLE, NIA]);
    const third = await restart({ ...t, core });
    expect(refusal(await raw(third, 'staff.signIn', { pin: PIN })).message).toBe(SHARED);
    expect(await sessionOf(third)).toBeNull();
  });

  it('stores no PIN and nothing a PIN can be tried against: member ids, a group, and a reference to each one’s salted hash', async () => {
    const t = await till('on');
    await findShared(t);
    const { columns, rows, hashes } = readDb(t.dataDir, (db) => ({
      columns: (db.prepare('PRAGMA table_info(staff_shared_pins)').all() as { name: string }[]).map((c) => c.name),
      rows: db.prepare('SELECT * FROM staff_shared_pins ORDER BY staff_id').all() as Record<string, unknown>[],
      hashes: new Map(db.prepare('SELECT id, pin_hash FROM staff').all().map((r) => [(r as { id: string }).id, (r as { pin_hash: string }).pin_hash])),
    }));
    expect(columns).toEqual(['staff_id', 'group_id', 'hash_ref', 'found_at']);
    expect(rows.map((r) => r.staff_id)).toEqual([COLE, NIA].sort());
    expect(new Set(rows.map((r) => r.group_id)).size).toBe(1);
    // The one PIN gives two different references (each one's own salt): no value is a function of the PIN alone.
    expect(rows[0]!.hash_ref).not.toBe(rows[1]!.hash_ref);
    for (const row of rows) expect(row.hash_ref).toBe(createHash('sha256').update(hashes.get(row.staff_id as string)!).digest('base64url'));
    // Neither the PIN nor a plain digest of it, in any column, in any usual encoding; nor the hash itself.
    const digests = ['sha256', 'sha1', 'sha512', 'md5'].flatMap((algorithm) => {
      const digest = createHash(algorithm).update(PIN).digest();
      return [digest.toString('hex'), digest.toString('base64'), digest.toString('base64url')];
    });
    digests.push(createHmac('sha256', '').update(PIN).digest('base64'));
    for (const value of rows.flatMap((row) => Object.values(row)).map(String)) {
      expect(value).not.toContain(PIN);
      expect(value).not.toContain('scrypt:');
      for (const digest of digests) expect(value).not.toContain(digest);
    }
  });
});
