// Documents to printer bytes (ESC/POS) or to SVG (the on-screen preview), through one ReceiptLine
// markup each (printing/markup.ts) and receiptline's transform. docs/printing.md says why receiptline.
import type { Printer } from 'receiptline';
import type { z } from 'zod';
import { printableDocument, type PrinterEncoding } from './charset';
import { DrawerKickDoc, KitchenTicketDoc, ReceiptDoc, ReportDoc } from './docs';
import { formatTime, kitchenMarkup, receiptMarkup, reportMarkup } from './markup';
import { transform } from './receiptline';

export { PRINTER_ENCODINGS, type PrinterEncoding } from './charset';

/** receiptline's ESC/POS command sets: 'escpos' for Epson TM and compatibles (Star in ESC/POS emulation), 'generic' for clones. */
export const ESCPOS_COMMAND_SETS = ['escpos', 'epson', 'sii', 'citizen', 'fit', 'generic', 'impact', 'impactb'] as const;
export type EscPosCommandSet = (typeof ESCPOS_COMMAND_SETS)[number];

export type RenderTarget = 'escpos' | 'svg';

export interface RenderOptions {
  /** 'escpos' (default): printer bytes; 'svg': the preview. */
  target?: RenderTarget;
  /** Characters per line: 48 on 80 mm paper (Font A), 42 on many, 32 on 58 mm. Default 48. */
  cpl?: number;
  encoding?: PrinterEncoding;
  commandSet?: EscPosCommandSet;
  /** Cut the paper at the end (default true). */
  cut?: boolean;
  /** The job may have printed before (a person sent it again): it says REPRINT. */
  reprint?: boolean;
  /**
   * A receipt whose document names its cloud records (`cloud`): whether they were all confirmed
   * when it prints (the worker reads it then). Leaves the document's `unconfirmed` as it is when absent.
   */
  cloudConfirmed?: boolean;
}

export const DEFAULT_CPL = 48;

/** receiptline's SVG asks a web font from a CDN: the terminal is offline-first and its page's CSP forbids it. */
const WEB_FONT_IMPORT = /<style type="text\/css"><!\[CDATA\[@import url\("[^"]*"\);\]\]><\/style>/g;

function transformMarkup(markup: string, options: RenderOptions): Buffer | string {
  const cpl = options.cpl ?? DEFAULT_CPL;
  const printer: Printer = { cpl, encoding: options.encoding ?? 'multilingual', spacing: false };
  if (options.target === 'svg') return transform(markup, printer).replace(WEB_FONT_IMPORT, '');
  const bytes = transform(markup, { ...printer, command: options.commandSet ?? 'escpos', cutting: options.cut ?? true, upsideDown: false });
  // receiptline returns the command bytes as a binary string (one char per byte).
  return Buffer.from(bytes, 'latin1');
}

/**
 * A parsed document's text as this printer can print it (printing/charset.ts), its time formatted
 * first: the bytes and the preview carry the same characters.
 */
function printable<T extends { time: z.output<typeof ReceiptDoc>['time'] }>(doc: T, options: RenderOptions): T {
  return printableDocument({ ...doc, time: formatTime(doc.time) }, options.encoding ?? 'multilingual');
}

function receiptOptions(doc: z.output<typeof ReceiptDoc>, options: RenderOptions): { reprint?: boolean; unconfirmed?: boolean } {
  const unconfirmed = doc.cloud && doc.cloud.records.length > 0 && options.cloudConfirmed !== undefined ? !options.cloudConfirmed : doc.unconfirmed;
  return { reprint: options.reprint, unconfirmed };
}

/** Customer receipt (or the refund receipt, `variant: 'refund'`). Throws a ZodError on a document that is not one. */
export function renderReceipt(doc: ReceiptDoc, options: RenderOptions & { target: 'svg' }): string;
export function renderReceipt(doc: ReceiptDoc, options?: RenderOptions & { target?: 'escpos' }): Buffer;
export function renderReceipt(doc: ReceiptDoc, options: RenderOptions = {}): Buffer | string {
  const parsed = printable(ReceiptDoc.parse(doc), options);
  return transformMarkup(receiptMarkup(parsed, options.cpl ?? DEFAULT_CPL, receiptOptions(parsed, options)), options);
}

/** Kitchen ticket: large type, seats, modifiers indented, notes; 'add', 'void' and 'fire' variants carry a banner. */
export function renderKitchenTicket(doc: KitchenTicketDoc, options: RenderOptions & { target: 'svg' }): string;
export function renderKitchenTicket(doc: KitchenTicketDoc, options?: RenderOptions & { target?: 'escpos' }): Buffer;
export function renderKitchenTicket(doc: KitchenTicketDoc, options: RenderOptions = {}): Buffer | string {
  return transformMarkup(kitchenMarkup(printable(KitchenTicketDoc.parse(doc), options), options.cpl ?? DEFAULT_CPL, options), options);
}

/** The end-of-day report (titled rows). */
export function renderReport(doc: ReportDoc, options: RenderOptions & { target: 'svg' }): string;
export function renderReport(doc: ReportDoc, options?: RenderOptions & { target?: 'escpos' }): Buffer;
export function renderReport(doc: ReportDoc, options: RenderOptions = {}): Buffer | string {
  return transformMarkup(reportMarkup(printable(ReportDoc.parse(doc), options), options.cpl ?? DEFAULT_CPL), options);
}

/** ESC p m t1 t2: pulse the drawer kick-out connector (pin 2: m = 0, pin 5: m = 1; t in 2 ms units). */
export function drawerKickBytes(kick: DrawerKickDoc = {}): Buffer {
  const { pin, onMs, offMs } = DrawerKickDoc.parse(kick);
  return Buffer.from([0x1b, 0x70, pin === 2 ? 0 : 1, Math.max(1, Math.round(onMs / 2)), Math.max(1, Math.round(offMs / 2))]);
}

/** The kinds of print job (store/print-queue.ts PRINT_JOB_KINDS), restated so rendering does not depend on the store. */
export type RenderableKind = 'receipt' | 'refund_receipt' | 'kitchen' | 'kitchen_add' | 'kitchen_void' | 'drawer' | 'report';

/**
 * A queued job's payload to bytes (or its preview). The kind decides the document and its
 * variant: a 'kitchen_add' job prints an ADD ticket whatever its payload says. Throws (a ZodError)
 * on a payload that is not that kind's document: the worker marks such a job failed.
 */
export function renderJob(kind: RenderableKind, payload: unknown, options: RenderOptions & { target: 'svg' }): string;
export function renderJob(kind: RenderableKind, payload: unknown, options?: RenderOptions & { target?: 'escpos' }): Buffer;
export function renderJob(kind: RenderableKind, payload: unknown, options: RenderOptions = {}): Buffer | string {
  const cpl = options.cpl ?? DEFAULT_CPL;
  switch (kind) {
    case 'receipt':
    case 'refund_receipt': {
      const doc = printable(ReceiptDoc.parse(payload), options);
      return transformMarkup(receiptMarkup({ ...doc, variant: kind === 'receipt' ? 'sale' : 'refund' }, cpl, receiptOptions(doc, options)), options);
    }
    case 'kitchen':
    case 'kitchen_add':
    case 'kitchen_void': {
      const doc = printable(KitchenTicketDoc.parse(payload), options);
      // A 'kitchen' job is the order's ticket, or a course's FIRE ticket when its document says so.
      const variant = kind === 'kitchen' ? (doc.variant === 'fire' ? 'fire' : 'new') : kind === 'kitchen_add' ? 'add' : 'void';
      return transformMarkup(kitchenMarkup({ ...doc, variant }, cpl, options), options);
    }
    case 'report':
      return transformMarkup(reportMarkup(printable(ReportDoc.parse(payload), options), cpl), options);
    case 'drawer': {
      const bytes = drawerKickBytes(DrawerKickDoc.parse(payload ?? {}));
      if (options.target === 'svg') return transformMarkup('{width:*}\n"Cash drawer"\n', { ...options, cut: false });
      return bytes;
    }
  }
}

/**
 * The cloud records a queued receipt's document names (`cloud`), and how long it may wait for
 * them, without rendering it; null for any other job or a payload that is not a receipt.
 */
export function receiptCloudRecords(kind: RenderableKind, payload: unknown): { records: { kind: string; id: string }[]; waitMs: number } | null {
  if (kind !== 'receipt' && kind !== 'refund_receipt') return null;
  const parsed = ReceiptDoc.safeParse(payload);
  const cloud = parsed.success ? parsed.data.cloud : null;
  return cloud && cloud.records.length > 0 ? cloud : null;
}
