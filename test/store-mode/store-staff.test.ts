// Staff are the store's, across real processes: two tills (a real core each, its own SQLite file,
// store mode on, pulling each other over mutual TLS on 127.0.0.1). A cashier added on Bar signs in on
// Patio with Patio's own PIN checks; a role changed on Patio shows on Bar; a PIN changed on Bar no
// longer lets the old one in on Patio; deactivated on Bar, refused on both. No PIN is in either log.
import { afterEach, describe, expect, it } from 'vitest';
import { seedDataDir, STAFF } from '../core/fixtures';
import type { TillProcess } from './till-process';
import { freePorts } from './fixtures/ports';
import { answer, call, count, startStoreTill, waitForPeers, type TillSpec } from './fixtures/store-tills';

const started: TillProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((till) => till.kill()));
});

const PIN = '583920';
const NEW_PIN = '694031';

interface Member {
  id: string;
  name: string;
  role: string;
  active: boolean;
}

const members = (till: TillProcess) => call<Member[]>(till, 'staff.list');
/** Waits until `till` has the member as `expected` says (the owner signed in there reads the list). */
async function waitForMember(till: TillProcess, id: string, expected: Partial<Member>): Promise<void> {
  await expect.poll(async () => (await members(till)).find((m) => m.id === id), { timeout: 15_000, interval: 50 }).toMatchObject(expected);
}

describe("store mode: staff are the store's", () => {
  it('a cashier added on one till signs in on the other; a role changed there shows here; a changed PIN and a deactivation hold on both', async () => {
    const ports = await freePorts(2);
    const specs: TillSpec[] = [
      { name: 'Bar', letter: 'B', dataDir: seedDataDir(), port: ports[0]! },
      { name: 'Patio', letter: 'P', dataDir: seedDataDir(), port: ports[1]! },
    ];
    const [bar, patio] = (await Promise.all(specs.map((spec) => startStoreTill(spec, specs, started)))) as [TillProcess, TillProcess];
    await Promise.all([waitForPeers(bar, 1), waitForPeers(patio, 1)]);

    // Added on Bar (its owner signed in); signs in on Patio once Patio has Bar's entry (Patio's own PIN check).
    const nia = await call<Member>(bar, 'staff.create', { name: 'Nia New', role: 'cashier', pin: PIN });
    await waitForMember(patio, nia.id, { name: 'Nia New', role: 'cashier', active: true });
    expect((await call<{ signedIn: Member | null }>(patio, 'staff.signIn', { pin: PIN })).signedIn).toMatchObject({ id: nia.id, role: 'cashier' });

    // Made a manager on Patio by the owner (the same person on both: provisioned): shows on Bar.
    await call(patio, 'staff.signIn', { pin: STAFF.owner.pin });
    await call(patio, 'staff.update', { id: nia.id, role: 'manager' });
    await waitForMember(bar, nia.id, { role: 'manager' });

    // She signs in on Patio again (Patio learns her PIN: the role change made it forget), then the owner.
    expect((await call<{ signedIn: Member | null }>(patio, 'staff.signIn', { pin: PIN })).signedIn).toMatchObject({ id: nia.id, role: 'manager' });
    await call(patio, 'staff.signIn', { pin: STAFF.owner.pin });

    // A new PIN on Bar: the old one, which Patio learned when she signed in there, no longer works on Patio.
    await call(bar, 'staff.update', { id: nia.id, pin: NEW_PIN });
    await expect.poll(() => count(specs[1]!.dataDir, "SELECT COUNT(*) FROM store_replica_log WHERE json_extract(CAST(body AS TEXT), '$.op') = 'staff'"), { timeout: 15_000, interval: 50 }).toBe(2);
    expect((await answer(patio, 'staff.signIn', { pin: PIN })).error?.code).toBe('needs_sign_in');
    expect((await call<{ signedIn: Member | null }>(patio, 'staff.signIn', { pin: NEW_PIN })).signedIn?.id).toBe(nia.id);

    // Deactivated on Bar: refused on Bar, and on Patio once it has the entry.
    await call(patio, 'staff.signIn', { pin: STAFF.owner.pin });
    await call(bar, 'staff.update', { id: nia.id, active: false });
    await waitForMember(patio, nia.id, { active: false });
    for (const till of [bar, patio]) expect((await answer(till, 'staff.signIn', { pin: NEW_PIN })).error?.code).toBe('needs_sign_in');

    await Promise.all([bar.stop(), patio.stop()]);
    // Each write one entry in the log of the till that made it: 3 on Bar (create, PIN, deactivation), 1 on Patio (role).
    const staffEntries = "SELECT COUNT(*) FROM store_log WHERE entity_kind = 'staff'";
    expect([count(specs[0]!.dataDir, staffEntries), count(specs[1]!.dataDir, staffEntries)]).toEqual([3, 1]);
    for (const spec of specs) {
      expect(count(spec.dataDir, "SELECT COUNT(*) FROM store_log WHERE entity_kind = 'staff' AND json_extract(CAST(body AS TEXT), '$.staff.pin_hash') IS NULL")).toBe(0);
      expect(count(spec.dataDir, "SELECT COUNT(*) FROM store_log WHERE instr(CAST(body AS TEXT), ?) > 0 OR instr(CAST(body AS TEXT), ?) > 0", PIN, NEW_PIN)).toBe(0);
    }
  });
});
