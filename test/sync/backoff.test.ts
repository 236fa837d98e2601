import { describe, expect, it } from 'vitest';
import { fullJitterDelay, nextRetryDelay, parseRetryAfter } from '../../sync/backoff';

const tuning = { baseMs: 100, capMs: 1_000 };

describe('full-jitter backoff', () => {
  it('grows the window exponentially and caps it', () => {
    const top = () => 0.999999;
    expect(fullJitterDelay(1, tuning, top)).toBe(99);
    expect(fullJitterDelay(2, tuning, top)).toBe(199);
    expect(fullJitterDelay(4, tuning, top)).toBe(799);
    expect(fullJitterDelay(5, tuning, top)).toBe(999);
    expect(fullJitterDelay(500, tuning, top)).toBe(999);
  });

  it('draws anywhere from zero to the window', () => {
    expect(fullJitterDelay(3, tuning, () => 0)).toBe(0);
    expect(fullJitterDelay(3, tuning, () => 0.5)).toBe(200);
  });

  it('never retries before Retry-After, but may wait longer when our own window is longer', () => {
    expect(nextRetryDelay(1, 5_000, tuning, () => 0.999)).toBe(5_000);
    expect(nextRetryDelay(5, 10, tuning, () => 0.999)).toBe(999);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delta seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(['7'], now)).toBe(7_000);
  });
  it('reads an HTTP date, never negative', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});
