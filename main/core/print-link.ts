// The core's side of printing: which tickets an order or a payment causes, built from the core's
// own views as printing/'s documents, queued in the same transaction as the write that causes
// them (store.printQueue), and the worker that prints them. With no printer configured nothing is
// queued and the register works as before (docs/printing.md).
import { gratuityLabel, gratuityPartWith, refundForUnits, DEFAULT_TIP_PERCENTS_BPS, tipBase, tipFor } from '../../bridge/checkout/index';
import { mergeTaxLines, type NamedTaxAmount } from '../../bridge/checkout/tax-lines';
import type { AppliedDiscount, Check, CheckoutRules, Location, Order, OrderGratuity } from '../../bridge/contract';
import type { PrinterView, PrintingStatus, PrintJobView } from '../../bridge/printing/contract';
import { formatMoney } from '../../bridge/money';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/log';
import {
  COMPUTER_NOT_PRINTER,
  diffKitchenLines,
  drawerJob,
  kitchenJobs,
  receiptJob,
  reportJob,
  renderJob,
  PrintWorker,
  RECEIPT_PRINTER,
  type CloudState,
  type KitchenLine,
  type KitchenTicketDoc,
  type PrinterStatusView,
  type PrintingConfig,
  type ReceiptDoc,
  type ReportDoc,
} from '../../printing/index';
import { EntityKind, type NewPrintJob, type OrderDoc, type PrintJob, type Store } from '../../store/index';
import { priceOrder } from './checkout';
import { CoreError } from './errors';
import { DEFAULT_LOCALE, effectiveTimeZone } from './views';

/** The checkout's suggested tips (basis points) and what they are a percentage of (CheckoutRules.tipBasis). */
export type TipGuideRules = { percents: readonly number[]; basis: CheckoutRules['tipBasis'] };


/** Where a menu item is sorted: the kitchen routes its lines by category. */
export type CategoryOf = (menuItemId: string) => { id: string; name: string } | null;

/** A reprint needs the order, not its old job: a week of finished jobs is plenty for a look back. */
const FINISHED_JOBS_KEPT_MS = 7 * 24 * 60 * 60_000;

const money = (amount: number, currency: string) => formatMoney(amount, currency);
const percent = (ppm: number) => `${Number((ppm / 10_000).toFixed(4))}%`;

/**
 * How long a card receipt taken online may wait for the cloud to confirm its payment before it
 * prints anyway (saying NOT YET CONFIRMED): the push usually lands within a second.
 */
export const RECEIPT_CLOUD_WAIT_MS = 3_000;

/** The refund reasons the cloud knows (bridge RefundReason), in words. */
const REFUND_REASONS: Record<string, string> = {
  requested_by_customer: 'Requested by customer',
  duplicate: 'Duplicate charge',
  fraudulent: 'Fraudulent charge',
  order_cancelled: 'Order cancelled',
  other: 'Other',
};

export function refundReasonText(reason: string): string {
  const known = REFUND_REASONS[reason];
  if (known) return known;
  const words = reason.replace(/_/g, ' ').trim();
  return words === '' ? 'Not given' : words[0]!.toUpperCase() + words.slice(1);
}

/** What to do about a printer, in the cashier's words. */
function printerMessage(view: PrinterStatusView): string | null {
  const name = view.name === RECEIPT_PRINTER ? 'The receipt printer' : `The ${view.name} printer`;
  if (!view.configured) return `${view.pending} ticket(s) wait for "${view.name}", which is not set up on this terminal: send them to another printer.`;
  switch (view.state) {
    case 'offline':
      // A file printer on a full or read-only disk: the computer is the problem, and its error says so.
      if (view.lastError?.endsWith(COMPUTER_NOT_PRINTER)) return `${name} cannot be written: ${view.lastError}. Its tickets wait.`;
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
    /** The suggested tips of the checkout settings (basis points) and what they are a percentage of, printed on a bill. */
    private readonly tipGuide: () => TipGuideRules = () => ({ percents: DEFAULT_TIP_PERCENTS_BPS, basis: 'total' }),
  ) {
    const enabled = setup.receipt !== null || setup.kitchen.length > 0;
    this.#worker = enabled
      ? new PrintWorker({ queue: store.printQueue, printers: setup, clock, logger: logger.child({ component: 'printing' }), cloudState: (records) => this.#cloudState(records) })
      : null;
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

  /** The lines the kitchen is told of: all but those of a course held back (docs/tables.md, "Courses"). */
  #kitchenLines(doc: OrderDoc): KitchenLine[] {
    const held = new Set((doc.courses ?? []).filter((c) => c.state === 'held').map((c) => c.course));
    return doc.lines.filter((line) => line.course === null || !held.has(line.course)).map((line) => this.#kitchenLine(line));
  }

  #kitchenLine(line: OrderDoc['lines'][number]): KitchenLine {
    const category = this.categoryOf(line.menu_item_id);
    return { name: line.name, quantity: line.quantity, modifiers: line.modifiers.map((m) => m.name), note: line.note, seat: line.seat, categoryId: category?.id ?? null, categoryName: category?.name ?? null };
  }

  #kitchenDoc(doc: OrderDoc, tillLetter: string, timeZone: string, locale: string, variant: KitchenTicketDoc['variant'], lines: KitchenLine[]): KitchenTicketDoc {
    return {
      variant,
      orderLabel: doc.number ?? `#${doc.id.slice(-4).toUpperCase()}`,
      tillLetter,
      time: { iso: new Date(this.clock.now()).toISOString(), timeZone: effectiveTimeZone(timeZone), locale },
      service: doc.service ? { type: doc.service.type, table: doc.service.table, guests: doc.service.guests, customerName: doc.customer?.name || null } : null,
      lines,
      orderNote: doc.notes,
    };
  }

  /** The kitchen tickets of a new order, one per printer its lines route to. `timeZone` and `locale` are the location's. */
  forPlacedOrder(doc: OrderDoc, tillLetter: string, timeZone: string, locale = DEFAULT_LOCALE): NewPrintJob[] {
    if (this.setup.kitchen.length === 0 && this.setup.receipt === null) return [];
    return kitchenJobs({ orderId: doc.id, version: 1, doc: this.#kitchenDoc(doc, tillLetter, timeZone, locale, 'new', this.#kitchenLines(doc)), routing: this.setup.routing, defaultPrinter: this.#kitchenPrinter() });
  }

  /** An ADD ticket with the lines added, a VOID ticket with those taken off; `version` tells this change from the order's others. */
  forChangedOrder(before: OrderDoc, after: OrderDoc, version: string, tillLetter: string, timeZone: string, locale = DEFAULT_LOCALE): NewPrintJob[] {
    if (this.setup.kitchen.length === 0 && this.setup.receipt === null) return [];
    const { added, voided } = diffKitchenLines(this.#kitchenLines(before), this.#kitchenLines(after));
    const ticket = (variant: 'add' | 'void', lines: KitchenLine[]) =>
      lines.length === 0 ? [] : kitchenJobs({ orderId: after.id, version: `${version}:${variant}`, doc: this.#kitchenDoc(after, tillLetter, timeZone, locale, variant, lines), routing: this.setup.routing, defaultPrinter: this.#kitchenPrinter() });
    return [...ticket('add', added), ...ticket('void', voided)];
  }

  /**
   * The FIRE ticket of a held course just fired: its lines, to each printer they route to. The
   * key names the course: a course fires once per order, so a retried write queues it once.
   */
  forFiredCourse(doc: OrderDoc, course: { id: string; name: string }, tillLetter: string, timeZone: string, locale = DEFAULT_LOCALE): NewPrintJob[] {
    if (this.setup.kitchen.length === 0 && this.setup.receipt === null) return [];
    const lines = doc.lines.filter((line) => line.course === course.id).map((line) => this.#kitchenLine(line));
    if (lines.length === 0) return [];
    const ticket = { ...this.#kitchenDoc(doc, tillLetter, timeZone, locale, 'fire', lines), course: course.name };
    return kitchenJobs({ orderId: doc.id, version: `fire-${course.id}`, doc: ticket, routing: this.setup.routing, defaultPrinter: this.#kitchenPrinter() });
  }

  /**
   * Check `from` merged into `into` (now `after`): the kitchen already has what either check sent,
   * so only what it has not seen prints: from's held lines of a course into has fired, as an ADD.
   * Nothing prints for from's cancellation. The key names from: a check merges once.
   */
  forMergedOrder(into: OrderDoc, from: OrderDoc, after: OrderDoc, tillLetter: string, timeZone: string, locale = DEFAULT_LOCALE): NewPrintJob[] {
    if (this.setup.kitchen.length === 0 && this.setup.receipt === null) return [];
    const { added, voided } = diffKitchenLines([...this.#kitchenLines(into), ...this.#kitchenLines(from)], this.#kitchenLines(after));
    const ticket = (variant: 'add' | 'void', lines: KitchenLine[]) =>
      lines.length === 0 ? [] : kitchenJobs({ orderId: after.id, version: `merge-${from.id}:${variant}`, doc: this.#kitchenDoc(after, tillLetter, timeZone, locale, variant, lines), routing: this.setup.routing, defaultPrinter: this.#kitchenPrinter() });
    return [...ticket('add', added), ...ticket('void', voided)];
  }

  /**
   * The orders whose kitchen tickets an order's lines came with: itself and every check merged into
   * it (and into those), so the printers that have its lines are known after a merge.
   */
  #kitchenHistoryOf(orderId: string): string[] {
    const ids = [orderId];
    for (let i = 0; i < ids.length; i += 1) {
      for (const link of this.store.cashier.linksOf([ids[i]!])) {
        if (link.kind === 'merged_into' && link.other_id === ids[i] && !ids.includes(link.order_id)) ids.push(link.order_id);
      }
    }
    return ids;
  }

  /** A cancelled order: VOID on every printer that had its tickets (those of the checks merged into it too). */
  forCancelledOrder(doc: OrderDoc, tillLetter: string, timeZone: string, locale = DEFAULT_LOCALE): NewPrintJob[] {
    const jobs = this.#kitchenHistoryOf(doc.id).flatMap((orderId) => this.store.printQueue.list({ orderId }));
    const printers = [...new Set(jobs.filter((j) => j.kind.startsWith('kitchen')).map((j) => j.printer))];
    if (printers.length === 0) return [];
    return kitchenJobs({ orderId: doc.id, version: 'cancelled', doc: this.#kitchenDoc(doc, tillLetter, timeZone, locale, 'void', []), routing: this.setup.routing, defaultPrinter: this.#kitchenPrinter(), voidPrinters: printers });
  }

  /** Where the cloud stands on a receipt's records, read from the outbox when it prints. */
  #cloudState(records: readonly { kind: string; id: string }[]): CloudState {
    const known = records.flatMap((r) => {
      const kind = EntityKind.safeParse(r.kind);
      return kind.success ? [{ kind: kind.data, id: r.id }] : [];
    });
    const states = [...this.store.outbox.syncStatesOf(known).values()];
    if (states.includes('dead')) return 'refused';
    return states.length > 0 ? 'waiting' : 'confirmed';
  }

  /** After a payment: the receipt (when receipts print by themselves) and, for cash, the drawer. */
  forPayment(order: Order, location: Location, tillLetter: string, payment: { id: string; method: 'card' | 'cash' }, change: number): NewPrintJob[] {
    if (this.setup.receipt === null) return [];
    const jobs: NewPrintJob[] = [];
    if (this.autoReceipt()) {
      // A card taken online is on its way to the cloud: its receipt may wait a moment for the confirmation.
      const sentOnline = order.payments.some((p) => p.id === payment.id && p.method === 'card' && p.status === 'pending');
      const doc = receiptDoc(order, location, tillLetter, this.clock.now(), { change, cloudWaitMs: sentOnline ? RECEIPT_CLOUD_WAIT_MS : 0 });
      jobs.push(receiptJob({ orderId: order.id, key: payment.id, doc }));
    }
    if (payment.method === 'cash') jobs.push(drawerJob({ key: payment.id, orderId: order.id }));
    return jobs;
  }

  /**
   * Cash taken here toward another till's order that this till cannot read for a receipt, or handed
   * back when that till refused it (store mode): this drawer opens, once per `key`.
   */
  drawerForOtherTill(key: string, orderId: string): NewPrintJob[] {
    return this.setup.receipt === null ? [] : [drawerJob({ key, orderId })];
  }

  /** After a refund: a refund receipt, and the drawer when cash goes back. */
  forRefund(order: Order, location: Location, tillLetter: string, refund: RefundPrinted): NewPrintJob[] {
    if (this.setup.receipt === null) return [];
    const doc = refundDoc(order, this.store.cashier.getOrder(order.id), location, tillLetter, this.clock.now(), refund);
    return [receiptJob({ orderId: order.id, key: refund.id, doc }), ...(refund.cash ? [drawerJob({ key: refund.id, orderId: order.id })] : [])];
  }

  // ---- commands ----

  #requireEnabled(): void {
    if (!this.#worker) throw new CoreError('unavailable', 'No printer is set up on this terminal. IT sets printers with --receipt-printer and --kitchen-printer (docs/printing.md).');
  }

  /** What a reprint or the preview shows: a bill while money is still due, else the receipt. */
  #paperOnRequest(order: Order, location: Location, tillLetter: string): ReceiptDoc {
    return receiptDoc(order, location, tillLetter, this.clock.now(), { asBill: true, tipGuide: this.tipGuide() });
  }

  /**
   * Paper on request. A check not paid in full gets a bill (what is due, what was paid so far,
   * suggested tips; not a receipt), a new one each time. A paid check gets the customer's receipt
   * when none was printed for it yet (receipts on request), else a copy marked COPY.
   */
  /**
   * Whether the latest bill of an order (a check printed before it was paid) shows the check as it is now:
   * its lines and totals as a bill printed now would print them. Null: no bill. Not a time compared with
   * the order's: the cloud's answer to a change made before the bill moves the order's updated_at and
   * changes nothing on paper, while a round added on another till, by any path, changes the paper.
   */
  lastBillShows(order: Order, location: Location, tillLetter: string): boolean | null {
    const bills = this.store.printQueue.list({ orderId: order.id }).filter((j) => j.kind === 'receipt' && j.state !== 'discarded' && isBill(j));
    const last = bills.reduce<(typeof bills)[number] | null>((latest, job) => (latest === null || job.createdAt > latest.createdAt ? job : latest), null);
    if (last === null) return null;
    return checkOnPaper(last.payload) === checkOnPaper(this.#paperOnRequest(order, location, tillLetter));
  }

  reprint(order: Order, location: Location, tillLetter: string): void {
    this.#requireEnabled();
    if (this.setup.receipt === null) throw new CoreError('unavailable', 'No receipt printer is set up on this terminal.');
    const doc = this.#paperOnRequest(order, location, tillLetter);
    const earlier = this.store.printQueue.list({ orderId: order.id }).filter((j) => j.kind === 'receipt' && j.state !== 'discarded');
    const bills = earlier.filter(isBill).length;
    const receipts = earlier.length - bills;
    const job = doc.bill
      ? receiptJob({ orderId: order.id, key: `bill-${bills + 1}`, doc })
      : receipts === 0
        ? receiptJob({ orderId: order.id, key: 'on-request', doc })
        : receiptJob({ orderId: order.id, key: `copy-${receipts}`, doc: { ...doc, copy: true } });
    this.store.printQueue.enqueue([job]);
    this.notify();
  }

  preview(order: Order, location: Location, tillLetter: string): { svg: string; widthChars: number } {
    const widthChars = this.setup.receipt?.cpl ?? 42;
    const doc = this.#paperOnRequest(order, location, tillLetter);
    const cloudConfirmed = doc.cloud ? this.#cloudState(doc.cloud.records) === 'confirmed' : undefined;
    const svg = renderJob('receipt', doc, { target: 'svg', cpl: widthChars, encoding: this.setup.receipt?.encoding, cloudConfirmed });
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

/** A discount in the screen's words: "10% off · Loyalty", "$5.00 off · Regular", "Comp · Cold". */
function describeDiscount(discount: Pick<AppliedDiscount, 'kind' | 'value' | 'reason'>, currency: string): string {
  if (discount.kind === 'percent' && discount.value === 10_000) return /^comp\b/i.test(discount.reason) ? discount.reason : `Comp · ${discount.reason}`;
  const size = discount.kind === 'percent' ? `${Number((discount.value / 100).toFixed(2))}%` : money(discount.value, currency);
  return `${size} off · ${discount.reason}`;
}

const taxLabel = (t: NamedTaxAmount) => (t.ratePpm > 0 ? `${t.name} ${percent(t.ratePpm)}` : t.name);

/**
 * The rows between the subtotal and the taxes, as the screen's CheckTotals shows them: what the
 * lines' own discounts took off together ("Item discounts"; "Discounts" when the order has no
 * discount of its own), then the order's discount by name. Subtotal − these + added taxes = total.
 */
function discountRows(check: Check, currency: string): { label: string; amount: string }[] {
  const byOrder = check.orderDiscount && check.orderDiscount.amount > 0 ? check.orderDiscount : null;
  const others = check.discountTotal - (byOrder?.amount ?? 0);
  return [
    ...(others > 0 ? [{ label: byOrder ? 'Item discounts' : 'Discounts', amount: `-${money(others, currency)}` }] : []),
    ...(byOrder ? [{ label: describeDiscount(byOrder, currency), amount: `-${money(byOrder.amount, currency)}` }] : []),
  ];
}

/** The records the cloud must have for this order's paper to be confirmed: the order and its card payments. */
function cloudRecords(order: Order): { kind: string; id: string }[] {
  return [{ kind: 'order', id: order.id }, ...order.payments.filter((p) => p.method === 'card' && p.status !== 'failed').map((p) => ({ kind: 'payment_intent', id: p.id }))];
}

function heading(order: Order, location: Location, tillLetter: string, now: number) {
  return {
    location: { name: location.name, ...(location.address ? { address: location.address } : {}), ...(location.phone ? { phone: location.phone } : {}) },
    cashier: order.staff?.name ?? null,
    orderLabel: order.label,
    tillLetter,
    time: { iso: new Date(now).toISOString(), timeZone: effectiveTimeZone(location.timezone), locale: location.locale },
    service: { type: order.service.type, table: order.service.table, guests: order.service.guests, customerName: order.customer.name || null },
  };
}

/**
 * The paper of an order as the register shows it: every figure formatted as on screen. Paid in
 * full: the customer's receipt. Money still due: the receipt of a part payment says the balance;
 * `asBill` (paper on request) makes it a bill, not a receipt, with the suggested tips.
 */
export function receiptDoc(
  order: Order,
  location: Location,
  tillLetter: string,
  now: number,
  extra: { change?: number; asBill?: boolean; tipGuide?: TipGuideRules; cloudWaitMs?: number },
): ReceiptDoc {
  const c = order.currency;
  const check: Check = order.check;
  const live = order.payments.filter((p) => p.status !== 'failed');
  // As the screen says it: an open order not paid in full (a fulfilled order pulled from the cloud comes without its payments).
  const owing = order.displayState === 'open_unpaid' || order.displayState === 'open_part_paid';
  const due = owing ? Math.max(0, order.total - order.paidAmount) : 0;
  const bill = due > 0 && extra.asBill === true;
  const tipBasis = extra.tipGuide?.basis ?? 'total';
  const tipOn = tipBase(due, check, tipBasis);
  const gratuity = order.gratuity;
  return {
    variant: 'sale',
    ...heading(order, location, tillLetter, now),
    lines: order.lines.map((line) => ({
      name: line.name,
      quantity: line.quantity,
      modifiers: line.modifiers.map((m) => m.name),
      note: line.note,
      amount: money(line.lineTotal, c),
      discount: line.discount && line.discount.amount > 0 ? { label: describeDiscount(line.discount, c), amount: `-${money(line.discount.amount, c)}` } : null,
    })),
    totals: {
      subtotal: money(check.subtotal, c),
      discounts: discountRows(check, c),
      taxes: mergeTaxLines(check.taxes).map((t) => ({ label: taxLabel(t), amount: money(t.amount, c) })),
      taxIncluded: check.taxIncluded,
      // The gratuity's part of the tips has its own row.
      tip: order.tipTotal - (gratuity?.collected ?? 0) > 0 ? money(order.tipTotal - (gratuity?.collected ?? 0), c) : null,
      total: money(check.total, c),
    },
    payments: live.map((p) => ({
      tender: p.method === 'cash' ? 'Cash' : p.status === 'queued_offline' ? 'Card (offline)' : 'Card',
      amount: money(p.amount + p.tip, c),
      tip: p.tip > 0 ? money(p.tip, c) : null,
      splitPart: p.splitPart,
    })),
    change: extra.change ? money(extra.change, c) : null,
    due: due > 0 ? { paidSoFar: order.paidAmount > 0 ? money(order.paidAmount, c) : null, amount: money(due, c) } : null,
    bill,
    gratuity: gratuity === null ? null : gratuityPrinted(gratuity, c, bill ? due : null, order),
    // A gratuity is the tip a large party's bill asks: no further suggestions beside it.
    tipGuide: bill && gratuity === null ? (extra.tipGuide?.percents ?? []).map((bps) => ({ label: `${Number((bps / 100).toFixed(2))}%`, amount: money(tipFor(tipOn, bps), c) })) : [],
    tipGuideOn: tipBasis === 'pre_tax' && tipOn !== due ? `${money(tipOn, c)} before tax` : 'the amount due',
    // As the order stands now; the print worker reads the records' sync state again when it prints.
    unconfirmed: order.syncState !== 'synced' || live.some((p) => p.syncState !== 'synced'),
    cloud: { records: cloudRecords(order), waitMs: extra.cloudWaitMs ?? 0 },
    footer: bill ? [] : ['Thank you!'],
  };
}

/**
 * The gratuity as paper says it: on a receipt what the payments carried of it; on a bill (`due`
 * not null) what is still due of it and the amount due with it. Its tax is inside the amount.
 */
function gratuityPrinted(gratuity: OrderGratuity, c: string, due: number | null, order: Order): NonNullable<ReceiptDoc['gratuity']> {
  const label = gratuityLabel(gratuity);
  const removed = gratuity.removed === null ? null : `Taken off by ${gratuity.removed.by?.name ?? 'a manager'}: ${gratuity.removed.reason}`;
  const owed = due === null ? 0 : gratuityPartWith(gratuity, order.check.total, order.paidAmount, due);
  const amount = due === null ? gratuity.collected : owed;
  // Its tax, in proportion to what this paper shows of it.
  const tax = gratuity.tax > 0 && gratuity.charged > 0 ? Math.round((gratuity.tax * amount) / gratuity.charged) : 0;
  return {
    label,
    amount: money(amount, c),
    tax: tax > 0 ? { label: `incl. tax on ${gratuity.name.toLowerCase()}`, amount: money(tax, c) } : null,
    dueWithGratuity: due === null || owed === 0 ? null : money(due + owed, c),
    removed,
  };
}

/** Σ of a line's `figure` over `quantity` of its units after `already` were given back (refundForUnits' shares). */
function unitsShare(figure: number, gross: number, lineQuantity: number, already: number, quantity: number): number {
  return refundForUnits({ lines: [{ gross, total: figure }] }, 0, lineQuantity, already, quantity);
}

/** A refund as its receipt tells it: its reason from the cloud's list, and the cashier's words (null when none). */
export interface RefundPrinted {
  id: string;
  amount: number;
  reason: string;
  note: string | null;
  cash: boolean;
}

/** "Other: the soup was cold": the reason in words, then what the cashier said. */
function refundReasonLine(reason: string, note: string | null): string {
  return note ? `${refundReasonText(reason)}: ${note}` : refundReasonText(reason);
}

/**
 * The refund receipt: only what was given back. A refund by item lists the units refunded by
 * line (what they cost after their discounts), its tax and the total back; a refund by amount
 * says the amount and its share of the order's tax. Where the money went back, the reason in words.
 */
export function refundDoc(
  order: Order,
  doc: OrderDoc | undefined,
  location: Location,
  tillLetter: string,
  now: number,
  refund: RefundPrinted,
): ReceiptDoc {
  const c = order.currency;
  const check = order.check;
  const view = order.payments.flatMap((p) => p.refunds).find((r) => r.id === refund.id);
  const breakdown = doc ? priceOrder(doc).breakdown : null;
  const lines: ReceiptDoc['lines'] = [];
  let itemsBack = 0;
  let itemsTax = 0;
  for (const item of view?.items ?? []) {
    const line = order.lines[item.lineIndex];
    const priced = breakdown?.lines[item.lineIndex];
    if (!line || !priced) continue;
    // Printed with the refund that gave them back: the units before it were refunded earlier.
    const already = Math.max(0, line.refundedQuantity - item.quantity);
    const back = refundForUnits(breakdown, item.lineIndex, line.quantity, already, item.quantity);
    const tax = unitsShare(priced.tax, priced.gross, line.quantity, already, item.quantity);
    itemsBack += back;
    itemsTax += tax;
    lines.push({ name: line.name, quantity: item.quantity, modifiers: line.modifiers.map((m) => m.name), amount: money(check.taxIncluded ? back : back - tax, c) });
  }
  const byItems = lines.length > 0 && itemsBack === refund.amount;
  // By amount: the refund's share of the order's tax (what is left is what it is before tax).
  const tax = byItems ? itemsTax : check.total > 0 ? Math.min(refund.amount, Math.round((refund.amount * check.taxTotal) / check.total)) : 0;
  const taxes = mergeTaxLines(check.taxes);
  const label = taxes.length === 1 ? taxLabel(taxes[0]!) : 'Tax';
  const showTax = tax > 0 || check.taxTotal > 0;
  return {
    variant: 'refund',
    ...heading(order, location, tillLetter, now),
    cashier: view?.staff?.name ?? order.staff?.name ?? null,
    lines: byItems ? lines : [],
    totals: {
      subtotal: showTax && !check.taxIncluded ? money(refund.amount - tax, c) : null,
      subtotalLabel: byItems ? 'Items before tax' : 'Amount before tax',
      taxes: showTax ? [{ label, amount: money(tax, c) }] : [],
      taxIncluded: check.taxIncluded,
      total: money(refund.amount, c),
    },
    payments: [{ tender: refund.cash ? 'Back in cash' : 'Back to the card', amount: money(refund.amount, c) }],
    refund: { originalOrder: order.label, reason: refundReasonLine(refund.reason, refund.note) },
    unconfirmed: view ? view.syncState !== 'synced' : true,
    cloud: { records: [{ kind: 'refund', id: refund.id }], waitMs: 0 },
    footer: [],
  };
}

/** A bill's job key says so (reprint: `bill-N`). */
/** What a bill says of the check itself (its lines and totals), to compare two: not its time, payments or tip guide. */
function checkOnPaper(paper: unknown): string {
  const doc = paper as Partial<ReceiptDoc> | null;
  return JSON.stringify({ lines: doc?.lines ?? null, totals: doc?.totals ?? null });
}

function isBill(job: { dedupeKey: string }): boolean {
  return job.dedupeKey.includes(':bill-');
}
