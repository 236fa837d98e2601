// One matching rule for the menu, used by the register's instant search (renderer) and by the
// core's menu.search, so both agree on what "matches" means and which match is best.
import type { MenuItem } from './contract';

/** Lowercased, accent-free text: "Crème brûlée" matches "creme". */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export interface SearchableItem {
  item: MenuItem;
  /** Folded name, and its words, to rank name matches above description matches. */
  name: string;
  nameWords: string[];
  /** Folded name + description, computed once per menu snapshot. */
  haystack: string;
}

export function indexMenu(items: readonly MenuItem[]): SearchableItem[] {
  return items.map((item) => {
    const name = foldForSearch(item.name);
    return { item, name, nameWords: name.split(/[^\p{L}\p{N}]+/u).filter(Boolean), haystack: `${name} ${foldForSearch(item.description)}` };
  });
}

/** A barcode or PLU as stored (bridge ItemCode): what was typed or scanned, trimmed and upper-cased. */
export function normalizeCode(query: string): string {
  return query.trim().toUpperCase();
}

/** Digits only, six or more: what a scanner types. Such a query names a code, never a dish. */
function isScan(code: string): boolean {
  return /^\d{6,}$/.test(code);
}

/** Lower is better: the code, the whole name, the start of the name, a word's start, inside the name, the description only. */
function rank(entry: SearchableItem, code: string, folded: string, words: readonly string[]): number | null {
  if (entry.item.barcode !== null && entry.item.barcode === code) return 0;
  if (isScan(code) || !words.every((word) => entry.haystack.includes(word))) return null;
  if (entry.name === folded) return 1;
  if (entry.name.startsWith(folded)) return 2;
  if (words.every((word) => entry.nameWords.some((nameWord) => nameWord.startsWith(word)))) return 3;
  if (words.every((word) => entry.name.includes(word))) return 4;
  return 5;
}

/**
 * Items in `categoryId` (all when null, in menu order) when nothing is typed; otherwise the items
 * matching the query across every category (the cashier typed because they could not see it),
 * best first (ties keep menu order): the item whose barcode / PLU is the query, then those whose
 * text holds every word of it.
 */
export function searchMenu(index: readonly SearchableItem[], query: string, categoryId: string | null): MenuItem[] {
  const code = normalizeCode(query);
  const folded = foldForSearch(query.trim()).replace(/\s+/g, ' ');
  const words = folded.split(' ').filter(Boolean);
  if (words.length === 0) return index.filter(({ item }) => categoryId === null || item.categoryId === categoryId).map(({ item }) => item);
  const ranked: { item: MenuItem; rank: number; position: number }[] = [];
  index.forEach((entry, position) => {
    const r = rank(entry, code, folded, words);
    if (r !== null) ranked.push({ item: entry.item, rank: r, position });
  });
  return ranked.sort((a, b) => a.rank - b.rank || a.position - b.position).map(({ item }) => item);
}

export type EnterAction =
  | { kind: 'add'; item: MenuItem }
  | { kind: 'sold_out'; item: MenuItem }
  | { kind: 'unknown_code'; code: string }
  | { kind: 'nothing' };

/**
 * What Enter in the search box does with `matches` (searchMenu's answer for `query`): it acts on
 * the best match, the one the register shows highlighted, and never on another item. Digits that
 * match nothing were a scan (or a PLU) of a code no item has.
 */
export function enterAction(matches: readonly MenuItem[], query: string): EnterAction {
  const best = normalizeCode(query) === '' ? undefined : matches[0];
  if (best) return best.available ? { kind: 'add', item: best } : { kind: 'sold_out', item: best };
  const code = normalizeCode(query);
  return /^\d+$/.test(code) ? { kind: 'unknown_code', code } : { kind: 'nothing' };
}
