// The end-of-day (Z) report (main/core/staff/z-report.ts) and its exports (report-csv.ts,
// report-doc.ts): random days whose figures agree with each other, and the identities a till that
// balances must keep; then worked days with every figure written out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PaymentStatus, SyncState } from '../../bridge/contract';
import type { PaymentMethod } from '../../bridge/primitives';
import { ZReport } from '../../bridge/reports/contract';
import type { ShiftView, StaffRef } from '../../bridge/staff/contract';
import { minorDigits } from '../../bridge/money';
import type { DayOpenCheck, DayPayment, DayRecords, DayRefund, DayReopening, DaySale, DaySaleLine, DayVoid, DayWalkout } from '../../main/core/staff/day-records';
import { majorUnits, ratePercent, zReportCsv } from '../../main/core/staff/report-csv';
import { NOT_COMPLETE_TEXT, zReportDoc } from '../../main/core/staff/report-doc';
import { buildZReport, NOT_RECORDED_STAFF } from '../../main/core/staff/z-report';
import { ReportDoc, renderReport } from '../../printing/index';

const RUNS = { numRuns: 300 };
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
/** The CSV's times on a UTC clock: what the properties below compare does not depend on a zone. */
const IN_UTC = { timeZone: 'UTC' };

// ---- a tiny RFC 4180 reader: strict about CRLF and quotes, so a sloppy writer fails here ----

function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += text[i];
        i += 1;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
        field += text[i];
        i += 1;
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i += 1;
      continue;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') {
      records.push(record);
      record = [];
      i += 2;
      continue;
    }
    if (i >= text.length) {
      records.push(record);
      break;
    }
    throw new Error(`a bare line break or text after a closing quote at ${i}`);
  }
  return records;
}

/** The CSV's blocks (records between empty lines): the first is the header block, each other one starts with its title. */
function csvBlocks(csv: string): string[][][] {
  const blocks: string[][][] = [[]];
  for (const record of parseCsv(csv)) {
    if (record.length === 1 && record[0] === '') blocks.push([]);
    else blocks[blocks.length - 1]!.push(record);
  }
  return blocks;
}

function csvBlock(csv: string, title: string): { header: string[]; rows: string[][] } {
  const block = csvBlocks(csv).find((b) => b[0]?.length === 1 && b[0][0] === title);
  if (!block) throw new Error(`no "${title}" block`);
  return { header: block[1] ?? [], rows: block.slice(2) };
}

/** A major-units cell back to minor units, checking it has exactly the currency's digits. */
function minorOf(cell: string, digits: number): number {
  const pattern = digits === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${digits}}$`);
  if (!pattern.test(cell)) throw new Error(`"${cell}" is not an amount with ${digits} digits`);
  return Number(cell.replace('.', ''));
}

const NUMBER_CELL = /^-?\d+(\.\d+)?$/;
/** What a text cell holds once guarded against formula injection. */
const guarded = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

// ---- random days whose figures agree ----

const MENU = [
  { item: 'Burger', category: 'Mains' },
  { item: 'Soup', category: 'Starters' },
  { item: 'Soup', category: 'Mains' },
  { item: 'Fries, large', category: 'Sides' },
  { item: '=HYPERLINK("http://x")', category: '@Specials' },
  { item: 'Soda', category: 'Drinks' },
  { item: '"Chef\'s" pie\nwith gravy', category: 'Mains' },
  { item: '-Lemonade', category: '+Drinks' },
] as const;

const TAX_SCHEMES: readonly (readonly { name: string; ratePpm: number }[])[] = [
  [],
  [{ name: 'VAT', ratePpm: 200_000 }],
  [
    { name: 'State', ratePpm: 60_000 },
    { name: 'City', ratePpm: 20_000 },
  ],
  [{ name: 'Sales tax', ratePpm: 88_750 }],
  [{ name: 'VAT', ratePpm: 50_000 }],
];

const syncState = fc.constantFrom<SyncState>('synced', 'synced', 'synced', 'pending', 'failed');
const staffIndex = fc.option(fc.nat(3), { nil: null, freq: 6 });
const staffName = fc.oneof(fc.constantFrom('Ana', 'Bo', 'Chen, Li', '=cmd|calc', 'Zoë', '"Q"', '+1 Mike', 'ana'), fc.string({ minLength: 1, maxLength: 6 }));

const rawLine = fc.record({
  menu: fc.nat(MENU.length - 1),
  quantity: fc.integer({ min: 1, max: 5 }),
  unit: fc.integer({ min: 0, max: 5_000 }),
  comp: fc.nat(7).map((n) => n === 0),
  discountPpm: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 1_000_000 })),
});
const rawSale = fc.record({
  lines: fc.array(rawLine, { minLength: 1, maxLength: 5 }),
  staff: staffIndex,
  scheme: fc.nat(TAX_SCHEMES.length - 1),
  taxIncluded: fc.boolean(),
  orderDiscountPpm: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null, freq: 3 }),
  syncState,
  label: fc.option(fc.string({ maxLength: 5 }), { nil: null, freq: 2 }),
});
const rawPayment = fc.record({
  order: fc.nat(40),
  method: fc.constantFrom<PaymentMethod>('card', 'cash'),
  amount: fc.integer({ min: 0, max: 20_000 }),
  tip: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2_000 })),
  status: fc.constantFrom<PaymentStatus>('captured', 'captured', 'queued_offline', 'pending', 'failed'),
  syncState,
  staff: staffIndex,
});
const rawRefund = fc.record({
  order: fc.nat(40),
  method: fc.constantFrom<PaymentMethod>('card', 'cash'),
  amount: fc.integer({ min: 1, max: 5_000 }),
  syncState,
  staff: staffIndex,
});
const rawVoid = fc.record({ amount: fc.integer({ min: 0, max: 10_000 }), staff: staffIndex, label: fc.string({ maxLength: 4 }) });
const rawShift = fc.record({
  float: fc.integer({ min: 0, max: 50_000 }),
  cashSales: fc.integer({ min: 0, max: 100_000 }),
  cashTips: fc.integer({ min: 0, max: 5_000 }),
  cashRefunds: fc.integer({ min: 0, max: 5_000 }),
  /** Of the cash sales and tips, the part taken toward other tills' orders (parts per million). */
  forOtherTillsPpm: fc.integer({ min: 0, max: 1_000_000 }),
  paidOuts: fc.integer({ min: 0, max: 5_000 }),
  drops: fc.integer({ min: 0, max: 50_000 }),
  closed: fc.boolean(),
  countedDelta: fc.integer({ min: -2_000, max: 2_000 }),
  opener: fc.nat(3),
});
/** An open check: paid less than its total so far. */
const rawOpenCheck = fc.record({ total: fc.integer({ min: 1, max: 10_000 }), paidPpm: fc.integer({ min: 0, max: 999_999 }), staff: staffIndex, label: fc.string({ maxLength: 4 }) });
/** A walkout: something was due when a manager closed it. */
const rawWalkout = fc.record({
  total: fc.integer({ min: 1, max: 10_000 }),
  paidPpm: fc.integer({ min: 0, max: 999_999 }),
  staff: staffIndex,
  approver: fc.option(fc.nat(3), { nil: null }),
  reason: fc.string({ minLength: 1, maxLength: 30 }),
  label: fc.string({ maxLength: 4 }),
});

/** A closed check reopened on the day: `linked` an index into the day's sales (past them: nothing added yet, or not sold yet). */
const rawReopening = fc.record({
  original: fc.nat(40),
  linked: fc.option(fc.nat(40), { nil: null }),
  refunded: fc.integer({ min: 0, max: 5_000 }),
  staff: staffIndex,
  approver: fc.option(fc.nat(3), { nil: null }),
  reason: fc.string({ minLength: 1, maxLength: 30 }),
});

type RawSale = typeof rawSale extends fc.Arbitrary<infer R> ? R : never;

function makeSale(raw: RawSale, i: number, staff: StaffRef | null): DaySale {
  const scheme = TAX_SCHEMES[raw.scheme] ?? [];
  const base = raw.lines.map((l) => {
    const menu = MENU[l.menu]!;
    const gross = l.quantity * l.unit;
    return { menu, quantity: l.quantity, gross, comp: l.comp, lineDiscount: l.comp ? gross : Math.floor((gross * l.discountPpm) / 1_000_000) };
  });
  // The order discount on what the non-comp lines still cost, shared greedily (never more than a line has left).
  const left = base.map((l) => (l.comp ? 0 : l.gross - l.lineDiscount));
  let orderDiscount = raw.orderDiscountPpm === null ? 0 : Math.floor((sum(left) * raw.orderDiscountPpm) / 1_000_000);
  const shares = left.map((room) => {
    const share = Math.min(room, orderDiscount);
    orderDiscount -= share;
    return share;
  });
  const rates = sum(scheme.map((t) => t.ratePpm));
  const taxAmounts = scheme.map(() => 0);
  const lines: DaySaleLine[] = base.map((l, j) => {
    const net = l.gross - l.lineDiscount - (shares[j] ?? 0);
    const perTax = scheme.map((t) => Math.round(raw.taxIncluded ? (net * t.ratePpm) / (1_000_000 + rates) : (net * t.ratePpm) / 1_000_000));
    perTax.forEach((amount, k) => (taxAmounts[k] = (taxAmounts[k] ?? 0) + amount));
    const tax = sum(perTax);
    return {
      item: l.menu.item,
      category: l.menu.category,
      quantity: l.quantity,
      gross: l.gross,
      lineDiscount: l.lineDiscount,
      orderDiscount: shares[j] ?? 0,
      net,
      tax,
      total: raw.taxIncluded ? net : net + tax,
      comp: l.comp,
    };
  });
  return {
    orderId: `ord_${i}`,
    label: raw.label ?? `A${i + 1}`,
    staff,
    lines,
    taxes: scheme.map((t, k) => ({ ...t, amount: taxAmounts[k] ?? 0 })),
    taxIncluded: raw.taxIncluded,
    total: sum(lines.map((l) => l.total)),
    orderDiscount: raw.orderDiscountPpm !== null,
    syncState: raw.syncState,
  };
}

const dayRecords: fc.Arbitrary<DayRecords> = fc
  .record({
    staffNames: fc.array(staffName, { minLength: 2, maxLength: 4 }),
    currency: fc.constantFrom('usd', 'eur', 'jpy', 'bhd'),
    till: fc.constantFrom('A', 'B 2', '=T'),
    sales: fc.array(rawSale, { maxLength: 30 }),
    payments: fc.array(rawPayment, { maxLength: 40 }),
    refunds: fc.array(rawRefund, { maxLength: 8 }),
    voids: fc.array(rawVoid, { maxLength: 5 }),
    shifts: fc.array(rawShift, { maxLength: 3 }),
    openChecks: fc.array(rawOpenCheck, { maxLength: 4 }),
    walkouts: fc.array(rawWalkout, { maxLength: 3 }),
    reopenings: fc.array(rawReopening, { maxLength: 3 }),
    allSynced: fc.boolean(),
  })
  .map((raw) => {
    const staff: StaffRef[] = raw.staffNames.map((name, i) => ({ id: `st_${i}`, name }));
    const who = (i: number | null) => (i === null ? null : (staff[i % staff.length] ?? null));
    const state = (s: SyncState): SyncState => (raw.allSynced ? 'synced' : s);
    const sales = raw.sales.map((s, i) => ({ ...makeSale(s, i, who(s.staff)), syncState: state(s.syncState) }));
    // An index past the day's sales is an order from elsewhere (another day, another till).
    const order = (i: number) => {
      const sale = sales[i];
      return sale ? { orderId: sale.orderId, orderLabel: sale.label } : { orderId: `ord_other_${i}`, orderLabel: `B${i}` };
    };
    const payments: DayPayment[] = raw.payments.map((p, i) => ({
      id: `pay_${String(i).padStart(3, '0')}`,
      ...order(p.order),
      method: p.method,
      amount: p.amount,
      tip: p.tip,
      status: p.method === 'cash' && p.status === 'queued_offline' ? 'captured' : p.status,
      // A refused payment keeps whatever state it has: it counts nowhere.
      syncState: p.status === 'failed' ? p.syncState : state(p.syncState),
      staff: who(p.staff),
    }));
    const refunds: DayRefund[] = raw.refunds.map((r, i) => ({ id: `re_${i}`, ...order(r.order), method: r.method, amount: r.amount, syncState: state(r.syncState), staff: who(r.staff) }));
    const voids: DayVoid[] = raw.voids.map((v, i) => ({ orderId: `void_${i}`, label: v.label, amount: v.amount, staff: who(v.staff) }));
    const partOf = (total: number, ppm: number) => Math.floor((total * ppm) / 1_000_000);
    const openChecks: DayOpenCheck[] = raw.openChecks.map((c, i) => ({ orderId: `open_${i}`, label: c.label, total: c.total, paid: partOf(c.total, c.paidPpm), staff: who(c.staff) }));
    const walkouts: DayWalkout[] = raw.walkouts.map((w, i) => {
      const paid = partOf(w.total, w.paidPpm);
      return { orderId: `walk_${i}`, label: w.label, total: w.total, paid, unpaid: w.total - paid, reason: w.reason, staff: who(w.staff), approvedBy: who(w.approver) };
    });
    // A check is reopened once (one reopening per original), and a linked check opens from one reopening.
    const linkedTaken = new Set<number>();
    const oncePerLinked = [...new Map(raw.reopenings.map((r) => [r.original, r])).values()].filter((r) => {
      if (r.linked === null) return true;
      if (r.linked === r.original || linkedTaken.has(r.linked)) return false;
      linkedTaken.add(r.linked);
      return true;
    });
    const reopenings: DayReopening[] = oncePerLinked.map((r) => {
      const linked = r.linked === null ? undefined : sales[r.linked];
      return { ...order(r.original), label: order(r.original).orderLabel, linkedId: linked?.orderId ?? null, linkedLabel: linked?.label ?? null, reason: r.reason, refunded: r.refunded, staff: who(r.staff), approvedBy: who(r.approver) };
    }).map(({ orderLabel: _label, ...r }) => r);
    const shifts: ShiftView[] = raw.shifts.map((s, i) => {
      const expected = s.float + s.cashSales + s.cashTips - s.cashRefunds - s.paidOuts - s.drops;
      const counted = s.closed ? Math.max(0, expected + s.countedDelta) : null;
      const opener = staff[s.opener % staff.length]!;
      return {
        id: `shf_${i}`,
        drawer: i === 0 ? 'Till A' : `Drawer ${i}`,
        status: s.closed ? 'closed' : 'open',
        businessDay: '2025-03-14',
        openedAt: `2025-03-14T${String(8 + i).padStart(2, '0')}:00:00.000Z`,
        openedBy: opener,
        currency: raw.currency,
        float: s.float,
        floatCount: [],
        cashSales: s.cashSales,
        cashTips: s.cashTips,
        cashRefunds: s.cashRefunds,
        cashForOtherTills: Math.floor(((s.cashSales + s.cashTips) * s.forOtherTillsPpm) / 1_000_000),
        paidOuts: s.paidOuts,
        drops: s.drops,
        cardSales: 0,
        cardTips: 0,
        payments: 0,
        movements: [],
        closedAt: s.closed ? `2025-03-14T2${i}:00:00.000Z` : null,
        closedBy: s.closed ? opener : null,
        count: s.closed ? [] : null,
        counted,
        expected: s.closed ? expected : null,
        overShort: counted === null ? null : counted - expected,
        note: '',
      };
    });
    return {
      businessDay: '2025-03-14',
      currency: raw.currency,
      location: 'Main St, "Downtown"',
      till: raw.till,
      generatedAt: '2025-03-15T04:10:00.000Z',
      sales,
      payments,
      refunds,
      voids,
      openChecks,
      walkouts,
      reopenings,
      shifts,
    };
  });

/** A seeded Fisher–Yates shuffle (mulberry32). */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const liveRecords = (r: DayRecords) => [...r.sales, ...r.payments.filter((p) => p.status !== 'failed'), ...r.refunds];

/** Checks `check` on random days, each with its Z report. */
function forRandomDays(check: (records: DayRecords, z: ZReport) => void, runs: fc.Parameters<[DayRecords]> = RUNS): void {
  fc.assert(fc.property(dayRecords, (records) => check(records, buildZReport(records))), runs);
}

describe('buildZReport on random days', () => {
  it('sales by item and by category add up to the sales, and gross − discounts − comps is net', () => {
    forRandomDays((records, z) => {
      const lines = records.sales.flatMap((s) => s.lines);
      expect(z.sales.orders).toBe(records.sales.length);
      expect(sum(z.byItem.map((r) => r.net))).toBe(z.sales.net);
      expect(sum(z.byCategory.map((r) => r.net))).toBe(z.sales.net);
      expect(z.sales.gross - z.sales.discounts - z.sales.comps).toBe(z.sales.net);
      expect(sum(lines.map((l) => l.net))).toBe(z.sales.net);
      for (const rows of [z.byItem, z.byCategory]) {
        expect(sum(rows.map((r) => r.gross))).toBe(z.sales.gross);
        expect(sum(rows.map((r) => r.discounts))).toBe(z.sales.discounts + z.sales.comps);
        expect(sum(rows.map((r) => r.quantity))).toBe(sum(lines.map((l) => l.quantity)));
        for (const r of rows) expect(r.gross - r.discounts).toBe(r.net);
      }
      expect(sum(z.taxes.map((t) => t.amount))).toBe(z.sales.tax);
      expect(z.sales.total).toBe(sum(records.sales.map((s) => s.total)));
      expect(z.discounts.amount).toBe(z.sales.discounts);
      expect(z.comps.amount).toBe(z.sales.comps);
      expect(z.comps.count).toBe(lines.filter((l) => l.comp).length);
      // Item rows are one per (name, category): "Soup" of the starters is not "Soup" of the mains.
      expect(new Set(z.byItem.map((r) => JSON.stringify([r.item, r.category]))).size).toBe(z.byItem.length);
      expect(new Set(z.byCategory.map((r) => r.category)).size).toBe(z.byCategory.length);
      for (let i = 1; i < z.byItem.length; i++) expect(z.byItem[i - 1]!.net).toBeGreaterThanOrEqual(z.byItem[i]!.net);
      for (let i = 1; i < z.byCategory.length; i++) expect(z.byCategory[i - 1]!.net).toBeGreaterThanOrEqual(z.byCategory[i]!.net);
    });
  });

  it('staff, tenders, tips and refunds agree with each other', () => {
    forRandomDays((records, z) => {
      expect(z.byTender.map((t) => t.method)).toEqual(['card', 'cash']);
      expect(sum(z.byStaff.map((s) => s.sales))).toBe(z.sales.total);
      expect(sum(z.byStaff.map((s) => s.orders))).toBe(z.sales.orders);
      expect(sum(z.byStaff.map((s) => s.payments))).toBe(sum(z.byTender.map((t) => t.amount)));
      expect(sum(z.byStaff.map((s) => s.tips))).toBe(sum(z.byTender.map((t) => t.tips)));
      expect(sum(z.byTender.map((t) => t.tips))).toBe(z.tips.card + z.tips.cash);
      expect(sum(z.byStaff.map((s) => s.refunds))).toBe(z.refunds.amount);
      expect(z.refunds.amount).toBe(z.refunds.card + z.refunds.cash);
      expect(sum(z.byTender.map((t) => t.refunds))).toBe(z.refunds.amount);
      expect(z.refunds.count).toBe(records.refunds.length);
      expect(sum(z.byStaff.map((s) => s.voids))).toBe(z.voids.count);
      expect(z.voids.amount).toBe(sum(records.voids.map((v) => v.amount)));
      for (const t of z.byTender) expect(t.net).toBe(t.amount + t.tips - t.refunds);
      // A refused payment counts nowhere.
      const live = records.payments.filter((p) => p.status !== 'failed');
      expect(sum(z.byTender.map((t) => t.payments))).toBe(live.length);
      expect(sum(z.byTender.map((t) => t.amount))).toBe(sum(live.map((p) => p.amount)));
      const offline = live.filter((p) => p.method === 'card' && p.status === 'queued_offline');
      expect(z.offlineCards).toEqual({ count: offline.length, amount: sum(offline.map((p) => p.amount + p.tip)) });
      // One row per staff member, sorted by name; the records naming nobody under "Not recorded".
      expect(new Set(z.byStaff.map((s) => s.staff.id)).size).toBe(z.byStaff.length);
      const named = z.byStaff.map((s) => s.staff.name);
      expect(named).toEqual([...named].sort(new Intl.Collator('en', { numeric: true }).compare));
      const unrecorded = [...records.sales, ...live, ...records.refunds, ...records.voids].some((r) => r.staff === null);
      expect(z.byStaff.some((s) => s.staff.id === NOT_RECORDED_STAFF.id)).toBe(unrecorded);
    });
  });

  it('cash: each shift adds up on its own line; the total covers the closed shifts only, expected, counted and over/short alike', () => {
    forRandomDays((records, { cash, shifts }) => {
      expect(shifts).toEqual(records.shifts);
      for (const shift of shifts) {
        if (shift.status === 'open') {
          expect([shift.expected, shift.counted, shift.overShort]).toEqual([null, null, null]);
          continue;
        }
        expect(shift.expected).toBe(shift.float + shift.cashSales! + shift.cashTips! - shift.cashRefunds! - shift.paidOuts - shift.drops);
        expect(shift.overShort).toBe(shift.counted! - shift.expected!);
      }
      const closed = records.shifts.filter((s) => s.status === 'closed');
      expect(cash.closedShifts).toBe(closed.length);
      expect(cash.openShifts).toBe(records.shifts.length - closed.length);
      expect(cash.float).toBe(sum(closed.map((s) => s.float)));
      expect(cash.sales).toBe(sum(closed.map((s) => s.cashSales ?? 0)));
      expect(cash.forOtherTills).toBe(sum(closed.map((s) => s.cashForOtherTills ?? 0)));
      expect(cash.forOtherTills).toBeLessThanOrEqual(cash.sales + cash.tips);
      if (closed.length === 0) {
        expect([cash.expected, cash.counted, cash.overShort]).toEqual([null, null, null]);
      } else {
        expect(cash.expected).toBe(cash.float + cash.sales + cash.tips - cash.refunds - cash.paidOuts - cash.drops);
        expect(cash.counted).toBe(sum(closed.map((s) => s.counted ?? 0)));
        // The line adds up: over/short is counted − expected of the same shifts.
        expect(cash.overShort).toBe(cash.counted! - cash.expected!);
      }
    });
  });

  it('open checks and walkouts are apart from the sales, each adding up, and every order is in exactly one place', () => {
    forRandomDays((records, z) => {
      expect(z.sales.orders).toBe(records.sales.length);
      expect(z.sales.total).toBe(sum(records.sales.map((s) => s.total)));
      expect(z.openChecks.count).toBe(records.openChecks.length);
      expect(z.openChecks.total).toBe(sum(records.openChecks.map((c) => c.total)));
      expect(z.openChecks.due).toBe(z.openChecks.total - z.openChecks.paid);
      expect(sum(z.openChecks.orders.map((o) => o.due))).toBe(z.openChecks.due);
      for (const o of z.openChecks.orders) expect(o.due).toBe(o.total - o.paid);
      expect(z.walkouts.count).toBe(records.walkouts.length);
      expect(z.walkouts.unpaid).toBe(z.walkouts.total - z.walkouts.paid);
      expect(sum(z.walkouts.orders.map((w) => w.unpaid))).toBe(z.walkouts.unpaid);
      // What the day's orders came to is the sales, the open checks and the walkouts, nothing counted twice.
      expect(z.sales.total + z.openChecks.total + z.walkouts.total).toBe(sum([...records.sales, ...records.openChecks, ...records.walkouts].map((o) => o.total)));
      const sold = new Set(records.sales.map((s) => s.orderId));
      for (const o of [...z.openChecks.orders, ...z.walkouts.orders]) expect(sold.has(o.orderId)).toBe(false);
    });
  });

  it('reopened checks: what was added is the linked checks’ net sales, already inside the day’s net; each reopening listed once', () => {
    forRandomDays((records, z) => {
      expect(z.reopened.checks).toBe(records.reopenings.length);
      expect(z.reopened.orders).toHaveLength(records.reopenings.length);
      const netOf = (id: string | null) => sum(records.sales.find((s) => s.orderId === id)?.lines.map((l) => l.net) ?? []);
      expect(z.reopened.added).toBe(sum(records.reopenings.map((r) => netOf(r.linkedId))));
      expect(z.reopened.added).toBe(sum(z.reopened.orders.map((o) => o.added)));
      expect(z.reopened.refunded).toBe(sum(records.reopenings.map((r) => r.refunded)));
      // Not counted twice: the additions are part of the day's net, which still adds up by line.
      const linkedSales = new Set(records.reopenings.map((r) => r.linkedId));
      expect(z.reopened.added).toBe(sum(records.sales.filter((s) => linkedSales.has(s.orderId)).flatMap((s) => s.lines.map((l) => l.net))));
      expect(z.sales.net).toBe(sum(records.sales.flatMap((s) => s.lines.map((l) => l.net))));
    });
  });

  it('is complete exactly when every sale, payment and refund is in the cloud, and lists each order waiting once', () => {
    forRandomDays((records, z) => {
      const waiting = liveRecords(records).filter((r) => r.syncState !== 'synced');
      expect(z.complete).toBe(waiting.length === 0);
      expect(z.complete).toBe(z.notInCloud.length === 0);
      expect(new Set(z.notInCloud.map((e) => e.orderId))).toEqual(new Set(waiting.map((r) => r.orderId)));
      expect(z.notInCloud).toHaveLength(new Set(waiting.map((r) => r.orderId)).size);
      for (const entry of z.notInCloud) {
        expect(entry.what).not.toBe('');
        const sale = records.sales.find((s) => s.orderId === entry.orderId);
        if (sale) expect(entry.label).toBe(sale.label);
        if (sale?.syncState === 'pending') expect(entry.what).toContain('order waiting');
        if (waiting.some((r) => r.orderId === entry.orderId && r.syncState === 'failed')) expect(entry.what).toContain('refused by the cloud');
      }
    });
  });

  it('gives the same report whatever order the records come in', () => {
    fc.assert(
      fc.property(dayRecords, fc.integer(), (records, seed) => {
        const reordered: DayRecords = {
          ...records,
          sales: shuffled(records.sales, seed).map((s, i) => ({ ...s, lines: shuffled(s.lines, seed + i) })),
          payments: shuffled(records.payments, seed + 1),
          refunds: shuffled(records.refunds, seed + 2),
          voids: shuffled(records.voids, seed + 3),
        };
        const z = buildZReport(records);
        expect(buildZReport(reordered)).toEqual(z);
        expect(zReportCsv(buildZReport(reordered), IN_UTC)).toEqual(zReportCsv(z, IN_UTC));
      }),
      RUNS,
    );
  });

  it('passes the bridge schema (the result of reports.z is checked against it), the "Not recorded" row included', () => {
    forRandomDays((_records, z) => {
      expect(ZReport.safeParse(z).success).toBe(true);
    });
  });
});

describe('zReportCsv on random days', () => {
  it('reads back (RFC 4180) into the same tender figures, with no text cell a spreadsheet would run', () => {
    forRandomDays((_records, z) => {
      const { csv, filename } = zReportCsv(z, IN_UTC);
      expect(filename).toMatch(/^z-report-2025-03-14-till-[A-Za-z0-9_-]+\.csv$/);
      expect(csv.endsWith('\r\n')).toBe(true);
      const digits = minorDigits(z.currency);

      const tender = csvBlock(csv, 'by tender');
      expect(tender.header).toEqual(['tender', 'payments', 'amount', 'tips', 'refunds', 'net']);
      expect(
        tender.rows.map(([method, payments, ...amounts]) => ({
          method,
          payments: Number(payments),
          ...Object.fromEntries(['amount', 'tips', 'refunds', 'net'].map((k, i) => [k, minorOf(amounts[i] ?? '', digits)])),
        })),
      ).toEqual(z.byTender);

      const staff = csvBlock(csv, 'by staff');
      expect(staff.rows.map((r) => r[0])).toEqual(z.byStaff.map((s) => guarded(s.staff.name)));
      expect(staff.rows.map((r) => minorOf(r[2] ?? '', digits))).toEqual(z.byStaff.map((s) => s.sales));
      const items = csvBlock(csv, 'by item');
      expect(items.rows.map((r) => [r[0], r[1], minorOf(r[5] ?? '', digits)])).toEqual(z.byItem.map((r) => [guarded(r.item), guarded(r.category), r.net]));
      const sales = csvBlock(csv, 'sales');
      expect(sales.rows.map((r) => r.slice(1).map((c) => minorOf(c, digits)))).toEqual([[z.sales.gross, z.sales.discounts, z.sales.comps, z.sales.net, z.sales.tax, z.sales.total]]);
      expect(csvBlock(csv, 'cash of the closed shifts').rows[0]?.[8]).toBe(z.cash.expected === null ? '' : majorUnits(z.cash.expected, digits));
      const open = csvBlock(csv, 'open checks');
      expect(open.rows.map((r) => minorOf(r[4] ?? '', digits))).toEqual([...z.openChecks.orders.map((o) => o.due), z.openChecks.due]);
      const walkouts = csvBlock(csv, 'walkouts');
      expect(walkouts.rows.map((r) => minorOf(r[6] ?? '', digits))).toEqual([...z.walkouts.orders.map((w) => w.unpaid), z.walkouts.unpaid]);

      const blocks = csvBlocks(csv);
      expect(blocks[0]).toContainEqual(['complete', z.complete ? 'yes' : 'no']);
      for (const block of blocks.slice(1)) {
        const width = block[1]?.length ?? 0;
        for (const row of block.slice(2)) expect(row).toHaveLength(width);
      }
      for (const cell of blocks.flat(2)) {
        if (NUMBER_CELL.test(cell)) continue;
        expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }
    });
  });
});

describe('zReportDoc on random days', () => {
  it('is a report the printer takes, saying NOT COMPLETE exactly when the cloud lacks records', () => {
    forRandomDays((_records, z) => {
      const doc = zReportDoc(z, { name: 'Café Nord', address: '1 Main St\nSpringfield', phone: '555-0100', timeZone: 'Europe/Paris', locale: 'fr-FR' });
      ReportDoc.parse(doc);
      const text = JSON.stringify(doc);
      expect(text.includes(NOT_COMPLETE_TEXT)).toBe(!z.complete);
      for (const entry of z.notInCloud) expect(doc.sections[0]?.rows.map((r) => r.label)).toContain(`${entry.label}: ${entry.what}`);
      expect(renderReport(doc, { target: 'svg', cpl: 42 })).toContain('<svg');
    }, { numRuns: 40 });
  });
});

// ---- worked days ----

const ana: StaffRef = { id: 'st_ana', name: 'Ana' };
const bo: StaffRef = { id: 'st_bo', name: 'Bo' };
const SALES_TAX = { name: 'Sales tax', ratePpm: 100_000 };

function line(item: string, category: string, quantity: number, gross: number, d: { lineDiscount?: number; orderDiscount?: number; comp?: boolean; tax?: number } = {}): DaySaleLine {
  const lineDiscount = d.comp ? gross : (d.lineDiscount ?? 0);
  const orderDiscount = d.orderDiscount ?? 0;
  const net = gross - lineDiscount - orderDiscount;
  const tax = d.tax ?? 0;
  return { item, category, quantity, gross, lineDiscount, orderDiscount, net, tax, total: net + tax, comp: d.comp ?? false };
}

function withGratuity(sale: DaySale, gratuity: NonNullable<DaySale['gratuity']>): DaySale {
  return { ...sale, gratuity };
}

function sale(orderId: string, label: string, staff: StaffRef | null, lines: DaySaleLine[], extra: { orderDiscount?: boolean; syncState?: SyncState } = {}): DaySale {
  return {
    orderId,
    label,
    staff,
    lines,
    taxes: [{ ...SALES_TAX, amount: sum(lines.map((l) => l.tax)) }],
    taxIncluded: false,
    total: sum(lines.map((l) => l.total)),
    orderDiscount: extra.orderDiscount ?? false,
    syncState: extra.syncState ?? 'synced',
  };
}

function shift(fields: Partial<ShiftView>): ShiftView {
  return {
    id: 'shf_1',
    drawer: 'Till A',
    status: 'closed',
    businessDay: '2025-03-14',
    openedAt: '2025-03-14T08:00:00.000Z',
    openedBy: ana,
    currency: 'usd',
    float: 0,
    floatCount: [],
    cashSales: 0,
    cashTips: 0,
    cashRefunds: 0,
    cashForOtherTills: 0,
    paidOuts: 0,
    drops: 0,
    cardSales: 0,
    cardTips: 0,
    payments: 0,
    movements: [],
    closedAt: '2025-03-14T22:00:00.000Z',
    closedBy: ana,
    count: [],
    counted: null,
    expected: null,
    overShort: null,
    note: '',
    ...fields,
  };
}

/**
 * A1 (Ana): 2 burgers $24.00, fries $4.00, a soda comped ($3.00); 10% off the order ($2.80:
 * $2.40 on the burgers, $0.40 on the fries); 10% sales tax on top. Card $27.72 + $3.00 tip.
 * A2 (Bo), sold offline: a burger $12.00 with $2.00 off; paid by a card stored offline ($11.00);
 * a first card attempt was refused. A3 (Ana): 2 sodas $6.00 + tax, cash $6.60 + $0.40 tip; one
 * soda refunded in cash ($3.30). A4 (Bo) voided ($15.00). A5 (Bo) still open, $20.00 due. A6 (Bo)
 * walked out, $45.95 unpaid, Ana approved. One drawer, closed $0.20 short.
 */
const workedDay: DayRecords = {
  businessDay: '2025-03-14',
  currency: 'usd',
  location: 'Café Nord',
  till: 'A',
  generatedAt: '2025-03-15T04:10:00.000Z',
  sales: [
    // A party whose $3.00 card tip carries $2.50 of automatic gratuity, $0.20 of it tax.
    withGratuity(
      sale(
        'ord_a1',
        'A1',
        ana,
        [
          line('Burger', 'Mains', 2, 2400, { orderDiscount: 240, tax: 216 }),
          line('Fries', 'Sides', 1, 400, { orderDiscount: 40, tax: 36 }),
          line('Soda', 'Drinks', 1, 300, { comp: true }),
        ],
        { orderDiscount: true },
      ),
      { collected: 250, tax: 20 },
    ),
    sale('ord_a2', 'A2', bo, [line('Burger', 'Mains', 1, 1200, { lineDiscount: 200, tax: 100 })], { syncState: 'pending' }),
    sale('ord_a3', 'A3', ana, [line('Soda', 'Drinks', 2, 600, { tax: 60 })]),
  ],
  payments: [
    { id: 'pay_1', orderId: 'ord_a1', orderLabel: 'A1', method: 'card', amount: 2772, tip: 300, status: 'captured', syncState: 'synced', staff: ana },
    { id: 'pay_2', orderId: 'ord_a2', orderLabel: 'A2', method: 'card', amount: 1100, tip: 0, status: 'failed', syncState: 'failed', staff: bo },
    { id: 'pay_3', orderId: 'ord_a2', orderLabel: 'A2', method: 'card', amount: 1100, tip: 0, status: 'queued_offline', syncState: 'pending', staff: bo },
    { id: 'pay_4', orderId: 'ord_a3', orderLabel: 'A3', method: 'cash', amount: 660, tip: 40, status: 'captured', syncState: 'synced', staff: ana },
  ],
  refunds: [{ id: 're_1', orderId: 'ord_a3', orderLabel: 'A3', method: 'cash', amount: 330, syncState: 'synced', staff: ana }],
  voids: [{ orderId: 'ord_a4', label: 'A4', amount: 1500, staff: bo }],
  openChecks: [{ orderId: 'ord_a5', label: 'A5', total: 2000, paid: 0, staff: bo }],
  walkouts: [{ orderId: 'ord_a6', label: 'A6', total: 4595, paid: 0, unpaid: 4595, reason: 'left without paying', staff: bo, approvedBy: ana }],
  reopenings: [{ orderId: 'ord_a3', label: 'A3', linkedId: 'ord_a2', linkedLabel: 'A2', reason: 'Forgot the dessert', refunded: 330, staff: bo, approvedBy: ana }],
  shifts: [shift({ float: 10_000, cashSales: 660, cashTips: 40, cashRefunds: 330, paidOuts: 500, counted: 9_850, expected: 9_870, overShort: -20 })],
};

describe('a worked day', () => {
  const z = buildZReport(workedDay);

  it('has every figure', () => {
    expect(z).toEqual({
      businessDay: '2025-03-14',
      currency: 'usd',
      location: 'Café Nord',
      till: 'A',
      generatedAt: '2025-03-15T04:10:00.000Z',
      complete: false,
      sales: { orders: 3, gross: 4900, discounts: 480, comps: 300, net: 4120, tax: 412, total: 4532 },
      byCategory: [
        { category: 'Mains', quantity: 3, gross: 3600, discounts: 440, net: 3160 },
        { category: 'Drinks', quantity: 3, gross: 900, discounts: 300, net: 600 },
        { category: 'Sides', quantity: 1, gross: 400, discounts: 40, net: 360 },
      ],
      byItem: [
        { item: 'Burger', category: 'Mains', quantity: 3, gross: 3600, discounts: 440, net: 3160 },
        { item: 'Soda', category: 'Drinks', quantity: 3, gross: 900, discounts: 300, net: 600 },
        { item: 'Fries', category: 'Sides', quantity: 1, gross: 400, discounts: 40, net: 360 },
      ],
      byTender: [
        { method: 'card', payments: 2, amount: 3872, tips: 300, refunds: 0, net: 4172 },
        { method: 'cash', payments: 1, amount: 660, tips: 40, refunds: 330, net: 370 },
      ],
      byStaff: [
        { staff: ana, orders: 2, sales: 3432, payments: 3432, tips: 340, refunds: 330, voids: 0 },
        { staff: bo, orders: 1, sales: 1100, payments: 1100, tips: 0, refunds: 0, voids: 1 },
      ],
      taxes: [{ name: 'Sales tax', ratePpm: 100_000, amount: 412 }],
      tips: { card: 300, cash: 40 },
      gratuity: { checks: 1, collected: 250, tax: 20 },
      discounts: { count: 2, amount: 480 },
      comps: { count: 1, amount: 300 },
      refunds: { count: 1, amount: 330, card: 0, cash: 330 },
      voids: { count: 1, amount: 1500 },
      offlineCards: { count: 1, amount: 1100 },
      notInCloud: [{ orderId: 'ord_a2', label: 'A2', what: 'order waiting, card payment stored offline' }],
      openChecks: { count: 1, total: 2000, paid: 0, due: 2000, orders: [{ orderId: 'ord_a5', label: 'A5', total: 2000, paid: 0, due: 2000, staff: bo }] },
      walkouts: {
        count: 1,
        total: 4595,
        paid: 0,
        unpaid: 4595,
        orders: [{ orderId: 'ord_a6', label: 'A6', total: 4595, paid: 0, unpaid: 4595, reason: 'left without paying', staff: bo, approvedBy: ana }],
      },
      reopened: {
        checks: 1,
        added: 1000,
        refunded: 330,
        orders: [{ orderId: 'ord_a3', label: 'A3', linkedLabel: 'A2', reason: 'Forgot the dessert', added: 1000, refunded: 330, staff: bo, approvedBy: ana }],
      },
      shifts: workedDay.shifts,
      unreadable: [],
      cash: { closedShifts: 1, openShifts: 0, float: 10_000, sales: 660, tips: 40, refunds: 330, forOtherTills: 0, paidOuts: 500, drops: 0, expected: 9_870, counted: 9_850, overShort: -20 },
    });
    expect(ZReport.parse(z)).toEqual(z);
  });

  it('as CSV, its times on the location’s wall clock as spreadsheets read them, the zone named', () => {
    const { filename, csv } = zReportCsv(z, { timeZone: 'America/New_York' });
    expect(filename).toBe('z-report-2025-03-14-till-A.csv');
    const lines = csv.split('\r\n');
    expect(lines.slice(0, 9)).toEqual([
      'report,Z report (end of day)',
      'business day,2025-03-14',
      'location,Café Nord',
      'till,A',
      'time zone,America/New_York',
      // 04:10 UTC is ten past midnight in New York (EDT): the paper says 12:10 AM.
      'generated at,2025-03-15 00:10:00',
      'currency,USD',
      'complete,no',
      '',
    ]);
    expect(csv).toContain(
      '\r\nshifts\r\ndrawer,status,opened at (America/New_York),opened by,closed at (America/New_York),closed by,float,cash sales,cash tips,cash refunds,paid outs,drops,expected,counted,over short\r\nTill A,closed,2025-03-14 04:00:00,Ana,2025-03-14 18:00:00,Ana,',
    );
    expect(csv).toContain('\r\nsales\r\norders,gross,discounts,comps,net,tax,total\r\n3,49.00,4.80,3.00,41.20,4.12,45.32\r\n\r\n');
    expect(csv).toContain('\r\nby category\r\ncategory,quantity,gross,discounts,net\r\nMains,3,36.00,4.40,31.60\r\nDrinks,3,9.00,3.00,6.00\r\nSides,1,4.00,0.40,3.60\r\n\r\n');
    expect(csv).toContain('\r\nby tender\r\ntender,payments,amount,tips,refunds,net\r\ncard,2,38.72,3.00,0.00,41.72\r\ncash,1,6.60,0.40,3.30,3.70\r\n\r\n');
    expect(csv).toContain('\r\ntaxes\r\ntax,rate percent,amount\r\nSales tax,10,4.12\r\n\r\n');
    expect(csv).toContain('\r\nnot in the cloud\r\norder,what\r\nA2,"order waiting, card payment stored offline"\r\n\r\n');
    expect(csv).toContain('\r\noffline cards\r\ncount,amount\r\n1,11.00\r\n');
    expect(csv).toContain('\r\nopen checks\r\norder,staff,total,paid,due\r\nA5,Bo,20.00,0.00,20.00\r\nall 1,,20.00,0.00,20.00\r\n\r\n');
    expect(csv).toContain('\r\nwalkouts\r\norder,closed by,approved by,reason,total,paid,unpaid\r\nA6,Bo,Ana,left without paying,45.95,0.00,45.95\r\nall 1,,,,45.95,0.00,45.95\r\n\r\n');
    expect(csv).toContain('\r\nreopened checks\r\norder,linked check,reopened by,approved by,reason,added (in sales),refunded since (in refunds)\r\nA3,A2,Bo,Ana,Forgot the dessert,10.00,3.30\r\nall 1,,,,,10.00,3.30\r\n\r\n');
    expect(
      csv.endsWith(
        '\r\ncash of the closed shifts\r\nclosed shifts,open shifts,float,sales,tips,refunds,paid outs,drops,expected,counted,over short,of sales and tips for other tills\r\n1,0,100.00,6.60,0.40,3.30,5.00,0.00,98.70,98.50,-0.20,0.00\r\n\r\nunreadable records\r\nwhat\r\n',
      ),
    ).toBe(true);
  });

  it('on paper', () => {
    const doc = zReportDoc(z, { name: 'Café Nord', address: '1 Main St', phone: '', timeZone: 'America/New_York', locale: 'en-US' });
    expect(doc.title).toBe('Z REPORT');
    expect(doc.location).toEqual({ name: 'Café Nord', address: '1 Main St' });
    expect(doc.time).toEqual({ iso: '2025-03-15T04:10:00.000Z', timeZone: 'America/New_York', locale: 'en-US' });
    expect(doc.subtitle).toEqual(['Business day 2025-03-14', 'Till A', `*** ${NOT_COMPLETE_TEXT} ***`]);
    expect(doc.sections[0]).toEqual({
      title: `${NOT_COMPLETE_TEXT} (1 order)`,
      rows: [
        { label: 'A2: order waiting, card payment stored offline', value: '' },
        { label: 'Offline cards (1)', value: '$11.00' },
      ],
    });
    const section = (title: string) => doc.sections.find((s) => s.title === title)?.rows;
    expect(section('SALES')).toEqual([
      { label: 'Orders', value: '3' },
      { label: 'Gross', value: '$49.00' },
      { label: 'Discounts (2)', value: '-$4.80' },
      { label: 'Comps (1)', value: '-$3.00' },
      { label: 'Net', value: '$41.20' },
      { label: 'Tax', value: '$4.12' },
      { label: 'Total', value: '$45.32' },
    ]);
    expect(section('TAX')).toEqual([{ label: 'Sales tax 10%', value: '$4.12' }]);
    expect(section('TENDERS')?.slice(4)).toEqual([
      { label: 'Cash (1)', value: '$6.60' },
      { label: 'Cash tips', value: '$0.40' },
      { label: 'Cash refunds', value: '-$3.30' },
      { label: 'Cash net', value: '$3.70' },
    ]);
    expect(section('CASH (CLOSED SHIFTS)')?.slice(-3)).toEqual([
      { label: 'Expected', value: '$98.70' },
      { label: 'Counted', value: '$98.50' },
      { label: 'Over/short', value: '-$0.20' },
    ]);
    expect(section('Drawer: Till A')).toEqual([
      { label: 'Opened by', value: 'Ana' },
      { label: 'Closed by', value: 'Ana' },
      { label: 'Float', value: '$100.00' },
      { label: 'Cash sales', value: '$6.60' },
      { label: 'Cash tips', value: '$0.40' },
      { label: 'Cash refunds', value: '-$3.30' },
      { label: 'Paid outs', value: '-$5.00' },
      { label: 'Drops', value: '$0.00' },
      { label: 'Expected', value: '$98.70' },
      { label: 'Counted', value: '$98.50' },
      { label: 'Over/short', value: '-$0.20' },
    ]);
    expect(section('REOPENED CHECKS')).toEqual([
      { label: 'A3 > A2 Bo, ok Ana', value: '' },
      { label: '  Forgot the dessert', value: '' },
      { label: 'Reopened (1)', value: '' },
      { label: 'Added (in sales)', value: '$10.00' },
      { label: 'Refunded since (in refunds)', value: '-$3.30' },
    ]);
    expect(section('OPEN CHECKS (NOT IN SALES)')).toEqual([
      { label: 'A5 Bo due', value: '$20.00' },
      { label: 'Open checks (1)', value: '$20.00' },
      { label: 'Paid so far', value: '$0.00' },
      { label: 'Due', value: '$20.00' },
    ]);
    expect(section('WALKOUTS (NOT IN SALES)')).toEqual([
      { label: 'A6 Bo, ok Ana unpaid', value: '$45.95' },
      { label: '  left without paying', value: '' },
      { label: 'Walkouts (1)', value: '$45.95' },
      { label: 'Paid', value: '$0.00' },
      { label: 'Unpaid', value: '$45.95' },
    ]);
    expect(section('Bo')).toContainEqual({ label: 'Voids', value: '1' });
    expect(doc.footer).toContain(`*** ${NOT_COMPLETE_TEXT} ***`);
    const bytes = renderReport(doc, { cpl: 42 }).toString('latin1');
    expect(bytes).toContain(`*** ${NOT_COMPLETE_TEXT} ***`);
    expect(bytes).toContain('A2: order waiting, card payment');
  });

  it('is complete once the cloud has everything', () => {
    const synced: DayRecords = {
      ...workedDay,
      sales: workedDay.sales.map((s) => ({ ...s, syncState: 'synced' as const })),
      payments: workedDay.payments.map((p) => (p.status === 'failed' ? p : { ...p, status: 'captured' as const, syncState: 'synced' as const })),
    };
    const done = buildZReport(synced);
    expect(done.complete).toBe(true);
    expect(done.notInCloud).toEqual([]);
    expect(done.offlineCards).toEqual({ count: 0, amount: 0 });
    const doc = zReportDoc(done, { name: 'Café Nord', address: '', phone: '', timeZone: 'UTC', locale: 'en-GB' });
    expect(JSON.stringify(doc)).not.toContain(NOT_COMPLETE_TEXT);
    expect(doc.time).toEqual({ iso: '2025-03-15T04:10:00.000Z', timeZone: 'UTC', locale: 'en-GB' });
    expect(zReportCsv(done, IN_UTC).csv).toContain('\r\ncomplete,yes\r\n');
  });
});

describe('other days', () => {
  it('an empty day', () => {
    const z = buildZReport({ ...workedDay, sales: [], payments: [], refunds: [], voids: [], openChecks: [], walkouts: [], shifts: [] });
    expect(z.complete).toBe(true);
    expect(z.sales).toEqual({ orders: 0, gross: 0, discounts: 0, comps: 0, net: 0, tax: 0, total: 0 });
    expect(z.byTender).toEqual([
      { method: 'card', payments: 0, amount: 0, tips: 0, refunds: 0, net: 0 },
      { method: 'cash', payments: 0, amount: 0, tips: 0, refunds: 0, net: 0 },
    ]);
    expect(z.byStaff).toEqual([]);
    expect(z.cash).toEqual({ closedShifts: 0, openShifts: 0, float: 0, sales: 0, tips: 0, refunds: 0, forOtherTills: 0, paidOuts: 0, drops: 0, expected: null, counted: null, overShort: null });
    expect(z.openChecks).toEqual({ count: 0, total: 0, paid: 0, due: 0, orders: [] });
    expect(z.walkouts).toEqual({ count: 0, total: 0, paid: 0, unpaid: 0, orders: [] });
    const doc = zReportDoc(z, { name: 'Café Nord', address: '', phone: '', timeZone: 'UTC', locale: 'en-US' });
    expect(doc.sections.find((s) => s.title === 'CASH (CLOSED SHIFTS)')?.rows.slice(-2)).toEqual([
      { label: 'Counted', value: 'not counted' },
      { label: 'Over/short', value: '-' },
    ]);
    expect(ReportDoc.parse(doc).sections.length).toBeGreaterThan(0);
  });

  it('names the unreadable records on paper and in the CSV', () => {
    const what = 'Order A9 cannot be read (lines: not valid); it and its payments and refunds are left out of these figures.';
    const z = buildZReport({ ...workedDay, unreadable: [what] });
    expect(z.unreadable).toEqual([what]);
    expect(zReportCsv(z, IN_UTC).csv.endsWith(`\r\nunreadable records\r\nwhat\r\n${what}\r\n`)).toBe(true);
    const doc = zReportDoc(z, { name: 'Café Nord', address: '', phone: '', timeZone: 'UTC', locale: 'en-US' });
    expect(doc.sections.find((s) => s.title === 'UNREADABLE RECORDS (1)')?.rows).toEqual([{ label: what, value: '' }]);
    ReportDoc.parse(doc);
  });

  it('an order discount that leaves the order at zero is a comp, counted once with its amount', () => {
    const comped = { ...sale('B1', 'B1', ana, [line('Burger', 'Mains', 1, 1200, { orderDiscount: 1200 }), line('Fries', 'Mains', 1, 450, { orderDiscount: 450 })], { orderDiscount: true }), orderComp: true };
    const discounted = sale('B2', 'B2', ana, [line('Burger', 'Mains', 1, 1200, { orderDiscount: 120 })], { orderDiscount: true });
    const z = buildZReport({ ...workedDay, sales: [comped, discounted], payments: [], refunds: [], voids: [], shifts: [] });
    expect(z.comps).toEqual({ count: 1, amount: 1650 });
    expect(z.discounts).toEqual({ count: 1, amount: 120 });
    expect(z.sales).toMatchObject({ gross: 2850, discounts: 120, comps: 1650, net: 1080 });
  });

  it('a zero-decimal currency: yen in whole units, "refused" and "waiting" named per order, records without staff', () => {
    const records: DayRecords = {
      ...workedDay,
      currency: 'jpy',
      till: 'B 2',
      sales: [
        { ...sale('ord_b1', 'B1', null, [line('Ramen', 'Mains', 1, 1050, { tax: 105 })]), taxes: [{ name: 'Consumption tax', ratePpm: 100_000, amount: 105 }], syncState: 'failed' },
      ],
      payments: [{ id: 'pay_1', orderId: 'ord_b1', orderLabel: 'B1', method: 'cash', amount: 1155, tip: 0, status: 'captured', syncState: 'pending', staff: null }],
      refunds: [{ id: 're_1', orderId: 'ord_b0', orderLabel: 'B0', method: 'card', amount: 150, syncState: 'pending', staff: ana }],
      voids: [],
      shifts: [shift({ currency: 'jpy', float: 30_000, cashSales: 1155, status: 'open', closedAt: null, closedBy: null, count: null })],
    };
    const z = buildZReport(records);
    expect(z.notInCloud).toEqual([
      { orderId: 'ord_b0', label: 'B0', what: 'refund waiting' },
      { orderId: 'ord_b1', label: 'B1', what: 'cash payment waiting, refused by the cloud' },
    ]);
    expect(z.byStaff).toEqual([
      { staff: ana, orders: 0, sales: 0, payments: 0, tips: 0, refunds: 150, voids: 0 },
      { staff: NOT_RECORDED_STAFF, orders: 1, sales: 1155, payments: 1155, tips: 0, refunds: 0, voids: 0 },
    ]);
    // An open shift is not in the cash total: nothing of it is counted yet.
    expect(z.cash).toEqual({ closedShifts: 0, openShifts: 1, float: 0, sales: 0, tips: 0, refunds: 0, forOtherTills: 0, paidOuts: 0, drops: 0, expected: null, counted: null, overShort: null });

    const { filename, csv } = zReportCsv(z, { timeZone: 'Asia/Tokyo' });
    expect(filename).toBe('z-report-2025-03-14-till-B-2.csv');
    expect(csv).toContain('\r\ncurrency,JPY\r\n');
    expect(csv).toContain('\r\nsales\r\norders,gross,discounts,comps,net,tax,total\r\n1,1050,0,0,1050,105,1155\r\n');
    expect(csv).toContain('\r\ncard,0,0,0,150,-150\r\ncash,1,1155,0,0,1155\r\n');
    expect(csv).toContain('\r\nB1,"cash payment waiting, refused by the cloud"\r\n');
    expect(csv).toContain('\r\nTill A,open,2025-03-14 17:00:00,Ana,,,30000,1155,0,0,0,0,,,\r\n');

    const doc = zReportDoc(z, { name: '麺屋', address: '', phone: '', timeZone: 'Asia/Tokyo', locale: 'ja-JP' });
    expect(doc.sections.find((s) => s.title === 'SALES')?.rows).toContainEqual({ label: 'Total', value: '¥1,155' });
    expect(doc.sections.find((s) => s.title === 'TENDERS')?.rows).toContainEqual({ label: 'Card net', value: '-¥150' });
    expect(doc.sections.find((s) => s.title === 'Drawer: Till A (OPEN)')?.rows).toEqual([
      { label: 'Opened by', value: 'Ana' },
      { label: 'Status', value: 'open' },
      { label: 'Float', value: '¥30,000' },
      { label: 'Cash sales', value: '¥1,155' },
      { label: 'Cash tips', value: '¥0' },
      { label: 'Cash refunds', value: '¥0' },
      { label: 'Paid outs', value: '¥0' },
      { label: 'Drops', value: '¥0' },
      { label: 'Expected', value: 'at close' },
    ]);
    expect(doc.sections.find((s) => s.title === 'CASH (CLOSED SHIFTS)')?.rows).toContainEqual({ label: 'Open shifts, not counted', value: '1' });
    ReportDoc.parse(doc);
  });

  it('guards text a spreadsheet would run, and quotes what RFC 4180 says to quote', () => {
    const records: DayRecords = {
      ...workedDay,
      location: '=HYPERLINK("http://evil")',
      sales: [sale('ord_c1', '@C1', { id: 'st_x', name: '+SUM(A1:A9)' }, [line('-2 for 1, "large"', 'Drinks\nCold', 1, 500)])],
      payments: [],
      refunds: [],
      voids: [],
      shifts: [],
    };
    const { csv } = zReportCsv(buildZReport(records), IN_UTC);
    expect(csv).toContain('\r\nlocation,"\'=HYPERLINK(""http://evil"")"\r\n');
    expect(csv).toContain('\r\n"\'-2 for 1, ""large""","Drinks\nCold",1,5.00,0.00,5.00\r\n');
    expect(csv).toContain("\r\n'+SUM(A1:A9),1,5.00,0.00,0.00,0.00,0\r\n");
    expect(csvBlock(csv, 'by item').rows).toEqual([["'-2 for 1, \"large\"", 'Drinks\nCold', '1', '5.00', '0.00', '5.00']]);
  });
});

describe('money in major units', () => {
  it.each<[number, number, string]>([
    [1050, 2, '10.50'],
    [-150, 2, '-1.50'],
    [1050, 0, '1050'],
    [5, 2, '0.05'],
    [-5, 3, '-0.005'],
    [0, 2, '0.00'],
    [-0, 2, '0.00'],
    [123_456_789, 3, '123456.789'],
  ])('%d with %d digits is %s', (amount, digits, text) => {
    expect(majorUnits(amount, digits)).toBe(text);
  });

  it('reads back to the same minor units', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.constantFrom(0, 2, 3), (amount, digits) => {
        expect(minorOf(majorUnits(amount, digits), digits)).toBe(amount);
      }),
    );
  });

  it('rates as percentages', () => {
    expect([200_000, 88_750, 100_000, 0, 1].map(ratePercent)).toEqual(['20', '8.875', '10', '0', '0.0001']);
  });
});
