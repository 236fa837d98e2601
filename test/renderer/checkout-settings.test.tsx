// @vitest-environment happy-dom
// The Checkout section of Settings against a real core: every bad value is refused next to its
// field and nothing is saved; good values (till letter, tips, cash tips, approval limits, tax
// rates) are saved by a manager, who is asked for no PIN (a cashier does not see the section at
// all); a note says when the location's tax rules from the cloud are in force.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Settings } from '../../renderer/screens/Settings';
import { LOCATION } from '../core/fixtures';
import { CHECKOUT_CONFIG, fieldError } from './checkout-fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore } = coreForEachTest();

const section = async () => within(await screen.findByRole('form', { name: 'Checkout' }));

describe('checkout settings', () => {
  it('refuses each bad value next to its field and saves nothing', async () => {
    const client = await withCore();
    const before = await client.call('settings.get', {});
    renderWith(client, <Settings currency="usd" />);
    const form = await section();
    const cases = [
      ['Till letter (in order numbers, e.g. A17)', '7', 'A till letter is one capital letter, A to Z.'],
      ['Tip 1', '150', 'Enter a percentage from 0% to 100%.'],
      ['Above this percent off', 'ten', 'Type the percentage with digits and one decimal point, e.g. 12.5.'],
      ['Above this amount off', '-5', 'An amount cannot be negative.'],
    ] as const;
    for (const [label, typed] of cases) fireEvent.change(form.getByLabelText(label), { target: { value: typed } });
    fireEvent.click(form.getByRole('button', { name: 'Add a tax rate' }));
    fireEvent.change(form.getByLabelText('Rate 1 Percent'), { target: { value: '8.87501' } });
    fireEvent.click(form.getByRole('button', { name: 'Save checkout settings' }));
    for (const [label, typed, message] of cases) {
      const field = form.getByLabelText(label) as HTMLInputElement;
      await waitFor(() => expect(fieldError(field), label).toBe(message));
      expect(field.value).toBe(typed);
    }
    expect(fieldError(form.getByLabelText('Rate 1 Percent'))).toBe('Use at most 4 digits after the decimal point.');
    expect(fieldError(form.getByLabelText('Rate 1 Name'))).toBe('Give the rate the name the receipt shows (1 to 60 characters), e.g. Sales tax.');
    expect(document.activeElement).toBe(form.getByLabelText('Till letter (in order numbers, e.g. A17)'));
    expect(form.getByText('Nothing was saved: fix the fields marked above.')).toBeTruthy();
    const after = await client.call('settings.get', {});
    expect({ checkout: after.checkout, taxRules: after.taxRules }).toEqual({ checkout: before.checkout, taxRules: before.taxRules });
  });

  it('saves till letter, tips, cash tips, the tip basis, limits and tax rates: a manager is asked no PIN', async () => {
    const client = await withCore(CHECKOUT_CONFIG, undefined, { signIn: 'manager' });
    renderWith(client, <Settings currency="usd" />);
    const form = await section();
    fireEvent.change(form.getByLabelText('Till letter (in order numbers, e.g. A17)'), { target: { value: 'b' } });
    expect((form.getByLabelText('Till letter (in order numbers, e.g. A17)') as HTMLInputElement).value).toBe('B');
    fireEvent.change(form.getByLabelText('Tip 1'), { target: { value: '10' } });
    fireEvent.change(form.getByLabelText('Tip 2'), { target: { value: '12.5' } });
    fireEvent.change(form.getByLabelText('Tip 3'), { target: { value: '' } }); // was 20%: two tips from now on
    fireEvent.click(form.getByLabelText('Cash payments can take a tip too'));
    fireEvent.click(form.getByLabelText('The amount before tax'));
    fireEvent.change(form.getByLabelText('Above this percent off'), { target: { value: '15' } });
    fireEvent.change(form.getByLabelText('Above this amount off'), { target: { value: '5' } });
    fireEvent.click(form.getByLabelText('Tax included'));
    fireEvent.click(form.getByLabelText('Per order'));
    fireEvent.click(form.getByRole('button', { name: 'Remove rate 2' }));
    fireEvent.change(form.getByLabelText('Rate 1 Name'), { target: { value: 'VAT' } });
    fireEvent.change(form.getByLabelText('Rate 1 Percent'), { target: { value: '20' } });
    expect(form.queryByLabelText(/PIN/)).toBeNull();
    fireEvent.click(form.getByRole('button', { name: 'Save checkout settings' }));
    await waitFor(() => expect(screen.getByText('Checkout settings saved.')).toBeTruthy());
    const saved = await client.call('settings.get', {});
    expect(saved.checkout).toEqual({ tillLetter: 'B', tipPercents: [1000, 1250], cashTips: true, tipBasis: 'pre_tax', discountApproval: { percentBps: 1500, amount: 500 }, autoGratuity: null });
    expect(saved.taxRules).toEqual({ taxIncluded: true, rounding: 'per_order', rates: [{ taxClass: 'standard', name: 'VAT', ratePpm: 200_000 }] });
    expect((await client.call('orders.place', { lines: [{ menuItemId: 'mi_fries', quantity: 1 }] })).label).toBe('B1');
  });

  it('sets the automatic gratuity: each bad value refused next to its field and nothing saved, then saved, then turned off', async () => {
    const client = await withCore(CHECKOUT_CONFIG, undefined, { signIn: 'manager' });
    renderWith(client, <Settings currency="usd" />);
    let form = await section();
    fireEvent.click(form.getByLabelText(/Add a gratuity to the check of a large party/));
    const cases = [
      ['For parties of this many guests or more', '1', 'Say from how many guests a party gets it: a whole number from 2 to 99.'],
      ['Percent of the check before tax', '35', 'Enter a percentage from 0.01% to 30%.'],
      ['Name on the check', '  ', 'Give the name the check shows (1 to 24 characters), e.g. Gratuity.'],
    ] as const;
    for (const [label, typed] of cases) fireEvent.change(form.getByLabelText(label), { target: { value: typed } });
    fireEvent.click(form.getByRole('button', { name: 'Save checkout settings' }));
    for (const [label, , message] of cases) await waitFor(() => expect(fieldError(form.getByLabelText(label) as HTMLInputElement), label).toBe(message));
    expect((await client.call('settings.get', {})).checkout.autoGratuity).toBeNull();

    fireEvent.change(form.getByLabelText('For parties of this many guests or more'), { target: { value: '8' } });
    fireEvent.change(form.getByLabelText('Percent of the check before tax'), { target: { value: '18' } });
    fireEvent.change(form.getByLabelText('Name on the check'), { target: { value: 'Service 18%' } });
    fireEvent.change(form.getByLabelText('Tax on the gratuity'), { target: { value: 'food' } });
    fireEvent.click(form.getByRole('button', { name: 'Save checkout settings' }));
    await waitFor(() => expect(screen.getByText('Checkout settings saved.')).toBeTruthy());
    expect((await client.call('settings.get', {})).checkout.autoGratuity).toEqual({ name: 'Service 18%', percentBps: 1800, minGuests: 8, taxClass: 'food' });

    form = await section();
    fireEvent.click(form.getByLabelText(/Add a gratuity to the check of a large party/));
    fireEvent.click(form.getByRole('button', { name: 'Save checkout settings' }));
    await waitFor(async () => expect((await client.call('settings.get', {})).checkout.autoGratuity).toBeNull());
  });

  it("says when the location's tax rules from the cloud are in force", async () => {
    const client = await withCore({}, (store) =>
      store.server.applyServerRecord('location', {
        id: LOCATION,
        name: 'Test Kitchen',
        currency: 'usd',
        address: '1 Main St',
        timezone: 'UTC',
        tax: { rates: [{ tax_class: 'standard', name: 'State tax', rate_ppm: 60_000 }], prices_include_tax: null, rounding: null },
      }),
    );
    expect((await client.call('settings.get', {})).pricing.source).toBe('location');
    renderWith(client, <Settings currency="usd" />);
    const form = await section();
    expect(form.getByTestId('tax-source').textContent).toMatch(/location's tax rules from the cloud are in force/);
  });
});
