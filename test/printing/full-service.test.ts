// A full service on paper (issue 24, items 6–10), through the bridge of a real core to fake TCP
// printers, read back as a person reads the paper: a receipt whose summary adds up as the screen's
// does, one row per tax, text the printer can print, refund receipts that say only what went back,
// bills for checks not paid in full, and NOT YET CONFIRMED only where it is true when it prints.
import { afterEach, describe, expect, it } from 'vitest';
import { tipFor } from '../../bridge/checkout/index';
import type { Order } from '../../bridge/contract';
import type { Core } from '../../main/core/index';
import { COPY_TEXT, NOT_A_RECEIPT_TEXT, UNCONFIRMED_TEXT } from '../../printing';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { ITEMS, MODIFIERS, seedCoffee, FLAT_WHITE, SIZES, startCoreOnSandbox, startTestCore, type TestCore } from '../core/fixtures';
import { waitFor } from '../sync/harness';
import { normalizedText } from './escpos-decode';
import { FakePrinter } from './fake-printer';

let t: TestCore | undefined;
let core: Core | undefined;
let sandbox: Sandbox | undefined;
const printers: FakePrinter[] = [];
afterEach(async () => {
  await t?.core.shutdown();
  await core?.shutdown();
  await sandbox?.close();
  t = undefined;
  core = undefined;
  sandbox = undefined;
  for (const printer of printers.splice(0)) await printer.stop();
});

async function printer(): Promise<FakePrinter> {
  const started = await FakePrinter.start();
  printers.push(started);
  return started;
}

/** The same sales tax on two tax classes (food for the flat white), as a new restaurant sets it up. */
const TAX = { rates: 'standard:Sales tax:8.75,food:Sales tax:8.75' };

async function till(): Promise<{ receipt: FakePrinter; kitchen: FakePrinter; t: TestCore }> {
  const [receipt, kitchen] = [await printer(), await printer()];
  t = await startTestCore({ printing: { receiptPrinter: receipt.url, kitchenPrinters: [`kitchen=${kitchen.url}`] }, tax: TAX }, {}, seedCoffee);
  return { receipt, kitchen, t };
}

const cents = (text: string): number => {
  const match = /(-?)\$([\d,]+)\.(\d\d)$/.exec(text.trim());
  if (!match) throw new Error(`no amount at the end of "${text}"`);
  return (match[1] ? -1 : 1) * (Number(match[2]!.replace(/,/g, '')) * 100 + Number(match[3]));
};
const usd = (amount: number) => `$${(amount / 100).toFixed(2)}`;

/** The receipt's summary as printed: the rows from "Subtotal" to TOTAL, each with its amount. */
function summary(paper: string, from = 'Subtotal', to = 'TOTAL'): { label: string; amount: number }[] {
  const lines = normalizedText(paper).split('\n');
  const start = lines.findIndex((l) => l.startsWith(from));
  const end = lines.findIndex((l, i) => i >= start && l.startsWith(to));
  expect(start, paper).toBeGreaterThanOrEqual(0);
  expect(end, paper).toBeGreaterThan(start);
  return lines.slice(start, end + 1).map((l) => ({ label: l.replace(/ -?\$[\d,.]+$/, ''), amount: cents(l) }));
}

/** An SVG preview's text, a line per row (receiptline writes one <text> per column, one <tspan> per character). */
function svgText(svg: string): string {
  const entity = (e: string) => ({ '&#xa0;': ' ', '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" })[e] ?? e;
  const rows = new Map<string, string[]>();
  let y = '';
  for (const m of svg.matchAll(/translate\([-\d.]+,([-\d.]+)\)|<text[^>]*>(.*?)<\/text>/g)) {
    if (m[1] !== undefined) y = m[1];
    else rows.set(y, [...(rows.get(y) ?? []), m[2]!.replace(/<[^>]+>/g, '').replace(/&[#\w]+;/g, entity)]);
  }
  return [...rows.values()].map((texts) => texts.join(' ')).join('\n');
}

/** The customer's paper (receipts, refund receipts, bills) in the order it printed: not kitchen tickets nor drawer kicks. */
function customerPapers(p: FakePrinter): string[] {
  return p.decodedJobs().map((job) => job.text).filter((text) => /Order \S+ +Till/.test(normalizedText(text)));
}

/** The `count`th customer paper the printer printed, once it has. */
async function lastPaper(p: FakePrinter, count: number, what: string): Promise<string> {
  await p.waitFor(() => customerPapers(p).length >= count, what);
  return customerPapers(p)[count - 1]!;
}

describe('the receipt adds up (item 6) and says each tax once (item 10)', () => {
  it('prints Subtotal, Item discounts, the order discount, one Sales tax row and a TOTAL that they add up to, as the screen shows them', async () => {
    const { receipt, t } = await till();
    const order = await t.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 3, modifierIds: [MODIFIERS.cheese], discount: { kind: 'percent', value: 5000, reason: 'Happy hour' } },
        { menuItemId: ITEMS.fries, quantity: 2, discount: { kind: 'amount', value: 300, reason: 'Loyalty' } },
        { menuItemId: FLAT_WHITE, quantity: 2, modifierIds: [SIZES.large] },
        { menuItemId: ITEMS.soup, quantity: 1 },
      ],
      discount: { kind: 'amount', value: 500, reason: 'Regular' },
      service: { type: 'dine_in', table: '4', guests: 2 },
    });
    expect(order.check.taxes.filter((tax) => tax.name === 'Sales tax')).toHaveLength(2); // one per tax class
    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total });
    const paper = await lastPaper(receipt, 1, 'the receipt');
    const rows = summary(paper);
    const lineDiscounts = order.lines.reduce((sum, l) => sum + (l.discount?.amount ?? 0), 0);
    expect(rows).toEqual([
      { label: 'Subtotal', amount: order.check.subtotal },
      { label: 'Item discounts', amount: -lineDiscounts },
      { label: '$5.00 off · Regular', amount: -500 },
      { label: 'Sales tax 8.75%', amount: order.check.taxTotal },
      { label: 'TOTAL', amount: order.total },
    ]);
    expect(rows.slice(0, -1).reduce((sum, r) => sum + r.amount, 0)).toBe(order.total);
    expect(normalizedText(paper).match(/Sales tax/g)).toHaveLength(1);
    // The lines' own discounts are still said under each line, in the screen's words.
    expect(normalizedText(paper)).toContain('50% off · Happy hour');
    // The preview is the same paper.
    const preview = await t.call('printing.preview', { orderId: order.id });
    expect(summary(svgText(preview.svg))).toEqual(rows);
  });
});

describe('characters the printer cannot print (item 10)', () => {
  it('never prints "?" for an emoji or an accent: the kitchen ticket and the receipt drop the emoji and keep the words', async () => {
    const { receipt, kitchen, t } = await till();
    const order = await t.call('orders.place', {
      lines: [{ menuItemId: ITEMS.latte, quantity: 1, note: 'light ice 🧊 👍🏽 for Zoë' }],
      notes: 'Crème brûlée “birthday” — Łukasz',
      customer: { name: 'Zoë 🎂', phone: '' },
    });
    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total });
    await kitchen.waitFor(() => kitchen.cuts() >= 1, 'the kitchen ticket');
    const ticket = kitchen.decodedJobs()[0]!.text;
    const paper = await lastPaper(receipt, 1, 'the receipt');
    for (const text of [ticket, paper]) {
      expect(text).not.toContain('?');
      expect(normalizedText(text)).toContain('light ice for Zoë'); // é, ë are in the code page: printed as they are
      expect(normalizedText(text)).toContain('Café latte');
    }
    expect(normalizedText(ticket)).toContain('Crème brûlée “birthday” — Łukasz'); // in the code pages 'multilingual' switches to
  });
});

describe('refund receipts (item 7)', () => {
  it('a refund by item lists only the units given back, their tax and the total back in cash, the reason in words', async () => {
    const { receipt, t } = await till();
    const order = await t.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 2, discount: { kind: 'percent', value: 1000, reason: 'Staff' } },
        { menuItemId: ITEMS.fries, quantity: 1 },
      ],
    });
    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total });
    await lastPaper(receipt, 1, 'the sale receipt');
    const { amount } = await t.call('payments.refundItems', { orderId: order.id, items: [{ lineIndex: 0, quantity: 1 }], reason: 'requested_by_customer' });
    const paper = normalizedText(await lastPaper(receipt, 2, 'the refund receipt'));
    expect(paper).toContain('REFUND');
    expect(paper).toContain('Reason: Requested by customer');
    expect(paper).not.toContain('requested_by_customer');
    expect(paper).toMatch(/^1 x Burger \$/m);
    expect(paper).not.toContain('Fries');
    expect(paper).not.toContain('Subtotal');
    const rows = summary(paper, 'Items before tax', 'REFUNDED');
    expect(rows.map((r) => r.label)).toEqual(['Items before tax', 'Sales tax 8.75%', 'REFUNDED']);
    expect(rows[0]!.amount + rows[1]!.amount).toBe(amount);
    expect(rows[2]!.amount).toBe(amount);
    expect(cents(paper.split('\n').find((l) => l.startsWith('1 x Burger'))!)).toBe(rows[0]!.amount);
    expect(paper).toContain(`Back in cash ${usd(amount)}`);
  });

  it('a refund by amount prints the amount, its share of the tax and where it went back, and no line of the order', async () => {
    const { receipt, t } = await till();
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }, { menuItemId: ITEMS.fries, quantity: 1 }] });
    const paid = await t.call('payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total });
    await lastPaper(receipt, 1, 'the sale receipt');
    await t.call('payments.refund', { paymentId: paid.payment.id, amount: 1000, reason: 'duplicate' });
    const paper = normalizedText(await lastPaper(receipt, 2, 'the refund receipt'));
    expect(paper).not.toMatch(/\d x (Burger|Fries)/);
    expect(paper).toContain('Reason: Duplicate charge');
    const rows = summary(paper, 'Amount before tax', 'REFUNDED');
    expect(rows.map((r) => r.label)).toEqual(['Amount before tax', 'Sales tax 8.75%', 'REFUNDED']);
    expect(rows[2]!.amount).toBe(1000);
    expect(rows[0]!.amount + rows[1]!.amount).toBe(1000);
    expect(rows[1]!.amount).toBe(Math.round((1000 * order.check.taxTotal) / order.check.total));
    expect(paper).toContain('Back in cash $10.00');
  });
});

describe('bills and copies (item 8)', () => {
  it('paper for an unpaid check is a bill with what is due and the suggested tips; a part payment shows the balance; a paid check reprints as COPY', async () => {
    const { receipt, t } = await till();
    const placed = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }, { menuItemId: ITEMS.soup, quantity: 1 }], service: { type: 'dine_in', table: '7', guests: 2 } });

    await t.call('printing.reprint', { orderId: placed.id });
    const bill = normalizedText(await lastPaper(receipt, 1, 'the bill'));
    expect(bill).toContain('BILL');
    expect(bill.split(NOT_A_RECEIPT_TEXT)).toHaveLength(3); // at the top and at the bottom
    expect(bill).toContain(`DUE ${usd(placed.total)}`);
    expect(bill).not.toContain('Paid so far');
    expect(bill).not.toContain('Thank you');
    for (const bps of [1500, 1800, 2000]) expect(bill).toContain(`${bps / 100}% ${usd(tipFor(placed.total, bps))}`);

    const split: Order = await t.call('orders.update', { id: placed.id, split: { kind: 'even', parts: 2 } });
    const first = split.split!.parts[0]!;
    await t.call('payments.take', { orderId: placed.id, method: 'card', amount: first.amount, splitPart: first.label });
    const partReceipt = normalizedText(await lastPaper(receipt, 2, 'the receipt of the first part'));
    expect(partReceipt).toContain(`Paid so far ${usd(first.amount)}`);
    expect(partReceipt).toContain(`Balance due ${usd(placed.total - first.amount)}`);
    expect(partReceipt).not.toContain(NOT_A_RECEIPT_TEXT);

    await t.call('printing.reprint', { orderId: placed.id });
    const secondBill = normalizedText(await lastPaper(receipt, 3, 'the bill after a part payment'));
    expect(secondBill).toContain(NOT_A_RECEIPT_TEXT);
    expect(secondBill).toContain(`Paid so far ${usd(first.amount)}`);
    expect(secondBill).toContain(`DUE ${usd(placed.total - first.amount)}`);
    expect(secondBill).toContain(`15% ${usd(tipFor(placed.total - first.amount, 1500))}`);

    const rest = split.split!.parts[1]!;
    await t.call('payments.take', { orderId: placed.id, method: 'cash', amount: rest.amount, splitPart: rest.label, tendered: rest.amount });
    const paidReceipt = normalizedText(await lastPaper(receipt, 4, 'the receipt of the last part'));
    expect(paidReceipt).not.toContain('due');
    expect(paidReceipt).not.toContain(NOT_A_RECEIPT_TEXT);
    await t.call('printing.reprint', { orderId: placed.id });
    const copy = normalizedText(await lastPaper(receipt, 5, 'the copy'));
    expect(copy.split('\n').filter((l) => l === COPY_TEXT)).toHaveLength(2);
    expect(copy).not.toContain(NOT_A_RECEIPT_TEXT);
    expect(copy).not.toMatch(/due/i);
  });
});

describe('NOT YET CONFIRMED BY THE CLOUD (item 9)', () => {
  it('is printed on a card receipt taken offline, where it is true', async () => {
    const { receipt, t } = await till();
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const paid = await t.call('payments.take', { orderId: order.id, method: 'card', amount: order.total });
    expect(paid.payment.status).toBe('queued_offline');
    const paper = normalizedText(await lastPaper(receipt, 1, 'the receipt'));
    expect(paper).toContain(UNCONFIRMED_TEXT);
    expect(paper).toContain('Card (offline)');
  });

  it('is not printed on a card receipt taken online: the receipt reads the payment as the cloud has it when it prints', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    const receipt = await printer();
    core = await startCoreOnSandbox(sandbox, { config: { printing: { receiptPrinter: receipt.url } } });
    const call = async <T,>(command: string, payload: unknown): Promise<T> => {
      const response = await core!.invoke({ command, payload });
      if (!response.ok) throw new Error(response.error.message);
      return response.value as T;
    };
    let item: { id: string } | undefined;
    await waitFor(
      async () => {
        const menu = await call<{ items: { id: string; available: boolean; modifiers: unknown[]; modifierGroups: unknown[] }[] }>('menu.snapshot', {});
        item = menu.items.find((i) => i.available && i.modifiers.length === 0 && i.modifierGroups.length === 0);
        return item !== undefined && (await call<{ online: boolean }>('sync.status', {})).online;
      },
      15_000,
      'the first pull',
    );
    const order = await call<Order>('orders.place', { lines: [{ menuItemId: item!.id, quantity: 1 }] });
    const paid = await call<{ payment: Order['payments'][number] }>('payments.take', { orderId: order.id, method: 'card', amount: order.total });
    expect(paid.payment.status).toBe('pending'); // on its way to the cloud when the receipt was queued
    const paper = normalizedText(await lastPaper(receipt, 1, 'the receipt'));
    expect(paper).not.toContain(UNCONFIRMED_TEXT);
    const after = await call<Order>('orders.get', { id: order.id });
    expect(after.payments.map((p) => p.syncState)).toEqual(['synced']);
  });
});
