import { describe, expect, it } from 'vitest';
import type { MenuItem } from '../../bridge/contract';
import { indexMenu, searchMenu } from '../../bridge/menu-search';
import { parseEventFrames } from '../../renderer/lib/bridge-client';
import { formatAge, parseAmount, toAmountText } from '../../renderer/lib/format';
import { addItem, changeQuantity, emptyTicket, priceTicket, toggleModifier, toLineInputs } from '../../renderer/lib/ticket';

const burger: MenuItem = {
  id: 'mi_b',
  name: 'Burger',
  price: 1200,
  categoryId: 'cat_m',
  description: 'beef',
  available: true,
  lowStock: false,
  modifiers: [{ id: 'mod_c', name: 'Cheese', price: 150 }],
  modifierGroups: [],
  taxClass: 'standard',
  barcode: null,
};
const brulee: MenuItem = { ...burger, id: 'mi_cb', name: 'Crème brûlée', categoryId: 'cat_d', description: '', modifiers: [] };

describe('ticket', () => {
  it('adds, merges plain lines, toggles modifiers and totals with them', () => {
    let t = addItem(emptyTicket, burger);
    t = addItem(t, burger);
    expect(t.lines).toHaveLength(1);
    expect(t.lines[0]?.quantity).toBe(2);
    t = toggleModifier(t, t.selectedKey as string, 'mod_c');
    t = addItem(t, burger); // the first line has a modifier now: a new plain line
    expect(t.lines).toHaveLength(2);
    const byId = new Map([[burger.id, burger]]);
    expect(priceTicket(t, byId, { taxIncluded: false, rounding: 'per_line', rates: [] }, 'usd').check?.total).toBe(2 * 1350 + 1200);
    t = changeQuantity(t, t.lines[1]?.key as string, -1);
    expect(t.lines).toHaveLength(1);
    expect(toLineInputs(t)).toEqual([{ menuItemId: 'mi_b', quantity: 2, modifierIds: ['mod_c'], note: '', discount: null }]);
  });
});

describe('menu search', () => {
  const index = indexMenu([burger, brulee]);
  it('folds accents, needs every word, and spans categories (codes: menu-search.test.ts)', () => {
    expect(searchMenu(index, 'creme', null).map((i) => i.id)).toEqual(['mi_cb']);
    expect(searchMenu(index, 'bur beef', null).map((i) => i.id)).toEqual(['mi_b']);
    expect(searchMenu(index, 'burger', 'cat_d').map((i) => i.id)).toEqual(['mi_b']);
    expect(searchMenu(index, '', 'cat_d').map((i) => i.id)).toEqual(['mi_cb']);
  });
});

describe('formatting and parsing', () => {
  it('parses typed amounts into minor units and refuses nonsense', () => {
    expect(parseAmount('12.5')).toBe(1250);
    expect(parseAmount('1,5')).toBe(150);
    expect(parseAmount('$1,5')).toBeNull(); // nothing typed is dropped: see amount-input.test.ts
    expect(parseAmount('7')).toBe(700);
    expect(parseAmount('1000', 0)).toBe(1000);
    expect(parseAmount('1.234')).toBeNull();
    expect(parseAmount('abc')).toBeNull();
    expect(toAmountText(1250)).toBe('12.50');
    expect(formatAge(45_000)).toBe('45 s');
    expect(formatAge(3 * 60_000)).toBe('3 min');
    expect(formatAge(125 * 60_000)).toBe('2 h 5 min');
  });

  it('splits an event stream into frames and keeps a partial one', () => {
    const { events, rest } = parseEventFrames(': hi\n\nevent: sync.status\ndata: {"pending":2}\n\nevent: menu.changed\ndata: {}\n\nevent: orders.ch');
    expect(events).toEqual([
      { event: 'sync.status', payload: { pending: 2 } },
      { event: 'menu.changed', payload: {} },
    ]);
    expect(rest).toBe('event: orders.ch');
  });
});
