// Documents to ReceiptLine markup (the receipt description language receiptline renders to ESC/POS
// bytes and to SVG). One markup per document serves both the printer and the on-screen preview.
// Text from the documents is escaped (a dish called "Fish | Chips" stays one column) and wrapped
// at word boundaries here, because receiptline wraps in the middle of words.
import type { z } from 'zod';
import { DOC_TIME_LOCALE, type DocAmount, type DocLocation, type DocService, type DocTime, type KitchenTicketDoc, type ReceiptDoc, type ReportDoc } from './docs';

type Receipt = z.output<typeof ReceiptDoc>;
type KitchenTicket = z.output<typeof KitchenTicketDoc>;
type Report = z.output<typeof ReportDoc>;

export const UNCONFIRMED_TEXT = 'NOT YET CONFIRMED BY THE CLOUD';
export const REPRINT_TEXT = 'REPRINT - may have printed already';
export const COPY_TEXT = 'COPY';
export const NOT_A_RECEIPT_TEXT = 'NOT A RECEIPT - payment still due';

/** Characters receiptline reads as markup, escaped with a backslash wherever they appear in text. */
const SPECIAL = /[\\|{}\-=~_"`^]/g;

/** One line of plain text as ReceiptLine text: controls become spaces, markup characters are escaped. */
export function escapeText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(SPECIAL, '\\$&');
}

/** Printer columns a character takes: East Asian wide characters take two. */
function charWidth(ch: string): number {
  const code = ch.codePointAt(0) ?? 0;
  return (code >= 0x1100 && code <= 0x115f) || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60) || (code >= 0xffe0 && code <= 0xffe6) || code >= 0x20000
    ? 2
    : 1;
}

export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += charWidth(ch);
  return width;
}

/**
 * Word-wraps plain text to lines of at most `width` printer columns; a word longer than a line is
 * cut. Line breaks in the text are kept. `indent` columns of spaces start every line after the first.
 */
export function wrapText(text: string, width: number, indent = 0): string[] {
  const max = Math.max(1, width);
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    let lineWidth = 0;
    let hasWord = false;
    const newLine = () => {
      lines.push(line);
      line = ' '.repeat(indent);
      lineWidth = indent;
      hasWord = false;
    };
    for (const word of paragraph.split(/\s+/).filter((w) => w !== '')) {
      const wordWidth = textWidth(word);
      const gap = hasWord ? 1 : 0;
      if (lineWidth + gap + wordWidth <= max) {
        line += (gap ? ' ' : '') + word;
        lineWidth += gap + wordWidth;
        hasWord = true;
        continue;
      }
      if (hasWord) newLine();
      if (lineWidth + wordWidth <= max) {
        line += word;
        lineWidth += wordWidth;
        hasWord = true;
        continue;
      }
      // A word longer than a line: cut it.
      for (const ch of word) {
        const w = charWidth(ch);
        if (lineWidth + w > max && hasWord) newLine();
        line += ch;
        lineWidth += w;
        hasWord = true;
      }
    }
    lines.push(line);
  }
  return lines;
}

/**
 * Wrapped, escaped text for one column: `~` keeps leading spaces (receiptline trims plain ones),
 * `\n` breaks lines. Lines stop one short of the column: a line filling it exactly would make
 * receiptline break it itself, then print the `\n` as an empty line.
 */
function columnText(text: string, width: number, indent = 0, continuationIndent = indent): string {
  return wrapText(text, width - indent - 1, continuationIndent - indent)
    .map((line) => '~'.repeat(indent) + escapeText(line).replace(/^ +/, (spaces) => '~'.repeat(spaces.length)))
    .join('\\n');
}

export function formatTime(time: DocTime): string {
  if (typeof time === 'string') return time;
  try {
    return new Intl.DateTimeFormat(time.locale ?? DOC_TIME_LOCALE, { timeZone: time.timeZone, dateStyle: 'short', timeStyle: 'short' }).format(new Date(time.iso));
  } catch {
    // An unknown zone or locale: the instant as given still tells the time.
    return time.iso;
  }
}

export function serviceText(service: DocService | null | undefined): string {
  if (!service) return '';
  const parts: string[] = [];
  if (service.type === 'dine_in') parts.push('Dine in');
  if (service.type === 'takeout') parts.push('Takeout');
  if (service.type === 'delivery') parts.push('Delivery');
  if (service.table) parts.push(`Table ${service.table}`);
  if (service.guests) parts.push(`${service.guests} ${service.guests === 1 ? 'guest' : 'guests'}`);
  if (service.customerName) parts.push(service.customerName);
  return parts.join(' - ');
}

/** Centered lines of text (a header), each wrapped to the line, each between `open` and `close` (decorations). */
function centered(text: string, cpl: number, open = '', close = ''): string[] {
  return wrapText(text, cpl).map((line) => (line === '' ? '' : `${open}${escapeText(line)}${close}`));
}

/** A row of two columns: the label on the left (wrapped), the amount on the right. */
class TwoColumns {
  readonly labelWidth: number;
  constructor(
    readonly cpl: number,
    readonly amountWidth: number,
  ) {
    // One column of space between them (border: space).
    this.labelWidth = cpl - amountWidth - 1;
  }

  get widths(): string {
    return `{width:*,${this.amountWidth}}`;
  }

  row(label: string, amount: string, options: { indent?: number; big?: boolean; emphasis?: boolean } = {}): string {
    const size = options.big ? '^' : '';
    const labelWidth = options.big ? Math.floor(this.labelWidth / 2) : this.labelWidth;
    const indent = options.indent ?? 0;
    let left = columnText(label, labelWidth, indent, indent + 2);
    if (options.emphasis) left = `"${left}"`;
    return `|${size}${left} |${amount === '' ? '' : ` ${size}${escapeText(amount)}`}|`;
  }
}

/** The gratuity's rows: its amount, its tax where taxed, who took it off and why. */
function gratuityRows(gratuity: NonNullable<Receipt['gratuity']>, columns: TwoColumns): string[] {
  const rows = [columns.row(gratuity.label, gratuity.amount)];
  if (gratuity.tax) rows.push(columns.row(gratuity.tax.label, gratuity.tax.amount, { indent: 2 }));
  if (gratuity.removed) rows.push(columns.row(gratuity.removed, '', { indent: 2 }));
  return rows;
}

function amountColumn(cpl: number, amounts: readonly string[], bigAmounts: readonly string[]): number {
  const widest = Math.max(8, ...amounts.map(textWidth), ...bigAmounts.map((a) => textWidth(a) * 2));
  return Math.min(widest, Math.floor(cpl / 2));
}

function locationHeader(location: DocLocation, cpl: number): string[] {
  const out = ['{width:*}', ...centered(location.name, cpl, '^^"', '"')];
  if (location.address) out.push(...centered(location.address, cpl));
  if (location.phone) out.push(...centered(location.phone, cpl));
  if (location.taxId) out.push(...centered(location.taxId, cpl));
  return out;
}

/** A banner in inverted type, wrapped to fit: REFUND, ADD, VOID. */
function banner(text: string, cpl: number, size: '^^' | '^^^'): string[] {
  const perLine = size === '^^^' ? Math.floor(cpl / 2) - 2 : cpl - 2;
  return wrapText(text, perLine).map((line) => `\`${size}~${escapeText(line)}~\``);
}

export function receiptMarkup(doc: Receipt, cpl: number, options: { reprint?: boolean; unconfirmed?: boolean } = {}): string {
  const unconfirmed = options.unconfirmed ?? doc.unconfirmed;
  const totalsAmounts = [doc.totals.subtotal ?? '', ...doc.totals.discounts.map((d) => d.amount), ...doc.totals.taxes.map((t) => t.amount), doc.totals.tip ?? ''];
  const lineAmounts = doc.lines.flatMap((l) => [l.amount, l.discount?.amount ?? '']);
  const paymentAmounts = doc.payments.flatMap((p) => [p.amount, p.tip ?? '']);
  const dueAmounts = [doc.due?.paidSoFar ?? '', ...(doc.bill ? [] : [doc.due?.amount ?? '']), ...doc.tipGuide.map((t) => t.amount)];
  const gratuity = doc.gratuity ?? null;
  const gratuityAmounts = gratuity === null ? [] : [gratuity.amount, gratuity.tax?.amount ?? ''];
  const bigAmounts = [doc.totals.total, ...(doc.bill && doc.due ? [doc.due.amount] : []), gratuity?.dueWithGratuity ?? ''];
  const columns = new TwoColumns(cpl, amountColumn(cpl, [...totalsAmounts, ...lineAmounts, ...paymentAmounts, ...dueAmounts, ...gratuityAmounts, doc.change ?? ''], bigAmounts));
  const out: string[] = locationHeader(doc.location, cpl);
  out.push('');
  if (doc.variant === 'refund') out.push(...banner('REFUND', cpl, '^^^'));
  if (doc.bill) out.push(...banner('BILL', cpl, '^^^'), ...centered(NOT_A_RECEIPT_TEXT, cpl, '"', '"'));
  if (doc.copy) out.push(...banner(COPY_TEXT, cpl, '^^'));
  if (options.reprint) out.push(...centered(REPRINT_TEXT, cpl, '"', '"'));
  if (unconfirmed) out.push(...banner(UNCONFIRMED_TEXT, cpl, '^^'));
  out.push('---', `{width:*,${Math.min(Math.max(textWidth(doc.tillLetter) + 5, 8), Math.floor(cpl / 2))}}`);
  out.push(`|^^Order ${escapeText(doc.orderLabel)} | Till ${escapeText(doc.tillLetter)}|`);
  out.push('{width:*}', `|${columnText(formatTime(doc.time), cpl)}`);
  const service = serviceText(doc.service);
  if (service) out.push(`|${columnText(service, cpl)}`);
  if (doc.cashier) out.push(`|${columnText(`Served by ${doc.cashier}`, cpl)}`);
  if (doc.variant === 'refund' && doc.refund?.originalOrder) out.push(`|${columnText(`Refund of ${doc.refund.originalOrder}`, cpl)}`);
  if (doc.variant === 'refund' && doc.refund?.reason) out.push(`|${columnText(`Reason: ${doc.refund.reason}`, cpl)}`);

  if (doc.lines.length > 0) {
    out.push('---', columns.widths);
    for (const line of doc.lines) {
      out.push(columns.row(`${line.quantity} x ${line.name}`, line.amount));
      for (const modifier of line.modifiers) out.push(columns.row(`+ ${modifier}`, '', { indent: 2 }));
      if (line.note) out.push(columns.row(`Note: ${line.note}`, '', { indent: 2 }));
      if (line.discount) out.push(columns.row(line.discount.label, line.discount.amount, { indent: 2 }));
    }
  }

  out.push('---', columns.widths);
  const amountRow = (a: DocAmount) => columns.row(a.label, a.amount);
  if (doc.totals.subtotal !== null) out.push(columns.row(doc.totals.subtotalLabel, doc.totals.subtotal));
  out.push(...doc.totals.discounts.map(amountRow));
  if (!doc.totals.taxIncluded) out.push(...doc.totals.taxes.map(amountRow));
  out.push(columns.row(doc.variant === 'refund' ? 'REFUNDED' : 'TOTAL', doc.totals.total, { big: true, emphasis: true }));
  if (gratuity !== null && !doc.bill) out.push(...gratuityRows(gratuity, columns));
  if (doc.totals.tip) out.push(columns.row('Tip', doc.totals.tip));
  if (doc.totals.taxIncluded) out.push(...doc.totals.taxes.map((t) => columns.row(`incl. ${t.label}`, t.amount)));

  if (doc.payments.length > 0 || doc.change) {
    out.push('---');
    for (const payment of doc.payments) {
      out.push(columns.row(payment.tender, payment.amount));
      if (payment.tip) out.push(columns.row('Tip', payment.tip, { indent: 2 }));
      if (payment.splitPart) out.push(columns.row(`Split ${payment.splitPart}`, '', { indent: 2 }));
    }
    if (doc.change) out.push(columns.row('Change', doc.change, { emphasis: true }));
  }
  if (doc.due) {
    out.push('---');
    if (doc.due.paidSoFar) out.push(columns.row('Paid so far', doc.due.paidSoFar));
    out.push(columns.row(doc.bill ? 'DUE' : 'Balance due', doc.due.amount, { big: doc.bill, emphasis: true }));
    if (gratuity !== null && doc.bill) {
      out.push(...gratuityRows(gratuity, columns));
      if (gratuity.dueWithGratuity) out.push(columns.row('WITH GRATUITY', gratuity.dueWithGratuity, { big: true, emphasis: true }));
    }
  }
  if (doc.tipGuide.length > 0) {
    out.push('{width:*}', '', `|${columnText(`Suggested tip (on ${doc.tipGuideOn}):`, cpl)}`, columns.widths);
    out.push(...doc.tipGuide.map((t) => columns.row(t.label, t.amount, { indent: 2 })));
  }
  if (doc.bill) out.push('{width:*}', '', ...centered(NOT_A_RECEIPT_TEXT, cpl, '"', '"'));
  if (doc.copy) out.push('{width:*}', '', ...centered(COPY_TEXT, cpl, '"', '"'));
  if (unconfirmed) out.push('{width:*}', '', ...centered(UNCONFIRMED_TEXT, cpl, '"', '"'));
  if (doc.footer.length > 0) out.push('{width:*}', '', ...doc.footer.flatMap((line) => centered(line, cpl)));
  return out.join('\n') + '\n';
}

export function kitchenMarkup(doc: KitchenTicket, cpl: number, options: { reprint?: boolean } = {}): string {
  const big = Math.floor(cpl / 2); // columns of 2x-size characters on a line
  const out: string[] = ['{width:*}'];
  if (doc.variant === 'add') out.push(...banner('ADD', cpl, '^^^'));
  if (doc.variant === 'void') out.push(...banner('VOID', cpl, '^^^'));
  if (doc.variant === 'fire') {
    // What the pass calls out: which table (or order, with no table) and which course.
    out.push(...banner('FIRE', cpl, '^^^'));
    const where = doc.service?.table ? `Table ${doc.service.table}` : doc.orderLabel;
    out.push(...centered([where, doc.course ?? ''].filter(Boolean).join(' - ').toUpperCase(), Math.floor(cpl / 2), '^^^'));
  }
  if (options.reprint) out.push(...banner('REPRINT', cpl, '^^'));
  const label = escapeText(doc.orderLabel);
  out.push(textWidth(doc.orderLabel) * 3 <= cpl ? `^^^^${label}` : `^^^${label}`);
  const service = serviceText(doc.service).toUpperCase();
  if (service) out.push(...centered(service, cpl, '^^'));
  out.push(`{width:*,${Math.min(Math.floor(cpl / 2), Math.max(8, textWidth(formatTime(doc.time))))}}`);
  const till = [`Till ${doc.tillLetter}`, doc.station ? doc.station.toUpperCase() : ''].filter(Boolean).join(' - ');
  out.push(`|${escapeText(till)} | ${escapeText(formatTime(doc.time))}|`);
  out.push('{width:*}', '---');
  doc.lines.forEach((line, index) => {
    if (index > 0) out.push('');
    const seat = line.seat == null ? '' : `S${line.seat} `;
    out.push(`|^^^${columnText(`${seat}${line.quantity} x ${line.name}`, big, 0, 2)}`);
    for (const modifier of line.modifiers) out.push(`|^^${columnText(`+ ${modifier}`, cpl, 2, 4)}`);
    if (line.note) out.push(`|^^"${columnText(`NOTE: ${line.note}`, cpl, 2, 4)}"`);
  });
  if (doc.lines.length === 0 && doc.variant === 'void') out.push(...centered('WHOLE ORDER', Math.floor(cpl / 2), '^^^'));
  out.push('---');
  if (doc.orderNote) out.push(`|^^"${columnText(`ORDER NOTE: ${doc.orderNote}`, cpl)}"`);
  if (doc.cashier) out.push(`|${columnText(`Served by ${doc.cashier}`, cpl)}`);
  return out.join('\n') + '\n';
}

export function reportMarkup(doc: Report, cpl: number): string {
  const values = doc.sections.flatMap((s) => s.rows.map((r) => r.value));
  const columns = new TwoColumns(cpl, amountColumn(cpl, values, []));
  const out: string[] = ['{width:*}', ...centered(doc.title, cpl, '^^"', '"')];
  if (doc.location) out.push(...centered(doc.location.name, cpl));
  for (const line of doc.subtitle) out.push(...centered(line, cpl));
  out.push(...centered(formatTime(doc.time), cpl));
  for (const section of doc.sections) {
    out.push('{width:*}', '---');
    if (section.title) out.push(`|"${columnText(section.title, cpl)}"`);
    out.push(columns.widths);
    for (const row of section.rows) out.push(columns.row(row.label, row.value));
  }
  out.push('{width:*}', '---');
  for (const line of doc.footer) out.push(...centered(line, cpl));
  return out.join('\n') + '\n';
}
