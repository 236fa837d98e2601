// FIRE tickets on paper (docs/printing.md, docs/tables.md "Courses"): a held course fired from a
// real core prints on the fake TCP printers its lines route to, each printer only its own lines,
// headed FIRE with the table (or the order's number when it has no table) and the course, every
// line with its seat, modifiers and note, read back as the cook reads it.
import { describe, expect, it } from 'vitest';
import { ITEMS, MODIFIERS } from '../core/fixtures';
import { kitchenAndBarForEachTest, paper } from './kitchen-printers';

const kitchenAndBar = kitchenAndBarForEachTest();


describe('a FIRE ticket', () => {
  it('names the table and the course, and lists each line with its seat, modifiers and note, on each printer its lines route to', async () => {
    const { kitchen, bar, t } = await kitchenAndBar();
    const order = await t.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 2, seat: 4, course: 'course_mains', modifierIds: [MODIFIERS.bacon], note: 'no pickles' },
        { menuItemId: ITEMS.latte, quantity: 1, seat: 1, course: 'course_mains', modifierIds: [MODIFIERS.oat] },
        { menuItemId: ITEMS.fries, quantity: 1, seat: null, course: 'course_mains' },
      ],
      service: { type: 'dine_in', table: 'Patio 4', guests: 4 },
      heldCourses: ['course_mains'],
    });
    await t.call('orders.fireCourse', { id: order.id, course: 'course_mains' });
    await kitchen.waitFor(() => kitchen.jobs().length === 1, 'the kitchen FIRE ticket');
    await bar.waitFor(() => bar.jobs().length === 1, 'the bar FIRE ticket');

    const food = paper(kitchen, 0);
    expect(food.slice(0, 3)).toEqual(['FIRE', 'TABLE PATIO 4 - MAINS', order.number!]);
    expect(food).toContain('S4 2 x Burger');
    expect(food).toContain('+ Bacon');
    expect(food).toContain('NOTE: no pickles');
    expect(food).toContain('1 x Fries'); // for the table: no seat
    expect(food.join('\n')).not.toContain('latte');

    const drinks = paper(bar, 0);
    expect(drinks.slice(0, 2)).toEqual(['FIRE', 'TABLE PATIO 4 - MAINS']);
    expect(drinks).toContain('S1 1 x Café latte');
    expect(drinks).toContain('+ Oat milk');
    expect(drinks.join('\n')).not.toContain('Burger');
  });

  it('names the order by its number when it has no table', async () => {
    const { kitchen, t } = await kitchenAndBar();
    const order = await t.call('orders.place', {
      lines: [{ menuItemId: ITEMS.soup, quantity: 1, course: 'course_starters' }],
      service: { type: 'takeout', table: null, guests: null },
      heldCourses: ['course_starters'],
    });
    await t.call('orders.fireCourse', { id: order.id, course: 'course_starters' });
    await kitchen.waitFor(() => kitchen.jobs().length === 1, 'the FIRE ticket');
    expect(paper(kitchen, 0).slice(0, 2)).toEqual(['FIRE', `${order.number!} - STARTERS`]);
  });
});
