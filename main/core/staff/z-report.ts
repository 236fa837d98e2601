// The end-of-day (Z) report, summed from the day's records (day-records.ts) as this terminal has
// them. Pure and deterministic: no clock (generatedAt comes in the records), no I/O, and every list
// sorted on its own, so the same records in any order give the same report (docs/staff.md,
// "The end-of-day (Z) report"). Money is integer minor units throughout.
import { mergeTaxLines } from '../../../bridge/checkout/tax-lines';
import type { PaymentMethod } from '../../../bridge/primitives';
import type { ZReport } from '../../../bridge/reports/contract';
import type { StaffRef } from '../../../bridge/staff/contract';
import type { DayPayment, DayRecords, DayRefund, DaySale, DayVoid } from './day-records';

/** The byStaff row of the records that name nobody (staff null). */
export const NOT_RECORDED_STAFF: StaffRef = Object.freeze({ id: 'not-recorded', name: 'Not recorded' });

/** card then cash: the order of the tender rows, always both. */
export const TENDERS: readonly PaymentMethod[] = ['card', 'cash'];

/** What an order may be waiting for, in the order a notInCloud entry lists them. */
const WAITING_PHRASES = [
  'order waiting',
  'card payment stored offline',
  'card payment waiting',
  'cash payment stored offline',
  'cash payment waiting',
  'refund waiting',
  'refused by the cloud',
] as const;
type WaitingPhrase = (typeof WAITING_PHRASES)[number];

const collator = new Intl.Collator('en', { numeric: true });

/** Text order for people ("A9" before "A10"), with a code-unit tiebreak so the order is total. */
export function compareText(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

const byKey =
  <T>(...keys: ((x: T) => string)[]) =>
  (a: T, b: T): number => {
    for (const key of keys) {
      const ka = key(a);
      const kb = key(b);
      if (ka !== kb) return ka < kb ? -1 : 1;
    }
    return 0;
  };

type SalesRow = { quantity: number; gross: number; discounts: number; net: number };
const emptySalesRow = (): SalesRow => ({ quantity: 0, gross: 0, discounts: 0, net: 0 });

type StaffRow = ZReport['byStaff'][number];

export function buildZReport(records: DayRecords): ZReport {
  // A canonical order for the few results that depend on which record comes first (a staff
  // member's name, an order's label, the order of the taxes): the same whatever order the records came in.
  const sales = [...records.sales].sort(byKey<DaySale>((s) => s.orderId, (s) => s.label));
  const payments = records.payments.filter((p) => p.status !== 'failed').sort(byKey<DayPayment>((p) => p.id, (p) => p.orderId));
  const refunds = [...records.refunds].sort(byKey<DayRefund>((r) => r.id, (r) => r.orderId));
  const voids = [...records.voids].sort(byKey<DayVoid>((v) => v.orderId, (v) => v.label, (v) => String(v.amount)));

  // ---- sales, by category, by item, discounts and comps ----
  const totals = { orders: sales.length, gross: 0, discounts: 0, comps: 0, net: 0, tax: 0, total: 0 };
  const discounts = { count: 0, amount: 0 };
  const comps = { count: 0, amount: 0 };
  const categories = new Map<string, SalesRow>();
  const items = new Map<string, SalesRow & { item: string; category: string }>();
  for (const sale of sales) {
    totals.total += sale.total;
    const orderComp = sale.orderDiscount && sale.orderComp === true;
    if (orderComp) comps.count += 1;
    else if (sale.orderDiscount) discounts.count += 1;
    for (const line of sale.lines) {
      totals.gross += line.gross;
      totals.net += line.net;
      totals.tax += line.tax;
      if (line.comp) {
        comps.count += 1;
        comps.amount += line.lineDiscount;
      } else {
        if (line.lineDiscount !== 0) discounts.count += 1;
        discounts.amount += line.lineDiscount;
      }
      if (orderComp) comps.amount += line.orderDiscount;
      else discounts.amount += line.orderDiscount;
      const category = categories.get(line.category) ?? emptySalesRow();
      categories.set(line.category, category);
      const itemKey = JSON.stringify([line.item, line.category]);
      const item = items.get(itemKey) ?? { item: line.item, category: line.category, ...emptySalesRow() };
      items.set(itemKey, item);
      for (const row of [category, item]) {
        row.quantity += line.quantity;
        row.gross += line.gross;
        row.discounts += line.lineDiscount + line.orderDiscount;
        row.net += line.net;
      }
    }
  }
  // One row per name and rate over the day, as a receipt merges a check's (bridge/checkout/tax-lines.ts).
  const taxes = mergeTaxLines(sales.flatMap((sale) => sale.taxes));
  totals.discounts = discounts.amount;
  totals.comps = comps.amount;
  const bySales = (a: { net: number }, b: { net: number }) => b.net - a.net;
  const byCategory = [...categories].map(([category, row]) => ({ category, ...row })).sort((a, b) => bySales(a, b) || compareText(a.category, b.category));
  const byItem = [...items.values()]
    .map(({ item, category, quantity, gross, discounts: d, net }) => ({ item, category, quantity, gross, discounts: d, net }))
    .sort((a, b) => bySales(a, b) || compareText(a.item, b.item) || compareText(a.category, b.category));

  // ---- tenders, tips, refunds, voids, offline cards ----
  const byTender = TENDERS.map((method) => ({ method, payments: 0, amount: 0, tips: 0, refunds: 0, net: 0 }));
  const tenderRow = (method: PaymentMethod) => byTender.find((row) => row.method === method);
  const offlineCards = { count: 0, amount: 0 };
  for (const p of payments) {
    const row = tenderRow(p.method);
    if (row) {
      row.payments += 1;
      row.amount += p.amount;
      row.tips += p.tip;
    }
    if (p.method === 'card' && p.status === 'queued_offline') {
      offlineCards.count += 1;
      offlineCards.amount += p.amount + p.tip;
    }
  }
  const refundTotals = { count: 0, amount: 0, card: 0, cash: 0 };
  for (const r of refunds) {
    refundTotals.count += 1;
    refundTotals.amount += r.amount;
    refundTotals[r.method] += r.amount;
    const row = tenderRow(r.method);
    if (row) row.refunds += r.amount;
  }
  for (const row of byTender) row.net = row.amount + row.tips - row.refunds;
  const voidTotals = { count: voids.length, amount: voids.reduce((sum, v) => sum + v.amount, 0) };

  // ---- by staff ----
  const staff = new Map<string, StaffRow>();
  const rowOf = (ref: StaffRef | null): StaffRow => {
    const who = ref ?? NOT_RECORDED_STAFF;
    const key = ref ? `id:${ref.id}` : 'none';
    let row = staff.get(key);
    if (!row) {
      row = { staff: { id: who.id, name: who.name }, orders: 0, sales: 0, payments: 0, tips: 0, refunds: 0, voids: 0 };
      staff.set(key, row);
    }
    return row;
  };
  for (const s of sales) {
    const row = rowOf(s.staff);
    row.orders += 1;
    row.sales += s.total;
  }
  for (const p of payments) {
    const row = rowOf(p.staff);
    row.payments += p.amount;
    row.tips += p.tip;
  }
  for (const r of refunds) rowOf(r.staff).refunds += r.amount;
  for (const v of voids) rowOf(v.staff).voids += 1;
  const byStaff = [...staff.values()].sort((a, b) => compareText(a.staff.name, b.staff.name) || compareText(a.staff.id, b.staff.id));

  // ---- what the cloud does not have yet ----
  const waiting = new Map<string, Set<WaitingPhrase>>();
  const note = (orderId: string, phrase: WaitingPhrase) => waiting.set(orderId, (waiting.get(orderId) ?? new Set<WaitingPhrase>()).add(phrase));
  const labels = new Map<string, string>();
  // The sale's label first, then a payment's, then a refund's.
  for (const s of sales) labels.set(s.orderId, labels.get(s.orderId) ?? s.label);
  for (const p of payments) labels.set(p.orderId, labels.get(p.orderId) ?? p.orderLabel);
  for (const r of refunds) labels.set(r.orderId, labels.get(r.orderId) ?? r.orderLabel);
  for (const s of sales) {
    if (s.syncState === 'pending') note(s.orderId, 'order waiting');
    if (s.syncState === 'failed') note(s.orderId, 'refused by the cloud');
  }
  for (const p of payments) {
    if (p.syncState === 'pending') note(p.orderId, p.status === 'queued_offline' ? `${p.method} payment stored offline` : `${p.method} payment waiting`);
    if (p.syncState === 'failed') note(p.orderId, 'refused by the cloud');
  }
  for (const r of refunds) {
    if (r.syncState === 'pending') note(r.orderId, 'refund waiting');
    if (r.syncState === 'failed') note(r.orderId, 'refused by the cloud');
  }
  const notInCloud = [...waiting]
    .map(([orderId, phrases]) => ({
      orderId,
      label: labels.get(orderId) ?? orderId,
      what: WAITING_PHRASES.filter((phrase) => phrases.has(phrase)).join(', '),
    }))
    .sort((a, b) => compareText(a.label, b.label) || compareText(a.orderId, b.orderId));

  // ---- open checks and walkouts: apart from the sales ----
  const openOrders = [...records.openChecks].sort(byKey((c) => c.orderId, (c) => c.label));
  const openChecks = {
    count: openOrders.length,
    total: openOrders.reduce((total, c) => total + c.total, 0),
    paid: openOrders.reduce((total, c) => total + c.paid, 0),
    due: 0,
    orders: openOrders
      .map((c) => ({ orderId: c.orderId, label: c.label, total: c.total, paid: c.paid, due: c.total - c.paid, staff: c.staff }))
      .sort((a, b) => compareText(a.label, b.label) || compareText(a.orderId, b.orderId)),
  };
  openChecks.due = openChecks.total - openChecks.paid;
  const walkedOut = [...records.walkouts]
    .sort(byKey((w) => w.orderId, (w) => w.label))
    .map((w) => ({ orderId: w.orderId, label: w.label, total: w.total, paid: w.paid, unpaid: w.unpaid, reason: w.reason, staff: w.staff, approvedBy: w.approvedBy }))
    .sort((a, b) => compareText(a.label, b.label) || compareText(a.orderId, b.orderId));
  const walkouts = {
    count: walkedOut.length,
    total: walkedOut.reduce((total, w) => total + w.total, 0),
    paid: walkedOut.reduce((total, w) => total + w.paid, 0),
    unpaid: walkedOut.reduce((total, w) => total + w.unpaid, 0),
    orders: walkedOut,
  };

  // ---- reopened checks: their additions are their linked checks' sales, already counted above ----
  const netOf = new Map(sales.map((sale) => [sale.orderId, sale.lines.reduce((total, line) => total + line.net, 0)]));
  const reopenedOrders = [...records.reopenings]
    .map((r) => ({ orderId: r.orderId, label: r.label, linkedLabel: r.linkedLabel, reason: r.reason, added: r.linkedId === null ? 0 : (netOf.get(r.linkedId) ?? 0), refunded: r.refunded, staff: r.staff, approvedBy: r.approvedBy }))
    .sort((a, b) => compareText(a.label, b.label) || compareText(a.orderId, b.orderId));
  const reopened = {
    checks: reopenedOrders.length,
    added: reopenedOrders.reduce((total, r) => total + r.added, 0),
    refunded: reopenedOrders.reduce((total, r) => total + r.refunded, 0),
    orders: reopenedOrders,
  };

  // ---- cash: the closed shifts added up; each shift on its own line in `shifts` ----
  const closed = records.shifts.filter((s) => s.status === 'closed');
  const sum = (pick: (s: DayRecords['shifts'][number]) => number | null) => closed.reduce((total, s) => total + (pick(s) ?? 0), 0);
  const cash = {
    closedShifts: closed.length,
    openShifts: records.shifts.length - closed.length,
    float: sum((s) => s.float),
    sales: sum((s) => s.cashSales),
    tips: sum((s) => s.cashTips),
    refunds: sum((s) => s.cashRefunds),
    forOtherTills: sum((s) => s.cashForOtherTills),
    paidOuts: sum((s) => s.paidOuts),
    drops: sum((s) => s.drops),
    expected: closed.length === 0 ? null : sum((s) => s.expected),
    counted: closed.length === 0 ? null : sum((s) => s.counted),
    overShort: closed.length === 0 ? null : sum((s) => s.overShort),
  };

  return {
    businessDay: records.businessDay,
    currency: records.currency,
    location: records.location,
    till: records.till,
    generatedAt: records.generatedAt,
    complete: notInCloud.length === 0,
    sales: totals,
    byCategory,
    byItem,
    byTender,
    byStaff,
    taxes,
    tips: { card: tenderRow('card')?.tips ?? 0, cash: tenderRow('cash')?.tips ?? 0 },
    gratuity: {
      checks: records.sales.filter((sale) => sale.gratuity !== undefined).length,
      collected: records.sales.reduce((total, sale) => total + (sale.gratuity?.collected ?? 0), 0),
      tax: records.sales.reduce((total, sale) => total + (sale.gratuity?.tax ?? 0), 0),
    },
    discounts,
    comps,
    refunds: refundTotals,
    voids: voidTotals,
    offlineCards,
    notInCloud,
    openChecks,
    walkouts,
    reopened,
    shifts: [...records.shifts],
    unreadable: [...(records.unreadable ?? [])].sort(compareText),
    cash,
  };
}
