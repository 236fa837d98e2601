// Power-cut style crash test: a child writing orders is SIGKILLed at random moments; after each
// kill the store must open, pass integrity_check, and hold every order the child reported
// committed, each with its outbox row.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../store';
import { tempDbPath } from './helpers';
import { runAndKill } from './run-and-kill';

const writer = join(dirname(fileURLToPath(import.meta.url)), 'crash-writer.ts');
const KILLS = 20;

describe('crash safety', () => {
  it(`keeps every reported order with its outbox row across ${KILLS} SIGKILLs`, { timeout: 90_000 }, async () => {
    const file = tempDbPath();
    const reported: string[] = [];
    for (let i = 0; i < KILLS; i++) {
      reported.push(...(await runAndKill(writer, [file], 20 + Math.floor(Math.random() * 250))));
      const store = openStore(file);
      try {
        expect(store.integrityCheck()).toEqual(['ok']);
        const find = store.db.prepare(
          `SELECT (SELECT count(*) FROM orders WHERE id = ?) AS orders,
                  (SELECT json_array_length(lines) FROM orders WHERE id = ?) AS lines,
                  (SELECT count(*) FROM outbox WHERE entity_id = ? AND kind = 'order.create') AS ops`,
        );
        for (const id of reported) expect(find.get(id, id, id), id).toEqual({ orders: 1, lines: 3, ops: 1 });
        // No half-written order: every order row has its three lines and its outbox row.
        const orphans = store.db
          .prepare(
            `SELECT count(*) FROM orders AS o WHERE json_array_length(o.lines) <> 3
               OR NOT EXISTS (SELECT 1 FROM outbox WHERE entity_id = o.id)`,
          )
          .pluck()
          .get();
        expect(orphans).toBe(0);
      } finally {
        store.close();
      }
    }
    expect(reported.length).toBeGreaterThan(KILLS);
  });
});
