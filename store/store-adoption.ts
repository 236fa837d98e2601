// Store mode's adoption (docs/store-mode.md, "Built: adopting a dead till's orders"): a till that went
// quiet (hardware gone) holding orders the cloud does not have, or open tabs, does not take them
// with it. Its log is on every other till: a manager on another till takes its orders over. The
// adopter copies their operations not yet confirmed into its own outbox with the same op ids,
// payloads and order metadata (so Idempotency-Key and look-before-resend find a push the quiet till
// made), marks them "ambiguous since they were made" (the adopter always looks before the first
// send), writes the orders as its own, and says so in its log. Every till hides the quiet till's
// copies of adopted orders; the quiet till, back, drops what was taken over before it pushes.
import { z } from 'zod';
import type { SqlRunner } from './database';
import { EntityDocs, type EntityDoc, type EntityKind } from './documents';
import type { IdMap } from './id-map';
import type { EntityLayers } from './layers';
import type { PendingChanges } from './pending';
import { StorePerson, takeOverForwards, type ForwardPerson, type RawEntry } from './store-forwards';

/** An adoption as it travels (the body of its entry in the adopter's log). */
export const AdoptBody = z.object({
  op: z.literal('adopt'),
  /** The till the orders were taken from. */
  from: z.string().min(1).max(100),
  fromName: z.string().max(100).nullable(),
  /** Each order taken over, with the operations the adopter now sends in its place. */
  orders: z.array(z.object({ order: z.string().min(1).max(100), ops: z.array(z.string().min(1).max(120)) })).max(100_000),
  by: StorePerson,
  approvedBy: StorePerson.nullable(),
  at: z.number(),
});
export type AdoptBody = z.infer<typeof AdoptBody>;

/** What an entry of the quiet till's log needs to be for adoption (store-log.ts LogBody). */
const AdoptableEntry = z.object({
  op: z.string(),
  kind: z.string(),
  id: z.string(),
  order: z.string().nullable(),
  doc: z.record(z.string(), z.unknown()).nullable(),
  staff: z.string().nullable().optional(),
  serverId: z.string().optional(),
  operation: z
    .object({
      payload: z.record(z.string(), z.unknown()),
      patch: z.record(z.string(), z.unknown()),
      dependsOn: z.array(z.string()),
      resourceKey: z.string(),
      basedOn: z.array(z.unknown()).nullable(),
      createdAt: z.number(),
    })
    .optional(),
});

const KINDS = new Set<string>(['order', 'payment_intent', 'payment', 'refund']);

/** An order of a quiet till that adoption would take. */
export interface AdoptableOrder {
  orderId: string;
  number: string | null;
  status: string;
  /** Something of it has not reached the cloud, as its till last said. */
  undelivered: boolean;
}

export interface AdoptionResult {
  orders: AdoptableOrder[];
  /** Operations copied into this till's outbox, to send in the quiet till's place. */
  operations: number;
}

/** An adoption of this till's orders, found in another till's log, not yet acted on here. */
export interface Surrender {
  adopter: string;
  adopterName: string | null;
  orderId: string;
  opIds: string[];
}

interface EntityPlan {
  kind: EntityKind;
  id: string;
  /** The latest document the quiet till logged. */
  latest: Record<string, unknown> | null;
  /** The document as last confirmed by the cloud (a 'done' entry's), if any. */
  confirmed: Record<string, unknown> | null;
  serverId: string | null;
  /** Its operations with no 'done' or 'dropped' entry, in log order. */
  undone: { opId: string; kind: string; operation: NonNullable<z.infer<typeof AdoptableEntry>['operation']> }[];
}

/** Whether an entry's op is an outbox operation's kind ("order.create"), not 'done', 'settled'… */
const isOperation = (op: string): boolean => op.includes('.');

export class StoreAdoptions {
  constructor(
    private readonly sql: SqlRunner,
    private readonly layers: EntityLayers,
    private readonly pending: PendingChanges,
    private readonly ids: IdMap,
    private readonly append: (entry: RawEntry) => void,
    private readonly record: (entry: { entryId: string; kind: EntityKind; id: string; now: number }) => void,
  ) {}

  /** `origin`'s orders another till would take over: open, or with something the cloud does not have; none adopted yet. */
  adoptable(origin: string): AdoptableOrder[] {
    // The orders with something not in the cloud, found once on the (origin, order_id, entity_kind, synced) index.
    return this.sql
      .allSql<{ orderId: string; number: string | null; status: string; undelivered: number }>(
        `WITH unsynced AS (SELECT DISTINCT order_id FROM store_replica_docs WHERE origin = ? AND synced = 0 AND order_id IS NOT NULL)
         SELECT d.entity_id AS orderId, json_extract(d.doc, '$.number') AS number, json_extract(d.doc, '$.status') AS status,
           d.entity_id IN unsynced AS undelivered
         FROM store_replica_docs AS d
         WHERE d.origin = ? AND d.entity_kind = 'order' AND d.doc IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM store_adopted AS a WHERE a.from_till = d.origin AND a.order_id = d.entity_id)
           AND (json_extract(d.doc, '$.status') = 'open' OR d.entity_id IN unsynced)
         ORDER BY json_extract(d.doc, '$.created_at'), d.entity_id`,
        [origin, origin],
      )
      .map((row) => ({ ...row, undelivered: row.undelivered === 1 }));
  }

  /**
   * Takes `origin`'s adoptable orders over; call inside one transaction. Writes them as this till's
   * own, their unconfirmed operations into this till's outbox (same op ids, payloads, order), one
   * `adopt` entry and each entity's document in this till's log.
   */
  adopt(input: { origin: string; originName: string | null; self: string; adoptionId: string; by: ForwardPerson; approvedBy: ForwardPerson | null; now: number }): AdoptionResult {
    const orders = this.adoptable(input.origin);
    if (orders.length === 0) return { orders, operations: 0 };
    const plans = this.#plans(input.origin, orders.map((order) => order.orderId));
    const adopted = new Map<string, string[]>(orders.map((order) => [order.orderId, []]));
    const copied = new Set<string>();
    for (const plan of plans.entities.values()) for (const op of plan.undone) copied.add(op.opId);
    let operations = 0;
    for (const plan of plans.entities.values()) {
      this.#takeEntity(plan, copied, input.originName, input.now);
      operations += plan.undone.length;
      const orderId = plan.kind === 'order' ? plan.id : plans.orderOf.get(`${plan.kind}:${plan.id}`);
      if (orderId !== undefined) adopted.get(orderId)?.push(...plan.undone.map((op) => op.opId));
    }
    for (const [orderId, staff] of plans.servers) this.#attribute(orderId, staff, plans.entities.get(`order:${orderId}`)?.latest ?? null, input.now);
    const body: AdoptBody = {
      op: 'adopt',
      from: input.origin,
      fromName: input.originName,
      orders: [...adopted].map(([order, ops]) => ({ order, ops })),
      by: input.by,
      approvedBy: input.approvedBy,
      at: input.now,
    };
    receiveAdoption(this.sql, input.self, body, input.now);
    takeOverForwards(this.sql, input.origin, orders.map((order) => order.orderId), input.self, input.now);
    // The adoption first: a peer hides the quiet till's copies before this till's documents show.
    this.append({ entryId: input.adoptionId, kind: 'adopt', id: input.origin, body, now: input.now });
    for (const plan of plans.entities.values()) this.record({ entryId: `${input.adoptionId}:${plan.kind}:${plan.id}`, kind: plan.kind, id: plan.id, now: input.now });
    return { orders, operations };
  }

  /** Adoptions of this till's orders read from other tills' logs and not acted on yet. */
  surrenders(self: string): Surrender[] {
    return this.sql
      .allSql<{ adopter: string; adopterName: string | null; orderId: string; opIds: string }>(
        `SELECT a.adopter, c.till_name AS adopterName, a.order_id AS orderId, a.op_ids AS opIds FROM store_adopted AS a
         LEFT JOIN store_cursors AS c ON c.origin = a.adopter
         WHERE a.from_till = ? AND a.surrendered_at IS NULL ORDER BY a.adopted_at, a.order_id`,
        [self],
      )
      .map((row) => ({ ...row, opIds: JSON.parse(row.opIds) as string[] }));
  }

  /**
   * This till's side of an adoption, inside one transaction: the operations taken over leave its
   * outbox (done: the adopter sends them), the order and its money leave its rows (the adopter's
   * copy shows instead). Operations the adopter's copy lacks (made after it by a till that was cut off,
   * or made just before this till went quiet and never pulled) cannot be sent by either: they are
   * returned for the dead letters, and the order stays.
   */
  surrender(self: string, surrender: Surrender, now: number): { unsent: string[] } {
    const reason = `taken over by ${surrender.adopterName ?? 'another till'} while this till was away: it sends this change`;
    const taken = new Set(surrender.opIds);
    const entities = this.sql.allSql<{ kind: EntityKind; id: string }>(
      `SELECT DISTINCT entity_kind AS kind, entity_id AS id FROM store_log
       WHERE json_extract(CAST(body AS TEXT), '$.order') = ? AND entity_kind IN ('order', 'payment_intent', 'payment', 'refund')`,
      [surrender.orderId],
    );
    const unsent: string[] = [];
    for (const entity of entities) {
      for (const op of this.pending.undoneOperations(entity.kind, entity.id)) {
        if (taken.has(op.op_id)) {
          this.sql.runSql("UPDATE outbox SET state = 'done', last_error = ?, updated_at = ? WHERE op_id = ?", [reason, now, op.op_id]);
          this.sql.runSql('DELETE FROM dead_letters WHERE op_id = ?', [op.op_id]);
        } else if (op.state !== 'dead') unsent.push(op.op_id);
      }
    }
    if (unsent.length === 0) {
      for (const entity of entities) {
        this.layers.remove(entity.kind, entity.id, 'pending');
        this.layers.remove(entity.kind, entity.id, 'base');
        // The cloud's copy, pulled from now on, is another till's order here, as on any till: under its cloud id.
        this.ids.unlink(entity.kind, entity.id);
      }
    }
    // Changes other tills sent here for it: the adopter answers them (store-forwards.ts takeOverForwards), not this till.
    this.sql.runSql("UPDATE store_inbox SET state = 'refused', reason = ?, answered_at = ? WHERE order_id = ? AND state = 'waiting'", [reason, now, surrender.orderId]);
    this.sql.runSql('UPDATE store_adopted SET surrendered_at = ? WHERE from_till = ? AND order_id = ?', [now, self, surrender.orderId]);
    return { unsent };
  }

  /** Each entity of the orders: its latest and last confirmed documents, server id and unconfirmed operations, from the quiet till's log. */
  #plans(origin: string, orderIds: readonly string[]) {
    const rows = this.sql.allSql<{ opId: string; body: string }>(
      `SELECT op_id AS opId, CAST(body AS TEXT) AS body FROM store_replica_log
       WHERE origin = ? AND json_extract(CAST(body AS TEXT), '$.order') IN (SELECT value FROM json_each(?)) ORDER BY seq`,
      [origin, JSON.stringify(orderIds)],
    );
    const entities = new Map<string, EntityPlan>();
    const orderOf = new Map<string, string>();
    const servers = new Map<string, string>();
    const finished = new Set<string>();
    for (const row of rows) {
      const parsed = AdoptableEntry.safeParse(JSON.parse(row.body));
      if (!parsed.success || !KINDS.has(parsed.data.kind)) continue;
      const entry = parsed.data;
      const key = `${entry.kind}:${entry.id}`;
      const plan = entities.get(key) ?? { kind: entry.kind as EntityKind, id: entry.id, latest: null, confirmed: null, serverId: null, undone: [] };
      entities.set(key, plan);
      if (entry.order !== null) orderOf.set(key, entry.order);
      if (entry.kind === 'order' && entry.staff) servers.set(entry.id, entry.staff);
      if (entry.doc !== null) plan.latest = entry.doc;
      if (entry.serverId !== undefined) plan.serverId = entry.serverId;
      if (entry.op === 'done' || entry.op === 'dropped') {
        finished.add(row.opId.replace(/\.(done|dropped)$/, ''));
        if (entry.op === 'done' && entry.doc !== null) plan.confirmed = entry.doc;
      } else if (isOperation(entry.op) && entry.operation) {
        plan.undone.push({ opId: row.opId, kind: entry.op, operation: entry.operation });
      }
    }
    for (const plan of entities.values()) plan.undone = plan.undone.filter((op) => !finished.has(op.opId));
    return { entities, orderOf, servers };
  }

  /** One entity written as this till's: its cloud id linked, its confirmed document as base, its unconfirmed operations queued. */
  #takeEntity(plan: EntityPlan, copied: ReadonlySet<string>, originName: string | null, now: number): void {
    const { kind, id } = plan;
    if (plan.serverId !== null && plan.serverId !== id) {
      // Pulled from the cloud already (the quiet till pushed it): that copy is this entity.
      if (this.ids.localIdFor(kind, plan.serverId) === plan.serverId) {
        this.layers.remove(kind, plan.serverId, 'base');
        this.layers.remove(kind, plan.serverId, 'pending');
      }
      this.ids.link(kind, id, plan.serverId);
    }
    const base = plan.undone.length > 0 ? plan.confirmed : plan.latest;
    const doc = base === null ? null : EntityDocs[kind].safeParse(base);
    if (doc?.success) this.layers.write(kind, doc.data as EntityDoc<EntityKind>, 'base');
    else this.layers.remove(kind, id, 'base');
    for (const op of plan.undone) {
      const { operation } = op;
      // Ambiguous since it was made: the quiet till may have sent it, so the first attempt here looks first (sync/push.ts).
      this.sql.runSql(
        `INSERT INTO outbox (op_id, entity_kind, entity_id, kind, payload, patch, resource_key, state, attempts, next_attempt_at, last_error, created_at, updated_at, based_on)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?, ?)`,
        [
          op.opId, kind, id, op.kind, JSON.stringify(operation.payload), JSON.stringify(operation.patch), operation.resourceKey, now,
          `ambiguous since ${operation.createdAt}: taken over from ${originName ?? 'a quiet till'}, which may have sent it`,
          operation.createdAt, now, operation.basedOn === null ? null : JSON.stringify(operation.basedOn),
        ],
      );
      for (const dependsOn of operation.dependsOn) {
        if (copied.has(dependsOn)) this.sql.runSql('INSERT INTO outbox_dependencies (op_id, depends_on_op_id) VALUES (?, ?)', [op.opId, dependsOn]);
      }
    }
    this.pending.rebuild(kind, id);
  }

  /** The order's server on its till serves it here too (the store's staff are the same on every till). */
  #attribute(orderId: string, staff: string, doc: Record<string, unknown> | null, now: number): void {
    const day = typeof doc?.business_day === 'string' ? doc.business_day : null;
    if (day === null) return;
    this.sql.runSql('INSERT OR IGNORE INTO attributions (entity_kind, entity_id, staff_id, shift_id, business_day, at) VALUES (?, ?, ?, NULL, ?, ?)', ['order', orderId, staff, day, now]);
  }
}

/**
 * An adoption read from `adopter`'s log (or made here): every till notes it, so the quiet till's
 * copies of those orders are hidden everywhere and the quiet till, back, gives them up. Answers
 * whether the body was an adoption.
 */
export function receiveAdoption(sql: SqlRunner, adopter: string, body: unknown, now: number): boolean {
  const adoption = AdoptBody.safeParse(body);
  if (!adoption.success) return false;
  for (const { order, ops } of adoption.data.orders) {
    sql.runSql('INSERT OR IGNORE INTO store_adopted (from_till, order_id, adopter, op_ids, adopted_at) VALUES (?, ?, ?, ?, ?)', [
      adoption.data.from, order, adopter, JSON.stringify(ops), now,
    ]);
  }
  return true;
}

/** SQL: the replicated document `d` is not of an order its till no longer owns (adopted by another). */
export const NOT_ADOPTED_AWAY = 'NOT EXISTS (SELECT 1 FROM store_adopted AS a WHERE a.from_till = d.origin AND a.order_id = d.order_id)';
