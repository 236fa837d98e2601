// The tip basis (issue 25, item 5): suggested tips on the bill are a percentage of the amount due,
// or, when the restaurant chooses so, of that amount before tax, said on the paper; a manager
// changes it in Settings; IT's bad value is refused naming the flag.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../main/config';
import { FakePrinter } from '../printing/fake-printer';
import { ITEMS, startTestCore, type TestCore } from './fixtures';

let t: TestCore | undefined;
let receipt: FakePrinter | undefined;
afterEach(async () => {
  await t?.core.shutdown();
  await receipt?.stop();
  t = undefined;
  receipt = undefined;
});

const dollars = (minor: number) => `$${(minor / 100).toFixed(2)}`;

describe('suggested tips on the bill', () => {
  it('are on the amount before tax when the restaurant chooses so, said on the bill, and on the amount due again once a manager changes it back', async () => {
    receipt = await FakePrinter.start();
    t = await startTestCore({ printing: { receiptPrinter: receipt.url }, tax: { rates: 'standard:Sales tax:10' }, checkout: { tipBasis: 'pre-tax', tipPercents: '20' } as never });
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }] });
    const beforeTax = order.check.total - order.check.taxTotal;
    expect(order.check.taxTotal).toBeGreaterThan(0);
    await t.call('printing.reprint', { orderId: order.id });
    await receipt.waitFor(() => receipt!.text().includes('Suggested tip'), 'the bill');
    expect(receipt.text()).toContain(`Suggested tip (on ${dollars(beforeTax)} before tax):`);
    expect(receipt.text()).toContain(dollars(Math.round(beforeTax * 0.2)));

    await t.call('settings.update', { checkout: { tipBasis: 'total' } });
    await t.call('printing.reprint', { orderId: order.id });
    await receipt.waitFor(() => receipt!.text().includes('Suggested tip (on the amount due):'), 'the second bill');
    expect(receipt.text()).toContain(dollars(Math.round(order.total * 0.2)));
  });

  it('refuses a basis IT mistyped, naming the flag', () => {
    expect(() => loadConfig({ argv: ['--tip-basis', 'subtotal'], env: {}, platform: 'linux', home: '/h', machineConfigFile: '/nonexistent/m.json', userConfigFile: '/nonexistent/u.json' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ argv: ['--tip-basis', 'subtotal'], env: {}, platform: 'linux', home: '/h', machineConfigFile: '/nonexistent/m.json', userConfigFile: '/nonexistent/u.json' })).toThrow(
      /command line: --tip-basis: must be total or pre-tax/,
    );
  });
});
