// SQLite has one writer. While a catch-up's apply thread (replica-apply-thread.ts) commits transaction after
// transaction, a register's write left to SQLite's busy handler sleeps in growing steps (1, 2, 5 … 100 ms) and
// wakes to find the thread's next transaction already begun: measured, a cashier's write waited 85–195 ms (p95)
// during a catch-up. The turn is two words of memory shared by the two threads: a register's write says it is
// waiting, the thread begins no transaction while one is, and the register's write wakes the moment the thread's
// transaction in progress ends. Each side raises its own flag before it reads the other's (the atomics are
// sequentially consistent), so they never both go ahead; every wait is bounded, SQLite's busy handler behind it.

/** The shared words: [the thread is in a transaction (0/1), register writes waiting]. */
const THREAD_WRITING = 0;
const REGISTER_WAITING = 1;

/** A register's write waits this long at most for the thread's transaction (one is 8–25 ms), then tries anyway. */
const REGISTER_WAIT_MS = 1_000;

/**
 * Whether this thread may block in Atomics.wait: Node's main thread may, a browser's main thread may not.
 * Electron's main process may (its isolate is made with gin's default parameters, allow_atomics_wait = true);
 * asked anyway, once and without blocking (the word is not 1), so a runtime that refuses gets the fallback.
 */
export function canBlock(): boolean {
  try {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)), 0, 1, 0);
    return true;
  } catch {
    return false;
  }
}

/** The register's side: the store's connection takes the turn for each write transaction. */
export class WriteTurn {
  /** Given to the thread (its workerData). */
  readonly words = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));

  /**
   * `blocking` false where this thread may not block: the thread still lets the write go first, and the write
   * waits out the thread's transaction in progress in SQLite's busy handler.
   */
  constructor(private readonly blocking: boolean = canBlock()) {}

  /** Runs a register's write transaction `fn` ahead of the thread's next transaction. */
  register<T>(fn: () => T): T {
    Atomics.add(this.words, REGISTER_WAITING, 1);
    try {
      if (this.blocking) Atomics.wait(this.words, THREAD_WRITING, 1, REGISTER_WAIT_MS);
      return fn();
    } finally {
      Atomics.sub(this.words, REGISTER_WAITING, 1);
      Atomics.notify(this.words, REGISTER_WAITING);
    }
  }

  /** The thread has ended: whatever it left raised (ended mid-transaction) no longer holds a write back. */
  threadEnded(): void {
    Atomics.store(this.words, THREAD_WRITING, 0);
    Atomics.notify(this.words, THREAD_WRITING);
  }
}

/**
 * The thread's side, as source for a worker started from text (replica-apply-thread.ts): `new Turn(buffer,
 * yieldMs, onRegisterWaiting)`, then `take()` before each transaction and `end()` after it, committed or not.
 * `take` lets waiting register writes go first for `yieldMs` at most.
 */
export const THREAD_TURN_SOURCE = `
class Turn {
  constructor(buffer, yieldMs, onRegisterWaiting) {
    this.words = new Int32Array(buffer);
    this.yieldMs = yieldMs;
    this.onRegisterWaiting = onRegisterWaiting;
  }
  take() {
    const until = performance.now() + this.yieldMs;
    for (;;) {
      Atomics.store(this.words, ${THREAD_WRITING}, 1);
      const waiting = Atomics.load(this.words, ${REGISTER_WAITING});
      if (waiting === 0) return;
      this.onRegisterWaiting();
      if (performance.now() >= until) return;
      this.end();
      Atomics.wait(this.words, ${REGISTER_WAITING}, waiting, Math.max(1, until - performance.now()));
    }
  }
  end() {
    Atomics.store(this.words, ${THREAD_WRITING}, 0);
    Atomics.notify(this.words, ${THREAD_WRITING});
  }
}
`;
