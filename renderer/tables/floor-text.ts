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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * An age as a tile says it: "<1m", "42m", "1h 40m" (minutes count while a table may still be
 * served), then "19h", "3d". At most 6 characters whatever the age, so a tile's line fits at the
 * smallest window however long a table waits (the full age is in the tile's name).
 */
export function compactAge(ms: number): string {
  const age = Math.max(0, ms);
  if (age < MINUTE) return '<1m';
  if (age < HOUR) return `${Math.floor(age / MINUTE)}m`;
  if (age < 10 * HOUR) return `${Math.floor(age / HOUR)}h ${Math.floor((age % HOUR) / MINUTE)}m`;
  if (age < DAY) return `${Math.floor(age / HOUR)}h`;
  return `${Math.floor(age / DAY)}d`;
}

/** A server as a tile names them: the first name and the initial of the last ("Olive O."); the full name is in the tile's name. */
export function serverOnTile(name: string): string {
  const words = name.trim().split(/\s+/);
  const last = words.length > 1 ? words[words.length - 1]! : '';
  return last === '' ? words[0]! : `${words[0]!} ${Array.from(last)[0]!.toUpperCase()}.`;
}

/** What a table's tile says: short on the tile, in full words in its name. */
export interface TableTile {
  /** The guests, shown beside a person icon; null when the line has none. */
  guests: number | null;
  /** The rest of the tile's second line: "4 seats", "42m", "19h ago". */
  detail: string;
  /** Whose table, as the tile names them. */
  server: string | null;
  /** Everything the tile says, in full: "Table 1, Needs clearing, closed 19 h 9 min ago". */
  label: string;
}

export function tableTile(table: TableView, now: number): TableTile {
  const since = (at: string | null) => (at === null ? null : Math.max(0, now - Date.parse(at)));
  const server = table.server ? serverOnTile(table.server.name) : null;
  const tile = (guests: number | null, detail: string, words: (string | null)[]): TableTile => ({
    guests,
    detail,
    server,
    label: [`Table ${table.name}`, STATE_NAMES[table.state], ...words, table.server?.name ?? null].filter((word) => word !== null).join(', '),
  });
  if (table.state === 'free') {
    const seats = `${table.seats} ${table.seats === 1 ? 'seat' : 'seats'}`;
    return tile(null, seats, [seats]);
  }
  if (table.state === 'needs_clearing') {
    const closed = since(table.closedAt);
    return closed === null ? tile(null, '', []) : tile(null, `${compactAge(closed)} ago`, [`closed ${formatAge(closed)} ago`]);
  }
  const seated = since(table.seatedAt);
  const guests = table.guests === null ? null : `${table.guests} ${table.guests === 1 ? 'guest' : 'guests'}`;
  return tile(table.guests, seated === null ? '' : compactAge(seated), [guests, seated === null ? null : `seated ${formatAge(seated)} ago`]);
}

/** What the floor's "go to table" field finds: the table named so (bridge/tables/names.ts: "t12" is 12 unless a table is called T12). */
export function findTable(tables: readonly TableView[], typed: string): TableView | undefined {
  for (const key of tableQueryKeys(typed)) {
    const found = tables.find((t) => tableKey(t.name) === key);
    if (found) return found;
  }
  return undefined;
}
