// A check given to another server (issue 25, item 3), through the bridge on a real core: one's own
// check needs no approval; someone else's needs a manager (refused and changing nothing without);
// the new server owns it on the floor and in Orders from then on; the audit names both; someone no
// longer on the staff cannot be given one. The roster offers active staff by name only.
import { afterEach, describe, expect, it } from 'vitest';
import { ITEMS, signIn, STAFF, startTestCore, type TestCore } from './fixtures';
import { auditSince, lastAuditId, readDb, refusal, STAFF_ID } from './staff-fixtures';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.core.shutdown();
  t = undefined;
});

const owners = (c: TestCore) => readDb(c.dataDir, (db) => db.prepare("SELECT entity_id, staff_id FROM attributions WHERE entity_kind = 'order'").all());

describe('giving a check to another server', () => {
  it('gives one’s own check away at once, and someone else’s only with a manager’s approval; the floor and Orders follow', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'cashier', openShift: false });
    const floor = await t.call('tables.floor', {});
    expect(floor.tables).toEqual([]);
    const mine = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: { type: 'dine_in', table: '12', guests: 2 } });
    const from = lastAuditId(t.dataDir);
    const given = await t.call('orders.transfer', { id: mine.id, toStaffId: STAFF_ID.cashier2 });
    expect(given.staff).toEqual({ id: STAFF_ID.cashier2, name: STAFF.cashier2.name });
    expect(auditSince(t.dataDir, from)).toContainEqual(
      expect.objectContaining({ action: 'order.transfer', actor: STAFF_ID.cashier, entity_id: mine.id, detail: { from: STAFF_ID.cashier, to: STAFF_ID.cashier2 } }),
    );

    // Now Carl's: Cass cannot take it back alone.
    const before = owners(t);
    expect(refusal(await t.raw('orders.transfer', { id: mine.id, toStaffId: STAFF_ID.cashier }))).toMatchObject({ code: 'needs_manager' });
    expect(refusal(await t.raw('orders.transfer', { id: mine.id, toStaffId: STAFF_ID.cashier, managerPin: STAFF.cashier2.pin }))).toMatchObject({ code: 'needs_manager' });
    expect(owners(t)).toEqual(before);
    const back = await t.call('orders.transfer', { id: mine.id, toStaffId: STAFF_ID.cashier, managerPin: STAFF.manager.pin });
    expect(back.staff?.id).toBe(STAFF_ID.cashier);
    expect((await t.call('orders.list', { search: '12' }))[0]?.staff?.id).toBe(STAFF_ID.cashier);
    // Orders finds a server's checks by the start of a name of theirs.
    const carls = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await t.call('orders.transfer', { id: carls.id, toStaffId: STAFF_ID.cashier2 });
    expect((await t.call('orders.list', { search: 'carl' })).map((o) => o.id)).toEqual([carls.id]);
    expect((await t.call('orders.list', { search: 'cass' })).map((o) => o.id)).toEqual([mine.id]);
  });

  it('refuses someone no longer on the staff, and a closed check; the roster lists active staff by name', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'owner', openShift: true });
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const gone = await t.call('staff.create', { name: 'Dana Gone', role: 'cashier', pin: '73019462' });
    await t.call('staff.update', { id: gone.id, active: false });
    expect(refusal(await t.raw('orders.transfer', { id: order.id, toStaffId: gone.id }))).toMatchObject({ code: 'invalid_command', issues: [{ path: 'toStaffId' }] });
    expect(refusal(await t.raw('orders.transfer', { id: order.id, toStaffId: 'stf_nobody' }))).toMatchObject({ code: 'invalid_command', issues: [{ path: 'toStaffId' }] });
    expect((await t.call('staff.roster', {})).map((m) => m.name)).toEqual([STAFF.cashier2.name, STAFF.cashier.name, STAFF.manager.name, STAFF.owner.name]);
    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    await t.call('orders.fulfil', { id: order.id });
    expect(refusal(await t.raw('orders.transfer', { id: order.id, toStaffId: STAFF_ID.cashier }))).toMatchObject({ code: 'conflict' });
    await signIn(t.core, 'cashier');
    expect((await t.call('staff.roster', {})).every((m) => Object.keys(m).sort().join() === 'id,name')).toBe(true);
  });
});
