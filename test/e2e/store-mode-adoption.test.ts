// Adopting a quiet till's orders from the sync panel, in Chromium: "Bar" (a real core in this process)
// rings up two orders the cloud never gets and stops; the browser till ("Front") heard them over
// mutual TLS. Once Bar has been quiet long enough (shortened here to 1 s), Front's panel offers to adopt
// them; the dialog asks first. Screenshots of the offer and the dialog at 1024×768 and 1366×768,
// checked by the layout audit and axe; then the adoption names both orders, and the offer is gone.
import { describe, expect, it } from 'vitest';
import { ITEMS } from '../core/fixtures';
import { openRegister } from './harness';
import { expectAccessible, tillShots } from './shots';
import { storeModeTills } from './store-mode-tills';

// Bar only serves its log (it never hears Front), and Front calls it quiet after 1 s.
const tills = storeModeTills({ barPullsFront: false, storeModeTiming: { quietBeforeAdoptionMs: 1_000 } });

describe('store mode: adopting a quiet till’s orders', () => {
  it('offers Bar’s orders once Bar is quiet, asks first, and takes them over; tidy at both sizes', async () => {
    const { bar: till, browser, terminal, stopBar } = tills();
    const placed = [
      await till.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '4', guests: 2 } }),
      await till.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: { type: 'takeout', table: null, guests: null }, customer: { name: 'Ada', phone: '' } }),
    ];
    const { page } = await openRegister(browser, terminal);
    await page.getByTestId('sync-indicator').click();
    const peer = page.getByTestId('store-peer').filter({ hasText: 'Bar' });
    await peer.filter({ hasText: '2 orders not in the cloud yet' }).waitFor({ timeout: 15_000 });

    // Bar stops (its disk is fine, its hardware gone): after the quiet time, the offer appears.
    await stopBar();
    const adopt = peer.getByRole('button', { name: 'Adopt Bar’s 2 orders' });
    await adopt.waitFor({ timeout: 15_000 });
    await peer.getByText(/^Nothing answers at 127\.0\.0\.1:\d+: the till is off, or its app is closed\.$/).waitFor({ timeout: 15_000 });
    await tillShots(() => page, 'store-mode')('adopt-offer');
    await expectAccessible(page, 'the sync panel offering to adopt');

    await adopt.click();
    const dialog = page.getByRole('dialog', { name: 'Adopt Bar’s orders?' });
    await dialog.waitFor();
    await tillShots(() => page, 'store-mode')('adopt-dialog');
    await expectAccessible(page, 'the adopt dialog');
    await dialog.getByRole('button', { name: 'Adopt them' }).click();
    const done = peer.getByRole('status');
    await done.waitFor({ timeout: 15_000 });
    const sentence = await done.textContent();
    expect(sentence).toMatch(/^Took over 2 orders from Bar \(.+\): this till sends them to the cloud/);
    for (const order of placed) expect(sentence).toContain(order.label);
    // Nothing left to take: the offer is gone.
    expect(await adopt.count()).toBe(0);
    await page.context().close();
  });
});
