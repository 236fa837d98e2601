// The end-of-day (Z) report as the receipt printer's ReportDoc (`reports.print`, printing's
// reportJob): short labels for a 42/48-column roll, every figure formatted as on screen. When the
// cloud is missing records, the report says so at the top, in the list and at the bottom.
import type { ZReport } from '../../../bridge/reports/contract';
import { formatMoney } from '../../../bridge/money';
import type { DocLocation, ReportDoc } from '../../../printing/index';
import { effectiveTimeZone } from '../views';

export const NOT_COMPLETE_TEXT = 'NOT COMPLETE IN THE CLOUD';

type Section = ReportDoc['sections'][number];
type DocRow = Section['rows'][number];

/** printing's ShortText: longer text would make the worker refuse the whole report. */
const MAX_TEXT = 200;
const clip = (text: string) => (text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 3)}...`);
const row = (label: string, value: string): DocRow => ({ label: clip(label), value: clip(value) });
const percent = (ppm: number) => `${Number((ppm / 10_000).toFixed(4))}%`;
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * The time the report was made prints in the location's zone (`timeZone`, '' for none: this
 * computer's) and `locale`, as on screen.
 */
export function zReportDoc(report: ZReport, location: { name: string; address: string; phone: string; timeZone: string; locale: string }): ReportDoc {
  const c = report.currency;
  const money = (amount: number) => formatMoney(amount, c);
  /** A deduction, printed negative ("-$1.50"); nothing is "-$0.00". */
  const minus = (amount: number) => formatMoney(amount === 0 ? 0 : -amount, c);
  /** Over is "+", short is "-". */
  const overShort = (amount: number) => (amount > 0 ? `+${money(amount)}` : money(amount));
  /** What was counted and how far off it was: "not counted" and "-" before any count. */
  const countRows = ({ counted, overShort: off }: { counted: number | null; overShort: number | null }) => [
    row('Counted', counted === null ? 'not counted' : money(counted)),
    row('Over/short', off === null ? '-' : overShort(off)),
  ];
  const sections: Section[] = [];

  if (!report.complete) {
    sections.push({
      title: `${NOT_COMPLETE_TEXT} (${plural(report.notInCloud.length, 'order')})`,
      rows: [
        ...report.notInCloud.map((entry) => row(`${entry.label}: ${entry.what}`, '')),
        ...(report.offlineCards.count > 0 ? [row(`Offline cards (${report.offlineCards.count})`, money(report.offlineCards.amount))] : []),
      ],
    });
  } else if (report.offlineCards.count > 0) {
    // Cards marked stored offline yet delivered: still the exposure until the cloud accepts them.
    sections.push({ title: 'Offline cards', rows: [row(`Offline cards (${report.offlineCards.count})`, money(report.offlineCards.amount))] });
  }

  const s = report.sales;
  sections.push({
    title: 'SALES',
    rows: [
      row('Orders', String(s.orders)),
      row('Gross', money(s.gross)),
      row(`Discounts (${report.discounts.count})`, minus(s.discounts)),
      row(`Comps (${report.comps.count})`, minus(s.comps)),
      row('Net', money(s.net)),
      row('Tax', money(s.tax)),
      row('Total', money(s.total)),
    ],
  });

  if (report.byCategory.length > 0) {
    sections.push({ title: 'BY CATEGORY', rows: report.byCategory.map((r) => row(`${r.category} (${r.quantity})`, money(r.net))) });
  }
  if (report.byItem.length > 0) {
    // An item name sold under two categories names its category.
    const names = new Map<string, number>();
    for (const r of report.byItem) names.set(r.item, (names.get(r.item) ?? 0) + 1);
    sections.push({
      title: 'BY ITEM',
      rows: report.byItem.map((r) => row(`${r.quantity} x ${r.item}${(names.get(r.item) ?? 0) > 1 ? ` (${r.category})` : ''}`, money(r.net))),
    });
  }
  if (report.taxes.length > 0) {
    sections.push({ title: 'TAX', rows: report.taxes.map((t) => row(t.ratePpm > 0 ? `${t.name} ${percent(t.ratePpm)}` : t.name, money(t.amount))) });
  }

  sections.push({
    title: 'TENDERS',
    rows: report.byTender.flatMap((t) => {
      const name = t.method === 'card' ? 'Card' : 'Cash';
      return [row(`${name} (${t.payments})`, money(t.amount)), row(`${name} tips`, money(t.tips)), row(`${name} refunds`, minus(t.refunds)), row(`${name} net`, money(t.net))];
    }),
  });
  if (report.gratuity.checks > 0) {
    sections.push({
      title: 'AUTOMATIC GRATUITY',
      rows: [row(`Large parties (${report.gratuity.checks}), in the tips`, money(report.gratuity.collected)), ...(report.gratuity.tax > 0 ? [row('of which tax', money(report.gratuity.tax))] : [])],
    });
  }
  sections.push({
    title: 'REFUNDS AND VOIDS',
    rows: [row(`Refunds (${report.refunds.count})`, minus(report.refunds.amount)), row(`Voids (${report.voids.count})`, money(report.voids.amount))],
  });

  for (const st of report.byStaff) {
    sections.push({
      title: st.staff.name,
      rows: [
        row('Orders', String(st.orders)),
        row('Sales', money(st.sales)),
        row('Payments', money(st.payments)),
        row('Tips', money(st.tips)),
        row('Refunds', minus(st.refunds)),
        row('Voids', String(st.voids)),
      ],
    });
  }

  if (report.openChecks.count > 0) {
    sections.push({
      title: 'OPEN CHECKS (NOT IN SALES)',
      rows: [
        ...report.openChecks.orders.map((o) => row(`${o.label} ${o.staff?.name ?? ''} due`.replace('  ', ' '), money(o.due))),
        row(`Open checks (${report.openChecks.count})`, money(report.openChecks.total)),
        row('Paid so far', money(report.openChecks.paid)),
        row('Due', money(report.openChecks.due)),
      ],
    });
  }
  if (report.walkouts.count > 0) {
    sections.push({
      title: 'WALKOUTS (NOT IN SALES)',
      rows: [
        ...report.walkouts.orders.flatMap((w) => [
          row(`${w.label} ${w.staff?.name ?? ''}${w.approvedBy ? `, ok ${w.approvedBy.name}` : ''} unpaid`.replace('  ', ' '), money(w.unpaid)),
          row(`  ${w.reason}`, ''),
        ]),
        row(`Walkouts (${report.walkouts.count})`, money(report.walkouts.total)),
        row('Paid', money(report.walkouts.paid)),
        row('Unpaid', money(report.walkouts.unpaid)),
      ],
    });
  }
  if (report.reopened.checks > 0) {
    // Already inside the sales and refunds above: listed to explain them, never added again.
    sections.push({
      title: 'REOPENED CHECKS',
      rows: [
        ...report.reopened.orders.flatMap((r) => [
          row(`${r.label}${r.linkedLabel ? ` > ${r.linkedLabel}` : ''} ${r.staff?.name ?? ''}${r.approvedBy ? `, ok ${r.approvedBy.name}` : ''}`.replace('  ', ' ').trim(), ''),
          row(`  ${r.reason}`, ''),
        ]),
        row(`Reopened (${report.reopened.checks})`, ''),
        row('Added (in sales)', money(report.reopened.added)),
        row('Refunded since (in refunds)', minus(report.reopened.refunded)),
      ],
    });
  }

  // Each drawer on its own, adding up on its own: an open one is not counted yet.
  const maybe = (amount: number | null, show: (a: number) => string) => (amount === null ? 'at close' : show(amount));
  for (const sh of report.shifts) {
    const open = sh.status === 'open';
    sections.push({
      title: `Drawer: ${sh.drawer}${open ? ' (OPEN)' : ''}`,
      rows: [
        row('Opened by', sh.openedBy.name),
        ...(sh.closedBy ? [row('Closed by', sh.closedBy.name)] : [row('Status', 'open')]),
        row('Float', money(sh.float)),
        row('Cash sales', maybe(sh.cashSales, money)),
        row('Cash tips', maybe(sh.cashTips, money)),
        row('Cash refunds', maybe(sh.cashRefunds, minus)),
        ...(sh.cashForOtherTills ? [row('  of which other tills', money(sh.cashForOtherTills))] : []),
        row('Paid outs', minus(sh.paidOuts)),
        row('Drops', minus(sh.drops)),
        row('Expected', maybe(sh.expected, money)),
        ...(open ? [] : countRows(sh)),
      ],
    });
  }
  const cash = report.cash;
  sections.push({
    title: 'CASH (CLOSED SHIFTS)',
    rows: [
      row('Closed shifts', String(cash.closedShifts)),
      ...(cash.openShifts > 0 ? [row('Open shifts, not counted', String(cash.openShifts))] : []),
      row('Float', money(cash.float)),
      row('Cash sales', money(cash.sales)),
      row('Cash tips', money(cash.tips)),
      row('Cash refunds', minus(cash.refunds)),
      // Taken here toward other tills' orders (store mode): the sales are on their reports.
      ...(cash.forOtherTills > 0 ? [row('  of which other tills', money(cash.forOtherTills))] : []),
      row('Paid outs', minus(cash.paidOuts)),
      row('Drops', minus(cash.drops)),
      row('Expected', cash.expected === null ? '-' : money(cash.expected)),
      ...countRows(cash),
    ],
  });
  if (report.unreadable.length > 0) {
    sections.push({ title: `UNREADABLE RECORDS (${report.unreadable.length})`, rows: report.unreadable.map((u) => row(u, '')) });
  }

  const docLocation: DocLocation = {
    name: clip(location.name),
    ...(location.address ? { address: location.address } : {}),
    ...(location.phone ? { phone: clip(location.phone) } : {}),
  };
  return {
    title: 'Z REPORT',
    location: docLocation,
    time: { iso: report.generatedAt, timeZone: effectiveTimeZone(location.timeZone), locale: location.locale },
    subtitle: [`Business day ${report.businessDay}`, `Till ${report.till}`, ...(report.complete ? [] : [`*** ${NOT_COMPLETE_TEXT} ***`])].map(clip),
    sections,
    footer: report.complete ? ['All records are in the cloud.'] : [`*** ${NOT_COMPLETE_TEXT} ***`, 'Print again once every record is synced.'],
  };
}
