// Sample data shared by the store tests, the crash writer child and the store benchmark (no vitest here).
import type { NewOrderInput } from '../../store';

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

/** An order as the server's record of it (server ids), for pulls, webhooks and replies. */
export function serverOrder(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    location_id: 'loc_srv',
    status: 'open',
    currency: 'usd',
    customer: { name: 'Ana', phone: '' },
    notes: '',
    lines: [
      { menu_item_id: 'mi_srv_burger', name: 'Burger', quantity: 2, unit_price: 900, modifiers: [{ modifier_id: 'mod_srv_cheese', name: 'Cheese', price: 100 }] },
      { menu_item_id: 'mi_srv_fries', name: 'Fries', quantity: 1, unit_price: 300, modifiers: [] },
    ],
    total: 2300,
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}
