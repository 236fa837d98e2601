// A catch-up's pages applied on a thread of their own (docs/store-mode-catch-up.md): a second connection to
// the store's file, in a worker, writes the log rows, the documents and the cursor in transactions of
// ~25 ms, by SQL alone (the documents are read out of the log rows by SQLite's JSON functions, never
// parsed in JavaScript). The register's thread stays free: its reads run beside (WAL), its writes wait
// one such transaction at most. The thread takes only plain entries (store-replicas.ts PLAIN_SEQS_SQL);
// it stops before any other (a forward, a member, an adoption, an entry already held) and says how
// many follow, for StoreReplicas.apply on the register's thread, which decides those as always.
// Every transaction commits its entries with the cursor of its last, so a crash anywhere loses nothing
// that is not fetched again. Its commits do not wait for the disk (refetchable, as a pulled page is).
// While the thread lives it alone copies the log back into the file (checkpoints), between its
// transactions and every CHECKPOINT_EVERY_MS: a register's commit never does it meanwhile.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { CURSOR_SQL, DOCS_FROM_LOG_SQL, logRowsSql, LOG_ROWS_PER_INSERT, PLAIN_SEQS_SQL, type ReplicaEntry } from './store-replicas';
import { THREAD_TURN_SOURCE, type WriteTurn } from './write-turn';

/** What one call did: the first `applied` entries are committed (with their cursor); the `onMainThread` after them are not plain. */
export interface ThreadApplied {
  applied: number;
  onMainThread: number;
}

/**
 * How long one of the thread's transactions may hold the store's write lock (a register's write waits that long
 * at most). Short transactions cost: each writes the index pages its entries touched whole (docs/store-mode-catch-up.md).
 */
const SLICE_BUDGET_MS = 25;
/** The same while the register writes (one of its writes waited for the thread in the last WRITING_FOR_MS). */
const WRITING_SLICE_BUDGET_MS = 8;
const WRITING_FOR_MS = 500;
const SLICE_ENTRIES = { min: 20, max: 1_000 };
/**
 * The thread checkpoints the log when it last did so this long ago, between its transactions and when idle: a
 * checkpoint copies each page written since once, however often it was written, so rarer is cheaper, and the log
 * grows by what ~250 ms of a catch-up writes (tens of MB) at most.
 */
const CHECKPOINT_EVERY_MS = 250;
/** The thread's scheduling priority where it can be set (Linux's nice: 0 the register's, 19 the lowest). */
const NICENESS = 10;
/** The thread lets the register's writes go first for this long at most, then waits in SQLite's busy handler as they do. */
const YIELD_TO_REGISTER_MS = 1_000;
/** The thread ends once no page came for this long: an idle thread costs memory. */
const IDLE_MS = 10_000;

interface ApplyMessage {
  id: number;
  origin: string;
  logId: string;
  now: number;
  seqs: number[];
  opIds: string[];
  /** Where each body ends in `bodies`. */
  ends: number[];
  bodies: ArrayBuffer;
}

type Answer = { id: number; applied: number; onMainThread: number } | { id: number; error: string };

/** Runs in the worker, CommonJS or module alike (getBuiltinModule), given the driver's resolved path and the SQL. */
const WORKER_SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const { createRequire } = process.getBuiltinModule('node:module');
const Database = createRequire(workerData.driver)(workerData.driver);
const { sql, budgetMs, writingBudgetMs, writingForMs, min, max } = workerData;
// Below the register's thread in the scheduler's eyes, where a thread's priority can be set (Linux: per thread,
// through its task id): on a busy machine the register answers first and the catch-up takes what is left.
if (process.platform === 'linux') {
  try {
    const task = process.getBuiltinModule('node:fs').readlinkSync('/proc/thread-self').split('/').pop();
    process.getBuiltinModule('node:os').setPriority(Number(task), workerData.niceness);
  } catch {}
}
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
// Checkpoints are this thread's own, on its schedule: not inside a commit.
db.pragma('wal_autocheckpoint = 0');
let checkpointedAt = 0;
const checkpoint = () => {
  if (performance.now() - checkpointedAt < workerData.checkpointEveryMs) return;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    // The register's connection is checkpointing: nothing copied by this one, this time.
    if (error.code !== 'SQLITE_BUSY') throw error;
  }
  checkpointedAt = performance.now();
};
const idle = setInterval(checkpoint, workerData.checkpointEveryMs);
const insertRows = new Map();
const rowsStatement = (n) => {
  let statement = insertRows.get(n);
  if (!statement) insertRows.set(n, (statement = db.prepare(sql.logRows[n])));
  return statement;
};
const lastRowid = db.prepare('SELECT COALESCE(MAX(rowid), 0) FROM store_replica_log').pluck();
const plainSeqs = db.prepare(sql.plainSeqs).pluck();
const docs = db.prepare(sql.docsFromLog);
const cursor = db.prepare(sql.cursor);
let msPerEntry = 0.05;

${THREAD_TURN_SOURCE}
let registerWroteAt = -Infinity;
const turn = new Turn(workerData.turn, workerData.yieldMs, () => (registerWroteAt = performance.now()));

// One transaction: all of entries[from, to) when every one is plain and new; else none, and where the others begin.
function slice(page, from, to) {
  let plain;
  turn.take();
  try {
    db.exec('BEGIN IMMEDIATE');
    const before = lastRowid.get();
    let inserted = 0;
    for (let start = from; start < to; start += sql.rowsPerInsert) {
      const end = Math.min(to, start + sql.rowsPerInsert);
      const values = [];
      for (let i = start; i < end; i++) values.push(page.origin, page.logId, page.seqs[i], page.opIds[i], page.body(i));
      inserted += rowsStatement(end - start).run(values).changes;
    }
    plain = new Set(plainSeqs.all(before));
    if (inserted === to - from && plain.size === to - from) {
      docs.run(before);
      cursor.run(page.origin, page.logId, page.seqs[to - 1], page.now);
      db.exec('COMMIT');
      return { applied: to - from, onMainThread: 0 };
    }
    db.exec('ROLLBACK');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  } finally {
    turn.end();
  }
  let first = from;
  while (first < to && plain.has(page.seqs[first])) first++;
  let after = first;
  while (after < to && !plain.has(page.seqs[after])) after++;
  if (first > from) slice(page, from, first);
  return { applied: first - from, onMainThread: after - first };
}

parentPort.on('message', (message) => {
  if (message === 'close') {
    clearInterval(idle);
    checkpointedAt = 0;
    checkpoint();
    db.close();
    parentPort.close();
    return;
  }
  const bodies = Buffer.from(message.bodies);
  const page = { ...message, body: (i) => bodies.subarray(i === 0 ? 0 : message.ends[i - 1], message.ends[i]) };
  try {
    let done = 0;
    while (done < page.seqs.length) {
      // Shorter transactions while the register writes: each of its writes waits for the one in progress.
      const budget = performance.now() - registerWroteAt < writingForMs ? writingBudgetMs : budgetMs;
      const count = Math.max(min, Math.min(max, Math.floor(budget / msPerEntry)));
      const to = Math.min(page.seqs.length, done + count);
      const began = performance.now();
      const result = slice(page, done, to);
      if (result.applied > 0) {
        const measured = (performance.now() - began) / result.applied;
        msPerEntry = 0.7 * msPerEntry + 0.3 * Math.min(2 * msPerEntry, Math.max(msPerEntry / 2, measured));
      }
      done += result.applied;
      checkpoint();
      if (result.onMainThread > 0) {
        parentPort.postMessage({ id: message.id, applied: done, onMainThread: result.onMainThread });
        return;
      }
    }
    parentPort.postMessage({ id: message.id, applied: done, onMainThread: 0 });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String((error && error.message) || error) });
  }
});
`;

/**
 * The thread, started with the first page given to it and ended once idle (IDLE_MS). `apply` resolves null
 * when the thread cannot be had (it failed once: the caller applies on its own thread from then on).
 */
export class ReplicaApplyThread {
  #worker: { thread: Worker; exited: Promise<void> } | null = null;
  #failed = false;
  #next = 1;
  readonly #pending = new Map<number, { resolve: (answer: Answer | null) => void }>();
  #ending: NodeJS.Timeout | null = null;

  /**
   * `turn`: the store's, which the register's write transactions take (store/write-turn.ts). `holdCheckpoints(true)`
   * when the thread starts, `(false)` when it has ended: the register's connection leaves checkpoints to the thread meanwhile.
   */
  constructor(
    private readonly file: string,
    private readonly busyTimeoutMs: number,
    private readonly turn: WriteTurn,
    private readonly holdCheckpoints: (held: boolean) => void,
    private readonly onFailure: (message: string) => void,
  ) {}

  /** False once the thread failed: pages are then applied on the caller's thread. */
  get available(): boolean {
    return !this.#failed;
  }

  /** Starts the thread ahead of a page (it takes tens of ms to start): it ends again if no page comes. */
  warm(): void {
    if (this.#worker !== null || this.#start() === null || this.#pending.size > 0) return;
    this.#endWhenIdle();
  }

  /**
   * Applies `entries` of `origin`'s log from the first, in transactions of their own, up to the first that is
   * not plain: what was committed, and how many entries from there the caller must apply itself. Null when
   * the thread failed (nothing after its last commit was applied: read the committed cursor).
   */
  async apply(origin: string, logId: string, entries: readonly ReplicaEntry[], now: number): Promise<ThreadApplied | null> {
    const worker = this.#worker ?? this.#start();
    if (worker === null) return null;
    if (this.#ending !== null) clearTimeout(this.#ending);
    this.#ending = null;
    const id = this.#next++;
    const ends: number[] = [];
    let total = 0;
    for (const entry of entries) ends.push((total += entry.body.byteLength));
    // One buffer of its own, moved to the thread, not copied.
    const bodies = Buffer.allocUnsafeSlow(total);
    let at = 0;
    for (const entry of entries) {
      bodies.set(entry.body, at);
      at += entry.body.byteLength;
    }
    const message: ApplyMessage = { id, origin, logId, now, seqs: entries.map((e) => e.seq), opIds: entries.map((e) => e.opId), ends, bodies: bodies.buffer as ArrayBuffer };
    const answer = await new Promise<Answer | null>((resolve) => {
      this.#pending.set(id, { resolve });
      worker.thread.postMessage(message, [message.bodies]);
    });
    if (this.#pending.size === 0) this.#endWhenIdle();
    if (answer === null) return null;
    if ('error' in answer) {
      this.#fail(answer.error);
      return null;
    }
    return { applied: answer.applied, onMainThread: answer.onMainThread };
  }

  /** Ends the thread and closes its connection (before the store closes: the last connection's close removes the log). */
  async stop(): Promise<void> {
    if (this.#ending !== null) clearTimeout(this.#ending);
    this.#failed = true;
    await this.#end();
  }

  #start(): { thread: Worker; exited: Promise<void> } | null {
    if (this.#failed) return null;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const logRows: Record<number, string> = {};
    for (let rows = 1; rows <= LOG_ROWS_PER_INSERT; rows++) logRows[rows] = logRowsSql(rows);
    const sql = { logRows, rowsPerInsert: LOG_ROWS_PER_INSERT, plainSeqs: PLAIN_SEQS_SQL, docsFromLog: DOCS_FROM_LOG_SQL, cursor: CURSOR_SQL };
    const thread = new Worker(WORKER_SOURCE, {
      eval: true,
      name: 'replica-apply',
      workerData: { file: this.file, driver, sql, busyTimeoutMs: this.busyTimeoutMs, turn: this.turn.words.buffer, yieldMs: YIELD_TO_REGISTER_MS, budgetMs: SLICE_BUDGET_MS, writingBudgetMs: WRITING_SLICE_BUDGET_MS, writingForMs: WRITING_FOR_MS, ...SLICE_ENTRIES, checkpointEveryMs: CHECKPOINT_EVERY_MS, niceness: NICENESS },
    });
    thread.unref();
    this.holdCheckpoints(true);
    const worker = { thread, exited: new Promise<void>((resolve) => thread.once('exit', () => resolve())) };
    thread.on('message', (answer: Answer) => {
      const pending = this.#pending.get(answer.id);
      this.#pending.delete(answer.id);
      pending?.resolve(answer);
    });
    thread.on('error', (error) => this.#fail(error.message));
    thread.once('exit', () => {
      if (this.#worker === worker) this.#worker = null;
      // A thread ending while a newer one already runs (started as this one closed, idle) leaves the newer one's
      // checkpoints held and its pages pending.
      if (this.#worker !== null) return;
      this.turn.threadEnded();
      this.holdCheckpoints(false);
      this.#settleAll();
    });
    this.#worker = worker;
    return worker;
  }

  #endWhenIdle(): void {
    if (this.#ending !== null) clearTimeout(this.#ending);
    this.#ending = setTimeout(() => void this.#end(), IDLE_MS);
    this.#ending.unref();
  }

  #fail(message: string): void {
    if (!this.#failed) this.onFailure(message);
    this.#failed = true;
    void this.#end();
  }

  #settleAll(): void {
    for (const { resolve } of this.#pending.values()) resolve(null);
    this.#pending.clear();
  }

  async #end(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (worker === null) return;
    // Held until it has closed its connection: stop() is awaited.
    worker.thread.ref();
    worker.thread.postMessage('close');
    await worker.exited;
    if (this.#worker === null) this.#settleAll();
  }
}
