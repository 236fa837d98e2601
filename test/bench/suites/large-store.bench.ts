// A till after a year of sales (1,000,000 orders, each with a card payment), generated once per
// run: open + the register's first data next to opening an empty store, and the orders list's
// first page and a customer search next to the same SQL through raw better-sqlite3, same file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openStore, STORE_MIGRATIONS } from '../../../store';
import { SEARCH_ORDERS_SQL, searchOrdersParameters } from '../../../store/cashier';
import { buildLargeStore } from '../../store/large-store';
import { percentile, row, sampleMicros, type BenchRow, type BenchSuite } from '../harness';

const ORDERS = 1_000_000;
const NOW = 1_800_000_000_000;
const OPENS = 5;
const QUERIES = 400;
const SEARCHES = ['maria', 'Bob G', 'eve', '+1 555 12', 'Kemal Tanaka', 'pia'];
const LIST_SQL = `SELECT * FROM orders_merged ORDER BY created_at DESC, id DESC LIMIT 50`;

/** Open, then what the register shows first: the location, the menu, the newest orders. Median of OPENS, in ms. */
function openToFirstData(file: string): number {
  const samples: number[] = [];
  for (let i = 0; i < OPENS; i++) {
    const started = performance.now();
    const store = openStore(file);
    store.cashier.listLocations();
    store.cashier.listMenu();
    store.cashier.listOrders({ limit: 50 });
    samples.push(performance.now() - started);
    store.close();
  }
  return percentile(samples.sort((a, b) => a - b), 50);
}

const suite: BenchSuite = {
  name: 'large store',
  async run(): Promise<BenchRow[]> {
    const folder = mkdtempSync(join(tmpdir(), 'pos-bench-large-'));
    try {
      const file = join(folder, 'year.db');
      const empty = join(folder, 'empty.db');
      const built = performance.now();
      buildLargeStore(file, { orders: ORDERS, now: NOW, version: STORE_MIGRATIONS.length - 1 });
      const buildMs = performance.now() - built;
      // The first open after the raw writes reads the whole file (no clean close) and adds the indexes.
      const migrated = performance.now();
      openStore(file).close();
      const firstOpenMs = performance.now() - migrated;
      process.stderr.write(`  built ${ORDERS} orders in ${buildMs.toFixed(0)} ms; first open (whole-file check + migration 11) ${firstOpenMs.toFixed(0)} ms\n`);
      openStore(empty).close();

      const emptyMs = openToFirstData(empty);
      const yearMs = openToFirstData(file);

      const store = openStore(file);
      const raw = new BetterSqlite3(file, { readonly: true });
      const rawList = raw.prepare(LIST_SQL);
      const rawSearch = raw.prepare(SEARCH_ORDERS_SQL);
      let turn = 0;
      const viaStore = () => {
        store.cashier.listOrders({ limit: 50 });
        store.cashier.searchOrders(SEARCHES[turn++ % SEARCHES.length] as string, 50);
      };
      const viaRaw = () => {
        rawList.all();
        rawSearch.all(...searchOrdersParameters(SEARCHES[turn++ % SEARCHES.length] as string, 50));
      };
      const storeSamples = sampleMicros(viaStore, QUERIES, 20);
      const rawSamples = sampleMicros(viaRaw, QUERIES, 20);
      raw.close();
      store.close();

      const p95 = percentile(storeSamples, 95) / 1000;
      const rawP95 = percentile(rawSamples, 95) / 1000;
      return [
        row({
          name: `store open + first register data with ${ORDERS.toLocaleString('en-US')} orders (median of ${OPENS})`,
          value: yearMs,
          unit: 'ms',
          baselineName: 'the same on an empty store',
          baseline: emptyMs,
          better: 'lower',
          target: '< 1000 ms',
          ok: yearMs < 1000,
        }),
        row({
          name: `orders list first page and a customer search on ${ORDERS.toLocaleString('en-US')} orders: p95`,
          value: p95,
          unit: 'ms p95',
          baselineName: 'same SQL, raw better-sqlite3 (no documents)',
          baseline: rawP95,
          better: 'lower',
          target: '< 50 ms',
          ok: p95 < 50,
        }),
      ];
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

export default suite;
