// @vitest-environment happy-dom
// The Tables screen (issue 25) through a real core: a manager lays out the floor (a section, a table
// named and moved by keyboard, a taken name refused next to its field); a free table asks for the
// guests once and starts its check; a seated one opens its check; the "go to table" field finds
// "t12"; a check moves to another table from its sheet; a table whose check closed is cleared.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Order } from '../../bridge/contract';
import { SessionProvider } from '../../renderer/lib/session';
import { FloorScreen } from '../../renderer/tables/FloorScreen';
import { ITEMS, STAFF } from '../core/fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();

async function floorWithTable12(): Promise<{ tableId: string }> {
  const floor = await core().call('tables.saveSection', { name: 'Main' });
  const next = await core().call('tables.saveTable', { sectionId: floor.sections[0]!.id, name: '12', seats: 8, shape: 'rect', x: 0, y: 0, width: 4, height: 2 });
  return { tableId: next.tables[0]!.id };
}

function renderFloor(client: Parameters<typeof renderWith>[0]) {
  const onStart = vi.fn<(table: string, guests: number) => void>();
  const onOpen = vi.fn<(order: Order) => void>();
  renderWith(
    client,
    <SessionProvider>
      <FloorScreen currency="usd" onStart={onStart} onOpen={onOpen} />
    </SessionProvider>,
  );
  return { onStart, onOpen };
}

describe('the floor', () => {
  it('lets a manager lay it out: a section, a table named, moved by the arrows, a taken name refused next to its field', async () => {
    const client = await withCore();
    renderFloor(client);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit floor' }));
    fireEvent.change(screen.getByLabelText('New section'), { target: { value: 'Main' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add section' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add a table to Main' }));
    const tile = await screen.findByTestId('edit-table-1');
    fireEvent.click(tile);
    const panel = within(screen.getByRole('complementary', { name: 'Table' }));
    fireEvent.change(panel.getByLabelText('Name'), { target: { value: '12' } });
    fireEvent.change(panel.getByLabelText('Seats'), { target: { value: '8' } });
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    await screen.findByTestId('edit-table-12');
    fireEvent.keyDown(screen.getByTestId('edit-table-12'), { key: 'ArrowRight' });
    fireEvent.keyDown(screen.getByTestId('edit-table-12'), { key: 'ArrowDown', shiftKey: true });
    await waitFor(async () => expect((await core().call('tables.floor', {})).tables[0]).toMatchObject({ name: '12', seats: 8, x: 1, y: 0, width: 2, height: 3 }));

    // A second table may not take the first one's name: said at the name field, nothing saved.
    fireEvent.click(panel.getByRole('button', { name: 'Add a table to Main' }));
    fireEvent.click(await screen.findByTestId('edit-table-2'));
    fireEvent.change(panel.getByLabelText('Name'), { target: { value: '12' } });
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    const name = panel.getByLabelText('Name');
    await waitFor(() => expect(document.getElementById(name.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/already called 12/));
    expect((await core().call('tables.floor', {})).tables.map((t) => t.name).sort()).toEqual(['12', '2']);
  });

  it("seats a free table with the guests asked once, opens a seated one’s check, finds \"t12\", moves a check to another table and gives it to another server, closes a paid check and clears its table in one press, and clears one closed elsewhere", async () => {
    const client = await withCore();
    const { tableId } = await floorWithTable12();
    const { onStart, onOpen } = renderFloor(client);

    fireEvent.click(await screen.findByTestId('table-12'));
    const seat = within(await screen.findByRole('dialog'));
    fireEvent.change(seat.getByLabelText('How many guests?'), { target: { value: '0' } });
    fireEvent.click(seat.getByRole('button', { name: 'Start the check' }));
    expect(await seat.findByRole('alert')).toHaveProperty('textContent', 'Enter a whole number from 1 to 99.');
    expect(onStart).not.toHaveBeenCalled();
    fireEvent.change(seat.getByLabelText('How many guests?'), { target: { value: '8' } });
    fireEvent.click(seat.getByRole('button', { name: 'Start the check' }));
    expect(onStart).toHaveBeenCalledWith('12', 8);

    const order = await core().call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }], service: { type: 'dine_in', table: '12', guests: 8 } });
    await waitFor(() => expect(screen.getByTestId('table-12').textContent).toMatch(/Seated.*8 guests/));
    fireEvent.click(screen.getByTestId('table-12'));
    await waitFor(() => expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: order.id })));

    onOpen.mockClear();
    fireEvent.change(screen.getByLabelText('Table'), { target: { value: 't12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: order.id })));
    fireEvent.change(screen.getByLabelText('Table'), { target: { value: '99' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No table called 99 on the floor.');

    // Moved to table 14 from 12's sheet: its service names 14 now, and 12 is free.
    await core().call('tables.saveTable', { sectionId: (await core().call('tables.floor', {})).sections[0]!.id, name: '14', seats: 4, shape: 'square', x: 6, y: 0, width: 2, height: 2 });
    fireEvent.click(await screen.findByRole('button', { name: 'Table 12: checks and actions' }));
    const sheet = within(await screen.findByRole('dialog'));
    // Given to Carl from its sheet: the check is his now.
    fireEvent.click(sheet.getByRole('button', { name: `Give ${order.label} to another server` }));
    const carl = (await core().call('staff.roster', {})).find((m) => m.name === STAFF.cashier2.name)!;
    fireEvent.change(await sheet.findByLabelText(`Give ${order.label} to`), { target: { value: carl.id } });
    fireEvent.click(sheet.getByRole('button', { name: 'Give it' }));
    await waitFor(() => expect(sheet.getByRole('status').textContent).toBe(`${order.label} is ${STAFF.cashier2.name}’s now.`));
    expect((await core().call('orders.get', { id: order.id })).staff).toEqual(carl);
    fireEvent.click(sheet.getByRole('button', { name: `Move ${order.label} to another table` }));
    fireEvent.change(sheet.getByLabelText(`Move ${order.label} to table`), { target: { value: (await core().call('tables.floor', {})).tables.find((t) => t.name === '14')!.id } });
    fireEvent.click(sheet.getByRole('button', { name: 'Move' }));
    expect((await sheet.findByRole('status')).textContent).toBe(`${order.label} is at table 14 now.`);
    expect((await core().call('orders.get', { id: order.id })).service).toEqual({ type: 'dine_in', table: '14', guests: 8 });
    await waitFor(() => expect(screen.getByTestId('table-14').textContent).toMatch(/Seated/));
    fireEvent.click(sheet.getByRole('button', { name: 'Done' }));
    await core().call('orders.update', { id: order.id, service: { type: 'dine_in', table: '12', guests: 8 } });

    // Paid: one press on its sheet closes the check and clears the table.
    await core().call('payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    await waitFor(() => expect(screen.getByTestId('table-12').textContent).toMatch(/Paid/));
    fireEvent.click(await screen.findByRole('button', { name: 'Table 12: checks and actions' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close the check and clear' }));
    await waitFor(() => expect(screen.getByTestId('table-12').textContent).toMatch(/Free/));
    expect((await core().call('orders.get', { id: order.id })).status).toBe('fulfilled');
    expect((await core().call('tables.floor', {})).tables.find((t) => t.id === tableId)?.state).toBe('free');

    // A check closed elsewhere (Orders): the table needs clearing, and "Table is cleared" frees it.
    const next = await core().call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: { type: 'dine_in', table: '12', guests: 2 } });
    await core().call('payments.take', { orderId: next.id, method: 'cash', amount: next.total });
    await core().call('orders.fulfil', { id: next.id });
    await waitFor(() => expect(screen.getByTestId('table-12').textContent).toMatch(/Needs clearing/));
    fireEvent.click(screen.getByTestId('table-12'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Table is cleared' }));
    await waitFor(() => expect(screen.getByTestId('table-12').textContent).toMatch(/Free/));
  });
});
