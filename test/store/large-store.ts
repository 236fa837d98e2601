// A till's store after a year of sales, written straight into SQLite (prepared statements, big
// transactions): going through the cashier API would take minutes. Shared by the large-store test
// and the bench (no vitest here).
import BetterSqlite3 from 'better-sqlite3';
import { openStore, STORE_MIGRATIONS } from '../../store';

export const DAY_MS = 86_400_000;
export const LOCATION_ID = 'loc_1';
const FIRST_NAMES = ['Ann', 'Bob', 'Carla', 'Dmitri', 'Eve', 'Farah', 'Gus', 'Hana', 'Ivan', 'Jo', 'Kemal', 'Lea', 'Maria', 'Noor', 'Otto', 'Pia'];
const LAST_NAMES = ['Smith', 'Garcia', 'Okafor', 'Novak', 'Chen', 'Haddad', 'Larsen', 'Rossi', 'Tanaka', 'Silva', 'Kowalski', 'Dubois'];
const LINES = JSON.stringify([
  { menu_item_id: 'mi_burger', name: 'Burger', quantity: 2, unit_price: 900, modifiers: [{ modifier_id: 'mod_cheese', name: 'Cheese', price: 100 }] },
  { menu_item_id: 'mi_cola', name: 'Cola', quantity: 1, unit_price: 250, modifiers: [] },
]);
const ROWS_PER_TRANSACTION = 50_000;

export interface LargeStoreOptions {
  orders: number;
  /** The newest order's created_at; orders are spread evenly over the year before it. */
  now: number;
  /** Schema version to build at (default: the latest), e.g. the one before the indexes, to time their migration. */
  version?: number;
}

/** The n-th order's id: zero-padded so ids sort like creation order, as newId's do. */
export function orderId(n: number): string {
  return `ord_${String(n).padStart(8, '0')}`;
}

/** A customer on every third order; name `${first} ${last}`, phone `+1 555 ${n % 10000}`. */
export function customerOf(n: number): { name: string; phone: string } | null {
  if (n % 3 !== 0) return null;
  const name = `${FIRST_NAMES[n % FIRST_NAMES.length] as string} ${LAST_NAMES[Math.floor(n / 7) % LAST_NAMES.length] as string}`;
  return { name, phone: `+1 555 ${String(n % 10_000).padStart(4, '0')}` };
}

export function createdAtOf(n: number, { orders, now }: LargeStoreOptions): number {
  return now - Math.floor(((orders - 1 - n) * 365 * DAY_MS) / Math.max(1, orders));
}

/**
 * Writes `orders` pulled, fulfilled orders (base layer, self-linked ids), each with a card payment,
 * and the menu the register needs. Every order is in sync: tests add their unsynced cases.
 */
export function buildLargeStore(file: string, options: LargeStoreOptions): void {
  openStore(file, { migrations: STORE_MIGRATIONS.slice(0, options.version ?? STORE_MIGRATIONS.length) }).close();
  const db = new BetterSqlite3(file);
  // A generated file: nothing to lose if the machine stops while it is written.
  db.pragma('synchronous = OFF');
  const insertOrder = db.prepare(
    `INSERT INTO orders (id, layer, pull_scope, last_seen_at, location_id, status, currency, customer_name, customer_phone, notes, total, created_at, updated_at, lines)
     VALUES (?, 'base', 'order:${LOCATION_ID}', ?, '${LOCATION_ID}', 'fulfilled', 'usd', ?, ?, '', 2150, ?, ?, '${LINES}')`,
  );
  const insertPayment = db.prepare(
    `INSERT INTO payments (id, layer, pull_scope, last_seen_at, order_id, payment_intent_id, method, amount, currency, status, created_at)
     VALUES (?, 'base', NULL, NULL, ?, NULL, 'card', 2150, 'usd', 'succeeded', ?)`,
  );
  const link = db.prepare(`INSERT INTO id_map (entity_kind, local_id, server_id) VALUES (?, ?, ?)`);
  const batch = db.transaction((from: number, to: number) => {
    for (let n = from; n < to; n++) {
      const id = orderId(n);
      const at = createdAtOf(n, options);
      const customer = customerOf(n);
      insertOrder.run(id, at, customer?.name ?? null, customer?.phone ?? null, at, at);
      link.run('order', id, id);
      const paymentId = `pay_${String(n).padStart(8, '0')}`;
      insertPayment.run(paymentId, id, at);
      link.run('payment', paymentId, paymentId);
    }
  });
  for (let from = 0; from < options.orders; from += ROWS_PER_TRANSACTION) batch(from, Math.min(options.orders, from + ROWS_PER_TRANSACTION));
  db.exec(`
    INSERT INTO locations (id, layer, name, currency, address, timezone) VALUES ('${LOCATION_ID}', 'base', 'Main St', 'usd', NULL, 'UTC');
    INSERT INTO categories (id, layer, name, position) VALUES ('cat_1', 'base', 'Food', 1);
    INSERT INTO modifiers (id, layer, name, price) VALUES ('mod_cheese', 'base', 'Cheese', 100);
    INSERT INTO menu_items (id, layer, location_id, category_id, name, description, price, currency, available, low_stock, modifier_ids, deleted, barcode)
      VALUES ('mi_burger', 'base', '${LOCATION_ID}', 'cat_1', 'Burger', '', 900, 'usd', 1, 0, '["mod_cheese"]', 0, NULL),
             ('mi_cola', 'base', '${LOCATION_ID}', 'cat_1', 'Cola', '', 250, 'usd', 1, 0, '[]', 0, NULL);
  `);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
