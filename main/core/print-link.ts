// The core's side of printing: which tickets an order or a payment causes, built from the core's
// own views as printing/'s documents, queued in the same transaction as the write that causes
// them (store.printQueue), and the worker that prints them. With no printer configured nothing is
// queued and the register works as before (docs/printing.md).
import type { Check, Location, Order, PrinterView, PrintingStatus, PrintJobView } from '../../bridge/contract';
import { formatMoney } from '../../bridge/money';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/log';
import {
  diffKitchenLines,
  drawerJob,
  kitchenJobs,
  receiptJob,
  reportJob,
  renderJob,
  PrintWorker,
  RECEIPT_PRINTER,
  type KitchenLine,
  type KitchenTicketDoc,
  type PrinterStatusView,
  type PrintingConfig,
  type ReceiptDoc,
  type ReportDoc,
} from '../../printing/index';
import type { NewPrintJob, OrderDoc, PrintJob, Store } from '../../store/index';
import { CoreError } from './errors';


/** Where a menu item is sorted: the kitchen routes its lines by category. */
export type CategoryOf = (menuItemId: string) => { id: string; name: string } | null;

/** A reprint needs the order, not its old job: a week of finished jobs is plenty for a look back. */
const FINISHED_JOBS_KEPT_MS = 7 * 24 * 60 * 60_000;

const money = (amount: number, currency: string) => formatMoney(amount, currency);
const percent = (ppm: number) => `${Number((ppm / 10_000).toFixed(4))}%`;

/** What to do about a printer, in the cashier's words. */
function printerMessage(view: PrinterStatusView): string | null {
  const name = view.name === RECEIPT_PRINTER ? 'The receipt printer' : `The ${view.name} printer`;
  if (!view.configured) return `${view.pending} ticket(s) wait for "${view.name}", which is not set up on this terminal: send them to another printer.`;
  switch (view.state) {
    case 'offline':
      return `${name} does not answer: check that it is on and connected. Its tickets wait and print when it is back.`;
    case 'paper_out':
      return `${name} is out of paper: put in a new roll. Its tickets wait.`;
    case 'cover_open':
      return `${name}'s cover is open: close it. Its tickets wait.`;
    case 'error':
      return `${name} reports an error${view.lastError ? ` (${view.lastError})` : ''}: switch it off and on. Its tickets wait.`;
    default:
      if (view.inDoubt > 0) return `${name} stopped mid-ticket: check whether it printed, then reprint or discard it.`;
      return view.paperLow ? `${name}'s paper is running low.` : null;
  }
}

export class PrintLink {
  readonly #worker: PrintWorker | null;

  constructor(
    private readonly store: Store,
    private readonly setup: PrintingConfig,
    /** Whether receipts print by themselves after a payment (a setting the manager may change). */
    private readonly autoReceipt: () => boolean,
    private readonly categoryOf: CategoryOf,
    private readonly clock: Clock,
    onChange: (status: PrintingStatus) => void,
    logger: Logger,
  ) {
    const enabled = setup.receipt !== null || setup.kitchen.length > 0;
    this.#worker = enabled ? new PrintWorker({ queue: store.printQueue, printers: setup, clock, logger: logger.child({ component: 'printing' }) }) : null;
    this.#worker?.onChange(() => onChange(this.status()));
  }

  get enabled(): boolean {
    return this.#worker !== null;
  }

  /** Starts the printers; tickets printed (or discarded) more than a week ago are forgotten. */
  start(): void {
    this.store.printQueue.pruneFinished(this.clock.now() - FINISHED_JOBS_KEPT_MS);
    this.#worker?.start();
  }

  async stop(): Promise<void> {
    await this.#worker?.stop();
  }

  /** After the write that queued jobs has committed: the printers start at once (the register never waits for them). */
  notify(): void {
    this.#worker?.notify();
  }

  // ---- what a write prints (call inside the write's transaction, then enqueue) ----

  #kitchenPrinter(): string {
    return this.setup.kitchen[0]?.name ?? RECEIPT_PRINTER;
  }

  #kitchenLines(doc: OrderDoc): KitchenLine[] {
    return doc.lines.map((line) => {
      const category = this.categoryOf(line.menu_item_id);
      return { name: line.name, quantity: line.quantity, modifiers: line.modifiers.map((m) => m.name), note: line.note, categoryId: category?.id ?? null, categoryName: category?.name ?? null };
    });
  }

  #kitchenDoc(doc: OrderDoc, tillLetter: string, timeZone: string, variant: 'new' | 'add' | 'void', lines: KitchenLine[]): KitchenTicketDoc {
    return {
      variant,
      orderLabel: doc.number ?? `#${doc.id.slice(-4).toUpperCase()}`,
      tillLetter,
      time: { iso: new Date(this.clock.now()).toISOString(), timeZone: timeZone || 'UTC' },
      service: doc.service ? { type: doc.service.type, table: doc.service.table, guests: doc.service.guests, customerName: doc.customer?.name || null } : null,
      lines,
      orderNote: doc.notes,
    };
  }

  /** The kitchen tickets of a new order, one per printer its lines route to. */
  forPlacedOrder(doc: OrderDoc, tillLetter: string, timeZone: string): NewPrintJob[] {
    if (this.setup.kitchen.length === 0 && this.setup.receipt === null) return [];
    return kitchenJobs({ orderId: doc.id, version: 1, doc: this.#kitchenDoc(doc, tillLetter, timeZone, 'new', this.#kitchenLines(doc)), routing: this.setup.routing, defaultPrinter: this.#kitchenPrinter() });
  }

  /** An ADD ticket with the lines added, a VOID ticket with those taken off; `version` tells this change from the order's others. */
  forChangedOrder(before: OrderDoc, after: OrderDoc, version: string, tillLetter: string, timeZone: string): NewPrintJob[] {
    if (this.setup.kitchen.length === 0 && this.setup.receipt === null) return [];
    const { added, voided } = diffKitchenLines(this.#kitchenLines(before), this.#kitchenLines(after));
    const ticket = (variant: 'add' | 'void', lines: KitchenLine[]) =>
      lines.length === 0 ? [] : kitchenJobs({ orderId: after.id, version: `${version}:${variant}`, doc: this.#kitchenDoc(after, tillLetter, timeZone, variant, lines), routing: this.setup.routing, defaultPrinter: this.#kitchenPrinter() });
    return [...ticket('add', added), ...ticket('void', voided)];
  }

  /** A cancelled order: VOID on every printer that had its tickets. */
  forCancelledOrder(doc: OrderDoc, tillLetter: string, timeZone: string): NewPrintJob[] {
    const printers = [...new Set(this.store.printQueue.list({ orderId: doc.id }).filter((j) => j.kind.startsWith('kitchen')).map((j) => j.printer))];
    if (printers.length === 0) return [];
    return kitchenJobs({ orderId: doc.id, version: 'cancelled', doc: this.#kitchenDoc(doc, tillLetter, timeZone, 'void', []), routing: this.setup.routing, defaultPrinter: this.#kitchenPrinter(), voidPrinters: printers });
  }

  /** After a payment: the receipt (when receipts print by themselves) and, for cash, the drawer. */
  forPayment(order: Order, location: Location, tillLetter: string, payment: { id: string; method: 'card' | 'cash' }, change: number): NewPrintJob[] {
    if (this.setup.receipt === null) return [];
    const jobs: NewPrintJob[] = [];
    if (this.autoReceipt()) jobs.push(receiptJob({ orderId: order.id, key: payment.id, doc: receiptDoc(order, location, tillLetter, this.clock.now(), { change }) }));
    if (payment.method === 'cash') jobs.push(drawerJob({ key: payment.id, orderId: order.id }));
    return jobs;
  }

  /** After a refund: a refund receipt, and the drawer when cash goes back. */
  forRefund(order: Order, location: Location, tillLetter: string, refund: { id: string; amount: number; reason: string; cash: boolean }): NewPrintJob[] {
    if (this.setup.receipt === null) return [];
    const doc: ReceiptDoc = {
      ...receiptDoc(order, location, tillLetter, this.clock.now(), {}),
      variant: 'refund',
      totals: { subtotal: money(refund.amount, order.currency), total: money(refund.amount, order.currency) },
      payments: [{ tender: refund.cash ? 'Cash' : 'Card', amount: money(refund.amount, order.currency) }],
      refund: { originalOrder: order.label, reason: refund.reason },
    };
    return [receiptJob({ orderId: order.id, key: refund.id, doc }), ...(refund.cash ? [drawerJob({ key: refund.id, orderId: order.id })] : [])];
  }

  // ---- commands ----

  #requireEnabled(): void {
    if (!this.#worker) throw new CoreError('unavailable', 'No printer is set up on this terminal. IT sets printers with --receipt-printer and --kitchen-printer (docs/printing.md).');
  }

  /**
   * The receipt on request: the customer's receipt when none was printed for the order yet
   * (receipts on request), else a copy marked COPY. Each is its own job.
   */
  reprint(order: Order, location: Location, tillLetter: string): void {
    this.#requireEnabled();
    if (this.setup.receipt === null) throw new CoreError('unavailable', 'No receipt printer is set up on this terminal.');
    const receipts = this.store.printQueue.list({ orderId: order.id }).filter((j) => j.kind === 'receipt' && j.state !== 'discarded').length;
    const doc = receiptDoc(order, location, tillLetter, this.clock.now(), {});
    const job = receipts === 0 ? receiptJob({ orderId: order.id, key: 'on-request', doc }) : receiptJob({ orderId: order.id, key: `copy-${receipts}`, doc: { ...doc, footer: ['COPY', 'Thank you!'] } });
    this.store.printQueue.enqueue([job]);
    this.notify();
  }

  preview(order: Order, location: Location, tillLetter: string): { svg: string; widthChars: number } {
    const widthChars = this.setup.receipt?.cpl ?? 42;
    const svg = renderJob('receipt', receiptDoc(order, location, tillLetter, this.clock.now(), {}), { target: 'svg', cpl: widthChars });
    return { svg: String(svg), widthChars };
  }

  /** A drawer kick with no sale (a manager's; the caller audits it). */
  openDrawer(key: string): void {
    this.#requireEnabled();
    if (this.setup.receipt === null) throw new CoreError('unavailable', 'The drawer opens through the receipt printer, and none is set up on this terminal.');
    this.store.printQueue.enqueue([drawerJob({ key: `nosale:${key}` })]);
    this.notify();
  }

  /** The end-of-day report on the receipt printer; `key` tells one print from another (a reprint is a new key). */
  printReport(key: string, doc: ReportDoc): void {
    this.#requireEnabled();
    if (this.setup.receipt === null) throw new CoreError('unavailable', 'Reports print on the receipt printer, and none is set up on this terminal.');
    this.store.printQueue.enqueue([reportJob({ key, doc })]);
    this.notify();
  }

  #job(id: string): PrintJob {
    const job = this.store.printQueue.get(id);
    if (!job) throw new CoreError('not_found', 'That print job is no longer listed. Open the printers panel again.');
    return job;
  }

  retry(id: string): void {
    this.#job(id);
    this.store.printQueue.retry(id);
    this.#worker?.retryNow();
  }

  redirect(id: string, printer: string): void {
    this.#job(id);
    if (!this.#printerNames().includes(printer)) throw new CoreError('invalid_command', `There is no printer "${printer}" on this terminal.`, [{ path: 'printer', message: 'not a printer here' }]);
    this.store.printQueue.redirect(id, printer);
    this.#worker?.retryNow(printer);
  }

  discard(id: string): void {
    this.#job(id);
    this.store.printQueue.discard(id);
    this.notify(); // every screen hears of it
  }

  confirmPrinted(id: string): void {
    const job = this.#job(id);
    if (job.state !== 'sending') throw new CoreError('conflict', 'Only a ticket that may have printed can be marked printed.');
    this.store.printQueue.markDone(id);
    this.notify();
  }

  #printerNames(): string[] {
    return [...(this.setup.receipt ? [this.setup.receipt.name] : []), ...this.setup.kitchen.map((p) => p.name)];
  }

  status(): PrintingStatus {
    if (!this.#worker) return { enabled: false, printers: [], attention: [] };
    const printers: PrinterView[] = this.#worker.status().map((view) => ({
      name: view.name,
      url: view.url,
      state: view.state,
      pending: view.pending,
      inDoubt: view.inDoubt,
      failed: view.failed,
      paperLow: view.paperLow,
      message: printerMessage(view),
      configured: view.configured,
    }));
    // Only what needs a person: in doubt, failed, or waiting for a printer that is not set up
    // (read per such printer, never the whole queue: a day of tickets may wait for one printer).
    const unconfigured = printers.filter((p) => !p.configured).map((p) => p.name);
    const active = this.#worker.activeJobIds();
    const attention = [
      ...this.store.printQueue.jobsInDoubt().filter((job) => !active.has(job.id)),
      ...this.store.printQueue.list({ state: 'failed' }),
      ...unconfigured.flatMap((printer) => this.store.printQueue.list({ state: 'pending', printer })),
    ];
    return { enabled: true, printers, attention: attention.map((job) => this.#jobView(job)) };
  }

  #jobView(job: PrintJob): PrintJobView {
    const order = job.orderId ? this.store.cashier.getOrder(job.orderId) : undefined;
    return {
      id: job.id,
      printer: job.printer,
      kind: job.kind,
      orderLabel: order ? (order.number ?? `#${order.id.slice(-4).toUpperCase()}`) : null,
      state: job.state,
      lastError: job.lastError,
      createdAt: new Date(job.createdAt).toISOString(),
    };
  }
}

/** The customer's receipt of an order as the register shows it: every figure formatted as on screen. */
export function receiptDoc(order: Order, location: Location, tillLetter: string, now: number, extra: { change?: number }): ReceiptDoc {
  const c = order.currency;
  const check: Check = order.check;
  const live = order.payments.filter((p) => p.status !== 'failed');
  return {
    variant: 'sale',
    location: { name: location.name, ...(location.address ? { address: location.address } : {}), ...(location.phone ? { phone: location.phone } : {}) },
    cashier: order.staff?.name ?? null,
    orderLabel: order.label,
    tillLetter,
    time: { iso: new Date(now).toISOString(), timeZone: location.timezone || 'UTC' },
    service: { type: order.service.type, table: order.service.table, guests: order.service.guests, customerName: order.customer.name || null },
    lines: order.lines.map((line) => ({
      name: line.name,
      quantity: line.quantity,
      modifiers: line.modifiers.map((m) => m.name),
      note: line.note,
      amount: money(line.lineTotal, c),
      discount: line.discount ? { label: line.discount.reason, amount: `-${money(line.discount.amount, c)}` } : null,
    })),
    totals: {
      subtotal: money(check.subtotal, c),
      discounts: check.orderDiscount ? [{ label: check.orderDiscount.reason, amount: `-${money(check.orderDiscount.amount, c)}` }] : [],
      taxes: check.taxes.map((t) => ({ label: t.ratePpm > 0 ? `${t.name} ${percent(t.ratePpm)}` : t.name, amount: money(t.amount, c) })),
      taxIncluded: check.taxIncluded,
      tip: order.tipTotal > 0 ? money(order.tipTotal, c) : null,
      total: money(check.total, c),
    },
    payments: live.map((p) => ({
      tender: p.method === 'cash' ? 'Cash' : p.status === 'queued_offline' ? 'Card (offline)' : 'Card',
      amount: money(p.amount + p.tip, c),
      tip: p.tip > 0 ? money(p.tip, c) : null,
      splitPart: p.splitPart,
    })),
    change: extra.change ? money(extra.change, c) : null,
    // Sold or paid while the cloud has not confirmed it: the receipt says so, and never shows a made-up server id.
    unconfirmed: order.syncState !== 'synced' || live.some((p) => p.syncState !== 'synced'),
    footer: ['Thank you!'],
  };
}
