// @vitest-environment happy-dom
// The Shift screen against a real core: the drawer opened with a float counted by note and coin,
// a cash sale through the bridge, a safe drop and a paid-out (a cashier's needs a manager's PIN),
// the close counted blind (nothing says what the drawer should hold until the count is in) and its
// over/short; the count form refuses what is not a whole number of notes or coins, next to the
// field, and never fixes it.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { money } from '../../renderer/lib/format';
import { Shift } from '../../renderer/screens/Shift';
import { ITEMS, STAFF } from '../core/fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore } = coreForEachTest();

const usd = (amount: number) => money(amount, 'usd');
/** The text of the FieldError a field points at (aria-describedby), or null. */
const fieldError = (field: HTMLElement) => (field.getAttribute('aria-describedby') ? (document.getElementById(field.getAttribute('aria-describedby')!)?.textContent ?? null) : null);
const countField = (scope: ReturnType<typeof within>, label: string) => scope.getByLabelText(`Count of ${label}`) as HTMLInputElement;
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });
const figure = (testId: string) => screen.getByTestId(testId).textContent;

/** A burger paid in cash through the bridge (as the register does): what it came to. */
async function cashSale(client: BridgeClient): Promise<number> {
  const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
  await client.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total + 500 });
  return order.total;
}

describe('the drawer through a shift', () => {
  it('opens with a float counted by note and coin, takes a sale, a drop and a paid-out, and closes blind with the over/short', async () => {
    const client = await withCore({}, undefined, { signIn: 'cashier', openShift: false });
    renderWith(client, <Shift />);

    // ---- open: $20 × 5 + $1 × 10 + 25¢ × 8 = $112.00 ----
    const open = within(await screen.findByRole('form', { name: 'Open the drawer' }));
    expect(open.getByText(/the till's drawer, shared by every cashier/)).toBeTruthy();
    type(countField(open, '$20.00'), '5');
    type(countField(open, '$1.00'), '10');
    type(countField(open, '$0.25'), '8');
    const row = (value: number) => document.querySelector(`tr[data-denomination="${value}"]`) as HTMLElement;
    expect(within(row(2000)).getByTestId('count-subtotal').textContent).toBe('$100.00');
    expect(within(row(25)).getByTestId('count-subtotal').textContent).toBe('$2.00');
    expect(open.getByTestId('count-total').textContent).toBe('$112.00');
    expect(open.getByTestId('float-total').textContent).toBe('$112.00');
    fireEvent.click(open.getByRole('button', { name: 'Open the shift' }));

    const shift = within(await screen.findByRole('region', { name: 'Open shift' }));
    expect(shift.getByTestId('shift-float').textContent).toBe('$112.00');
    expect(shift.getByText(new RegExp(`Opened by ${STAFF.cashier.name}`))).toBeTruthy();
    const opened = await client.call('shift.current', {});
    expect(opened).toMatchObject({ status: 'open', float: 11_200, expected: null });
    expect(opened!.floatCount).toEqual(expect.arrayContaining([{ value: 2000, count: 5 }, { value: 100, count: 10 }, { value: 25, count: 8 }]));

    // ---- a cash sale through the bridge shows up live ----
    const sale = await act(() => cashSale(client));
    // Blind: the cashier sees the payment counted, never the cash that adds up to what the drawer should hold.
    expect(sale).toBeGreaterThan(0);
    await waitFor(() => expect(figure('shift-payments')).toBe('1'));
    expect(figure('shift-cash-sales')).toBe('After the count');

    // ---- a safe drop of $50.00: anyone may ----
    fireEvent.click(shift.getByRole('button', { name: 'Drop' }));
    const drop = within(await screen.findByRole('dialog', { name: 'Safe drop' }));
    expect(drop.queryByLabelText(/PIN/)).toBeNull();
    type(drop.getByLabelText('Amount'), '50');
    fireEvent.click(drop.getByRole('button', { name: 'Safe drop' }));
    fireEvent.click(drop.getByRole('button', { name: /Record the drop/ }));
    await waitFor(() => expect(figure('shift-drops')).toBe('$50.00'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(figure('shift-notice')).toBe('Dropped $50.00 to the safe: Safe drop.');

    // ---- a paid-out of $7.50 as a cashier: a manager's PIN approves it ----
    fireEvent.click(shift.getByRole('button', { name: 'Paid-out' }));
    const paidOut = within(await screen.findByRole('dialog', { name: 'Paid-out' }));
    const amount = paidOut.getByLabelText('Amount') as HTMLInputElement;
    const pin = paidOut.getByLabelText('Manager PIN to approve') as HTMLInputElement;
    type(amount, '-7.50');
    fireEvent.click(paidOut.getByRole('button', { name: /Record the paid-out/ }));
    await waitFor(() => expect(fieldError(amount)).toBe('An amount cannot be negative.'));
    expect(fieldError(paidOut.getByLabelText('Reason (or type your own)'))).toBe('Say what the cash is for (for example: delivery).');
    expect(fieldError(pin)).toBe('The approving PIN is 4 to 8 digits.');
    expect(amount.value).toBe('-7.50');
    type(amount, '7.50');
    type(paidOut.getByLabelText('Reason (or type your own)'), 'Ice delivery');
    // Another cashier's PIN approves nothing: the core's words go next to the PIN, which is cleared.
    type(pin, STAFF.cashier2.pin);
    fireEvent.click(paidOut.getByRole('button', { name: /Record the paid-out/ }));
    await waitFor(() => expect(fieldError(pin)).toMatch(/\S/));
    expect(fieldError(pin)).not.toBe('The approving PIN is 4 to 8 digits.');
    expect(pin.value).toBe('');
    expect((await client.call('shift.current', {}))!.paidOuts).toBe(0);
    type(pin, STAFF.manager.pin);
    fireEvent.click(paidOut.getByRole('button', { name: /Record the paid-out/ }));
    await waitFor(() => expect(figure('shift-paid-outs')).toBe('$7.50'));
    expect(figure('shift-notice')).toBe('Paid out $7.50: Ice delivery.');
    const moves = screen.getAllByTestId('cash-movement').map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent));
    expect(moves).toEqual(
      expect.arrayContaining([
        ['Safe drop', '$50.00', 'Safe drop', STAFF.cashier.name],
        ['Paid-out', '$7.50', 'Ice delivery', STAFF.cashier.name],
      ]),
    );

    // ---- the close: a blind count; what is expected shows nowhere before it is in ----
    const expected = 11_200 + sale - 5_000 - 750;
    const notShown = () => {
      expect(document.body.textContent).not.toContain(usd(expected));
      expect(screen.queryByText(/^Expected/)).toBeNull();
    };
    notShown();
    fireEvent.click(shift.getByRole('button', { name: 'Close the shift' }));
    const close = within(await screen.findByRole('form', { name: 'Close the shift' }));
    notShown();
    // Short by $1.50: the twenties, and the rest in cents.
    const counted = expected - 150;
    const twenties = Math.floor(counted / 2000);
    type(countField(close, '$20.00'), String(twenties));
    type(countField(close, '$0.01'), String(counted - twenties * 2000));
    expect(close.getByTestId('closing-total').textContent).toBe(usd(counted));
    type(close.getByLabelText('Note (optional)'), 'Counted twice');
    // A cashier closes with a manager's approval.
    const closePin = close.getByLabelText('Manager PIN to approve') as HTMLInputElement;
    fireEvent.click(close.getByRole('button', { name: 'Close the shift' }));
    await waitFor(() => expect(fieldError(closePin)).toBe('Closing a shift needs a manager: they enter their PIN (4 to 8 digits).'));
    expect(await client.call('shift.current', {})).not.toBeNull();
    type(closePin, STAFF.manager.pin);
    fireEvent.click(close.getByRole('button', { name: 'Close the shift' }));

    const result = within(await screen.findByRole('region', { name: 'Shift closed' }));
    expect(result.getByTestId('over-short').textContent).toBe('Short $1.50');
    expect(result.getByTestId('closed-expected').textContent).toBe(usd(expected));
    expect(result.getByTestId('closed-counted').textContent).toBe(usd(counted));
    expect(result.getByText(/Counted twice/)).toBeTruthy();
    // A cashier has no end-of-day report.
    expect(result.queryByRole('button', { name: 'View the end-of-day report' })).toBeNull();
    expect(await client.call('shift.current', {})).toBeNull();
    // The next shift can be opened at once.
    expect(await screen.findByRole('form', { name: 'Open the drawer' })).toBeTruthy();
    fireEvent.click(result.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('region', { name: 'Shift closed' })).toBeNull();
  });

  it('an owner closes without a PIN: "Over $2.00", and the button to the Z report of the shift\'s day', async () => {
    const client = await withCore({}, undefined, { openShift: false });
    await client.call('shift.open', { count: [{ value: 2000, count: 2 }] });
    const onOpenReports = vi.fn();
    renderWith(client, <Shift onOpenReports={onOpenReports} />);
    const shift = within(await screen.findByRole('region', { name: 'Open shift' }));
    fireEvent.click(shift.getByRole('button', { name: 'Close the shift' }));
    const close = within(await screen.findByRole('form', { name: 'Close the shift' }));
    expect(close.queryByLabelText(/PIN/)).toBeNull();
    // Enter walks down the rows; the last one goes on to the note.
    const twenty = countField(close, '$20.00');
    twenty.focus();
    type(twenty, '2');
    fireEvent.keyDown(twenty, { key: 'Enter' });
    expect(document.activeElement).toBe(countField(close, '$10.00'));
    fireEvent.click(close.getByRole('button', { name: 'One more $1.00' }));
    fireEvent.click(close.getByRole('button', { name: 'One more $1.00' }));
    expect(countField(close, '$1.00').value).toBe('2');
    const cent = countField(close, '$0.01');
    fireEvent.keyDown(cent, { key: 'Enter' });
    expect(document.activeElement).toBe(close.getByLabelText('Note (optional)'));
    fireEvent.click(close.getByRole('button', { name: 'Close the shift' }));

    const result = within(await screen.findByRole('region', { name: 'Shift closed' }));
    expect(result.getByTestId('over-short').textContent).toBe('Over $2.00');
    expect(result.getByTestId('closed-expected').textContent).toBe('$40.00');
    expect(result.getByTestId('closed-counted').textContent).toBe('$42.00');
    fireEvent.click(result.getByRole('button', { name: 'View the end-of-day report' }));
    const closed = (await client.call('reports.z', {})).shifts.find((s) => s.status === 'closed');
    expect(onOpenReports).toHaveBeenCalledWith(closed!.businessDay);
  });

  it('says "Balanced" when the count matches, and "Keep the shift open" leaves it open', async () => {
    const client = await withCore({}, undefined, { openShift: false });
    await client.call('shift.open', { count: [{ value: 500, count: 3 }] });
    renderWith(client, <Shift />);
    const shift = within(await screen.findByRole('region', { name: 'Open shift' }));
    fireEvent.click(shift.getByRole('button', { name: 'Close the shift' }));
    let close = within(await screen.findByRole('form', { name: 'Close the shift' }));
    fireEvent.click(close.getByRole('button', { name: 'Keep the shift open' }));
    expect(await screen.findByRole('region', { name: 'Open shift' })).toBeTruthy();
    expect(await client.call('shift.current', {})).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close the shift' }));
    close = within(await screen.findByRole('form', { name: 'Close the shift' }));
    type(countField(close, '$5.00'), '3');
    fireEvent.click(close.getByRole('button', { name: 'Close the shift' }));
    const result = within(await screen.findByRole('region', { name: 'Shift closed' }));
    expect(result.getByTestId('over-short').textContent).toBe('Balanced');
  });
});

describe('a drawer for each cashier', () => {
  it('says it is your drawer, and the shift is yours', async () => {
    const client = await withCore({ staff: { drawer: 'per-cashier' } }, undefined, { signIn: 'cashier', openShift: false });
    renderWith(client, <Shift />);
    const open = within(await screen.findByRole('form', { name: 'Open the drawer' }));
    await waitFor(() => expect(open.getByText(/No shift is open on your drawer\./)).toBeTruthy());
    type(countField(open, '$10.00'), '4');
    fireEvent.click(open.getByRole('button', { name: 'Open the shift' }));
    const shift = await screen.findByRole('region', { name: 'Open shift' });
    const view = await client.call('shift.current', {});
    expect(within(shift).getByRole('heading', { level: 2 }).textContent).toBe(`Your drawer · ${view!.drawer}`);
    expect(view!.openedBy.name).toBe(STAFF.cashier.name);
  });
});

describe('the count form', () => {
  it('refuses a negative, a fraction or letters next to the field, keeps what was typed, and opens nothing until it is fixed', async () => {
    const client = await withCore({}, undefined, { openShift: false });
    renderWith(client, <Shift />);
    const open = within(await screen.findByRole('form', { name: 'Open the drawer' }));
    const twenty = countField(open, '$20.00');
    const ten = countField(open, '$10.00');
    type(ten, '1');

    type(twenty, '-2');
    expect(fieldError(twenty)).toBe('A count cannot be negative.');
    expect(twenty.getAttribute('aria-invalid')).toBe('true');
    type(twenty, '2.5');
    expect(fieldError(twenty)).toBe('Count whole notes and coins: type a whole number, e.g. 3.');
    type(twenty, 'two');
    expect(fieldError(twenty)).toBe('Type the number of notes or coins with digits only, e.g. 3.');
    // Never "fixed": the text stays, the row counts nothing, the total says only what is sure.
    expect(twenty.value).toBe('two');
    const row = twenty.closest('tr') as HTMLElement;
    expect(within(row).getByTestId('count-subtotal').textContent).toBe('—');
    expect(open.getByTestId('count-total').textContent).toBe('$10.00');
    expect(open.getByTestId('count-refused').textContent).toMatch(/^One row is not a whole number of notes or coins/);
    // The + and − buttons do not guess either.
    expect((within(row).getByRole('button', { name: 'One more $20.00' }) as HTMLButtonElement).disabled).toBe(true);

    ten.focus();
    fireEvent.click(open.getByRole('button', { name: 'Open the shift' }));
    await waitFor(() => expect(document.activeElement).toBe(twenty));
    expect(await client.call('shift.current', {})).toBeNull();

    type(twenty, '2');
    expect(fieldError(twenty)).toBeNull();
    expect(twenty.hasAttribute('aria-invalid')).toBe(false);
    expect(open.getByTestId('count-total').textContent).toBe('$50.00');
    expect(open.queryByTestId('count-refused')).toBeNull();
    fireEvent.click(open.getByRole('button', { name: 'Open the shift' }));
    await screen.findByRole('region', { name: 'Open shift' });
    expect((await client.call('shift.current', {}))?.float).toBe(5000);
  });

  it('an empty count opens with no float, said on the button', async () => {
    const client = await withCore({}, undefined, { openShift: false });
    renderWith(client, <Shift />);
    const open = within(await screen.findByRole('form', { name: 'Open the drawer' }));
    fireEvent.click(open.getByRole('button', { name: 'Open with no float' }));
    const shift = within(await screen.findByRole('region', { name: 'Open shift' }));
    expect(shift.getByTestId('shift-float').textContent).toBe('$0.00');
  });
});
