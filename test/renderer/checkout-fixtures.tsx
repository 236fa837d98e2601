// What the checkout suites of the renderer share: a coffee with a required size and limited
// extras, 8.875% sales tax, a manager PIN, and the register rendered on a real core.
import { render } from '@testing-library/react';
import { useState } from 'react';
import type { MenuSnapshot } from '../../bridge/contract';
import { hashManagerPin } from '../../main/config/index';
import type { Store } from '../../store/index';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { BridgeContext } from '../../renderer/lib/hooks';
import { emptyTicket, type Ticket } from '../../renderer/lib/ticket';
import { Register } from '../../renderer/screens/Register';
import { LOCATION, MODIFIERS } from '../core/fixtures';

export const FLAT_WHITE = 'mi_flat_white';
export const SIZES = { small: 'mod_small', large: 'mod_large' } as const;
export const PIN = '4321';

/** Sales tax 8.875% on everything, approval above 20% or $20.00 (the defaults), a manager PIN set. */
export const CHECKOUT_CONFIG = {
  tax: { rates: 'standard:Sales tax:8.875,food:Sales tax:8.875' },
  offlinePayments: { managerPinHash: hashManagerPin(PIN) },
} as const;

/** A flat white ($3.80) whose size must be chosen (Large +$1.00), with up to two extras (oat milk). */
export function seedCoffee(store: Store): void {
  const s = store.server;
  s.applyServerRecord('modifier', { id: SIZES.small, name: 'Small', price: 0 });
  s.applyServerRecord('modifier', { id: SIZES.large, name: 'Large', price: 100 });
  s.applyServerRecord('menu_item', {
    id: FLAT_WHITE,
    location_id: LOCATION,
    category_id: 'cat_drinks',
    name: 'Flat white',
    description: '',
    price: 380,
    currency: 'usd',
    available: true,
    low_stock: false,
    modifier_ids: [SIZES.small, SIZES.large, MODIFIERS.oat],
    deleted: false,
    tax_class: 'food',
    modifier_groups: [
      { id: 'mg_size', name: 'Size', min: 1, max: 1, modifier_ids: [SIZES.small, SIZES.large] },
      { id: 'mg_extras', name: 'Extras', min: 0, max: 2, modifier_ids: [MODIFIERS.oat] },
    ],
  });
}

function RegisterWith({ menu, initial }: { menu: MenuSnapshot; initial: Ticket }) {
  const [ticket, setTicket] = useState(initial);
  return <Register menu={menu} ticket={ticket} setTicket={(update) => setTicket(update)} active />;
}

export async function renderRegister(client: BridgeClient, initial: Ticket = emptyTicket): Promise<MenuSnapshot> {
  const menu = await client.call('menu.snapshot', {});
  render(
    <BridgeContext.Provider value={client}>
      <RegisterWith menu={menu} initial={initial} />
    </BridgeContext.Provider>,
  );
  return menu;
}

export const tile = (id: string) => document.querySelector(`.menu-grid .tile[data-item-id="${id}"]`) as HTMLElement;

/** The message a field points at (aria-describedby), if it is an alert. */
export function fieldError(input: HTMLElement): string | null {
  const note = document.getElementById(input.getAttribute('aria-describedby') ?? '');
  return note?.getAttribute('role') === 'alert' ? note.textContent : null;
}
