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
  /** A payment taken here toward the order: what it was, and whether its cash was handed back after a refusal. */
  payment: PaymentTaken | null;
}

/** A payment this till took toward another till's order (its drawer's or its terminal's money). */
export interface PaymentTaken {
  id: string;
  method: 'cash' | 'card';
  /** Toward the order, tip left out. */
  amount: number;
  tip: number;
  currency: string;
  /** The shift whose drawer took the cash (a card: the open one, if any). */
  shiftId: string | null;
  staffId: string;
  /** The paid-out that handed the cash of a refused payment back; null while it is in the drawer. */
  givenBackMovement: string | null;
}

/** A payment taken here, with what its owner made of it. */
export type PaymentTakenState = PaymentTaken & { state: ForwardState };

/** A forward addressed to this till, not applied or refused yet. */
export interface WaitingForward {
  opId: string;
  origin: string;
  body: ForwardBody;
}

const PAYMENT_COLUMNS = 'p.id, p.method, p.amount, p.tip, p.currency, p.shift_id AS shiftId, p.staff_id AS staffId, p.given_back_movement AS givenBackMovement';

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
    return { opId, owner: body.owner, orderId: body.order, change: body.change, byName: body.by.name, state: 'pending', reason: null, createdAt: body.at, answeredAt: null, payment: null };
  }

  /** A payment taken here: its forward and the drawer's record of it, together; call inside the store's transaction. */
  sendPayment(opId: string, body: ForwardBody, payment: Omit<PaymentTaken, 'givenBackMovement'>): SentForward {
    const sent = this.send(opId, body);
    this.#sql.runSql(
      'INSERT INTO store_payments_taken (id, forward_id, order_id, method, amount, tip, currency, shift_id, staff_id, taken_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [payment.id, opId, body.order, payment.method, payment.amount, payment.tip, payment.currency, payment.shiftId, payment.staffId, body.at],
    );
    return { ...sent, payment: { ...payment, givenBackMovement: null } };
  }

  /** What this till took toward `orderId` that its owner has not applied yet (tips left out): not due any more. */
  pendingPayments(orderId: string): number {
    const [row] = this.#sql.allSql<{ total: number }>(
      `SELECT COALESCE(SUM(p.amount), 0) AS total FROM store_payments_taken AS p JOIN store_forwards AS f ON f.op_id = p.forward_id
       WHERE p.order_id = ? AND f.state = 'pending'`,
      [orderId],
    );
    return row?.total ?? 0;
  }

  /** The payments a shift took toward other tills' orders, with their owners' answers. */
  paymentsOfShift(shiftId: string): PaymentTakenState[] {
    return this.#sql.allSql<PaymentTakenState>(
      `SELECT ${PAYMENT_COLUMNS}, f.state FROM store_payments_taken AS p JOIN store_forwards AS f ON f.op_id = p.forward_id WHERE p.shift_id = ? ORDER BY p.taken_at, p.id`,
      [shiftId],
    );
  }

  /** A payment's forward, as sent(). */
  sentForward(opId: string): SentForward | null {
    return this.#sentWhere('f.op_id = ?', [opId])[0] ?? null;
  }

  /**
   * Records that the cash of a refused payment was handed back by the paid-out `movementId`; call
   * inside the transaction that writes the paid-out. False, and nothing written, when it was already.
   */
  givenBack(opId: string, movementId: string): boolean {
    const changed = this.#sql.runSql(
      `UPDATE store_payments_taken SET given_back_movement = ? WHERE forward_id = ? AND method = 'cash' AND given_back_movement IS NULL
         AND EXISTS (SELECT 1 FROM store_forwards AS f WHERE f.op_id = forward_id AND f.state = 'refused')`,
      [movementId, opId],
    );
    return changed.changes === 1;
  }

  /**
   * This till's forwards still waiting for their owner, those refused since `refusedSince`, and refused
   * payments whose cash is still to be handed back (whenever refused), oldest first.
   */
  sent(refusedSince: number): SentForward[] {
    return this.#sentWhere(
      `f.state = 'pending' OR (f.state = 'refused' AND (f.answered_at >= ? OR (p.method = 'cash' AND p.given_back_movement IS NULL)))`,
      [refusedSince],
    );
  }

  #sentWhere(where: string, params: readonly unknown[]): SentForward[] {
    const rows = this.#sql.allSql<{ opId: string; owner: string; orderId: string; change: string; byName: string; state: ForwardState; reason: string | null; createdAt: number; answeredAt: number | null } & Partial<PaymentTaken>>(
      `SELECT f.op_id AS opId, f.owner, f.order_id AS orderId, f.change, f.by_name AS byName, f.state, f.reason, f.created_at AS createdAt, f.answered_at AS answeredAt, ${PAYMENT_COLUMNS}
       FROM store_forwards AS f LEFT JOIN store_payments_taken AS p ON p.forward_id = f.op_id WHERE ${where} ORDER BY f.created_at, f.op_id`,
      params,
    );
    return rows.map(({ id, method, amount, tip, currency, shiftId, staffId, givenBackMovement, ...row }) => ({
      ...row,
      change: JSON.parse(row.change) as ForwardBody['change'],
      payment: id === undefined || id === null ? null : { id, method: method!, amount: amount!, tip: tip!, currency: currency!, shiftId: shiftId ?? null, staffId: staffId!, givenBackMovement: givenBackMovement ?? null },
    }));
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
