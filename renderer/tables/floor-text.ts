// The floor's words: what a table's tile and sheet say about its state. Pure, so they are tested
// apart from the screen.
import type { TableState, TableView } from '../../bridge/tables/contract';
import { tableKey, tableQueryKeys } from '../../bridge/tables/names';
import { formatAge } from '../lib/format';

export const STATE_NAMES: Readonly<Record<TableState, string>> = {
  free: 'Free',
  seated: 'Seated',
  check_printed: 'Check printed',
  paid: 'Paid',
  needs_clearing: 'Needs clearing',
};

/** "8 guests · 42 min", "4 seats", "cleared 3 min ago": the second line of a table's tile. */
export function tableDetail(table: TableView, now: number): string {
  if (table.state === 'free') return `${table.seats} ${table.seats === 1 ? 'seat' : 'seats'}`;
  if (table.state === 'needs_clearing') return table.closedAt ? `closed ${formatAge(now - Date.parse(table.closedAt))} ago` : '';
  const guests = table.guests === null ? '' : `${table.guests} ${table.guests === 1 ? 'guest' : 'guests'} · `;
  return `${guests}${table.seatedAt ? formatAge(now - Date.parse(table.seatedAt)) : ''}`;
}

/** What the floor's "go to table" field finds: the table named so (bridge/tables/names.ts: "t12" is 12 unless a table is called T12). */
export function findTable(tables: readonly TableView[], typed: string): TableView | undefined {
  for (const key of tableQueryKeys(typed)) {
    const found = tables.find((t) => tableKey(t.name) === key);
    if (found) return found;
  }
  return undefined;
}
