// The end-of-day (Z) report: the day's records gathered from the store (who did what on which
// business day, from `attributions`), summed by the pure z-report.ts. Computed each time it is
// read, so a past day reads again as it was recorded (docs/staff.md).
import type { Order, OrderGratuity } from '../../../bridge/contract';
import type { ZReport } from '../../../bridge/reports/contract';
import type { ShiftView } from '../../../bridge/staff/contract';
import type { Clock } from '../../../common/clock';
import type { OrderDoc, Store } from '../../../store/index';
import { priceOrder } from '../checkout';
import { saleLines, type DayOpenCheck, type DayPayment, type DayRecords, type DayRefund, type DayReopening, type DaySale, type DayVoid, type DayWalkout } from './day-records';
import type { Act, StaffDesk } from './desk';
import type { ShiftDesk } from './shifts';
import { buildZReport } from './z-report';

/** What the report needs of the cashier's side: orders as the screens show them, and the menu's categories. */
export interface OrderSource {
  orderViews(ids: readonly string[], unreadable?: (doc: OrderDoc, problem: string) => void): Map<string, { doc: OrderDoc; view: Order }>;
  categoryOf(menuItemId: string): { name: string } | null;
}

const DAYS_LISTED = 120;

export class DayReports {
  constructor(
    private readonly store: Store,
    private readonly orders: OrderSource,
    private readonly staff: StaffDesk,
    private readonly shifts: ShiftDesk,
    private readonly where: () => { location: string; till: string; currency: string; today: string },
    private readonly clock: Clock,
  ) {}

  /** Business days with anything recorded here, newest first (today always, so there is something to read). */
  days(act: Act): string[] {
    this.staff.require(act, 'reports.view');
    const today = this.where().today;
    const days = this.store.shifts.days(DAYS_LISTED);
    return days.includes(today) ? days : [today, ...days].slice(0, DAYS_LISTED);
  }

  report(act: Act, day: string | undefined): ZReport {
    this.staff.require(act, 'reports.view');
    return buildZReport(this.records(day ?? this.where().today));
  }

  records(day: string): DayRecords {
    const rows = this.store.shifts.onDay(day);
    const byKind = (kind: string) => rows.filter((r) => r.entity_kind === kind);
    const placed = byKind('order');
    const voided = byKind('void');
    const paid = byKind('payment');
    const refunded = byKind('refund');

    // The orders each record belongs to: payments and refunds are found through their order.
    const orderIdOf = new Map<string, string>();
    for (const row of paid) {
      const orderId = this.store.cashier.getPaymentIntent(row.entity_id)?.order_id ?? this.store.cashier.getPayment(row.entity_id)?.order_id;
      if (orderId) orderIdOf.set(row.entity_id, orderId);
    }
    for (const row of refunded) {
      const refund = this.store.cashier.getRefund(row.entity_id);
      const orderId = refund ? this.store.cashier.getPayment(refund.payment_id)?.order_id : undefined;
      if (orderId) orderIdOf.set(row.entity_id, orderId);
    }
    const walkoutRows = this.store.shifts.walkoutsOn(day);
    const orderIds = [...new Set([...placed.map((r) => r.entity_id), ...voided.map((r) => r.entity_id), ...orderIdOf.values(), ...walkoutRows.map((w) => w.order_id)])];
    const unreadable: string[] = [];
    const leftOut = (what: string) => (doc: OrderDoc, problem: string) => unreadable.push(`Order ${doc.number ?? doc.id} cannot be read (${problem}); ${what} left out of these figures.`);
    const orders = this.orders.orderViews(orderIds, leftOut('it and its payments and refunds are'));
    const names = this.staff.names([...rows.map((r) => r.staff_id), ...walkoutRows.flatMap((w) => [w.staff_id, w.approved_by ?? ''].filter((id) => id !== ''))]);
    const ref = (staffId: string) => ({ id: staffId, name: names.get(staffId) ?? 'Unknown' });

    // An order voided on a later day stays in this day's sales (the later day shows the void).
    // A check merged into another (orders.merge) is cancelled too, but it was never voided: its
    // lines are the other check's sale, and it has no 'void' attribution (only orders.cancel writes
    // one), so it is neither a sale here nor among the voids below.
    const voidedOn = this.store.shifts.attributionsOf('void', placed.map((r) => r.entity_id));
    // A walkout is never a sale: its own day lists it. An open order with money due is an open check.
    const walkedOut = this.store.shifts.walkoutsOf(placed.map((r) => r.entity_id));
    const sales: DaySale[] = [];
    const openChecks: DayOpenCheck[] = [];
    for (const row of placed) {
      const order = orders.get(row.entity_id);
      if (!order) continue;
      const voidDay = voidedOn.get(row.entity_id)?.business_day;
      if (order.doc.status === 'cancelled' && (voidDay === undefined || voidDay <= day)) continue;
      if (walkedOut.has(row.entity_id)) continue;
      if (order.doc.status === 'open' && order.view.paidAmount < order.view.total) {
        openChecks.push({ orderId: order.view.id, label: order.view.label, total: order.view.total, paid: order.view.paidAmount, staff: ref(row.staff_id) });
        continue;
      }
      try {
        sales.push(this.#sale(order.doc, order.view, ref(row.staff_id)));
      } catch (error) {
        leftOut('its sale is')(order.doc, error instanceof Error ? error.message : String(error));
      }
    }

    const voids: DayVoid[] = voided.flatMap((row) => {
      const order = orders.get(row.entity_id);
      return order ? [{ orderId: order.view.id, label: order.view.label, amount: order.view.total, staff: ref(row.staff_id) }] : [];
    });

    const walkouts: DayWalkout[] = walkoutRows.flatMap((w) => {
      const order = orders.get(w.order_id);
      if (!order) return [];
      return [{ orderId: order.view.id, label: order.view.label, total: order.view.total, paid: order.view.total - w.unpaid, unpaid: w.unpaid, reason: w.reason, staff: ref(w.staff_id), approvedBy: w.approved_by === null ? null : ref(w.approved_by) }];
    });

    const payments: DayPayment[] = paid.flatMap((row) => {
      const order = orders.get(orderIdOf.get(row.entity_id) ?? '');
      const payment = order?.view.payments.find((p) => p.id === row.entity_id);
      if (!order || !payment) return [];
      return [{ id: payment.id, orderId: order.view.id, orderLabel: order.view.label, method: payment.method, amount: payment.amount, tip: payment.tip, status: payment.status, syncState: payment.syncState, staff: ref(row.staff_id) }];
    });

    const refunds: DayRefund[] = refunded.flatMap((row) => {
      const order = orders.get(orderIdOf.get(row.entity_id) ?? '');
      const payment = order?.view.payments.find((p) => p.refunds.some((r) => r.id === row.entity_id));
      const refund = payment?.refunds.find((r) => r.id === row.entity_id);
      if (!order || !payment || !refund) return [];
      return [{ id: refund.id, orderId: order.view.id, orderLabel: order.view.label, method: payment.method, amount: refund.amount, syncState: refund.syncState, staff: ref(row.staff_id) }];
    });

    const reopenings = this.#reopenings(day);

    const shifts: ShiftView[] = [];
    for (const shift of this.store.shifts.ofDay(day)) {
      const read = this.shifts.read(shift);
      if (read.ok) shifts.push(read.view);
      else unreadable.push(this.shifts.describeUnreadable(shift, read.problem));
    }
    const where = this.where();
    return {
      businessDay: day,
      currency: where.currency,
      location: where.location,
      till: where.till,
      generatedAt: new Date(this.clock.now()).toISOString(),
      sales,
      payments,
      refunds,
      voids,
      openChecks,
      walkouts,
      reopenings,
      shifts,
      unreadable,
    };
  }

  /** The checks reopened on the day: who, why, the linked check, and what was refunded on the original since. */
  #reopenings(day: string): DayReopening[] {
    const links = this.store.cashier.linksOn(day, 'reopened_as');
    const orders = this.orders.orderViews(links.flatMap((link) => [link.order_id, ...(link.other_id === null ? [] : [link.other_id])]));
    const names = this.staff.names(links.flatMap((link) => [link.staff_id, link.approved_by ?? ''].filter((id) => id !== '')));
    const who = (id: string | null) => (id === null ? null : { id, name: names.get(id) ?? 'Unknown' });
    return links.flatMap((link) => {
      const original = orders.get(link.order_id)?.view;
      if (!original) return [];
      const since = new Date(link.at).toISOString();
      const refunded = original.payments.flatMap((p) => p.refunds).filter((r) => r.createdAt >= since).reduce((total, r) => total + r.amount, 0);
      const linked = link.other_id === null ? undefined : orders.get(link.other_id)?.view;
      return [{ orderId: original.id, label: original.label, linkedId: link.other_id, linkedLabel: linked?.label ?? null, reason: link.reason ?? '', refunded, staff: who(link.staff_id), approvedBy: who(link.approved_by) }];
    });
  }

  #sale(doc: OrderDoc, view: Order, staff: { id: string; name: string }): DaySale {
    const { breakdown, check } = priceOrder(doc);
    return {
      orderId: view.id,
      label: view.label,
      staff,
      lines: saleLines(doc.lines, breakdown.lines, (itemId) => this.orders.categoryOf(itemId)?.name ?? null),
      taxes: check.taxes,
      taxIncluded: check.taxIncluded,
      total: check.total,
      orderDiscount: doc.discount !== null,
      orderComp: doc.discount !== null && breakdown.orderDiscountTotal > 0 && breakdown.subtotal > 0 && breakdown.discountTotal >= breakdown.subtotal,
      ...(view.gratuity && view.gratuity.collected > 0 ? { gratuity: gratuityCollected(view.gratuity) } : {}),
      syncState: view.syncState,
    };
  }
}

/** What the payments carried of an order's gratuity, and the tax in that (in proportion to the gratuity's own). */
function gratuityCollected(gratuity: OrderGratuity): { collected: number; tax: number } {
  const tax = gratuity.charged > 0 ? Math.round((gratuity.tax * gratuity.collected) / gratuity.charged) : 0;
  return { collected: gratuity.collected, tax };
}
