// A day at the till for the shift and Z-report properties (test/core/shifts.test.ts,
// test/core/z-day-table-service.test.ts): random actions by random staff, run through the bridge on
// a core, with a model of what the drawer and the report must come to computed here from the
// actions alone. Each kind of action is one entry of a DaySteps record: a day of another shape
// (table service) adds its own kinds to DAY_STEPS and runs with runDayWith.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { ZReport } from '../../bridge/reports/contract';
import type { ShiftView } from '../../bridge/staff/contract';
import { countTotal, denominationsOf, type CashCount } from '../../bridge/staff/cash';
import type { Clock } from '../../common/clock';
import { silentLogger } from '../../common/log';
import { TerminalConfig, type TerminalConfigInput } from '../../main/config/schema';
import { startCore, type Core } from '../../main/core/index';
import type { Sandbox } from '../../sandbox/index';
import { createSyncEngine } from '../../sync/engine';
import { FileSecretStore } from '../../sync/secret-store';
import { STAFF, testStaffConfig, type StaffKey } from './fixtures';
import { as, ok, STAFF_ID } from './staff-fixtures';

export type DayAction =
  | { kind: 'place'; who: StaffKey; lines: { item: number; quantity: number }[]; discount: { kind: 'percent' | 'amount'; value: number } | null }
  /** part: 0 pays what is due, else that percent of it; split: the bill is split evenly in two and one half paid. */
  | { kind: 'pay'; who: StaffKey; order: number; method: 'cash' | 'card'; part: number; split: boolean; tip: number; extraTendered: number }
  | { kind: 'refund'; who: StaffKey; payment: number; percent: number }
  | { kind: 'void'; who: StaffKey; order: number }
  /** An order with money due closed unpaid: a manager's decision with a reason. */
  | { kind: 'walkout'; who: StaffKey; order: number }
  | { kind: 'move'; who: StaffKey; move: 'paid_out' | 'drop'; percent: number };

export type Day = DayOf<DayAction>;

const USD = denominationsOf('usd');
/** Anyone of the test staff. */
export const anyStaff = fc.constantFrom<StaffKey>('owner', 'manager', 'cashier', 'cashier2');
/** A drawer's count in US notes and coins. */
export const cashCount = fc.uniqueArray(fc.record({ value: fc.constantFrom(...USD), count: fc.integer({ min: 0, max: 12 }) }), { selector: (line) => line.value, maxLength: 6 });
/** One action of the plain day, each kind with its weight. */
export const dayAction: fc.Arbitrary<DayAction> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      who: anyStaff,
      lines: fc.array(fc.record({ item: fc.nat(50), quantity: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 3 }),
      discount: fc.option(
        fc.oneof(
          fc.record({ kind: fc.constant('percent' as const), value: fc.integer({ min: 500, max: 5000 }) }),
          fc.record({ kind: fc.constant('amount' as const), value: fc.integer({ min: 50, max: 3000 }) }),
        ),
        { nil: null, freq: 3 },
      ),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      who: anyStaff,
      order: fc.nat(50),
      method: fc.constantFrom<'cash' | 'card'>('cash', 'card'),
      part: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 10, max: 90 })),
      split: fc.nat(3).map((n) => n === 0),
      tip: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 400 })),
      extraTendered: fc.nat(2000),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), who: anyStaff, payment: fc.nat(50), percent: fc.integer({ min: 1, max: 100 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const), who: anyStaff, order: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('walkout' as const), who: anyStaff, order: fc.nat(50) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), who: anyStaff, move: fc.constantFrom<'paid_out' | 'drop'>('paid_out', 'drop'), percent: fc.integer({ min: 1, max: 60 }) }) },
);

export const dayArbitrary: fc.Arbitrary<Day> = fc.record({
  opener: anyStaff,
  float: cashCount,
  actions: fc.array(dayAction, { minLength: 6, maxLength: 20 }),
  closer: anyStaff,
  count: cashCount,
});

/** A large party's automatic gratuity as the model keeps it: what the check says it charges, and whether a manager took it off. */
export interface DayGratuity {
  charged: number;
  /** The tax inside `charged` (0 where the restaurant does not tax gratuities). */
  tax: number;
  removed: boolean;
}

export interface DayOrder {
  id: string;
  total: number;
  /** The tax in total (added on top). */
  tax: number;
  owner: StaffKey;
  voided: boolean;
  voidedBy: StaffKey | null;
  walkoutBy: StaffKey | null;
  paid: number;
  split: boolean;
  /** null: the check carries none (no rule, a small party, takeout). */
  gratuity: DayGratuity | null;
  /** Merged into that check (orders.merge): cancelled with it, in no block of the report, its total in the other's. */
  mergedInto: string | null;
}

/** A completed check reopened (orders.reopen): by whom, its linked check, what was refunded on it since. */
export interface DayReopening {
  orderId: string;
  linkedId: string | null;
  refunded: number;
  by: StaffKey;
}

export interface DayPaymentModel {
  id: string;
  orderId: string;
  method: 'cash' | 'card';
  amount: number;
  /** Everything on top of amount, the gratuity's part included. */
  tip: number;
  /** The part of the check's gratuity this payment carried (inside tip). */
  gratuity: number;
  refunded: number;
  by: StaffKey;
}

/** What the actions came to, kept by the test on its own. */
export interface DayModel {
  orders: DayOrder[];
  payments: DayPaymentModel[];
  refunds: { amount: number; method: 'cash' | 'card'; by: StaffKey }[];
  reopenings: DayReopening[];
  paidOuts: number;
  drops: number;
  float: number;
  /** float + cash taken (tips in) − cash refunded − paid-outs − drops. */
  drawer: number;
  counted: number;
}

export interface DayResult {
  model: DayModel;
  shift: ShiftView;
  report: ZReport;
}

/** Placed, not voided, merged or walked out, money still due. */
export const isOpenCheck = (o: DayOrder): boolean => !o.voided && o.mergedInto === null && o.walkoutBy === null && o.paid < o.total;
/** Paid in full and neither voided, merged nor walked out: a sale. */
export const isSale = (o: DayOrder): boolean => !o.voided && o.mergedInto === null && o.walkoutBy === null && o.paid >= o.total;

/** A PIN for whatever a cashier may not do alone; managers and owners need none. */
export const approval = (by: StaffKey) => (by === 'cashier' || by === 'cashier2' ? { managerPin: STAFF.manager.pin } : {});

/** round(a / b) for integers a ≥ 0, b > 0, halves up: exact where a float division may not be. */
export const roundedQuotient = (a: number, b: number): number => Math.floor((2 * a + b) / (2 * b));

/**
 * The part of a gratuity a payment of `amount` carries when `paidBefore` was paid toward a check of
 * `total` and its payments carried `collected` of it, as docs/tables.md says it: what is left of it
 * in proportion to what the payment settles of what is left to pay, the payment that settles the
 * check carrying all that is left (so the parts add up to the gratuity); none once a manager took it off.
 */
export function gratuityPart(gratuity: DayGratuity | null, total: number, paidBefore: number, amount: number, collected: number): number {
  if (gratuity === null || gratuity.removed) return 0;
  const left = Math.max(0, gratuity.charged - collected);
  const due = Math.max(0, total - paidBefore);
  if (due === 0) return left;
  return roundedQuotient(left * Math.min(amount, due), due);
}

/** What the Z report's gratuity block must say: the sales whose payments carried some of theirs, what they carried, the tax in it. */
export function gratuityModel(model: DayModel): { checks: number; collected: number; tax: number } {
  const block = { checks: 0, collected: 0, tax: 0 };
  for (const order of model.orders.filter(isSale)) {
    const collected = model.payments.filter((p) => p.orderId === order.id).reduce((sum, p) => sum + p.gratuity, 0);
    if (collected === 0 || order.gratuity === null) continue;
    block.checks += 1;
    block.collected += collected;
    block.tax += roundedQuotient(order.gratuity.tax * collected, order.gratuity.charged);
  }
  return block;
}

/** What every step of a day works on: the till, the model, the menu it sells from (by index). */
export interface DayContext {
  core: Pick<Core, 'invoke'>;
  model: DayModel;
  items: readonly { id: string; price: number }[];
}

/** One entry per kind of action: how it runs through the bridge and what it does to the model. */
export type DaySteps<A extends { kind: string }> = { [K in A['kind']]: (ctx: DayContext, action: Extract<A, { kind: K }>) => Promise<void> };

/**
 * Takes a payment toward `order` by `who`, with the part of the check's gratuity it must carry on
 * top of `extraTip`, and records it in the model (the drawer too, for cash).
 */
export async function payInModel(
  { core, model }: DayContext,
  who: StaffKey,
  order: DayOrder,
  payment: { method: 'cash' | 'card'; amount: number; splitPart: string | null; extraTip: number; extraTendered: number },
): Promise<void> {
  const collected = model.payments.filter((p) => p.orderId === order.id).reduce((sum, p) => sum + p.gratuity, 0);
  const gratuity = gratuityPart(order.gratuity, order.total, order.paid, payment.amount, collected);
  const tip = gratuity + payment.extraTip;
  const paid = await ok(core, 'payments.take', {
    orderId: order.id,
    method: payment.method,
    amount: payment.amount,
    splitPart: payment.splitPart,
    tip,
    ...(payment.method === 'cash' ? { tendered: payment.amount + tip + payment.extraTendered } : {}),
    ...approval(who),
  });
  order.paid += payment.amount;
  order.owner = who; // charging someone's order makes it yours
  model.payments.push({ id: paid.payment.id, orderId: order.id, method: payment.method, amount: payment.amount, tip, gratuity, refunded: 0, by: who });
  if (payment.method === 'cash') model.drawer += payment.amount + tip;
}

/** The open check a 'pay' action numbered `n` pays (undefined: none is open). */
export function checkToPay(model: DayModel, n: number): DayOrder | undefined {
  const open = model.orders.filter(isOpenCheck);
  return open.length === 0 ? undefined : open[n % open.length];
}

/** The actions of the plain day: every kind of DayAction. */
export const DAY_STEPS: DaySteps<DayAction> = {
  async place({ core, model, items }, a) {
    const lines = a.lines.map((l) => ({ item: items[l.item % items.length]!, quantity: l.quantity }));
    const subtotal = lines.reduce((sum, l) => sum + l.item.price * l.quantity, 0);
    const discount = a.discount === null ? null : a.discount.kind === 'percent' ? a.discount : { kind: 'amount' as const, value: Math.min(a.discount.value, Math.floor(subtotal / 2)) };
    const order = await ok(core, 'orders.place', {
      lines: lines.map((l) => ({ menuItemId: l.item.id, quantity: l.quantity })),
      discount: discount && discount.value > 0 ? { ...discount, reason: 'Promotion' } : null,
      ...approval(a.who),
    });
    model.orders.push({ id: order.id, total: order.total, tax: order.check.taxTotal, owner: a.who, voided: false, voidedBy: null, walkoutBy: null, paid: 0, split: false, gratuity: null, mergedInto: null });
  },
  async pay(ctx, a) {
    const { core } = ctx;
    const order = checkToPay(ctx.model, a.order);
    if (!order) return;
    const due = order.total - order.paid;
    let amount = a.part === 0 ? due : Math.max(1, Math.floor((due * a.part) / 100));
    let splitPart: string | null = null;
    if (a.split && (order.split || order.paid === 0)) {
      // Split evenly in two (changing it makes the order yours), then pay a part not paid yet.
      if (!order.split) {
        await ok(core, 'orders.update', { id: order.id, split: { kind: 'even', parts: 2 }, ...approval(a.who) });
        order.split = true;
        order.owner = a.who;
      }
      const part = (await ok(core, 'orders.get', { id: order.id })).split?.parts.find((p) => !p.paid && p.amount > 0);
      if (part && part.amount <= due) [amount, splitPart] = [part.amount, part.label];
    }
    await payInModel(ctx, a.who, order, { method: a.method, amount, splitPart, extraTip: a.tip, extraTendered: a.extraTendered });
  },
  async refund({ core, model }, a) {
    // Cash only: a card payment taken offline cannot be refunded until the cloud confirms it.
    const refundable = model.payments.filter((p) => p.method === 'cash' && p.amount - p.refunded > 0);
    if (refundable.length === 0) return;
    const payment = refundable[a.payment % refundable.length]!;
    const amount = Math.max(1, Math.floor(((payment.amount - payment.refunded) * a.percent) / 100));
    await ok(core, 'payments.refund', { paymentId: payment.id, amount, reason: 'requested_by_customer', ...approval(a.who) });
    payment.refunded += amount;
    model.refunds.push({ amount, method: payment.method, by: a.who });
    model.drawer -= amount;
    // Given back on a reopened check: the report says it with the reopening too.
    const reopening = model.reopenings.find((r) => r.orderId === payment.orderId);
    if (reopening) reopening.refunded += amount;
  },
  async void({ core, model }, a) {
    const unpaid = model.orders.filter((o) => isOpenCheck(o) && o.paid === 0);
    if (unpaid.length === 0) return;
    const order = unpaid[a.order % unpaid.length]!;
    await ok(core, 'orders.cancel', { reason: 'Rung up by mistake', id: order.id, ...approval(a.who) });
    order.voided = true;
    order.voidedBy = a.who;
  },
  async walkout({ core, model }, a) {
    const open = model.orders.filter(isOpenCheck);
    if (open.length === 0) return;
    const order = open[a.order % open.length]!;
    await ok(core, 'orders.fulfil', { id: order.id, walkout: { reason: 'left without paying' }, ...approval(a.who) });
    order.walkoutBy = a.who;
  },
  async move({ core, model }, a) {
    const amount = Math.floor((model.drawer * a.percent) / 100);
    if (amount < 1) return;
    await ok(core, 'shift.moveCash', { kind: a.move, amount, reason: a.move === 'drop' ? 'to the safe' : 'supplies', ...(a.move === 'paid_out' ? approval(a.who) : {}) });
    if (a.move === 'paid_out') model.paidOuts += amount;
    else model.drops += amount;
    model.drawer -= amount;
  },
};

/** A day whose actions are of any kinds `steps` knows. */
export interface DayOf<A> {
  opener: StaffKey;
  float: CashCount;
  actions: A[];
  closer: StaffKey;
  count: CashCount;
}

/**
 * Runs a day on a core with `steps` (one per kind of action): the opener opens the drawer, each
 * action is done by its staff member, the closer closes the drawer and the owner asks for the Z
 * report. `before(i)` runs before action i (an outage starting, say).
 */
export async function runDayWith<A extends { kind: string; who: StaffKey }>(
  core: Pick<Core, 'invoke'>,
  day: DayOf<A>,
  items: readonly { id: string; price: number }[],
  steps: DaySteps<A>,
  before?: (i: number) => Promise<void>,
): Promise<DayResult> {
  const model: DayModel = { orders: [], payments: [], refunds: [], reopenings: [], paidOuts: 0, drops: 0, float: countTotal(day.float), drawer: countTotal(day.float), counted: countTotal(day.count) };
  const ctx: DayContext = { core, model, items };
  await as(core, day.opener);
  await ok(core, 'shift.open', { count: day.float });

  for (const [i, a] of day.actions.entries()) {
    await before?.(i);
    await as(core, a.who);
    const step = steps[a.kind as A['kind']] as (ctx: DayContext, action: A) => Promise<void>;
    await step(ctx, a);
  }

  await as(core, day.closer);
  const shift = await ok(core, 'shift.close', { count: day.count, note: 'end of day', ...approval(day.closer) });
  await as(core, 'owner');
  const report = await ok(core, 'reports.z', {});
  return { model, shift, report };
}

/**
 * Runs the plain day on a core: `items` are the menu items the actions pick from (by index), `prices`
 * their prices; `before(i)` runs before action i (an outage starting, say).
 */
export function runDay(core: Pick<Core, 'invoke'>, day: Day, items: readonly { id: string; price: number }[], before?: (i: number) => Promise<void>): Promise<DayResult> {
  return runDayWith(core, day, items, DAY_STEPS, before);
}

/** What each staff member's byStaff row must say, from the model. */
export function byStaffModel(model: DayModel): Map<string, { orders: number; sales: number; payments: number; tips: number; refunds: number; voids: number }> {
  const rows = new Map<string, { orders: number; sales: number; payments: number; tips: number; refunds: number; voids: number }>();
  const row = (key: StaffKey) => {
    const id = STAFF_ID[key];
    if (!rows.has(id)) rows.set(id, { orders: 0, sales: 0, payments: 0, tips: 0, refunds: 0, voids: 0 });
    return rows.get(id)!;
  };
  for (const o of model.orders) {
    if (isSale(o)) {
      row(o.owner).orders += 1;
      row(o.owner).sales += o.total;
    } else if (o.voided) {
      row(o.voidedBy!).voids += 1;
    }
  }
  for (const p of model.payments) {
    row(p.by).payments += p.amount;
    row(p.by).tips += p.tip;
  }
  for (const r of model.refunds) row(r.by).refunds += r.amount;
  return rows;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * The drawer and the Z report agree with the model kept from the actions, and the report's figures
 * add up among themselves: every order placed is in exactly one place (sales, open checks,
 * walkouts, voids), every payment in its tender, every tip (a gratuity's part included) in the
 * tips, the gratuity block what the sales' payments carried of theirs, and the drawer what the cash
 * came to. (test/core/shifts.test.ts checks the plain day with its own copy of the same.)
 */
export function checkDayAddsUp({ model, shift, report }: DayResult): void {
  const cash = model.payments.filter((p) => p.method === 'cash');
  const card = model.payments.filter((p) => p.method === 'card');
  expect(shift).toMatchObject({
    status: 'closed',
    float: model.float,
    cashSales: sum(cash.map((p) => p.amount)),
    cashTips: sum(cash.map((p) => p.tip)),
    cashRefunds: sum(model.refunds.filter((r) => r.method === 'cash').map((r) => r.amount)),
    paidOuts: model.paidOuts,
    drops: model.drops,
    cardSales: sum(card.map((p) => p.amount)),
    cardTips: sum(card.map((p) => p.tip)),
    payments: model.payments.length,
    expected: model.drawer,
    counted: model.counted,
    overShort: model.counted - model.drawer,
  });

  const sold = model.orders.filter(isSale);
  const voided = model.orders.filter((o) => o.voided);
  const open = model.orders.filter(isOpenCheck);
  const walkedOut = model.orders.filter((o) => o.walkoutBy !== null);
  expect(report.sales.orders).toBe(sold.length);
  expect(report.sales.total).toBe(sum(sold.map((o) => o.total)));
  expect(report.openChecks).toMatchObject({ count: open.length, total: sum(open.map((o) => o.total)), paid: sum(open.map((o) => o.paid)), due: sum(open.map((o) => o.total - o.paid)) });
  expect(report.openChecks.orders.map((o) => [o.orderId, o.staff?.id]).sort()).toEqual(open.map((o) => [o.id, STAFF_ID[o.owner]]).sort());
  expect(report.walkouts).toMatchObject({ count: walkedOut.length, total: sum(walkedOut.map((o) => o.total)), unpaid: sum(walkedOut.map((o) => o.total - o.paid)) });
  expect(report.walkouts.orders.map((w) => [w.orderId, w.staff?.id, w.approvedBy?.id ?? null]).sort()).toEqual(
    walkedOut.map((o) => [o.id, STAFF_ID[o.walkoutBy!], o.walkoutBy === 'cashier' || o.walkoutBy === 'cashier2' ? STAFF_ID.manager : null]).sort(),
  );
  // Every order placed is in one block (a merged one's total is in the check it went into).
  expect(report.sales.total + report.openChecks.total + report.walkouts.total + report.voids.amount).toBe(sum(model.orders.filter((o) => o.mergedInto === null).map((o) => o.total)));
  expect(sum(model.payments.map((p) => p.amount))).toBe(report.sales.total + report.openChecks.paid + report.walkouts.paid);
  expect(sum(report.byStaff.map((s) => s.sales))).toBe(report.sales.total);
  expect(sum(report.byTender.map((r) => r.amount))).toBe(sum(model.payments.map((p) => p.amount)));
  expect(sum(report.byTender.map((r) => r.tips))).toBe(sum(model.payments.map((p) => p.tip)));
  expect(sum(report.byTender.map((r) => r.payments))).toBe(model.payments.length);
  expect(report.byTender.find((r) => r.method === 'cash') ?? { amount: 0, tips: 0 }).toMatchObject({ amount: sum(cash.map((p) => p.amount)), tips: sum(cash.map((p) => p.tip)) });
  expect(report.refunds).toMatchObject({ count: model.refunds.length, amount: sum(model.refunds.map((r) => r.amount)), cash: sum(model.refunds.map((r) => r.amount)), card: 0 });
  expect(report.voids).toEqual({ count: voided.length, amount: sum(voided.map((o) => o.total)) });
  expect(report.cash).toMatchObject({ closedShifts: 1, openShifts: 0, expected: shift.expected, counted: model.counted, overShort: model.counted - model.drawer, float: model.float });
  // Tips, a party's gratuity included, are what the payments carried on top of their amounts.
  expect(report.tips).toEqual({ card: sum(card.map((p) => p.tip)), cash: sum(cash.map((p) => p.tip)) });
  // The gratuity block: only what the sales' payments were charged of it, never a tip given after a manager took it off.
  expect(report.gratuity).toEqual(gratuityModel(model));
  expect(report.gratuity.collected).toBeLessThanOrEqual(report.tips.card + report.tips.cash);
  const staff = new Map(report.byStaff.map(({ staff: member, ...row }) => [member.id, row]));
  expect(staff).toEqual(byStaffModel(model));
  for (const row of report.byTender) expect(row.net).toBe(row.amount + row.tips - row.refunds);
  expect(sum(report.byCategory.map((c) => c.net))).toBe(report.sales.net);
  expect(report.sales.net + report.sales.tax).toBe(report.sales.total); // tax added on top
  expect(report.sales.tax).toBe(sum(sold.map((o) => o.tax)));
  expect(sum(report.taxes.map((t) => t.amount))).toBe(report.sales.tax);
  // Reopened checks: what their linked checks sold (net, already in the sales), what their originals gave back since.
  const reopened = model.reopenings.map((r) => {
    const linked = model.orders.find((o) => o.id === r.linkedId);
    return [r.orderId, linked && isSale(linked) ? linked.total - linked.tax : 0, r.refunded, STAFF_ID[r.by], r.by === 'cashier' || r.by === 'cashier2' ? STAFF_ID.manager : null] as const;
  });
  expect(report.reopened).toMatchObject({ checks: reopened.length, added: sum(reopened.map((r) => r[1])), refunded: sum(reopened.map((r) => r[2])) });
  expect(report.reopened.orders.map((r) => [r.orderId, r.added, r.refunded, r.staff?.id, r.approvedBy?.id ?? null]).sort()).toEqual(reopened.map((r) => [...r]).sort());
}

/** The report's figures only: no ids, labels, times or what the cloud has yet. */
export function reportFigures(report: ZReport): unknown {
  const { complete: _c, notInCloud: _n, offlineCards: _o, generatedAt: _g, shifts, openChecks, walkouts, reopened, ...rest } = report;
  return {
    ...rest,
    reopened: { ...reopened, orders: reopened.orders.map(({ orderId: _id, ...r }) => r) },
    openChecks: { ...openChecks, orders: openChecks.orders.map(({ orderId: _id, ...o }) => o) },
    walkouts: { ...walkouts, orders: walkouts.orders.map(({ orderId: _id, ...w }) => w) },
    shifts: shifts.map(({ id: _id, openedAt: _oa, closedAt: _ca, movements, ...shift }) => ({
      ...shift,
      movements: movements.map(({ id: _mid, at: _at, ...m }) => m),
    })),
  };
}

/**
 * A clock at a fixed instant that then runs in real time (the sync engine's timers need time to
 * pass): 20:00 UTC of the last day whose 20:00 has passed, midday in the sandbox's Los Angeles,
 * far from the 04:00 turn of the business day.
 */
export function fixedRunningClock(): Clock {
  const now = Date.now();
  const today = new Date(now);
  let anchor = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 20, 0, 0);
  if (anchor > now) anchor -= 24 * 60 * 60_000;
  const start = performance.now();
  return { now: () => anchor + Math.floor(performance.now() - start) };
}

/** A core against a sandbox (its first location, its full API key), with the test staff, quick sync timers and `clock`. */
export async function startTillOnSandbox(sandbox: Sandbox, clock: Clock, config: Partial<TerminalConfigInput> = {}): Promise<Core> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pos-day-'));
  const secretStore = new FileSecretStore(join(dataDir, 'secrets.json'));
  await secretStore.setMany({ api_key: sandbox.credentials.apiKeys.full });
  return startCore(
    TerminalConfig.parse({
      dataDir,
      api: { baseUrl: sandbox.baseUrl, apiHost: sandbox.apiHost, authUrl: sandbox.authUrl },
      locationId: sandbox.credentials.locationIds[0],
      ...config,
      staff: { ...config.staff, members: testStaffConfig().members as never },
    }),
    {
      logger: silentLogger,
      secretStore,
      clock,
      createEngine: (engine) =>
        createSyncEngine({
          ...engine,
          timers: { pushIntervalMs: 200, localWriteDelayMs: 10, probe: { idleIntervalMs: 300, minGapMs: 50, timeoutMs: 500 } },
          tuning: { ...engine.tuning, offlineBackoff: { baseMs: 100, capMs: 400 } },
        }),
    },
  );
}
