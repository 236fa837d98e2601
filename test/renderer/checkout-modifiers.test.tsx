// @vitest-environment happy-dom
// The modifier chooser: each group says its rule once (what is missing until it is met), a
// required group keeps "Add" disabled with one short line by it naming what to choose, a full
// group takes no more, the note is capped, and the keyboard (Space on a choice, Enter to add,
// Escape to cancel) does it all.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ModifierDialog } from '../../renderer/components/ModifierDialog';
import type { LineChoice } from '../../renderer/lib/ticket';
import { BURGER as burger } from './order-fixtures';

afterEach(cleanup);

function open(initial: LineChoice = { modifierIds: [], note: '' }, editing = false) {
  const done: LineChoice[] = [];
  let closed = 0;
  render(<ModifierDialog item={burger} currency="usd" initial={initial} editing={editing} onDone={(choice) => done.push(choice)} onClose={() => (closed += 1)} />);
  return { done, closed: () => closed, dialog: screen.getByRole('dialog') };
}

const group = (name: string) => screen.getByRole('group', { name: new RegExp(`^${name}`) });

describe('ModifierDialog', () => {
  it('keeps Add disabled while a required group is empty, says so next to it, and adds once chosen', () => {
    const { done } = open();
    const add = screen.getByTestId('modifier-done') as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    // Said once in the group, and once by Add: not "Choose 1", "Required: choose 1" and "(required: choose 1)" again.
    expect(group('Size').querySelector('legend')?.textContent).toBe('Size Required: choose 1');
    expect(group('Size').textContent?.match(/choose 1/gi)).toHaveLength(1);
    const summary = screen.getByText('Choose Size to add it.');
    expect(summary.getAttribute('role')).toBe('status');
    expect(add.getAttribute('aria-describedby')).toBe(summary.id);
    expect(screen.getByRole('dialog').textContent?.match(/choose 1/gi)).toHaveLength(1);
    fireEvent.click(add);
    expect(done).toEqual([]);
    fireEvent.click(screen.getByLabelText('Large +$3.00'));
    expect(add.disabled).toBe(false);
    expect(group('Size').querySelector('legend')?.textContent).toBe('Size Choose 1'); // met: the rule
    expect(screen.queryByText(/to add it/)).toBeNull();
    fireEvent.change(screen.getByLabelText(/Note for the kitchen/), { target: { value: '  no onions ' } });
    fireEvent.click(add);
    expect(done).toEqual([{ modifierIds: ['m_large'], note: 'no onions' }]);
  });

  it('swaps a single choice, and takes no third sauce in "Up to 2" until one is unticked', () => {
    const { done } = open();
    fireEvent.click(screen.getByLabelText('Small'));
    fireEvent.click(screen.getByLabelText('Large +$3.00'));
    expect((screen.getByLabelText('Small') as HTMLInputElement).checked).toBe(false);
    expect(within(group('Sauces')).getByText('Up to 2')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('BBQ +$0.50'));
    fireEvent.click(screen.getByLabelText('Mayo'));
    const chili = screen.getByLabelText('Chili +$0.50') as HTMLInputElement;
    expect(chili.disabled).toBe(true);
    fireEvent.click(chili);
    fireEvent.click(screen.getByLabelText('Mayo'));
    expect(chili.disabled).toBe(false);
    fireEvent.click(chili);
    fireEvent.click(screen.getByLabelText('Bacon +$2.00')); // an extra: in no group
    fireEvent.click(screen.getByTestId('modifier-done'));
    expect(done).toEqual([{ modifierIds: ['m_large', 'm_bbq', 'm_chili', 'm_bacon'], note: '' }]);
  });

  it('counts the note against its 140 characters and refuses a longer one next to the field, cutting nothing', () => {
    const { done } = open({ modifierIds: ['m_small'], note: '' }, true);
    const note = screen.getByLabelText(/Note for the kitchen/) as HTMLInputElement;
    fireEvent.change(note, { target: { value: 'no onions' } });
    expect(screen.getByLabelText('Note for the kitchen (9/140)')).toBe(note);
    fireEvent.change(note, { target: { value: 'x'.repeat(141) } });
    fireEvent.click(screen.getByRole('button', { name: /^Save/ }));
    expect(document.getElementById(note.getAttribute('aria-describedby') ?? '')?.textContent).toBe('A note is at most 140 characters (this one has 141).');
    expect(note.value).toHaveLength(141);
    expect(done).toEqual([]);
  });

  it('works from the keyboard: Enter on a choice adds, Escape cancels', () => {
    const { done, closed, dialog } = open();
    const large = screen.getByLabelText('Large +$3.00');
    fireEvent.keyDown(large, { key: 'Enter' });
    expect(done).toEqual([]); // Size is still empty
    fireEvent.click(large); // Space on a focused radio is a click
    fireEvent.keyDown(large, { key: 'Enter' });
    expect(done).toEqual([{ modifierIds: ['m_large'], note: '' }]);
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(closed()).toBe(1);
  });

  it('focuses the first choice when it opens, and changing a line starts from its choices', () => {
    open({ modifierIds: ['m_large', 'm_mayo'], note: 'well done' }, true);
    expect(document.activeElement).toBe(screen.getByLabelText('Small'));
    expect((screen.getByLabelText('Large +$3.00') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Mayo') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText(/Note for the kitchen/) as HTMLInputElement).value).toBe('well done');
    expect(screen.getByRole('heading').textContent).toBe('Change Burger');
  });
});
