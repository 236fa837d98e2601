// Push: drains the outbox to /v1. Operations on one resource go strictly in order; independent
// resources go concurrently (bounded). Claims are made durable (in_flight) before any byte leaves,
// completions are committed in small groups (one fsync for many replies), every attempt carries
// the operation id as Idempotency-Key, and an ambiguous attempt is never re-sent before looking
// for what it may have created. Permanent rejections go to the dead letters with their reason
// (and take their dependents along); the rest of the queue keeps moving.
import { clientOrderSchema, clientPaymentSchema, paymentHoldsNoMoney, type ClientPayment } from '../api/client-records';
import type { Clock } from '../common/clock';
import type { Logger } from '../common/log';
import type { DeadLetterRefusal, EntityKind, OutboxOperation, ServerRecord, Store } from '../store/index';
import type { ApiClient } from './api-client';
import { ApiError } from './api-error';
import { letRequestsLeave } from './event-loop';
import { nextRetryDelay, type BackoffTuning } from './backoff';
import { findCreatedMenuItem, findCreatedOrder, type LookupWindow } from './lookup';
import { buildRequest, createsRecord, ReferenceResolver, UnresolvedReferenceError, type OperationRequest } from './operations';
import { cardPaymentRecord, orderRecord, menuItemRecord, paymentIntentRecord, refundRecord } from './server-records';

/**
 * How long a reply waits for others to share its commit when no claim comes first. While the
 * queue is busy, completions ride on the next claim's commit (one fsync for both) long before.
 */
const COMPLETION_GROUP_WAIT_MS = 100;
/**
 * Operations claimed (sent or waiting to be) at most, as a multiple of the concurrency: one round
 * in flight and one claimed behind it. A commit blocks the thread for its replies and claims and
 * the server runs dry once it outlasts one round of requests, so smaller groups drained faster
 * (2,100-2,150 orders/s at 2 against 2,000 at 4 and 1,800 at 6 in the drain bench), and a crash
 * leaves fewer operations in flight to look for.
 */
const CLAIM_AHEAD = 2;
/** The same before the server has answered this drain: a probe during an outage claims one round. */
const CLAIM_AHEAD_UNTIL_ANSWERED = 1;

/**
 * last_error of an operation whose earlier attempt has an unknown outcome: "ambiguous since <ms>: …".
 * The next attempt looks before sending, in a window that starts at the first such attempt.
 */
const AMBIGUOUS = /^ambiguous since (\d+): /;

function ambiguousSince(op: OutboxOperation): number | null {
  const match = op.lastError === null ? null : AMBIGUOUS.exec(op.lastError);
  return match ? Number(match[1]) : null;
}

export interface PushTuning {
  /** Requests in flight at once, across independent resources. */
  concurrency: number;
  /** Backoff of one operation after a server error. */
  backoff: BackoffTuning;
  lookup: LookupWindow;
}

/** Why a drain stopped early; the engine turns it into status and a pause. */
export type DrainHalt =
  | { kind: 'offline'; error: ApiError }
  | { kind: 'rate_limited'; error: ApiError }
  | { kind: 'credentials'; error: ApiError };

export interface DrainResult {
  completed: number;
  deadLettered: number;
  retried: number;
  halt: DrainHalt | null;
  /** True when a request got an HTTP answer (the server is reachable). */
  reachedServer: boolean;
  /** Permission problems met (restricted keys): reported on the status. */
  permissionErrors: string[];
}

interface Completion {
  op: OutboxOperation;
  record: ServerRecord | null;
  related: { kind: EntityKind; record: ServerRecord }[];
}

interface Outcome {
  kind: 'completed' | 'dead' | 'retry';
  halt?: DrainHalt;
  reachedServer: boolean;
  permissionError?: string;
}

/** The server's refusal as data, so the terminal can explain it in the cashier's words. */
function refusalOf(cause: 'invalid' | 'not_found' | 'permission', error: ApiError): DeadLetterRefusal {
  return { cause, status: error.status, code: error.code };
}

export class OutboxPusher {
  readonly #api: ApiClient;
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #tuning: PushTuning;
  readonly #random: () => number;
  /** Operations found in flight at start-up: their last attempt's fate is unknown. */
  readonly #recovering = new Set<string>();
  #completions: Completion[] = [];
  /** References resolved during the current drain (a new one each drain keeps it small). */
  #refs: ReferenceResolver;
  #flushTimer: NodeJS.Timeout | null = null;

  constructor(deps: { api: ApiClient; store: Store; clock: Clock; logger: Logger; tuning: PushTuning; random?: () => number }) {
    this.#api = deps.api;
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#logger = deps.logger;
    this.#tuning = deps.tuning;
    this.#random = deps.random ?? Math.random;
    this.#refs = new ReferenceResolver(deps.store);
    for (const op of this.#store.outbox.inFlightOperations()) this.#recovering.add(op.opId);
    if (this.#recovering.size > 0) this.#logger.warn({ count: this.#recovering.size }, 'operations were in flight at the last stop: looking before resending');
  }

  /** Sends every ready operation; returns when none is left or a halt condition stops it. */
  async drain(): Promise<DrainResult> {
    const result: DrainResult = { completed: 0, deadLettered: 0, retried: 0, halt: null, reachedServer: false, permissionErrors: [] };
    this.#refs = new ReferenceResolver(this.#store);
    const running = new Set<Promise<void>>();
    const start = (op: OutboxOperation) => {
      const task = this.#process(op)
        .then((outcome) => {
          if (outcome.kind === 'completed') result.completed++;
          else if (outcome.kind === 'dead') result.deadLettered++;
          else result.retried++;
          if (outcome.reachedServer) result.reachedServer = true;
          if (outcome.permissionError && !result.permissionErrors.includes(outcome.permissionError)) result.permissionErrors.push(outcome.permissionError);
          if (outcome.halt && !result.halt) result.halt = outcome.halt;
        })
        .finally(() => running.delete(task));
      running.add(task);
    };

    // Recovered operations first: they are in flight in the store and no claim will return them.
    for (const opId of [...this.#recovering]) {
      if (running.size >= this.#tuning.concurrency) await Promise.race(running);
      if (result.halt) break;
      start(this.#store.outbox.getOperation(opId));
    }

    // Claimed but not yet sent: every commit is an fsync that blocks the thread (no reply is read,
    // no request leaves), so operations are claimed ahead in bulk, in the same commit as the
    // replies waiting to be recorded, and started as slots free up. A claim is made when what is
    // claimed runs down to one round of requests, so the next round never waits for a commit.
    const backlog: OutboxOperation[] = [];
    // The last claim found fewer ready than asked: claim again only once replies (which may make
    // dependents ready) are waiting and half the slots are free, not on every reply.
    let ranDry = false;
    while (!result.halt) {
      const lowWater = ranDry ? this.#tuning.concurrency / 2 : this.#tuning.concurrency;
      if (backlog.length + running.size <= lowWater && !(ranDry && this.#completions.length === 0 && running.size > 0)) {
        // Requests already claimed go first, and leave before the commit blocks the thread: the
        // server works on them meanwhile.
        let started = false;
        while (backlog.length > 0 && running.size < this.#tuning.concurrency) {
          start(backlog.shift()!);
          started = true;
        }
        if (started) await letRequestsLeave();
        if (result.halt) break;
        const wanted = this.#tuning.concurrency * (result.reachedServer ? CLAIM_AHEAD : CLAIM_AHEAD_UNTIL_ANSWERED) - backlog.length - running.size;
        const claimed = this.#flush(wanted);
        backlog.push(...claimed);
        ranDry = claimed.length < wanted;
      }
      while (backlog.length > 0 && running.size < this.#tuning.concurrency) start(backlog.shift()!);
      if (running.size === 0) {
        this.#flush(0);
        // Completions committed just now may have made dependents ready.
        if (this.#store.outbox.readyOperations(this.#clock.now(), 1).length === 0) break;
        continue;
      }
      await Promise.race(running);
    }
    if (backlog.length > 0) {
      // Halted with operations claimed but never sent: back to the queue. Not sending creates no
      // uncertainty, but an earlier attempt's stays recorded: this one did not settle it.
      const now = this.#clock.now();
      const notSent = new ApiError('network', `not sent: ${result.halt?.error.message ?? 'sync stopped'}`);
      this.#store.transaction(() => {
        for (const op of backlog) this.#retry(op, notSent, now, ambiguousSince(op));
      });
    }
    await Promise.allSettled([...running]);
    this.#flush(0);
    return result;
  }

  async #process(claimed: OutboxOperation): Promise<Outcome> {
    let op = claimed;
    // Taken off the recovery list at once, whatever happens next: it must never run twice.
    const recovering = this.#recovering.delete(op.opId);
    let request: OperationRequest;
    try {
      request = buildRequest(this.#refs, op);
    } catch (error) {
      if (error instanceof UnresolvedReferenceError) {
        this.#deadLetter(op, `cannot be sent: ${error.message}`, { cause: 'unresolved_reference', status: null, code: null });
        return { kind: 'dead', reachedServer: false };
      }
      return this.#localFailure(op, error, recovering ? Math.min(ambiguousSince(op) ?? op.updatedAt, op.updatedAt) : ambiguousSince(op));
    }
    if (request.nothingToSend) {
      this.#complete(op, null);
      return { kind: 'completed', reachedServer: false };
    }

    // Found in flight at start-up: sent at the earliest when it was claimed, and perhaps still
    // running on the server: give it time to finish before looking for what it made.
    const since = recovering ? Math.min(ambiguousSince(op) ?? op.updatedAt, op.updatedAt) : ambiguousSince(op);
    const settledAt = op.updatedAt + this.#tuning.lookup.settleMs;
    if (recovering && createsRecord(op.kind) && this.#clock.now() < settledAt) {
      this.#retry(op, new ApiError('timeout', 'found in flight after a restart; waiting for it to settle'), settledAt, since);
      return { kind: 'retry', reachedServer: false };
    }
    let attemptAt = this.#clock.now();
    try {
      if (since !== null && createsRecord(op.kind)) {
        const found = await this.#lookForEarlierAttempt(op, request, since);
        if (found) {
          this.#logger.info({ opId: op.opId, serverId: found.id }, 'an earlier attempt had created the record: not sending again');
          this.#complete(op, found);
          return { kind: 'completed', reachedServer: true };
        }
      }
      if (op.basedOn !== null) {
        const rebased = await this.#rebaseOnServerLines(op, request);
        if ('applied' in rebased) {
          this.#complete(op, rebased.applied);
          return { kind: 'completed', reachedServer: true };
        }
        if ('conflict' in rebased) return { kind: 'dead', reachedServer: true };
        ({ op, request } = rebased);
      }
      attemptAt = this.#clock.now();
      const reply = await this.#api.call({
        method: request.method,
        path: request.path,
        body: request.body,
        idempotencyKey: op.opId,
        schema: request.schema,
      });
      this.#complete(op, request.toRecord(reply.data), request.relatedRecords?.(reply.data) ?? []);
      return { kind: 'completed', reachedServer: true };
    } catch (error) {
      if (!(error instanceof ApiError)) return this.#localFailure(op, error, since ?? (createsRecord(op.kind) ? attemptAt : null));
      return this.#fail(op, request, error, since ?? (error.ambiguous ? attemptAt : null));
    }
  }

  /**
   * A change of an order's lines, before it is sent: /v1 replaces lines whole, so the server's
   * lines now go through the store's rebase first. Another terminal's change since ours was made
   * is merged in rather than erased, or, where both changed the same item, the change waits in the
   * dead letters for a person; lines that already are ours (a lost reply) need no request.
   */
  async #rebaseOnServerLines(
    op: OutboxOperation,
    request: OperationRequest,
  ): Promise<{ applied: ServerRecord } | { conflict: true } | { op: OutboxOperation; request: OperationRequest }> {
    const current = await this.#readOrder(this.#refs.serverId('order', op.entityId));
    // The merge and its audit entry commit together: a manager can see why an order's lines moved.
    const rebase = this.#store.transaction(() => {
      const outcome = this.#store.outbox.rebaseOrderLines(op.opId, current, this.#clock.now());
      if (outcome.outcome === 'merged' || outcome.outcome === 'conflict') {
        const detail = outcome.outcome === 'merged' ? { op_id: op.opId, ours: outcome.ours, theirs: outcome.theirs, merged: outcome.operation.payload.items } : { op_id: op.opId, conflicts: outcome.conflicts };
        this.#store.cashier.recordAudit('sync', outcome.outcome === 'merged' ? 'order.lines_merged' : 'order.lines_conflict', detail, { kind: 'order', id: op.entityId });
      }
      return outcome;
    });
    switch (rebase.outcome) {
      case 'send':
        return { op, request };
      case 'applied':
        return { applied: current };
      case 'conflict':
        this.#logger.warn({ opId: op.opId, orderId: op.entityId, conflicts: rebase.conflicts }, "the order's lines were changed elsewhere at the same time: waiting in the dead letters");
        return { conflict: true };
      case 'merged':
        this.#logger.info(
          { opId: op.opId, orderId: op.entityId, ours: rebase.ours, theirs: rebase.theirs, merged: rebase.operation.payload.items },
          "the order's lines were changed elsewhere since this change was made: sending both changes merged",
        );
        return { op: rebase.operation, request: buildRequest(this.#refs, rebase.operation) };
    }
  }

  /** The server's order as it is now. */
  async #readOrder(serverId: string): Promise<ServerRecord> {
    const { data } = await this.#api.call({ method: 'GET', path: `/orders/${encodeURIComponent(serverId)}`, schema: clientOrderSchema });
    return orderRecord(data);
  }

  async #lookForEarlierAttempt(op: OutboxOperation, request: OperationRequest, since: number): Promise<ServerRecord | null> {
    const body = request.body ?? {};
    const claimed = this.#store.serverIdFor('order', op.entityId);
    if (op.kind === 'order.create' && claimed !== undefined) {
      // A pull or webhook already matched this order to a server record by our metadata.
      return this.#readOrder(claimed);
    }
    if (op.kind === 'order.create') {
      const order = await findCreatedOrder(this.#api, this.#store, op, body, since, this.#clock.now(), this.#tuning.lookup);
      return order && orderRecord(order);
    }
    if (op.kind === 'menu_item.create') {
      const item = await findCreatedMenuItem(this.#api, this.#store, op, body, since, this.#tuning.lookup);
      return item && menuItemRecord(item);
    }
    // Payments and refunds have no list endpoint to look in: the same Idempotency-Key is all
    // there is (docs/sync.md, "limits").
    return null;
  }

  /**
   * Something on this side failed (a secret store that cannot be read, a bug): the operation must
   * not stay in flight. It goes back to the queue with backoff, ambiguous if a request may have
   * left, so the next attempt looks before sending.
   */
  #localFailure(op: OutboxOperation, error: unknown, ambiguousFrom: number | null): Outcome {
    this.#logger.error({ err: error, opId: op.opId }, 'operation failed on this side');
    const wrapped = new ApiError('server', `local failure: ${(error as Error).message}`);
    this.#retry(op, wrapped, this.#clock.now() + nextRetryDelay(op.attempts, null, this.#tuning.backoff, this.#random), ambiguousFrom);
    return { kind: 'retry', reachedServer: false };
  }

  /** `ambiguousFrom`: when the first attempt with an unknown outcome was made, or null if none was. */
  async #fail(op: OutboxOperation, request: OperationRequest, error: ApiError, ambiguousFrom: number | null): Promise<Outcome> {
    const reachedServer = error.status !== null;
    switch (error.kind) {
      case 'network':
      case 'timeout': {
        // Given up on while perhaps still running on the server: look only once it has settled.
        const due = error.ambiguous && createsRecord(op.kind) ? this.#clock.now() + this.#tuning.lookup.settleMs : this.#clock.now();
        this.#retry(op, error, due, ambiguousFrom);
        return { kind: 'retry', reachedServer, halt: { kind: 'offline', error } };
      }
      case 'rate_limited':
        this.#retry(op, error, this.#clock.now() + (error.retryAfterMs ?? 0), ambiguousFrom);
        return { kind: 'retry', reachedServer, halt: { kind: 'rate_limited', error } };
      case 'server':
        this.#retry(op, error, this.#clock.now() + nextRetryDelay(op.attempts, error.retryAfterMs, this.#tuning.backoff, this.#random), ambiguousFrom);
        return { kind: 'retry', reachedServer };
      case 'authentication':
        // Not the operation's fault: it waits, unchanged, for working credentials.
        this.#retry(op, error, this.#clock.now(), ambiguousFrom);
        return { kind: 'retry', reachedServer, halt: { kind: 'credentials', error } };
      case 'permission':
        this.#deadLetter(op, `the credentials lack a permission for ${request.method} ${request.path}: ${error.message}`, refusalOf('permission', error));
        return { kind: 'dead', reachedServer, permissionError: error.message };
      case 'not_found':
        if (op.kind === 'menu_item.delete') {
          this.#complete(op, null); // already gone: what we wanted
          return { kind: 'completed', reachedServer };
        }
        this.#deadLetter(op, `the server no longer has what this change is for (${error.message})`, refusalOf('not_found', error));
        return { kind: 'dead', reachedServer };
      case 'invalid': {
        if (op.kind === 'payment_intent.capture' || op.kind === 'refund.create') {
          // Never tell anyone a card payment or refund failed before asking the cloud what it holds.
          const held = await this.#paymentHeld(op, request, ambiguousFrom !== null);
          if (held === 'done') return { kind: 'completed', reachedServer };
          if (held === 'unknown') {
            this.#retry(op, error, this.#clock.now() + nextRetryDelay(op.attempts, null, this.#tuning.backoff, this.#random), ambiguousFrom);
            return { kind: 'retry', reachedServer };
          }
        } else if (await this.#alreadyApplied(op, error, ambiguousFrom !== null)) return { kind: 'completed', reachedServer };
        this.#deadLetter(op, `rejected by the server: ${error.message}`, refusalOf('invalid', error));
        return { kind: 'dead', reachedServer };
      }
    }
  }

  /**
   * A 409 on an order means its state on the server is not what we thought. Read it: if an
   * earlier attempt whose reply was lost already made this change (fulfil twice), the operation
   * is done; otherwise the rejection stands and the terminal learns the server's version.
   */
  async #alreadyApplied(op: OutboxOperation, error: ApiError, ambiguousBefore: boolean): Promise<boolean> {
    if (error.status !== 409) return false;
    if (!op.kind.startsWith('order.')) return false;
    const serverId = this.#store.serverIdFor('order', op.entityId);
    if (serverId === undefined) return false;
    let current: ServerRecord;
    try {
      current = await this.#readOrder(serverId);
    } catch {
      return false; // the next pull brings the server's version
    }
    const target = op.kind === 'order.fulfil' ? 'fulfilled' : op.kind === 'order.cancel' ? 'cancelled' : null;
    // Closed in a state this terminal does not know (`voided`): after a lost reply, the cloud has our change.
    const closedAsItSays = typeof current.cloud_status === 'string';
    if (ambiguousBefore && target !== null && (current.status === target || closedAsItSays)) {
      this.#complete(op, current);
      return true;
    }
    this.#store.server.applyServerRecord('order', current);
    return false;
  }

  /**
   * A capture or refund the server refused: what does the cloud hold? The payment is read back
   * (`GET /payments/intents/{id}`, beyond the spec) and believed: a capture is done unless the
   * payment shows no capture (authorized only, or a known failed state; an unknown state such as
   * `settled` means the cloud has the money); a refund refused after an attempt whose reply was
   * lost is done when the payment lists a refund of its amount not known here, or shows refunds
   * (any state but captured and the no-money ones) without listing them. 'refused': the cloud shows the change was not made. 'unknown': it could not be read now.
   * A server that cannot read a payment back (404/405) leaves only the request's history: after a
   * lost reply, the refusal of a repeat is taken as the first attempt's success.
   */
  async #paymentHeld(op: OutboxOperation, request: OperationRequest, ambiguousBefore: boolean): Promise<'done' | 'refused' | 'unknown'> {
    // A refund refused at its first attempt was not made: only a lost reply leaves room for doubt.
    if (op.kind === 'refund.create' && !ambiguousBefore) return 'refused';
    const paymentId = decodeURIComponent(request.path.split('/')[op.kind === 'refund.create' ? 2 : 3] ?? '');
    let payment: ClientPayment;
    try {
      ({ data: payment } = await this.#api.call({ method: 'GET', path: `/payments/intents/${encodeURIComponent(paymentId)}`, schema: clientPaymentSchema }));
    } catch (error) {
      if (!(error instanceof ApiError) || !(error.kind === 'not_found' || error.kind === 'invalid' || error.kind === 'permission')) return 'unknown';
      if (!ambiguousBefore) return 'refused';
      this.#logger.warn({ opId: op.opId, paymentId }, 'the payment cannot be read back; a repeat refused after a lost reply is taken as done');
      this.#complete(op, null);
      return 'done';
    }
    if (op.kind === 'payment_intent.capture') {
      if (paymentHoldsNoMoney(payment.status)) return 'refused';
      this.#logger.info({ opId: op.opId, paymentId, status: payment.status }, 'the cloud holds this payment captured: not a failure');
      const card = cardPaymentRecord(payment);
      this.#complete(op, paymentIntentRecord(payment), card ? [{ kind: 'payment', record: card }] : []);
      return 'done';
    }
    const amount = op.payload.amount;
    const ours = (payment.refunds ?? []).find((refund) => this.#store.localIdFor('refund', refund.id) === undefined && (amount === undefined || refund.amount === amount));
    if (ours) {
      this.#complete(op, refundRecord(ours, payment.id));
      return 'done';
    }
    if (payment.refunds === undefined && ambiguousBefore && !paymentHoldsNoMoney(payment.status) && payment.status !== 'captured') {
      this.#complete(op, null);
      return 'done';
    }
    return 'refused';
  }

  /**
   * Back to the queue. Once an attempt was ambiguous (or the operation was found in flight after
   * a restart) it stays so, with the time of that first attempt, until a lookup has settled it:
   * a failed lookup must not turn the next attempt into a blind resend.
   */
  #retry(op: OutboxOperation, error: ApiError, dueAt: number, ambiguousFrom: number | null): void {
    const message = ambiguousFrom === null ? error.message : `ambiguous since ${ambiguousFrom}: ${error.message}`;
    this.#store.outbox.scheduleRetry(op.opId, message, dueAt, this.#clock.now());
  }

  #deadLetter(op: OutboxOperation, reason: string, refusal: DeadLetterRefusal): void {
    this.#logger.warn({ opId: op.opId, kind: op.kind, reason }, 'operation moved to dead letters');
    this.#store.outbox.deadLetter(op.opId, reason, this.#clock.now(), refusal);
  }

  /**
   * Queues a completion. Replies are committed in groups (one fsync for many): with the drain's
   * next claim, when a full claim's worth are waiting, or a moment after the first. The request's
   * slot is free at once; until the commit the operation stays in flight, which a crash would
   * turn into a lookup.
   */
  #complete(op: OutboxOperation, record: ServerRecord | null, related: Completion['related'] = []): void {
    this.#completions.push({ op, record, related });
    if (this.#completions.length >= this.#tuning.concurrency * CLAIM_AHEAD) {
      this.#flush(0);
      return;
    }
    this.#flushTimer ??= setTimeout(() => this.#flush(0), COMPLETION_GROUP_WAIT_MS);
  }

  #commit({ op, record, related }: Completion, now: number): void {
    this.#store.outbox.completeOperation(op.opId, record ? { serverRecord: record } : {}, now);
    for (const extra of related) this.#store.server.applyServerRecord(extra.kind, extra.record);
    // The order as the server answered just now: events kept about it from before are superseded.
    if (record && op.entityKind === 'order') this.#store.server.settleSupersededEvents('order', [record.id], now);
  }

  /**
   * Commits the waiting completions and claims up to `claimLimit` ready operations (in flight,
   * durable before any of them is sent) in one transaction: one fsync for both. Returns the claimed.
   */
  #flush(claimLimit: number): OutboxOperation[] {
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
    const batch = this.#completions;
    this.#completions = [];
    if (batch.length === 0 && claimLimit <= 0) return [];
    const now = this.#clock.now();
    const claim = () => (claimLimit > 0 ? this.#store.outbox.claimReady(now, claimLimit) : []);
    try {
      return this.#store.transaction(() => {
        for (const completion of batch) this.#commit(completion, now);
        return claim();
      });
    } catch (error) {
      if (batch.length === 0) throw error;
      // One bad completion must not hold back the others: commit them one by one.
    }
    for (const { op, record, related } of batch) {
      try {
        this.#store.transaction(() => this.#commit({ op, record, related }, now));
      } catch (error) {
        // The server did accept it; only our copy of its reply is unusable. Confirm what we sent.
        this.#logger.error({ err: error, opId: op.opId, serverId: record?.id }, 'server reply could not be stored; keeping the local version');
        try {
          this.#store.outbox.completeOperation(op.opId, record ? { serverId: record.id } : {}, now);
        } catch (second) {
          this.#store.outbox.deadLetter(op.opId, `accepted by the server${record ? ` as ${record.id}` : ''} but not recordable here: ${(second as Error).message}`, now, {
            cause: 'unrecordable',
            status: null,
            code: null,
          });
        }
      }
    }
    return claimLimit > 0 ? this.#store.transaction(claim) : [];
  }
}
