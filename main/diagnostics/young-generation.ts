// Gives back the young generation that a burst of allocation grew, once the till is quiet.
// V8 grows its new space (two semi-spaces) up to 2 × 16 MB while the core starts (modules compiled,
// the store opened), and during a busy spell, a catch-up or a first sync, and shrinks it only in a
// GC asked to reduce memory, which a running till never gets: ~30 MB of its RSS stay resident
// (docs/store-mode-memory.md). One such GC, asked for through the in-process inspector (no port is
// opened; Node has no other API for it), gives them back. It is a pause of 100–200 ms on a loaded
// 2-core machine, and the register is 1–2 ms slower per order while the new space grows again: so
// only once the new space has grown past GROWN_BYTES, after QUIET_MS without a command (between
// two customers, never during a command), and at most once every MIN_GAP_MS.
import { getHeapSpaceStatistics } from 'node:v8';
import type { Logger } from '../../common/log';

/** Half the largest new space: below it there is little to give back. */
const GROWN_BYTES = 16 * 1024 * 1024;
const CHECK_EVERY_MS = 2_000;
const QUIET_MS = 3_000;
const MIN_GAP_MS = 5 * 60_000;

/** The new space's size now, in bytes. */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** A memory-reducing full GC (V8's CollectAllAvailableGarbage, which shrinks the new space). */
export async function reduceHeap(): Promise<void> {
  const { Session } = process.getBuiltinModule('node:inspector');
  const session = new Session();
  session.connect();
  try {
    await new Promise<void>((resolve, reject) => session.post('HeapProfiler.collectGarbage', (error) => (error ? reject(error) : resolve())));
  } finally {
    session.disconnect();
  }
}

export interface YoungGenerationTrim {
  stop(): void;
}

/**
 * Checks every CHECK_EVERY_MS; `quietForMs` says how long no command has run (0 while one runs).
 * A failure (a Node built without the inspector) is logged once and ends the checks.
 */
export function trimYoungGenerationWhenQuiet(quietForMs: () => number, logger: Logger): YoungGenerationTrim {
  let last = -Infinity;
  let running = false;
  const timer = setInterval(() => {
    if (running || quietForMs() < QUIET_MS || performance.now() - last < MIN_GAP_MS || youngGenerationBytes() < GROWN_BYTES) return;
    running = true;
    last = performance.now();
    const before = youngGenerationBytes();
    reduceHeap().then(
      () => {
        running = false;
        // The pause it took, for IT comparing a till's memory with its responsiveness.
        logger.debug({ event: 'heap.young-generation-trimmed', ms: Math.round(performance.now() - last), fromMb: before / 1048576, toMb: youngGenerationBytes() / 1048576 }, 'young generation given back');
      },
      (error: unknown) => {
        clearInterval(timer);
        logger.warn({ err: error }, 'the young generation cannot be trimmed on this runtime');
      },
    );
  }, CHECK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
