// The end-of-day (Z) report as CSV (`reports.csv`): RFC 4180 (CRLF, quoted fields, doubled
// quotes), a header block, then one block per section (a title row, a header row, the rows)
// separated by an empty line. Amounts are in major units with the currency's digits ("10.50",
// "-1.50", "1050" in yen); counts are whole numbers. Text that a spreadsheet would read as a
// formula (= + - @, or a tab or CR first) gets a leading apostrophe; numbers are never text cells.
import type { ZReport } from '../../../bridge/contract';
import { minorDigits } from '../../../bridge/money';

/** A cell: text (guarded against formula injection) or a number already written as a plain decimal. */
type Cell = { text: string } | { number: string };
type Row = Cell[];

const FORMULA_START = /^[=+\-@\t\r]/;

function cellText(cell: Cell): string {
  const raw = 'text' in cell ? (FORMULA_START.test(cell.text) ? `'${cell.text}` : cell.text) : cell.number;
  return /[",\r\n]/.test(raw) ? `"${raw.replace(/"/g, '""')}"` : raw;
}

/** Integer minor units as a plain decimal of major units: 1050 usd → "10.50", -150 → "-1.50", 1050 jpy → "1050". */
export function majorUnits(amount: number, digits: number): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`not an amount in minor units: ${amount}`);
  const sign = amount < 0 ? '-' : '';
  const abs = String(Math.abs(amount)).padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${abs}` : `${sign}${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
}

/** A rate in parts per million as a percentage: 200000 → "20", 88750 → "8.875". */
export function ratePercent(ratePpm: number): string {
  const s = majorUnits(ratePpm, 4);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** A file name part: letters, digits, "-" and "_" only. */
const safeName = (part: string) => part.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';

export function zReportCsv(report: ZReport): { filename: string; csv: string } {
  const digits = minorDigits(report.currency);
  const t = (text: string): Cell => ({ text });
  const n = (count: number): Cell => ({ number: String(count) });
  const m = (amount: number): Cell => ({ number: majorUnits(amount, digits) });
  const mOrEmpty = (amount: number | null): Cell => (amount === null ? t('') : m(amount));

  const header: Row[] = [
    [t('report'), t('Z report (end of day)')],
    [t('business day'), t(report.businessDay)],
    [t('location'), t(report.location)],
    [t('till'), t(report.till)],
    [t('generated at'), t(report.generatedAt)],
    [t('currency'), t(report.currency.toUpperCase())],
    [t('complete'), t(report.complete ? 'yes' : 'no')],
  ];
  const block = (title: string, columns: string[], rows: Row[]): Row[] => [[t(title)], columns.map(t), ...rows];
  const s = report.sales;
  const blocks: Row[][] = [
    header,
    block('sales', ['orders', 'gross', 'discounts', 'comps', 'net', 'tax', 'total'], [[n(s.orders), m(s.gross), m(s.discounts), m(s.comps), m(s.net), m(s.tax), m(s.total)]]),
    block(
      'by category',
      ['category', 'quantity', 'gross', 'discounts', 'net'],
      report.byCategory.map((r) => [t(r.category), n(r.quantity), m(r.gross), m(r.discounts), m(r.net)]),
    ),
    block(
      'by item',
      ['item', 'category', 'quantity', 'gross', 'discounts', 'net'],
      report.byItem.map((r) => [t(r.item), t(r.category), n(r.quantity), m(r.gross), m(r.discounts), m(r.net)]),
    ),
    block('taxes', ['tax', 'rate percent', 'amount'], report.taxes.map((r) => [t(r.name), { number: ratePercent(r.ratePpm) }, m(r.amount)])),
    block(
      'by tender',
      ['tender', 'payments', 'amount', 'tips', 'refunds', 'net'],
      report.byTender.map((r) => [t(r.method), n(r.payments), m(r.amount), m(r.tips), m(r.refunds), m(r.net)]),
    ),
    block('tips', ['card', 'cash'], [[m(report.tips.card), m(report.tips.cash)]]),
    block('discounts', ['count', 'amount'], [[n(report.discounts.count), m(report.discounts.amount)]]),
    block('comps', ['count', 'amount'], [[n(report.comps.count), m(report.comps.amount)]]),
    block('refunds', ['count', 'amount', 'card', 'cash'], [[n(report.refunds.count), m(report.refunds.amount), m(report.refunds.card), m(report.refunds.cash)]]),
    block('voids', ['count', 'amount'], [[n(report.voids.count), m(report.voids.amount)]]),
    block(
      'open checks',
      ['order', 'staff', 'total', 'paid', 'due'],
      [
        ...report.openChecks.orders.map((c) => [t(c.label), t(c.staff?.name ?? ''), m(c.total), m(c.paid), m(c.due)]),
        [t(`all ${report.openChecks.count}`), t(''), m(report.openChecks.total), m(report.openChecks.paid), m(report.openChecks.due)],
      ],
    ),
    block(
      'walkouts',
      ['order', 'closed by', 'approved by', 'reason', 'total', 'paid', 'unpaid'],
      [
        ...report.walkouts.orders.map((w) => [t(w.label), t(w.staff?.name ?? ''), t(w.approvedBy?.name ?? ''), t(w.reason), m(w.total), m(w.paid), m(w.unpaid)]),
        [t(`all ${report.walkouts.count}`), t(''), t(''), t(''), m(report.walkouts.total), m(report.walkouts.paid), m(report.walkouts.unpaid)],
      ],
    ),
    block('offline cards', ['count', 'amount'], [[n(report.offlineCards.count), m(report.offlineCards.amount)]]),
    block(
      'by staff',
      ['staff', 'orders', 'sales', 'payments', 'tips', 'refunds', 'voids'],
      report.byStaff.map((r) => [t(r.staff.name), n(r.orders), m(r.sales), m(r.payments), m(r.tips), m(r.refunds), n(r.voids)]),
    ),
    block('not in the cloud', ['order', 'what'], report.notInCloud.map((r) => [t(r.label), t(r.what)])),
    block(
      'shifts',
      ['drawer', 'status', 'opened at', 'opened by', 'closed at', 'closed by', 'float', 'cash sales', 'cash tips', 'cash refunds', 'paid outs', 'drops', 'expected', 'counted', 'over short'],
      report.shifts.map((sh) => [
        t(sh.drawer),
        t(sh.status),
        t(sh.openedAt),
        t(sh.openedBy.name),
        t(sh.closedAt ?? ''),
        t(sh.closedBy?.name ?? ''),
        m(sh.float),
        mOrEmpty(sh.cashSales),
        mOrEmpty(sh.cashTips),
        mOrEmpty(sh.cashRefunds),
        m(sh.paidOuts),
        m(sh.drops),
        mOrEmpty(sh.expected),
        mOrEmpty(sh.counted),
        mOrEmpty(sh.overShort),
      ]),
    ),
    block(
      'cash of the closed shifts',
      ['closed shifts', 'open shifts', 'float', 'sales', 'tips', 'refunds', 'paid outs', 'drops', 'expected', 'counted', 'over short'],
      [
        [
          n(report.cash.closedShifts),
          n(report.cash.openShifts),
          m(report.cash.float),
          m(report.cash.sales),
          m(report.cash.tips),
          m(report.cash.refunds),
          m(report.cash.paidOuts),
          m(report.cash.drops),
          mOrEmpty(report.cash.expected),
          mOrEmpty(report.cash.counted),
          mOrEmpty(report.cash.overShort),
        ],
      ],
    ),
    block('unreadable records', ['what'], report.unreadable.map((u) => [t(u)])),
  ];
  const csv = blocks.map((rows) => rows.map((row) => row.map(cellText).join(',') + '\r\n').join('')).join('\r\n');
  return { filename: `z-report-${safeName(report.businessDay)}-till-${safeName(report.till)}.csv`, csv };
}
