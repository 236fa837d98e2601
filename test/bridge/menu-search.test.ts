// The one matching rule of the register's search box and the core's menu.search: best match
// first, a barcode / PLU matched exactly, and Enter acting on the best match only.
import { describe, expect, it } from 'vitest';
import type { MenuItem } from '../../bridge/contract';
import { enterAction, indexMenu, searchMenu } from '../../bridge/menu-search';

function item(id: string, name: string, extra: Partial<MenuItem> = {}): MenuItem {
  return { id, name, price: 500, categoryId: 'cat_a', description: '', available: true, lowStock: false, modifiers: [], modifierGroups: [], taxClass: 'standard', barcode: null, ...extra };
}

// In name order, as the menu snapshot lists them.
const menu = [
  item('mi_bruschetta', 'Bruschetta trio', { description: 'Tomato, garlic, basil' }),
  item('mi_bread', 'Cheesy garlic bread'),
  item('mi_knots', 'Garlic knots', { available: false, barcode: '4006381333931' }),
  item('mi_garlic', 'Garlic'),
  item('mi_toast', 'Garlic toast', { barcode: 'G7' }),
  item('mi_combo', 'Combo 4006381333931 special'),
];
const index = indexMenu(menu);
const ids = (query: string, categoryId: string | null = null) => searchMenu(index, query, categoryId).map((i) => i.id);

describe('searchMenu', () => {
  it('puts the best match first: the whole name, then names starting with it, then a word of the name, then the description', () => {
    expect(ids('garlic')).toEqual(['mi_garlic', 'mi_knots', 'mi_toast', 'mi_bread', 'mi_bruschetta']);
    expect(ids('garlic t')).toEqual(['mi_toast', 'mi_knots', 'mi_bruschetta']);
    expect(ids('knots')).toEqual(['mi_knots']);
  });

  it('matches a barcode or PLU exactly (a PLU in any case), first; a scan-shaped query matches codes only', () => {
    expect(ids('4006381333931')).toEqual(['mi_knots']);
    expect(ids('g7')).toEqual(['mi_toast']);
    // An unknown code does not land on a name that happens to contain its digits.
    expect(ids('400638133393')).toEqual([]);
    expect(ids('mi_toast')).toEqual([]);
  });

  it('lists a category in menu order when nothing is typed', () => {
    expect(ids('', 'cat_a')).toEqual(menu.map((i) => i.id));
    expect(ids('', 'cat_b')).toEqual([]);
  });
});

describe('enterAction', () => {
  const enter = (query: string) => enterAction(searchMenu(index, query, null), query);

  it('adds the best match, or says it is sold out: never another item', () => {
    expect(enter('garlic t')).toEqual({ kind: 'add', item: menu[4] });
    expect(enter('knots')).toEqual({ kind: 'sold_out', item: menu[2] });
    expect(enter('4006381333931')).toEqual({ kind: 'sold_out', item: menu[2] });
  });

  it('names an unknown code, and does nothing for an empty box or a word that matches nothing', () => {
    expect(enter(' 0012345678905 ')).toEqual({ kind: 'unknown_code', code: '0012345678905' });
    expect(enter('42')).toEqual({ kind: 'unknown_code', code: '42' });
    expect(enter('pizza')).toEqual({ kind: 'nothing' });
    expect(enter('  ')).toEqual({ kind: 'nothing' });
  });
});
