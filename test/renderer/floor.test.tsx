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
import { fitTile, insideTile, placeMoreInCircle, type TileMeasure } from '../../renderer/tables/tile-fit';
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
    await waitFor(async () => expect((await core().call('tables.floor', {})).tables[0]).toMatchObject({ name: '12', seats: 8, x: 1, y: 0, width: 3, height: 4 }));

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

// What a tile shows when it is too small for all its lines (renderer/tables/tile-fit.ts), with the
// sizes Chromium measures at 1024×768 (test/e2e/tables.test.ts checks the same in the browser).
describe("a table tile's lines", () => {
  const seated = (box: TileMeasure['box'], more: TileMeasure['more'], name = { width: 31, height: 25 }, nameChars = 2, round = false): TileMeasure => ({
    box,
    round,
    nameChars,
    gap: 1,
    name,
    lines: [
      { kind: 'state', width: 54, height: 16 },
      { kind: 'detail', width: 84, height: 15 },
      { kind: 'server', width: 103, height: 15 },
    ],
    more,
  });
  /** Where each line shown lands, as the CSS lays them out (centred, beside the ⋯ when level with it). */
  const layOut = (m: TileMeasure, fit: ReturnType<typeof fitTile>) => {
    const scale = [1, 0.82, 0.68, 0.56][fit.nameStep]!;
    const shown = [{ width: fit.nameWidth ?? m.name.width * scale, height: m.name.height * scale * fit.nameLines }, ...m.lines.filter((l) => !fit.dropped.includes(l.kind))];
    const total = shown.reduce((sum, l) => sum + l.height, 0) + m.gap * (shown.length - 1);
    let top = fit.low ? m.box.height - total : (m.box.height - total) / 2;
    return shown.map((line, i) => {
      const room = i < fit.beside ? m.box.width - fit.reserve : m.box.width;
      const at = { left: (room - line.width) / 2, top, right: (room + line.width) / 2, bottom: top + line.height };
      top += line.height + m.gap;
      return at;
    });
  };
  const clearOf = (a: { left: number; top: number; right: number; bottom: number }, b: NonNullable<TileMeasure['more']>) => a.right <= b.left || a.left >= b.right || a.bottom <= b.top || a.top >= b.bottom;

  it('keeps everything in a tile with room for it, and drops the server, then the short line, then the state of a smaller one', () => {
    // The new table's size (3×3): all four lines, the ⋯ clear of them.
    const big = seated({ width: 111, height: 79 }, { left: 81, top: -2, right: 113, bottom: 30 });
    expect(fitTile(big)).toMatchObject({ dropped: [], nameStep: 0, nameLines: 1, fits: true });
    // A 2×2 tile: the name and the state, under the ⋯ rather than beside it; never the server without the short line.
    const small = seated({ width: 70, height: 48 }, { left: 40, top: -2, right: 72, bottom: 30 });
    const fit = fitTile(small);
    expect(fit).toMatchObject({ dropped: ['detail', 'server'], fits: true });
    for (const at of layOut(small, fit)) {
      expect(insideTile(at, small.box, false)).toBe(true);
      expect(clearOf(at, small.more!)).toBe(true);
    }
    // Flatter still: the name alone, beside its ⋯.
    const flat = seated({ width: 70, height: 30 }, { left: 40, top: -2, right: 72, bottom: 30 });
    expect(fitTile(flat)).toMatchObject({ dropped: ['state', 'detail', 'server'], fits: true });
    expect(layOut(flat, fitTile(flat)).every((at) => clearOf(at, flat.more!))).toBe(true);
  });

  it("breaks a state too wide for one line onto two rather than leaving it out, and leaves it out only where two lines do not fit either", () => {
    // Table 7's tile at 1024×768 (2 cells wide): "Needs clearing" is 124 px on one line, 71 px a word a line.
    const needsClearing = (height: number): TileMeasure => ({
      ...seated({ width: 110, height }, { left: 80, top: -2, right: 112, bottom: 30 }, { width: 15, height: 25 }, 1),
      lines: [
        { kind: 'state', width: 124, height: 16, broken: { width: 71, height: 32 } },
        { kind: 'detail', width: 54, height: 15 },
      ],
    });
    const tall = needsClearing(79);
    const fit = fitTile(tall);
    expect(fit).toMatchObject({ dropped: [], broken: ['state'], fits: true });
    const shown = { ...tall, lines: tall.lines.map((line) => ({ ...line, ...line.broken })) };
    for (const at of layOut(shown, fit)) expect(insideTile(at, tall.box, false) && clearOf(at, tall.more!)).toBe(true);
    // Lower: the short line goes first, the state stays broken.
    expect(fitTile(needsClearing(62))).toMatchObject({ dropped: ['detail'], broken: ['state'] });
    // A state that fits on one line is never broken.
    expect(fitTile(seated({ width: 111, height: 79 }, { left: 81, top: -2, right: 113, bottom: 30 })).broken).toEqual([]);
    // Too low for two lines of it: the name alone.
    expect(fitTile(needsClearing(40))).toMatchObject({ dropped: ['state', 'detail'], broken: [] });
  });

  it('breaks a 12-character name with no space onto two lines rather than letting it run out of its tile, and cuts it by a rule only where two lines do not fit', () => {
    const long = { width: 185, height: 25 };
    const tile = seated({ width: 111, height: 79 }, { left: 81, top: -2, right: 113, bottom: 30 }, long, 12);
    const fit = fitTile(tile);
    expect(fit).toMatchObject({ nameLines: 2, fits: true });
    expect(fit.dropped).not.toContain('state');
    for (const at of layOut(tile, fit)) expect(insideTile(at, tile.box, false) && clearOf(at, tile.more!)).toBe(true);
    // A 2×2 tile beside its ⋯: the name on two lines, cut by its ellipsis (the full name is in the tile's title and name).
    expect(fitTile(seated({ width: 70, height: 48 }, { left: 40, top: -2, right: 72, bottom: 30 }, long, 12))).toMatchObject({ nameLines: 2, fits: false });
    // A short name is never broken: "R1" stays whole, smaller if it must.
    const r1 = fitTile(seated({ width: 70, height: 36 }, { left: 30, top: 2, right: 62, bottom: 34 }, { width: 31, height: 25 }, 2, true));
    expect(r1.nameLines).toBe(1);
  });

  it("keeps a round tile's words and its ⋯ inside its circle", () => {
    const round = seated({ width: 111, height: 79 }, { left: 64, top: 11, right: 96, bottom: 43 }, { width: 31, height: 25 }, 2, true);
    const fit = fitTile(round);
    expect(fit.dropped).not.toContain('state');
    for (const at of layOut(round, fit)) expect(insideTile(at, round.box, true) && clearOf(at, round.more!)).toBe(true);
    // The ⋯ (32×32) inside the ellipse of 2×2 and 3×3 round tiles, at 1024×768 and squeezed by a long "Your tables".
    for (const cell of [
      { width: 78, height: 56 },
      { width: 78, height: 44 },
      { width: 119, height: 87 },
      { width: 119, height: 68 },
      { width: 218, height: 117 },
    ]) {
      const { top, right } = placeMoreInCircle(cell, { width: 32, height: 32 });
      const [rx, ry] = [cell.width / 2 - 2, cell.height / 2 - 2];
      for (const x of [cell.width - right - 32, cell.width - right]) {
        for (const y of [top, top + 32]) expect(((x - cell.width / 2) / rx) ** 2 + ((y - cell.height / 2) / ry) ** 2, `${cell.width}×${cell.height}`).toBeLessThanOrEqual(1);
      }
    }
  });
});
