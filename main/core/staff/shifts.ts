// The cash drawer's shifts: opened with a counted float, cash moved in and out, closed with a
// blind count. Local to this terminal: nothing here is sent to the cloud (docs/staff.md).
import { countTotal, MAX_TILL_CASH, tooMuchCash, unknownDenominations, type CashCount } from '../../../bridge/staff/cash';
import { ShiftView, type CashMovement, type StaffRef } from '../../../bridge/staff/contract';
import { formatMoney } from '../../../bridge/money';
import type { Clock } from '../../../common/clock';
import { newId } from '../../../common/ids';
import type { ShiftDoc, StaffDoc, Store } from '../../../store/index';
import { CoreError } from '../errors';
import type { EventHub } from '../events';
import { can } from '../../../bridge/staff/roles';
import { StaffDesk, type Act } from './desk';

const NEEDS_OPEN_DRAWER = 'Open the drawer first: count the float on the Shift screen.';

/** A shift as the screens show it, or why its record cannot be shown. */
export type ReadShift = { ok: true; view: ShiftView } | { ok: false; problem: string };

/** What a shift's cash came to, from the payments and refunds recorded in it. */
interface ShiftFigures {
  cashSales: number;
  cashTips: number;
  cashRefunds: number;
  cashForOtherTills: number;
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

  /** The open shift of the person's drawer; none (null) when its record cannot be read: the screens go on, the report names it. */
  current(act: Act): ShiftView | null {
    const shift = this.openShiftOf(act.by);
    if (!shift) return null;
    const read = this.read(shift);
    return read.ok ? this.#blindFor(act.by, read.view) : null;
  }

  /**
   * A blind count: while a shift is open, the cash that adds up to what the drawer should hold
   * (cash sales, tips, refunds) goes only to those who may read the report. Anyone else sees what
   * they did (float, paid-outs, drops, card, the payments) until the count is in.
   */
  #blindFor(by: StaffDoc, view: ShiftView): ShiftView {
    if (view.status === 'closed' || can(by.role, 'reports.view')) return view;
    return { ...view, cashSales: null, cashTips: null, cashRefunds: null, cashForOtherTills: null, expected: null, overShort: null };
  }

  /** The shift's view checked against the contract: a record that does not read is reported, never thrown. */
  read(shift: ShiftDoc): ReadShift {
    if (shift.unreadable) return { ok: false, problem: shift.unreadable };
    try {
      const checked = ShiftView.safeParse(this.view(shift));
      if (checked.success) return { ok: true, view: checked.data };
      const issue = checked.error.issues[0];
      return { ok: false, problem: `${issue?.path.join('.') || 'the record'}: ${issue?.message ?? 'not valid'}` };
    } catch (error) {
      return { ok: false, problem: error instanceof Error ? error.message : String(error) };
    }
  }

  /** One sentence naming a shift that cannot be read, for the report and for the drawer it blocks. */
  describeUnreadable(shift: ShiftDoc, problem: string): string {
    const opener = this.staff.names([shift.opened_by]).get(shift.opened_by) ?? 'someone';
    const drawer = shift.drawer === 'till' ? `Till ${this.tillLetter()}` : `${this.staff.names([shift.drawer]).get(shift.drawer) ?? 'a cashier'}'s drawer`;
    return `The shift of ${drawer} opened ${new Date(shift.opened_at).toISOString()} by ${opener} cannot be read (${problem}); its cash is left out of these figures.`;
  }

  /** The view of a shift just written, checked inside its transaction: a shift the screens could not read is not written at all. */
  #checkedView(shift: ShiftDoc): ShiftView {
    const read = this.read(shift);
    if (read.ok) return read.view;
    throw new CoreError('invalid_command', `This drawer's figures could not be recorded (${read.problem}). Nothing was changed.`);
  }

  #requireCount(count: CashCount): number {
    const unknown = unknownDenominations(count, this.currency());
    if (unknown.length > 0) {
      const message = `${unknown.map((v) => formatMoney(v, this.currency())).join(', ')} is not a note or coin here. Count again.`;
      throw new CoreError('invalid_command', message, [{ path: 'count', message }]);
    }
    const total = countTotal(count);
    if (!Number.isSafeInteger(total) || total > MAX_TILL_CASH) {
      const message = tooMuchCash(formatMoney(MAX_TILL_CASH, this.currency()));
      throw new CoreError('invalid_command', message, [{ path: 'count', message }]);
    }
    return total;
  }

  open(act: Act, count: CashCount): ShiftView {
    const total = this.#requireCount(count);
    const drawer = this.drawerOf(act.by);
    const already = this.store.shifts.openShift(drawer);
    if (already) {
      const read = this.read(already);
      if (!read.ok) {
        throw new CoreError('conflict', `This drawer's open shift cannot be read (${read.problem}), so another cannot be opened. Nothing was changed: call support to close it.`);
      }
      throw new CoreError('conflict', 'This drawer is already open. Close its shift before opening another.');
    }
    const view = this.store.transaction(() => {
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
      return this.#checkedView(opened);
    });
    this.events.emit('shift.changed', {});
    return this.#blindFor(act.by, view);
  }

  moveCash(act: Act, move: { kind: 'paid_out' | 'drop'; amount: number; reason: string }): ShiftView {
    const approvedBy = move.kind === 'paid_out' ? this.staff.require(act, 'cash.paid_out') : null;
    const shift = this.requireOpenShift(act.by);
    const figures = this.#figures(shift);
    const inDrawer = this.#expected(shift, figures);
    if (move.amount > inDrawer) {
      // Never the amount: a blind count must not learn what the drawer should hold.
      const message = 'That is more than the drawer should hold. Count it, or enter a smaller amount.';
      throw new CoreError('conflict', message, [{ path: 'amount', message }]);
    }
    const view = this.store.transaction(() => {
      const movement = this.store.shifts.addMovement({ id: newId('cm_', this.clock.now()), shift_id: shift.id, kind: move.kind, amount: move.amount, reason: move.reason, staff_id: act.by.id, at: this.clock.now() });
      this.store.cashier.recordAudit(act.by.id, `cash.${move.kind}`, { shiftId: shift.id, movementId: movement.id, amount: move.amount, reason: move.reason, ...StaffDesk.approval(approvedBy) });
      return this.#checkedView(this.store.shifts.get(shift.id)!);
    });
    this.events.emit('shift.changed', {});
    return this.#blindFor(act.by, view);
  }

  /**
   * Cash handed back to a guest for a payment another till refused (store mode): a paid-out needing no
   * approval (its amount and its once are the refused payment's), from the drawer that took it while
   * that shift is open, else from the open drawer of whoever hands it back; written in one transaction
   * with `settle`, which records it against that payment (and throws when it was already).
   */
  handBack(act: Act, takenIn: string | null, amount: number, reason: string, settle: (movementId: string) => void): void {
    const taker = takenIn === null ? undefined : this.store.shifts.get(takenIn);
    const shift = taker && taker.closed_at === null ? taker : this.requireOpenShift(act.by);
    this.store.transaction(() => {
      const movement = this.store.shifts.addMovement({ id: newId('cm_', this.clock.now()), shift_id: shift.id, kind: 'paid_out', amount, reason, staff_id: act.by.id, at: this.clock.now() });
      settle(movement.id);
      this.store.cashier.recordAudit(act.by.id, 'cash.handed_back', { shiftId: shift.id, movementId: movement.id, amount, reason });
    });
    this.events.emit('shift.changed', {});
  }

  close(act: Act, count: CashCount, note: string): ShiftView {
    const approvedBy = this.staff.require(act, 'shift.close');
    const shift = this.requireOpenShift(act.by);
    const counted = this.#requireCount(count);
    const expected = this.#expected(shift, this.#figures(shift));
    const closed = this.store.transaction(() => {
      const done = this.store.shifts.close(shift.id, { closed_at: this.clock.now(), closed_by: act.by.id, count: count.filter((c) => c.count > 0), counted_total: counted, expected, note });
      this.store.cashier.recordAudit(act.by.id, 'shift.close', { shiftId: shift.id, expected, counted, overShort: counted - expected, ...StaffDesk.approval(approvedBy) });
      return this.#checkedView(done);
    });
    this.events.emit('shift.changed', {});
    return closed;
  }

  #figures(shift: ShiftDoc): ShiftFigures {
    const figures: ShiftFigures = { cashSales: 0, cashTips: 0, cashRefunds: 0, cashForOtherTills: 0, cardSales: 0, cardTips: 0, payments: 0, paidOuts: 0, drops: 0 };
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
    // Taken here toward other tills' orders: the money is this drawer's (or this terminal's) whoever owns the order.
    // Refused cash stays in the drawer until it is handed back, as a paid-out; a refused card was never charged.
    for (const taken of this.store.log.forwards.paymentsOfShift(shift.id)) {
      if (taken.method === 'card' && taken.state === 'refused') continue;
      figures.payments += 1;
      if (taken.method === 'cash') {
        figures.cashSales += taken.amount;
        figures.cashTips += taken.tip;
        figures.cashForOtherTills += taken.amount + taken.tip;
      } else {
        figures.cardSales += taken.amount;
        figures.cardTips += taken.tip;
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
