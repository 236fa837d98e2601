// The tables room through the bridge on a real core (docs/tables.md): a manager lays out the floor,
// a cashier may not; each table's state follows its checks through a service (seated, check printed,
// paid, needs clearing, free); bad layouts are refused next to their field and change nothing.
import { afterEach, describe, expect, it } from 'vitest';
import type { FloorView, TableView } from '../../bridge/tables/contract';
import { FakePrinter } from '../printing/fake-printer';
import { ITEMS, signIn, startTestCore, type TestCore } from './fixtures';
import { readDb, refusal } from './staff-fixtures';

const running: { t: TestCore; printers: FakePrinter[] }[] = [];
afterEach(async () => {
  for (const { t, printers } of running.splice(0)) {
    await t.core.shutdown();
    for (const p of printers) await p.stop();
  }
});

async function floorCore(): Promise<{ t: TestCore; receipt: FakePrinter }> {
  const receipt = await FakePrinter.start();
  const t = await startTestCore({ printing: { receiptPrinter: receipt.url } });
  running.push({ t, printers: [receipt] });
  return { t, receipt };
}

/** Patio (tables P1, P2) and Main (12, 14), laid out by the owner. */
async function layOut(t: TestCore): Promise<FloorView> {
  let floor = await t.call('tables.saveSection', { name: 'Main' });
  floor = await t.call('tables.saveSection', { name: 'Patio' });
  const main = floor.sections.find((s) => s.name === 'Main')!.id;
  const patio = floor.sections.find((s) => s.name === 'Patio')!.id;
  await t.call('tables.saveTable', { sectionId: main, name: '12', seats: 8, shape: 'rect', x: 0, y: 0, width: 4, height: 2 });
  await t.call('tables.saveTable', { sectionId: main, name: '14', seats: 4, shape: 'square', x: 5, y: 0, width: 2, height: 2 });
  await t.call('tables.saveTable', { sectionId: patio, name: 'P1', seats: 2, shape: 'round', x: 0, y: 0, width: 2, height: 2 });
  return t.call('tables.saveTable', { sectionId: patio, name: 'P2', seats: 2, shape: 'round', x: 3, y: 0, width: 2, height: 2 });
}

const table = (floor: FloorView, name: string): TableView => floor.tables.find((t) => t.name === name)!;
const floorRows = (t: TestCore) => readDb(t.dataDir, (db) => [db.prepare('SELECT * FROM floor_sections').all(), db.prepare('SELECT * FROM floor_tables').all()]);

describe('the floor', () => {
  it('follows a table through a service: free, seated, check printed, seated again after a change, paid, needs clearing, free', async () => {
    const { t, receipt } = await floorCore();
    let floor = await layOut(t);
    expect(floor.sections.map((s) => s.name)).toEqual(['Main', 'Patio']);
    expect(floor.tables.map((x) => [x.name, x.state])).toEqual([
      ['12', 'free'],
      ['14', 'free'],
      ['P1', 'free'],
      ['P2', 'free'],
    ]);

    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }], service: { type: 'dine_in', table: '12', guests: 8 } });
    floor = await t.call('tables.floor', {});
    expect(table(floor, '12')).toMatchObject({ state: 'seated', guests: 8, seatedAt: order.createdAt, server: { name: expect.any(String) }, checks: [{ orderId: order.id, due: order.total }] });
    expect(table(floor, '14').state).toBe('free');

    floor = await t.call('tables.printBill', { id: table(floor, '12').id });
    expect(table(floor, '12').state).toBe('check_printed');
    await receipt.waitFor(() => /due/i.test(receipt.text()), 'the bill');
    expect(receipt.text()).not.toMatch(/COPY/);

    // A round added after the bill: the printed bill is out of date.
    const more = await t.call('orders.update', { id: order.id, lines: [{ menuItemId: ITEMS.burger, quantity: 2 }, { menuItemId: ITEMS.latte, quantity: 8 }] });
    expect(table(await t.call('tables.floor', {}), '12').state).toBe('seated');

    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: more.total });
    floor = await t.call('tables.floor', {});
    expect(table(floor, '12')).toMatchObject({ state: 'paid', checks: [{ due: 0 }] });

    await t.call('orders.fulfil', { id: order.id });
    floor = await t.call('tables.floor', {});
    expect(table(floor, '12')).toMatchObject({ state: 'needs_clearing', checks: [], closedAt: expect.any(String) });

    floor = await t.call('tables.clear', { id: table(floor, '12').id });
    expect(table(floor, '12').state).toBe('free');
  });

  it('reads "check printed" after a bill printed from anywhere (Orders too), and "paid" only when every check at the table is', async () => {
    const { t } = await floorCore();
    await layOut(t);
    const first = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: { type: 'dine_in', table: '14', guests: 2 } });
    const second = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], service: { type: 'dine_in', table: '14', guests: 1 } });
    expect(table(await t.call('tables.floor', {}), '14')).toMatchObject({ state: 'seated', guests: 3, checks: [{ orderId: first.id }, { orderId: second.id }] });
    await t.call('printing.reprint', { orderId: first.id });
    expect(table(await t.call('tables.floor', {}), '14').state).toBe('seated'); // the second check's bill is not out yet
    await t.call('printing.reprint', { orderId: second.id });
    expect(table(await t.call('tables.floor', {}), '14').state).toBe('check_printed');
    await t.call('payments.take', { orderId: first.id, method: 'cash', amount: first.total });
    expect(table(await t.call('tables.floor', {}), '14').state).toBe('check_printed');
    await t.call('payments.take', { orderId: second.id, method: 'cash', amount: second.total });
    expect(table(await t.call('tables.floor', {}), '14').state).toBe('paid');
  });

  it('finds a check in Orders by its table: "12", "T12", "table 12", "patio 4"; "1" is table 1, not 12', async () => {
    const { t } = await floorCore();
    await layOut(t);
    const twelve = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: { type: 'dine_in', table: '12', guests: 2 } });
    const patio = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], service: { type: 'dine_in', table: 'Patio 4', guests: 2 } });
    const ids = async (search: string) => (await t.call('orders.list', { search })).map((o) => o.id);
    for (const search of ['12', 'T12', 't 12', 'Table 12']) expect(await ids(search), search).toEqual([twelve.id]);
    expect(await ids('patio  4')).toEqual([patio.id]);
    expect(await ids('1')).not.toContain(twelve.id);
  });

  it('lists an open check whose table is not on the floor, so none is lost; matches tables by name whatever the case', async () => {
    const { t } = await floorCore();
    await layOut(t);
    await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], service: { type: 'dine_in', table: 'p1', guests: 2 } });
    const bar = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], service: { type: 'dine_in', table: 'Bar 3', guests: 1 } });
    await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], service: { type: 'takeout', table: null, guests: null } });
    const floor = await t.call('tables.floor', {});
    expect(table(floor, 'P1').state).toBe('seated');
    expect(floor.elsewhere).toEqual([expect.objectContaining({ orderId: bar.id, table: 'Bar 3' })]);
  });

  it('refuses a table on another, past the edge, in a missing section or with a name in use, next to its field, saving nothing', async () => {
    const { t } = await floorCore();
    const floor = await layOut(t);
    const main = floor.sections.find((s) => s.name === 'Main')!.id;
    const before = floorRows(t);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ sectionId: main, name: '15', seats: 4, shape: 'square', x: 1, y: 1, width: 2, height: 2 }, 'x', /taken by table 12/],
      [{ sectionId: main, name: '15', seats: 4, shape: 'square', x: 23, y: 0, width: 2, height: 2 }, 'width', /right edge/],
      [{ sectionId: main, name: '15', seats: 4, shape: 'square', x: 10, y: 15, width: 2, height: 2 }, 'height', /bottom/],
      [{ sectionId: 'sec_gone', name: '15', seats: 4, shape: 'square', x: 10, y: 5, width: 2, height: 2 }, 'sectionId', /not on the floor/],
      [{ sectionId: main, name: ' p1 ', seats: 4, shape: 'square', x: 10, y: 5, width: 2, height: 2 }, 'name', /already called P1/],
      [{ sectionId: main, name: '', seats: 4, shape: 'square', x: 10, y: 5, width: 2, height: 2 }, 'name', /needs a name/],
      [{ sectionId: main, name: '15', seats: 0, shape: 'square', x: 10, y: 5, width: 2, height: 2 }, 'seats', /at least 1/],
      [{ sectionId: main, name: '15', seats: 4, shape: 'star', x: 10, y: 5, width: 2, height: 2 }, 'shape', /./],
      [{ sectionId: main, name: '15', seats: 4, shape: 'square', x: -1, y: 5, width: 2, height: 2 }, 'x', /./],
    ];
    for (const [payload, path, message] of cases) {
      const error = refusal(await t.raw('tables.saveTable', payload));
      expect(error.issues?.find((i) => i.path === path)?.message, JSON.stringify(payload)).toMatch(message);
    }
    expect(floorRows(t)).toEqual(before);
  });

  it('keeps a seated table: no rename, no removal, no clearing while its check is open; a section with tables stays', async () => {
    const { t } = await floorCore();
    const floor = await layOut(t);
    const twelve = table(floor, '12');
    await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], service: { type: 'dine_in', table: '12', guests: 2 } });
    const before = floorRows(t);
    expect(refusal(await t.raw('tables.saveTable', { ...placementOf(twelve), name: '13' }))).toMatchObject({ code: 'conflict', issues: [{ path: 'name' }] });
    expect(refusal(await t.raw('tables.removeTable', { id: twelve.id })).message).toMatch(/open check/);
    expect(refusal(await t.raw('tables.clear', { id: twelve.id })).message).toMatch(/open check/);
    expect(refusal(await t.raw('tables.removeSection', { id: twelve.sectionId })).message).toMatch(/still has 2 tables/);
    expect(floorRows(t)).toEqual(before);
    // Moving it (same name) is fine while seated.
    const moved = await t.call('tables.saveTable', { ...placementOf(twelve), x: 10 });
    expect(table(moved, '12')).toMatchObject({ x: 10, state: 'seated' });
  });

  it('is a manager’s to lay out: a cashier is refused (and audited) unless a manager approves with their PIN', async () => {
    const { t } = await floorCore();
    await signIn(t.core, 'cashier');
    const before = floorRows(t);
    expect(refusal(await t.raw('tables.saveSection', { name: 'Bar' }))).toMatchObject({ code: 'needs_manager' });
    expect(floorRows(t)).toEqual(before);
    const floor = await t.call('tables.floor', {});
    expect(floor.sections).toEqual([]);
  });
});

function placementOf(t: TableView) {
  return { id: t.id, sectionId: t.sectionId, name: t.name, seats: t.seats, shape: t.shape, x: t.x, y: t.y, width: t.width, height: t.height };
}
