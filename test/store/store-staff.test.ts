// Store mode's staff on real SQLite files: each write of a shared member is one entry of the till's
// log holding its PIN hash (never the PIN); a peer keeps the newer write of each field of a member,
// ignores an older one, two writes in the same ms end as the same row on every till, whatever the
// order, and two tills changing different fields of one member both keep their change.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { hashManagerPin } from '../../main/config/manager-pin';
import { openStore, type StaffDoc, type Store } from '../../store';
import { LEGACY_MANAGER_ID, type StaffEntryBody } from '../../store/store-staff';
import { tempDbPath } from './helpers';

const T0 = 1_800_000_000_000;
const [TILL_A, TILL_B] = ['a'.repeat(64), 'b'.repeat(64)];
const PIN = '583920';
const PIN_HASH = hashManagerPin(PIN);

function till(tillId: string | null): { store: Store; clock: ManualClock } {
  const clock = new ManualClock(T0);
  const store = openStore(tempDbPath(), { clock, storeMode: true });
  if (tillId !== null) store.staff.replicateTo({ tillId, append: (entry) => store.log.append(entry) }, clock.now());
  return { store, clock };
}

const staffEntries = (store: Store) => store.log.read(0, 1_000).filter((entry) => JSON.parse(Buffer.from(entry.body).toString('utf8')).op === 'staff');
const bodyOf = (entry: { body: Uint8Array }) => JSON.parse(Buffer.from(entry.body).toString('utf8')) as StaffEntryBody;

/** Applies every entry `from`'s log holds (as a page pulled from it) on `to`. */
function pull(to: Store, from: Store, fromId: string, selfId: string): void {
  const page = from.log.read(0, 1_000);
  if (page.length > 0) to.replicas.apply(fromId, from.log.logId(), page, T0, selfId);
}

const nia = (): Omit<StaffDoc, 'created_at' | 'updated_at'> => ({ id: 'stf_nia', name: 'Nia', role: 'cashier', pin_hash: PIN_HASH, active: true, provisioned: false });
const row = (store: Store) => store.db.prepare("SELECT name, role, pin_hash, active, updated_at, written_by FROM staff WHERE id = 'stf_nia'").get();

describe("the store's staff", () => {
  it('logs one entry per write of a shared member, in its transaction, with the PIN hash and never the PIN', () => {
    const { store: a, clock } = till(TILL_A);
    a.staff.insert(nia(), clock.now());
    clock.advance(1_000);
    a.staff.update('stf_nia', { role: 'manager' }, clock.now());
    const entries = staffEntries(a);
    expect(entries.map((entry) => bodyOf(entry).staff.role)).toEqual(['cashier', 'manager']);
    expect(bodyOf(entries[1]!)).toEqual({
      op: 'staff',
      staff: {
        id: 'stf_nia', name: 'Nia', role: 'manager', pin_hash: PIN_HASH, active: true, created_at: T0, updated_at: T0 + 1_000,
        // Only the role was written at T0 + 1 s.
        field_times: { name: T0, role: T0 + 1_000, pin_hash: T0, active: T0 },
      },
      till: TILL_A,
    });
    for (const entry of entries) expect(Buffer.from(entry.body).toString('utf8')).not.toContain(PIN);

    // A write rolled back takes its entry with it.
    expect(() =>
      a.transaction(() => {
        a.staff.update('stf_nia', { active: false }, clock.now());
        throw new Error('abandoned');
      }),
    ).toThrow('abandoned');
    expect(staffEntries(a)).toHaveLength(2);
    expect(a.staff.get('stf_nia')?.active).toBe(true);

    // Members of this till's configuration, and its legacy manager, are not the store's.
    a.staff.syncProvisioned([{ id: 'stf_cfg_olive', name: 'Olive', role: 'owner', pin_hash: hashManagerPin('4826') }], clock.now());
    a.staff.insert({ ...nia(), id: LEGACY_MANAGER_ID, name: 'Manager', role: 'manager' }, clock.now());
    expect(staffEntries(a)).toHaveLength(2);
    a.close();
  });

  it('logs the members written before store mode ran when it starts, once', () => {
    const { store: a, clock } = till(null);
    a.staff.insert(nia(), clock.now());
    expect(staffEntries(a)).toHaveLength(0);
    a.staff.replicateTo({ tillId: TILL_A, append: (entry) => a.log.append(entry) }, clock.now());
    a.staff.replicateTo({ tillId: TILL_A, append: (entry) => a.log.append(entry) }, clock.now());
    expect(staffEntries(a).map((entry) => bodyOf(entry).staff.id)).toEqual(['stf_nia']);
    // Changed while the link was stopped: logged when it starts again.
    a.staff.replicateTo(null, clock.now());
    clock.advance(1_000);
    a.staff.update('stf_nia', { name: 'Nia B.' }, clock.now());
    expect(staffEntries(a)).toHaveLength(1);
    a.staff.replicateTo({ tillId: TILL_A, append: (entry) => a.log.append(entry) }, clock.now());
    expect(staffEntries(a).map((entry) => bodyOf(entry).staff.name)).toEqual(['Nia', 'Nia B.']);
    a.close();
  });

  it("creates a member from a peer's entry, takes a newer version, ignores an older one and a page applied twice", () => {
    const { store: a, clock } = till(TILL_A);
    const { store: b } = till(TILL_B);
    a.staff.insert(nia(), clock.now());
    pull(b, a, TILL_A, TILL_B);
    expect(b.staff.get('stf_nia')).toMatchObject({ name: 'Nia', role: 'cashier', pin_hash: PIN_HASH, active: true, provisioned: false });
    expect(b.staff.receivedFromPeers()).toBe(1);

    clock.advance(1_000);
    a.staff.update('stf_nia', { active: false }, clock.now());
    const [created, deactivated] = a.log.read(0, 10);
    b.replicas.apply(TILL_A, a.log.logId(), [deactivated!], T0, TILL_B);
    expect(b.staff.get('stf_nia')?.active).toBe(false);
    // The older version (the create, read again as if from a replaced log) never undoes the newer.
    b.replicas.apply(TILL_A, 'another-log', [{ ...created!, seq: 1 }], T0, TILL_B);
    pull(b, a, TILL_A, TILL_B);
    expect(b.staff.get('stf_nia')?.active).toBe(false);
    expect(b.staff.receivedFromPeers()).toBe(2);

    // A change made on B after it saw A's version wins, even with B's clock behind A's.
    b.staff.update('stf_nia', { active: true, role: 'manager' }, T0);
    pull(a, b, TILL_B, TILL_A);
    expect(a.staff.get('stf_nia')).toMatchObject({ active: true, role: 'manager' });
    expect(row(a)).toEqual(row(b));
    a.close();
    b.close();
  });

  it("never replaces a member of this till's configuration", () => {
    const { store: a, clock } = till(TILL_A);
    const { store: b } = till(TILL_B);
    b.staff.syncProvisioned([{ id: 'stf_nia', name: 'Nia', role: 'owner', pin_hash: PIN_HASH }], clock.now());
    clock.advance(1_000);
    a.staff.insert(nia(), clock.now());
    pull(b, a, TILL_A, TILL_B);
    expect(b.staff.get('stf_nia')).toMatchObject({ role: 'owner', provisioned: true });
    expect(b.staff.receivedFromPeers()).toBe(0);
    a.close();
    b.close();
  });

  it('ends two writes made in the same ms on the same row on every till, whatever order they are applied in', () => {
    const { store: a, clock } = till(TILL_A);
    const { store: b } = till(TILL_B);
    a.staff.insert(nia(), clock.now());
    pull(b, a, TILL_A, TILL_B);
    clock.advance(1_000);
    a.staff.update('stf_nia', { name: 'Nia from A' }, clock.now());
    b.staff.update('stf_nia', { name: 'Nia from B' }, clock.now());
    // C hears A first, D hears B first; A and B hear each other.
    const { store: c } = till('c'.repeat(64));
    const { store: d } = till('d'.repeat(64));
    pull(c, a, TILL_A, 'c');
    pull(c, b, TILL_B, 'c');
    pull(d, b, TILL_B, 'd');
    pull(d, a, TILL_A, 'd');
    pull(a, b, TILL_B, TILL_A);
    pull(b, a, TILL_A, TILL_B);
    const converged = { name: 'Nia from B', role: 'cashier', pin_hash: PIN_HASH, active: 1, updated_at: T0 + 1_000, written_by: TILL_B };
    for (const store of [a, b, c, d]) expect(row(store)).toEqual(converged);
    for (const store of [a, b, c, d]) store.close();
  });
  it('keeps both changes when two tills change different fields of one member meanwhile: a deactivation is not undone by a PIN change elsewhere', () => {
    const { store: a, clock } = till(TILL_A);
    const { store: b } = till(TILL_B);
    a.staff.insert(nia(), clock.now());
    pull(b, a, TILL_A, TILL_B);
    // The LAN is down: A deactivates Nia; a little later B gives her a new PIN and a new name.
    clock.advance(1_000);
    a.staff.update('stf_nia', { active: false }, clock.now());
    clock.advance(1_000);
    const newPin = hashManagerPin('740261');
    b.staff.update('stf_nia', { pin_hash: newPin, name: 'Nia R.' }, clock.now());
    // Healed, in either order, and a third till hearing B first.
    const { store: c } = till('c'.repeat(64));
    pull(c, b, TILL_B, 'c');
    pull(c, a, TILL_A, 'c');
    pull(a, b, TILL_B, TILL_A);
    pull(b, a, TILL_A, TILL_B);
    for (const store of [a, b, c]) {
      expect(store.staff.get('stf_nia')).toMatchObject({ name: 'Nia R.', pin_hash: newPin, active: false, updated_at: T0 + 2_000 });
    }
    // Applied again, nothing moves.
    const received = a.staff.receivedFromPeers();
    pull(a, b, TILL_B, TILL_A);
    expect(a.staff.receivedFromPeers()).toBe(received);
    for (const store of [a, b, c]) store.close();
  });

  it('takes an entry of a till of an older version (no field times) as all of its fields written at its updated_at', () => {
    const { store: a, clock } = till(TILL_A);
    a.staff.insert(nia(), clock.now());
    clock.advance(1_000);
    a.staff.update('stf_nia', { role: 'manager' }, clock.now());
    const older = { op: 'staff', staff: { id: 'stf_nia', name: 'Nia O.', role: 'cashier', pin_hash: PIN_HASH, active: true, created_at: T0, updated_at: T0 + 500 }, till: TILL_B };
    a.replicas.apply(TILL_B, 'log_old', [{ seq: 1, opId: 'stw_old', body: Buffer.from(JSON.stringify(older)) }], T0, TILL_A);
    // Its name (T0 + 500) is later than A's (T0); its role (T0 + 500) is older than A's (T0 + 1 s).
    expect(a.staff.get('stf_nia')).toMatchObject({ name: 'Nia O.', role: 'manager' });
    a.close();
  });
});
