// Store mode's replicas (docs/store-mode.md): the other tills' logs as pulled from their feeds, each
// page applied with its cursor in one transaction, and the latest document of each of their entities
// kept for reading. An entry is applied once per origin (INSERT OR IGNORE on its op id), so a page
// fetched twice, or a log read again after its file was replaced, changes nothing it already had.
import { z } from 'zod';
import type { SqlRunner } from './database';
import { DiscountDoc, OrderLineDoc, SplitDoc } from './documents';
import { NOT_ADOPTED_AWAY, receiveAdoption } from './store-adoption';
import { receiveForwarding } from './store-forwards';
import { receiveStaff } from './store-staff';

export interface ReplicaCursor {
  logId: string;
  /** The highest seq of the origin's log applied here. */
  seq: number;
}

export interface ReplicaEntry {
  seq: number;
  opId: string;
  body: Uint8Array;
}

/**
 * A JSON object, taken as it is: a record schema would visit and copy every field of every document
 * of a catch-up (docs/store-mode-catch-up.md), and the document is stored as it came anyway.
 */
const JsonObject = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'expected an object');

/**
 * What a replica needs of an entry's body (store-log.ts LogBody); the document is kept as it came.
 * PLAIN_ENTRY below is the same test in SQL, for the catch-up's thread: keep the two in step.
 */
const EntryBody = z.object({
  kind: z.string().min(1).max(40),
  id: z.string().min(1).max(100),
  order: z.string().max(100).nullable(),
  synced: z.boolean(),
  doc: JsonObject.nullable(),
  staff: z.string().max(100).nullable().optional(),
  serverId: z.string().max(200).optional(),
});

/** An order of another till as replicated here, with what changing it needs. */
export interface ReplicaOrderDoc {
  origin: string;
  ownerName: string | null;
  /** The seq of the owner's entry it was last replaced by. */
  seq: number;
  /** Its server on its till (the staff id), null when no one's. */
  staff: string | null;
  /** The document as the owner logged it (OrderDoc without its pricing and cloud check). */
  doc: Record<string, unknown>;
}

/** The fields of a replicated order that its listing shows. */
const ListedOrder = z.object({
  status: z.string(),
  number: z.string().nullable().catch(null),
  total: z.number().int(),
  check_total: z.number().int().nullable().catch(null),
  currency: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
  customer: z.object({ name: z.string() }).nullable().catch(null),
  service: z.object({ type: z.string().nullable(), table: z.string().nullable() }).nullable().catch(null),
  lines: z.array(OrderLineDoc).catch([]),
  discount: DiscountDoc.nullable().catch(null),
  split: SplitDoc.nullable().catch(null),
});

export interface ReplicaOrder {
  id: string;
  origin: string;
  /** The owner's name as its certificate gave it; null before it was heard. */
  ownerName: string | null;
  number: string | null;
  customerName: string | null;
  serviceType: string | null;
  table: string | null;
  /** The till's check where it priced one, else what the items come to. */
  total: number;
  /** Taken toward it (cash, captured cards) less what was given back. */
  paid: number;
  currency: string;
  /** The order and its money are all in the cloud, as far as its owner said. */
  reachedCloud: boolean;
  createdAt: number;
  updatedAt: number;
  ownerHeardAt: number | null;
  lines: OrderLineDoc[];
  /** The order's own discount. */
  discount: DiscountDoc | null;
  /** How its bill is split; null: not split. */
  split: SplitDoc | null;
}

/** One of another till's documents as replicated here, for the store's day. */
export interface ReplicaDayDoc {
  origin: string;
  kind: string;
  id: string;
  orderId: string;
  /** Nothing of it was left to send to the cloud, as its owner said. */
  synced: boolean;
  doc: Record<string, unknown>;
}

export interface ReplicaTill {
  origin: string;
  name: string | null;
  cursor: ReplicaCursor | null;
  heardAt: number | null;
  /** How many times its log was found replaced. */
  replaced: number;
  /** Its orders it still has to deliver to the cloud (the order, a payment or a refund of it). */
  ordersNotInCloud: number;
}

/** What an order's replicated documents of one kind come to, tips left out (the check's total has none). */
const SUM_OF = (kind: string, condition: string) =>
  `(SELECT COALESCE(SUM(json_extract(m.doc, '$.amount') - COALESCE(json_extract(m.doc, '$.tip'), 0)), 0) FROM store_replica_docs AS m
     WHERE m.origin = d.origin AND m.order_id = d.entity_id AND m.entity_kind = '${kind}' AND m.doc IS NOT NULL AND ${condition})`;

const OPEN_ORDERS_SQL = `
  SELECT d.origin, d.entity_id AS id, d.doc, c.till_name AS ownerName, c.heard_at AS ownerHeardAt,
    NOT EXISTS (SELECT 1 FROM store_replica_docs AS m WHERE m.origin = d.origin AND m.order_id = d.entity_id AND m.synced = 0) AS reachedCloud,
    ${SUM_OF('payment', "json_extract(m.doc, '$.payment_intent_id') IS NULL")}
      + ${SUM_OF('payment_intent', "json_extract(m.doc, '$.status') = 'captured'")}
      - ${SUM_OF('refund', "json_extract(m.doc, '$.status') NOT IN ('failed', 'canceled', 'cancelled')")} AS paid
  FROM store_replica_docs AS d LEFT JOIN store_cursors AS c ON c.origin = d.origin
  WHERE d.entity_kind = 'order' AND d.doc IS NOT NULL AND json_extract(d.doc, '$.status') = 'open' AND ${NOT_ADOPTED_AWAY}
  ORDER BY json_extract(d.doc, '$.created_at'), d.entity_id`;

const UPSERT_DOC_SQL = `
  INSERT INTO store_replica_docs (origin, entity_kind, entity_id, order_id, log_id, seq, synced, doc, staff, server_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (origin, entity_kind, entity_id) DO UPDATE SET
    order_id = excluded.order_id, log_id = excluded.log_id, seq = excluded.seq, synced = excluded.synced, doc = excluded.doc, staff = excluded.staff,
    server_id = COALESCE(excluded.server_id, store_replica_docs.server_id)
  WHERE excluded.seq > store_replica_docs.seq OR excluded.log_id <> store_replica_docs.log_id`;

/** Log rows per INSERT: fewer statements per slice; the last of a slice holds what is left (its SQL is cached per count). */
export const LOG_ROWS_PER_INSERT = 50;
const LOG_ROW = '(?, ?, ?, ?, ?),';
/** The INSERT of `rows` log entries (origin, log_id, seq, op_id, body each); one already there (its op id) is left as it is. */
export const logRowsSql = (rows: number): string =>
  `INSERT OR IGNORE INTO store_replica_log (origin, log_id, seq, op_id, body) VALUES ${LOG_ROW.repeat(rows).slice(0, -1)}`;

export const CURSOR_SQL = `INSERT INTO store_cursors (origin, log_id, seq, heard_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (origin) DO UPDATE SET log_id = excluded.log_id, seq = excluded.seq, heard_at = excluded.heard_at`;

/** `name` (a text or absent) is a text of 1 to `max` UTF-8 bytes: at most `max` UTF-16 units, as zod counts them. */
const textUpTo = (b: string, name: string, min: number, max: number) =>
  `(json_type(${b}, '$.${name}') = 'text' AND length(CAST(${b} ->> '$.${name}' AS BLOB)) BETWEEN ${min} AND ${max})`;
/**
 * EntryBody in SQL, over the body's text `b`: an entry a catch-up's thread may apply by SQL alone (store/replica-apply-thread.ts).
 * Stricter than EntryBody where they could differ (lengths in bytes, not in UTF-16 units): an entry it refuses
 * is applied by `apply` on the main thread, which decides as always.
 */
const plainEntry = (b: string) => `(json_valid(${b}) AND json_type(${b}) = 'object'
  AND ${textUpTo(b, 'kind', 1, 40)} AND ${textUpTo(b, 'id', 1, 100)}
  AND (json_type(${b}, '$.order') = 'null' OR ${textUpTo(b, 'order', 0, 100)})
  AND json_type(${b}, '$.synced') IN ('true', 'false')
  AND json_type(${b}, '$.doc') IN ('object', 'null')
  AND (json_type(${b}, '$.staff') IS NULL OR json_type(${b}, '$.staff') = 'null' OR ${textUpTo(b, 'staff', 0, 100)})
  AND (json_type(${b}, '$.serverId') IS NULL OR ${textUpTo(b, 'serverId', 0, 200)}))`;

/** The seqs of the log rows after rowid ? that are plain entries (see plainEntry). */
export const PLAIN_SEQS_SQL = `SELECT seq FROM (SELECT seq, CAST(body AS TEXT) AS b FROM store_replica_log WHERE rowid > ?) WHERE ${plainEntry('b')}`;

/**
 * The documents of the log rows after rowid ? (all plain entries), in the order appended: each replaces its
 * entity's document as UPSERT_DOC_SQL decides, the cloud id an earlier one carried kept, so the outcome is
 * `apply`'s (which writes each entity once, from its newest entry of the page).
 */
export const DOCS_FROM_LOG_SQL = `
  INSERT INTO store_replica_docs (origin, entity_kind, entity_id, order_id, log_id, seq, synced, doc, staff, server_id)
  SELECT origin, b ->> '$.kind', b ->> '$.id', b ->> '$.order', log_id, seq, b ->> '$.synced',
    CASE json_type(b, '$.doc') WHEN 'object' THEN b -> '$.doc' END, b ->> '$.staff', b ->> '$.serverId'
  FROM (SELECT origin, log_id, seq, CAST(body AS TEXT) AS b FROM store_replica_log WHERE rowid > ? ORDER BY rowid)
  WHERE true
  ${UPSERT_DOC_SQL.slice(UPSERT_DOC_SQL.indexOf('ON CONFLICT'))}`;

export class StoreReplicas {
  readonly #sql: SqlRunner;
  readonly #transaction: <T>(fn: () => T) => T;

  /** `transaction`: the store's, or its refetchable one (a page lost to a power cut is pulled again). */
  constructor(sql: SqlRunner, transaction: <T>(fn: () => T) => T) {
    this.#sql = sql;
    this.#transaction = transaction;
  }

  cursor(origin: string): ReplicaCursor | null {
    const [row] = this.#sql.allSql<{ logId: string | null; seq: number }>('SELECT log_id AS logId, seq FROM store_cursors WHERE origin = ?', [origin]);
    return row?.logId ? { logId: row.logId, seq: row.seq } : null;
  }

  /**
   * Applies a page of `origin`'s log (entries in seq order) and its cursor in one transaction; returns
   * the cursor committed. The newest seq of the current log replaces an entity's document, an older
   * never does; an entry whose body is not one (a newer till's format) is kept, and its document skipped.
   * Forwarding entries (store-forwards.ts): a forward addressed to `self` (this till's id) goes into
   * the inbox, an answer to one of this till's forwards settles it. A member's version (store-staff.ts)
   * replaces this till's row of that member when newer.
   */
  apply(origin: string, logId: string, entries: readonly ReplicaEntry[], now: number, self: string): ReplicaCursor {
    const last = entries.at(-1);
    if (!last) throw new Error('a replica page has at least one entry');
    return this.#transaction(() => {
      // An entity's document is written once per page, from its newest entry (a catch-up brings several
      // per order: created, changed, paid, in the cloud); the cloud id any of them carried goes with it.
      const latest = new Map<string, { seq: number; body: z.infer<typeof EntryBody>; serverId: string | null }>();
      this.#appendToLog(origin, logId, entries);
      for (const entry of entries) {
        const json = parseJson(entry.body);
        const body = EntryBody.safeParse(json);
        if (!body.success) {
          if (!receiveStaff(this.#sql, json) && !receiveAdoption(this.#sql, origin, json, now)) receiveForwarding(this.#sql, origin, entry.opId, json, self, now);
          continue;
        }
        const key = `${body.data.kind}:${body.data.id}`;
        latest.set(key, { seq: entry.seq, body: body.data, serverId: body.data.serverId ?? latest.get(key)?.serverId ?? null });
      }
      for (const { seq, body, serverId } of latest.values()) {
        const { kind, id, order, synced, doc, staff } = body;
        this.#sql.runSql(UPSERT_DOC_SQL, [origin, kind, id, order, logId, seq, synced ? 1 : 0, doc && JSON.stringify(doc), staff ?? null, serverId]);
      }
      this.#sql.runSql(CURSOR_SQL, [origin, logId, last.seq, now]);
      return { logId, seq: last.seq };
    });
  }

  /** The entries into the replica of `origin`'s log, LOG_ROWS_PER_INSERT a statement; one already there (its op id) is left as it is. */
  #appendToLog(origin: string, logId: string, entries: readonly ReplicaEntry[]): void {
    for (let start = 0; start < entries.length; start += LOG_ROWS_PER_INSERT) {
      const rows = entries.slice(start, start + LOG_ROWS_PER_INSERT);
      const values: unknown[] = [];
      for (const entry of rows) values.push(origin, logId, entry.seq, entry.opId, entry.body);
      this.#sql.runSql(logRowsSql(rows.length), values);
    }
  }

  /** `origin`'s log file was replaced (another log id, or shorter than the cursor): read it again from 0, keeping what is here. */
  logReplaced(origin: string, logId: string, now: number): ReplicaCursor {
    this.#transaction(() =>
      this.#sql.runSql(
        `INSERT INTO store_cursors (origin, log_id, seq, heard_at, replaced) VALUES (?, ?, 0, ?, 1)
         ON CONFLICT (origin) DO UPDATE SET log_id = excluded.log_id, seq = 0, heard_at = excluded.heard_at, replaced = replaced + 1`,
        [origin, logId, now],
      ),
    );
    return { logId, seq: 0 };
  }

  /** The name `origin` goes by (from its certificate), kept for the listing while it is away. */
  nameTill(origin: string, name: string): void {
    this.#transaction(() =>
      this.#sql.runSql('INSERT INTO store_cursors (origin, till_name) VALUES (?, ?) ON CONFLICT (origin) DO UPDATE SET till_name = excluded.till_name', [origin, name]),
    );
  }

  /** Another till's order as replicated here (the newest, should two tills have logged it); null when none did. */
  order(id: string): ReplicaOrderDoc | null {
    const [row] = this.#sql.allSql<{ origin: string; ownerName: string | null; seq: number; staff: string | null; doc: string }>(
      `SELECT d.origin, c.till_name AS ownerName, d.seq, d.staff, d.doc FROM store_replica_docs AS d LEFT JOIN store_cursors AS c ON c.origin = d.origin
       WHERE d.entity_kind = 'order' AND d.entity_id = ? AND d.doc IS NOT NULL AND ${NOT_ADOPTED_AWAY} ORDER BY json_extract(d.doc, '$.updated_at') DESC LIMIT 1`,
      [id],
    );
    return row ? { ...row, doc: JSON.parse(row.doc) as Record<string, unknown> } : null;
  }

  /**
   * What another till's order has been paid, as replicated here, by the part of its split bill each
   * payment named (null: toward the whole), tips left out: cash, and cards captured.
   */
  paidByPart(origin: string, orderId: string): Map<string | null, number> {
    const rows = this.#sql.allSql<{ part: string | null; paid: number }>(
      `SELECT json_extract(m.doc, '$.split_part') AS part, SUM(json_extract(m.doc, '$.amount') - COALESCE(json_extract(m.doc, '$.tip'), 0)) AS paid
       FROM store_replica_docs AS m WHERE m.origin = ? AND m.order_id = ? AND m.doc IS NOT NULL
         AND ((m.entity_kind = 'payment' AND json_extract(m.doc, '$.payment_intent_id') IS NULL) OR (m.entity_kind = 'payment_intent' AND json_extract(m.doc, '$.status') = 'captured'))
       GROUP BY part`,
      [origin, orderId],
    );
    return new Map(rows.map((row) => [row.part, row.paid]));
  }

  /** Another till's order's money as replicated here: its payment intents, payments and refunds, as documents. */
  moneyOf(origin: string, orderId: string): { intents: unknown[]; payments: unknown[]; refunds: unknown[] } {
    const rows = this.#sql.allSql<{ kind: string; doc: string }>(
      `SELECT entity_kind AS kind, doc FROM store_replica_docs WHERE origin = ? AND order_id = ? AND entity_kind IN ('payment_intent', 'payment', 'refund') AND doc IS NOT NULL ORDER BY seq`,
      [origin, orderId],
    );
    const of = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => JSON.parse(row.doc) as unknown);
    return { intents: of('payment_intent'), payments: of('payment'), refunds: of('refund') };
  }

  /**
   * Which of these orders (this till's ids: an order pulled from the cloud goes by its cloud id) are
   * open orders another till of the store owns, with its name: the cloud's copy of another till's
   * order is that order, shown under "At other tills" and changed through its owner, never here.
   */
  ownedElsewhere(ids: readonly string[]): Map<string, string | null> {
    const owned = new Map<string, string | null>();
    if (ids.length === 0) return owned;
    // Two lookups, each on its index (an OR of the two columns would walk every replicated document).
    // CROSS JOIN keeps the ids first: the planner would otherwise walk every replicated order.
    const match = (column: 'entity_id' | 'server_id', index: string) => `
      SELECT wanted.value AS id, c.till_name AS ownerName FROM json_each(?) AS wanted
        CROSS JOIN store_replica_docs AS d INDEXED BY ${index}
        LEFT JOIN store_cursors AS c ON c.origin = d.origin
      WHERE d.${column} = wanted.value AND d.entity_kind = 'order' AND d.doc IS NOT NULL AND json_extract(d.doc, '$.status') = 'open' AND ${NOT_ADOPTED_AWAY}`;
    const wanted = JSON.stringify(ids);
    const rows = this.#sql.allSql<{ id: string; ownerName: string | null }>(`${match('entity_id', 'store_replica_docs_by_entity')} UNION ALL ${match('server_id', 'store_replica_docs_by_server')}`, [wanted, wanted]);
    for (const row of rows) owned.set(row.id, row.ownerName);
    return owned;
  }

  /** The other tills' open orders, oldest first. */
  openOrders(): ReplicaOrder[] {
    const rows = this.#sql.allSql<{ origin: string; id: string; doc: string; ownerName: string | null; ownerHeardAt: number | null; reachedCloud: number; paid: number }>(OPEN_ORDERS_SQL, []);
    const orders: ReplicaOrder[] = [];
    for (const row of rows) {
      const parsed = ListedOrder.safeParse(JSON.parse(row.doc));
      if (!parsed.success) continue;
      const doc = parsed.data;
      orders.push({
        id: row.id,
        origin: row.origin,
        ownerName: row.ownerName,
        number: doc.number,
        customerName: doc.customer?.name ?? null,
        serviceType: doc.service?.type ?? null,
        table: doc.service?.table ?? null,
        total: doc.check_total ?? doc.total,
        paid: row.paid,
        currency: doc.currency,
        reachedCloud: row.reachedCloud === 1,
        createdAt: doc.created_at,
        updatedAt: doc.updated_at,
        ownerHeardAt: row.ownerHeardAt,
        lines: doc.lines,
        discount: doc.discount ?? null,
        split: doc.split ?? null,
      });
    }
    return orders;
  }

  /**
   * The other tills' documents (orders and their money) touching a business day: every document of each
   * order sold on `day`, or created or changed in [from, to) (an older tab paid today, a void today).
   */
  dayDocs(day: string, from: number, to: number): ReplicaDayDoc[] {
    const rows = this.#sql.allSql<{ origin: string; kind: string; id: string; orderId: string; synced: number; doc: string }>(
      `SELECT d.origin, d.entity_kind AS kind, d.entity_id AS id, d.order_id AS orderId, d.synced, d.doc FROM store_replica_docs AS d
       WHERE d.doc IS NOT NULL AND ${NOT_ADOPTED_AWAY} AND d.order_id IN (
         SELECT t.order_id FROM store_replica_docs AS t WHERE t.doc IS NOT NULL AND t.order_id IS NOT NULL AND (
           (t.entity_kind = 'order' AND json_extract(t.doc, '$.business_day') = ?)
           OR json_extract(t.doc, '$.created_at') BETWEEN ? AND ? - 1 OR json_extract(t.doc, '$.updated_at') BETWEEN ? AND ? - 1))
       ORDER BY d.origin, d.entity_kind, d.entity_id`,
      [day, from, to, from, to],
    );
    return rows.map((row) => ({ ...row, synced: row.synced === 1, doc: JSON.parse(row.doc) as Record<string, unknown> }));
  }

  /** Every till this one has pulled or named, with its cursor and what it still owes the cloud. */
  tills(): ReplicaTill[] {
    const rows = this.#sql.allSql<{ origin: string; name: string | null; logId: string | null; seq: number; heardAt: number | null; replaced: number; ordersNotInCloud: number }>(
      `SELECT c.origin, c.till_name AS name, c.log_id AS logId, c.seq, c.heard_at AS heardAt, c.replaced,
         (SELECT COUNT(DISTINCT d.order_id) FROM store_replica_docs AS d WHERE d.origin = c.origin AND d.synced = 0 AND d.order_id IS NOT NULL AND ${NOT_ADOPTED_AWAY}) AS ordersNotInCloud
       FROM store_cursors AS c ORDER BY c.till_name, c.origin`,
      [],
    );
    return rows.map(({ logId, seq, ...till }) => ({ ...till, cursor: logId === null ? null : { logId, seq } }));
  }
}

function parseJson(body: Uint8Array): unknown {
  try {
    // A view of the body's bytes: Buffer.from(body) alone would copy them first.
    return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    return null;
  }
}
