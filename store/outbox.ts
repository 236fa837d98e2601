// The outbox: every local change waiting for the server, in the order it was made. This is the
// sync engine's side of the store; docs/store.md describes the life of an operation.
import type { Insertable, Kysely } from 'kysely';
import { z } from 'zod';
import type { EntityDoc, EntityKind, OperationKind, OperationState } from './documents';
import type { SqlRunner } from './database';
import { StoreError } from './errors';
import type { IdMap } from './id-map';
import { LineRef, lineRefs, mergeLines, orderTotal, sameLines, type LineConflict } from './order-lines';
import type { PendingChanges } from './pending';
import type { RepricedOrders } from './repriced-orders';
import type { StoreTables } from './schema';
import type { ServerRecord, ServerState } from './server-state';
import type { StoreLog } from './store-log';

export interface OutboxOperation {
  /** Stable from the first write; the engine sends it as the Idempotency-Key. */
  opId: string;
  entityKind: EntityKind;
  /** Local id of the entity the operation acts on. */
  entityId: string;
  kind: OperationKind;
  /** The /v1 request body in local ids; the engine rewrites ids to server ids at send time. */
  payload: Record<string, unknown>;
  /** A change of an order's lines: the lines it was made on (see rebaseOrderLines). Null otherwise. */
  basedOn: LineRef[] | null;
  dependsOn: string[];
  /** Operations with the same key drain strictly in order. */
  resourceKey: string;
  state: OperationState;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
  /** Last change of state: for an operation in flight, when it was claimed (just before it was sent). */
  updatedAt: number;
}

/**
 * Why an operation was refused, as data (the reason text is for logs and managers): what kind of
 * refusal, and the HTTP status and error code when the server gave them. `dependency`: it was
 * never sent because an operation it depends on was refused. `conflict`: another terminal changed
 * the same lines of an order differently first (rebaseOrderLines); this side refused to overwrite.
 */
export const DeadLetterRefusal = z.object({
  cause: z.enum(['invalid', 'not_found', 'permission', 'unresolved_reference', 'unrecordable', 'dependency', 'conflict']),
  status: z.number().int().nullable(),
  code: z.string().nullable(),
});
export type DeadLetterRefusal = z.infer<typeof DeadLetterRefusal>;

export interface DeadLetter {
  id: number;
  reason: string;
  /** Null for letters written before refusals were recorded, or dead-lettered without one. */
  refusal: DeadLetterRefusal | null;
  /** The operation whose failure sent this one here: itself, or one it depended on. */
  causedByOpId: string;
  deadAt: number;
  operation: OutboxOperation;
}

export interface OutboxStats {
  pending: number;
  inFlight: number;
  deadLetters: number;
  /** Age of the oldest unfinished operation in ms, null when none. */
  oldestPendingAgeMs: number | null;
}

/** What a cashier write hands to the outbox: the operation and its effect on the entity. */
export interface NewOperation<K extends EntityKind = EntityKind> {
  opId: string;
  entityKind: K;
  entityId: string;
  kind: OperationKind;
  payload: Record<string, unknown>;
  /** Fields the operation changes in the entity's document (a create gives the whole document). */
  patch: Partial<EntityDoc<K>>;
  /** A change of an order's lines: the lines the cashier changed (the order as the till showed it). */
  basedOn?: LineRef[];
  dependsOn: readonly string[];
  resourceKey: string;
  now: number;
}

/** What rebaseOrderLines made of a change of an order's lines. */
export type LineRebase =
  | { outcome: 'send' }
  | { outcome: 'applied' }
  | { outcome: 'merged'; operation: OutboxOperation; ours: LineRef[]; theirs: LineRef[] }
  | { outcome: 'conflict'; conflicts: LineConflict[] };

type OutboxRow = StoreTables['outbox'] & { seq: number };

const UNFINISHED = ['pending', 'in_flight'];

/**
 * Unfinished or dead operations of the entities in a JSON array of [kind, id]. The index is named
 * because without statistics SQLite prefers the state index and walks every unfinished row.
 * Exported so a test can check the plan of this very text.
 */
export const SYNC_STATES_OF_SQL = `SELECT o.entity_kind, o.entity_id, o.state FROM json_each(?) AS wanted
  JOIN outbox AS o INDEXED BY outbox_by_entity
    ON o.entity_kind = json_extract(wanted.value, '$[0]') AND o.entity_id = json_extract(wanted.value, '$[1]')
 WHERE o.state IN ('pending', 'in_flight', 'dead')`;

/**
 * The oldest unfinished operations (pending or in flight), oldest first, at most the limit (bound
 * to each of its three placeholders), each with the order it concerns (an order's own, a card
 * payment's, a refund's payment's) and that order's number. Each state is walked in queue order
 * on its index and stops at the limit, so it costs the same with 50 changes waiting or 50,000.
 * Exported so a test can check its plan.
 */
export const WAITING_SQL = `
  WITH oldest AS (
    SELECT * FROM (SELECT * FROM outbox INDEXED BY outbox_by_state_seq WHERE state = 'pending' ORDER BY seq LIMIT ?)
    UNION ALL
    SELECT * FROM (SELECT * FROM outbox INDEXED BY outbox_by_state_seq WHERE state = 'in_flight' ORDER BY seq LIMIT ?)
    ORDER BY seq LIMIT ?),
  concerning AS MATERIALIZED (
    SELECT oldest.*, CASE oldest.entity_kind
        WHEN 'order' THEN oldest.entity_id
        WHEN 'payment_intent' THEN (SELECT i.order_id FROM payment_intents AS i WHERE i.id = oldest.entity_id LIMIT 1)
        WHEN 'refund' THEN (SELECT p.order_id FROM payments AS p WHERE p.id = json_extract(oldest.payload, '$.payment_id') LIMIT 1)
      END AS order_id
    FROM oldest)
  SELECT concerning.*, (SELECT d.number FROM orders AS d WHERE d.id = concerning.order_id ORDER BY d.layer = 'pending' DESC LIMIT 1) AS order_number
  FROM concerning ORDER BY seq`;

/** A waiting operation and the order it concerns, if any. */
export interface WaitingOperation {
  operation: OutboxOperation;
  order: { id: string; number: string | null } | null;
}

export class Outbox {
  readonly #readySql: string;
  readonly #insertOperation: (row: Insertable<StoreTables['outbox']>) => unknown;

  constructor(
    private readonly kysely: Kysely<StoreTables>,
    private readonly sql: SqlRunner,
    private readonly pending: PendingChanges,
    private readonly ids: IdMap,
    private readonly server: ServerState,
    private readonly repriced: RepricedOrders,
    private readonly transaction: <T>(fn: () => T) => T,
    /** Store mode's log: every operation (and its reaching the cloud) appends to it in the same transaction. */
    private readonly log: StoreLog,
  ) {
    this.#insertOperation = sql.compiledInsert(kysely, 'outbox', [
      'op_id', 'entity_kind', 'entity_id', 'kind', 'payload', 'patch', 'resource_key',
      'state', 'attempts', 'next_attempt_at', 'last_error', 'created_at', 'updated_at', 'based_on',
    ]);
    // Walks pending operations in seq order and stops at the limit (migration 4's index); the
    // planner would otherwise pick (state, next_attempt_at) and sort every pending row per call.
    this.#readySql = `
      SELECT o.* FROM outbox AS o INDEXED BY outbox_by_state_seq
      WHERE o.state = 'pending' AND o.next_attempt_at <= ?
        AND NOT EXISTS (
          SELECT 1 FROM outbox_dependencies AS d JOIN outbox AS dep ON dep.op_id = d.depends_on_op_id
          WHERE d.op_id = o.op_id AND dep.state <> 'done')
        AND NOT EXISTS (
          SELECT 1 FROM outbox AS earlier
          WHERE earlier.resource_key = o.resource_key AND earlier.seq < o.seq AND earlier.state IN ('pending', 'in_flight'))
      ORDER BY o.seq
      LIMIT ?`;
  }

  /**
   * Appends an operation and applies its patch to the entity's pending layer. Must run inside the
   * cashier write's transaction so the domain rows and the outbox row commit together.
   */
  enqueue<K extends EntityKind>(op: NewOperation<K>): EntityDoc<K> {
    // A create brings a whole document, built and validated by its repository, for a fresh id.
    const isCreate = op.kind.endsWith('.create');
    const doc = isCreate
      ? (op.patch as EntityDoc<K>)
      : this.pending.layers.applyPatch(op.entityKind, this.pending.layers.merged(op.entityKind, op.entityId), op.patch);
    if (!doc) throw new StoreError('not_found', `${op.entityKind} ${op.entityId} does not exist`);
    this.#insertOperation({
        op_id: op.opId,
        entity_kind: op.entityKind,
        entity_id: op.entityId,
        kind: op.kind,
        payload: JSON.stringify(op.payload),
        patch: JSON.stringify(op.patch),
        resource_key: op.resourceKey,
        state: 'pending',
        attempts: 0,
        next_attempt_at: op.now,
        last_error: null,
        created_at: op.now,
        updated_at: op.now,
        based_on: op.basedOn ? JSON.stringify(op.basedOn) : null,
      });
    for (const dependsOn of op.dependsOn) {
      this.sql.run(this.kysely.insertInto('outbox_dependencies').values({ op_id: op.opId, depends_on_op_id: dependsOn }));
    }
    this.#joinRefusedDependency(op.opId, op.dependsOn, op.now);
    this.pending.layers.write(op.entityKind, doc, 'pending', undefined, { fresh: isCreate });
    this.log.record({
      entryId: op.opId, op: op.kind, kind: op.entityKind, id: op.entityId, now: op.now,
      operation: { payload: op.payload, patch: op.patch, dependsOn: op.dependsOn, resourceKey: op.resourceKey, basedOn: op.basedOn ?? null, createdAt: op.now },
    });
    return doc;
  }

  /**
   * A change made on an entity whose earlier change the cloud refused waits with it in the dead
   * letters, as the changes made before the refusal did: retrying the refused one sends both,
   * discarding it drops both.
   */
  #joinRefusedDependency(opId: string, dependsOn: readonly string[], now: number): void {
    if (dependsOn.length === 0) return;
    const [refused] = this.sql.allSql<{ op_id: string; caused_by_op_id: string }>(
      `SELECT l.op_id, l.caused_by_op_id FROM dead_letters AS l JOIN outbox AS o USING (op_id)
        WHERE o.state = 'dead' AND l.op_id IN (SELECT value FROM json_each(?)) ORDER BY o.seq LIMIT 1`,
      [JSON.stringify(dependsOn)],
    );
    if (!refused) return;
    const [cause] = this.sql.allSql<{ reason: string }>('SELECT reason FROM dead_letters WHERE op_id = ?', [refused.caused_by_op_id]);
    const reason = `depends on ${refused.caused_by_op_id}, which failed: ${cause?.reason ?? 'refused'}`;
    this.sql.runSql("UPDATE outbox SET state = 'dead', last_error = ?, updated_at = ? WHERE op_id = ?", [reason, now, opId]);
    this.sql.run(
      this.kysely.insertInto('dead_letters').values({
        op_id: opId,
        reason,
        caused_by_op_id: refused.caused_by_op_id,
        dead_at: now,
        refusal: JSON.stringify({ cause: 'dependency', status: null, code: null }),
      }),
    );
  }

  /**
   * Something the till settles itself, with no operation for the cloud (cash taken, cash given
   * back), written to base by its repository: store mode's log still carries it, so a peer sees an
   * order paid. Call inside that write's transaction.
   */
  settledAtTill(kind: EntityKind, id: string, now: number): void {
    this.log.record({ entryId: `${id}.settled`, op: 'settled', kind, id, now });
  }

  /**
   * Fields only this till keeps (an item's barcode) changed on their own: nothing for the cloud,
   * so no operation. They are written to base and to every queued patch of the entity that names
   * them (a replay would otherwise bring the older value back), then pending is rebuilt. Call
   * inside the cashier write's transaction.
   */
  setTillOnlyFields<K extends EntityKind>(kind: K, id: string, fields: Partial<EntityDoc<K>>): void {
    const base = this.pending.layers.readWithMeta(kind, id, 'base');
    if (base) this.pending.layers.write(kind, { ...base.doc, ...fields }, 'base', base.meta);
    for (const [name, value] of Object.entries(fields)) {
      this.sql.runSql(
        `UPDATE outbox SET patch = json_set(patch, ?, json(?))
          WHERE entity_kind = ? AND entity_id = ? AND state IN ('pending', 'in_flight', 'dead') AND json_type(patch, ?) IS NOT NULL`,
        [`$.${name}`, JSON.stringify(value), kind, id, `$.${name}`],
      );
    }
    this.pending.rebuild(kind, id);
  }

  /**
   * The entity's newest operation not done: a new operation on it depends on that one. A refused
   * one (dead) counts: what is made after it was made on a view that shows it, so it must not
   * overtake it; it joins it in the dead letters until a person retries or discards it (enqueue).
   */
  latestUnfinished(kind: EntityKind, id: string): string | undefined {
    return this.pending.undoneOperations(kind, id).at(-1)?.op_id;
  }

  /**
   * State of the operation that creates this entity here, if it was created here: the engine uses
   * it to tell an id the server has never seen (create not done) from a server id.
   */
  createState(kind: EntityKind, localId: string): OperationState | undefined {
    // Fixed SQL text (a cached statement): runs for every reference of every request a drain builds.
    const [row] = this.sql.allSql<{ state: string }>(
      `SELECT state FROM outbox WHERE entity_kind = ? AND entity_id = ? AND kind LIKE '%.create' ORDER BY seq LIMIT 1`,
      [kind, localId],
    );
    return row?.state as OperationState | undefined;
  }

  /** What each of these operations depends on, in one query. */
  #dependenciesOf(rows: readonly OutboxRow[]): Map<string, string[]> {
    const dependencies = new Map<string, string[]>();
    if (rows.length === 0) return dependencies;
    const found = this.sql.allSql<{ op_id: string; depends_on_op_id: string }>(
      'SELECT op_id, depends_on_op_id FROM outbox_dependencies WHERE op_id IN (SELECT value FROM json_each(?))',
      [JSON.stringify(rows.map((row) => row.op_id))],
    );
    for (const { op_id: opId, depends_on_op_id: dependsOn } of found) {
      const list = dependencies.get(opId);
      if (list) list.push(dependsOn);
      else dependencies.set(opId, [dependsOn]);
    }
    return dependencies;
  }

  /** Rows to operations. The per-operation reads and writes of a drain use fixed SQL text (cached statements). */
  #toOperations(rows: readonly OutboxRow[]): OutboxOperation[] {
    const dependencies = this.#dependenciesOf(rows);
    return rows.map((row) => ({
      opId: row.op_id,
      entityKind: row.entity_kind as EntityKind,
      entityId: row.entity_id,
      kind: row.kind as OperationKind,
      payload: JSON.parse(row.payload) as Record<string, unknown>,
      basedOn: row.based_on === null ? null : LineRef.array().parse(JSON.parse(row.based_on)),
      dependsOn: dependencies.get(row.op_id) ?? [],
      resourceKey: row.resource_key,
      state: row.state as OperationState,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at,
      lastError: row.last_error,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }));
  }

  #toOperation(row: OutboxRow): OutboxOperation {
    return this.#toOperations([row])[0] as OutboxOperation;
  }

  #row(opId: string): OutboxRow {
    const row = this.sql.allSql<OutboxRow>('SELECT * FROM outbox WHERE op_id = ?', [opId])[0];
    if (!row) throw new StoreError('not_found', `no outbox operation ${opId}`);
    return row;
  }

  getOperation(opId: string): OutboxOperation {
    return this.#toOperation(this.#row(opId));
  }

  /** Pending, due, every dependency done, and no earlier unfinished operation on the same resource key. */
  readyOperations(now: number, limit: number): OutboxOperation[] {
    return this.#toOperations(this.sql.allSql<OutboxRow>(this.#readySql, [now, limit]));
  }

  /**
   * Claims up to `limit` ready operations, in queue order: in flight, one more attempt each. Durable
   * with the commit of the surrounding transaction, which must come before any of them is sent.
   * The same as readyOperations followed by markInFlight on each, in three statements in all.
   */
  claimReady(now: number, limit: number): OutboxOperation[] {
    return this.transaction(() => {
      const rows = this.sql.allSql<OutboxRow>(this.#readySql, [now, limit]);
      if (rows.length === 0) return [];
      this.sql.runSql("UPDATE outbox SET state = 'in_flight', attempts = attempts + 1, updated_at = ? WHERE seq IN (SELECT value FROM json_each(?))", [
        now,
        JSON.stringify(rows.map((row) => row.seq)),
      ]);
      return this.#toOperations(rows.map((row) => ({ ...row, state: 'in_flight', attempts: row.attempts + 1, updated_at: now })));
    });
  }

  /** Durable before the request goes out: after a crash an in-flight operation is known to be ambiguous. */
  markInFlight(opId: string, now: number): OutboxOperation {
    return this.transaction(() => {
      const row = this.#row(opId);
      if (row.state !== 'pending') throw new StoreError('conflict', `operation ${opId} is ${row.state}, not pending`);
      this.sql.runSql("UPDATE outbox SET state = 'in_flight', attempts = ?, updated_at = ? WHERE op_id = ?", [row.attempts + 1, now, opId]);
      return this.#toOperation({ ...row, state: 'in_flight', attempts: row.attempts + 1, updated_at: now });
    });
  }

  /** Operations whose request may or may not have reached the server (for recovery after a restart). */
  inFlightOperations(): OutboxOperation[] {
    const rows = this.sql.all(this.kysely.selectFrom('outbox').selectAll().where('state', '=', 'in_flight').orderBy('seq')) as OutboxRow[];
    return this.#toOperations(rows);
  }

  /**
   * The server accepted the operation. In one transaction: state done, local id linked to the
   * server id, the server's record written to base, and the pending layer replayed without it.
   */
  completeOperation(opId: string, result: { serverId?: string; serverRecord?: ServerRecord } = {}, now: number = Date.now()): void {
    this.transaction(() => {
      const row = this.#row(opId);
      if (row.state === 'done') return;
      if (row.state === 'dead') throw new StoreError('conflict', `operation ${opId} is in the dead letters; retry it before completing it`);
      const kind = row.entity_kind as EntityKind;
      const serverId = result.serverId ?? result.serverRecord?.id;
      if (serverId !== undefined && serverId !== row.entity_id) {
        // A pull or webhook may have delivered this entity before the reply did: that copy was the same entity.
        if (this.ids.localIdFor(kind, serverId) === serverId) this.pending.layers.remove(kind, serverId, 'base');
        this.ids.link(kind, row.entity_id, serverId);
      }
      this.sql.runSql("UPDATE outbox SET state = 'done', last_error = NULL, updated_at = ? WHERE op_id = ?", [now, opId]);
      if (row.kind.endsWith('.delete')) {
        this.pending.layers.remove(kind, row.entity_id, 'base');
        this.pending.rebuild(kind, row.entity_id);
      } else {
        // What we sent is now confirmed; the server's record, when the reply has one, has the last word.
        const base = this.pending.layers.read(kind, row.entity_id, 'base');
        const patch = JSON.parse(row.patch) as Partial<EntityDoc<EntityKind>>;
        const sent = this.pending.layers.applyPatch(kind, base, patch);
        if (result.serverRecord) {
          if (kind === 'order') this.#noteRepricing(row.entity_id, patch as Partial<EntityDoc<'order'>>, (sent as EntityDoc<'order'> | undefined)?.currency, result.serverRecord, now);
          this.server.writeBase(kind, row.entity_id, result.serverRecord, {}, sent);
        } else {
          if (sent) this.pending.layers.write(kind, sent, 'base');
          this.pending.rebuild(kind, row.entity_id);
        }
      }
      const linked = serverId ?? this.ids.serverIdFor(kind, row.entity_id);
      this.log.record({ entryId: `${opId}.done`, op: 'done', kind, id: row.entity_id, now, ...(linked === undefined ? {} : { serverId: linked }) });
    });
  }

  /**
   * The server prices an order's lines itself (/v1 takes no prices): when the lines we sent come
   * back with another total, the customer paid a price the server does not have. The record's
   * total is what the items come to (sync/server-records.ts: the cloud's subtotal where it has one).
   */
  #noteRepricing(orderId: string, sent: Partial<EntityDoc<'order'>>, sentCurrency: string | undefined, reply: ServerRecord, now: number): void {
    // A cloud whose total has the till's tax and discounts in (no subtotal of its own) agrees with the till's check.
    if (sent.total === undefined || typeof reply.total !== 'number' || reply.total === sent.total || reply.total === sent.check_total) return;
    const currency = typeof reply.currency === 'string' ? reply.currency : sentCurrency;
    if (currency === undefined) return;
    this.repriced.record({ orderId, tillTotal: sent.total, serverTotal: reply.total, currency, detectedAt: now });
  }

  /**
   * Before a change of an order's lines is sent, with the server's order as it is now (another
   * terminal may have changed its lines since the change was made; /v1 takes a PATCH's lines
   * whole). In one transaction the server's order is written to base, then:
   * - its lines are still the ones the change was made on: 'send', as it is;
   * - they already are what the change makes of them (an earlier attempt whose reply was lost):
   *   'applied', nothing to send;
   * - else the change is rewritten as the three-way merge of both sides (store/order-lines.ts),
   *   based on the server's lines now, durably before anything is sent: 'merged', to send; or,
   *   when both sides changed the same item differently, 'conflict': the rewritten change goes to
   *   the dead letters, where retrying it sends the merge with this side's quantities for those
   *   items and discarding it keeps the other side's.
   */
  rebaseOrderLines(opId: string, current: ServerRecord, now: number = Date.now()): LineRebase {
    return this.transaction(() => {
      const row = this.#row(opId);
      if (row.entity_kind !== 'order' || row.based_on === null) return { outcome: 'send' };
      this.server.applyServerRecord('order', current);
      const theirLines = this.pending.layers.read('order', row.entity_id, 'base')?.lines;
      const patch = JSON.parse(row.patch) as Partial<EntityDoc<'order'>>;
      if (theirLines === undefined || patch.lines === undefined) return { outcome: 'send' };
      const theirs = lineRefs(theirLines);
      const basedOn = LineRef.array().parse(JSON.parse(row.based_on));
      if (sameLines(theirs, basedOn)) return { outcome: 'send' };
      const ours = lineRefs(patch.lines);
      if (sameLines(theirs, ours)) return { outcome: 'applied' };
      const { lines, conflicts } = mergeLines(basedOn, patch.lines, theirLines);
      this.sql.runSql('UPDATE outbox SET payload = ?, patch = ?, based_on = ?, updated_at = ? WHERE op_id = ?', [
        JSON.stringify({ ...(JSON.parse(row.payload) as Record<string, unknown>), items: lineRefs(lines) }),
        JSON.stringify({ ...patch, lines, total: orderTotal(lines) }),
        JSON.stringify(theirs),
        now,
        opId,
      ]);
      if (conflicts.length > 0) {
        const items = conflicts.map((c) => `${c.name || 'an item'}: ${c.ours} here, ${c.theirs} there (was ${c.ancestor})`).join('; ');
        this.deadLetter(opId, `the order's lines were changed elsewhere at the same time: ${items}`, now, { cause: 'conflict', status: null, code: null });
        return { outcome: 'conflict', conflicts };
      }
      this.pending.rebuild('order', row.entity_id);
      return { outcome: 'merged', operation: this.getOperation(opId), ours, theirs };
    });
  }

  /** A transient failure: back to pending, due again at `nextAttemptAt`. */
  scheduleRetry(opId: string, error: string, nextAttemptAt: number, now: number = Date.now()): void {
    this.transaction(() => {
      const row = this.#row(opId);
      if (row.state === 'done' || row.state === 'dead') throw new StoreError('conflict', `operation ${opId} is ${row.state}; it cannot be retried`);
      this.sql.run(
        this.kysely.updateTable('outbox').set({ state: 'pending', last_error: error, next_attempt_at: nextAttemptAt, updated_at: now }).where('op_id', '=', opId),
      );
    });
  }

  /** The operation and every unfinished operation depending on it, transitively (dependents after it). */
  #withDependents(opId: string): OutboxRow[] {
    return this.sql.allSql<OutboxRow>(
      `WITH RECURSIVE affected(op_id) AS (
         SELECT ?
         UNION SELECT d.op_id FROM outbox_dependencies AS d JOIN affected AS a ON d.depends_on_op_id = a.op_id)
       SELECT o.* FROM outbox AS o JOIN affected USING (op_id) ORDER BY o.seq`,
      [opId],
    );
  }

  /**
   * A permanent failure: the operation and everything depending on it leave the queue for the dead
   * letters. The entities' merged view keeps showing them (their sync state says refused) until a
   * person retries or discards them: a refused order and its payments stay on the till.
   */
  deadLetter(opId: string, reason: string, now: number = Date.now(), refusal: DeadLetterRefusal | null = null): void {
    this.transaction(() => {
      const cause = this.#row(opId);
      if (cause.state === 'done') throw new StoreError('conflict', `operation ${opId} is done; it cannot be dead-lettered`);
      const affected = this.#withDependents(opId).filter((row) => row.state !== 'done' && row.state !== 'dead');
      for (const row of affected) {
        this.sql.run(
          this.kysely.updateTable('outbox').set({ state: 'dead', last_error: reason, updated_at: now }).where('op_id', '=', row.op_id),
        );
        this.sql.run(
          this.kysely.insertInto('dead_letters').values({
            op_id: row.op_id,
            reason: row.op_id === opId ? reason : `depends on ${opId}, which failed: ${reason}`,
            caused_by_op_id: opId,
            dead_at: now,
            refusal: row.op_id !== opId ? JSON.stringify({ cause: 'dependency', status: null, code: null }) : refusal && JSON.stringify(refusal),
          }),
        );
      }
      this.#rebuildEntitiesOf(affected);
    });
  }

  #rebuildEntitiesOf(rows: readonly OutboxRow[]): void {
    const seen = new Set<string>();
    for (const row of rows) {
      const key = `${row.entity_kind}\u0000${row.entity_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      this.pending.rebuild(row.entity_kind as EntityKind, row.entity_id);
    }
  }

  #deadLetterRow(id: number): StoreTables['dead_letters'] & { id: number } {
    const row = this.sql.first(this.kysely.selectFrom('dead_letters').selectAll().where('id', '=', id));
    if (!row) throw new StoreError('not_found', `no dead letter ${id}`);
    return row as StoreTables['dead_letters'] & { id: number };
  }

  /** Puts a dead operation, and the ones that died because of it, back in the queue, due now. */
  retryDeadLetter(id: number, now: number = Date.now()): void {
    this.transaction(() => {
      const letter = this.#deadLetterRow(id);
      const deadDependency = this.sql.first(
        this.kysely
          .selectFrom('outbox_dependencies')
          .innerJoin('outbox', 'outbox.op_id', 'outbox_dependencies.depends_on_op_id')
          .select('outbox.op_id')
          .where('outbox_dependencies.op_id', '=', letter.op_id)
          .where('outbox.state', '=', 'dead'),
      );
      if (deadDependency) {
        throw new StoreError('dependency_dead', `operation ${letter.op_id} depends on ${deadDependency.op_id}, which is still a dead letter; retry that one`);
      }
      const group = this.sql.all(this.kysely.selectFrom('dead_letters').select('op_id').where('caused_by_op_id', '=', letter.op_id)).map((r) => r.op_id);
      const revived = group.includes(letter.op_id) ? group : [letter.op_id, ...group];
      for (const opId of revived) {
        this.sql.run(
          this.kysely.updateTable('outbox').set({ state: 'pending', attempts: 0, next_attempt_at: now, last_error: null, updated_at: now }).where('op_id', '=', opId),
        );
        this.sql.run(this.kysely.deleteFrom('dead_letters').where('op_id', '=', opId));
      }
      this.#rebuildEntitiesOf(revived.map((opId) => this.#row(opId)));
    });
  }

  /** Gives up on a dead operation for good, with everything that depended on it; the merged view reverts to what the server confirmed. */
  discardDeadLetter(id: number, now: number = Date.now()): void {
    this.transaction(() => {
      const letter = this.#deadLetterRow(id);
      const affected = this.#withDependents(letter.op_id);
      // Dependents first: a dependency row must not point at a deleted operation.
      for (const row of [...affected].reverse()) this.sql.run(this.kysely.deleteFrom('outbox').where('op_id', '=', row.op_id));
      this.#rebuildEntitiesOf(affected);
      for (const row of affected) this.log.record({ entryId: `${row.op_id}.dropped`, op: 'dropped', kind: row.entity_kind as EntityKind, id: row.entity_id, now });
    });
  }

  listDeadLetters(): DeadLetter[] {
    const letters = this.sql.all(this.kysely.selectFrom('dead_letters').selectAll().orderBy('id')) as (StoreTables['dead_letters'] & { id: number })[];
    return letters.map((l) => ({
      id: l.id,
      reason: l.reason,
      refusal: l.refusal === null ? null : DeadLetterRefusal.parse(JSON.parse(l.refusal)),
      causedByOpId: l.caused_by_op_id,
      deadAt: l.dead_at,
      operation: this.getOperation(l.op_id),
    }));
  }

  outboxStats(now: number): OutboxStats {
    const counts = this.sql.allSql<{ state: string; n: number; oldest: number | null }>(
      `SELECT state, COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox WHERE state IN ('pending', 'in_flight', 'dead') GROUP BY state`,
      [],
    );
    const of = (state: string) => counts.find((c) => c.state === state);
    const oldest = [of('pending')?.oldest, of('in_flight')?.oldest].filter((t): t is number => t != null);
    return {
      pending: of('pending')?.n ?? 0,
      inFlight: of('in_flight')?.n ?? 0,
      deadLetters: of('dead')?.n ?? 0,
      oldestPendingAgeMs: oldest.length ? now - Math.min(...oldest) : null,
    };
  }

  /**
   * Deletes operations done before `before`, except those a newer or unfinished operation still
   * depends on. Their effects live in base and the id map; the rows are only history.
   */
  pruneCompleted(before: number): number {
    return this.transaction(
      () =>
        this.sql.runSql(
          `DELETE FROM outbox WHERE state = 'done' AND updated_at < ?
             AND NOT EXISTS (
               SELECT 1 FROM outbox_dependencies AS d JOIN outbox AS dependent ON dependent.op_id = d.op_id
               WHERE d.depends_on_op_id = outbox.op_id AND (dependent.state <> 'done' OR dependent.updated_at >= ?))`,
          [before, before],
        ).changes,
    );
  }

  /**
   * Sync state per entity, keyed "kind:localId": 'dead' if any of its operations is a dead letter,
   * else 'unfinished' if one is pending or in flight. Entities absent from the map are in sync.
   */
  entitySyncStates(): Map<string, 'unfinished' | 'dead'> {
    const rows = this.sql.all(
      this.kysely.selectFrom('outbox').select(['entity_kind', 'entity_id', 'state']).where('state', 'in', [...UNFINISHED, 'dead']),
    );
    const states = new Map<string, 'unfinished' | 'dead'>();
    for (const row of rows) {
      const key = `${row.entity_kind}:${row.entity_id}`;
      if (row.state === 'dead') states.set(key, 'dead');
      else if (!states.has(key)) states.set(key, 'unfinished');
    }
    return states;
  }

  /**
   * The same states as `entitySyncStates`, for the given entities only: one indexed lookup each
   * (outbox_by_entity), so an order's view costs the same however long the queue is.
   */
  syncStatesOf(entities: readonly { kind: EntityKind; id: string }[]): Map<string, 'unfinished' | 'dead'> {
    const states = new Map<string, 'unfinished' | 'dead'>();
    if (entities.length === 0) return states;
    const rows = this.sql.allSql<{ entity_kind: string; entity_id: string; state: string }>(
      SYNC_STATES_OF_SQL,
      [JSON.stringify(entities.map((entity) => [entity.kind, entity.id]))],
    );
    for (const row of rows) {
      const key = `${row.entity_kind}:${row.entity_id}`;
      if (row.state === 'dead') states.set(key, 'dead');
      else if (!states.has(key)) states.set(key, 'unfinished');
    }
    return states;
  }

  /** The oldest `limit` unfinished operations with their orders (WAITING_SQL): what the sync panel lists. */
  waiting(limit: number): WaitingOperation[] {
    const rows = this.sql.allSql<OutboxRow & { order_id: string | null; order_number: string | null }>(WAITING_SQL, [limit, limit, limit]);
    const operations = this.#toOperations(rows);
    return rows.map((row, i) => ({ operation: operations[i]!, order: row.order_id === null ? null : { id: row.order_id, number: row.order_number } }));
  }

  /** Unfinished operations (pending or in flight): sign-out, reset and self-update wait for zero. */
  unfinishedCount(): number {
    return this.sql.first(
      this.kysely.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('state', 'in', UNFINISHED),
    )?.n ?? 0;
  }
}
