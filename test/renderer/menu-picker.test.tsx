// @vitest-environment happy-dom
// Store mode's "Add items" picks from the register's own MenuPicker, against a real core: an unknown
// barcode is refused in the register's words (with its beep), what was typed kept selected so the next
// scan replaces it; Escape clears the box and leaves the dialog open; Enter on a sold-out best match is
// refused and adds nothing; Enter on a match adds it; ArrowDown goes to the dialog's first tile.
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StoreModeOrder } from '../../bridge/store-mode/contract';
import { AddItemsDialog } from '../../renderer/store-mode/AddItemsDialog';
import { coreForEachTest, renderWith } from './with-core';

const front = coreForEachTest();
afterEach(() => {
  vi.unstubAllGlobals();
});

/** An order of another till with no lines: the dialog only needs what it names and sends with. */
const ORDER: StoreModeOrder = {
  id: 'ord_bar_1',
  number: 'B1',
  label: 'B1',
  serviceType: 'dine_in',
  table: '4',
  customerName: null,
  total: { amount: 0, currency: 'usd' },
  paid: { amount: 0, currency: 'usd' },
  ownerTillId: 'b'.repeat(64),
  ownerTillName: 'Bar',
  reachedCloud: false,
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:00:00.000Z',
  ownerLastHeardAt: null,
  lines: [],
  discount: null,
  discountBase: { amount: 0, currency: 'usd' },
  split: null,
  forwards: [],
};

/** The dialog on a menu with "Garlic knots" 86'd and "Garlic toast" on sale (knots first: the menu is in name order). */
async function openDialog() {
  const client = await front.start();
  const knots = await client.call('menu.createItem', { name: 'Garlic knots', price: 650, categoryId: 'cat_mains' });
  await client.call('menu.setAvailable', { id: knots.id, available: false });
  await client.call('menu.createItem', { name: 'Garlic toast', price: 500, categoryId: 'cat_mains' });
  renderWith(client, <AddItemsDialog order={ORDER} onClose={() => undefined} onSent={() => undefined} />);
  const dialog = await screen.findByRole('dialog', { name: 'Add items to B1 at Bar' });
  const box = (await within(dialog).findByRole('searchbox', { name: 'Search the menu' })) as HTMLInputElement;
  return { dialog, box };
}

function type(box: HTMLInputElement, text: string) {
  fireEvent.change(box, { target: { value: text } });
}

async function pressEnter(box: HTMLInputElement) {
  await act(async () => {
    fireEvent.keyDown(box, { key: 'Enter' });
  });
}

/** The message the search box points at (aria-describedby). */
function messageNextToBox(box: HTMLInputElement): string {
  const ids = (box.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim();
}

const nothingAdded = (dialog: HTMLElement) => expect(within(dialog).queryByRole('list', { name: 'Items to add' })).toBeNull();

/** A stand-in for Web Audio that counts the tones played. */
function countBeeps(): () => number {
  let tones = 0;
  const node = { connect: (next: unknown) => next };
  vi.stubGlobal(
    'AudioContext',
    class {
      currentTime = 0;
      destination = {};
      createOscillator() {
        tones += 1;
        return { ...node, type: 'sine', frequency: { value: 0 }, start: () => undefined, stop: () => undefined };
      }
      createGain() {
        return { ...node, gain: { value: 0 } };
      }
    },
  );
  return () => tones;
}

describe('the Add items dialog picks from the register’s menu picker', () => {
  it('refuses an unknown barcode in the register’s words, with its beep, keeping the code selected for the next scan', async () => {
    const beeps = countBeeps();
    const { dialog, box } = await openDialog();
    type(box, '4006381333931');
    await pressEnter(box);
    nothingAdded(dialog);
    expect(messageNextToBox(box)).toBe('No item with barcode 4006381333931. Check the code, or give the item this barcode / PLU in Menu.');
    expect(within(dialog).getByRole('alert').textContent).toMatch(/^No item with barcode 4006381333931/);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.value).toBe('4006381333931');
    expect([box.selectionStart, box.selectionEnd]).toEqual([0, 13]);
    expect(beeps()).toBe(1);
    // Typing again clears the message.
    type(box, 'garl');
    expect(messageNextToBox(box)).not.toMatch(/No item with barcode/);
  });

  it('clears the box on Escape, message included, and the dialog stays open', async () => {
    const { dialog, box } = await openDialog();
    type(box, '4006381333931');
    await pressEnter(box);
    expect(messageNextToBox(box)).toMatch(/^No item with barcode/);
    // Handled (its default prevented): the dialog's own Escape does not close it.
    expect(fireEvent.keyDown(box, { key: 'Escape' })).toBe(false);
    expect(box.value).toBe('');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Add items to B1 at Bar' })).toBe(dialog);
  });

  it('refuses Enter on a sold-out best match with the register’s message, adding nothing (not the next item)', async () => {
    const { dialog, box } = await openDialog();
    type(box, 'garlic');
    expect(messageNextToBox(box)).toBe('Garlic knots is sold out');
    await pressEnter(box);
    nothingAdded(dialog);
    expect(messageNextToBox(box)).toBe("Garlic knots is sold out (86'd). Offer something else.");
    expect(box.value).toBe('garlic');
    expect([box.selectionStart, box.selectionEnd]).toEqual([0, 6]);
  });

  it('adds the match Enter names, clears the box, and ArrowDown goes to the dialog’s first enabled tile', async () => {
    const { dialog, box } = await openDialog();
    type(box, 'toast');
    expect(messageNextToBox(box)).toBe('Enter adds Garlic toast');
    await pressEnter(box);
    expect(within(dialog).getByLabelText('Garlic toast quantity').textContent).toBe('1');
    expect(box.value).toBe('');

    type(box, 'garlic');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect((document.activeElement as HTMLElement).closest('[role="dialog"], dialog')).toBe(dialog);
    expect(document.activeElement?.textContent).toMatch(/^Garlic toast/);
  });
});
