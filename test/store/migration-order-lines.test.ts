// Migration 6 folds order_lines and order_line_modifiers into a JSON column of the order row: a
// till upgraded with orders on it must read every order back exactly as before, in both layers.
import { describe, expect, it } from 'vitest';
import { openStore, STORE_MIGRATIONS } from '../../store';
import { tempDbPath } from './helpers';

const BEFORE_INLINE_LINES = 5;

function seedVersion5(file: string): void {
  const older = openStore(file, { migrations: STORE_MIGRATIONS.slice(0, BEFORE_INLINE_LINES) });
  const db = older.db;
  const insertOrder = db.prepare(
    `INSERT INTO orders (id, layer, pull_scope, last_seen_at, location_id, status, currency, customer_name, customer_phone, notes, total, created_at, updated_at)
     VALUES (?, ?, NULL, NULL, 'loc_1', 'open', 'usd', NULL, NULL, '', ?, 1000, 1000)`,
  );
  const insertLine = db.prepare(`INSERT INTO order_lines (order_id, layer, line_no, menu_item_id, name, quantity, unit_price) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const insertModifier = db.prepare(
    `INSERT INTO order_line_modifiers (order_id, layer, line_no, position, modifier_id, name, price) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    // Rows inserted out of order: the migration must order by line_no and position, not rowid.
    insertOrder.run('ord_a', 'base', 2650);
    insertLine.run('ord_a', 'base', 1, 'mi_fries', 'Fries', 1, 350);
    insertLine.run('ord_a', 'base', 0, 'mi_burger', 'Burger', 2, 1000);
    insertModifier.run('ord_a', 'base', 0, 1, 'mod_bacon', 'Bacon', 150);
    insertModifier.run('ord_a', 'base', 0, 0, 'mod_cheese', 'Cheese', 100);
    // A pending layer that differs from base (an unpushed edit).
    insertOrder.run('ord_a', 'pending', 350);
    insertLine.run('ord_a', 'pending', 0, 'mi_fries', 'Fries', 1, 350);
    // An order without lines (never valid from the till, but the migration must not invent any).
    insertOrder.run('ord_empty', 'base', 0);
  })();
  older.close();
}

describe('migration 6: order lines inline', () => {
  it('carries every line and modifier of both layers into the order row, in order', () => {
    const file = tempDbPath();
    seedVersion5(file);
    const store = openStore(file);
    expect(store.version).toBe(STORE_MIGRATIONS.length);
    expect(store.server.readBase('order', 'ord_a')?.lines).toEqual([
      {
        menu_item_id: 'mi_burger', name: 'Burger', quantity: 2, unit_price: 1000,
        modifiers: [{ modifier_id: 'mod_cheese', name: 'Cheese', price: 100 }, { modifier_id: 'mod_bacon', name: 'Bacon', price: 150 }],
      },
      { menu_item_id: 'mi_fries', name: 'Fries', quantity: 1, unit_price: 350, modifiers: [] },
    ]);
    // The cashier sees the pending layer.
    expect(store.cashier.getOrder('ord_a')?.lines).toEqual([{ menu_item_id: 'mi_fries', name: 'Fries', quantity: 1, unit_price: 350, modifiers: [] }]);
    expect(store.server.readBase('order', 'ord_empty')?.lines).toEqual([]);
    const tables = store.db.prepare(`SELECT name FROM sqlite_master WHERE name IN ('order_lines', 'order_line_modifiers')`).pluck().all();
    expect(tables).toEqual([]);
    expect(store.integrityCheck()).toEqual(['ok']);
    store.close();
  });

  it('refuses lines that are not JSON', () => {
    const store = openStore(tempDbPath());
    expect(() =>
      store.db
        .prepare(
          `INSERT INTO orders (id, layer, location_id, status, currency, notes, total, created_at, updated_at, lines)
           VALUES ('ord_x', 'base', 'loc_1', 'open', 'usd', '', 0, 0, 0, 'not json')`,
        )
        .run(),
    ).toThrow(/CHECK constraint failed/);
    store.close();
  });
});
