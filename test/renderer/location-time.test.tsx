// @vitest-environment happy-dom
// One time, the location's (issue 24, item 5), against a real core on a clock the test holds: the
// screens tell every time in the location's zone and its country's locale, whatever this
// computer's zone (UTC in CI), label the zone where a manager compares times, say so when the
// location has none, and a date picked on the Orders screen is a business day, turning at 04:00.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clientLocationSchema } from '../../api/client-records';
import { ManualClock } from '../../common/clock';
import { createBridgeClient, type BridgeClient } from '../../renderer/lib/bridge-client';
import { Reports } from '../../renderer/screens/Reports';
import { Shift } from '../../renderer/screens/Shift';
import { Staff } from '../../renderer/screens/Staff';
import type { Store } from '../../store/index';
import { locationRecord } from '../../sync/server-records';
import { ITEMS, LOCATION, STAFF, startTestCore, type TestCore } from '../core/fixtures';
import { orderRow, renderOrders } from './checkout-fixtures';
import { renderWith } from './with-core';

let t: TestCore | undefined;
afterEach(async () => {
  cleanup();
  await t?.core.shutdown();
  t = undefined;
});

/** The location's record as /v1 sends it (its address an object with the country), stored as a pull stores it. */
function locatedIn(timezone: string | null, country: string | null) {
  return (store: Store) =>
    store.server.applyServerRecord(
      'location',
      locationRecord(
        clientLocationSchema.parse({
          id: LOCATION,
          name: 'Test Kitchen',
          currency: 'usd',
          address: { line1: '1 Main St', city: 'Springfield', postal_code: '00001', ...(country ? { country } : {}) },
          timezone,
        }),
      ),
    );
}

/** A core at `startIso` on a clock that moves only when told (the till never locks itself meanwhile). */
async function tillAt(startIso: string, location: (store: Store) => void, signIn: 'owner' | null = 'owner'): Promise<{ client: BridgeClient; clock: ManualClock }> {
  const clock = new ManualClock(Date.parse(startIso));
  t = await startTestCore({ staff: { autoLockMinutes: 0 } }, { clock }, location, { signIn, openShift: false });
  const core = t.core;
  return { client: createBridgeClient({ invoke: (request) => core.invoke(request), onEvent: (listener) => core.subscribe(listener) }), clock };
}

const moveTo = (clock: ManualClock, iso: string) => clock.advance(Date.parse(iso) - clock.now());

describe('a US store in Los Angeles, on a computer in UTC', () => {
  // 11:41 UTC is 4:41 AM in Los Angeles (PDT): a UTC screen would say 11:41 AM.
  const T0 = '2025-03-14T11:41:00Z';

  it('lists orders at their Los Angeles time, month first and on a 12-hour clock', async () => {
    const { client } = await tillAt(T0, locatedIn('America/Los_Angeles', 'US'));
    expect(await client.call('location.get', {})).toMatchObject({ timezone: 'America/Los_Angeles', locale: 'en-US' });
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await renderOrders(client);
    await waitFor(() => expect(orderRow(order.id)?.querySelector('.order-time')?.textContent).toBe('Mar 14, 4:41\u00a0AM'));
    fireEvent.click(within(orderRow(order.id)).getByRole('button', { name: order.label }));
    const detail = screen.getByRole('region', { name: 'Order details' });
    expect(within(detail).getByText(/Mar 14, 4:41 AM/)).toBeTruthy();
    // A date picked is a business day, and the screen says what that is.
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-03-14' } });
    expect(screen.getByTestId('business-day-note').textContent).toBe(
      'A day here is the business day: from 4:00\u00a0AM to 4:00\u00a0AM the next morning (times in PDT), as on the end-of-day report.',
    );
  });

  it('tells the shift, its movements and the day at Los Angeles time, and the report names the zone', async () => {
    const { client, clock } = await tillAt(T0, locatedIn('America/Los_Angeles', 'US'));
    await client.call('shift.open', { count: [{ value: 2000, count: 5 }] });
    moveTo(clock, '2025-03-14T12:05:00Z');
    await client.call('shift.moveCash', { kind: 'drop', amount: 2000, reason: 'Safe' });
    renderWith(client, <Shift />);
    const shift = within(await screen.findByRole('region', { name: 'Open shift' }));
    await waitFor(() => expect(shift.getByText(new RegExp(`Opened by ${STAFF.owner.name}, Mar 14, 4:41 AM`))).toBeTruthy());
    expect(shift.getByText('5:05 AM')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Location' }).textContent).toContain('America/Los_Angeles');
    cleanup();

    renderWith(client, <Reports />);
    const made = await screen.findByTestId('report-made');
    await waitFor(() => expect(made.textContent).toMatch(/worked out Mar 14, 5:05\u00a0AM from what this terminal recorded · times in PDT$/));
    expect(screen.getByRole('heading', { level: 2, name: /End-of-day report · Fri, Mar 14, 2025/ })).toBeTruthy();
    expect(within(screen.getByTestId('report-shifts')).getByText(new RegExp(`Mar 14, 4:41 AM · ${STAFF.owner.name}`))).toBeTruthy();
  });

  it('says since when PINs were guessed at Los Angeles time', async () => {
    const { client, clock } = await tillAt(T0, locatedIn('America/Los_Angeles', 'US'), null);
    for (const pin of ['0101', '0202', '0303', '0404', '0505']) {
      clock.advance((await client.call('staff.session', {})).lockedOutForMs ?? 0);
      await client.call('staff.signIn', { pin }).catch(() => undefined);
    }
    clock.advance((await client.call('staff.session', {})).lockedOutForMs ?? 0);
    const session = await client.call('staff.signIn', { pin: STAFF.owner.pin });
    expect(session.pinGuessing?.since).toBe(new Date(T0).toISOString());
    renderWith(client, <Staff />);
    await waitFor(() => expect(screen.getByTestId('pin-guessing').textContent).toMatch(/^5 wrong PINs since Mar 14, 4:41\u00a0AM:/));
  });
});

describe('a store in Paris (the country picks the locale; needs the store to keep the country)', () => {
  it('lists orders day first on a 24-hour clock, in French, and the report names the zone', async () => {
    const { client } = await tillAt('2025-03-14T11:41:00Z', locatedIn('Europe/Paris', 'FR'));
    const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await renderOrders(client);
    await waitFor(() => expect(orderRow(order.id)?.querySelector('.order-time')?.textContent).toBe('14 mars, 12:41'));
    cleanup();
    renderWith(client, <Reports />);
    await waitFor(() => expect(screen.getByTestId('report-made').textContent).toMatch(/worked out 14 mars, 12:41 from what this terminal recorded · times in UTC\+1$/));
    expect(screen.getByRole('heading', { level: 2, name: /End-of-day report · ven\. 14 mars 2025/ })).toBeTruthy();
  });
});

describe('a location without a time zone', () => {
  it("tells times in this computer's zone and says so on the Shift screen and the report", async () => {
    const { client } = await tillAt('2025-03-14T11:41:00Z', locatedIn(null, null));
    expect(await client.call('location.get', {})).toMatchObject({ timezone: '', locale: 'en-US' });
    await client.call('shift.open', { count: [{ value: 2000, count: 5 }] });
    renderWith(client, <Shift />);
    await waitFor(() => expect(screen.getByRole('region', { name: 'Location' }).textContent).toContain("no time zone: times are this computer's"));
    cleanup();
    renderWith(client, <Reports />);
    await waitFor(() => expect(screen.getByTestId('report-made').textContent).toMatch(/times in this computer's zone: the location has none$/));
  });
});

describe('the Orders screen in Auckland: a date is a business day, from 04:00 to 04:00', () => {
  it('puts 02:00 and 03:59 in the day before, 04:00 in its own day, and keeps a day that crosses midnight together', async () => {
    // Auckland is UTC+13 in March: its midnight is 11:00 UTC the day before.
    const { client, clock } = await tillAt('2025-03-13T12:00:00Z', locatedIn('Pacific/Auckland', 'NZ'));
    const at = async (iso: string, name: string) => {
      moveTo(clock, iso);
      return client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], customer: { name, phone: '' } });
    };
    const twoAm = await at('2025-03-13T13:00:00Z', '02:00 on the 14th');
    const beforeTurn = await at('2025-03-13T14:59:00Z', '03:59 on the 14th');
    const atTurn = await at('2025-03-13T15:00:00Z', '04:00 on the 14th');
    const lateEvening = await at('2025-03-14T10:30:00Z', '23:30 on the 14th');
    const afterMidnight = await at('2025-03-14T12:00:00Z', '01:00 on the 15th');
    const nextTurn = await at('2025-03-14T15:00:00Z', '04:00 on the 15th');
    // The core counts the same days (the Z report's).
    expect([twoAm, beforeTurn, atTurn, lateEvening, afterMidnight, nextTurn].map((o) => o.businessDay)).toEqual([
      '2025-03-13',
      '2025-03-13',
      '2025-03-14',
      '2025-03-14',
      '2025-03-14',
      '2025-03-15',
    ]);

    await renderOrders(client);
    await waitFor(() => expect(orderRow(nextTurn.id)).toBeTruthy());
    const listed = () => [...document.querySelectorAll('tr[data-order-id]')].map((row) => row.getAttribute('data-order-id')).sort();
    const pick = (day: string) => {
      fireEvent.change(screen.getByLabelText('From'), { target: { value: day } });
      fireEvent.change(screen.getByLabelText('To'), { target: { value: day } });
    };

    pick('2025-03-14');
    await waitFor(() => expect(listed()).toEqual([atTurn.id, lateEvening.id, afterMidnight.id].sort()));
    pick('2025-03-13');
    await waitFor(() => expect(listed()).toEqual([twoAm.id, beforeTurn.id].sort()));
    pick('2025-03-15');
    await waitFor(() => expect(listed()).toEqual([nextTurn.id]));
  });
});
