// A day at the till for the shift and Z-report properties (test/core/shifts.test.ts): random
// actions by random staff, run through the bridge on a core, with a model of what the drawer and
// the report must come to computed here from the actions alone.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { ShiftView, ZReport } from '../../bridge/contract';
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

export interface Day {
  opener: StaffKey;
  float: CashCount;
  actions: DayAction[];
  closer: StaffKey;
  count: CashCount;
}

const USD = denominationsOf('usd');
const who = fc.constantFrom<StaffKey>('owner', 'manager', 'cashier', 'cashier2');
const cashCount = fc.uniqueArray(fc.record({ value: fc.constantFrom(...USD), count: fc.integer({ min: 0, max: 12 }) }), { selector: (line) => line.value, maxLength: 6 });
const action: fc.Arbitrary<DayAction> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      who,
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
      who,
      order: fc.nat(50),
      method: fc.constantFrom<'cash' | 'card'>('cash', 'card'),
      part: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 10, max: 90 })),
      split: fc.nat(3).map((n) => n === 0),
      tip: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 400 })),
      extraTendered: fc.nat(2000),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), who, payment: fc.nat(50), percent: fc.integer({ min: 1, max: 100 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const), who, order: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('walkout' as const), who, order: fc.nat(50) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), who, move: fc.constantFrom<'paid_out' | 'drop'>('paid_out', 'drop'), percent: fc.integer({ min: 1, max: 60 }) }) },
);

export const dayArbitrary: fc.Arbitrary<Day> = fc.record({
  opener: who,
  float: cashCount,
  actions: fc.array(action, { minLength: 6, maxLength: 20 }),
  closer: who,
  count: cashCount,
});

/** What the actions came to, kept by the test on its own. */
export interface DayModel {
  orders: { id: string; total: number; owner: StaffKey; voided: boolean; voidedBy: StaffKey | null; walkoutBy: StaffKey | null; paid: number; split: boolean }[];
  payments: { id: string; method: 'cash' | 'card'; amount: number; tip: number; refunded: number; by: StaffKey }[];
  refunds: { amount: number; method: 'cash' | 'card'; by: StaffKey }[];
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

/** Placed, not voided, not walked out, money still due. */
export const isOpenCheck = (o: DayModel['orders'][number]): boolean => !o.voided && o.walkoutBy === null && o.paid < o.total;
/** Paid in full and neither voided nor walked out: a sale. */
export const isSale = (o: DayModel['orders'][number]): boolean => !o.voided && o.walkoutBy === null && o.paid >= o.total;

/** A PIN for whatever a cashier may not do alone; managers and owners need none. */
const approval = (by: StaffKey) => (by === 'cashier' || by === 'cashier2' ? { managerPin: STAFF.manager.pin } : {});

/**
 * Runs the day on a core: `items` are the menu items the actions pick from (by index), `prices`
 * their prices; `before(i)` runs before action i (an outage starting, say).
 */
export async function runDay(core: Pick<Core, 'invoke'>, day: Day, items: readonly { id: string; price: number }[], before?: (i: number) => Promise<void>): Promise<DayResult> {
  const model: DayModel = { orders: [], payments: [], refunds: [], paidOuts: 0, drops: 0, float: countTotal(day.float), drawer: countTotal(day.float), counted: countTotal(day.count) };
  await as(core, day.opener);
  await ok(core, 'shift.open', { count: day.float });

  for (const [i, a] of day.actions.entries()) {
    await before?.(i);
    await as(core, a.who);
    switch (a.kind) {
      case 'place': {
        const lines = a.lines.map((l) => ({ item: items[l.item % items.length]!, quantity: l.quantity }));
        const subtotal = lines.reduce((sum, l) => sum + l.item.price * l.quantity, 0);
        const discount = a.discount === null ? null : a.discount.kind === 'percent' ? a.discount : { kind: 'amount' as const, value: Math.min(a.discount.value, Math.floor(subtotal / 2)) };
        const order = await ok(core, 'orders.place', {
          lines: lines.map((l) => ({ menuItemId: l.item.id, quantity: l.quantity })),
          discount: discount && discount.value > 0 ? { ...discount, reason: 'Promotion' } : null,
          ...approval(a.who),
        });
        model.orders.push({ id: order.id, total: order.total, owner: a.who, voided: false, voidedBy: null, walkoutBy: null, paid: 0, split: false });
        break;
      }
      case 'pay': {
        const open = model.orders.filter(isOpenCheck);
        if (open.length === 0) break;
        const order = open[a.order % open.length]!;
        const due = order.total - order.paid;
        let amount = a.part === 0 ? due : Math.max(1, Math.floor((due * a.part) / 100));
        let splitPart: string | null = null;
        if (a.split && (order.split || order.paid === 0)) {
          // Split evenly in two (changing it makes the order yours), then pay a half not paid yet.
          if (!order.split) {
            await ok(core, 'orders.update', { id: order.id, split: { kind: 'even', parts: 2 }, ...approval(a.who) });
            order.split = true;
            order.owner = a.who;
          }
          const part = (await ok(core, 'orders.get', { id: order.id })).split?.parts.find((p) => !p.paid && p.amount > 0);
          if (part && part.amount <= due) [amount, splitPart] = [part.amount, part.label];
        }
        const paid = await ok(core, 'payments.take', {
          orderId: order.id,
          method: a.method,
          amount,
          splitPart,
          tip: a.tip,
          ...(a.method === 'cash' ? { tendered: amount + a.tip + a.extraTendered } : {}),
          ...approval(a.who),
        });
        order.paid += amount;
        order.owner = a.who; // charging someone's order makes it yours
        model.payments.push({ id: paid.payment.id, method: a.method, amount, tip: a.tip, refunded: 0, by: a.who });
        if (a.method === 'cash') model.drawer += amount + a.tip;
        break;
      }
      case 'refund': {
        // Cash only: a card payment taken offline cannot be refunded until the cloud confirms it.
        const refundable = model.payments.filter((p) => p.method === 'cash' && p.amount - p.refunded > 0);
        if (refundable.length === 0) break;
        const payment = refundable[a.payment % refundable.length]!;
        const amount = Math.max(1, Math.floor(((payment.amount - payment.refunded) * a.percent) / 100));
        await ok(core, 'payments.refund', { paymentId: payment.id, amount, reason: 'requested_by_customer', ...approval(a.who) });
        payment.refunded += amount;
        model.refunds.push({ amount, method: payment.method, by: a.who });
        model.drawer -= amount;
        break;
      }
      case 'void': {
        const unpaid = model.orders.filter((o) => isOpenCheck(o) && o.paid === 0);
        if (unpaid.length === 0) break;
        const order = unpaid[a.order % unpaid.length]!;
        await ok(core, 'orders.cancel', { reason: 'Rung up by mistake', id: order.id, ...approval(a.who) });
        order.voided = true;
        order.voidedBy = a.who;
        break;
      }
      case 'walkout': {
        const open = model.orders.filter(isOpenCheck);
        if (open.length === 0) break;
        const order = open[a.order % open.length]!;
        await ok(core, 'orders.fulfil', { id: order.id, walkout: { reason: 'left without paying' }, ...approval(a.who) });
        order.walkoutBy = a.who;
        break;
      }
      case 'move': {
        const amount = Math.floor((model.drawer * a.percent) / 100);
        if (amount < 1) break;
        await ok(core, 'shift.moveCash', { kind: a.move, amount, reason: a.move === 'drop' ? 'to the safe' : 'supplies', ...(a.move === 'paid_out' ? approval(a.who) : {}) });
        if (a.move === 'paid_out') model.paidOuts += amount;
        else model.drops += amount;
        model.drawer -= amount;
        break;
      }
    }
  }

  await as(core, day.closer);
  const shift = await ok(core, 'shift.close', { count: day.count, note: 'end of day', ...approval(day.closer) });
  await as(core, 'owner');
  const report = await ok(core, 'reports.z', {});
  return { model, shift, report };
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

/** The report's figures only: no ids, labels, times or what the cloud has yet. */
export function reportFigures(report: ZReport): unknown {
  const { complete: _c, notInCloud: _n, offlineCards: _o, generatedAt: _g, shifts, openChecks, walkouts, ...rest } = report;
  return {
    ...rest,
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
