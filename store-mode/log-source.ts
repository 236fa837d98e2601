// What the feed serves: the till's own log and the replicas it holds (relay), read by position. The store
// implements it (`store_log`); the feed never writes.
import type { FeedEntry } from './frames';

export interface LogSource {
  /** The id of the log file holding `origin`'s entries (it changes when the file is replaced), or null when this till holds none. */
  logId(origin: string): string | null;
  /** Up to `limit` entries of `origin` with seq > `after`, in seq order. */
  read(origin: string, after: number, limit: number): readonly FeedEntry[];
  /** The highest seq held for `origin` (0 when none). */
  maxSeq(origin: string): number;
}
