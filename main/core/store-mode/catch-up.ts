// Applying the pages pulled from the other tills (docs/store-mode-catch-up.md). A live page (a few entries)
// is applied here, on the register's thread, at once. A catch-up's page (hundreds) goes to the store's
// apply thread, which commits its plain entries by SQL on a connection of its own while the register
// answers; the entries it leaves (a forward, a member, an adoption, one already held) are applied here in
// ~2 ms slices, in order between its transactions. Either way each transaction holds entries with the
// cursor of its last.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from '../../../common/log';
import type { ReplicaApplyThread, ReplicaCursor, ReplicaEntry, Store } from '../../../store/index';

/**
 * How long one transaction of a page's entries may hold the event loop when applied here: a slice is sized
 * to this from what the entries have cost so far, so a register's command waits about this long at most.
 */
const SLICE_BUDGET_MS = 2;
/** Bounds of a slice, in entries: at least some progress on a slow machine, at most what a budget ever held. */
const SLICE_ENTRIES = { min: 5, max: 500 };
/** What an entry is taken to cost before one was measured (a first-page order entry on the loaded 2-core machine). */
const FIRST_ENTRY_MS = 0.15;
/** A page longer than this is a catch-up's: the apply thread takes it. */
const CATCH_UP_PAGE_ENTRIES = 100;

/** What an entry of a page has cost to apply lately, in ms: the next slice is sized from it. */
export interface SlicePace {
  msPerEntry: number;
}

/**
 * Applies entries in slices, each one transaction (`applySlice` commits the entries and the cursor of the
 * last), yielding to the event loop between them: a slice holds about SLICE_BUDGET_MS at the pace measured
 * so far, which `pace` keeps (a slow slice shrinks the next, a quick one grows it). Returns the cursor the
 * last slice committed; a slice that throws ends it, with the slices before it committed.
 */
export async function applyInSlices(
  entries: readonly ReplicaEntry[],
  pace: SlicePace,
  applySlice: (entries: readonly ReplicaEntry[]) => ReplicaCursor,
): Promise<ReplicaCursor> {
  let cursor: ReplicaCursor | undefined;
  for (let start = 0; start < entries.length; ) {
    if (start > 0) await nextTurn();
    const count = Math.max(SLICE_ENTRIES.min, Math.min(SLICE_ENTRIES.max, Math.floor(SLICE_BUDGET_MS / pace.msPerEntry)));
    const slice = entries.slice(start, start + count);
    const began = performance.now();
    cursor = applySlice(slice);
    // Smoothed and bounded: one slice that met a collection or lost its core a while does not shrink the next to nothing.
    const measured = (performance.now() - began) / slice.length;
    pace.msPerEntry = 0.7 * pace.msPerEntry + 0.3 * Math.min(2 * pace.msPerEntry, Math.max(pace.msPerEntry / 2, measured));
    start += slice.length;
  }
  if (cursor === undefined) throw new Error('a replica page has at least one entry');
  return cursor;
}

/** The pages of every peer of one link, applied one at a time (the followers share it). */
export class PageApplier {
  readonly #pace: SlicePace = { msPerEntry: FIRST_ENTRY_MS };
  readonly #thread: ReplicaApplyThread;

  constructor(
    private readonly store: Store,
    private readonly self: string,
    private readonly now: () => number,
    logger: Logger,
  ) {
    this.#thread = store.replicaApplyThread((message) =>
      logger.warn({ event: 'store-mode.apply-thread-failed', error: message }, "the catch-up's apply thread stopped; pages are applied on the register's thread from now on"),
    );
  }

  /** A page of up to `entries` entries is on its way: a catch-up's starts the thread meanwhile. */
  coming(entries: number): void {
    if (entries > CATCH_UP_PAGE_ENTRIES && this.#thread.available) this.#thread.warm();
  }

  /** Applies a page of `origin`'s log; resolves the cursor committed after its last entry. */
  async apply(origin: string, logId: string, entries: readonly ReplicaEntry[]): Promise<ReplicaCursor> {
    if (entries.length <= CATCH_UP_PAGE_ENTRIES || !this.#thread.available) return this.#here(origin, logId, entries);
    let rest = entries;
    let cursor: ReplicaCursor | null = null;
    while (rest.length > 0) {
      const done = await this.#thread.apply(origin, logId, rest, this.now());
      if (done === null || done.applied + done.onMainThread === 0) {
        // The thread is gone: what it committed stands (its cursor); the rest is applied here.
        const committed = this.store.replicas.cursor(origin);
        const left = committed?.logId === logId ? rest.filter((entry) => entry.seq > committed.seq) : rest;
        return left.length > 0 ? await this.#here(origin, logId, left) : (committed as ReplicaCursor);
      }
      if (done.applied > 0) cursor = { logId, seq: (rest[done.applied - 1] as ReplicaEntry).seq };
      const here = rest.slice(done.applied, done.applied + done.onMainThread);
      if (here.length > 0) cursor = await this.#here(origin, logId, here);
      rest = rest.slice(done.applied + done.onMainThread);
    }
    return cursor as ReplicaCursor;
  }

  /** Ends the thread (before the store closes). */
  stop(): Promise<void> {
    return this.#thread.stop();
  }

  #here(origin: string, logId: string, entries: readonly ReplicaEntry[]): Promise<ReplicaCursor> {
    return applyInSlices(entries, this.#pace, (slice) => this.store.replicas.apply(origin, logId, slice, this.now(), this.self));
  }
}
