// What the checkout suites of the renderer share: a coffee with a required size and limited
// extras, 8.875% sales tax, a manager PIN, and the register and the orders screen rendered on a
// real core.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { useState } from 'react';
import type { MenuSnapshot } from '../../bridge/contract';
import { hashManagerPin } from '../../main/config/index';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { BridgeContext } from '../../renderer/lib/hooks';
import { emptyTicket, type Ticket } from '../../renderer/lib/ticket';
import { Orders } from '../../renderer/screens/Orders';
import { Register } from '../../renderer/screens/Register';

export { FLAT_WHITE, SIZES, seedCoffee } from '../core/fixtures';
export const PIN = '4321';

/** Sales tax 8.875% on everything, approval above 20% or $20.00 (the defaults), a manager PIN set. */
export const CHECKOUT_CONFIG = {
  tax: { rates: 'standard:Sales tax:8.875,food:Sales tax:8.875' },
  offlinePayments: { managerPinHash: hashManagerPin(PIN) },
} as const;

function RegisterWith({ menu, initial }: { menu: MenuSnapshot; initial: Ticket }) {
  const [ticket, setTicket] = useState(initial);
  return <Register menu={menu} ticket={ticket} setTicket={(update) => setTicket(update)} order={null} active />;
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

/** The orders screen on the client's core. */
export async function renderOrders(client: BridgeClient) {
  const { checkout } = await client.call('menu.snapshot', {});
  return render(
    <BridgeContext.Provider value={client}>
      <Orders onEdit={() => undefined} checkout={checkout} />
    </BridgeContext.Provider>,
  );
}

export const orderRow = (id: string) => document.querySelector(`tr[data-order-id="${id}"]`) as HTMLElement;

/** The orders screen rendered, the order opened from its row, and its refund dialog. */
export async function openRefund(client: BridgeClient, orderId: string): Promise<HTMLElement> {
  await renderOrders(client);
  await waitFor(() => expect(orderRow(orderId)).toBeTruthy());
  fireEvent.click(within(orderRow(orderId)).getByRole('button'));
  fireEvent.click(await screen.findByRole('button', { name: 'Refund' }));
  return screen.findByRole('dialog');
}
