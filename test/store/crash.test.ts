// Power-cut style crash test: a child writing orders is SIGKILLed at random moments; after each
// kill the store must open, pass integrity_check, and hold every order the child reported
// committed, each with its outbox row.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../store';
import { tempDbPath } from './helpers';

const writer = join(dirname(fileURLToPath(import.meta.url)), 'crash-writer.ts');
const KILLS = 20;

/** Runs the writer until it has been writing for `runMs`, kills it with SIGKILL, returns the ids it reported. */
function runAndKill(file: string, runMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (!timer && out.startsWith('ready\n')) timer = setTimeout(() => child.kill('SIGKILL'), runMs);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`writer exited on its own: ${err}`));
      // Only whole lines were reported; a partial last line was never finished being said.
      const lines = out.split('\n').slice(0, -1);
      resolve(lines.filter((l) => l !== 'ready'));
    });
  });
}

describe('crash safety', () => {
  it(`keeps every reported order with its outbox row across ${KILLS} SIGKILLs`, { timeout: 90_000 }, async () => {
    const file = tempDbPath();
    const reported: string[] = [];
    for (let i = 0; i < KILLS; i++) {
      reported.push(...(await runAndKill(file, 20 + Math.floor(Math.random() * 250))));
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
