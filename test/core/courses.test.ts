// Seats and courses through the bridge on a real core (docs/tables.md, "Seats and courses"): lines
// carry a seat and a course; a held course prints on no kitchen ticket until it is fired, then one
// FIRE ticket with exactly its lines, once; a void of a held line prints nothing; the store's
// courses are a manager's to edit, bad lists are refused next to their field and change nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { FakePrinter } from '../printing/fake-printer';
import { ITEMS, MODIFIERS, signIn, STAFF, startTestCore, type TestCore } from './fixtures';
import { auditSince, lastAuditId, readDb, refusal } from './staff-fixtures';

const MAINS = 'course_mains';
const DRINKS = 'course_drinks';
const STARTERS = 'course_starters';

const running: { t: TestCore; printers: FakePrinter[] }[] = [];
afterEach(async () => {
  for (const { t, printers } of running.splice(0)) {
    await t.core.shutdown();
    for (const p of printers) await p.stop();
  }
});

/** A kitchen printer for mains, a bar printer for drinks (fixtures: burger, fries, soup are mains; the latte a drink). */
async function serviceCore(): Promise<{ t: TestCore; kitchen: FakePrinter; bar: FakePrinter }> {
  const [kitchen, bar] = [await FakePrinter.start(), await FakePrinter.start()];
  const t = await startTestCore({ printing: { kitchenPrinters: [`kitchen=${kitchen.url}`, `bar=${bar.url}`], printRouting: 'cat_mains=kitchen,cat_drinks=bar' } });
  running.push({ t, printers: [kitchen, bar] });
  return { t, kitchen, bar };
}

/** The kitchen jobs queued for an order, oldest first: what was asked of the printers, whether printed yet or not. */
function kitchenJobs(t: TestCore, orderId: string): { printer: string; dedupe_key: string; lines: { name: string; seat: number | null; quantity: number }[]; variant: string }[] {
  return readDb(t.dataDir, (db) =>
    (db.prepare("SELECT printer, dedupe_key, payload FROM print_jobs WHERE order_id = ? AND kind LIKE 'kitchen%' ORDER BY rowid").all(orderId) as { printer: string; dedupe_key: string; payload: string }[]).map((row) => {
      const payload = JSON.parse(row.payload) as { variant: string; lines: { name: string; seat?: number | null; quantity: number }[] };
      return { printer: row.printer, dedupe_key: row.dedupe_key, variant: payload.variant, lines: payload.lines.map((l) => ({ name: l.name, seat: l.seat ?? null, quantity: l.quantity })) };
    }),
  );
}

const table12 = { type: 'dine_in', table: '12', guests: 4 } as const;

describe('seats and courses on lines', () => {
  it('keeps each line’s seat and course, keeps them when a screen leaves them out, and refuses a course that is not on the list', async () => {
    const { t } = await serviceCore();
    const order = await t.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 1, seat: 1, course: MAINS },
        { menuItemId: ITEMS.burger, quantity: 1, seat: 2, course: MAINS, modifierIds: [MODIFIERS.cheese] },
        { menuItemId: ITEMS.fries, quantity: 1, seat: null, course: STARTERS },
      ],
      service: table12,
    });
    expect(order.lines.map((l) => [l.name, l.seat, l.course])).toEqual([
      ['Burger', 1, MAINS],
      ['Burger', 2, MAINS],
      ['Fries', null, STARTERS],
    ]);

    // A screen that knows nothing of seats sends the lines back without them: they keep theirs.
    const moved = await t.call('orders.update', {
      id: order.id,
      lines: [
        { menuItemId: ITEMS.burger, quantity: 1 },
        { menuItemId: ITEMS.burger, quantity: 1, modifierIds: [MODIFIERS.cheese], seat: 3 },
        { menuItemId: ITEMS.fries, quantity: 1, course: null },
      ],
    });
    expect(moved.lines.map((l) => [l.seat, l.course])).toEqual([
      [1, MAINS],
      [3, MAINS],
      [null, null],
    ]);

    const before = readDb(t.dataDir, (db) => db.prepare('SELECT lines FROM orders WHERE id = ?').all(order.id));
    const bad = await t.raw('orders.update', { id: order.id, lines: [{ menuItemId: ITEMS.burger, quantity: 1, course: 'crs_gone' }] });
    expect(refusal(bad)).toMatchObject({ code: 'invalid_command', issues: [{ path: 'lines.0.course' }] });
    expect(refusal(await t.raw('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1, seat: 41 }] }))).toMatchObject({ code: 'invalid_command', issues: [{ path: 'lines.0.seat' }] });
    expect(readDb(t.dataDir, (db) => db.prepare('SELECT lines FROM orders WHERE id = ?').all(order.id))).toEqual(before);
  });
});

describe('hold and fire', () => {
  it('leaves a held course off the kitchen ticket, fires it once on one FIRE ticket, holds what is added to it, and prints nothing for a void of a held line', async () => {
    const { t, kitchen, bar } = await serviceCore();
    const auditFrom = lastAuditId(t.dataDir);
    const order = await t.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.latte, quantity: 2, seat: 1, course: DRINKS },
        { menuItemId: ITEMS.soup, quantity: 1, seat: 2, course: STARTERS },
        { menuItemId: ITEMS.burger, quantity: 1, seat: 1, course: MAINS, modifierIds: [MODIFIERS.cheese], note: 'rare' },
        { menuItemId: ITEMS.fries, quantity: 1, seat: 2, course: MAINS },
      ],
      service: table12,
      heldCourses: [MAINS],
    });
    expect(order.courses).toEqual([{ course: MAINS, state: 'held' }]);
    await kitchen.waitFor(() => kitchen.jobs().length === 1, 'the kitchen ticket');
    await bar.waitFor(() => bar.jobs().length === 1, 'the bar ticket');
    expect(kitchen.text()).toContain('Soup of the day');
    expect(kitchen.text()).not.toMatch(/Burger|Fries/);
    expect(kitchenJobs(t, order.id).flatMap((j) => j.lines.map((l) => l.name))).toEqual(['Café latte', 'Soup of the day']);

    // Added to the held course: held too. Voided from it: the kitchen never saw it, nothing prints.
    await t.call('orders.update', {
      id: order.id,
      lines: [
        { menuItemId: ITEMS.latte, quantity: 2, seat: 1, course: DRINKS },
        { menuItemId: ITEMS.soup, quantity: 1, seat: 2, course: STARTERS },
        { menuItemId: ITEMS.burger, quantity: 1, seat: 1, course: MAINS, modifierIds: [MODIFIERS.cheese], note: 'rare' },
        { menuItemId: ITEMS.fries, quantity: 1, seat: 2, course: MAINS },
        { menuItemId: ITEMS.burger, quantity: 1, seat: 3, course: MAINS },
      ],
    });
    await t.call('orders.update', {
      id: order.id,
      lines: [
        { menuItemId: ITEMS.latte, quantity: 2, seat: 1, course: DRINKS },
        { menuItemId: ITEMS.soup, quantity: 1, seat: 2, course: STARTERS },
        { menuItemId: ITEMS.burger, quantity: 1, seat: 1, course: MAINS, modifierIds: [MODIFIERS.cheese], note: 'rare' },
        { menuItemId: ITEMS.burger, quantity: 1, seat: 3, course: MAINS },
      ],
    });
    expect(kitchenJobs(t, order.id)).toHaveLength(2);

    const fired = await t.call('orders.fireCourse', { id: order.id, course: MAINS });
    expect(fired.courses).toEqual([{ course: MAINS, state: 'fired' }]);
    const jobs = kitchenJobs(t, order.id);
    expect(jobs).toHaveLength(3);
    expect(jobs[2]).toMatchObject({ printer: 'kitchen', variant: 'fire', lines: [{ name: 'Burger', seat: 1, quantity: 1 }, { name: 'Burger', seat: 3, quantity: 1 }] });
    await kitchen.waitFor(() => kitchen.jobs().length === 2, 'the FIRE ticket');
    const fire = kitchen.decodedJobs()[1]!.text;
    expect(fire).toContain('FIRE');
    expect(fire).toContain('TABLE 12 - MAINS');
    expect(fire).toContain(order.number!);
    expect(fire).toMatch(/S1 1 x Burger/);
    expect(fire).toMatch(/S3 1 x Burger/);
    expect(fire).toContain('Extra cheese');
    expect(fire).toContain('rare');

    // Firing again (a second press, a repeat after a lost answer) prints nothing more.
    expect((await t.call('orders.fireCourse', { id: order.id, course: MAINS })).courses).toEqual([{ course: MAINS, state: 'fired' }]);
    expect(kitchenJobs(t, order.id)).toHaveLength(3);

    // A line added to a fired course goes out as the usual ADD ticket.
    await t.call('orders.update', {
      id: order.id,
      lines: [
        { menuItemId: ITEMS.latte, quantity: 2, seat: 1, course: DRINKS },
        { menuItemId: ITEMS.soup, quantity: 1, seat: 2, course: STARTERS },
        { menuItemId: ITEMS.burger, quantity: 1, seat: 1, course: MAINS, modifierIds: [MODIFIERS.cheese], note: 'rare' },
        { menuItemId: ITEMS.burger, quantity: 1, seat: 3, course: MAINS },
        { menuItemId: ITEMS.fries, quantity: 1, seat: 4, course: MAINS },
      ],
    });
    const after = kitchenJobs(t, order.id);
    expect(after).toHaveLength(4);
    expect(after[3]).toMatchObject({ variant: 'add', lines: [{ name: 'Fries', seat: 4 }] });
    expect(new Set(after.map((j) => j.dedupe_key)).size).toBe(4);

    expect(auditSince(t.dataDir, auditFrom).filter((a) => a.action.startsWith('order.course')).map((a) => [a.action, a.detail])).toEqual([
      ['order.course.hold', { course: MAINS, name: 'Mains' }],
      ['order.course.fire', { course: MAINS, name: 'Mains', lines: 2 }],
    ]);
  });

  it('holds a course of a sent order only before any of its lines went to the kitchen, and fires only a held course', async () => {
    const { t } = await serviceCore();
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 1, course: DRINKS }], service: table12 });
    expect(refusal(await t.raw('orders.holdCourse', { id: order.id, course: DRINKS }))).toMatchObject({ code: 'conflict', message: expect.stringContaining('Drinks already went to the kitchen') });
    expect(refusal(await t.raw('orders.fireCourse', { id: order.id, course: MAINS }))).toMatchObject({ code: 'conflict', message: expect.stringContaining('Mains is not held') });

    const auditFrom = lastAuditId(t.dataDir);
    const held = await t.call('orders.holdCourse', { id: order.id, course: MAINS });
    expect(held.courses).toEqual([{ course: MAINS, state: 'held' }]);
    expect((await t.call('orders.holdCourse', { id: order.id, course: MAINS })).courses).toEqual([{ course: MAINS, state: 'held' }]);
    expect(auditSince(t.dataDir, auditFrom).filter((a) => a.action === 'order.course.hold')).toHaveLength(1);

    await t.call('orders.update', { id: order.id, lines: [{ menuItemId: ITEMS.latte, quantity: 1, course: DRINKS }, { menuItemId: ITEMS.burger, quantity: 1, seat: 2, course: MAINS }] });
    expect(kitchenJobs(t, order.id)).toHaveLength(1);
    await t.call('orders.fireCourse', { id: order.id, course: MAINS });
    expect(kitchenJobs(t, order.id).map((j) => [j.variant, j.lines.map((l) => l.name)])).toEqual([
      ['new', ['Café latte']],
      ['fire', ['Burger']],
    ]);
  });

  it('lets whoever may change the order hold and fire: another server’s check needs a manager', async () => {
    const { t } = await serviceCore();
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1, course: MAINS }], service: table12, heldCourses: [MAINS] });
    await signIn(t.core, 'cashier');
    expect(refusal(await t.raw('orders.fireCourse', { id: order.id, course: MAINS }))).toMatchObject({ code: 'needs_manager' });
    expect(kitchenJobs(t, order.id)).toHaveLength(0);
    const fired = await t.call('orders.fireCourse', { id: order.id, course: MAINS, managerPin: STAFF.manager.pin });
    expect(fired.courses).toEqual([{ course: MAINS, state: 'fired' }]);
    expect(kitchenJobs(t, order.id)).toHaveLength(1);
  });
});

describe('the store’s courses', () => {
  it('start as Drinks, Starters, Mains, Dessert; a manager adds, renames, reorders and removes them', async () => {
    const { t } = await serviceCore();
    expect((await t.call('tables.courses', {})).map((c) => c.name)).toEqual(['Drinks', 'Starters', 'Mains', 'Dessert']);
    const courses = await t.call('tables.saveCourses', {
      courses: [{ id: DRINKS, name: 'Drinks' }, { name: 'Amuse-bouche' }, { id: MAINS, name: 'Main courses' }, { id: STARTERS, name: 'Starters' }],
    });
    expect(courses.map((c) => c.name)).toEqual(['Drinks', 'Amuse-bouche', 'Main courses', 'Starters']);
    expect(courses.find((c) => c.name === 'Main courses')!.id).toBe(MAINS);
    expect(courses.find((c) => c.name === 'Amuse-bouche')!.id).toMatch(/^crs_/);
    // The removed course stays as a tombstone with its id (never reused), for store mode.
    expect(readDb(t.dataDir, (db) => db.prepare("SELECT removed, version FROM floor_courses WHERE id = 'course_dessert'").get())).toEqual({ removed: 1, version: 2 });
  });

  it('refuses a bad list next to its field and saves nothing: a name twice, too long, empty, more than 8, or a course an open check uses', async () => {
    const { t } = await serviceCore();
    const rows = () => readDb(t.dataDir, (db) => db.prepare('SELECT * FROM floor_courses ORDER BY id').all());
    const before = rows();
    const twice = refusal(await t.raw('tables.saveCourses', { courses: [{ name: 'Drinks' }, { name: ' drinks ' }] }));
    expect(twice).toMatchObject({ code: 'invalid_command', issues: [{ path: 'courses.1.name', message: expect.stringContaining('already a course') }] });
    expect(refusal(await t.raw('tables.saveCourses', { courses: [{ name: 'x'.repeat(21) }] }))).toMatchObject({ issues: [{ path: 'courses.0.name', message: 'A course\'s name is at most 20 characters.' }] });
    expect(refusal(await t.raw('tables.saveCourses', { courses: [{ name: '  ' }] }))).toMatchObject({ issues: [{ path: 'courses.0.name' }] });
    expect(refusal(await t.raw('tables.saveCourses', { courses: Array.from({ length: 9 }, (_, i) => ({ name: `Course ${i}` })) }))).toMatchObject({ issues: [{ path: 'courses', message: 'At most 8 courses.' }] });

    await t.call('orders.place', { lines: [{ menuItemId: ITEMS.soup, quantity: 1, course: STARTERS }], service: table12 });
    const inUse = refusal(await t.raw('tables.saveCourses', { courses: [{ id: DRINKS, name: 'Drinks' }, { id: MAINS, name: 'Mains' }] }));
    expect(inUse).toMatchObject({ code: 'conflict', message: expect.stringContaining('Starters is on an open check') });
    expect(rows()).toEqual(before);
  });

  it('is a manager’s to edit: a cashier is refused unless a manager approves with their PIN', async () => {
    const { t } = await serviceCore();
    await signIn(t.core, 'cashier');
    const before = readDb(t.dataDir, (db) => db.prepare('SELECT * FROM floor_courses ORDER BY id').all());
    expect(refusal(await t.raw('tables.saveCourses', { courses: [{ name: 'Drinks' }] }))).toMatchObject({ code: 'needs_manager' });
    expect(readDb(t.dataDir, (db) => db.prepare('SELECT * FROM floor_courses ORDER BY id').all())).toEqual(before);
    const auditFrom = lastAuditId(t.dataDir);
    const approved = await t.call('tables.saveCourses', { courses: [{ id: DRINKS, name: 'Drinks' }, { id: MAINS, name: 'Mains' }], managerPin: STAFF.manager.pin });
    expect(approved.map((c) => c.name)).toEqual(['Drinks', 'Mains']);
    expect(auditSince(t.dataDir, auditFrom).find((a) => a.action === 'floor.courses.change')?.detail).toMatchObject({ approvedBy: expect.any(String) });
  });

  it('takes IT’s courses from the config on a till whose courses no person has changed', async () => {
    const t = await startTestCore({
      floor: { courses: [{ name: 'Drinks' }, { name: 'Antipasti' }, { name: 'Primi' }, { name: 'Secondi' }], sections: [{ name: 'Main', tables: [] }] },
    });
    running.push({ t, printers: [] });
    const courses = await t.call('tables.courses', {});
    expect(courses.map((c) => c.name)).toEqual(['Drinks', 'Antipasti', 'Primi', 'Secondi']);
    expect(courses[0]!.id).toBe(DRINKS);
  });
});
