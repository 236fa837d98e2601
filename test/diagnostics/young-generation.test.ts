// The young generation a burst of allocation grew is given back once the core is quiet
// (main/diagnostics/young-generation.ts, docs/store-mode-memory.md), and not while commands run.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log';
import { reduceHeap, trimYoungGenerationWhenQuiet, youngGenerationBytes } from '../../main/diagnostics/young-generation';

const MB = 1024 * 1024;

/** Allocates objects that survive a scavenge or two, as a start-up does: V8 grows the new space to its largest. */
function growYoungGeneration(): void {
  let kept: object[] = [];
  for (let i = 0; i < 600_000 && youngGenerationBytes() < 32 * MB; i++) {
    kept.push({ i, text: `row ${i}` });
    if (kept.length > 100_000) kept = [];
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the young generation', () => {
  it('shrinks in the memory-reducing GC asked for through the inspector', async () => {
    growYoungGeneration();
    expect(youngGenerationBytes()).toBeGreaterThanOrEqual(16 * MB);
    await reduceHeap();
    expect(youngGenerationBytes()).toBeLessThanOrEqual(2 * MB);
  });

  it('is trimmed once the core is quiet, not while a command runs', async () => {
    growYoungGeneration();
    let quietFor = 0; // a command running
    const trim = trimYoungGenerationWhenQuiet(() => quietFor, silentLogger);
    try {
      await sleep(4_500);
      expect(youngGenerationBytes()).toBeGreaterThanOrEqual(16 * MB);
      quietFor = 60_000;
      const deadline = Date.now() + 6_000;
      while (youngGenerationBytes() > 2 * MB && Date.now() < deadline) await sleep(100);
      expect(youngGenerationBytes()).toBeLessThanOrEqual(2 * MB);
    } finally {
      trim.stop();
    }
  });
});
