// The print worker: one loop per configured printer draining its jobs from the store's print queue,
// first in, first out. For each job: render it (the document is stored, not bytes), connect, ask
// the printer's status (DLE EOT), and only when it can print mark the job 'sending' (committed),
// send it, and mark it 'done' once the printer took it and closed the connection. A printer that
// is off, out of paper or open keeps its jobs pending with the reason and a backoff (250 ms
// doubling to 10 s); a job left 'sending' (a crash, a connection broken mid-job) is in doubt and is
// never sent again by the worker: a person decides (docs/printing.md).
//
// `notify()` right after a commit wakes an idle loop at once: no polling delay between the sale
// and the bytes. The register never waits for a printer: enqueue is part of its transaction, the
// rest happens here.
import { systemClock, type Clock } from '../common/clock';
import type { PrintJob, PrintQueue } from '../store/print-queue';
import { configuredPrinters, type PrinterConfig, type PrintingConfig } from './config';
import { receiptCloudRecords, renderJob } from './render';
import { blockingCondition } from './status';
import { connectPrinter, PrintTransportError, queryStatus, type PrinterConnection, type TransportTimeouts } from './transport';

export type PrinterState = 'ready' | 'printing' | 'offline' | 'paper_out' | 'cover_open' | 'error';

/** One printer as the status panel shows it. */
export interface PrinterStatusView {
  name: string;
  url: string;
  state: PrinterState;
  /** Jobs waiting to print. */
  pending: number;
  /** Jobs that may or may not have printed (left 'sending'): a person reprints or discards them. */
  inDoubt: number;
  /** Jobs that cannot print as they are (their document does not render). */
  failed: number;
  /** The near-end sensor says the roll is running out (it still prints). */
  paperLow: boolean;
  lastError: string | null;
  /** When `state` last changed (ms). */
  since: number;
  /** False for a printer name that has jobs but is not configured (any more): redirect them. */
  configured: boolean;
}

/** pino's shape (logger.warn({ ... }, 'message')). */
export interface PrintLogger {
  info(data: Record<string, unknown>, message: string): void;
  warn(data: Record<string, unknown>, message: string): void;
}

export interface PrintWorkerOptions {
  queue: PrintQueue;
  printers: PrintingConfig | readonly PrinterConfig[];
  clock?: Clock;
  /** Wait after a failure: `initialMs` doubling up to `maxMs` (default 250 ms → 10 s), reset by a success. */
  backoff?: { initialMs?: number; maxMs?: number };
  timeouts?: TransportTimeouts;
  /** How often an idle, ready printer's status is asked (default 30 s; 0: only when there is a job). A printer in trouble is asked at its backoff. */
  statusPollMs?: number;
  onChange?: (printers: PrinterStatusView[]) => void;
  logger?: PrintLogger;
  /**
   * Where the cloud stands on records a receipt names (its `cloud`), asked when it is about to
   * print: 'confirmed' (all of them), 'waiting' (one is still on its way) or 'refused'. Without
   * it a receipt prints its document's `unconfirmed` as queued.
   */
  cloudState?: (records: readonly { kind: string; id: string }[]) => CloudState;
}

export type CloudState = 'confirmed' | 'waiting' | 'refused';

/** How often a receipt waiting for the cloud's confirmation looks again. */
const CLOUD_RECHECK_MS = 50;

class PrinterLoop {
  state: PrinterState = 'ready';
  since: number;
  lastError: string | null = null;
  paperLow = false;
  failures = 0;
  /** No job is tried (nor status asked) before this (ms): the backoff after a failure. */
  blockedUntil = 0;
  /** When the printer last answered (status or a job), ms; -Infinity before the first time. */
  lastContact = Number.NEGATIVE_INFINITY;
  activeJobId: string | undefined;
  #wake: (() => void) | undefined;
  #woken = false;
  running: Promise<void> | undefined;

  constructor(
    readonly config: PrinterConfig,
    now: number,
  ) {
    this.since = now;
  }

  sleep(ms: number): Promise<void> {
    if (this.#woken || ms <= 0) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      // setTimeout takes at most 2^31-1 ms; an endless wait ends with wake().
      const timer = Number.isFinite(ms) ? setTimeout(() => done(), Math.min(ms, 2_147_483_647)) : undefined;
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      this.#wake = done;
    });
  }

  wake(): void {
    if (this.#wake) this.#wake();
    else this.#woken = true;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class PrintWorker {
  readonly #queue: PrintQueue;
  readonly #clock: Clock;
  readonly #loops: PrinterLoop[];
  readonly #initialBackoff: number;
  readonly #maxBackoff: number;
  readonly #timeouts: TransportTimeouts;
  readonly #statusPollMs: number;
  readonly #listeners = new Set<(printers: PrinterStatusView[]) => void>();
  readonly #logger: PrintLogger | undefined;
  readonly #startedAt: number;
  readonly #cloudState: PrintWorkerOptions['cloudState'];
  #running = false;
  #lastEmitted = '';

  constructor(options: PrintWorkerOptions) {
    this.#queue = options.queue;
    this.#clock = options.clock ?? systemClock;
    this.#startedAt = this.#clock.now();
    const printers = 'kitchen' in options.printers ? configuredPrinters(options.printers) : [...options.printers];
    this.#loops = printers.map((config) => new PrinterLoop(config, this.#startedAt));
    this.#initialBackoff = options.backoff?.initialMs ?? 250;
    this.#maxBackoff = options.backoff?.maxMs ?? 10_000;
    this.#timeouts = options.timeouts ?? {};
    this.#statusPollMs = options.statusPollMs ?? 30_000;
    this.#logger = options.logger;
    this.#cloudState = options.cloudState;
    if (options.onChange) this.#listeners.add(options.onChange);
  }

  /** Starts a loop per printer. Jobs left 'sending' by an earlier run stay in doubt; pending ones print. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    const inDoubt = this.#queue.jobsInDoubt();
    if (inDoubt.length > 0) {
      this.#logger?.warn({ jobs: inDoubt.map((j) => ({ id: j.id, printer: j.printer, kind: j.kind })) }, 'print jobs in doubt (they may have printed): waiting for a person to reprint or discard them');
    }
    for (const loop of this.#loops) loop.running = this.#run(loop);
    this.#emit();
  }

  /** Stops the loops; a job being sent finishes first. Pending jobs stay queued. */
  async stop(): Promise<void> {
    this.#running = false;
    for (const loop of this.#loops) loop.wake();
    await Promise.all(this.#loops.map((loop) => loop.running));
  }

  /**
   * Something was queued (call it right after the commit): idle loops look at once. A printer
   * in its backoff keeps waiting (use retryNow). With a name, only that printer's loop.
   */
  notify(printer?: string): void {
    // After the caller has answered: the loop's claim and render, and the status sent to the
    // screens, must not run inside the cashier's command (the register never waits for a printer).
    setImmediate(() => {
      if (!this.#running) return;
      for (const loop of this.#loops) if (printer === undefined || loop.config.name === printer) loop.wake();
      this.#emit();
    });
  }

  /** A person's "try again now": the printer's backoff is skipped (all printers without a name). */
  retryNow(printer?: string): void {
    const now = this.#clock.now();
    for (const loop of this.#loops) {
      if (printer !== undefined && loop.config.name !== printer) continue;
      loop.failures = 0;
      loop.blockedUntil = 0;
      loop.lastContact = Number.NEGATIVE_INFINITY;
      const head = this.#queue.list({ printer: loop.config.name, state: 'pending', limit: 1 })[0];
      if (head && head.nextAttemptAt > now) this.#queue.retry(head.id, now);
      loop.wake();
    }
  }

  /** Jobs being sent right now: 'sending' in the queue, but not in doubt. */
  activeJobIds(): Set<string> {
    return new Set(this.#loops.flatMap((loop) => (loop.activeJobId === undefined ? [] : [loop.activeJobId])));
  }

  /** Every configured printer, then any unconfigured name that has unfinished jobs. */
  status(): PrinterStatusView[] {
    const counts = this.#queue.countsByPrinter();
    const views: PrinterStatusView[] = this.#loops.map((loop) => {
      const c = counts.get(loop.config.name) ?? { pending: 0, sending: 0, failed: 0 };
      return {
        name: loop.config.name,
        url: loop.config.url,
        state: loop.state,
        pending: c.pending,
        inDoubt: Math.max(0, c.sending - (loop.activeJobId === undefined ? 0 : 1)),
        failed: c.failed,
        paperLow: loop.paperLow,
        lastError: loop.lastError,
        since: loop.since,
        configured: true,
      };
    });
    for (const [name, c] of counts) {
      if (this.#loops.some((loop) => loop.config.name === name)) continue;
      views.push({
        name,
        url: '',
        state: 'error',
        pending: c.pending,
        inDoubt: c.sending,
        failed: c.failed,
        paperLow: false,
        lastError: `no printer named "${name}" is configured: redirect its jobs to another printer`,
        since: this.#startedAt,
        configured: false,
      });
    }
    return views;
  }

  /** Called with every printer's status whenever one changes. Returns the unsubscribe. */
  onChange(listener: (printers: PrinterStatusView[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(): void {
    if (this.#listeners.size === 0) return;
    let views: PrinterStatusView[];
    try {
      views = this.status();
    } catch {
      return; // the store is closing
    }
    const text = JSON.stringify(views);
    if (text === this.#lastEmitted) return;
    this.#lastEmitted = text;
    for (const listener of this.#listeners) {
      try {
        listener(views);
      } catch (error) {
        this.#logger?.warn({ error: message(error) }, 'a printer status listener threw');
      }
    }
  }

  #setState(loop: PrinterLoop, state: PrinterState, lastError: string | null): void {
    if (loop.state !== state) {
      if (state !== 'printing' && loop.state !== 'printing') {
        this.#logger?.info({ printer: loop.config.name, from: loop.state, to: state, reason: lastError }, 'printer state changed');
      }
      loop.state = state;
      loop.since = this.#clock.now();
    }
    loop.lastError = lastError;
    this.#emit();
  }

  /** The printer cannot print now: wait (backoff) before the next try. Returns when to try again. */
  #trouble(loop: PrinterLoop, state: PrinterState, reason: string): number {
    const retryAt = this.#backoff(loop);
    this.#setState(loop, state, reason);
    return retryAt;
  }

  /** One more failure in a row: no try before the returned time (ms). */
  #backoff(loop: PrinterLoop): number {
    loop.failures += 1;
    const delay = Math.min(this.#initialBackoff * 2 ** Math.min(loop.failures - 1, 30), this.#maxBackoff);
    loop.blockedUntil = this.#clock.now() + delay;
    return loop.blockedUntil;
  }

  #recovered(loop: PrinterLoop): void {
    loop.failures = 0;
    loop.blockedUntil = 0;
    loop.lastContact = this.#clock.now();
    this.#setState(loop, 'ready', null);
  }

  /** Between status checks of an idle printer: its backoff while in trouble, else statusPollMs. */
  #pollInterval(loop: PrinterLoop): number {
    if (loop.state !== 'ready') return 0; // blockedUntil spaces the checks
    return this.#statusPollMs > 0 ? this.#statusPollMs : Number.POSITIVE_INFINITY;
  }

  async #run(loop: PrinterLoop): Promise<void> {
    while (this.#running) {
      try {
        const now = this.#clock.now();
        if (now < loop.blockedUntil) {
          await loop.sleep(loop.blockedUntil - now);
          continue;
        }
        const job = this.#queue.claim(loop.config.name, now);
        if (job) {
          const cloud = this.#cloudOf(job, now);
          if (cloud.holdMs > 0) {
            await loop.sleep(cloud.holdMs);
            continue;
          }
          await this.#print(loop, job, cloud.confirmed);
          continue;
        }
        const poll = this.#pollInterval(loop);
        const sinceContact = now - loop.lastContact;
        if (Number.isFinite(poll) && sinceContact >= poll) {
          await this.#checkStatus(loop);
          continue;
        }
        const nextJob = this.#queue.nextAttemptAt(loop.config.name);
        await loop.sleep(Math.min(nextJob === undefined ? Number.POSITIVE_INFINITY : nextJob - now, poll - sinceContact));
      } catch (error) {
        // The store refused (busy, closing): say so and try again after the backoff.
        if (!this.#running) break;
        this.#logger?.warn({ printer: loop.config.name, error: message(error) }, 'print loop failed; retrying');
        this.#trouble(loop, 'error', message(error));
      }
    }
  }

  async #checkStatus(loop: PrinterLoop): Promise<void> {
    const result = await queryStatus(loop.config.target, this.#timeouts);
    if (!this.#running) return;
    loop.lastContact = this.#clock.now();
    if (!result.reachable) {
      this.#trouble(loop, 'offline', result.reason);
      return;
    }
    loop.paperLow = result.paperNearEnd;
    const blocked = loop.config.statusQuery ? blockingCondition(result) : null;
    if (blocked) this.#trouble(loop, blocked.state, blocked.reason);
    else this.#recovered(loop);
  }

  /** The job stays pending, due when the printer's backoff ends. */
  #defer(loop: PrinterLoop, job: PrintJob, state: PrinterState, reason: string): void {
    const retryAt = this.#backoff(loop);
    this.#queue.markFailed(job.id, retryAt, reason, this.#clock.now());
    this.#setState(loop, state, reason);
  }

  /**
   * A receipt naming its cloud records: whether the cloud has them all now, and how long to hold
   * it for a confirmation on its way (its `waitMs` after it was queued), 0 to print now.
   */
  #cloudOf(job: PrintJob, now: number): { confirmed: boolean | undefined; holdMs: number } {
    const cloud = this.#cloudState ? receiptCloudRecords(job.kind, job.payload) : null;
    if (!cloud || !this.#cloudState) return { confirmed: undefined, holdMs: 0 };
    const state = this.#cloudState(cloud.records);
    const left = job.createdAt + cloud.waitMs - now;
    if (state === 'waiting' && left > 0 && !job.reprint) return { confirmed: false, holdMs: Math.min(left, CLOUD_RECHECK_MS) };
    return { confirmed: state === 'confirmed', holdMs: 0 };
  }

  async #print(loop: PrinterLoop, job: PrintJob, cloudConfirmed?: boolean): Promise<void> {
    const { config } = loop;
    let bytes: Buffer;
    try {
      bytes = renderJob(job.kind, job.payload, { cpl: config.cpl, encoding: config.encoding, commandSet: config.commandSet, reprint: job.reprint, cloudConfirmed });
    } catch (error) {
      const reason = `its ${job.kind} document cannot be printed: ${message(error)}`;
      this.#logger?.warn({ printer: config.name, job: job.id, error: message(error) }, 'print job failed');
      this.#queue.markFailed(job.id, null, reason, this.#clock.now());
      this.#emit();
      return;
    }

    let connection: PrinterConnection;
    try {
      connection = await connectPrinter(config.target, this.#timeouts);
    } catch (error) {
      this.#defer(loop, job, 'offline', message(error));
      return;
    }
    try {
      if (config.statusQuery) {
        let status;
        try {
          status = await connection.queryStatus();
        } catch (error) {
          this.#defer(loop, job, 'offline', message(error));
          return;
        }
        loop.lastContact = this.#clock.now();
        if (status) {
          loop.paperLow = status.paperNearEnd;
          const blocked = blockingCondition(status);
          if (blocked) {
            this.#defer(loop, job, blocked.state, blocked.reason);
            return;
          }
        }
      }
      if (!this.#running) return; // stopping: it stays pending, nothing was sent

      // The durable claim: from this commit on, a crash leaves the job in doubt, never printed twice.
      try {
        this.#queue.markSending(job.id, this.#clock.now());
      } catch (error) {
        // A person discarded or redirected it meanwhile.
        this.#logger?.info({ printer: config.name, job: job.id, reason: message(error) }, 'print job changed before it was sent');
        return;
      }
      loop.activeJobId = job.id;
      this.#setState(loop, 'printing', null);
      try {
        await connection.send(bytes);
      } catch (error) {
        if (error instanceof PrintTransportError && !error.mayHavePrinted) {
          this.#defer(loop, job, 'offline', error.message);
        } else {
          const reason = `${message(error)}; the ${job.kind.replace('_', ' ')} may have printed: reprint or discard it`;
          this.#logger?.warn({ printer: config.name, job: job.id, error: message(error) }, 'print job in doubt');
          this.#queue.markInDoubt(job.id, reason, this.#clock.now());
          this.#trouble(loop, 'error', reason);
        }
        return;
      }
      this.#queue.markDone(job.id, this.#clock.now());
      this.#recovered(loop);
    } finally {
      loop.activeJobId = undefined;
      connection.close();
      this.#emit();
    }
  }
}
