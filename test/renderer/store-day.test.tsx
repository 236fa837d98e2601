// @vitest-environment happy-dom
// The Z report's Store view (renderer/store-mode/StoreDay.tsx) against a real core in store mode: the
// Bar till's log applied to its replicas as its feed would, the day closed since Bar was last heard.
// The view lists this till and Bar with the store's totals, and says in a sentence that Bar's figures
// may be incomplete; with store mode off there is no Store view at all.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { createBridgeClient } from '../../renderer/lib/bridge-client';
import { money } from '../../renderer/lib/format';
import { Reports } from '../../renderer/screens/Reports';
import { PER_TILL_ONLY } from '../../main/core/store-mode/store-z';
import { ITEMS, startTestCore, type TestCore } from '../core/fixtures';
import { line, RegisterLog, SECRET, T0 } from '../kitchen/fixtures';
import { freePort } from '../store-mode/fixtures/ports';
import { renderWith } from './with-core';

const DAY = '2027-01-15';
const BAR = 'b'.repeat(64);
const usd = (amount: number) => money(amount, 'usd');
const running: TestCore[] = [];
const registers: RegisterLog[] = [];
afterEach(async () => {
  cleanup();
  for (const register of registers.splice(0)) register.store.close();
  await Promise.all(running.splice(0).map((t) => t.core.shutdown()));
});

async function startFront(storeMode: boolean): Promise<{ t: TestCore; clock: ManualClock }> {
  const clock = new ManualClock(T0);
  const port = await freePort();
  const t = await startTestCore({ staff: { autoLockMinutes: 0 }, ...(storeMode ? { storeMode: { mode: 'on', listen: `127.0.0.1:${port}`, tillName: 'Front', secret: SECRET } } : {}) }, { clock });
  running.push(t);
  return { t, clock };
}

const clientOf = (t: TestCore) => createBridgeClient({ invoke: (request) => t.core.invoke(request), onEvent: (listener) => t.core.subscribe(listener) });

describe("the Z report's Store view", () => {
  it('shows each till, the totals row, and a sentence for a till not heard from since before the day closed', async () => {
    const { t, clock } = await startFront(true);
    const own = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }] });
    await t.call('payments.take', { orderId: own.id, method: 'cash', amount: own.total });
    const bar = new RegisterLog(BAR, 'Bar', new ManualClock(T0));
    registers.push(bar);
    const sold = bar.place({ lines: [line.burger(2)] }, 'B1');
    bar.pay(sold);
    const tillId = (await t.call('storeMode.status', {})).till!.id;
    bar.feed({ ...t, clock, tillId });
    // A day later: the day has closed, and Bar has not been heard from since.
    clock.advance(24 * 3_600_000);

    renderWith(clientOf(t), <Reports initialDay={DAY} />);
    await screen.findByRole('article', { name: /^End-of-day report/ });
    fireEvent.click(screen.getByRole('button', { name: 'Store' }));
    const view = await screen.findByTestId('store-day');
    const rows = within(view)
      .getAllByTestId('store-day-till')
      .map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows.map((cells) => cells.slice(0, 2))).toEqual([
      ['Front (this till)', '1'],
      ['Bar', '1'],
    ]);
    // Front's own totals; Bar's worked out from its replicated check, net and tax with the tax rules that travel with it.
    expect(rows[0]![4]).toBe(usd(own.total));
    // (This store charges no tax: Bar's net is its total.)
    expect(rows[1]!.slice(2, 6)).toEqual([usd(sold.total), usd(0), usd(sold.total), usd(sold.total)]);
    const totals = [...within(view).getByTestId('store-day-totals').querySelectorAll('th, td')].map((cell) => cell.textContent);
    expect(totals.slice(0, 6)).toEqual(['Store', '2', usd(own.total - own.check.taxTotal + sold.total), usd(own.check.taxTotal), usd(own.total + sold.total), usd(own.total + sold.total)]);
    expect(within(view).getByTestId('store-day-incomplete').textContent).toMatch(/^Bar: last heard at \d\d:\d\d, before the day closed at \d\d:\d\d — its figures may be incomplete\.$/);
    expect(within(view).getAllByTestId('store-day-per-till').map((line) => line.textContent)).toEqual([PER_TILL_ONLY.staff]);

    // Back to this till's report.
    fireEvent.click(screen.getByRole('button', { name: 'This till' }));
    expect(screen.queryByTestId('store-day')).toBeNull();
    expect(screen.getByRole('article', { name: /^End-of-day report/ })).toBeTruthy();
  });

  it('offers no Store view with store mode off', async () => {
    const { t } = await startFront(false);
    renderWith(clientOf(t), <Reports initialDay={DAY} />);
    await screen.findByRole('article', { name: /^End-of-day report/ });
    expect(screen.queryByRole('button', { name: 'Store' })).toBeNull();
  });
});
