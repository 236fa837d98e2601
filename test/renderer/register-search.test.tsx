// @vitest-environment happy-dom
// The register's search box against a real core: Enter adds exactly the item shown highlighted,
// says so when that item is sold out, and a scanned code adds the item with that barcode / PLU or
// says it is unknown, next to the box, keeping what was typed.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MenuSnapshot } from '../../bridge/contract';
import { createBridgeClient, type BridgeClient } from '../../renderer/lib/bridge-client';
import { BridgeContext } from '../../renderer/lib/hooks';
import { emptyTicket, type Ticket } from '../../renderer/lib/ticket';
import { Register } from '../../renderer/screens/Register';
import { ITEMS, startTestCore, type TestCore } from '../core/fixtures';

let t: TestCore;
afterEach(async () => {
  cleanup();
  await t?.core.shutdown();
});

function RegisterWithTicket({ menu }: { menu: MenuSnapshot }) {
  const [ticket, setTicket] = useState<Ticket>(emptyTicket);
  return <Register menu={menu} ticket={ticket} setTicket={(update) => setTicket(update)} order={null} active />;
}

/** A core whose menu has "Garlic knots" 86'd and "Garlic toast" on sale (knots first: the menu is in name order). */
async function renderRegister(prepare: (client: BridgeClient) => Promise<unknown> = async () => undefined) {
  t = await startTestCore();
  const client = createBridgeClient({ invoke: (request) => t.core.invoke(request), onEvent: (listener) => t.core.subscribe(listener) });
  const knots = await client.call('menu.createItem', { name: 'Garlic knots', price: 650, categoryId: 'cat_mains' });
  await client.call('menu.setAvailable', { id: knots.id, available: false });
  await client.call('menu.createItem', { name: 'Garlic toast', price: 500, categoryId: 'cat_mains' });
  await prepare(client);
  const menu = await client.call('menu.snapshot', {});
  render(
    <BridgeContext.Provider value={client}>
      <RegisterWithTicket menu={menu} />
    </BridgeContext.Provider>,
  );
  const box = screen.getByLabelText('Search the menu or scan a barcode') as HTMLInputElement;
  return { box, menu };
}

function type(box: HTMLInputElement, text: string) {
  fireEvent.change(box, { target: { value: text } });
}

async function pressEnter(box: HTMLInputElement) {
  await act(async () => {
    fireEvent.keyDown(box, { key: 'Enter' });
  });
}

const ticketNames = () => screen.queryAllByText((_, el) => el?.classList.contains('line-name') ?? false).map((el) => el.textContent);

/** The message the search box points at (aria-describedby): what "next to the box" means to a screen reader too. */
function messageNextToBox(box: HTMLInputElement): string {
  const ids = (box.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim();
}

describe('register search box', () => {
  it('Enter on a sold-out best match says it is sold out and adds nothing, not the next item', async () => {
    const { box } = await renderRegister();
    type(box, 'garlic');
    await pressEnter(box);
    expect(ticketNames()).toEqual([]);
    expect(messageNextToBox(box)).toMatch(/^Garlic knots is sold out/);
    expect(screen.getByRole('alert').textContent).toMatch(/^Garlic knots is sold out/);
    expect(box.value).toBe('garlic');
  });

  it('highlights the item Enter adds, and Enter adds exactly that one', async () => {
    const { box, menu } = await renderRegister();
    type(box, 'toast');
    const toast = menu.items.find((i) => i.name === 'Garlic toast')!;
    expect(document.querySelector('.tile-next')?.getAttribute('data-item-id')).toBe(toast.id);
    expect(messageNextToBox(box)).toMatch(/Enter adds Garlic toast/);
    await pressEnter(box);
    expect(ticketNames()).toEqual(['Garlic toast']);
    expect(box.value).toBe('');
  });

  it('says "No item with barcode …" next to the box for an unknown code, keeps it, and adds nothing', async () => {
    const { box } = await renderRegister();
    type(box, '4006381333931');
    await pressEnter(box);
    expect(ticketNames()).toEqual([]);
    expect(messageNextToBox(box)).toMatch(/^No item with barcode 4006381333931/);
    expect(box.value).toBe('4006381333931');
    // Kept selected, so the next scan replaces it rather than adding digits to it.
    expect([box.selectionStart, box.selectionEnd]).toEqual([0, 13]);
    // Typing again clears the message.
    type(box, 'garl');
    expect(messageNextToBox(box)).not.toMatch(/No item with barcode/);
  });

  it('a scan adds the item with that barcode or PLU; an item id is not a barcode', async () => {
    const { box } = await renderRegister(async (client) => {
      await client.call('menu.updateItem', { id: ITEMS.fries, changes: { barcode: '0012345678905' } });
      await client.call('menu.updateItem', { id: ITEMS.soup, changes: { barcode: 'S7' } });
    });
    type(box, '0012345678905');
    await pressEnter(box);
    type(box, 's7');
    await pressEnter(box);
    await waitFor(() => expect(ticketNames()).toEqual(['Fries', 'Soup of the day']));
    type(box, ITEMS.burger);
    await pressEnter(box);
    expect(ticketNames()).toEqual(['Fries', 'Soup of the day']);
  });
});
