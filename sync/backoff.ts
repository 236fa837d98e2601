// Retry pacing: exponential backoff with full jitter (every client picks a random point in the
// window, so a fleet of terminals coming back online does not hammer the API in lockstep), capped,
// and never earlier than the server asked for with Retry-After.

export interface BackoffTuning {
  /** Window of the first retry. */
  baseMs: number;
  /** Largest window, however many failures came before. */
  capMs: number;
}

export const defaultBackoff: BackoffTuning = { baseMs: 1_000, capMs: 60_000 };

/** Delay before retry number `failures` (1 = first retry): uniform in [0, min(cap, base * 2^(failures-1))]. */
export function fullJitterDelay(failures: number, tuning: BackoffTuning, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(failures - 1, 30));
  const window = Math.min(tuning.capMs, tuning.baseMs * 2 ** exponent);
  return Math.floor(random() * window);
}

/**
 * Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). Returns the wait in ms
 * from `nowMs`, or null when the header is absent or unreadable (then our own backoff applies).
 */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its weekday and month; without letters it is garbage, not a year.
  if (!/[A-Za-z]/.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

/** The wait before the next attempt: jittered backoff, but at least what the server asked for. */
export function nextRetryDelay(
  failures: number,
  retryAfterMs: number | null,
  tuning: BackoffTuning,
  random: () => number = Math.random,
): number {
  const jittered = fullJitterDelay(failures, tuning, random);
  return retryAfterMs === null ? jittered : Math.max(retryAfterMs, jittered);
}
