// Store mode's forwarding (docs/store-mode.md, "Built (layer 3)"): a change this till makes to an
// order another till owns travels in this till's own log, as one entry addressed to the owner. The
// owner records each forward addressed to it in its inbox with the page that brought it, applies it
// through its cashier in the transaction that takes the inbox row out of 'waiting' (so once,
// however often the page comes), and answers in its own log; the forwarding till reads the answer
// when it pulls the owner. Only the tables and the entries are here: the core applies the change.
import { z } from 'zod';
import type { SqlRunner } from './database';
import { LineRef } from './order-lines';

/** An entry of this till's log that is no outbox operation's (a forward, an answer to one): its body as it goes out. */
export interface RawEntry {
  entryId: string;
  kind: string;
  /** The order it is about. */
  id: string;
  body: object;
  now: number;
}

const Person = z.object({ id: z.string().min(1).max(100), name: z.string().max(100), role: z.enum(['cashier', 'manager', 'owner']) });
export type ForwardPerson = z.infer<typeof Person>;
/** Who did something in the store (a forward, an adoption), as entries carry them. */
export { Person as StorePerson };

/** A forward as it travels (the body of its entry in the forwarding till's log). */
export const ForwardBody = z.object({
  op: z.literal('forward'),
  /** The till that owns the order: the only one that applies it. */
  owner: z.string().min(1).max(100),
  order: z.string().min(1).max(100),
  /** The change as the bridge states it (storeMode.changeOrder); the owner's core checks it again. */
  change: z.object({ kind: z.string() }).catchall(z.unknown()),
  /** The order as the forwarding till saw it: the owner's log seq of its replica, and its lines (the merge's ancestor). */
  basedOn: z.object({ seq: z.number().int().min(0), lines: z.array(LineRef) }),
  by: Person,
  approvedBy: Person.nullable(),
  from: z.object({ till: z.string().min(1).max(100), name: z.string().max(100) }),
  at: z.number(),
});
export type ForwardBody = z.infer<typeof ForwardBody>;

/** The owner's answer to a forward (the body of its entry in the owner's log). */
export const ForwardOutcomeBody = z.object({
  op: z.literal('forward.outcome'),
  forward: z.string().min(1).max(100),
  /** The till that forwarded it. */
  origin: z.string().min(1).max(100),
  order: z.string().min(1).max(100),
  outcome: z.enum(['applied', 'refused']),
  /** Why it was refused, in words; null when applied. */
  reason: z.string().nullable(),
  /** Applied: the seq of the order's entry in the owner's log that carries the change. */
  seq: z.number().int().nullable(),
});
export type ForwardOutcomeBody = z.infer<typeof ForwardOutcomeBody>;

export type ForwardState = 'pending' | 'applied' | 'refused';

/** One of this till's forwards. */
export interface SentForward {
  opId: string;
  owner: string;
  orderId: string;
  change: ForwardBody['change'];
  byName: string;
  state: ForwardState;
  reason: string | null;
  createdAt: number;
  answeredAt: number | null;
}

/** A forward addressed to this till, not applied or refused yet. */
export interface WaitingForward {
  opId: string;
  origin: string;
  body: ForwardBody;
}

export class StoreForwards {
  readonly #sql: SqlRunner;
  /** StoreLog.append: into this till's log, waking its peers once the transaction commits. */
  readonly #append: (entry: RawEntry) => void;

  constructor(sql: SqlRunner, append: (entry: RawEntry) => void) {
    this.#sql = sql;
    this.#append = append;
  }

  /** Keeps a forward and appends its entry to this till's log; call inside the store's transaction. */
  send(opId: string, body: ForwardBody): SentForward {
    this.#sql.runSql('INSERT INTO store_forwards (op_id, owner, order_id, change, by_name, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      opId, body.owner, body.order, JSON.stringify(body.change), body.by.name, 'pending', body.at,
    ]);
    this.#append({ entryId: opId, kind: 'forward', id: body.order, body, now: body.at });
    return { opId, owner: body.owner, orderId: body.order, change: body.change, byName: body.by.name, state: 'pending', reason: null, createdAt: body.at, answeredAt: null };
  }

  /** This till's forwards still waiting for their owner, and those refused since `refusedSince`, oldest first. */
  sent(refusedSince: number): SentForward[] {
    const rows = this.#sql.allSql<{ opId: string; owner: string; orderId: string; change: string; byName: string; state: ForwardState; reason: string | null; createdAt: number; answeredAt: number | null }>(
      `SELECT op_id AS opId, owner, order_id AS orderId, change, by_name AS byName, state, reason, created_at AS createdAt, answered_at AS answeredAt
       FROM store_forwards WHERE state = 'pending' OR (state = 'refused' AND answered_at >= ?) ORDER BY created_at, op_id`,
      [refusedSince],
    );
    return rows.map((row) => ({ ...row, change: JSON.parse(row.change) as ForwardBody['change'] }));
  }

  state(opId: string): ForwardState | null {
    return this.#sql.allSql<{ state: ForwardState }>('SELECT state FROM store_forwards WHERE op_id = ?', [opId])[0]?.state ?? null;
  }

  /** Forwards addressed to this till not answered yet, in the order they arrived. */
  waiting(limit: number): WaitingForward[] {
    const rows = this.#sql.allSql<{ opId: string; origin: string; body: string }>(
      "SELECT op_id AS opId, origin, body FROM store_inbox WHERE state = 'waiting' ORDER BY seq LIMIT ?",
      [limit],
    );
    return rows.map((row) => ({ opId: row.opId, origin: row.origin, body: ForwardBody.parse(JSON.parse(row.body)) }));
  }

  /**
   * Answers a waiting forward and appends the answer to this till's log; call inside the transaction
   * that applied the change (or refused it). False, and nothing written, when it was answered already.
   */
  answer(forward: WaitingForward, outcome: { outcome: 'applied' | 'refused'; reason: string | null; seq: number | null }, now: number): boolean {
    const taken = this.#sql.runSql("UPDATE store_inbox SET state = ?, reason = ?, answered_at = ? WHERE op_id = ? AND state = 'waiting'", [outcome.outcome, outcome.reason, now, forward.opId]);
    if (taken.changes === 0) return false;
    // A forward this till sent itself, to a till it then adopted the order from, is settled here (no peer answers it).
    this.#sql.runSql("UPDATE store_forwards SET state = ?, reason = ?, answered_seq = ?, answered_at = ? WHERE op_id = ? AND state = 'pending'", [outcome.outcome, outcome.reason, outcome.seq, now, forward.opId]);
    const body: ForwardOutcomeBody = { op: 'forward.outcome', forward: forward.opId, origin: forward.origin, order: forward.body.order, ...outcome };
    this.#append({ entryId: `${forward.opId}.outcome`, kind: 'forward.outcome', id: forward.body.order, body, now });
    return true;
  }
}

/**
 * What a replica page does with forwarding entries (StoreReplicas.apply, in the page's transaction):
 * a forward addressed to `self` goes into the inbox (once: its op id is the key), and the owner's
 * answer to one of this till's forwards settles it (a pending one only: an answer read again changes nothing).
 */
export function receiveForwarding(sql: SqlRunner, origin: string, opId: string, body: unknown, self: string, now: number): void {
  const forward = ForwardBody.safeParse(body);
  if (forward.success) {
    const { owner, order } = forward.data;
    // Addressed here (unless another till adopted the order from this one), or to a till this one adopted it from.
    const mine = owner === self ? !adopted(sql, self, order, null) : adopted(sql, owner, order, self);
    if (mine) receiveForward(sql, origin, opId, forward.data, now);
    return;
  }
  const outcome = ForwardOutcomeBody.safeParse(body);
  if (!outcome.success || outcome.data.origin !== self) return;
  // Answered by the owner it was sent to, or by the till that adopted the order from it.
  sql.runSql(
    `UPDATE store_forwards SET state = ?, reason = ?, answered_seq = ?, answered_at = ? WHERE op_id = ? AND state = 'pending'
       AND (owner = ? OR EXISTS (SELECT 1 FROM store_adopted AS a WHERE a.from_till = store_forwards.owner AND a.order_id = store_forwards.order_id AND a.adopter = ?))`,
    [outcome.data.outcome, outcome.data.reason, outcome.data.seq, now, outcome.data.forward, origin, origin],
  );
}

function receiveForward(sql: SqlRunner, origin: string, opId: string, forward: ForwardBody, now: number): void {
  sql.runSql("INSERT OR IGNORE INTO store_inbox (op_id, origin, order_id, body, state, received_at) VALUES (?, ?, ?, ?, 'waiting', ?)", [opId, origin, forward.order, JSON.stringify(forward), now]);
}

/** Whether `order` was adopted from `from` (by `adopter`, or by anyone when null). */
function adopted(sql: SqlRunner, from: string, order: string, adopter: string | null): boolean {
  return sql.allSql('SELECT 1 FROM store_adopted WHERE from_till = ? AND order_id = ? AND (? IS NULL OR adopter = ?)', [from, order, adopter, adopter]).length > 0;
}

/**
 * Adopting `from`'s orders (store-adoption.ts, in its transaction): the changes other tills, and this
 * one, sent to `from` for them and that `from` never answered now wait in this till's inbox, to be
 * applied here as the orders' owner (once: the inbox is keyed by the forward's op id).
 */
export function takeOverForwards(sql: SqlRunner, from: string, orders: readonly string[], self: string, now: number): number {
  const json = "json_extract(CAST(r.body AS TEXT), '$.";
  const unanswered = sql.allSql<{ origin: string; opId: string; body: string }>(
    `SELECT r.origin, r.op_id AS opId, CAST(r.body AS TEXT) AS body FROM store_replica_log AS r
     WHERE ${json}op') = 'forward' AND ${json}owner') = ? AND ${json}order') IN (SELECT value FROM json_each(?))
       AND NOT EXISTS (SELECT 1 FROM store_replica_log AS o WHERE o.origin = ? AND o.op_id = r.op_id || '.outcome')
     UNION ALL
     SELECT ?, r.op_id, CAST(r.body AS TEXT) FROM store_log AS r JOIN store_forwards AS f ON f.op_id = r.op_id
     WHERE f.owner = ? AND f.state = 'pending' AND f.order_id IN (SELECT value FROM json_each(?))`,
    [from, JSON.stringify(orders), from, self, from, JSON.stringify(orders)],
  );
  for (const row of unanswered) {
    const forward = ForwardBody.safeParse(JSON.parse(row.body));
    if (forward.success) receiveForward(sql, row.origin, row.opId, forward.data, now);
  }
  return unanswered.length;
}
