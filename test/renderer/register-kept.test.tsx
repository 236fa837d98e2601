// @vitest-environment happy-dom
// The register kept mounted under the other screens (issue 25, the table tap): hidden, it takes no
// keys and no focus; a seated table's tap opens its check with its courses' state, without asking
// the core again; shown again, the search box has the focus and the search is cleared.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../renderer/App';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { ITEMS } from '../core/fixtures';
import { tile } from './checkout-fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();
const ticketNames = () => [...document.querySelectorAll('.ticket-lines .line-name')].map((el) => el.textContent);

describe('the register under the other screens', () => {
  it('hidden takes no keys; a table tap opens the check with its held course, asking the core nothing (the floor holds its open checks); shown, the search has the focus', async () => {
    const real = await withCore();
    const asked: string[] = [];
    const answered: string[] = [];
    const client: BridgeClient = {
      ...real,
      call: ((command: never, payload: never) => {
        asked.push(command);
        return real.call(command, payload).then((value) => (answered.push(command), value));
      }) as BridgeClient['call'],
    };
    const floor = await core().call('tables.saveSection', { name: 'Main' });
    await core().call('tables.saveTable', { sectionId: floor.sections[0]!.id, name: '12', seats: 4, shape: 'square', x: 0, y: 0, width: 2, height: 2 });
    const courses = await core().call('tables.courses', {});
    const mains = courses.find((c) => c.name === 'Mains')!.id;
    await core().call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1, course: mains }], service: { type: 'dine_in', table: '12', guests: 2 }, heldCourses: [mains] });
    renderWith(client, <App />);
    await waitFor(() => expect(tile(ITEMS.fries)).toBeTruthy());
    const nav = within(screen.getByRole('navigation', { name: 'Screens' }));
    const search = screen.getByLabelText('Search the menu or scan a barcode') as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(search));
    fireEvent.change(search, { target: { value: 'fri' } });

    fireEvent.click(nav.getByRole('button', { name: /^Tables/ }));
    const register = document.querySelector('.register') as HTMLElement;
    expect(register.hidden).toBe(true);
    expect(screen.queryByRole('searchbox')).toBeNull();
    // F2 focuses the register's search: not while the floor shows (a browser moves the focus off a hidden field; happy-dom does not).
    search.blur();
    fireEvent.keyDown(window, { key: 'F2' });
    expect(document.activeElement).not.toBe(search);

    const table = await screen.findByTestId('table-12');
    await waitFor(() => expect(table.textContent).toMatch(/Seated/));
    // The floor asks for its open checks once it is drawn; a tap then needs nothing from the core.
    await waitFor(() => expect(answered).toContain('orders.list'));
    asked.length = 0;
    fireEvent.pointerDown(table);
    fireEvent.click(table);
    expect(asked).toEqual([]);
    await waitFor(() => expect(nav.getByRole('button', { name: /^Register/ }).getAttribute('aria-current')).toBe('page'));
    expect(register.hidden).toBe(false);
    expect(ticketNames()).toEqual(['Burger']);
    expect(within(screen.getByTestId('course-Mains')).getByText('HELD')).toBeTruthy();
    expect(asked.filter((c) => c === 'orders.get')).toEqual([]);
    expect(document.activeElement).toBe(search);
    expect(search.value).toBe('');

    // Fired elsewhere (another till): the register's courses follow.
    const [order] = await core().call('orders.list', { status: 'open' });
    await core().call('orders.fireCourse', { id: order!.id, course: mains });
    await waitFor(() => expect(within(screen.getByTestId('course-Mains')).getByText('FIRED')).toBeTruthy());

    fireEvent.keyDown(window, { key: 'F9' });
    await waitFor(() => expect(ticketNames()).toEqual([]));
  });

  it('never opens a check as the floor held it once it changed: the floor asks for its checks again', async () => {
    const real = await withCore();
    const answered: string[] = [];
    const client: BridgeClient = { ...real, call: ((command: never, payload: never) => real.call(command, payload).then((value) => (answered.push(command), value))) as BridgeClient['call'] };
    const floor = await core().call('tables.saveSection', { name: 'Main' });
    await core().call('tables.saveTable', { sectionId: floor.sections[0]!.id, name: '12', seats: 4, shape: 'square', x: 0, y: 0, width: 2, height: 2 });
    const order = await core().call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: { type: 'dine_in', table: '12', guests: 2 } });
    renderWith(client, <App />);
    await waitFor(() => expect(tile(ITEMS.fries)).toBeTruthy());
    const nav = within(screen.getByRole('navigation', { name: 'Screens' }));
    fireEvent.click(nav.getByRole('button', { name: /^Tables/ }));
    const table = await screen.findByTestId('table-12');
    await waitFor(() => expect(table.textContent).toMatch(/Seated/));
    await waitFor(() => expect(answered.filter((c) => c === 'orders.list')).toHaveLength(1));
    // Another round, rung up elsewhere while the floor shows: the floor's check is newer than the one held.
    await core().call('orders.update', { id: order.id, lines: [{ menuItemId: ITEMS.burger, quantity: 1 }, { menuItemId: ITEMS.fries, quantity: 2 }] });
    await waitFor(() => expect(answered.filter((c) => c === 'orders.list')).toHaveLength(2));
    fireEvent.pointerDown(table);
    fireEvent.click(table);
    await waitFor(() => expect(ticketNames()).toEqual(['Burger', 'Fries']));
  });
});

