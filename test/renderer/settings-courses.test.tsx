// @vitest-environment happy-dom
// The courses in Settings (issue 25, item 8; docs/tables.md, "Seats and courses"), on a real core:
// whoever may lay out the floor (a manager) edits the store's courses there with the floor
// editor's own form: a name used twice is refused next to it, a course an open check uses under the
// list, nothing saved either time; a good list is saved and audited. A cashier sees no courses to
// edit; signed in alone the core refuses a change without a manager's PIN and takes it with one.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Settings } from '../../renderer/screens/Settings';
import { auditSince, lastAuditId } from '../core/staff-fixtures';
import { ITEMS, STAFF } from '../core/fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();
const DEFAULTS = ['Drinks', 'Starters', 'Mains', 'Dessert'];
const courseNames = async () => (await core().call('tables.courses', {})).map((c) => c.name);

describe('the courses in Settings', () => {
  it('a manager renames, reorders and adds courses; a name used twice is refused next to it and nothing is saved', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'manager' });
    renderWith(client, <Settings currency="usd" />);
    const editor = within(await screen.findByRole('region', { name: 'Courses' }));
    // Tables and sections are laid out where they are used: Settings says where.
    expect(screen.getByRole('region', { name: 'Tables and sections' }).textContent).toContain('Tables screen (Alt+8), press Edit floor');
    await waitFor(() => expect((editor.getByLabelText('Course 4') as HTMLInputElement).value).toBe('Dessert'));
    const auditFrom = lastAuditId(core().dataDir);

    fireEvent.change(editor.getByLabelText('Course 2'), { target: { value: 'drinks ' } });
    fireEvent.click(editor.getByRole('button', { name: 'Save the courses' }));
    const refusal = await editor.findByRole('alert');
    expect(refusal.textContent).toMatch(/already a course/);
    expect(editor.getByLabelText('Course 2').getAttribute('aria-describedby')).toBe(refusal.id);
    expect(editor.getByLabelText('Course 2').getAttribute('aria-invalid')).toBe('true');
    expect(await courseNames()).toEqual(DEFAULTS);

    fireEvent.change(editor.getByLabelText('Course 2'), { target: { value: 'Appetizers' } });
    fireEvent.click(editor.getByRole('button', { name: 'Move Dessert up' }));
    fireEvent.click(editor.getByRole('button', { name: 'Add a course' }));
    fireEvent.change(editor.getByLabelText('Course 5'), { target: { value: 'Coffee' } });
    fireEvent.click(editor.getByRole('button', { name: 'Save the courses' }));
    await waitFor(async () => expect(await courseNames()).toEqual(['Drinks', 'Appetizers', 'Dessert', 'Mains', 'Coffee']));
    expect(auditSince(core().dataDir, auditFrom).filter((e) => e.action === 'floor.courses.change')).toHaveLength(1);
    // The form starts again from the saved list, with nothing left to save.
    await waitFor(() => expect((screen.getByLabelText('Course 5') as HTMLInputElement).value).toBe('Coffee'));
    expect((screen.getByRole('button', { name: 'Save the courses' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('refuses to remove a course an open check uses, under the list, and saves nothing', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'owner' });
    await client.call('orders.place', { lines: [{ menuItemId: ITEMS.soup, quantity: 1, seat: 1, course: 'course_starters' }], service: { type: 'dine_in', table: '4', guests: 2 } });
    renderWith(client, <Settings currency="usd" />);
    const editor = within(await screen.findByRole('region', { name: 'Courses' }));
    fireEvent.click(await editor.findByRole('button', { name: 'Remove Starters' }));
    fireEvent.click(editor.getByRole('button', { name: 'Save the courses' }));
    expect((await editor.findByRole('alert')).textContent).toBe('Starters is on an open check. Remove it once no open check has an item in it.');
    for (const input of editor.getAllByRole('textbox')) expect(input.getAttribute('aria-invalid')).not.toBe('true');
    expect(await courseNames()).toEqual(DEFAULTS);
  });

  it('a cashier sees no courses to edit, and the core takes a change from one only with a manager’s PIN', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'cashier' });
    renderWith(client, <Settings currency="usd" />);
    await screen.findByTestId('ask-manager');
    expect(screen.queryByRole('region', { name: 'Courses' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Tables and sections' })).toBeNull();

    const list = (await client.call('tables.courses', {})).map((c) => ({ id: c.id, name: c.name }));
    const renamed = list.map((c) => (c.name === 'Dessert' ? { ...c, name: 'Sweets' } : c));
    await expect(client.call('tables.saveCourses', { courses: renamed })).rejects.toMatchObject({ code: 'needs_manager' });
    expect(await courseNames()).toEqual(DEFAULTS);
    await client.call('tables.saveCourses', { courses: renamed, managerPin: STAFF.manager.pin });
    expect(await courseNames()).toEqual(['Drinks', 'Starters', 'Mains', 'Sweets']);
  });
});
