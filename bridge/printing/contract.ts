// The printing room's side of the bridge (docs/printing.md): each printer's state and what waits for
// it, the print jobs a person must look at, and the commands on them (a receipt's preview and reprint,
// the drawer kick, retrying, redirecting or discarding a job). bridge/contract.ts merges them in.
import { z } from 'zod';
import { command, Empty, Id, IsoTime, ManagerPin } from '../primitives';

/** A printer as the cashier sees it: can it print, and what waits for it. */
export const PrinterView = z.object({
  /** "receipt", or the kitchen printer's name ("grill", "bar"). */
  name: z.string(),
  url: z.string(),
  state: z.enum(['ready', 'printing', 'offline', 'paper_out', 'cover_open', 'error']),
  pending: z.number().int().nonnegative(),
  /** Jobs that may have printed (the terminal stopped mid-print): a person says reprint or discard. */
  inDoubt: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  paperLow: z.boolean(),
  /** What to do, in the cashier's words, when the printer needs attention; null when ready. */
  message: z.string().nullable(),
  configured: z.boolean(),
});
export type PrinterView = z.infer<typeof PrinterView>;

export const PrintJobView = z.object({
  id: Id,
  printer: z.string(),
  kind: z.enum(['receipt', 'refund_receipt', 'kitchen', 'kitchen_add', 'kitchen_void', 'drawer', 'report']),
  /** The order it is for ("A17"), if any. */
  orderLabel: z.string().nullable(),
  state: z.enum(['pending', 'sending', 'done', 'failed', 'discarded']),
  /** Why it waits or failed. */
  lastError: z.string().nullable(),
  createdAt: IsoTime,
});
export type PrintJobView = z.infer<typeof PrintJobView>;

export const PrintingStatus = z.object({
  /** False when no printer is configured (printing is off). */
  enabled: z.boolean(),
  printers: z.array(PrinterView),
  /** Jobs a person must look at: in doubt, failed, or waiting for a printer that is not configured. */
  attention: z.array(PrintJobView),
});
export type PrintingStatus = z.infer<typeof PrintingStatus>;

export const printingCommands = {
  'printing.status': command(Empty, PrintingStatus),
  /** The receipt as it prints, as SVG from the same description (a sale's latest receipt, or the one of `paymentId`). */
  'printing.preview': command(z.strictObject({ orderId: Id }), z.object({ svg: z.string(), widthChars: z.number().int() })),
  /** A copy of the order's receipt (marked as a copy). */
  'printing.reprint': command(z.strictObject({ orderId: Id }), PrintingStatus),
  /** Opens the cash drawer without a sale: a manager's, audited. */
  'printing.openDrawer': command(z.strictObject({ managerPin: ManagerPin.optional(), reason: z.string().trim().min(1, 'say why the drawer is opened').max(120) }), PrintingStatus),
  /** A job in doubt or failed: print it again (in doubt: marked REPRINT), to another printer, or not at all (manager). */
  'printing.retryJob': command(z.strictObject({ id: Id }), PrintingStatus),
  'printing.redirectJob': command(z.strictObject({ id: Id, printer: z.string().min(1).max(40) }), PrintingStatus),
  'printing.discardJob': command(z.strictObject({ id: Id, managerPin: ManagerPin.optional() }), PrintingStatus),
  /** A job in doubt came out after all: nothing to print. */
  'printing.confirmPrinted': command(z.strictObject({ id: Id }), PrintingStatus),
};

export const printingEvents = {
  /** A printer's state or its queue changed. */
  'printing.status': PrintingStatus,
};
