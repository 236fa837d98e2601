// @vitest-environment happy-dom
// Printing as the cashier and the manager see it, against a real core whose printers are real TCP
// fake printers (test/printing/fake-printer.ts): the top bar pill (absent without printers, "Printers
// ready", a printer out of paper, back) and its panel (a ticket in doubt printed again or marked
// printed, a ticket for a printer that is not set up sent elsewhere or discarded with the manager
// PIN), the receipt preview and Reprint in Orders, Open the drawer on the Shift screen, the
// "Print the receipt after each payment" setting and "Print receipt" on the last order.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandName, Order } from '../../bridge/contract';
import { PERMISSIONS } from '../../bridge/staff/roles';
import { hashManagerPin } from '../../main/config/index';
import type { Store } from '../../store/index';
import { LastOrder } from '../../renderer/components/LastOrder';
import { PrinterIndicator } from '../../renderer/components/PrinterIndicator';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { Orders } from '../../renderer/screens/Orders';
import { Settings } from '../../renderer/screens/Settings';
import { Shift } from '../../renderer/screens/Shift';
import { FakePrinter } from '../printing/fake-printer';
import { ITEMS } from '../core/fixtures';
import { coreForEachTest, renderWith } from './with-core';

// Registered before the core's teardown, so it runs after it (after-hooks run last-registered first):
// the core stops its print worker before its printers go away.
const printers: FakePrinter[] = [];
afterEach(async () => {
  for (const printer of printers.splice(0)) await printer.stop();
});
const { start: withCore } = coreForEachTest();

const PIN = '1357';

async function fakePrinter(): Promise<FakePrinter> {
  const printer = await FakePrinter.start();
  printers.push(printer);
  return printer;
}

/** A receipt printer and a kitchen printer (every line goes to the kitchen), a manager PIN; `signIn` at the till (the owner by default). */
async function withPrinters(options: { autoReceipt?: boolean; seed?: (store: Store) => void; signIn?: 'owner' | 'manager' | 'cashier' } = {}) {
  const [receipt, kitchen] = [await fakePrinter(), await fakePrinter()];
  const client = await withCore(
    {
      printing: { receiptPrinter: receipt.url, kitchenPrinters: [`kitchen=${kitchen.url}`], autoReceipt: options.autoReceipt ?? true },
      offlinePayments: { managerPinHash: hashManagerPin(PIN) },
    },
    options.seed,
    { signIn: options.signIn ?? 'owner' },
  );
  return { client, receipt, kitchen };
}

const pill = () => screen.getByTestId('printer-indicator');
const panel = () => within(screen.getByRole('dialog', { name: 'Printers' }));
const printerRow = (name: string) => document.querySelector(`[data-testid="printer"][data-printer="${name}"]`) as HTMLElement;
/** The text of the FieldError a field points at (aria-describedby), or null. */
const fieldError = (field: HTMLElement) => (field.getAttribute('aria-describedby') ? document.getElementById(field.getAttribute('aria-describedby')!)?.textContent ?? null : null);

/**
 * Waits until every printer is ready with nothing waiting, in doubt or being sent: whatever was
 * queued has printed, so what the fake printers hold now is all there will be.
 */
async function printersIdle(client: BridgeClient): Promise<void> {
  await waitFor(
    async () => {
      const { printers } = await client.call('printing.status', {});
      expect(printers.filter((p) => p.state !== 'ready' || p.pending > 0 || p.inDoubt > 0)).toEqual([]);
    },
    { timeout: 10_000 },
  );
}

/** The client, and a promise that settles once the core has answered `command` to something rendered with it. */
function answeredOnce(client: BridgeClient, command: CommandName): { client: BridgeClient; answered: Promise<void> } {
  let settle!: () => void;
  const answered = new Promise<void>((resolve) => (settle = resolve));
  const call = (async (name: CommandName, payload: never) => {
    const value = await client.call(name, payload);
    if (name === command) settle();
    return value;
  }) as BridgeClient['call'];
  return { client: { call, on: (event, listener) => client.on(event, listener), onConnection: (listener) => client.onConnection(listener) }, answered };
}

async function paidOrder(client: BridgeClient, method: 'cash' | 'card' = 'card'): Promise<Order> {
  const order = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }, { menuItemId: ITEMS.latte, quantity: 1 }] });
  return (await client.call('payments.take', { orderId: order.id, method, amount: order.total, ...(method === 'cash' ? { tendered: 5000 } : {}) })).order;
}

/** A kitchen ticket queued for the printer "bar", which this terminal does not have. */
function seedTicketForBar(store: Store): void {
  store.printQueue.enqueue([
    {
      printer: 'bar',
      kind: 'kitchen',
      payload: { orderLabel: 'Z9', tillLetter: 'A', time: { iso: new Date().toISOString(), timeZone: 'UTC' }, lines: [{ name: 'Mojito MARKER-BAR', quantity: 1 }] },
      dedupeKey: 'kitchen:seeded:1:bar',
    },
  ]);
}

describe('the printers pill', () => {
  it('is not there when no printer is set up', async () => {
    const { client, answered } = answeredOnce(await withCore(), 'printing.status');
    renderWith(client, <PrinterIndicator />);
    expect((await client.call('printing.status', {})).enabled).toBe(false);
    // The pill has had the core's answer (and React the commit after it): still nothing.
    await act(() => answered);
    expect(screen.queryByTestId('printer-indicator')).toBeNull();
  });

  it('says "Printers ready", then a printer out of paper, live, and is quiet again once the ticket printed once', async () => {
    const { client, kitchen } = await withPrinters();
    renderWith(client, <PrinterIndicator />);
    await waitFor(() => expect(pill().textContent).toBe('Printers ready'));
    expect(pill().className).toContain('printer-ok');

    kitchen.setStatus({ paperOut: true });
    const order = await act(() => client.call('orders.place', { lines: [{ menuItemId: ITEMS.soup, quantity: 1 }] }));
    await waitFor(() => expect(pill().textContent).toBe('Kitchen printer out of paper'));
    expect(pill().className).toContain('printer-warn');
    expect(pill().getAttribute('aria-label')).toBe('Printers: Kitchen printer out of paper. Open the printers.');

    fireEvent.click(pill());
    await waitFor(() => expect(within(printerRow('kitchen')).getByText('Out of paper')).toBeTruthy());
    expect(printerRow('kitchen').textContent).toContain('1 ticket waiting');
    expect(within(printerRow('kitchen')).getByTestId('printer-message').textContent).toBe('The kitchen printer is out of paper: put in a new roll. Its tickets wait.');
    expect(within(printerRow('receipt')).getByText('Ready')).toBeTruthy();
    expect(panel().getByText('None: every ticket printed or is waiting its turn.')).toBeTruthy();
    expect(kitchen.jobs()).toHaveLength(0);

    // A new roll: the ticket comes out by itself (the worker asks again within its backoff), once.
    kitchen.setStatus({});
    await waitFor(() => expect(pill().textContent).toBe('Printers ready'), { timeout: 12_000 });
    await waitFor(() => expect(printerRow('kitchen').textContent).toContain('0 tickets waiting'));
    await kitchen.waitFor(() => kitchen.count(order.number!) >= 1, 'the ticket after the paper is back');
    await printersIdle(client);
    expect(kitchen.count(order.number!)).toBe(1);
  });

  it('lists a ticket that may have printed: "Print again" prints it marked REPRINT; "It printed" clears another', async () => {
    const { client, receipt } = await withPrinters();
    await receipt.setMode('break_mid_job');
    const order = await paidOrder(client);
    renderWith(client, <PrinterIndicator />);
    // The connection broke off once bytes went out: a person decides.
    await waitFor(() => expect(pill().textContent).toMatch(/^Receipt printer( error|: check the last ticket)$/), { timeout: 8_000 });
    fireEvent.click(pill());
    const job = await waitFor(() => panel().getByTestId('print-job'));
    expect(job.getAttribute('data-job-state')).toBe('sending');
    expect(within(job).getByText(`Receipt · Order ${order.label}`)).toBeTruthy();
    expect(job.textContent).toContain('It may have printed');
    expect(within(job).getByRole('button', { name: 'It printed' })).toBeTruthy();

    await receipt.setMode('up');
    const before = receipt.jobs().length;
    fireEvent.click(within(job).getByRole('button', { name: 'Print again' }));
    await waitFor(() => expect(panel().getByTestId('printers-notice').textContent).toBe(`Receipt · Order ${order.label}: sent to the receipt printer again.`));
    expect(panel().queryByTestId('print-job')).toBeNull();
    expect(document.activeElement).toBe(panel().getByTestId('printers-notice'));
    await receipt.waitFor(() => receipt.jobs().length === before + 1 && receipt.cuts() >= 1, 'the reprint');
    expect(receipt.decodedJobs().at(-1)!.text).toContain('REPRINT');

    // Another in doubt; it did come out: nothing more prints.
    await receipt.setMode('break_mid_job');
    const second = await paidOrder(client);
    await waitFor(() => expect(panel().getByTestId('print-job').textContent).toContain(`Order ${second.label}`), { timeout: 8_000 });
    await receipt.setMode('up');
    const printed = receipt.jobs().length;
    fireEvent.click(panel().getByRole('button', { name: 'It printed' }));
    await waitFor(() => expect(panel().getByTestId('printers-notice').textContent).toBe(`Receipt · Order ${second.label}: marked as printed.`));
    expect(panel().queryByTestId('print-job')).toBeNull();
    await printersIdle(client);
    expect(receipt.jobs()).toHaveLength(printed);
  });

  it('sends a ticket for a printer that is not set up to another one, and a cashier discards one only with a manager PIN', async () => {
    const { client, kitchen } = await withPrinters({
      signIn: 'cashier',
      seed: (store) => {
        seedTicketForBar(store);
        // A receipt whose document cannot print: the worker marks it failed.
        store.printQueue.enqueue([{ printer: 'receipt', kind: 'receipt', payload: { nonsense: true }, dedupeKey: 'receipt:seeded:broken' }]);
      },
    });
    renderWith(client, <PrinterIndicator />);
    await waitFor(() => expect(pill().textContent).toMatch(/^No printer "bar" set up|Receipt printer: a ticket failed/));
    fireEvent.click(pill());
    await waitFor(() => expect(panel().getAllByTestId('print-job')).toHaveLength(2));
    expect(printerRow('bar').textContent).toContain('"bar" (not set up)');
    expect(printerRow('bar').textContent).toContain('Not set up');
    const [failed, forBar] = ['failed', 'pending'].map((state) => panel().getAllByTestId('print-job').find((li) => li.getAttribute('data-job-state') === state)!);
    expect(forBar!.textContent).toContain('It waits for the printer "bar", which is not set up on this terminal.');
    expect(within(forBar!).queryByRole('button', { name: 'Print again' })).toBeNull();
    expect(failed!.textContent).toContain('It could not be printed');

    // Send to… → the kitchen printer: it prints there.
    fireEvent.click(within(forBar!).getByRole('button', { name: 'Send to…' }));
    const targets = within(within(forBar!).getByRole('group', { name: 'Send Kitchen ticket to' }));
    expect(targets.getByRole('button', { name: 'Receipt printer' })).toBeTruthy();
    expect(document.activeElement).toBe(targets.getByRole('button', { name: 'Receipt printer' }));
    fireEvent.click(targets.getByRole('button', { name: 'Kitchen printer' }));
    await waitFor(() => expect(panel().getByTestId('printers-notice').textContent).toBe('Kitchen ticket: sent to the kitchen printer.'));
    await kitchen.waitFor(() => kitchen.count('MARKER-BAR') === 1, 'the redirected ticket');

    // Discard asks a cashier for a manager's PIN; the core's words go next to the field.
    await waitFor(() => expect(panel().getAllByTestId('print-job')).toHaveLength(1));
    const job = panel().getByTestId('print-job');
    fireEvent.click(within(job).getByRole('button', { name: 'Discard' }));
    const pin = within(job).getByLabelText('Manager PIN to approve') as HTMLInputElement;
    expect(document.activeElement).toBe(pin);
    fireEvent.click(within(job).getByRole('button', { name: 'Discard ticket' }));
    await waitFor(() => expect(fieldError(pin)).toBe(`${PERMISSIONS['sync.resolve']} needs a manager: they can approve it with their PIN.`));
    expect(pin.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(pin, { target: { value: '0000' } });
    fireEvent.click(within(job).getByRole('button', { name: 'Discard ticket' }));
    await waitFor(() => expect(fieldError(pin)).toBe(`That PIN is not right. ${PERMISSIONS['sync.resolve']} needs a manager. Nothing was changed.`));
    fireEvent.change(pin, { target: { value: PIN } });
    fireEvent.click(within(job).getByRole('button', { name: 'Discard ticket' }));
    await waitFor(() => expect(panel().getByTestId('printers-notice').textContent).toBe('Receipt discarded: it will not print.'));
    expect(panel().queryByTestId('print-job')).toBeNull();
    await waitFor(() => expect(pill().textContent).toBe('Printers ready'));
    expect((await client.call('printing.status', {})).attention).toEqual([]);
  });
});

async function renderOrders(client: BridgeClient) {
  const { checkout } = await client.call('menu.snapshot', {});
  return renderWith(client, <Orders onEdit={() => undefined} checkout={checkout} />);
}

/** The preview image's SVG, as the page decodes it from the data: URL. */
function previewSvg(img: HTMLImageElement): string {
  const prefix = 'data:image/svg+xml;charset=utf-8,';
  expect(img.getAttribute('src')!.startsWith(prefix)).toBe(true);
  return decodeURIComponent(img.getAttribute('src')!.slice(prefix.length));
}
/** receiptline draws each character in place: the text is what is left without the markup. */
const svgText = (svg: string) => svg.replace(/<[^>]+>/g, '').replace(/&#xa0;/g, ' ');

describe('the receipt in Orders', () => {
  it('shows the receipt as it prints, as an image, and Reprint prints a copy', async () => {
    const { client, receipt } = await withPrinters();
    const order = await paidOrder(client, 'cash');
    await receipt.waitFor(() => receipt.cuts() === 1 && receipt.drawerKicks().length === 1, 'the receipt and the drawer');
    await renderOrders(client);
    fireEvent.click(await screen.findByRole('button', { name: order.label }));
    fireEvent.click(screen.getByRole('button', { name: 'Receipt' }));
    const dialog = within(await screen.findByRole('dialog', { name: `Receipt · Order ${order.label}` }));
    const img = (await dialog.findByRole('img')) as HTMLImageElement;
    expect(img.getAttribute('alt')).toBe(`The receipt of order ${order.label} as it prints: 3 items, total $${(order.total / 100).toFixed(2)}.`);
    const text = svgText(previewSvg(img));
    expect(text).toContain('Burger');
    expect(text).toContain(order.label);
    // An image, never markup put into the page.
    expect(document.querySelector('[data-testid="receipt-preview"] svg')).toBeNull();

    const reprint = dialog.getByRole('button', { name: 'Reprint' }) as HTMLButtonElement;
    await waitFor(() => expect(reprint.disabled).toBe(false));
    fireEvent.click(reprint);
    await waitFor(() => expect(dialog.getByTestId('reprint-notice').textContent).toBe('A copy of the receipt (marked COPY) is printing on the receipt printer.'));
    await receipt.waitFor(() => receipt.cuts() === 2, 'the copy');
    expect(receipt.decodedJobs().at(-1)!.text).toContain('COPY');
    expect(receipt.drawerKicks()).toHaveLength(1);
  });

  it('still shows the preview where no printer is set up; Reprint is disabled and says why', async () => {
    const client = await withCore();
    const order = await paidOrder(client);
    await renderOrders(client);
    fireEvent.click(await screen.findByRole('button', { name: order.label }));
    fireEvent.click(screen.getByRole('button', { name: 'Receipt' }));
    const dialog = within(await screen.findByRole('dialog', { name: `Receipt · Order ${order.label}` }));
    expect(svgText(previewSvg((await dialog.findByRole('img')) as HTMLImageElement))).toContain('Café latte');
    const reprint = dialog.getByRole('button', { name: 'Reprint' }) as HTMLButtonElement;
    const reason = await dialog.findByTestId('reprint-blocked');
    expect(reason.textContent).toBe('No printer is set up on this terminal, so the receipt cannot be printed. IT sets printers up (--receipt-printer).');
    expect(reprint.disabled).toBe(true);
    expect(reprint.getAttribute('aria-describedby')).toBe(reason.id);
  });
});

describe('open the drawer', () => {
  it('needs a reason and, from a cashier, a manager PIN, each refusal next to its field, then kicks the drawer', async () => {
    const { client, receipt } = await withPrinters({ signIn: 'cashier' });
    renderWith(client, <Shift />);
    const form = within(await screen.findByRole('form', { name: 'Cash drawer' }));
    const reason = form.getByLabelText('Reason') as HTMLInputElement;
    const pin = (await form.findByLabelText('Manager PIN to approve')) as HTMLInputElement;
    const open = form.getByRole('button', { name: 'Open the drawer' });

    fireEvent.click(open);
    await waitFor(() => expect(fieldError(reason)).toBe('Say why the drawer is opened (for example: change for the float).'));
    expect(document.activeElement).toBe(reason);
    fireEvent.change(reason, { target: { value: 'change for the float' } });
    fireEvent.click(open);
    await waitFor(() => expect(fieldError(pin)).toBe(`${PERMISSIONS['drawer.open']} needs a manager: they can approve it with their PIN.`));
    expect(fieldError(reason)).toBeNull();
    fireEvent.change(pin, { target: { value: '9999' } });
    fireEvent.click(open);
    await waitFor(() => expect(fieldError(pin)).toBe(`That PIN is not right. ${PERMISSIONS['drawer.open']} needs a manager. Nothing was changed.`));
    expect(receipt.drawerKicks()).toHaveLength(0);

    fireEvent.change(pin, { target: { value: PIN } });
    fireEvent.click(open);
    await waitFor(() => expect(form.getByTestId('drawer-notice').textContent).toBe('The drawer opens now. Reason kept: “change for the float”.'));
    await receipt.waitFor(() => receipt.drawerKicks().length === 1, 'the drawer kick');
    expect(reason.value).toBe('');
    expect(pin.value).toBe('');
  });

  it('is not on the Shift screen where no printer is set up', async () => {
    const client = await withCore();
    renderWith(client, <Shift />);
    await screen.findByRole('region', { name: 'Shift summary' });
    expect(screen.queryByRole('form', { name: 'Cash drawer' })).toBeNull();
  });
});

describe('printing the receipt after each payment', () => {
  it('is a manager setting: a manager turns it off (no PIN asked), receipts then print on request from the last order', async () => {
    const { client, receipt, kitchen } = await withPrinters({ signIn: 'manager' });
    renderWith(client, <Settings currency="usd" />);
    const form = within(await screen.findByRole('form', { name: 'Printing' }));
    const toggle = form.getByLabelText('Print the receipt after each payment') as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    fireEvent.click(toggle);
    expect(form.queryByLabelText(/PIN/)).toBeNull();
    fireEvent.click(form.getByRole('button', { name: 'Save printing settings' }));
    await screen.findByText('Printing settings saved.');
    expect((await client.call('settings.get', {})).autoReceipt).toBe(false);
    expect((screen.getByLabelText('Print the receipt after each payment') as HTMLInputElement).checked).toBe(false);

    // A payment now prints no receipt by itself; the last order offers it.
    const order = await paidOrder(client);
    // Its kitchen ticket came out and nothing else waits: no receipt came with it.
    await kitchen.waitFor(() => kitchen.count(order.label) === 1, 'the kitchen ticket');
    await printersIdle(client);
    expect(receipt.jobs()).toHaveLength(0);
    renderWith(client, <LastOrder order={order} notice={null} onNext={() => undefined} autoReceipt={false} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Print receipt' }));
    await screen.findByText('The receipt is printing.');
    await receipt.waitFor(() => receipt.cuts() === 1, 'the receipt');
    expect(receipt.text()).toContain('Burger');
  });

  it('offers no "Print receipt" when receipts print by themselves, or before anything is paid', async () => {
    const { client } = await withPrinters();
    const paid = await paidOrder(client);
    const open = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const printsByItself = renderWith(client, <LastOrder order={paid} notice={null} onNext={() => undefined} autoReceipt />);
    const unpaid = renderWith(client, <LastOrder order={open} notice={null} onNext={() => undefined} autoReceipt={false} />);
    // A paid order on a till that prints on request offers it: once it shows, the printers' status is in for all three.
    const onRequest = renderWith(client, <LastOrder order={paid} notice={null} onNext={() => undefined} autoReceipt={false} />);
    await within(onRequest.container).findByRole('button', { name: 'Print receipt' });
    expect(within(printsByItself.container).queryByRole('button', { name: 'Print receipt' })).toBeNull();
    expect(within(unpaid.container).queryByRole('button', { name: 'Print receipt' })).toBeNull();
  });
});
