// @vitest-environment happy-dom
// The menu manager's "Barcode / PLU" field against a real core: a code is saved and cleared, a
// scanner's Enter fills the field without saving the form, and a malformed or taken code is
// refused next to the field with nothing saved.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MenuSnapshot } from '../../bridge/contract';
import { type BridgeClient } from '../../renderer/lib/bridge-client';
import { BridgeContext } from '../../renderer/lib/hooks';
import { MenuManager } from '../../renderer/screens/MenuManager';
import { ITEMS } from '../core/fixtures';
import { coreForEachTest } from './with-core';

const { start: withCore } = coreForEachTest();

function renderManager(client: BridgeClient, menu: MenuSnapshot) {
  render(
    <BridgeContext.Provider value={client}>
      <MenuManager menu={menu} />
    </BridgeContext.Provider>,
  );
}

function openEditor(itemId: string): HTMLInputElement {
  const row = document.querySelector(`tr[data-item-id="${itemId}"]`) as HTMLElement;
  fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
  return screen.getByLabelText('Barcode / PLU') as HTMLInputElement;
}

/** The alert the field points at (aria-describedby), if any. */
function fieldError(input: HTMLElement): string | null {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
  const alert = ids.map((id) => document.getElementById(id)).find((note) => note?.getAttribute('role') === 'alert');
  return alert?.textContent ?? null;
}

const barcodeOf = async (client: BridgeClient, id: string) => (await client.call('menu.snapshot', {})).items.find((i) => i.id === id)?.barcode;

describe('menu manager: Barcode / PLU', () => {
  it('saves a scanned barcode (the scanner’s Enter does not save the form), then clears it', async () => {
    const client = await withCore();
    renderManager(client, await client.call('menu.snapshot', {}));
    const field = openEditor(ITEMS.fries);
    expect(field.value).toBe('');
    fireEvent.change(field, { target: { value: '0012345678905' } });
    // A scanner ends its code with Enter: that fills the field, it must not submit half a form.
    expect(fireEvent.keyDown(field, { key: 'Enter' })).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByLabelText('Barcode / PLU')).toBeNull());
    expect(await barcodeOf(client, ITEMS.fries)).toBe('0012345678905');

    cleanup();
    renderManager(client, await client.call('menu.snapshot', {}));
    const again = openEditor(ITEMS.fries);
    expect(again.value).toBe('0012345678905');
    fireEvent.change(again, { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByLabelText('Barcode / PLU')).toBeNull());
    expect(await barcodeOf(client, ITEMS.fries)).toBeNull();
  });

  it('refuses a malformed code and a code another item has, next to the field, and saves nothing', async () => {
    const client = await withCore();
    await client.call('menu.updateItem', { id: ITEMS.burger, changes: { barcode: '4011' } });
    renderManager(client, await client.call('menu.snapshot', {}));
    const field = openEditor(ITEMS.fries);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Skinny fries' } });
    fireEvent.change(field, { target: { value: 'ABC-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fieldError(field)).toBe('A barcode is digits only (up to 14); a PLU is up to 6 letters and digits, with at least one digit.'));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(field, { target: { value: '4011' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fieldError(field)).toBe('Burger already has barcode / PLU 4011. Give this item another code, or clear it on Burger first.'));
    expect(field.value).toBe('4011');
    const fries = (await client.call('menu.snapshot', {})).items.find((i) => i.id === ITEMS.fries);
    expect(fries).toMatchObject({ name: 'Fries', barcode: null });
  });
});
