// Kitchen paper around a merge of two checks (docs/tables.md, "Merging checks"), from a real core on
// the fake TCP printers (kitchen: mains, bar: drinks): what either check sent is not printed again
// and the merged check's cancellation prints no VOID; a held line of a course the other check fired
// prints as an ADD; a held course stays held and fires later; afterwards a VOID of a merged line,
// or of the whole check, reaches the printers that have those lines.
import { describe, expect, it } from 'vitest';
import { ITEMS, type TestCore } from '../core/fixtures';
import { readDb } from '../core/staff-fixtures';
import { kitchenAndBarForEachTest, paper } from './kitchen-printers';

const MAINS = 'course_mains';
const DRINKS = 'course_drinks';

const kitchenAndBar = kitchenAndBarForEachTest();

/** The kitchen jobs queued, oldest first: printer, variant and lines of each. */
function kitchenJobs(c: TestCore): { printer: string; variant: string; lines: string[] }[] {
  return readDb(c.dataDir, (db) =>
    (db.prepare("SELECT printer, payload FROM print_jobs WHERE kind LIKE 'kitchen%' ORDER BY rowid").all() as { printer: string; payload: string }[]).map((row) => {
      const payload = JSON.parse(row.payload) as { variant: string; lines: { name: string; quantity: number }[] };
      return { printer: row.printer, variant: payload.variant, lines: payload.lines.map((l) => `${l.quantity} x ${l.name}`) };
    }),
  );
}

const table = (name: string) => ({ type: 'dine_in', table: name, guests: 2 }) as const;

describe('kitchen tickets of a merge', () => {
  it('prints only what the kitchen has not seen: a held line of a course fired on the other check, as an ADD', async () => {
    const { kitchen, bar, t } = await kitchenAndBar();
    const into = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1, course: MAINS }], service: table('12'), heldCourses: [MAINS] });
    await t.call('orders.fireCourse', { id: into.id, course: MAINS });
    const from = await t.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.latte, quantity: 1, course: DRINKS },
        { menuItemId: ITEMS.fries, quantity: 2, course: MAINS },
      ],
      service: table('14'),
      heldCourses: [MAINS],
    });
    await kitchen.waitFor(() => kitchen.jobs().length === 1, 'the FIRE ticket of table 12');
    await bar.waitFor(() => bar.jobs().length === 1, 'the latte of table 14');
    const before = kitchenJobs(t);

    const merged = await t.call('orders.merge', { into: into.id, from: from.id });
    expect(merged.courses).toEqual([{ course: MAINS, state: 'fired' }]);
    const added = kitchenJobs(t).slice(before.length);
    expect(added).toEqual([{ printer: 'kitchen', variant: 'add', lines: ['2 x Fries'] }]);
    await kitchen.waitFor(() => kitchen.jobs().length === 2, 'the ADD ticket');
    const ticket = paper(kitchen, 1);
    expect(ticket.join('\n')).toMatch(/ADD/);
    expect(ticket.join('\n')).toContain('TABLE 12');
    expect(ticket).toContain('2 x Fries');
    expect(ticket.join('\n')).not.toMatch(/Burger|latte/);
    expect(bar.jobs()).toHaveLength(1);
    expect(kitchenJobs(t).some((j) => j.variant === 'void')).toBe(false);
  });

  it('keeps a held course held on the merged check, and fires it there later', async () => {
    const { kitchen, bar, t } = await kitchenAndBar();
    const into = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: table('12') });
    const from = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 2, course: DRINKS }], service: table('14'), heldCourses: [DRINKS] });
    await kitchen.waitFor(() => kitchen.jobs().length === 1, 'the burger');
    const merged = await t.call('orders.merge', { into: into.id, from: from.id });
    expect(merged.courses).toEqual([{ course: DRINKS, state: 'held' }]);
    expect(kitchenJobs(t)).toHaveLength(1);

    await t.call('orders.fireCourse', { id: into.id, course: DRINKS });
    await bar.waitFor(() => bar.jobs().length === 1, 'the FIRE ticket of the drinks');
    expect(paper(bar, 0).slice(0, 2)).toEqual(['FIRE', 'TABLE 12 - DRINKS']);
    expect(paper(bar, 0)).toContain('2 x Café latte');
  });

  it('sends a later VOID of a merged line, and the VOID of the merged check, to the printers that have those lines', async () => {
    const { kitchen, bar, t } = await kitchenAndBar();
    const into = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: table('12') });
    const from = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 1 }], service: table('14') });
    await t.call('orders.merge', { into: into.id, from: from.id });
    await t.call('orders.update', { id: into.id, lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    await bar.waitFor(() => bar.jobs().length === 2, 'the VOID of the latte');
    expect(kitchenJobs(t).at(-1)).toEqual({ printer: 'bar', variant: 'void', lines: ['1 x Café latte'] });
    expect(paper(bar, 1).join('\n')).toMatch(/VOID[\s\S]*TABLE 12[\s\S]*1 x Café latte/);

    const other = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: table('15') });
    const drinks = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 1 }], service: table('16') });
    await t.call('orders.merge', { into: other.id, from: drinks.id });
    const jobs = kitchenJobs(t).length;
    await t.call('orders.cancel', { id: other.id, reason: 'The party left' });
    expect(kitchenJobs(t).slice(jobs).map((j) => [j.printer, j.variant]).sort()).toEqual([
      ['bar', 'void'],
      ['kitchen', 'void'],
    ]);
    await bar.waitFor(() => bar.jobs().length === 4, 'the VOID of the cancelled check on the bar');
    await kitchen.waitFor(() => kitchen.jobs().length === 3, 'the VOID of the cancelled check in the kitchen');
  });
});
