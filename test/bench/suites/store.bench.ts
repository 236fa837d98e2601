// Committing a 3-line order through the store (order row with its lines + outbox + audit rows,
// one transaction, WAL + synchronous=FULL) next to raw better-sqlite3 inserting the same rows
// into the same schema with the same pragmas, in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '../../../common/ids';
import { openStore } from '../../../store';
import { cashier, threeLineOrder } from '../../store/fixtures';
import { percentile, row, sampleMicros, type BenchRow, type BenchSuite } from '../harness';

const ITERATIONS = 2_000;
// Short alternating rounds: a burst of load from other processes hits both sides alike.
const ROUNDS = 20;

function rawCommitter(file: string): () => void {
  // Same schema (migrations) and pragmas as the store; then nothing but prepared inserts.
  const db = openStore(file).db;
  const order = threeLineOrder();
  const insertOrder = db.prepare(
    `INSERT INTO orders (id, layer, pull_scope, last_seen_at, location_id, status, currency, customer_name, customer_phone, notes, total, created_at, updated_at, lines)
     VALUES (?, 'pending', NULL, NULL, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertOp = db.prepare(
    `INSERT INTO outbox (op_id, entity_kind, entity_id, kind, payload, patch, resource_key, state, attempts, next_attempt_at, last_error, created_at, updated_at)
     VALUES (?, 'order', ?, 'order.create', ?, ?, ?, 'pending', 0, ?, NULL, ?, ?)`,
  );
  const insertAudit = db.prepare(`INSERT INTO audit_log (at, actor, action, entity_kind, entity_id, detail) VALUES (?, ?, 'order.create', 'order', ?, ?)`);
  const commit = db.transaction(() => {
    const now = Date.now();
    const id = newId('ord_', now);
    insertOrder.run(id, order.locationId, order.currency, order.customer?.name, order.customer?.phone, order.notes, 3700, now, now, JSON.stringify(order.lines));
    const payload = JSON.stringify({ location_id: order.locationId, items: order.lines });
    insertOp.run(newId('op_', now), id, payload, JSON.stringify(order), `order:${id}`, now, now, now);
    insertAudit.run(now, cashier.actor, id, '{"total":3700,"lines":3}');
  });
  return () => commit.immediate();
}

const suite: BenchSuite = {
  name: 'store',
  async run(): Promise<BenchRow[]> {
    const folder = mkdtempSync(join(tmpdir(), 'pos-bench-store-'));
    try {
      const store = openStore(join(folder, 'store.db'));
      const order = threeLineOrder();
      const viaStore = () => void store.cashier.createOrder(order, cashier);
      const raw = rawCommitter(join(folder, 'raw.db'));
      // Interleave in rounds so both see the same disk and CPU conditions.
      const storeSamples: number[] = [];
      const rawSamples: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        storeSamples.push(...sampleMicros(viaStore, ITERATIONS / ROUNDS, 20));
        rawSamples.push(...sampleMicros(raw, ITERATIONS / ROUNDS, 20));
      }
      storeSamples.sort((a, b) => a - b);
      rawSamples.sort((a, b) => a - b);
      store.close();
      return [50, 99].map((p) => {
        const value = percentile(storeSamples, p);
        const baseline = percentile(rawSamples, p);
        const ratio = value / baseline;
        return row({
          name: `commit order, 3 lines + outbox (p${p})`,
          value,
          unit: `µs p${p}`,
          baselineName: 'raw better-sqlite3, same rows + pragmas',
          baseline,
          ratio,
          better: 'lower',
          target: p === 99 ? 'ratio ≤ 1.5 and < 1000 µs' : 'ratio ≤ 1.5',
          ok: ratio <= 1.5 && (p !== 99 || value < 1000),
        });
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

export default suite;
