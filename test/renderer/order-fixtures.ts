// Plain data and core steps the renderer's checkout suites share (no DOM): a burger with a
// required size and up to two sauces, and a card payment the cloud knows of.
import type { MenuItem, ModifierGroup } from '../../bridge/contract';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { ITEMS, reopenStore } from '../core/fixtures';

export const SIZE: ModifierGroup = { id: 'g_size', name: 'Size', min: 1, max: 1, modifierIds: ['m_small', 'm_large'] };
export const SAUCES: ModifierGroup = { id: 'g_sauce', name: 'Sauces', min: 0, max: 2, modifierIds: ['m_bbq', 'm_mayo', 'm_chili'] };
/** Size (choose 1) and Sauces (up to 2); Bacon in no group. */
export const BURGER: MenuItem = {
  id: 'mi_burger',
  name: 'Burger',
  price: 1200,
  categoryId: 'cat_mains',
  description: '',
  available: true,
  lowStock: false,
  modifiers: [
    { id: 'm_small', name: 'Small', price: 0 },
    { id: 'm_large', name: 'Large', price: 300 },
    { id: 'm_bbq', name: 'BBQ', price: 50 },
    { id: 'm_mayo', name: 'Mayo', price: 0 },
    { id: 'm_chili', name: 'Chili', price: 50 },
    { id: 'm_bacon', name: 'Bacon', price: 200 },
  ],
  modifierGroups: [SIZE, SAUCES],
  taxClass: 'food',
  barcode: null,
};

/** Burgers 2 × 12.00 + fries 4.50 = 28.50. */
export function placeBurgersAndFries(client: BridgeClient) {
  return client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }, { menuItemId: ITEMS.fries, quantity: 1 }] });
}

/**
 * A card payment of `amount` + `tip` toward the order, and the cloud's record of it as a pull
 * brings it (a card is refunded through it).
 */
export async function payByCardInTheCloud(client: BridgeClient, dataDir: string, orderId: string, amount: number, tip: number) {
  const card = await client.call('payments.take', { orderId, method: 'card', amount, tip });
  const store = reopenStore(dataDir);
  store.server.applyServerRecord('payment', {
    id: 'pay_cloud_card', order_id: orderId, payment_intent_id: card.payment.id, method: 'card', amount: amount + tip, currency: 'usd', status: 'succeeded', created_at: Date.now(),
  });
  store.close();
  return card;
}
