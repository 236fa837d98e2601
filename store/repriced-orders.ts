// Orders the server priced differently from the till. /v1 takes menu item ids and quantities, not
// prices, so an order sold offline is priced when it is pushed: if a menu price changed meanwhile,
// the server's total is not what the customer paid. The difference is a manager's to settle;
// this list is what the sync panel shows until someone does.
import type { Kysely } from 'kysely';
import type { SqlRunner } from './database';
import { StoreError } from './errors';
import type { StoreTables } from './schema';

export interface RepricedOrder {
  /** The order's local id. */
  orderId: string;
  /** What the till charged: the total of the lines it sent. */
  tillTotal: number;
  /** What the server made of the same lines. */
  serverTotal: number;
  currency: string;
  detectedAt: number;
}

export class RepricedOrders {
  constructor(
    private readonly kysely: Kysely<StoreTables>,
    private readonly sql: SqlRunner,
  ) {}

  /** Notes a difference found when an order's lines were confirmed (again, if the order was repriced before). */
  record(entry: RepricedOrder): void {
    this.sql.runSql(
      `INSERT INTO repriced_orders (order_id, till_total, server_total, currency, detected_at, settled_at, settled_by) VALUES (?, ?, ?, ?, ?, NULL, NULL)
       ON CONFLICT (order_id) DO UPDATE SET till_total = excluded.till_total, server_total = excluded.server_total, currency = excluded.currency,
         detected_at = excluded.detected_at, settled_at = NULL, settled_by = NULL`,
      [entry.orderId, entry.tillTotal, entry.serverTotal, entry.currency, entry.detectedAt],
    );
  }

  /** Differences nobody has settled yet, oldest first. */
  listUnsettled(): RepricedOrder[] {
    const rows = this.sql.all(this.kysely.selectFrom('repriced_orders').selectAll().where('settled_at', 'is', null).orderBy('detected_at'));
    return rows.map((row) => ({ orderId: row.order_id, tillTotal: row.till_total, serverTotal: row.server_total, currency: row.currency, detectedAt: row.detected_at }));
  }

  /** Marks a difference settled (who and when stay on the row). */
  settle(orderId: string, actor: string, now: number): RepricedOrder {
    const row = this.sql.first(this.kysely.selectFrom('repriced_orders').selectAll().where('order_id', '=', orderId).where('settled_at', 'is', null));
    if (!row) throw new StoreError('not_found', `order ${orderId} has no unsettled price difference`);
    this.sql.run(this.kysely.updateTable('repriced_orders').set({ settled_at: now, settled_by: actor }).where('order_id', '=', orderId));
    return { orderId: row.order_id, tillTotal: row.till_total, serverTotal: row.server_total, currency: row.currency, detectedAt: row.detected_at };
  }
}
