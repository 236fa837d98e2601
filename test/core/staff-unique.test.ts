// One active person per name and per PIN (issue 24, item 14), through the bridge on a real core:
// "Maria Lopez" and "maria lopez" are one person (names are compared as the configuration compares
// them: without case, spaces or punctuation), and two active staff never share a PIN, whether it
// is given on create, on a change, or kept by someone brought back (staff.update { active: true }).
// Each refusal is said at its field ('name' or 'pin') and changes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../main/core/index';
import { STAFF, startTestCore, type TestCore } from './fixtures';
import { ok, raw, readDb, refusal } from './staff-fixtures';

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.shutdown();
});
async function ownerCore(): Promise<TestCore> {
  const t = await startTestCore({}, {}, undefined, { signIn: 'owner', openShift: false });
  cores.push(t.core);
  return t;
}
const staffRows = (t: TestCore) => readDb(t.dataDir, (db) => db.prepare('SELECT * FROM staff ORDER BY id').all());

describe('one active person per name', () => {
  it('refuses a new member named as an active one, ignoring case, spaces and punctuation, at the name field', async () => {
    const t = await ownerCore();
    await ok(t.core, 'staff.create', { name: 'Maria Lopez', role: 'cashier', pin: '73019462' });
    const before = staffRows(t);
    for (const name of ['maria lopez', 'MARIA  LOPEZ', 'Maria-Lopez.', STAFF.owner.name.toUpperCase()]) {
      const error = refusal(await raw(t.core, 'staff.create', { name, role: 'cashier', pin: '58203917' }));
      expect(error, name).toMatchObject({ code: 'conflict', issues: [{ path: 'name', message: expect.stringMatching(/already/) }] });
    }
    expect(staffRows(t)).toEqual(before);
  });

  it('refuses renaming someone to an active member’s name, and bringing back someone whose name is now taken', async () => {
    const t = await ownerCore();
    const dana = await ok(t.core, 'staff.create', { name: 'Dana Long', role: 'cashier', pin: '73019462' });
    expect(refusal(await raw(t.core, 'staff.update', { id: dana.id, name: ` ${STAFF.manager.name.toLowerCase()} ` }))).toMatchObject({
      code: 'conflict',
      issues: [{ path: 'name' }],
    });
    // Renaming oneself to one's own name in other letters is no clash.
    expect((await ok(t.core, 'staff.update', { id: dana.id, name: 'DANA LONG' })).name).toBe('DANA LONG');

    await ok(t.core, 'staff.update', { id: dana.id, active: false });
    // While Dana is away, a new Dana Long is hired: the name is free then.
    await ok(t.core, 'staff.create', { name: 'dana long', role: 'cashier', pin: '58203917' });
    const before = staffRows(t);
    expect(refusal(await raw(t.core, 'staff.update', { id: dana.id, active: true }))).toMatchObject({ code: 'conflict', issues: [{ path: 'name' }] });
    expect(staffRows(t)).toEqual(before);
    // Brought back under another name, they are welcome.
    expect(await ok(t.core, 'staff.update', { id: dana.id, active: true, name: 'Dana Long Sr' })).toMatchObject({ active: true, name: 'Dana Long Sr' });
  });
});

describe('one active person per PIN', () => {
  it('refuses bringing back someone whose PIN was given to another while they were away, until they get a new one', async () => {
    const t = await ownerCore();
    const dana = await ok(t.core, 'staff.create', { name: 'Dana Long', role: 'cashier', pin: '73019462' });
    await ok(t.core, 'staff.update', { id: dana.id, active: false });
    const kim = await ok(t.core, 'staff.create', { name: 'Kim New', role: 'cashier', pin: '73019462' });

    const before = staffRows(t);
    const error = refusal(await raw(t.core, 'staff.update', { id: dana.id, active: true }));
    expect(error).toMatchObject({ code: 'conflict', issues: [{ path: 'pin', message: expect.stringMatching(/new PIN/) }] });
    expect(staffRows(t)).toEqual(before);
    // The PIN still signs in the one person who has it.
    expect((await ok(t.core, 'staff.signIn', { pin: '73019462' })).signedIn?.id).toBe(kim.id);

    await ok(t.core, 'staff.signIn', { pin: STAFF.owner.pin });
    // Back with the PIN someone has: refused as any PIN in use.
    expect(refusal(await raw(t.core, 'staff.update', { id: dana.id, active: true, pin: '73019462' }))).toMatchObject({ code: 'conflict', issues: [{ path: 'pin' }] });
    // Back with a new PIN of their own: each PIN signs in its own person.
    expect(await ok(t.core, 'staff.update', { id: dana.id, active: true, pin: '46281937' })).toMatchObject({ active: true });
    expect((await ok(t.core, 'staff.signIn', { pin: '46281937' })).signedIn?.id).toBe(dana.id);
    expect((await ok(t.core, 'staff.signIn', { pin: '73019462' })).signedIn?.id).toBe(kim.id);

    // Someone whose PIN no one took comes back with it.
    await ok(t.core, 'staff.signIn', { pin: STAFF.owner.pin });
    const lee = await ok(t.core, 'staff.create', { name: 'Lee Temp', role: 'cashier', pin: '39184726' });
    await ok(t.core, 'staff.update', { id: lee.id, active: false });
    await ok(t.core, 'staff.create', { name: 'Ana Next', role: 'cashier', pin: '82736491' });
    expect(await ok(t.core, 'staff.update', { id: lee.id, active: true })).toMatchObject({ active: true });
    expect((await ok(t.core, 'staff.signIn', { pin: '39184726' })).signedIn?.id).toBe(lee.id);
  });
});
