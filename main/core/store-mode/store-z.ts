// The Z report's store view (docs/staff.md, "The store's day"): the business day across every till this
// one knows. This till's row is its own Z report's figures; each other till's row is summed by the same
// buildZReport from the documents its log replicated here, read as that till's own Z report reads its
// own (an order on the business day it was sold, money on the day it was taken). The totals are the
// rows added up, figure by figure, so every cent on them is traceable to the till that recorded it.
import type { ZReport } from '../../../bridge/reports/contract';
import { businessDayAt, businessDayStart } from '../../../bridge/business-day';
import type { StoreDay, StoreDayFigures } from '../../../bridge/store-mode/contract';
import { OrderDoc, PaymentDoc, PaymentIntentDoc, RefundDoc } from '../../../store/index';
import type { ReplicaDayDoc } from '../../../store/store-replicas';
import { priceOrder } from '../checkout';
import { saleLines, type DayRecords, type DaySale } from '../staff/day-records';
import { buildZReport } from '../staff/z-report';
import { orderView, type OrderContext, type OutboxState } from '../views';

/** What the replicas do not carry, said once on the report: those figures stay on each till's own Z report. */
export const PER_TILL_ONLY = {
  staff: "Staff, shifts, drawer counts and walkouts are each till's own: they are on its own Z report.",
  tax: "Another till's orders come here without the tax rules they were priced with: its net and tax are on its own Z report; its total is its checks' total.",
} as const;


/** One till's row: what the store view shows of a Z report. */
export function dayFigures(report: ZReport, taxKnown = true): StoreDayFigures {
  const tender = (method: 'cash' | 'card') => report.byTender.find((row) => row.method === method)?.amount ?? 0;
  return {
    orders: report.sales.orders,
    net: taxKnown ? report.sales.net : null,
    tax: taxKnown ? report.sales.tax : null,
    total: report.sales.total,
    cash: tender('cash'),
    card: tender('card'),
    tips: report.tips.card + report.tips.cash,
    gratuity: report.gratuity.collected,
    refunds: report.refunds.amount,
    voids: { count: report.voids.count, amount: report.voids.amount },
    openChecks: { count: report.openChecks.count, total: report.openChecks.total, due: report.openChecks.due },
  };
}

/** The store's totals: each figure the sum of the rows' (net and tax unknown when one till's is). */
export function sumFigures(rows: readonly StoreDayFigures[]): StoreDayFigures {
  const add = (pick: (f: StoreDayFigures) => number) => rows.reduce((total, f) => total + pick(f), 0);
  const addKnown = (pick: (f: StoreDayFigures) => number | null) => (rows.some((f) => pick(f) === null) ? null : add((f) => pick(f) ?? 0));
  return {
    orders: add((f) => f.orders),
    net: addKnown((f) => f.net),
    tax: addKnown((f) => f.tax),
    total: add((f) => f.total),
    cash: add((f) => f.cash),
    card: add((f) => f.card),
    tips: add((f) => f.tips),
    gratuity: add((f) => f.gratuity),
    refunds: add((f) => f.refunds),
    voids: { count: add((f) => f.voids.count), amount: add((f) => f.voids.amount) },
    openChecks: { count: add((f) => f.openChecks.count), total: add((f) => f.openChecks.total), due: add((f) => f.openChecks.due) },
  };
}

export interface ReplicaDay {
  records: DayRecords;
  /** Every sale came with the tax rules it was priced with (a log that leaves them out: false). */
  taxKnown: boolean;
}

/**
 * One other till's day as its own Z report would read it, from its replicated documents. Its classes
 * follow reports.ts: an order is counted on the business day it was sold; cancelled by then, it is not
 * a sale (cancelled later, it stays one: the later day shows the void); open with money due, an open
 * check; else a sale. A void counts on the day of the cancel, a payment or refund on the day it was
 * taken. What replicas do not carry (staff of payments, walkouts, shifts) is left out (PER_TILL_ONLY).
 */
export function replicaDay(docs: readonly ReplicaDayDoc[], day: string, timeZone: string, categoryOf: (menuItemId: string) => string | null): ReplicaDay {
  const dayOf = (ms: number) => businessDayAt(ms, timeZone).day;
  const parsed = <T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, kind: string): T[] =>
    docs.flatMap((d) => {
      if (d.kind !== kind) return [];
      const result = schema.safeParse(d.doc);
      return result.success ? [result.data] : [];
    });
  const outbox = new Map<string, OutboxState>(docs.filter((d) => !d.synced).map((d) => [`${d.kind}:${d.id}`, 'unfinished']));
  const context: OrderContext = {
    intents: parsed(PaymentIntentDoc, 'payment_intent'),
    payments: parsed(PaymentDoc, 'payment'),
    refunds: parsed(RefundDoc, 'refund'),
    outbox,
    offlineIntentIds: new Set(),
    staff: { orders: new Map(), payments: new Map(), refunds: new Map() },
    cloudStatuses: new Map(),
    links: { mergedInto: new Map(), reopened: new Map(), reopenOf: new Map() },
  };
  const records: DayRecords = { businessDay: day, currency: '', location: '', till: '', generatedAt: '', sales: [], payments: [], refunds: [], voids: [], openChecks: [], walkouts: [], reopenings: [], shifts: [] };
  let taxKnown = true;
  for (const raw of docs.filter((d) => d.kind === 'order')) {
    const result = OrderDoc.safeParse(raw.doc);
    if (!result.success) continue;
    const doc = result.data;
    const view = orderView(doc, context);
    // The check's total as its till priced it: the rules it priced with stay on that till.
    const total = doc.check_total ?? view.total;
    const cancelDay = doc.status === 'cancelled' ? dayOf(doc.updated_at) : null;
    if (cancelDay === day) records.voids.push({ orderId: doc.id, label: view.label, amount: total, staff: null });
    for (const payment of view.payments.filter((p) => dayOf(Date.parse(p.createdAt)) === day)) {
      records.payments.push({ id: payment.id, orderId: doc.id, orderLabel: view.label, method: payment.method, amount: payment.amount, tip: payment.tip, status: payment.status, syncState: payment.syncState, staff: null });
    }
    for (const payment of view.payments) {
      for (const refund of payment.refunds.filter((r) => dayOf(Date.parse(r.createdAt)) === day)) {
        records.refunds.push({ id: refund.id, orderId: doc.id, orderLabel: view.label, method: payment.method, amount: refund.amount, syncState: refund.syncState, staff: null });
      }
    }
    if (doc.business_day !== day || (cancelDay !== null && cancelDay <= day)) continue;
    if (doc.status === 'open' && view.paidAmount < total) {
      records.openChecks.push({ orderId: doc.id, label: view.label, total, paid: view.paidAmount, staff: null });
      continue;
    }
    if (!('pricing' in raw.doc)) taxKnown = false;
    records.sales.push(sale(doc, view.label, total, view.gratuity?.collected ?? 0, view.syncState, categoryOf));
  }
  return { records, taxKnown };
}

function sale(doc: OrderDoc, label: string, total: number, gratuity: number, syncState: DaySale['syncState'], categoryOf: (menuItemId: string) => string | null): DaySale {
  const { breakdown, check } = priceOrder(doc);
  return {
    orderId: doc.id,
    label,
    staff: null,
    lines: saleLines(doc.lines, breakdown.lines, categoryOf),
    taxes: check.taxes,
    taxIncluded: check.taxIncluded,
    total,
    orderDiscount: doc.discount !== null,
    // The tax in it is not shown on the store view: only what the payments carried.
    ...(gratuity > 0 ? { gratuity: { collected: gratuity, tax: 0 } } : {}),
    syncState,
  };
}

export interface StoreDayInput {
  day: string;
  timeZone: string;
  now: number;
  currency: string;
  self: { tillId: string; name: string; report: ZReport };
  /** The other tills: as the replicas name them, and when each was last heard (null: known only from its log). */
  others: readonly { tillId: string; name: string | null; heardAt: number | null }[];
  docs: readonly ReplicaDayDoc[];
  categoryOf: (menuItemId: string) => string | null;
}

export function buildStoreDay(input: StoreDayInput): StoreDay {
  const { day, timeZone } = input;
  const closesAt = dayWindow(day, timeZone).to;
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', ...(timeZone ? { timeZone } : {}) });
  const origins = new Set([...input.others.map((t) => t.tillId), ...input.docs.map((d) => d.origin)]);
  const known = new Map(input.others.map((t) => [t.tillId, t]));
  const incomplete: string[] = [];
  let taxUnknown = false;
  const rows = [...origins].map((origin) => {
    const till = known.get(origin) ?? { tillId: origin, name: null, heardAt: null };
    const { records, taxKnown } = replicaDay(
      input.docs.filter((d) => d.origin === origin),
      day,
      timeZone,
      input.categoryOf,
    );
    const name = till.name ?? `Till ${origin.slice(0, 8)}`;
    if (till.heardAt === null) incomplete.push(`${name}: known only from its log here, never heard from since — its figures may be incomplete.`);
    // Quiet since before the close: it may have sold more than this till has heard. (A day not closed yet: no sentence.)
    else if (closesAt <= input.now && till.heardAt < closesAt) {
      incomplete.push(`${name}: last heard at ${time.format(till.heardAt)}, before the day closed at ${time.format(closesAt)} — its figures may be incomplete.`);
    }
    if (!taxKnown) taxUnknown = true;
    return { tillId: origin, name: till.name, self: false, lastHeardAt: till.heardAt === null ? null : new Date(till.heardAt).toISOString(), figures: dayFigures(buildZReport(records), taxKnown) };
  });
  const selfRow = { tillId: input.self.tillId, name: input.self.name, self: true, lastHeardAt: new Date(input.now).toISOString(), figures: dayFigures(input.self.report) };
  const tills = [selfRow, ...rows.sort((a, b) => (a.name ?? a.tillId).localeCompare(b.name ?? b.tillId) || a.tillId.localeCompare(b.tillId))];
  return {
    businessDay: day,
    currency: input.currency,
    closesAt: new Date(closesAt).toISOString(),
    tills,
    totals: sumFigures(tills.map((t) => t.figures)),
    incomplete,
    perTillOnly: rows.length === 0 ? [] : [PER_TILL_ONLY.staff, ...(taxUnknown ? [PER_TILL_ONLY.tax] : [])],
  };
}

/** When the business day began and when it closed (the next one began), in ms. */
export function dayWindow(day: string, timeZone: string): { from: number; to: number } {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return { from: businessDayStart(day, timeZone), to: businessDayStart(next.toISOString().slice(0, 10), timeZone) };
}
