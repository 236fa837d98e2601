// @vitest-environment happy-dom
// The floor within the till (issue 25): a new ticket being built on the register is never dropped
// without asking when a table is seated from the floor; kept, it is there on the register as it
// was; dropped, the register opens on the table's fresh check.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../renderer/App';
import { ITEMS } from '../core/fixtures';
import { tile } from './checkout-fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();
const ticketNames = () => [...document.querySelectorAll('.ticket-lines .line-name')].map((el) => el.textContent);

describe('seating a table from the floor', () => {
  it('asks before dropping a ticket not sent yet, keeps it when told to, and opens the table’s check when told to drop it', async () => {
    const client = await withCore();
    const floor = await core().call('tables.saveSection', { name: 'Main' });
    await core().call('tables.saveTable', { sectionId: floor.sections[0]!.id, name: '12', seats: 4, shape: 'square', x: 0, y: 0, width: 2, height: 2 });
    renderWith(client, <App />);
    await waitFor(() => expect(tile(ITEMS.burger)).toBeTruthy());
    fireEvent.click(tile(ITEMS.burger));
    await waitFor(() => expect(ticketNames()).toEqual(['Burger']));
    const nav = within(screen.getByRole('navigation', { name: 'Screens' }));

    const seatTwelve = async () => {
      fireEvent.click(nav.getByRole('button', { name: /^Tables/ }));
      fireEvent.click(await screen.findByTestId('table-12'));
      const seat = within(await screen.findByRole('dialog'));
      fireEvent.click(seat.getByRole('button', { name: 'Start the check' }));
      return within(await screen.findByRole('dialog', { name: 'Drop the ticket on the register?' }));
    };
    const ask = await seatTwelve();
    expect(ask.getByText('The register holds a new ticket of 1 item, not sent yet. Starting a check at table 12 drops it.')).toBeTruthy();
    fireEvent.click(ask.getByRole('button', { name: 'Keep working' }));
    fireEvent.click(nav.getByRole('button', { name: /^Register/ }));
    await waitFor(() => expect(ticketNames()).toEqual(['Burger']));

    fireEvent.click((await seatTwelve()).getByRole('button', { name: 'Drop it and go on' }));
    await waitFor(() => expect(nav.getByRole('button', { name: /^Register/ }).getAttribute('aria-current')).toBe('page'));
    expect(ticketNames()).toEqual([]);
    expect(document.querySelector('.order-details-toggle')?.textContent).toMatch(/Table 12/);
  });
});
