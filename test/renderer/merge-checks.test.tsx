// @vitest-environment happy-dom
// Merging checks from a table's sheet (docs/tables.md, "Merging checks"), on a real core: a server
// merges table 14's check into table 12's; both are someone else's, so the sheet asks for a
// manager's PIN, says a wrong one next to the field and clears it, and merges with the right one;
// the floor follows (table 12 seats both parties, table 14 has no open check).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Order } from '../../bridge/contract';
import { SessionProvider } from '../../renderer/lib/session';
import { FloorScreen } from '../../renderer/tables/FloorScreen';
import { ITEMS, signIn, STAFF } from '../core/fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();

describe('merging checks from a table’s sheet', () => {
  it('merges table 14’s check into table 12’s with a manager’s PIN, a wrong PIN said at its field, and the floor follows', async () => {
    const client = await withCore({}, undefined, { signIn: 'owner', openShift: false });
    const section = (await core().call('tables.saveSection', { name: 'Main' })).sections[0]!.id;
    await core().call('tables.saveTable', { sectionId: section, name: '12', seats: 4, shape: 'square', x: 0, y: 0, width: 2, height: 2 });
    await core().call('tables.saveTable', { sectionId: section, name: '14', seats: 4, shape: 'square', x: 4, y: 0, width: 2, height: 2 });
    await signIn(core().core, 'cashier');
    const twelve = await core().call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }], service: { type: 'dine_in', table: '12', guests: 2 } });
    const fourteen = await core().call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 3 }], service: { type: 'dine_in', table: '14', guests: 3 } });
    await signIn(core().core, 'cashier2');
    renderWith(
      client,
      <SessionProvider>
        <FloorScreen currency="usd" onStart={vi.fn()} onOpen={vi.fn<(order: Order) => void>()} />
      </SessionProvider>,
    );

    fireEvent.click(await screen.findByRole('button', { name: 'Table 14: checks and actions' }));
    const sheet = within(await screen.findByRole('dialog'));
    fireEvent.click(sheet.getByRole('button', { name: `Merge ${fourteen.label} into another check` }));
    const into = await sheet.findByLabelText(`Merge ${fourteen.label} into`);
    expect([...(into as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([`${twelve.label} · table 12 · ${STAFF.cashier.name}`]);
    const merge = sheet.getByRole('button', { name: 'Merge' }) as HTMLButtonElement;
    expect(merge.disabled).toBe(true); // waits for the manager's PIN

    const pin = sheet.getByLabelText(/PIN/) as HTMLInputElement;
    fireEvent.change(pin, { target: { value: STAFF.cashier.pin } });
    fireEvent.click(merge);
    await waitFor(() => expect(document.getElementById(pin.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/That PIN is not right/));
    expect(pin.value).toBe('');
    expect((await core().call('orders.get', { id: fourteen.id })).status).toBe('open');

    fireEvent.change(pin, { target: { value: STAFF.manager.pin } });
    fireEvent.click(merge);
    expect((await sheet.findByRole('status')).textContent).toBe(`${fourteen.label} is merged into ${twelve.label}.`);
    const merged = await core().call('orders.get', { id: twelve.id });
    expect(merged.lines.map((l) => [l.name, l.quantity])).toEqual([
      ['Burger', 2],
      ['Fries', 3],
    ]);
    expect((await core().call('orders.get', { id: fourteen.id })).mergedInto).toEqual({ id: twelve.id, label: twelve.label });
    await waitFor(() => expect(screen.getByTestId('table-12').textContent).toMatch(/5 guests/));
    await waitFor(() => expect(screen.getByTestId('table-14').textContent).not.toMatch(/Seated/));
  });
});
