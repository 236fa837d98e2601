// The words of a table's tile (renderer/tables/floor-text.ts): short enough for the smallest tile at
// 1024×768 whatever the clock says (the floor's e2e screenshots check the pixels), and in full words
// in the tile's name.
import { describe, expect, it } from 'vitest';
import type { TableView } from '../../bridge/tables/contract';
import { compactAge, serverOnTile, tableTile } from '../../renderer/tables/floor-text';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-11-27T08:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

function table(over: Partial<TableView>): TableView {
  return { id: 't1', sectionId: 's1', name: '1', seats: 4, shape: 'square', x: 0, y: 0, width: 3, height: 3, state: 'free', checks: [], guests: null, seatedAt: null, server: null, closedAt: null, ...over };
}

describe("a tile's age", () => {
  it('says minutes, then hours and minutes, then hours, then days', () => {
    expect(compactAge(0)).toBe('<1m');
    expect(compactAge(59_999)).toBe('<1m');
    expect(compactAge(MINUTE)).toBe('1m');
    expect(compactAge(59 * MINUTE + 59_999)).toBe('59m');
    expect(compactAge(HOUR)).toBe('1h 0m');
    expect(compactAge(HOUR + 40 * MINUTE)).toBe('1h 40m');
    expect(compactAge(10 * HOUR - 1)).toBe('9h 59m');
    expect(compactAge(19 * HOUR + 9 * MINUTE)).toBe('19h');
    expect(compactAge(DAY - 1)).toBe('23h');
    expect(compactAge(2 * DAY + 5 * HOUR)).toBe('2d');
    expect(compactAge(400 * DAY)).toBe('400d');
    // A clock a little behind the core's: never a negative age.
    expect(compactAge(-5_000)).toBe('<1m');
  });

  it('is at most 6 characters for every minute from none to a month', () => {
    const longest = { text: '', minutes: 0 };
    for (let minutes = 0; minutes <= 31 * 24 * 60; minutes++) {
      const text = compactAge(minutes * MINUTE + 30_000);
      if (text.length > longest.text.length) Object.assign(longest, { text, minutes });
    }
    expect(longest.text.length).toBeLessThanOrEqual(6);
  });
});

describe("a tile's words", () => {
  it('a table waiting to be cleared: how long on the tile, the whole sentence in its name', () => {
    const tile = tableTile(table({ state: 'needs_clearing', closedAt: ago(19 * HOUR + 9 * MINUTE) }), NOW);
    expect(tile).toEqual({ guests: null, detail: '19h ago', server: null, label: 'Table 1, Needs clearing, closed 19 h 9 min ago' });
    expect(tableTile(table({ state: 'needs_clearing', closedAt: ago(3 * DAY) }), NOW).detail).toBe('3d ago');
    expect(tableTile(table({ state: 'needs_clearing', closedAt: ago(20_000) }), NOW).detail).toBe('<1m ago');
    expect(tableTile(table({ state: 'needs_clearing', closedAt: null }), NOW)).toMatchObject({ detail: '', label: 'Table 1, Needs clearing' });
  });

  it('a seated table: its guests and minutes short, its server by first name and initial; in full in its name', () => {
    const server = { id: 'st1', name: 'Maximiliana Papadopoulou-Whitfield' };
    const tile = tableTile(table({ name: '12', state: 'seated', guests: 99, seatedAt: ago(HOUR + 40 * MINUTE), server }), NOW);
    expect(tile).toEqual({ guests: 99, detail: '1h 40m', server: 'Maximiliana P.', label: 'Table 12, Seated, 99 guests, seated 1 h 40 min ago, Maximiliana Papadopoulou-Whitfield' });
    expect(tableTile(table({ state: 'paid', guests: 1, seatedAt: ago(5 * MINUTE) }), NOW)).toMatchObject({ guests: 1, detail: '5m', label: 'Table 1, Paid, 1 guest, seated 5 min ago' });
    expect(tableTile(table({ state: 'check_printed', guests: null, seatedAt: null }), NOW)).toMatchObject({ guests: null, detail: '', label: 'Table 1, Check printed' });
  });

  it('a free table: its seats', () => {
    expect(tableTile(table({ seats: 1 }), NOW)).toMatchObject({ detail: '1 seat', label: 'Table 1, Free, 1 seat' });
    expect(tableTile(table({ seats: 40 }), NOW).detail).toBe('40 seats');
  });

  it('names a server by first name and the initial of the last', () => {
    expect(serverOnTile('Olive Owner')).toBe('Olive O.');
    expect(serverOnTile('  Carl  ')).toBe('Carl');
    expect(serverOnTile('Ana María de la Cruz')).toBe('Ana C.');
    expect(serverOnTile('Élodie émile')).toBe('Élodie É.');
  });
});
