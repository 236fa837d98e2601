// What a till keeps: old orders the cloud already has are deleted, a bounded batch at a time, with
// their payment intents, payments, refunds and id links. Nothing the cloud lacks is ever deleted:
// see docs/store.md, "Retention".
import type { SqlRunner } from './database';

/** Orders examined per batch: one batch is one short transaction (a few ms at a year of orders). */
const DEFAULT_BATCH = 500;

/** Where a pruning pass stands: the last order examined, in (created_at, id) order. */
export interface PruneCursor {
  createdAt: number;
  id: string;
}

export interface PruneBatch {
  /** Orders deleted (with their intents, payments, refunds and id links). */
  deleted: number;
  /** Orders examined and kept (unsynced, open, paid in cash...). */
  kept: number;
  /** Where the next batch starts; null when no order older than the cutoff is left to examine. */
  next: PruneCursor | null;
}

/**
 * An order created before the cutoff is deleted only if every one of these holds: the cloud has
 * it (server id linked) and it is finished (fulfilled or cancelled); it has no pending layer and
 * no unfinished or dead-lettered operation; no unsettled repricing; and the same for each of its
 * payment intents, payments and refunds, which must all be the cloud's too (a cash payment or a
 * cash refund is recorded by the till alone, so an order paid in cash stays).
 */
const UNSAFE_ENTITY = (kind: string, alias: string) => `(
  NOT EXISTS (SELECT 1 FROM id_map AS m WHERE m.entity_kind = '${kind}' AND m.local_id = ${alias}.id)
  OR ${alias}.layer = 'pending'
  OR EXISTS (SELECT 1 FROM outbox AS x WHERE x.entity_kind = '${kind}' AND x.entity_id = ${alias}.id AND x.state IN ('pending', 'in_flight', 'dead')))`;

/** Exported for the test that checks it is an index search. */
export const CANDIDATES_SQL = `
  SELECT id, created_at FROM orders INDEXED BY orders_by_layer_created
  WHERE layer = 'base' AND (created_at, id) > (?, ?) AND created_at < ?
  ORDER BY created_at, id LIMIT ?`;

const PRUNABLE_SQL = `
  SELECT o.id FROM orders AS o
  WHERE o.layer = 'base' AND o.id IN (SELECT value FROM json_each(?))
    AND o.status IN ('fulfilled', 'cancelled')
    AND NOT ${UNSAFE_ENTITY('order', 'o')}
    AND NOT EXISTS (SELECT 1 FROM orders AS p WHERE p.id = o.id AND p.layer = 'pending')
    AND NOT EXISTS (SELECT 1 FROM repriced_orders AS r WHERE r.order_id = o.id AND r.settled_at IS NULL)
    AND NOT EXISTS (SELECT 1 FROM payment_intents AS i WHERE i.order_id = o.id AND ${UNSAFE_ENTITY('payment_intent', 'i')})
    AND NOT EXISTS (SELECT 1 FROM payments AS y WHERE y.order_id = o.id AND ${UNSAFE_ENTITY('payment', 'y')})
    AND NOT EXISTS (
      SELECT 1 FROM payments AS y JOIN refunds AS f ON f.payment_id = y.id
      WHERE y.order_id = o.id AND ${UNSAFE_ENTITY('refund', 'f')})`;

/** Deletes, for orders in `?` (a JSON array of ids), their rows of each table and their id links. */
const DELETE_SQL = [
  `DELETE FROM id_map WHERE entity_kind = 'refund' AND local_id IN (
     SELECT f.id FROM refunds AS f JOIN payments AS y ON f.payment_id = y.id WHERE y.order_id IN (SELECT value FROM json_each(?)))`,
  `DELETE FROM refunds WHERE payment_id IN (SELECT id FROM payments WHERE order_id IN (SELECT value FROM json_each(?)))`,
  `DELETE FROM id_map WHERE entity_kind = 'payment' AND local_id IN (SELECT id FROM payments WHERE order_id IN (SELECT value FROM json_each(?)))`,
  `DELETE FROM payments WHERE order_id IN (SELECT value FROM json_each(?))`,
  `DELETE FROM id_map WHERE entity_kind = 'payment_intent' AND local_id IN (SELECT id FROM payment_intents WHERE order_id IN (SELECT value FROM json_each(?)))`,
  `DELETE FROM payment_intents WHERE order_id IN (SELECT value FROM json_each(?))`,
  `DELETE FROM repriced_orders WHERE order_id IN (SELECT value FROM json_each(?))`,
  `DELETE FROM id_map WHERE entity_kind = 'order' AND local_id IN (SELECT value FROM json_each(?))`,
  `DELETE FROM orders WHERE layer = 'base' AND id IN (SELECT value FROM json_each(?))`,
];

const START: PruneCursor = { createdAt: Number.MIN_SAFE_INTEGER, id: '' };

export class Retention {
  constructor(
    private readonly sql: SqlRunner,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {}

  /**
   * One transaction: examines at most `batch` orders created before `before` (ms), from `after`
   * on, and deletes those the cloud already has in full. Its duration is bounded by `batch`, not
   * by the number of orders kept: a pass walks them once, cursor by cursor.
   */
  pruneBatch(before: number, after: PruneCursor = START, batch = DEFAULT_BATCH): PruneBatch {
    return this.transaction(() => {
      const candidates = this.sql.allSql<{ id: string; created_at: number }>(CANDIDATES_SQL, [after.createdAt, after.id, before, batch]);
      const last = candidates.at(-1);
      if (!last) return { deleted: 0, kept: 0, next: null };
      const prunable = this.sql.allSql<{ id: string }>(PRUNABLE_SQL, [JSON.stringify(candidates.map((c) => c.id))]).map((r) => r.id);
      if (prunable.length > 0) {
        const ids = JSON.stringify(prunable);
        for (const statement of DELETE_SQL) this.sql.runSql(statement, [ids]);
      }
      return {
        deleted: prunable.length,
        kept: candidates.length - prunable.length,
        next: candidates.length < batch ? null : { createdAt: last.created_at, id: last.id },
      };
    });
  }

  /**
   * A whole pass, batch after batch, handing the event loop back between batches so the till
   * keeps answering. Returns the totals.
   */
  async prune(before: number, { batch = DEFAULT_BATCH }: { batch?: number } = {}): Promise<{ deleted: number; kept: number }> {
    const totals = { deleted: 0, kept: 0 };
    let cursor: PruneCursor | null = START;
    while (cursor) {
      const result = this.pruneBatch(before, cursor, batch);
      totals.deleted += result.deleted;
      totals.kept += result.kept;
      cursor = result.next;
      if (cursor) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return totals;
  }
}
