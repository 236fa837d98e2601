// Pairing a till into the store, in Chromium: the browser till ("Front") is in store mode with a
// secret-store entry named and nothing in it; "Bar" (a real core in this process) is in the store.
// Front's sync panel asks for the address and code Bar shows; a wrong code is said next to the field;
// the right one joins, and Front hears Bar. Then Front shows a code of its own. Screenshots of
// both screens at 1024×768 and 1366×768, checked by the layout audit and axe.
import { describe, expect, it } from 'vitest';
import { ITEMS } from '../core/fixtures';
import { freePortPair } from '../store-mode/fixtures/ports';
import { openRegister } from './harness';
import { expectAccessible, tillShots } from './shots';
import { storeModeTills } from './store-mode-tills';

// Each till's port has its pairing listener's after it; Front's secret store names the store's secret, empty until it pairs.
const tills = storeModeTills({ port: freePortPair, frontSecret: 'to-pair' });

describe('store mode: pairing a till by a code', () => {
  it('joins the store from the sync panel with the code another till shows, then shows a code of its own, tidy at both sizes', async () => {
    const { bar, browser, terminal, frontPort } = tills();
    // An order on Bar: its log has an entry, so Front's first pull answers at once (an empty log's waits).
    await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '12', guests: 2 } });
    const { page } = await openRegister(browser, terminal);
    await page.getByTestId('sync-indicator').click();
    const form = page.getByRole('form', { name: 'Join the store' });
    await form.waitFor();
    const shown = await bar.call('storeMode.pairingCode', {});

    await form.getByLabel('Address of that till').fill(shown.address);
    const wrong = String((Number(shown.code.replace(' ', '')) + 1) % 100_000_000).padStart(8, '0');
    await form.getByLabel('Code').fill(`${wrong.slice(0, 4)} ${wrong.slice(4)}`);
    await form.getByRole('button', { name: 'Join the store' }).click();
    await expect.poll(() => form.getByLabel('Code').getAttribute('aria-invalid'), { timeout: 15_000 }).toBe('true');
    await tillShots(() => page, 'store-mode')('join-wrong-code');
    await expectAccessible(page, 'the join-the-store form with a wrong code');

    await form.getByLabel('Code').fill(shown.code);
    await form.getByRole('button', { name: 'Join the store' }).click();
    await page.getByTestId('store-joined').waitFor({ timeout: 15_000 });
    // In the store now: Bar hears Front over mutual TLS, and the panel lists Bar.
    // In the store now: Front pulls Bar's log over mutual TLS, and the panel lists Bar, heard.
    await page.getByTestId('store-peer').filter({ hasText: 'Bar' }).filter({ hasText: 'last heard' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Pair a new till' }).click();
    await page.getByRole('dialog', { name: 'Pair a new till?' }).getByRole('button', { name: 'Show a code' }).click();
    const codeDialog = page.getByRole('dialog', { name: 'Pair a new till' });
    await codeDialog.getByTestId('pairing-code').waitFor();
    expect(await codeDialog.getByTestId('pairing-address').textContent()).toBe(`127.0.0.1:${frontPort + 1}`);
    await tillShots(() => page, 'store-mode')('pairing-code');
    await expectAccessible(page, 'the pairing code dialog');
    await codeDialog.getByRole('button', { name: 'Take the code back' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Pair a new till' }).count()).toBe(0);
    await page.context().close();
  });
});
