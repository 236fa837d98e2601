// The Orders screen of a till in store mode, in Chromium: another till of the store ("Bar", a real
// core in this process with its own SQLite file) serves its log over mutual TLS on 127.0.0.1, and the
// browser till lists Bar's open orders under "At other tills"; screenshots at both till sizes,
// checked by the layout audit. Then "Add items" on a row: the menu picker with a plain item and one
// whose size is asked by the register's chooser, at both sizes, tidy and axe-clean (cancelled: nothing
// is sent, Bar's menu here is not the demo's); the row's "More…" menu, opened, moved through and
// chosen from the keyboard (Escape and a press outside close it), shot and axe-clean; from it the
// order's discount dialog likewise, and taking payment here toward Bar's order (cash shows the change;
// a card is sent and recorded on Bar), and its bill split from here, then offered part by part.
import { describe, expect, it } from 'vitest';
import { ITEMS } from '../core/fixtures';
import { goToScreen, openRegister } from './harness';
import { expectAccessible, tillShots } from './shots';
import { storeModeTills } from './store-mode-tills';

const tills = storeModeTills();

describe('store mode on the Orders screen', () => {
  it('shows the other till’s open orders under "At other tills", tidy at 1024×768 and 1366×768', async () => {
    const { bar, browser, terminal } = tills();
    const place = (table: string, quantity: number) => bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity }], service: { type: 'dine_in', table, guests: 2 } });
    await place('4', 1);
    const paid = await place('9', 2);
    await bar.call('payments.take', { orderId: paid.id, method: 'cash', amount: paid.total });
    await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }], service: { type: 'takeout', table: null, guests: null }, customer: { name: 'Ada', phone: '' } });
    const { page } = await openRegister(browser, terminal);
    await goToScreen(page, 'Orders');
    const rows = page.locator('tbody[data-other-order-id]');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
    // The demo's own history is long: open orders only, and the section scrolled into view for the shots.
    await page.getByRole('combobox', { name: 'Status' }).selectOption('open');
    await page.getByRole('region', { name: 'At other tills' }).scrollIntoViewIfNeeded();
    await tillShots(() => page, 'store-mode')('orders-at-other-tills');

    // Add items to Bar's first order: a lager from the search, an iced flat white whose size is asked for.
    await rows.first().getByRole('button', { name: 'Add items' }).click();
    const dialog = page.getByRole('dialog', { name: /^Add items to .* at Bar$/ });
    const search = dialog.getByRole('searchbox', { name: 'Search the menu' });
    await expect.poll(() => search.evaluate((input) => input === document.activeElement)).toBe(true);
    await search.fill('lager');
    await search.press('Enter');
    await search.fill('iced flat');
    await search.press('Enter');
    const chooser = page.getByRole('dialog', { name: 'Iced flat white' });
    await chooser.getByRole('radio', { name: /^Large/ }).check();
    await tillShots(() => page, 'store-mode')('add-items-choice');
    await chooser.getByTestId('modifier-done').click();
    await dialog.getByRole('button', { name: 'One more Lager' }).click();
    await expect.poll(() => dialog.getByLabel('Lager quantity').textContent()).toBe('2');
    await dialog.getByRole('button', { name: 'Coffee & Tea' }).click();
    await tillShots(() => page, 'store-mode')('add-items');
    await expectAccessible(page, 'the add-items dialog');
    // Escape in a search with something typed clears it, and only it: the dialog and what it holds stay (a second Escape closes it).
    await search.fill('no such dish');
    await search.press('Escape');
    expect(await search.inputValue()).toBe('');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expect.poll(() => dialog.getByLabel('Lager quantity').textContent()).toBe('2');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // The row's rarer actions are in its "More…" menu, opened and chosen from the keyboard: the order's
    // own discount, from the register's dialog (closed: nothing is sent).
    const more = rows.first().getByRole('button', { name: /^More actions for / });
    await more.focus();
    await more.press('Enter');
    const menu = rows.first().getByRole('menu');
    await expect.poll(() => menu.getByRole('menuitem').allTextContents()).toEqual(['Details', 'Discount', 'Mark fulfilled', 'Cancel order']);
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Details');
    await tillShots(() => page, 'store-mode')('orders-more-menu');
    await expectAccessible(page, 'a row’s More… menu');
    // Escape closes it, back on the button; opened again, ArrowDown goes to Discount, Enter chooses it.
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await more.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Details');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Discount');
    await page.keyboard.press('Enter');
    const discount = page.getByRole('dialog', { name: /^Discount .* at Bar$/ });
    await discount.getByLabel('Percent off').fill('10');
    await discount.getByRole('button', { name: 'Loyalty' }).click();
    await tillShots(() => page, 'store-mode')('discount');
    await expectAccessible(page, 'the discount dialog on another till’s order');
    await discount.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // A press outside an open menu closes it.
    await more.click();
    await menu.waitFor();
    await page.getByRole('heading', { name: 'At other tills' }).click();
    await expect.poll(() => menu.count()).toBe(0);

    // Payment here toward Bar's order: cash handed over shows the change; then a card, sent and recorded on Bar.
    const firstId = (await rows.first().getAttribute('data-other-order-id'))!;
    await rows.first().getByRole('button', { name: 'Take payment' }).click();
    const payment = page.getByRole('dialog', { name: /^Take payment for .* at Bar · .* due$/ });
    await payment.getByText('Cash', { exact: true }).click();
    await payment.getByLabel('Cash handed over').fill('20.00');
    await tillShots(() => page, 'store-mode')('take-payment');
    await expectAccessible(page, 'taking payment on another till’s order');
    await payment.getByText('Card', { exact: true }).click();
    await payment.getByTestId('confirm-other-payment').click();
    const sent = page.getByRole('dialog', { name: /^Payment taken for / });
    await expect.poll(() => sent.getByTestId('other-payment-done').textContent()).toMatch(/by card\. Sent to Bar, which records it on /);
    await tillShots(() => page, 'store-mode')('payment-sent');
    await sent.getByRole('button', { name: 'Done' }).click();
    await expect.poll(async () => (await bar.call('orders.get', { id: firstId })).paidAmount > 0, { timeout: 10_000 }).toBe(true);

    // The takeout's bill split evenly from here, made on Bar; the payment dialog then offers its parts.
    const takeout = rows.nth(2);
    const takeoutId = (await takeout.getAttribute('data-other-order-id'))!;
    await takeout.getByRole('button', { name: 'Take payment' }).click();
    await page.getByRole('dialog', { name: /^Take payment for / }).getByRole('button', { name: 'Split the bill…' }).click();
    const split = page.getByRole('dialog', { name: /^Split .* at Bar$/ });
    await split.getByText('Split evenly', { exact: true }).click();
    await split.getByRole('button', { name: 'More ways' }).click();
    await tillShots(() => page, 'store-mode')('split');
    await expectAccessible(page, 'splitting another till’s order');
    await split.getByRole('button', { name: 'Send the split to Bar' }).click();
    await expect.poll(async () => (await bar.call('orders.get', { id: takeoutId })).split?.plan ?? null, { timeout: 10_000 }).toEqual({ kind: 'even', parts: 3 });
    const parts = page.getByRole('dialog', { name: /^Take payment for / }).getByTestId('split-part');
    await expect.poll(() => parts.count(), { timeout: 10_000 }).toBe(3);
    await tillShots(() => page, 'store-mode')('take-payment-split');
    await expectAccessible(page, 'paying a part of another till’s order');
    await page.getByRole('dialog', { name: /^Take payment for / }).getByRole('button', { name: 'Not now' }).click();
    await page.context().close();
  });
});
