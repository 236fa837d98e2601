// One matching rule for the menu, used by the register's instant search (renderer) and by the
// core's menu.search, so both agree on what "matches" means.
import type { MenuItem } from './contract';

/** Lowercased, accent-free text: "Crème brûlée" matches "creme". */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export interface SearchableItem {
  item: MenuItem;
  /** Folded name + description, computed once per menu snapshot. */
  haystack: string;
}

export function indexMenu(items: readonly MenuItem[]): SearchableItem[] {
  return items.map((item) => ({ item, haystack: foldForSearch(`${item.name} ${item.description}`) }));
}

/**
 * Items in `categoryId` (all when null) whose text contains every word of `query`, or whose id
 * equals the query: shelf and menu labels carry the item id as their barcode, and a scanner types
 * the whole code followed by Enter.
 */
export function searchMenu(index: readonly SearchableItem[], query: string, categoryId: string | null): MenuItem[] {
  const trimmed = query.trim();
  const words = foldForSearch(trimmed).split(/\s+/).filter(Boolean);
  const out: MenuItem[] = [];
  for (const { item, haystack } of index) {
    if (words.length === 0) {
      if (categoryId === null || item.categoryId === categoryId) out.push(item);
      continue;
    }
    // A search looks across every category: the cashier typed because they could not see it.
    if (item.id === trimmed) out.push(item);
    else if (words.every((word) => haystack.includes(word))) out.push(item);
  }
  return out;
}

/** The item a scanned code (its id) names, if any. */
export function findByBarcode(items: readonly MenuItem[], code: string): MenuItem | undefined {
  const trimmed = code.trim();
  return trimmed === '' ? undefined : items.find((item) => item.id === trimmed);
}
