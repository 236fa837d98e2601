// @vitest-environment happy-dom
// Seats and courses on the register (issue 25, docs/tables.md): the seat and course chosen apply to
// the items added next; each line says where it is served and can be moved; the ticket is grouped
// by course with Hold / Fire; the payment's split panel shows each line's seat and splits by seat in one tap. A real core.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../renderer/App';
import { ITEMS } from '../core/fixtures';
import { tile } from './checkout-fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();

/** Each line of the ticket as it reads: its name and where it is served ("S2 · Mains"). */
const ticketLines = () =>
  [...document.querySelectorAll('.ticket-lines .ticket-line')].map((li) => [li.querySelector('.line-name')?.textContent, li.querySelector('.line-place')?.textContent]);
const courseHeads = () => [...document.querySelectorAll('.ticket-lines .course-head')].map((el) => el.textContent);

/** The app on the register with a dine-in ticket for table 12 and four guests, seated from the floor. */
async function tableTwelve() {
  const client = await withCore();
  const floor = await core().call('tables.saveSection', { name: 'Main' });
  await core().call('tables.saveTable', { sectionId: floor.sections[0]!.id, name: '12', seats: 4, shape: 'square', x: 0, y: 0, width: 2, height: 2 });
  renderWith(client, <App />);
  await waitFor(() => expect(tile(ITEMS.burger)).toBeTruthy());
  const nav = within(screen.getByRole('navigation', { name: 'Screens' }));
  fireEvent.click(nav.getByRole('button', { name: /^Tables/ }));
  fireEvent.click(await screen.findByTestId('table-12'));
  const seat = within(await screen.findByRole('dialog'));
  const guests = seat.getByLabelText('How many guests?') as HTMLInputElement;
  fireEvent.change(guests, { target: { value: '3' } });
  fireEvent.click(seat.getByRole('button', { name: 'Start the check' }));
  await waitFor(() => expect(nav.getByRole('button', { name: /^Register/ }).getAttribute('aria-current')).toBe('page'));
  // This till rings checks up by seat and course: asked once, kept as the till's preference.
  const toggle = screen.getByRole('button', { name: 'Seats & courses' });
  if (toggle.getAttribute('aria-pressed') !== 'true') fireEvent.click(toggle);
  return { nav };
}

const seatBar = () => within(screen.getByRole('group', { name: 'Seat for the next items' }));
const courseBar = () => within(screen.getByRole('group', { name: 'Course for the next items' }));

describe('seats and courses on the register', () => {
  it('rings up the next items for the seat and course chosen, groups the ticket by course, moves a line, holds a course when sending and fires it', async () => {
    await tableTwelve();
    expect(seatBar().getAllByRole('button').map((b) => b.textContent)).toEqual(['Table', '1', '2', '3']);

    fireEvent.click(courseBar().getByRole('button', { name: 'Drinks' }));
    fireEvent.click(tile(ITEMS.latte));
    fireEvent.click(seatBar().getByRole('button', { name: 'Seat 1' }));
    fireEvent.click(courseBar().getByRole('button', { name: 'Mains' }));
    fireEvent.click(tile(ITEMS.burger));
    fireEvent.click(seatBar().getByRole('button', { name: 'Seat 2' }));
    fireEvent.click(tile(ITEMS.burger));
    await waitFor(() =>
      expect(ticketLines()).toEqual([
        ['Café latte', 'Table · Drinks'],
        ['Burger', 'S1 · Mains'],
        ['Burger', 'S2 · Mains'],
      ]),
    );
    expect(courseHeads().map((h) => h?.replace(/Hold$/, ''))).toEqual(['Drinks', 'Mains']);

    // The latte (selected by tapping it) moves to seat 3.
    fireEvent.click(within(screen.getByTestId('ticket-lines')).getByRole('button', { name: /^Café latte/ }));
    fireEvent.change(screen.getByLabelText('Seat of Café latte'), { target: { value: '3' } });
    await waitFor(() => expect(ticketLines()[0]).toEqual(['Café latte', 'S3 · Drinks']));

    // Mains held before sending: the order goes with it held.
    fireEvent.click(screen.getByRole('button', { name: 'Hold Mains' }));
    await waitFor(() => expect(within(screen.getByTestId('course-Mains')).getByText('HELD')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: /Save open/ }));
    await waitFor(() => expect(ticketLines()).toEqual([]));
    const [order] = await core().call('orders.list', { status: 'open' });
    expect(order!.courses).toEqual([{ course: 'course_mains', state: 'held' }]);
    expect(order!.lines.map((l) => [l.name, l.seat, l.course])).toEqual([
      ['Café latte', 3, 'course_drinks'],
      ['Burger', 1, 'course_mains'],
      ['Burger', 2, 'course_mains'],
    ]);

    // Opened again from the floor: the lines keep their seats, Mains reads HELD and fires.
    const nav = within(screen.getByRole('navigation', { name: 'Screens' }));
    fireEvent.click(nav.getByRole('button', { name: /^Tables/ }));
    fireEvent.click(await screen.findByTestId('table-12'));
    await waitFor(() => expect(ticketLines()).toEqual([
      ['Café latte', 'S3 · Drinks'],
      ['Burger', 'S1 · Mains'],
      ['Burger', 'S2 · Mains'],
    ]));
    fireEvent.click(await screen.findByRole('button', { name: 'Fire Mains' }));
    await waitFor(() => expect(within(screen.getByTestId('course-Mains')).getByText('FIRED')).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Fire Mains' })).toBeNull();
    expect((await core().call('orders.get', { id: order!.id })).courses).toEqual([{ course: 'course_mains', state: 'fired' }]);
  });

  it('splits the bill by seat in one tap: each seat its own check, the table’s lines shared evenly', async () => {
    await tableTwelve();
    fireEvent.click(tile(ITEMS.fries)); // for the table
    fireEvent.click(seatBar().getByRole('button', { name: 'Seat 1' }));
    fireEvent.click(tile(ITEMS.burger));
    fireEvent.click(seatBar().getByRole('button', { name: 'Seat 2' }));
    fireEvent.click(tile(ITEMS.soup));
    await waitFor(() => expect(ticketLines()).toHaveLength(3));
    fireEvent.click(screen.getByTestId('charge'));
    const dialog = within(await screen.findByRole('dialog'));
    // By items, each line says whose seat it is (or the table's) next to the check it is on.
    fireEvent.click(dialog.getByLabelText('By items'));
    const assignments = () => within(dialog.getByRole('list', { name: 'Which check each item goes on' })).getAllByRole('button');
    expect(assignments().map((button) => button.getAttribute('aria-label'))).toEqual([
      'Table · 1 × Fries: check 1 of 2',
      'Seat 1 · 1 × Burger: check 1 of 2',
      'Seat 2 · 1 × Soup of the day: check 1 of 2',
    ]);
    expect(assignments().map((button) => button.querySelector('.assign-seat')?.textContent)).toEqual(['Table', 'Seat 1', 'Seat 2']);
    fireEvent.click(dialog.getByRole('button', { name: 'By seat (2 checks)' }));
    await waitFor(() => expect(dialog.getAllByTestId('split-part')).toHaveLength(2));
    expect(assignments().map((button) => button.getAttribute('aria-label'))).toEqual([
      'Table · 1 × Fries: shared by all 2 checks',
      'Seat 1 · 1 × Burger: check 1 of 2',
      'Seat 2 · 1 × Soup of the day: check 2 of 2',
    ]);
    const [order] = await core().call('orders.list', { status: 'open' });
    expect(order!.split?.plan).toEqual({ kind: 'items', assignment: [0, 1, 2] });
    const [first, second] = order!.split!.parts;
    const [fries, burger, soup] = order!.lines;
    // The fries' total is shared: the first check takes the odd cent.
    expect(first!.amount).toBe(burger!.total + Math.ceil(fries!.total / 2));
    expect(second!.amount).toBe(soup!.total + Math.floor(fries!.total / 2));
    expect(first!.amount + second!.amount).toBe(order!.total);
    expect(dialog.getByText('Shared')).toBeTruthy();
  });

  it('lets a manager edit the courses in the floor editor; a name used twice is refused next to it and nothing is saved', async () => {
    const { nav } = await tableTwelve();
    fireEvent.click(nav.getByRole('button', { name: /^Tables/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit floor' }));
    const editor = within(await screen.findByRole('region', { name: 'Courses' }));
    await waitFor(() => expect((editor.getByLabelText('Course 4') as HTMLInputElement).value).toBe('Dessert'));
    fireEvent.change(editor.getByLabelText('Course 4'), { target: { value: ' mains ' } });
    fireEvent.click(editor.getByRole('button', { name: 'Save the courses' }));
    const refusal = await editor.findByRole('alert');
    expect(refusal.textContent).toMatch(/already a course/);
    expect(editor.getByLabelText('Course 4').getAttribute('aria-describedby')).toBe(refusal.id);
    expect((await core().call('tables.courses', {})).map((c) => c.name)).toEqual(['Drinks', 'Starters', 'Mains', 'Dessert']);

    fireEvent.change(editor.getByLabelText('Course 4'), { target: { value: 'Cheese' } });
    fireEvent.click(editor.getByRole('button', { name: 'Move Cheese up' }));
    fireEvent.click(editor.getByRole('button', { name: 'Add a course' }));
    fireEvent.change(editor.getByLabelText('Course 5'), { target: { value: 'Dessert' } });
    fireEvent.click(editor.getByRole('button', { name: 'Save the courses' }));
    await waitFor(async () => expect((await core().call('tables.courses', {})).map((c) => c.name)).toEqual(['Drinks', 'Starters', 'Cheese', 'Mains', 'Dessert']));
  });
});
