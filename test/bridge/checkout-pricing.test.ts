// priceCheck: discounts, then tax, added up so the receipt, the tax report and the lines agree
// to the unit whatever the rounding mode.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocate,
  applyBps,
  applyPpm,
  CheckoutError,
  discountAmount,
  priceCheck,
  taxInside,
  type CheckBreakdown,
  type CheckLineInput,
  type DiscountSpec,
  type PricingRules,
  type TaxRate,
} from '../../bridge/checkout';

const RUNS = { numRuns: 300 };
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const rules = (rates: TaxRate[], extra: Partial<PricingRules> = {}): PricingRules => ({ taxIncluded: false, rounding: 'per_line', rates, ...extra });
const line = (unitPrice: number, extra: Partial<CheckLineInput> = {}): CheckLineInput => ({ quantity: 1, unitPrice, taxClass: 'food', discount: null, ...extra });
const pct = (value: number, reason = 'happy hour'): DiscountSpec => ({ kind: 'percent', value, reason });
const off = (value: number, reason = 'regular'): DiscountSpec => ({ kind: 'amount', value, reason });
const food = (ratePpm: number, name = 'Sales tax'): TaxRate => ({ taxClass: 'food', name, ratePpm });

// ---- generators: valid checks only (invalid ones have their own tests) ----

/** A discount valid for `base`, from a kind and a seed: amounts are drawn inside 1..base. */
function discountFor(kind: 'none' | 'percent' | 'amount', seed: number, base: number): DiscountSpec | null {
  if (kind === 'percent') return pct(1 + (seed % 10_000));
  if (kind === 'amount' && base > 0) return off(1 + (seed % base));
  return null;
}
const discountKind = fc.constantFrom<'none' | 'percent' | 'amount'>('none', 'none', 'percent', 'amount');
// Cents, free items, comps, and yen-sized prices.
const unitPrice = fc.oneof(fc.nat(5000), fc.constant(0), fc.integer({ min: 1, max: 1e9 }));
const lineArb = fc.record({
  quantity: fc.integer({ min: 1, max: 20 }),
  unitPrice,
  taxClass: fc.constantFrom('food', 'alcohol', 'untaxed'),
  kind: discountKind,
  seed: fc.nat(),
  comp: fc.boolean(),
});
// Parts per million: everyday rates (0..25%, NYC's 8.875%), 0, and anything up to the 1000% cap.
const ratePpm = fc.oneof(fc.integer({ min: 0, max: 250_000 }), fc.constant(0), fc.constant(88_750), fc.integer({ min: 0, max: 10_000_000 }));
const rulesArb = fc.record({
  taxIncluded: fc.boolean(),
  rounding: fc.constantFrom<'per_line' | 'per_order'>('per_line', 'per_order'),
  rates: fc.array(fc.record({ taxClass: fc.constantFrom('food', 'alcohol', 'nothing-sold'), name: fc.constantFrom('State', 'City'), ratePpm }), { maxLength: 5 }),
});
const checkArb = fc.record({
  lines: fc.array(lineArb, { maxLength: 8 }),
  order: fc.record({ kind: discountKind, seed: fc.nat() }),
  rules: rulesArb,
});
type RawCheck = typeof checkArb extends fc.Arbitrary<infer T> ? T : never;
type CheckCase = { lines: CheckLineInput[]; orderDiscount: DiscountSpec | null; rules: PricingRules };

function build(c: RawCheck): CheckCase {
  const lines = c.lines.map(({ quantity, unitPrice: price, taxClass, kind, seed, comp }) => ({
    quantity,
    unitPrice: price,
    taxClass,
    discount: comp && seed % 4 === 0 ? pct(10_000, 'comp: cold food') : discountFor(kind, seed, quantity * price),
  }));
  const discountable = sum(lines.map((l) => l.quantity * l.unitPrice - (l.discount === null ? 0 : discountAmount(l.discount, l.quantity * l.unitPrice))));
  return { lines, orderDiscount: discountFor(c.order.kind, c.order.seed, discountable), rules: c.rules };
}

function expectIdentities(check: CheckBreakdown, c: CheckCase): void {
  const { lines, rules: r } = c;
  expect(check.lines).toHaveLength(lines.length);
  check.lines.forEach((l, i) => {
    const input = lines[i]!;
    expect(l.gross).toBe(input.quantity * input.unitPrice);
    expect(l.lineDiscount).toBe(input.discount === null ? 0 : discountAmount(input.discount, l.gross));
    expect(l.net).toBe(l.gross - l.lineDiscount - l.orderDiscount);
    expect(l.net).toBeGreaterThanOrEqual(0);
    expect(l.orderDiscount).toBeGreaterThanOrEqual(0);
    expect(l.tax).toBeGreaterThanOrEqual(0);
    if (r.taxIncluded) expect(l.tax).toBeLessThanOrEqual(l.net);
    expect(l.total).toBe(l.net + (r.taxIncluded ? 0 : l.tax));
    if (!r.rates.some((rate) => rate.taxClass === input.taxClass)) expect(l.tax).toBe(0);
  });
  expect(check.subtotal).toBe(sum(check.lines.map((l) => l.gross)));
  expect(check.lineDiscountTotal).toBe(sum(check.lines.map((l) => l.lineDiscount)));
  expect(check.orderDiscountTotal).toBe(sum(check.lines.map((l) => l.orderDiscount)));
  expect(check.orderDiscountTotal).toBe(c.orderDiscount === null ? 0 : discountAmount(c.orderDiscount, check.subtotal - check.lineDiscountTotal));
  expect(check.discountTotal).toBe(check.lineDiscountTotal + check.orderDiscountTotal);
  expect(check.taxTotal).toBe(sum(check.lines.map((l) => l.tax)));
  expect(check.taxTotal).toBe(sum(check.taxes.map((t) => t.amount)));
  expect(check.total).toBe(sum(check.lines.map((l) => l.total)));
  expect(check.total).toBe(check.subtotal - check.discountTotal + (r.taxIncluded ? 0 : check.taxTotal));
  expect(check.taxIncluded).toBe(r.taxIncluded);
  // One tax line per rate with something taxable, in the rules' order.
  const expected = r.rates.filter((rate) => sum(check.lines.filter((_, i) => lines[i]!.taxClass === rate.taxClass).map((l) => l.net)) > 0);
  expect(check.taxes.map(({ taxClass, name, ratePpm: ppm }) => ({ taxClass, name, ratePpm: ppm }))).toEqual(expected);
  check.taxes.forEach((t) => expect(t.taxable).toBe(sum(check.lines.filter((_, i) => lines[i]!.taxClass === t.taxClass).map((l) => l.net))));
}

describe('priceCheck: properties', () => {
  it('adds up: subtotal, discounts, tax and total are the sums of the lines, and no line goes below 0', () => {
    fc.assert(
      fc.property(checkArb, (raw) => {
        const c = build(raw);
        expectIdentities(priceCheck(c.lines, c.orderDiscount, c.rules), c);
      }),
      RUNS,
    );
  });

  it('taxes added on top: per line is each line rounded, per order is the rate on the class total', () => {
    fc.assert(
      fc.property(checkArb, (raw) => {
        const c = build(raw);
        const perLine = priceCheck(c.lines, c.orderDiscount, { ...c.rules, taxIncluded: false, rounding: 'per_line' });
        const perOrder = priceCheck(c.lines, c.orderDiscount, { ...c.rules, taxIncluded: false, rounding: 'per_order' });
        perLine.lines.forEach((l, i) => {
          const rates = c.rules.rates.filter((rate) => rate.taxClass === c.lines[i]!.taxClass);
          expect(l.tax).toBe(sum(rates.map((rate) => applyPpm(l.net, rate.ratePpm))));
        });
        perOrder.taxes.forEach((t) => expect(t.amount).toBe(applyPpm(t.taxable, t.ratePpm)));
        // Discounts do not depend on the tax rounding.
        expect(perOrder.lines.map((l) => l.net)).toEqual(perLine.lines.map((l) => l.net));
      }),
      RUNS,
    );
  });

  it('per order and per line differ by at most the number of lines a rate applies to', () => {
    fc.assert(
      fc.property(checkArb, (raw) => {
        const c = build(raw);
        for (const taxIncluded of [false, true]) {
          const perLine = priceCheck(c.lines, c.orderDiscount, { ...c.rules, taxIncluded, rounding: 'per_line' });
          const perOrder = priceCheck(c.lines, c.orderDiscount, { ...c.rules, taxIncluded, rounding: 'per_order' });
          expect(perOrder.taxes.map((t) => t.taxable)).toEqual(perLine.taxes.map((t) => t.taxable));
          const linesOf = (taxClass: string) => c.lines.filter((l) => l.taxClass === taxClass).length;
          perLine.taxes.forEach((t, k) => {
            expect(Math.abs(t.amount - perOrder.taxes[k]!.amount)).toBeLessThanOrEqual(linesOf(t.taxClass));
          });
          // Each rate rounds on its own: a line under several rates (a state and a city tax) counts once per rate.
          expect(Math.abs(perLine.taxTotal - perOrder.taxTotal)).toBeLessThanOrEqual(sum(perLine.taxes.map((t) => linesOf(t.taxClass))));
        }
      }),
      RUNS,
    );
  });

  it("tax included: a class's tax is what is left after taking the price back to before tax", () => {
    fc.assert(
      fc.property(checkArb, (raw) => {
        const c = build(raw);
        const perLine = priceCheck(c.lines, c.orderDiscount, { ...c.rules, taxIncluded: true, rounding: 'per_line' });
        const perOrder = priceCheck(c.lines, c.orderDiscount, { ...c.rules, taxIncluded: true, rounding: 'per_order' });
        expect(perLine.total).toBe(perLine.subtotal - perLine.discountTotal);
        perLine.lines.forEach((l, i) => {
          const combined = sum(c.rules.rates.filter((rate) => rate.taxClass === c.lines[i]!.taxClass).map((rate) => rate.ratePpm));
          expect(l.tax).toBe(taxInside(l.net, combined));
        });
        for (const taxClass of new Set(c.rules.rates.map((rate) => rate.taxClass))) {
          const combined = sum(c.rules.rates.filter((rate) => rate.taxClass === taxClass).map((rate) => rate.ratePpm));
          const classLines = perOrder.lines.filter((_, i) => c.lines[i]!.taxClass === taxClass);
          expect(sum(classLines.map((l) => l.tax))).toBe(taxInside(sum(classLines.map((l) => l.net)), combined));
        }
      }),
      RUNS,
    );
  });

  it('a 100% comp leaves the line at 0, with no tax and no share of the order discount', () => {
    fc.assert(
      fc.property(checkArb, fc.nat(), (raw, pick) => {
        const c = build(raw);
        if (c.lines.length === 0) return;
        const i = pick % c.lines.length;
        const lines = c.lines.map((l, k) => (k === i ? { ...l, discount: pct(10_000, 'comp') } : l));
        // The order discount must still fit once the line is comped.
        const check = priceCheck(lines, c.orderDiscount?.kind === 'percent' ? c.orderDiscount : null, c.rules);
        const comped = check.lines[i]!;
        expect(comped.lineDiscount).toBe(comped.gross);
        expect([comped.orderDiscount, comped.net, comped.tax, comped.total]).toEqual([0, 0, 0, 0]);
      }),
      RUNS,
    );
  });
});

// The arithmetic as it was when rates were basis points: taxInside over 10000, applyBps, and the
// rates sharing a tax-included amount by their basis points.
function taxInsideBps(amount: number, bps: number): number {
  const d = 10_000n + BigInt(bps);
  return Number(BigInt(amount) - (2n * BigInt(amount) * 10_000n + d) / (2n * d)); // amount ≥ 0: half up
}
function taxesInBps(nets: readonly number[], classes: readonly string[], r: { taxIncluded: boolean; rounding: string; rates: { taxClass: string; bps: number }[] }): number[][] {
  const amounts = r.rates.map(() => nets.map(() => 0));
  for (const taxClass of new Set(r.rates.map((rate) => rate.taxClass))) {
    const ri = r.rates.flatMap((rate, k) => (rate.taxClass === taxClass ? [k] : []));
    const li = nets.flatMap((_, i) => (classes[i] === taxClass ? [i] : []));
    const ns = li.map((i) => nets[i]!);
    const bps = ri.map((k) => r.rates[k]!.bps);
    const combined = sum(bps);
    const perRate: number[][] = r.taxIncluded
      ? r.rounding === 'per_line'
        ? bps.map((_, k) => ns.map((n) => allocate(taxInsideBps(n, combined), bps)[k]!))
        : allocate(taxInsideBps(sum(ns), combined), bps).map((amount) => allocate(amount, ns))
      : bps.map((b) => (r.rounding === 'per_line' ? ns.map((n) => applyBps(n, b)) : allocate(applyBps(sum(ns), b), ns)));
    ri.forEach((k, j) => li.forEach((i, m) => (amounts[k]![i] = perRate[j]![m]!)));
  }
  return amounts;
}

describe('priceCheck: rates in parts per million', () => {
  const wholeBps = fc.oneof(fc.integer({ min: 0, max: 2500 }), fc.constant(0), fc.integer({ min: 0, max: 100_000 }));
  const bpsCheckArb = fc.record({
    lines: fc.array(lineArb, { maxLength: 8 }),
    order: fc.record({ kind: discountKind, seed: fc.nat() }),
    taxIncluded: fc.boolean(),
    rounding: fc.constantFrom<'per_line' | 'per_order'>('per_line', 'per_order'),
    rates: fc.array(fc.record({ taxClass: fc.constantFrom('food', 'alcohol', 'nothing-sold'), name: fc.constantFrom('State', 'City'), bps: wholeBps }), { maxLength: 5 }),
  });

  it('a whole-basis-point rate as ppm = bps × 100 prices every check exactly as basis points did', () => {
    fc.assert(
      fc.property(bpsCheckArb, (raw) => {
        const { taxIncluded, rounding } = raw;
        const rates = raw.rates.map(({ taxClass, name, bps }) => ({ taxClass, name, ratePpm: bps * 100 }));
        const c = build({ lines: raw.lines, order: raw.order, rules: { taxIncluded, rounding, rates } });
        const check = priceCheck(c.lines, c.orderDiscount, c.rules);
        const reference = taxesInBps(
          check.lines.map((l) => l.net),
          c.lines.map((l) => l.taxClass),
          { taxIncluded, rounding, rates: raw.rates },
        );
        check.lines.forEach((l, i) => expect(l.tax).toBe(sum(reference.map((row) => row[i]!))));
        // Each reported rate (those with something taxable, in order) carries the same amount as before.
        const taxable = (taxClass: string) => sum(check.lines.filter((_, i) => c.lines[i]!.taxClass === taxClass).map((l) => l.net));
        expect(check.taxes.map((t) => [t.ratePpm, t.amount])).toEqual(
          raw.rates.flatMap((rate, k) => (taxable(rate.taxClass) > 0 ? [[rate.bps * 100, sum(reference[k]!)]] : [])),
        );
      }),
      RUNS,
    );
  });

  it('the primitives agree: applyPpm(a, bps × 100) = applyBps(a, bps), taxInside(a, bps × 100) = the old taxInside', () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(100_000), fc.nat(1e11)), wholeBps, (a, bps) => {
        expect(applyPpm(a, bps * 100)).toBe(applyBps(a, bps));
        expect(taxInside(a, bps * 100)).toBe(taxInsideBps(a, bps));
      }),
      RUNS,
    );
  });
});

describe('priceCheck: worked examples', () => {
  const lines = [line(1000), line(450), line(450), line(450)];

  it('$10.00 + 3 × $4.50 at 8.75% on top, per line: each line rounded', () => {
    const check = priceCheck(lines, null, rules([food(87_500)]));
    // 87.5 → 88, 39.375 → 39 (× 3)
    expect(check.lines.map((l) => l.tax)).toEqual([88, 39, 39, 39]);
    expect(check).toMatchObject({ subtotal: 2350, taxTotal: 205, total: 2555, discountTotal: 0 });
    expect(check.taxes).toEqual([{ taxClass: 'food', name: 'Sales tax', ratePpm: 87_500, taxable: 2350, amount: 205 }]);
  });

  it('the same per order: 8.75% of $23.50 = 205.625 → $2.06, shared back by line amount', () => {
    const check = priceCheck(lines, null, rules([food(87_500)], { rounding: 'per_order' }));
    expect(check.lines.map((l) => l.tax)).toEqual([88, 40, 39, 39]);
    expect(check).toMatchObject({ subtotal: 2350, taxTotal: 206, total: 2556 });
    expect(check.lines.map((l) => l.total)).toEqual([1088, 490, 489, 489]);
  });

  it('New York City 8.875% on top of $10.00 is 88.75 → 89 cents; per line each line is rounded', () => {
    const check = priceCheck(lines, null, rules([food(88_750)]));
    // 88.75 → 89, 39.9375 → 40 (× 3)
    expect(check.lines.map((l) => l.tax)).toEqual([89, 40, 40, 40]);
    expect(check).toMatchObject({ subtotal: 2350, taxTotal: 209, total: 2559 });
    expect(check.lines.map((l) => l.total)).toEqual([1089, 490, 490, 490]);
    expect(check.taxes).toEqual([{ taxClass: 'food', name: 'Sales tax', ratePpm: 88_750, taxable: 2350, amount: 209 }]);
  });

  it('8.875% per order: 208.5625 → $2.09, shared back by line amount', () => {
    const check = priceCheck(lines, null, rules([food(88_750)], { rounding: 'per_order' }));
    // 209 × (1000, 450, 450, 450) / 2350 = 88.94, 40.02 (× 3)
    expect(check.lines.map((l) => l.tax)).toEqual([89, 40, 40, 40]);
    expect(check).toMatchObject({ taxTotal: 209, total: 2559 });
  });

  it('4% + 4.5% + 0.375% as three rates of one class: each rounded on each line, then summed per line', () => {
    const nyc = [food(40_000, 'New York State'), food(45_000, 'New York City'), food(3_750, 'MCTD')];
    const check = priceCheck([line(1000), line(450), line(700)], null, rules(nyc));
    expect(check.lines.map((l) => l.tax)).toEqual([
      40 + 45 + 4, // 3.75 → 4
      18 + 20 + 2, // 20.25 → 20, 1.6875 → 2
      28 + 32 + 3, // 31.5 → 32, 2.625 → 3
    ]);
    // Three roundings are not one: a single 8.875% rate on $7.00 is 62.125 → 62, not 63.
    expect(priceCheck([line(700)], null, rules([food(88_750)])).taxTotal).toBe(62);
    expect(check).toMatchObject({ subtotal: 2150, taxTotal: 192, total: 2342 });
    expect(check.taxes).toEqual([
      { taxClass: 'food', name: 'New York State', ratePpm: 40_000, taxable: 2150, amount: 86 },
      { taxClass: 'food', name: 'New York City', ratePpm: 45_000, taxable: 2150, amount: 97 },
      { taxClass: 'food', name: 'MCTD', ratePpm: 3_750, taxable: 2150, amount: 9 },
    ]);
  });

  it('8.875% included in $10.89: the combined tax is shared between the three rates by their ppm', () => {
    const nyc = [food(40_000, 'New York State'), food(45_000, 'New York City'), food(3_750, 'MCTD')];
    const check = priceCheck([line(1089)], null, rules(nyc, { taxIncluded: true }));
    // 1089 − round(1089 / 1.08875 = 1000.23) = 89, split 40,000 : 45,000 : 3,750 = 40.11, 45.13, 3.76
    expect(check.taxes.map((t) => t.amount)).toEqual([40, 45, 4]);
    expect(check).toMatchObject({ subtotal: 1089, taxTotal: 89, total: 1089 });
  });

  it('accepts the smallest step (0.0001%) and the largest rate (1000%)', () => {
    expect(priceCheck([line(1_000_000)], null, rules([food(1)])).taxTotal).toBe(1);
    expect(priceCheck([line(1234)], null, rules([food(10_000_000)])).taxTotal).toBe(12_340);
  });

  it('20% VAT included in £12.00 is £2.00, and the total does not grow', () => {
    const check = priceCheck([line(1200, { taxClass: 'standard' })], null, {
      taxIncluded: true,
      rounding: 'per_line',
      rates: [{ taxClass: 'standard', name: 'VAT', ratePpm: 200_000 }],
    });
    expect(check).toMatchObject({ subtotal: 1200, taxTotal: 200, total: 1200, taxIncluded: true });
    expect(check.lines[0]).toEqual({ gross: 1200, lineDiscount: 0, orderDiscount: 0, net: 1200, tax: 200, total: 1200 });
    expect(check.taxes).toEqual([{ taxClass: 'standard', name: 'VAT', ratePpm: 200_000, taxable: 1200, amount: 200 }]);
  });

  it('a 10% order discount over 3 lines is shared by line amount, then taxed', () => {
    const check = priceCheck([line(1000), line(450), line(725)], pct(1000), rules([food(87_500)]));
    // 10% of 21.75 = 2.175 → 2.18; 218 × (1000, 450, 725) / 2175 = 100.23, 45.10, 72.67
    expect(check.lines.map((l) => l.orderDiscount)).toEqual([100, 45, 73]);
    expect(check.lines.map((l) => l.net)).toEqual([900, 405, 652]);
    // 78.75 → 79, 35.44 → 35, 57.05 → 57
    expect(check.lines.map((l) => l.tax)).toEqual([79, 35, 57]);
    expect(check).toMatchObject({ subtotal: 2175, orderDiscountTotal: 218, discountTotal: 218, taxTotal: 171, total: 2128 });
  });

  it('a comp and a line discount before the order discount: the comped line takes none of it', () => {
    const check = priceCheck(
      [line(1800, { discount: pct(10_000, 'comp: wrong order') }), line(1200, { discount: off(200) }), line(1000, { quantity: 2 })],
      off(300, 'loyalty'),
      rules([food(40_000, 'State'), food(45_000, 'City')]),
    );
    expect(check.lines.map((l) => [l.gross, l.lineDiscount, l.orderDiscount, l.net, l.tax])).toEqual([
      [1800, 1800, 0, 0, 0],
      [1200, 200, 100, 900, 36 + 41], // 4% of 9.00 = 36; 4.5% = 40.5 → 41
      [2000, 0, 200, 1800, 72 + 81],
    ]);
    expect(check).toMatchObject({ subtotal: 5000, lineDiscountTotal: 2000, orderDiscountTotal: 300, discountTotal: 2300, taxTotal: 230, total: 2930 });
    expect(check.taxes).toEqual([
      { taxClass: 'food', name: 'State', ratePpm: 40_000, taxable: 2700, amount: 108 },
      { taxClass: 'food', name: 'City', ratePpm: 45_000, taxable: 2700, amount: 122 },
    ]);
  });

  it('jpy: ¥ prices are the same integers; 8% takeout and 10% alcohol included, per order', () => {
    const check = priceCheck(
      [line(1200, { quantity: 2, taxClass: 'takeout' }), line(850, { taxClass: 'alcohol' }), line(330, { taxClass: 'takeout' })],
      null,
      {
        taxIncluded: true,
        rounding: 'per_order',
        rates: [
          { taxClass: 'takeout', name: 'Consumption tax (reduced)', ratePpm: 80_000 },
          { taxClass: 'alcohol', name: 'Consumption tax', ratePpm: 100_000 },
        ],
      },
    );
    // takeout: 2730 − round(2730 / 1.08 = 2527.78) = 202; alcohol: 850 − round(772.73) = 77
    expect(check.taxes.map((t) => [t.taxable, t.amount])).toEqual([[2730, 202], [850, 77]]);
    expect(check.lines.map((l) => l.tax)).toEqual([178, 77, 24]);
    expect(check).toMatchObject({ subtotal: 3580, total: 3580, taxTotal: 279 });
  });

  it('tax included with two rates in a class: the combined tax is shared between them by rate', () => {
    const check = priceCheck([line(1100)], null, rules([food(60_000, 'State'), food(40_000, 'City')], { taxIncluded: true }));
    expect(check.taxes.map((t) => t.amount)).toEqual([60, 40]); // 1100 − 1000 = 100, split 6 : 4
  });

  it('leaves a line whose class has no rate untaxed, and omits a rate with nothing to tax', () => {
    const check = priceCheck([line(500, { taxClass: 'grocery' }), line(0)], null, rules([food(87_500), { taxClass: 'grocery', name: 'Zero', ratePpm: 0 }]));
    expect(check.taxes).toEqual([{ taxClass: 'grocery', name: 'Zero', ratePpm: 0, taxable: 500, amount: 0 }]);
    expect(check).toMatchObject({ subtotal: 500, taxTotal: 0, total: 500 });
  });

  it('prices an empty check as zero', () => {
    expect(priceCheck([], pct(1000), rules([food(87_500)]))).toEqual({
      subtotal: 0, lineDiscountTotal: 0, orderDiscountTotal: 0, discountTotal: 0, taxTotal: 0, taxIncluded: false, total: 0, taxes: [], lines: [],
    });
  });

  it('stays exact on yen-sized banquet totals', () => {
    const check = priceCheck([line(33_333_333_333, { quantity: 3 })], pct(1), rules([food(100_000)]));
    // 0.01% of 99,999,999,999 = 9,999,999.9999 → 10,000,000
    expect(check).toMatchObject({ subtotal: 99_999_999_999, orderDiscountTotal: 10_000_000, taxTotal: 9_999_000_000, total: 109_988_999_999 });
  });
});

describe('taxInside', () => {
  it('is the part of a tax-included amount that is tax, rounded half away from zero', () => {
    expect(taxInside(1200, 200_000)).toBe(200); // 20% VAT in £12.00
    expect(taxInside(1089, 88_750)).toBe(89); // 1089 / 1.08875 = 1000.23 → 1000
    expect(taxInside(1000, 88_750)).toBe(82); // 1000 / 1.08875 = 918.48 → 918
    expect(taxInside(1000, 0)).toBe(0);
    expect(taxInside(0, 88_750)).toBe(0);
    expect(taxInside(1100, 10_000_000)).toBe(1000); // 1000%: 1100 / 11 = 100
  });

  it('refuses what it cannot compute', () => {
    expect(() => taxInside(10.5, 88_750)).toThrow(CheckoutError);
    expect(() => taxInside(1000, 88_750.5)).toThrow(CheckoutError);
    expect(() => taxInside(1000, -1)).toThrow('The tax rate (in parts per million) cannot be negative (got -1).');
  });
});

describe('discountAmount', () => {
  it('takes a percent off, rounded half away from zero, or a fixed amount', () => {
    expect(discountAmount(pct(1000), 1995)).toBe(200); // 199.5
    expect(discountAmount(pct(10_000), 1995)).toBe(1995);
    expect(discountAmount(off(500), 500)).toBe(500);
    expect(discountAmount(pct(1500), 0)).toBe(0);
  });

  it('refuses a discount bigger than what it applies to, in money the cashier reads', () => {
    expect(() => discountAmount(off(1200), 950, 'usd')).toThrow('A discount of $12.00 is more than the $9.50 it applies to.');
    expect(() => discountAmount(off(1200), 950, 'jpy')).toThrow('A discount of ¥1,200 is more than the ¥950 it applies to.');
    expect(() => discountAmount(off(1200), 950)).toThrow('A discount of 1,200 (minor units) is more than the 950 (minor units) it applies to.');
    expect(() => discountAmount(off(1), -5)).toThrow(CheckoutError);
  });
});

describe('priceCheck: refuses bad input', () => {
  const usd = (extra: Partial<PricingRules> = {}) => rules([food(87_500)], { currency: 'usd', ...extra });
  const cases: [string, () => unknown, string | RegExp][] = [
    ['a line discount bigger than the line', () => priceCheck([line(950, { discount: off(1200) })], null, usd()), 'A discount of $12.00 is more than the $9.50 line it applies to.'],
    ['an order discount bigger than the check', () => priceCheck([line(1000, { discount: off(400) }), line(300)], off(1000), usd()), 'An order discount of $10.00 is more than the $9.00 check it applies to (after item discounts).'],
    ['a percent over 100%', () => priceCheck([line(1000, { discount: pct(12_000) })], null, usd()), 'A discount of 120% is not possible: a percent discount is between 0.01% and 100%.'],
    ['a 0% discount', () => priceCheck([line(1000)], pct(0), usd()), /A discount of 0% is not possible/],
    ['a fractional percent', () => priceCheck([line(1000)], pct(12.5), usd()), /A discount of 0.125% is not possible/],
    ['a zero amount off', () => priceCheck([line(1000, { discount: off(0) })], null, usd()), 'A discount of $0.00 is not possible: an amount off must be at least $0.01.'],
    ['a negative amount off', () => priceCheck([line(1000)], off(-100), usd()), /A discount of -\$1.00 is not possible/],
    ['a discount without a reason', () => priceCheck([line(1000, { discount: pct(1000, '   ') })], null, usd()), 'A discount needs a reason, e.g. "birthday" or "manager comp".'],
    ['an unknown kind of discount', () => priceCheck([line(1000)], { kind: 'bogo' as 'amount', value: 1, reason: 'x' }, usd()), '"bogo" is not a kind of discount: use a percent or an amount.'],
    ['a quantity of 0', () => priceCheck([line(1000), line(500, { quantity: 0 })], null, usd()), 'Line 2: the quantity must be a whole number of at least 1 (got 0).'],
    ['a fractional quantity', () => priceCheck([line(1000, { quantity: 1.5 })], null, usd()), /quantity must be a whole number/],
    ['a negative price', () => priceCheck([line(-100)], null, usd()), 'Line 1: the price must be zero or more, in whole units (got -$1.00).'],
    ['a fractional price', () => priceCheck([line(10.5)], null, usd()), /Line 1: the price must be zero or more, in whole units \(got 10.5\)/],
    ['a negative tax rate', () => priceCheck([line(100)], null, rules([food(-1, 'City')])), 'The tax rate "City" of -0.0001% is not possible: a rate is between 0% and 1,000%, in steps of 0.0001%.'],
    ['a tax rate over 1000%', () => priceCheck([line(100)], null, rules([food(10_000_001)])), 'The tax rate "Sales tax" of 1,000.0001% is not possible: a rate is between 0% and 1,000%, in steps of 0.0001%.'],
    ['a fraction of a part per million', () => priceCheck([line(100)], null, rules([food(88_750.5)])), /of 8.87505% is not possible: .*in steps of 0.0001%/],
    ['a rate that is not a number', () => priceCheck([line(100)], null, rules([food(Number.NaN)])), /of NaN parts per million is not possible/],
    ['an unknown rounding', () => priceCheck([line(100)], null, rules([], { rounding: 'per_item' as 'per_line' })), /not a tax rounding/],
    ['a line beyond exact arithmetic', () => priceCheck([line(Number.MAX_SAFE_INTEGER, { quantity: 2 })], null, usd()), /too large to compute exactly/],
    ['a total beyond exact arithmetic', () => priceCheck([line(Number.MAX_SAFE_INTEGER), line(1)], null, usd()), /too large to compute exactly/],
  ];

  it.each(cases)('%s', (_why, run, message) => {
    expect(run).toThrow(CheckoutError);
    expect(run).toThrow(message);
  });

  it('points at the line at fault', () => {
    try {
      priceCheck([line(1000), line(950, { discount: off(1200) })], null, usd());
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CheckoutError);
      expect((error as CheckoutError).lineIndex).toBe(1);
      expect((error as CheckoutError).code).toBe('discount_too_large');
      expect((error as CheckoutError).name).toBe('CheckoutError');
    }
  });
});
