// The store's write turn (store/write-turn.ts) between the register's writes and a thread writing transaction
// after transaction, as the catch-up's apply thread does: the thread's side runs in a real worker from the same
// source the apply thread embeds, its "transactions" busy for a set time and counted in shared memory.
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { THREAD_TURN_SOURCE, WriteTurn } from '../../store/write-turn';

/** [transactions begun, the register seen waiting, stop]. */
const BEGUN = 0;
const SEEN_WAITING = 1;
const STOP = 2;

const THREAD = `
const { workerData, parentPort } = process.getBuiltinModule('node:worker_threads');
${THREAD_TURN_SOURCE}
const counts = new Int32Array(workerData.counts);
const turn = new Turn(workerData.turn, workerData.yieldMs, () => Atomics.add(counts, ${SEEN_WAITING}, 1));
parentPort.postMessage('ready');
while (Atomics.load(counts, ${STOP}) === 0) {
  turn.take();
  Atomics.add(counts, ${BEGUN}, 1);
  const until = performance.now() + workerData.transactionMs;
  while (performance.now() < until);
  turn.end();
}
`;

const busy = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

const running: { worker: Worker; counts: Int32Array }[] = [];
afterEach(async () => {
  for (const { worker, counts } of running.splice(0)) {
    Atomics.store(counts, STOP, 1);
    await worker.terminate();
  }
});

async function threadWriting(turn: WriteTurn, options: { transactionMs: number; yieldMs: number }): Promise<Int32Array> {
  const counts = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  const worker = new Worker(THREAD, { eval: true, workerData: { turn: turn.words.buffer, counts: counts.buffer, ...options } });
  running.push({ worker, counts });
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  // Writing back to back: a few transactions in.
  while (Atomics.load(counts, BEGUN) < 3) await new Promise((resolve) => setTimeout(resolve, 5));
  return counts;
}

describe('the write turn', () => {
  it("lets a register's write in when the thread's transaction in progress ends, and the thread begins none while it runs", async () => {
    const turn = new WriteTurn();
    const counts = await threadWriting(turn, { transactionMs: 20, yieldMs: 1_000 });
    for (let round = 0; round < 20; round++) {
      const asked = performance.now();
      const begunBefore = Atomics.load(counts, BEGUN);
      const seen = turn.register(() => {
        const waited = performance.now() - asked;
        const threadWriting = turn.words[0];
        const begun = Atomics.load(counts, BEGUN);
        busy(60);
        return { waited, threadWriting, begun, begunAfter: Atomics.load(counts, BEGUN) };
      });
      expect(seen.threadWriting).toBe(0);
      // At most the transaction in progress when it asked, and nothing begun while it wrote (three would fit in 60 ms).
      expect(seen.begun - begunBefore).toBeLessThanOrEqual(1);
      expect(seen.begunAfter).toBe(seen.begun);
      // One transaction (20 ms) and scheduling, not SQLite's busy steps across several.
      expect(seen.waited).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, round % 3));
    }
    expect(Atomics.load(counts, SEEN_WAITING)).toBeGreaterThan(0);
  });

  it('lets the thread go on after its bound when a register write holds the turn longer', async () => {
    const turn = new WriteTurn();
    const counts = await threadWriting(turn, { transactionMs: 5, yieldMs: 50 });
    const begun = turn.register(() => {
      const before = Atomics.load(counts, BEGUN);
      busy(400);
      return Atomics.load(counts, BEGUN) - before;
    });
    // Past its 50 ms the thread went ahead (in the store, SQLite's lock then makes it wait as before).
    expect(begun).toBeGreaterThan(0);
  });

  it('where the register may not block, still keeps the thread from beginning a transaction while it writes', async () => {
    const turn = new WriteTurn(false);
    const counts = await threadWriting(turn, { transactionMs: 20, yieldMs: 1_000 });
    for (let round = 0; round < 5; round++) {
      const seen = turn.register(() => {
        // Not waited for here: in the store, SQLite's busy handler waits for the transaction in progress.
        while (Atomics.load(turn.words, 0) === 1);
        const begun = Atomics.load(counts, BEGUN);
        busy(60);
        return Atomics.load(counts, BEGUN) - begun;
      });
      expect(seen).toBe(0);
    }
  });

  it('lets a register write in at once once a thread that ended mid-transaction is known gone', () => {
    const turn = new WriteTurn();
    // As a thread that died between its take and its end leaves it.
    Atomics.store(turn.words, 0, 1);
    turn.threadEnded();
    const started = performance.now();
    turn.register(() => undefined);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('costs a register write nothing when no thread writes', () => {
    const turn = new WriteTurn();
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) turn.register(() => i);
    expect(performance.now() - started).toBeLessThan(200);
    expect([...turn.words]).toEqual([0, 0]);
  });
});
