// The end-of-day (Z) report as CSV (`reports.csv`): RFC 4180 (CRLF, quoted fields, doubled
// quotes), a header block, then one block per section (a title row, a header row, the rows)
// separated by an empty line. Amounts are in major units with the currency's digits ("10.50",
// "-1.50", "1050" in yen); counts are whole numbers. Text that a spreadsheet would read as a
// formula (= + - @, or a tab or CR first) gets a leading apostrophe; numbers are never text cells.
// Times are the location's wall clock, as on screen and on paper, written as spreadsheets read a
// date and time (2025-03-14 21:10:00); the header and each time's column name the zone.
import type { ZReport } from '../../../bridge/reports/contract';
import { minorDigits } from '../../../bridge/money';
import { effectiveTimeZone } from '../views';

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

const WALL_CLOCK = { hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' } as const;

/** An ISO instant as the wall clock of `timeZone` (an IANA zone), YYYY-MM-DD HH:MM:SS. */
export function wallClockTime(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { ...WALL_CLOCK, timeZone }).formatToParts(Date.parse(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

/** A file name part: letters, digits, "-" and "_" only. */
const safeName = (part: string) => part.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';

/**
 * The report's CSV, its times in the location's zone (`timeZone`; '' for none: this computer's, as
 * the screens and the paper then tell them).
 */
export function zReportCsv(report: ZReport, location: { timeZone: string }): { filename: string; csv: string } {
  const digits = minorDigits(report.currency);
  const zone = effectiveTimeZone(location.timeZone);
  const t = (text: string): Cell => ({ text });
  const time = (iso: string | null): Cell => t(iso === null ? '' : wallClockTime(iso, zone));
  const timeColumn = (name: string) => `${name} (${zone})`;
  const n = (count: number): Cell => ({ number: String(count) });
  const m = (amount: number): Cell => ({ number: majorUnits(amount, digits) });
  const mOrEmpty = (amount: number | null): Cell => (amount === null ? t('') : m(amount));

  const header: Row[] = [
    [t('report'), t('Z report (end of day)')],
    [t('business day'), t(report.businessDay)],
    [t('location'), t(report.location)],
    [t('till'), t(report.till)],
    [t('time zone'), t(zone)],
    [t('generated at'), time(report.generatedAt)],
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
    block('automatic gratuity', ['checks', 'collected (in the tips)', 'of which tax'], [[n(report.gratuity.checks), m(report.gratuity.collected), m(report.gratuity.tax)]]),
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
    // Added: the linked checks' net sales, inside the sales above; refunded: inside the refunds above.
    block(
      'reopened checks',
      ['order', 'linked check', 'reopened by', 'approved by', 'reason', 'added (in sales)', 'refunded since (in refunds)'],
      [
        ...report.reopened.orders.map((r) => [t(r.label), t(r.linkedLabel ?? ''), t(r.staff?.name ?? ''), t(r.approvedBy?.name ?? ''), t(r.reason), m(r.added), m(r.refunded)]),
        [t(`all ${report.reopened.checks}`), t(''), t(''), t(''), t(''), m(report.reopened.added), m(report.reopened.refunded)],
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
      ['drawer', 'status', timeColumn('opened at'), 'opened by', timeColumn('closed at'), 'closed by', 'float', 'cash sales', 'cash tips', 'cash refunds', 'paid outs', 'drops', 'expected', 'counted', 'over short'],
      report.shifts.map((sh) => [
        t(sh.drawer),
        t(sh.status),
        time(sh.openedAt),
        t(sh.openedBy.name),
        time(sh.closedAt),
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
      // 'for other tills' last: the columns before keep their places for the sheets that read them.
      ['closed shifts', 'open shifts', 'float', 'sales', 'tips', 'refunds', 'paid outs', 'drops', 'expected', 'counted', 'over short', 'of sales and tips for other tills'],
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
          m(report.cash.forOtherTills),
        ],
      ],
    ),
    block('unreadable records', ['what'], report.unreadable.map((u) => [t(u)])),
  ];
  const csv = blocks.map((rows) => rows.map((row) => row.map(cellText).join(',') + '\r\n').join('')).join('\r\n');
  return { filename: `z-report-${safeName(report.businessDay)}-till-${safeName(report.till)}.csv`, csv };
}
