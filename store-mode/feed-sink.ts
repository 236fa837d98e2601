// Where a puller puts what it pulled: the replica of one origin's log and its cursor, in the puller's
// own SQLite file. Each call is one transaction there, so a crash either keeps a page and its cursor
// or neither, and the page is fetched again.
import type { FeedEntry } from './frames';

export interface FeedCursor {
  logId: string;
  /** The highest seq of `origin` applied. */
  seq: number;
}

export interface FeedPage {
  logId: string;
  entries: readonly FeedEntry[];
}

export interface LogReplaced {
  /** The cursor held for the file that is gone. */
  previous: FeedCursor;
  logId: string;
  /** The highest seq the peer serves now: below `previous.seq` when the file shrank under the same id. */
  servedMaxSeq: number;
}

export interface FeedSink {
  /** The committed cursor of `origin`, or null before its first page. */
  cursor(origin: string): FeedCursor | null | Promise<FeedCursor | null>;
  /** A page of up to `entries` entries is on its way (its headers came): a sink may get ready for it meanwhile. */
  coming?(origin: string, entries: number): void;
  /** Applies the entries (INSERT OR IGNORE by op id) and the cursor in one transaction; returns the cursor committed. */
  apply(origin: string, page: FeedPage): FeedCursor | Promise<FeedCursor>;
  /** Records that the peer's log was replaced (shown in diagnostics); returns the cursor to read from, normally the new log id at 0. */
  logReplaced(origin: string, change: LogReplaced): FeedCursor | Promise<FeedCursor>;
}
