// @vitest-environment happy-dom
// The business day on the days the clocks change in Los Angeles, against a real core on a clock the
// test holds: an order at 03:30 local belongs to the day before, one at 04:30 to that day (the day
// turns at 04:00 local, however many hours the night had), and the Orders screen's date filter
// shows exactly the orders whose businessDay is the day picked.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clientLocationSchema } from '../../api/client-records';
import { ManualClock } from '../../common/clock';
import { createBridgeClient } from '../../renderer/lib/bridge-client';
import { Orders } from '../../renderer/screens/Orders';
import type { Store } from '../../store/index';
import { locationRecord } from '../../sync/server-records';
import { ITEMS, LOCATION, startTestCore, type TestCore } from '../core/fixtures';
import { renderWith } from './with-core';

let t: TestCore | undefined;
afterEach(async () => {
  cleanup();
  await t?.core.shutdown();
  t = undefined;
});

const inLosAngeles = (store: Store) =>
  store.server.applyServerRecord(
    'location',
    locationRecord(clientLocationSchema.parse({ id: LOCATION, name: 'Test Kitchen', currency: 'usd', address: { line1: '1 Main St', country: 'US' }, timezone: 'America/Los_Angeles' })),
  );

const CLOCK_CHANGES = [
  // 02:00 PST becomes 03:00 PDT: the night has 3 hours between midnight and 04:00.
  { name: 'spring forward', day: '2026-03-08', dayBefore: '2026-03-07', at0330: '2026-03-08T10:30:00Z', at0430: '2026-03-08T11:30:00Z' },
  // 02:00 PDT becomes 01:00 PST: the night has 5 hours between midnight and 04:00.
  { name: 'fall back', day: '2026-11-01', dayBefore: '2026-10-31', at0330: '2026-11-01T11:30:00Z', at0430: '2026-11-01T12:30:00Z' },
];

const shownOrderIds = () => [...document.querySelectorAll('tr[data-order-id]')].map((row) => row.getAttribute('data-order-id')).sort();

describe.each(CLOCK_CHANGES)('the business day on the $name day in Los Angeles', ({ day, dayBefore, at0330, at0430 }) => {
  it('puts 03:30 on the day before and 04:30 on the day, and the date filter shows exactly the orders of the day picked', async () => {
    const clock = new ManualClock(Date.parse(at0330));
    t = await startTestCore({ staff: { autoLockMinutes: 0 } }, { clock }, inLosAngeles, { signIn: 'owner', openShift: false });
    const core = t.core;
    const client = createBridgeClient({ invoke: (request) => core.invoke(request), onEvent: (listener) => core.subscribe(listener) });
    const early = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    clock.advance(Date.parse(at0430) - clock.now());
    const late = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    expect({ early: early.businessDay, late: late.businessDay }).toEqual({ early: dayBefore, late: day });

    const { checkout } = await client.call('menu.snapshot', {});
    renderWith(client, <Orders onEdit={() => undefined} checkout={checkout} />);
    for (const picked of [dayBefore, day]) {
      fireEvent.change(screen.getByLabelText('From'), { target: { value: picked } });
      fireEvent.change(screen.getByLabelText('To'), { target: { value: picked } });
      const ofTheDay = [early, late].filter((order) => order.businessDay === picked).map((order) => order.id);
      await waitFor(() => expect(shownOrderIds(), picked).toEqual(ofTheDay));
    }
  });
});
