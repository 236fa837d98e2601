// The print queue: receipts, kitchen tickets, drawer kicks and reports waiting for their printer.
// A job is enqueued inside the transaction of the write it prints (an order, a payment), so the
// ticket is as durable as the sale; the print worker (printing/worker.ts) drains it. Its life:
//
//   pending ──markSending──► sending ──markDone──► done
//      ▲  ╲                    │  ╲
//      │   markFailed(null)    │   crash / write broke off: stays 'sending' = in doubt (a person
//      │        ▼              │   reprints with retry() or drops it with discard())
//      └─ retry ── failed ◄────┘ markFailed(null)          discard ──► discarded
//
// 'sending' is committed before a byte goes out, so after a crash a job either never reached the
// printer (still pending: printed once on restart) or may have (sending: never reprinted on its own).
import { sql as rawSql, type Insertable, type Kysely } from 'kysely';
import { systemClock, type Clock } from '../common/clock';
import { newId } from '../common/ids';
import type { SqlRunner } from './database';
import { StoreError } from './errors';
import type { StoreTables } from './schema';

export const PRINT_JOB_KINDS = ['receipt', 'refund_receipt', 'kitchen', 'kitchen_add', 'kitchen_void', 'drawer', 'report'] as const;
export type PrintJobKind = (typeof PRINT_JOB_KINDS)[number];

export const PRINT_JOB_STATES = ['pending', 'sending', 'done', 'failed', 'discarded'] as const;
export type PrintJobState = (typeof PRINT_JOB_STATES)[number];

/** What a cashier write hands to `enqueue`. */
export interface NewPrintJob {
  /** Made with newId('pj_') when absent. */
  id?: string;
  /** The configured printer's name: 'receipt' or a kitchen printer's name. */
  printer: string;
  kind: PrintJobKind;
  orderId?: string | null;
  /** The document to print, JSON-serialisable (a ReceiptDoc, KitchenTicketDoc, ...): rendered at print time. */
  payload: unknown;
  /** Unique for the ticket: a retried write or a restart never queues it twice (`kitchen:<orderId>:<version>:<printer>`). */
  dedupeKey: string;
}

export interface PrintJob {
  id: string;
  printer: string;
  kind: PrintJobKind;
  orderId: string | null;
  payload: unknown;
  dedupeKey: string;
  state: PrintJobState;
  /** How many times it was marked sending. */
  attempts: number;
  /** A pending job is not tried before this (ms): the printer's backoff. */
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
  printedAt: number | null;
  /** A person sent it again after it was in doubt (it may have printed): the copy says REPRINT. */
  reprint: boolean;
}

export interface EnqueueResult {
  /** The jobs this call queued. */
  added: PrintJob[];
  /** Dedupe keys already in the queue (any state): nothing was added for them. */
  duplicates: string[];
}

export interface PrintJobFilter {
  state?: PrintJobState | readonly PrintJobState[];
  printer?: string;
  orderId?: string;
  /** Default 500. */
  limit?: number;
}

/** Jobs of one printer that are not finished. */
export interface PrintJobCounts {
  pending: number;
  /** 'sending': the one being printed now, or (when none is) in doubt. */
  sending: number;
  failed: number;
}

type PrintJobRow = StoreTables['print_jobs'];

/** Oldest first: the order the kitchen should see its tickets in. */
const HEAD_SQL = `SELECT * FROM print_jobs WHERE printer = ? AND state = 'pending' ORDER BY created_at, rowid LIMIT 1`;

function toJob(row: PrintJobRow): PrintJob {
  return {
    id: row.id,
    printer: row.printer,
    kind: row.kind as PrintJobKind,
    orderId: row.order_id,
    payload: JSON.parse(row.payload) as unknown,
    dedupeKey: row.dedupe_key,
    state: row.state as PrintJobState,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    printedAt: row.printed_at,
    reprint: row.reprint === 1,
  };
}

export class PrintQueue {
  readonly #insert: (row: Insertable<PrintJobRow>) => { changes: number };

  constructor(
    private readonly kysely: Kysely<StoreTables>,
    private readonly sql: SqlRunner,
    private readonly transaction: <T>(fn: () => T) => T,
    private readonly clock: Clock = systemClock,
  ) {
    const columns = [
      'id', 'printer', 'kind', 'order_id', 'payload', 'dedupe_key', 'state', 'attempts', 'next_attempt_at',
      'last_error', 'created_at', 'updated_at', 'printed_at', 'reprint',
    ] as const;
    // Compiled once, prepared at first use (a store opened at an older version has no table yet).
    const { sql: insertSql } = kysely
      .insertInto('print_jobs')
      .values(Object.fromEntries(columns.map((c) => [c, null])) as never)
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .compile();
    this.#insert = (row) => sql.runSql(insertSql, columns.map((c) => (row as Record<string, unknown>)[c]));
  }

  /**
   * Queues jobs, idempotent by dedupe key (ON CONFLICT DO NOTHING). Call it inside the transaction
   * of the order or payment write it prints: the tickets then commit, or not, with the sale. Run
   * alone it commits on its own. Wake the worker (`PrintWorker.notify()`) after the commit.
   */
  enqueue(jobs: readonly NewPrintJob[], now: number = this.clock.now()): EnqueueResult {
    return this.transaction(() => {
      const added: PrintJob[] = [];
      const duplicates: string[] = [];
      for (const job of jobs) {
        if (job.printer === '') throw new StoreError('conflict', `print job ${job.dedupeKey} names no printer`);
        const row: PrintJobRow = {
          id: job.id ?? newId('pj_', now),
          printer: job.printer,
          kind: job.kind,
          order_id: job.orderId ?? null,
          payload: JSON.stringify(job.payload ?? null),
          dedupe_key: job.dedupeKey,
          state: 'pending',
          attempts: 0,
          next_attempt_at: now,
          last_error: null,
          created_at: now,
          updated_at: now,
          printed_at: null,
          reprint: 0,
        };
        if (this.#insert(row).changes === 1) added.push(toJob(row));
        else duplicates.push(job.dedupeKey);
      }
      return { added, duplicates };
    });
  }

  /**
   * The job this printer should print next: its oldest pending job, if it is due (`nextAttemptAt
   * <= now`); undefined otherwise. Strictly first in, first out per printer: a job waiting for
   * its backoff holds back the ones behind it. Changes nothing: `markSending` is the durable claim
   * (one worker per store drains each printer from one loop).
   */
  claim(printer: string, now: number = this.clock.now()): PrintJob | undefined {
    const head = this.sql.allSql<PrintJobRow>(HEAD_SQL, [printer])[0];
    return head && head.next_attempt_at <= now ? toJob(head) : undefined;
  }

  /** When the printer's oldest pending job is due (ms), or undefined when it has none. */
  nextAttemptAt(printer: string): number | undefined {
    return this.sql.allSql<PrintJobRow>(HEAD_SQL, [printer])[0]?.next_attempt_at;
  }

  #row(id: string): PrintJobRow {
    const row = this.sql.first(this.kysely.selectFrom('print_jobs').selectAll().where('id', '=', id));
    if (!row) throw new StoreError('not_found', `no print job ${id}`);
    return row;
  }

  #update(id: string, changes: Partial<PrintJobRow>): PrintJob {
    this.sql.run(this.kysely.updateTable('print_jobs').set(changes).where('id', '=', id));
    return toJob(this.#row(id));
  }

  /**
   * pending → sending, one more attempt. Commit it (it commits on its own when called alone)
   * before the first byte goes out: after a crash the job is then known to be in doubt.
   */
  markSending(id: string, now: number = this.clock.now()): PrintJob {
    return this.transaction(() => {
      const row = this.#row(id);
      if (row.state !== 'pending') throw new StoreError('conflict', `print job ${id} is ${row.state}, not pending`);
      return this.#update(id, { state: 'sending', attempts: row.attempts + 1, updated_at: now });
    });
  }

  /**
   * The printer took the bytes (the connection closed cleanly), or a person saw an in-doubt job
   * come out: sending → done. Done again is a no-op.
   */
  markDone(id: string, now: number = this.clock.now()): PrintJob {
    return this.transaction(() => {
      const row = this.#row(id);
      if (row.state === 'done') return toJob(row);
      if (row.state !== 'sending') throw new StoreError('conflict', `print job ${id} is ${row.state}; only a job being sent can be done`);
      return this.#update(id, { state: 'done', last_error: null, printed_at: now, updated_at: now });
    });
  }

  /**
   * Nothing of it reached the printer. `retryAt` a time: back to pending (or stays pending), not
   * tried before then, with the error (the printer is off, out of paper, its cover open). `retryAt`
   * null: it can never print as it is (its document does not render): 'failed', for a person to
   * retry, redirect or discard.
   */
  markFailed(id: string, retryAt: number | null, error: string, now: number = this.clock.now()): PrintJob {
    return this.transaction(() => {
      const row = this.#row(id);
      if (row.state !== 'pending' && row.state !== 'sending') throw new StoreError('conflict', `print job ${id} is ${row.state}; it cannot fail`);
      return retryAt === null
        ? this.#update(id, { state: 'failed', last_error: error, updated_at: now })
        : this.#update(id, { state: 'pending', last_error: error, next_attempt_at: retryAt, updated_at: now });
    });
  }

  /**
   * The send broke off after bytes went out (the connection dropped mid-write, the close never
   * came): the job stays 'sending', in doubt, with why. It is not printed again on its own.
   */
  markInDoubt(id: string, error: string, now: number = this.clock.now()): PrintJob {
    return this.transaction(() => {
      const row = this.#row(id);
      if (row.state !== 'sending') throw new StoreError('conflict', `print job ${id} is ${row.state}, not sending`);
      return this.#update(id, { last_error: error, updated_at: now });
    });
  }

  /**
   * A person's "print it (again)": a failed, discarded or in-doubt job goes back to pending, due
   * now; one that may have printed already (in doubt, or discarded while in doubt) prints marked
   * REPRINT. A pending job is made due now (its backoff is skipped). A done job is refused: queue
   * a copy under a new dedupe key instead.
   */
  retry(id: string, now: number = this.clock.now()): PrintJob {
    return this.transaction(() => {
      const row = this.#row(id);
      if (row.state === 'done') throw new StoreError('conflict', `print job ${id} printed already; queue a copy instead`);
      return this.#update(id, {
        state: 'pending',
        next_attempt_at: now,
        last_error: row.state === 'pending' ? row.last_error : null,
        reprint: row.state === 'sending' ? 1 : row.reprint,
        updated_at: now,
      });
    });
  }

  /** Sends an unfinished job to another printer (its own is broken): pending there, due now. */
  redirect(id: string, printer: string, now: number = this.clock.now()): PrintJob {
    return this.transaction(() => {
      const row = this.#row(id);
      if (row.state === 'done') throw new StoreError('conflict', `print job ${id} printed already; queue a copy instead`);
      if (printer === '') throw new StoreError('conflict', 'a print job needs a printer name');
      return this.#update(id, {
        printer,
        state: 'pending',
        next_attempt_at: now,
        last_error: null,
        reprint: row.state === 'sending' ? 1 : row.reprint,
        updated_at: now,
      });
    });
  }

  /** A person drops an unfinished job (an in-doubt ticket that did come out, a receipt nobody wants). */
  discard(id: string, now: number = this.clock.now()): PrintJob {
    return this.transaction(() => {
      const row = this.#row(id);
      if (row.state === 'discarded') return toJob(row);
      if (row.state === 'done') throw new StoreError('conflict', `print job ${id} printed already`);
      return this.#update(id, { state: 'discarded', reprint: row.state === 'sending' ? 1 : row.reprint, updated_at: now });
    });
  }

  get(id: string): PrintJob | undefined {
    const row = this.sql.first(this.kysely.selectFrom('print_jobs').selectAll().where('id', '=', id));
    return row && toJob(row);
  }

  getByDedupeKey(dedupeKey: string): PrintJob | undefined {
    const row = this.sql.first(this.kysely.selectFrom('print_jobs').selectAll().where('dedupe_key', '=', dedupeKey));
    return row && toJob(row);
  }

  /** Jobs oldest first (in the order they were queued), filtered by state(s), printer and order. */
  list(filter: PrintJobFilter = {}): PrintJob[] {
    let query = this.kysely.selectFrom('print_jobs').selectAll();
    if (filter.state !== undefined) {
      const states = typeof filter.state === 'string' ? [filter.state] : [...filter.state];
      if (states.length === 0) return [];
      query = query.where('state', 'in', states);
    }
    if (filter.printer !== undefined) query = query.where('printer', '=', filter.printer);
    if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
    return this.sql.all(query.orderBy('created_at').orderBy(rawSql`rowid`).limit(filter.limit ?? 500)).map(toJob);
  }

  /**
   * Jobs left 'sending': they may have printed. At start (before the worker sends anything) that
   * is every one of them; while a worker runs, leave out the one it is sending (its status
   * counts do). They are never printed again on their own: a person reprints (`retry`), sends
   * them elsewhere (`redirect`), confirms (`markDone`) or drops them (`discard`).
   */
  jobsInDoubt(printer?: string): PrintJob[] {
    return this.list({ state: 'sending', ...(printer === undefined ? {} : { printer }) });
  }

  /** Unfinished jobs per printer name (only printers that have some). */
  countsByPrinter(): Map<string, PrintJobCounts> {
    const rows = this.sql.allSql<{ printer: string; state: string; n: number }>(
      `SELECT printer, state, count(*) AS n FROM print_jobs WHERE state IN ('pending', 'sending', 'failed') GROUP BY state, printer`,
      [],
    );
    const counts = new Map<string, PrintJobCounts>();
    for (const { printer, state, n } of rows) {
      const entry = counts.get(printer) ?? { pending: 0, sending: 0, failed: 0 };
      entry[state as keyof PrintJobCounts] = n;
      counts.set(printer, entry);
    }
    return counts;
  }

  /** Deletes done and discarded jobs last changed before `before` (ms); returns how many. */
  pruneFinished(before: number): number {
    return this.transaction(() =>
      Number(this.sql.run(this.kysely.deleteFrom('print_jobs').where('state', 'in', ['done', 'discarded']).where('updated_at', '<', before)).changes),
    );
  }
}
