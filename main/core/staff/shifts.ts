// The cash drawer's shifts: opened with a counted float, cash moved in and out, closed with a
// blind count. Local to this terminal: nothing here is sent to the cloud (docs/staff.md).
import { countTotal, unknownDenominations, type CashCount } from '../../../bridge/staff/cash';
import type { CashMovement, ShiftView, StaffRef } from '../../../bridge/contract';
import { formatMoney } from '../../../bridge/money';
import type { Clock } from '../../../common/clock';
import { newId } from '../../../common/ids';
import type { ShiftDoc, StaffDoc, Store } from '../../../store/index';
import { CoreError } from '../errors';
import type { EventHub } from '../events';
import { StaffDesk, type Act } from './desk';

const NEEDS_OPEN_DRAWER = 'Open the drawer first: count the float on the Shift screen.';

/** What a shift's cash came to, from the payments and refunds recorded in it. */
interface ShiftFigures {
  cashSales: number;
  cashTips: number;
  cashRefunds: number;
  cardSales: number;
  cardTips: number;
  payments: number;
  paidOuts: number;
  drops: number;
}

export class ShiftDesk {
  constructor(
    private readonly store: Store,
    private readonly staff: StaffDesk,
    private readonly drawerMode: () => 'shared' | 'per_cashier',
    private readonly tillLetter: () => string,
    private readonly day: () => string,
    private readonly currency: () => string,
    private readonly clock: Clock,
    private readonly events: EventHub,
  ) {}

  /** The drawer a person works: the till's, or their own. */
  drawerOf(by: StaffDoc): string {
    return this.drawerMode() === 'shared' ? 'till' : by.id;
  }

  /** The open shift of the person's drawer, if any: card payments are counted in it. */
  openShiftOf(by: StaffDoc): ShiftDoc | undefined {
    return this.store.shifts.openShift(this.drawerOf(by));
  }

  /** The open shift cash goes through; refused when the drawer is not open. */
  requireOpenShift(by: StaffDoc): ShiftDoc {
    const shift = this.openShiftOf(by);
    if (!shift) throw new CoreError('conflict', NEEDS_OPEN_DRAWER);
    return shift;
  }

  current(act: Act): ShiftView | null {
    const shift = this.openShiftOf(act.by);
    return shift ? this.view(shift) : null;
  }

  #requireCount(count: CashCount): number {
    const unknown = unknownDenominations(count, this.currency());
    if (unknown.length > 0) {
      const message = `${unknown.map((v) => formatMoney(v, this.currency())).join(', ')} is not a note or coin here. Count again.`;
      throw new CoreError('invalid_command', message, [{ path: 'count', message }]);
    }
    return countTotal(count);
  }

  open(act: Act, count: CashCount): ShiftView {
    const total = this.#requireCount(count);
    const drawer = this.drawerOf(act.by);
    if (this.store.shifts.openShift(drawer)) throw new CoreError('conflict', 'This drawer is already open. Close its shift before opening another.');
    const shift = this.store.transaction(() => {
      const opened = this.store.shifts.open({
        id: newId('shf_', this.clock.now()),
        drawer,
        business_day: this.day(),
        opened_at: this.clock.now(),
        opened_by: act.by.id,
        currency: this.currency(),
        float_count: count.filter((c) => c.count > 0),
        float_total: total,
      });
      this.store.cashier.recordAudit(act.by.id, 'shift.open', { shiftId: opened.id, drawer, float: total });
      return opened;
    });
    this.events.emit('shift.changed', {});
    return this.view(shift);
  }

  moveCash(act: Act, move: { kind: 'paid_out' | 'drop'; amount: number; reason: string }): ShiftView {
    const approvedBy = move.kind === 'paid_out' ? this.staff.require(act, 'cash.paid_out') : null;
    const shift = this.requireOpenShift(act.by);
    const figures = this.#figures(shift);
    const inDrawer = this.#expected(shift, figures);
    if (move.amount > inDrawer) {
      const message = `The drawer should hold only ${formatMoney(inDrawer, shift.currency)}. Count it, or enter a smaller amount.`;
      throw new CoreError('conflict', message, [{ path: 'amount', message }]);
    }
    this.store.transaction(() => {
      const movement = this.store.shifts.addMovement({ id: newId('cm_', this.clock.now()), shift_id: shift.id, kind: move.kind, amount: move.amount, reason: move.reason, staff_id: act.by.id, at: this.clock.now() });
      this.store.cashier.recordAudit(act.by.id, `cash.${move.kind}`, { shiftId: shift.id, movementId: movement.id, amount: move.amount, reason: move.reason, ...StaffDesk.approval(approvedBy) });
    });
    this.events.emit('shift.changed', {});
    return this.view(this.store.shifts.get(shift.id)!);
  }

  close(act: Act, count: CashCount, note: string): ShiftView {
    const approvedBy = this.staff.require(act, 'shift.close');
    const shift = this.requireOpenShift(act.by);
    const counted = this.#requireCount(count);
    const expected = this.#expected(shift, this.#figures(shift));
    const closed = this.store.transaction(() => {
      const done = this.store.shifts.close(shift.id, { closed_at: this.clock.now(), closed_by: act.by.id, count: count.filter((c) => c.count > 0), counted_total: counted, expected, note });
      this.store.cashier.recordAudit(act.by.id, 'shift.close', { shiftId: shift.id, expected, counted, overShort: counted - expected, ...StaffDesk.approval(approvedBy) });
      return done;
    });
    this.events.emit('shift.changed', {});
    return this.view(closed);
  }

  #figures(shift: ShiftDoc): ShiftFigures {
    const figures: ShiftFigures = { cashSales: 0, cashTips: 0, cashRefunds: 0, cardSales: 0, cardTips: 0, payments: 0, paidOuts: 0, drops: 0 };
    for (const row of this.store.shifts.ofShift(shift.id)) {
      if (row.entity_kind === 'payment') {
        const intent = this.store.cashier.getPaymentIntent(row.entity_id);
        const payment = intent ? null : this.store.cashier.getPayment(row.entity_id);
        const record = intent ?? payment;
        if (!record) continue;
        figures.payments += 1;
        if (intent) {
          figures.cardSales += intent.amount - intent.tip;
          figures.cardTips += intent.tip;
        } else if (payment) {
          figures.cashSales += payment.amount - payment.tip;
          figures.cashTips += payment.tip;
        }
      } else if (row.entity_kind === 'refund') {
        const refund = this.store.cashier.getRefund(row.entity_id);
        const payment = refund ? this.store.cashier.getPayment(refund.payment_id) : undefined;
        if (refund && payment?.method === 'cash') figures.cashRefunds += refund.amount;
      }
    }
    for (const movement of this.store.shifts.movements(shift.id)) {
      if (movement.kind === 'paid_out') figures.paidOuts += movement.amount;
      else figures.drops += movement.amount;
    }
    return figures;
  }

  #expected(shift: ShiftDoc, f: ShiftFigures): number {
    return shift.float_total + f.cashSales + f.cashTips - f.cashRefunds - f.paidOuts - f.drops;
  }

  view(shift: ShiftDoc): ShiftView {
    const figures = this.#figures(shift);
    const movements = this.store.shifts.movements(shift.id);
    const names = this.staff.names([shift.opened_by, shift.closed_by ?? '', shift.drawer, ...movements.map((m) => m.staff_id)].filter((id) => id !== ''));
    const ref = (id: string): StaffRef => ({ id, name: names.get(id) ?? 'Unknown' });
    const closed = shift.closed_at !== null;
    return {
      id: shift.id,
      drawer: shift.drawer === 'till' ? `Till ${this.tillLetter()}` : `${names.get(shift.drawer) ?? 'A cashier'}'s drawer`,
      status: closed ? 'closed' : 'open',
      businessDay: shift.business_day,
      openedAt: new Date(shift.opened_at).toISOString(),
      openedBy: ref(shift.opened_by),
      currency: shift.currency,
      float: shift.float_total,
      floatCount: shift.float_count,
      ...figures,
      movements: movements.map((m): CashMovement => ({ id: m.id, kind: m.kind, amount: m.amount, reason: m.reason, staff: ref(m.staff_id), at: new Date(m.at).toISOString() })),
      closedAt: closed ? new Date(shift.closed_at!).toISOString() : null,
      closedBy: shift.closed_by ? ref(shift.closed_by) : null,
      count: shift.count,
      counted: shift.counted_total,
      // Blind: what the drawer should hold is shown only once it has been counted.
      expected: closed ? shift.expected : null,
      overShort: closed && shift.counted_total !== null && shift.expected !== null ? shift.counted_total - shift.expected : null,
      note: shift.note,
    };
  }
}
