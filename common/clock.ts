// Time comes from an injectable clock so tests can run retry schedules, token expiry and
// signature tolerance in milliseconds instead of minutes.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  #now: number;
  constructor(startMs: number = Date.now()) {
    this.#now = startMs;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot move a clock by ${ms} ms`);
    this.#now += ms;
  }
}

/** A clock offset from another: the sandbox's "advance the clock" control. */
export class OffsetClock implements Clock {
  #offsetMs = 0;
  constructor(private readonly base: Clock = systemClock) {}
  now(): number {
    return this.base.now() + this.#offsetMs;
  }
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot move a clock by ${ms} ms`);
    this.#offsetMs += ms;
  }
}
