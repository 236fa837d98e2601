// Real SQLite files in a fresh temporary folder per test.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { NewOrderInput } from '../../store';

const folders: string[] = [];

/** A path for a database file in a folder removed after the test. */
export function tempDbPath(name = 'store.db'): string {
  const folder = mkdtempSync(join(tmpdir(), 'pos-store-'));
  folders.push(folder);
  return join(folder, name);
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export const cashier = { actor: 'cashier-1' };

export function threeLineOrder(locationId = 'loc_1'): NewOrderInput {
  return {
    locationId,
    currency: 'usd',
    customer: { name: 'Ann', phone: '+1 555 0100' },
    notes: 'table 4',
    lines: [
      { menu_item_id: 'mi_burger', name: 'Burger', quantity: 2, unit_price: 900, modifiers: [{ modifier_id: 'mod_cheese', name: 'Cheese', price: 100 }] },
      { menu_item_id: 'mi_fries', name: 'Fries', quantity: 1, unit_price: 350, modifiers: [] },
      { menu_item_id: 'mi_cola', name: 'Cola', quantity: 3, unit_price: 250, modifiers: [] },
    ],
  };
}
