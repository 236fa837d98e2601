// Printing through the bridge: a sale prints its kitchen tickets (each printer only its lines)
// and its receipt on real TCP printers (test/printing/fake-printer.ts), a cash payment kicks the
// drawer, a change prints an ADD ticket, a cancel a VOID, a printer that is down keeps its jobs
// and the cashier is told, and a reprint prints a copy. No job prints twice.
import { afterEach, describe, expect, it } from 'vitest';
import { FakePrinter } from '../printing/fake-printer';
import { ITEMS, MODIFIERS, STAFF, startTestCore, type TestCore, type TestSession } from './fixtures';

let t: TestCore | undefined;
const printers: FakePrinter[] = [];
afterEach(async () => {
  await t?.core.shutdown();
  t = undefined;
  for (const printer of printers.splice(0)) await printer.stop();
});

async function printer(): Promise<FakePrinter> {
  const started = await FakePrinter.start();
  printers.push(started);
  return started;
}

/**
 * Receipt printer, a kitchen printer for mains and a bar printer for drinks (fixtures: cat_mains,
 * cat_drinks); `session` says who is signed in (the owner, with the drawer open, by default).
 */
async function startWithPrinters(session: TestSession = {}) {
  const [receipt, kitchen, bar] = [await printer(), await printer(), await printer()];
  t = await startTestCore(
    {
      printing: { receiptPrinter: receipt.url, kitchenPrinters: [`kitchen=${kitchen.url}`, `bar=${bar.url}`], printRouting: 'cat_mains=kitchen,cat_drinks=bar' },
      tax: { rates: 'standard:Sales tax:8.875' },
    },
    {},
    undefined,
    session,
  );
  return { receipt, kitchen, bar, t };
}

describe('printing a sale', () => {
  it('sends each printer only its lines, prints the receipt with items, total and cut, and kicks the drawer on cash', async () => {
    const { receipt, kitchen, bar, t } = await startWithPrinters();
    const order = await t.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 2, modifierIds: [MODIFIERS.cheese], note: 'no onions' },
        { menuItemId: ITEMS.latte, quantity: 1, modifierIds: [MODIFIERS.oat] },
      ],
      service: { type: 'dine_in', table: '9', guests: 2 },
    });
    await kitchen.waitFor(() => kitchen.jobs().length === 1, 'the kitchen ticket');
    await bar.waitFor(() => bar.jobs().length === 1, 'the bar ticket');
    expect(kitchen.text()).toContain('Burger');
    expect(kitchen.text()).toContain('Extra cheese');
    expect(kitchen.text()).toContain('no onions');
    expect(kitchen.text()).toContain(order.number!);
    expect(kitchen.text()).not.toContain('latte');
    expect(bar.text()).toContain('latte');
    expect(bar.text()).not.toContain('Burger');

    const paid = await t.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: 5000 });
    await receipt.waitFor(() => receipt.cuts() >= 1 && receipt.drawerKicks().length === 1, 'the receipt and the drawer');
    const text = receipt.text();
    expect(text).toContain('Burger');
    expect(text).toContain(order.number!);
    expect(text).toContain('$' + (order.total / 100).toFixed(2));
    expect(text).toContain('Sales tax');
    expect(text).toContain('$' + (paid.change / 100).toFixed(2)); // the change given
    expect(text).toContain('NOT YET CONFIRMED'); // no cloud here: never a made-up server id
    expect(receipt.drawerKicks()).toHaveLength(1);

    // A change prints an ADD ticket with only what was added; a cancel prints VOID.
    const second = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await kitchen.waitFor(() => kitchen.jobs().length === 2, 'the second ticket');
    await t.call('orders.update', { id: second.id, lines: [{ menuItemId: ITEMS.fries, quantity: 1 }, { menuItemId: ITEMS.soup, quantity: 1 }] });
    await kitchen.waitFor(() => kitchen.jobs().length === 3, 'the ADD ticket');
    const add = kitchen.decodedJobs()[2]!.text;
    expect(add).toContain('ADD');
    expect(add).toContain('Soup of the day');
    expect(add).not.toContain('Fries');
    await t.call('orders.cancel', { reason: 'Rung up by mistake', id: second.id });
    await kitchen.waitFor(() => kitchen.jobs().length === 4, 'the VOID ticket');
    expect(kitchen.decodedJobs()[3]!.text).toContain('VOID');

    // Nothing more arrives: every job printed once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(kitchen.jobs()).toHaveLength(4);
    expect(bar.jobs()).toHaveLength(1);
    expect((await t.call('printing.status', {})).printers.every((p) => p.state === 'ready' && p.pending === 0)).toBe(true);
  });

  it('keeps the jobs of a printer that is down, tells the cashier, and prints them once when it is back', async () => {
    const { receipt, t } = await startWithPrinters();
    await receipt.setMode('refuse');
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await t.call('payments.take', { orderId: order.id, method: 'card', amount: order.total });
    let status = await t.call('printing.status', {});
    for (let i = 0; i < 100 && status.printers.find((p) => p.name === 'receipt')?.state !== 'offline'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await t.call('printing.status', {});
    }
    const down = status.printers.find((p) => p.name === 'receipt')!;
    expect(down).toMatchObject({ state: 'offline', pending: 1 });
    expect(down.message).toMatch(/does not answer/);
    await receipt.setMode('up');
    await receipt.waitFor(() => receipt.cuts() === 1, 'the receipt after the printer is back', 15_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receipt.count(order.number!)).toBeGreaterThanOrEqual(1);
    expect(receipt.cuts()).toBe(1);
  });

  it('reprints a copy on request, shows a preview of the same receipt, and opens the drawer for a manager only', async () => {
    const { receipt, t } = await startWithPrinters({ signIn: 'cashier' });
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.soup, quantity: 1 }] });
    await t.call('payments.take', { orderId: order.id, method: 'card', amount: order.total });
    await receipt.waitFor(() => receipt.cuts() === 1, 'the receipt');
    await t.call('printing.reprint', { orderId: order.id });
    await receipt.waitFor(() => receipt.cuts() === 2, 'the copy');
    expect(receipt.decodedJobs().at(-1)!.text).toContain('COPY');
    const preview = await t.call('printing.preview', { orderId: order.id });
    expect(preview.svg).toContain('<svg');
    // receiptline draws each character in place: the text is what is left without the markup.
    expect(preview.svg.replace(/<[^>]+>/g, '').replace(/&#xa0;/g, ' ')).toContain('Soup of the day');
    expect(await t.raw('printing.openDrawer', { reason: 'change for the float' })).toMatchObject({ ok: false, error: { code: 'needs_manager' } });
    expect(await t.raw('printing.openDrawer', { reason: 'change for the float', managerPin: STAFF.cashier2.pin })).toMatchObject({ ok: false, error: { code: 'needs_manager' } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receipt.drawerKicks()).toHaveLength(0); // refused: the drawer stayed shut
    await t.call('printing.openDrawer', { reason: 'change for the float', managerPin: STAFF.manager.pin });
    await receipt.waitFor(() => receipt.drawerKicks().length === 1, 'the drawer');
  });

  it('prints the receipt on request as the original when receipts do not print by themselves, then copies; the setting is a manager’s', async () => {
    const { receipt, t } = await startWithPrinters({ signIn: 'cashier' });
    expect(await t.raw('settings.update', { autoReceipt: false })).toMatchObject({ ok: false, error: { code: 'needs_manager' } });
    expect((await t.call('settings.get', {})).autoReceipt).toBe(true);
    await t.call('settings.update', { autoReceipt: false, managerPin: STAFF.manager.pin });
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await t.call('payments.take', { orderId: order.id, method: 'card', amount: order.total });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receipt.cuts()).toBe(0); // on request only
    await t.call('printing.reprint', { orderId: order.id });
    await receipt.waitFor(() => receipt.cuts() === 1, 'the receipt on request');
    expect(receipt.decodedJobs()[0]!.text).not.toContain('COPY');
    await t.call('printing.reprint', { orderId: order.id });
    await receipt.waitFor(() => receipt.cuts() === 2, 'a copy');
    expect(receipt.decodedJobs()[1]!.text).toContain('COPY');
  });
});
