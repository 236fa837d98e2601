// What a list page says about the pages after it. The spec's envelope carries links.next and
// meta.total_pages; a page's length and its order say nothing (a server may serve fewer than
// per_page, an empty page that still links on, or newest first), so only the server's word
// decides whether there is more. docs/sync.md, "What the terminal assumes of a server".

export interface PageSignals {
  data: readonly unknown[];
  meta?: { page?: number; total_pages?: number } | undefined;
  links?: { next?: string | null | undefined } | undefined;
}

/**
 * True while the server says there is more after page `page`: links.next, or page < total_pages.
 * A server that sends neither (no envelope beyond data) gets the only reading left: a page with
 * records may have more after it, an empty one ends the list.
 */
export function hasMorePages(list: PageSignals, page: number): boolean {
  if (list.links?.next) return true;
  const totalPages = list.meta?.total_pages;
  if (totalPages !== undefined && page < totalPages) return true;
  if (list.links !== undefined || totalPages !== undefined) return false;
  return list.data.length > 0;
}

/**
 * Whether a page's records can prove where it stands in a keyset walk (created_after the last
 * one seen): at least two records, with creation times, oldest first. A page listed newest first,
 * or one that cannot show its order, is stepped through by page number instead.
 */
export function oldestFirst(createdAt: readonly number[]): boolean {
  if (createdAt.length < 2) return false;
  for (let i = 0; i < createdAt.length; i++) {
    if (Number.isNaN(createdAt[i])) return false;
    if (i > 0 && createdAt[i]! < createdAt[i - 1]!) return false;
  }
  return true;
}

/** The page's newest creation time (NaN when a record carries none): one pass, no spread of a large array. */
export function newestOf(createdAt: readonly number[]): number {
  let newest = Number.NaN;
  for (const t of createdAt) {
    if (Number.isNaN(t)) return Number.NaN;
    if (Number.isNaN(newest) || t > newest) newest = t;
  }
  return newest;
}
