// Sends webhook deliveries: POST with the Service-Signature header, success on a 2xx within the
// timeout, automatic retries 1 min, 5 min and 30 min after the previous attempt (on the injected
// clock), then failed. First attempts for one endpoint and one resource go strictly in event order.
import { signatureHeader, SIGNATURE_HEADER } from '../api/signature';
import type { Clock } from '../common/clock';
import type { Logger } from '../common/log';
import type { Db, SandboxSchema } from './storage';

/** Delay before automatic retry n (1-based), counted from the start of the previous attempt. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000] as const;
/** One first attempt plus the automatic retries. */
const AUTOMATIC_ATTEMPTS = 1 + RETRY_DELAYS_MS.length;

export interface DispatcherOptions {
  timeoutMs: number;
  /** How often due retries are looked for when nothing else wakes the dispatcher. */
  pollMs: number;
  maxInFlight: number;
}

type DeliveryRow = SandboxSchema['deliveries'];

export class WebhookDispatcher {
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #abort = new AbortController();
  /** Replies waiting for a delivery's first attempt (events_before_reply), by delivery id. */
  readonly #firstAttemptWaiters = new Map<string, () => void>();
  #poll: NodeJS.Timeout | undefined;
  #scanDone: Promise<void> = Promise.resolve();
  #scanning = false;
  #rescan = false;
  #closed = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: DispatcherOptions,
  ) {}

  start(): void {
    this.#poll = setInterval(() => this.kick(), this.options.pollMs);
    this.#poll.unref();
    this.kick();
  }

  /** Looks for due deliveries now (after a write, a clock move or a manual retry). */
  kick(): void {
    if (this.#closed) return;
    if (this.#scanning) {
      this.#rescan = true;
      return;
    }
    this.#scanning = true;
    this.#scanDone = this.#scan()
      .catch((err: unknown) => this.logger.error({ err }, 'webhook scan failed'))
      .finally(() => {
        this.#scanning = false;
        if (this.#rescan) {
          this.#rescan = false;
          this.kick();
        }
      });
  }

  /** Resolves once nothing is in flight and nothing is due: for tests that wait for deliveries. */
  async idle(): Promise<void> {
    for (;;) {
      while (this.#scanning || this.#inFlight.size > 0) {
        await Promise.all(this.#inFlight.values());
        await new Promise((r) => setTimeout(r, 2));
      }
      const due = await this.#dueRows(1);
      if (due.length === 0 || this.#closed) return;
      this.kick();
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  /**
   * Resolves once the first attempt of each of these deliveries has finished (whatever its outcome),
   * or after `maxWaitMs`: a reply held until then reaches the client after its events did.
   */
  async firstAttempts(deliveryIds: readonly string[], maxWaitMs: number): Promise<void> {
    const attempted = deliveryIds.map((id) => new Promise<void>((resolve) => this.#firstAttemptWaiters.set(id, resolve)));
    // An attempt may have finished before the waiters were set.
    const finished = await this.db.selectFrom('deliveries').select('id').where('id', 'in', [...deliveryIds]).where('first_attempt_done', '=', 1).execute();
    for (const row of finished) this.#firstAttemptDone(row.id);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([Promise.all(attempted), new Promise((resolve) => (timer = setTimeout(resolve, maxWaitMs)))]);
    } finally {
      clearTimeout(timer);
      for (const id of deliveryIds) this.#firstAttemptWaiters.delete(id);
    }
  }

  #firstAttemptDone(deliveryId: string): void {
    this.#firstAttemptWaiters.get(deliveryId)?.();
    this.#firstAttemptWaiters.delete(deliveryId);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#poll);
    this.#abort.abort();
    for (const release of this.#firstAttemptWaiters.values()) release();
    // The database closes after this: let a running scan and every attempt finish first.
    await this.#scanDone;
    await Promise.allSettled(this.#inFlight.values());
  }

  #dueRows(limit: number): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('deliveries')
      .selectAll()
      .where('status', 'in', ['pending', 'retrying'])
      .where('next_attempt_at', '<=', this.clock.now())
      .orderBy('event_seq')
      .limit(limit)
      .execute();
  }

  async #scan(): Promise<void> {
    const due = await this.#dueRows(500);
    for (const row of due) {
      if (this.#inFlight.size >= this.options.maxInFlight) {
        this.#rescan = true;
        return;
      }
      if (this.#inFlight.has(row.id)) continue;
      if (row.status === 'pending' && row.attempts === 0 && (await this.#waitsForEarlierEvent(row))) continue;
      const attempt = this.#attempt(row).finally(() => {
        this.#inFlight.delete(row.id);
        this.kick();
      });
      this.#inFlight.set(row.id, attempt);
    }
  }

  async #waitsForEarlierEvent(row: DeliveryRow): Promise<boolean> {
    const earlier = await this.db
      .selectFrom('deliveries')
      .select('id')
      .where('endpoint_id', '=', row.endpoint_id)
      .where('resource_id', '=', row.resource_id)
      .where('event_seq', '<', row.event_seq)
      .where('first_attempt_done', '=', 0)
      .executeTakeFirst();
    return earlier !== undefined;
  }

  async #attempt(row: DeliveryRow): Promise<void> {
    const endpoint = await this.db.selectFrom('webhook_endpoints').select(['url', 'secret']).where('id', '=', row.endpoint_id).executeTakeFirst();
    const event = await this.db.selectFrom('events').select('body').where('id', '=', row.event_id).executeTakeFirst();
    const startedAt = this.clock.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    if (!endpoint || !event) {
      error = 'endpoint or event no longer exists';
    } else {
      const header = signatureHeader(endpoint.secret, event.body, Math.floor(startedAt / 1000));
      try {
        const response = await fetch(endpoint.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'User-Agent': 'pos-sandbox-webhooks/1', [SIGNATURE_HEADER]: header },
          body: event.body,
          redirect: 'manual',
          signal: AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs), this.#abort.signal]),
        });
        statusCode = response.status;
        await response.arrayBuffer().catch(() => undefined);
        if (statusCode < 200 || statusCode > 299) error = `answered ${statusCode}`;
      } catch (err) {
        error = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs} ms` : `request failed: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}`;
      }
    }
    if (this.#closed) return;
    const attempts = row.attempts + 1;
    const delivered = error === null;
    const retryDelay = attempts < AUTOMATIC_ATTEMPTS ? RETRY_DELAYS_MS[attempts - 1] : undefined;
    await this.db
      .updateTable('deliveries')
      .set({
        attempts,
        status: delivered ? 'delivered' : retryDelay !== undefined ? 'retrying' : 'failed',
        next_attempt_at: delivered || retryDelay === undefined ? null : startedAt + retryDelay,
        last_attempt_at: startedAt,
        last_status_code: statusCode,
        last_error: error,
        delivered_at: delivered ? this.clock.now() : null,
        first_attempt_done: 1,
      })
      .where('id', '=', row.id)
      .execute();
    this.#firstAttemptDone(row.id);
    this.logger.debug({ delivery: row.id, attempts, statusCode, error }, 'webhook attempt');
  }

  /** A manual retry of a failed delivery: one new attempt now. */
  async retry(deliveryId: string): Promise<'queued' | 'not_found' | 'not_failed'> {
    const row = await this.db.selectFrom('deliveries').select('status').where('id', '=', deliveryId).executeTakeFirst();
    if (!row) return 'not_found';
    if (row.status !== 'failed') return 'not_failed';
    await this.db.updateTable('deliveries').set({ status: 'pending', next_attempt_at: this.clock.now() }).where('id', '=', deliveryId).execute();
    this.kick();
    return 'queued';
  }
}
