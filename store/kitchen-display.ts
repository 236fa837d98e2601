// What a kitchen display remembers on its own SQLite file (docs/kitchen-display.md, migration 26): the
// lines of each order as its ticket was first shown (what ADD and VOID are marked against), and the
// tickets bumped (off the screen at once, whatever the order's till has answered yet) or recalled
// since. The display owns no order, so this is the only thing it writes besides the bumps it forwards.
import type { SqlRunner } from './database';

/**
 * here: fulfilled on this display's own order; forwarded: a fulfil sent to the order's till; closed:
 * nothing to send, the order was closed already; station: off this station's display only (the pass,
 * a display of every station, marks the order fulfilled); served: the food went out on a check with
 * money due, which stays open at its till until it is paid (a fulfil there would be a walkout).
 */
export type BumpDelivery = 'here' | 'forwarded' | 'closed' | 'station' | 'served';

export interface BumpRow {
  orderId: string;
  label: string;
  bumpedAt: number;
  recalledAt: number | null;
  delivery: BumpDelivery;
  forwardId: string | null;
}

const BUMP_COLUMNS = 'order_id AS orderId, label, bumped_at AS bumpedAt, recalled_at AS recalledAt, delivery, forward_id AS forwardId';

export class KitchenDisplayMemory {
  constructor(
    private readonly sql: SqlRunner,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {}

  /** The lines first shown of each of `orderIds` that has been shown (JSON as `remember` kept it). */
  seen(orderIds: readonly string[]): Map<string, { lines: string; shownAt: number }> {
    const seen = new Map<string, { lines: string; shownAt: number }>();
    if (orderIds.length === 0) return seen;
    const rows = this.sql.allSql<{ orderId: string; lines: string; shownAt: number }>(
      'SELECT order_id AS orderId, lines, shown_at AS shownAt FROM kitchen_seen WHERE order_id IN (SELECT value FROM json_each(?))',
      [JSON.stringify(orderIds)],
    );
    for (const row of rows) seen.set(row.orderId, { lines: row.lines, shownAt: row.shownAt });
    return seen;
  }

  /** Keeps the lines of tickets shown for the first time; one shown before keeps its first lines. Call inside a transaction. */
  remember(first: readonly { orderId: string; lines: string }[], now: number): void {
    for (const ticket of first) this.sql.runSql('INSERT OR IGNORE INTO kitchen_seen (order_id, lines, shown_at) VALUES (?, ?, ?)', [ticket.orderId, ticket.lines, now]);
  }

  bumps(): BumpRow[] {
    return this.sql.allSql<BumpRow>(`SELECT ${BUMP_COLUMNS} FROM kitchen_bumps`, []);
  }

  bump(orderId: string): BumpRow | null {
    return this.sql.allSql<BumpRow>(`SELECT ${BUMP_COLUMNS} FROM kitchen_bumps WHERE order_id = ?`, [orderId])[0] ?? null;
  }

  /** The last ticket bumped and not recalled since: what the R key brings back. */
  lastBumped(): BumpRow | null {
    return this.sql.allSql<BumpRow>(`SELECT ${BUMP_COLUMNS} FROM kitchen_bumps WHERE recalled_at IS NULL ORDER BY bumped_at DESC, rowid DESC LIMIT 1`, [])[0] ?? null;
  }

  /** A bump (again, after a recall); call inside the transaction that sends its fulfil. */
  recordBump(row: Omit<BumpRow, 'recalledAt'>): void {
    this.sql.runSql(
      `INSERT INTO kitchen_bumps (order_id, label, bumped_at, recalled_at, delivery, forward_id) VALUES (?, ?, ?, NULL, ?, ?)
       ON CONFLICT (order_id) DO UPDATE SET label = excluded.label, bumped_at = excluded.bumped_at, recalled_at = NULL, delivery = excluded.delivery, forward_id = excluded.forward_id`,
      [row.orderId, row.label, row.bumpedAt, row.delivery, row.forwardId],
    );
  }

  recall(orderId: string, now: number): void {
    this.transaction(() => this.sql.runSql('UPDATE kitchen_bumps SET recalled_at = ? WHERE order_id = ? AND recalled_at IS NULL', [now, orderId]));
  }

  /**
   * Forgets what is older than `before` and no longer on any till's open orders (`open`): tickets seen,
   * and bumps of closed orders (a bump of an order still open stays, or its ticket would come back).
   */
  forget(before: number, open: ReadonlySet<string>): void {
    this.transaction(() => {
      for (const [table, column] of [['kitchen_seen', 'shown_at'], ['kitchen_bumps', 'bumped_at']] as const) {
        const old = this.sql.allSql<{ order_id: string }>(`SELECT order_id FROM ${table} WHERE ${column} < ?`, [before]);
        for (const { order_id } of old) if (!open.has(order_id)) this.sql.runSql(`DELETE FROM ${table} WHERE order_id = ?`, [order_id]);
      }
    });
  }
}
