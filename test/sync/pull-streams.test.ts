// The keyset streams on their own, against a list in memory whose replies come back in a random
// order: every record is written, and however many streams wait on replies, one page at a time
// is decoded and held until written (the pull's memory bound).
import { describe, expect, it } from 'vitest';
import { pullInStreams, type PullWindow, type StreamPage, type UndecodedPage } from '../../sync/pull-streams';

interface Row {
  id: string;
  createdAt: number;
}

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Resolves after a few turns of the event loop: replies overtake one another. */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Records created 0..count-1 ms, with `shared` of them in one millisecond (more than a page). */
function list(count: number, shared: number): Row[] {
  return Array.from({ length: count }, (_, i) => ({ id: `ord_${String(i).padStart(5, '0')}`, createdAt: i < shared ? 0 : i - shared + 1 }));
}

/** A list endpoint as /v1 filters it: created_after < t < created_before, oldest first, numbered pages. */
function pageOf(rows: readonly Row[], window: Readonly<PullWindow>, perPage: number): StreamPage<Row> {
  const inWindow = rows.filter((r) => (window.after === null || r.createdAt > window.after) && (window.before === null || r.createdAt < window.before));
  const records = inWindow.slice((window.page - 1) * perPage, window.page * perPage);
  return { records, ids: records.map((r) => r.id), createdAt: records.map((r) => r.createdAt), more: window.page * perPage < inWindow.length, total: rows.length };
}

describe('pullInStreams', () => {
  it('writes every record; replies wait undecoded and one page at a time is decoded until it is written', async () => {
    const rows = list(3_000, 250);
    const next = random(7);
    const written = new Set<string>();
    let decodedNotWritten = 0;
    let mostAtOnce = 0;
    const result = await pullInStreams<Row>(Date.now(), [{ after: null, before: null, page: 1 }], {
      concurrency: 16,
      fetch: async (window): Promise<UndecodedPage<Row>> => {
        await turns(Math.floor(next() * 6));
        return () => {
          decodedNotWritten += 1;
          mostAtOnce = Math.max(mostAtOnce, decodedNotWritten);
          return pageOf(rows, window, 100);
        };
      },
      write: (page) => {
        decodedNotWritten -= 1;
        for (const id of page.ids) written.add(id);
      },
    });
    expect(written.size).toBe(rows.length);
    expect(mostAtOnce).toBe(1);
    expect(result.pages).toBeGreaterThanOrEqual(rows.length / 100);
  });

  it('a page that cannot be decoded stops every stream with its error, and nothing else is decoded after it', async () => {
    const rows = list(2_000, 0);
    let decodes = 0;
    let decodesAfterFailure = 0;
    let failed = false;
    const pull = pullInStreams<Row>(Date.now(), [{ after: null, before: null, page: 1 }], {
      concurrency: 8,
      fetch: async (window): Promise<UndecodedPage<Row>> => {
        await turns(1);
        return () => {
          if (failed) decodesAfterFailure += 1;
          if (++decodes === 5) {
            failed = true;
            throw new Error('unreadable page');
          }
          return pageOf(rows, window, 100);
        };
      },
      write: () => undefined,
    });
    await expect(pull).rejects.toThrow('unreadable page');
    expect(decodesAfterFailure).toBe(0);
  });
});
