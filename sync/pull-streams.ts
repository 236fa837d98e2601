// A full keyset pull as several streams at once, so a store's first sync over a real internet link
// (tens of ms per round trip) is not one round trip per page. The time range of the orders is cut
// into windows, each a keyset stream of its own (created_after the last record it wrote, below its
// window's end); a stream that runs out takes half of the widest window still running, so the
// work stays balanced however the orders are spread over time. Each page is committed with the
// state of every window (the cursor), so an interrupted pull resumes where each window stood.
// Pages wait undecoded and are decoded one at a time, when their turn to be written comes: the
// memory of a pull is one decoded page, whatever the number of streams (docs/sync.md).
import { letRequestsLeave } from './event-loop';
import { newestOf, oldestFirst } from './pages';

/** One stream's part of the time range: records created after `after` and before `before` (null: unbounded). */
export interface PullWindow {
  after: number | null;
  before: number | null;
  /** >1 while stepping through a page of records that share one millisecond. */
  page: number;
}

/** What a full pull of a scope saves with each page: where each unfinished window stands. */
export interface StreamsCursor {
  startedAt: number;
  windows: PullWindow[];
}

export function parseStreamsCursor(cursor: string | null): StreamsCursor | null {
  if (cursor === null) return null;
  try {
    const parsed = JSON.parse(cursor) as { startedAt?: unknown; windows?: unknown; after?: unknown };
    if (typeof parsed.startedAt !== 'number') return null;
    const isStamp = (v: unknown) => v === null || typeof v === 'number';
    // A cursor saved by the one-stream pull before this existed: one window from where it stood.
    if (parsed.windows === undefined && isStamp(parsed.after)) return { startedAt: parsed.startedAt, windows: [{ after: parsed.after as number | null, before: null, page: 1 }] };
    if (!Array.isArray(parsed.windows)) return null;
    const windows = parsed.windows as PullWindow[];
    if (!windows.every((w) => isStamp(w.after) && isStamp(w.before) && Number.isInteger(w.page) && w.page >= 1)) return null;
    return { startedAt: parsed.startedAt, windows };
  } catch {
    return null;
  }
}

/** A page as the streams read it: its records, with their ids and creation times, in the server's order. */
export interface StreamPage<R = unknown> {
  records: readonly R[];
  ids: string[];
  /** Epoch ms per record; NaN where a record carries none. */
  createdAt: number[];
  /** The server says there is more after this page (links.next or total_pages): sync/pages.ts. */
  more: boolean;
  /** The list's total as this page announced it, if it did. */
  total: number | null;
}

/** Thrown when the records carry no created_at, or are not listed oldest first: the caller pulls by page number instead. */
export class NoKeysetError extends Error {
  constructor() {
    super('records carry no created_at or are not listed oldest first: cannot pull by keyset');
  }
}

/** A page fetched and not decoded yet: calling it decodes it (once), which may throw what an unreadable page throws. */
export type UndecodedPage<R> = () => StreamPage<R>;

export interface StreamsDeps<R> {
  fetch(window: Readonly<PullWindow>): Promise<UndecodedPage<R>>;
  /** Writes the page just fetched (by `fetch` for that window) with the cursor, in one commit. */
  write(page: StreamPage<R>, cursor: string): void;
  /** Streams at once (bounded: each holds one request in flight). */
  concurrency: number;
}

/**
 * Runs the windows to completion. `windows` are those left to pull (a fresh pull passes one,
 * unbounded; a resumed one its saved windows). Throws the first failure of any stream, leaving
 * the last committed cursor to resume from.
 */
export async function pullInStreams<R>(startedAt: number, initial: readonly PullWindow[], deps: StreamsDeps<R>): Promise<{ pages: number }> {
  const open = initial.map((w) => ({ ...w }));
  const waiting = [...open];
  const running = new Set<PullWindow>();
  /** How many ms of records a full page of each window covered last: what a steal would gain. */
  const pageSpan = new Map<PullWindow, number>();
  let pages = 0;
  let failed: unknown = null;
  const cursorOf = () => JSON.stringify({ startedAt, windows: open } satisfies StreamsCursor);
  const close = (window: PullWindow) => open.splice(open.indexOf(window), 1);

  /** Half of the widest running window, for a stream that has run out of its own. */
  const steal = (): PullWindow | null => {
    let widest: PullWindow | null = null;
    let width = 0;
    for (const w of running) {
      const perPage = pageSpan.get(w);
      if (w.after === null || w.page > 1 || perPage === undefined) continue;
      const span = (w.before ?? startedAt) - w.after;
      // Fewer than about four pages left: a second stream would cost more requests than it saves.
      if (span > 4 * Math.max(perPage, 1) && span > width) [widest, width] = [w, span];
    }
    if (widest === null) return null;
    const middle = widest.after! + Math.floor(width / 2);
    const taken: PullWindow = { after: middle - 1, before: widest.before, page: 1 };
    widest.before = middle;
    open.push(taken);
    return taken;
  };

  // Idle streams wait for the next page anywhere: it may make a window worth taking half of.
  let progress: { promise: Promise<void>; resolve: () => void } = deferred();
  const advanced = () => {
    progress.resolve();
    progress = deferred();
  };

  const stream = async (): Promise<void> => {
    for (;;) {
      if (failed !== null) return;
      const window = waiting.shift() ?? steal();
      if (window === null) {
        if (running.size === 0) return;
        await progress.promise;
        continue;
      }
      running.add(window);
      try {
        await runWindow(window);
      } finally {
        running.delete(window);
        advanced();
      }
    }
  };

  // One page decoded and written at a time; the others wait as bytes (their turn is FIFO).
  let lastTurn = Promise.resolve();
  const nextTurn = (): Promise<() => void> => {
    const previous = lastTurn;
    let end!: () => void;
    lastTurn = new Promise<void>((resolve) => (end = resolve));
    return previous.then(() => end);
  };

  const runWindow = async (window: PullWindow): Promise<void> => {
    let next = deps.fetch(window);
    for (;;) {
      const undecoded = await next;
      if (failed !== null) return;
      const endTurn = await nextTurn();
      try {
        if (failed !== null) return;
        // Only `held` refers to the decoded page, and it lets go once the page is written: this
        // function waits on the network next, and whatever it still referred to would be kept
        // by it through young-generation collections (sync/reply-buffers.ts says why that matters).
        const held = decode(undecoded);
        const step = stepAfter(window, held);
        if (step.span !== null) pageSpan.set(window, step.span);
        if (!step.done) {
          // The next request leaves before this page is written: the server works while SQLite does.
          next = deps.fetch({ ...step.moved, before: window.before });
          next.catch(() => undefined); // awaited above on the next turn
          await letRequestsLeave();
          if (failed !== null) return;
        }
        // The window moves with the page it writes, in the same synchronous step: a cursor another
        // stream commits in between must not claim pages this one has not written.
        Object.assign(window, step.moved);
        // A stolen half may have moved this window's end below what the last page reached.
        const done = step.done || (window.before !== null && window.after !== null && window.after >= window.before - 1);
        if (done) {
          close(window);
          pageSpan.delete(window);
        }
        writeHeld(held, cursorOf(), deps);
        pages += 1;
        advanced();
        if (done) return;
      } catch (error) {
        failed ??= error; // before the next turn: no stream decodes or writes a page after this one failed
        throw error;
      } finally {
        endTurn();
      }
    }
  };

  const streams = Array.from({ length: Math.max(1, deps.concurrency) }, () =>
    stream().catch((error: unknown) => {
      failed ??= error;
    }),
  );
  await Promise.all(streams);
  if (failed !== null) throw failed;
  return { pages };
}

/** A decoded page until it is written (then `page` is null). */
interface HeldPage<R> {
  page: StreamPage<R> | null;
}

function decode<R>(undecoded: UndecodedPage<R>): HeldPage<R> {
  return { page: undecoded() };
}

function writeHeld<R>(held: HeldPage<R>, cursor: string, deps: StreamsDeps<R>): void {
  const page = held.page!;
  held.page = null;
  deps.write(page, cursor);
}

/**
 * Where a window stands once the held page is written: only the server's word ends it (a short or
 * empty page may still link on); `span` is the time a full page covered, when it moved by keyset.
 */
function stepAfter<R>(window: Readonly<PullWindow>, held: HeldPage<R>): { moved: { after: number | null; page: number }; done: boolean; span: number | null } {
  const page = held.page!;
  const moved = { after: window.after, page: window.page };
  if (!page.more) return { moved, done: true, span: null };
  if (page.ids.length < 2) {
    moved.page += 1; // an empty page that links on, or one record that cannot show the order: by number
    return { moved, done: false, span: null };
  }
  // Listed newest first, or without creation times: a keyset walk would skip; the caller pages by number.
  if (!oldestFirst(page.createdAt)) throw new NoKeysetError();
  const newest = newestOf(page.createdAt);
  if (window.after !== null && newest <= window.after + 1) {
    moved.page += 1; // a whole page within one millisecond: step through it by number
    return { moved, done: false, span: null };
  }
  moved.after = newest - 1; // several records may share a millisecond: ids dedupe
  moved.page = 1;
  return { moved, done: false, span: newest - page.createdAt[0]! };
}

/** Cuts (after, ∞) into `count` windows of equal time up to `until`; the last stays unbounded (orders made during the pull). */
export function splitWindows(after: number, until: number, count: number): PullWindow[] {
  const span = Math.max(0, until - after);
  const n = span < count * 4 ? 1 : count;
  return Array.from({ length: n }, (_, i) => ({
    after: i === 0 ? after : after + Math.floor((span * i) / n) - 1,
    before: i === n - 1 ? null : after + Math.floor((span * (i + 1)) / n),
    page: 1,
  }));
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
