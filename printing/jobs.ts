// Print jobs for the queue, with the dedupe keys that make a retried write or a restart queue each
// ticket once. main/core calls these inside the transaction of the order or payment write and
// hands the result to `store.printQueue.enqueue(...)`. Documents are not validated here (a bad
// document must not undo a sale): the worker refuses one at print time and marks its job failed.
import type { NewPrintJob } from '../store/print-queue';
import type { DrawerKickDoc, KitchenLine, KitchenTicketDoc, ReceiptDoc, ReportDoc } from './docs';
import { RECEIPT_PRINTER } from './config';
import { routeKitchenLines, type KitchenRouting } from './routing';

/**
 * The customer receipt (or refund receipt, `doc.variant: 'refund'`) of an order. `key` tells this
 * receipt from the order's others: the payment id for the receipt of a payment, the refund id for
 * a refund, `copy-<n>` for a copy a cashier asks for.
 */
export function receiptJob(input: { orderId: string; key: string; doc: ReceiptDoc; printer?: string }): NewPrintJob {
  const kind = input.doc.variant === 'refund' ? 'refund_receipt' : 'receipt';
  return { printer: input.printer ?? RECEIPT_PRINTER, kind, orderId: input.orderId, payload: input.doc, dedupeKey: `${kind}:${input.orderId}:${input.key}` };
}

/**
 * The kitchen tickets of one version of an order: its lines split among the printers by
 * category (routeKitchenLines), one job per printer, each ticket naming its station. `version`
 * tells this ticket from the order's later ones (1 for the order as placed; then the change's
 * operation id or the order's revision for an ADD or VOID; `fire-<course>` for a course's FIRE). A ticket with no lines queues nothing,
 * except a VOID of the whole order (no lines), which goes to every printer in `voidPrinters`
 * (default: the default printer).
 */
export function kitchenJobs(input: {
  orderId: string;
  version: string | number;
  doc: KitchenTicketDoc;
  routing: KitchenRouting;
  defaultPrinter: string;
  voidPrinters?: readonly string[];
}): NewPrintJob[] {
  const variant = input.doc.variant ?? 'new';
  const kind = variant === 'add' ? 'kitchen_add' : variant === 'void' ? 'kitchen_void' : 'kitchen';
  const groups: { printer: string; lines: KitchenLine[] }[] =
    variant === 'void' && input.doc.lines.length === 0
      ? (input.voidPrinters ?? [input.defaultPrinter]).map((printer) => ({ printer, lines: [] }))
      : routeKitchenLines(input.doc.lines, input.routing, input.defaultPrinter);
  return groups.map(({ printer, lines }) => ({
    printer,
    kind,
    orderId: input.orderId,
    payload: { ...input.doc, lines, station: input.doc.station ?? (printer === RECEIPT_PRINTER ? null : printer) },
    dedupeKey: `${kind}:${input.orderId}:${input.version}:${printer}`,
  }));
}

/** A drawer kick on the receipt printer. `key` makes it once per cause: the cash payment's id, or `nosale:<id>`. */
export function drawerJob(input: { key: string; orderId?: string | null; kick?: DrawerKickDoc; printer?: string }): NewPrintJob {
  return { printer: input.printer ?? RECEIPT_PRINTER, kind: 'drawer', orderId: input.orderId ?? null, payload: input.kick ?? {}, dedupeKey: `drawer:${input.key}` };
}

/** A report (end of day) on the receipt printer. `key`: the business day and till, e.g. `eod:2025-03-14:A`. */
export function reportJob(input: { key: string; doc: ReportDoc; printer?: string }): NewPrintJob {
  return { printer: input.printer ?? RECEIPT_PRINTER, kind: 'report', orderId: null, payload: input.doc, dedupeKey: `report:${input.key}` };
}
