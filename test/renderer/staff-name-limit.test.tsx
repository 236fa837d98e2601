// @vitest-environment happy-dom
// A staff member's name past what the till takes (60 characters) is said next to the field, never
// cut without a word: a paste of 10,000 characters on the Staff screen is named at the field, and
// the core's refusal of it lands under the same field, with nobody added.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Staff } from '../../renderer/screens/Staff';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();

describe('a staff name too long', () => {
  it('is said at the field when it reaches 60 characters, and refused there by the core, adding no one', async () => {
    const client = await withCore(undefined, undefined, { signIn: 'owner' });
    renderWith(client, <Staff />);
    await waitFor(() => expect(screen.getAllByTestId('staff-row')).toHaveLength(4));
    const form = within(screen.getByRole('form', { name: 'Add a staff member' }));
    const name = form.getByLabelText('Name');
    expect(name.getAttribute('maxlength')).toBe('60');
    fireEvent.change(name, { target: { value: 'x'.repeat(10_000) } });
    const described = () => (name.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id));
    const notes = () => described().map((note) => note?.textContent);
    expect(notes()).toContain('A name can be at most 60 characters: anything past that is not taken.');
    expect(described().some((note) => note?.getAttribute('role') === 'alert')).toBe(false);
    fireEvent.change(form.getByLabelText('PIN'), { target: { value: '2580' } });
    fireEvent.change(form.getByLabelText('PIN again'), { target: { value: '2580' } });
    fireEvent.click(form.getByRole('button', { name: 'Add staff member' }));
    const refusal = () => described().find((note) => note?.getAttribute('role') === 'alert')?.textContent;
    await waitFor(() => expect(refusal()).toMatch(/at most 60 characters/));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect((await core().call('staff.list', {})).length).toBe(4);
  });
});
