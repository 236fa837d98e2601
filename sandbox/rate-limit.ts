// Per-credential fixed-window rate limit with the RateLimit-* headers.
import { z } from 'zod';
import type { Clock } from '../common/clock';

export const rateLimitSettingsSchema = z.strictObject({
  limit: z.int().min(1).max(100_000_000),
  window_sec: z.int().min(1).max(3600),
});
export type RateLimitSettings = z.infer<typeof rateLimitSettingsSchema>;

/** Generous: other components' load tests must not be throttled by default. */
export const DEFAULT_RATE_LIMIT: RateLimitSettings = { limit: 1_000_000, window_sec: 60 };

export interface RateLimitVerdict {
  allowed: boolean;
  headers: Record<string, string>;
  retryAfterSec: number;
}

export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    public settings: RateLimitSettings = DEFAULT_RATE_LIMIT,
  ) {}

  check(credentialId: string): RateLimitVerdict {
    const now = this.clock.now();
    const windowMs = this.settings.window_sec * 1000;
    let window = this.#windows.get(credentialId);
    if (!window || now - window.start >= windowMs || now < window.start) {
      window = { start: now, count: 0 };
      this.#windows.set(credentialId, window);
    }
    const allowed = window.count < this.settings.limit;
    if (allowed) window.count++;
    const resetSec = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    return {
      allowed,
      retryAfterSec: resetSec,
      headers: {
        'RateLimit-Limit': String(this.settings.limit),
        'RateLimit-Remaining': String(Math.max(0, this.settings.limit - window.count)),
        'RateLimit-Reset': String(resetSec),
      },
    };
  }

  reset(): void {
    this.#windows.clear();
  }
}
