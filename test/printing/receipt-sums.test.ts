// The receipt adds up on paper (issue 24, item 6): for random orders with line and order
// discounts, taxes added or included, several tax classes (some with the same tax), the summary
// the printer prints (Subtotal, Item discounts, the order's discount, the added taxes) adds up to
// its TOTAL, which is the order's total; the "incl." taxes add up to the check's tax. The order
// goes through the core's own pricing and view (main/core/views.ts), the paper through receiptline.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { receiptDoc } from '../../main/core/print-link';
import { orderView, type OrderContext } from '../../main/core/views';
import { renderJob } from '../../printing';
import type { OrderDoc } from '../../store/index';
import { normalizedText, decodeEscPos } from './escpos-decode';

const context: OrderContext = {
  intents: [],
  payments: [],
  refunds: [],
  outbox: new Map(),
  cloudStatuses: new Map(),
  offlineIntentIds: new Set(),
  staff: { orders: new Map(), payments: new Map(), refunds: new Map() },
  links: { mergedInto: new Map(), reopened: new Map(), reopenOf: new Map() },
};
const location = { id: 'loc', name: 'Bistro', address: '', phone: '', timezone: 'UTC', locale: 'en-US', currency: 'usd' };

const TAX_CLASSES = ['standard', 'food', 'alcohol'];
const rate = fc.record({ tax_class: fc.constantFrom(...TAX_CLASSES), name: fc.constantFrom('Sales tax', 'VAT', 'City tax'), rate_ppm: fc.constantFrom(0, 50_000, 87_500, 88_750, 100_000, 200_000) });
const discount = (max: number) =>
  fc.option(
    fc.oneof(
      fc.record({ kind: fc.constant('percent' as const), value: fc.integer({ min: 1, max: 10_000 }), reason: fc.constant('Happy hour') }),
      fc.record({ kind: fc.constant('amount' as const), value: fc.integer({ min: 1, max: Math.max(1, max) }), reason: fc.constant('Loyalty') }),
    ),
    { nil: null },
  );
const line = fc
  .record({ quantity: fc.integer({ min: 1, max: 12 }), unit_price: fc.integer({ min: 0, max: 9_999 }), tax_class: fc.constantFrom(...TAX_CLASSES) })
  .chain((l) => discount(l.quantity * l.unit_price).map((d) => ({ ...l, discount: l.unit_price === 0 ? null : d })));
const order = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 6 }),
  discountPercent: fc.option(fc.integer({ min: 1, max: 5_000 }), { nil: null }),
  discountAmount: fc.option(fc.integer({ min: 1, max: 2_000 }), { nil: null }),
  taxIncluded: fc.boolean(),
  rounding: fc.constantFrom('per_line' as const, 'per_order' as const),
  rates: fc.array(rate, { maxLength: 4 }).map((rates) => rates.filter((r, i) => rates.findIndex((o) => o.tax_class === r.tax_class && o.name === r.name) === i)),
});

type OrderInput = typeof order extends fc.Arbitrary<infer T> ? T : never;

function orderDoc(input: OrderInput): OrderDoc {
  const { lines, discountPercent, discountAmount, taxIncluded, rounding, rates } = input;
  return {
    id: 'ord_1',
    location_id: 'loc',
    status: 'open',
    currency: 'usd',
    customer: null,
    notes: '',
    lines: lines.map((l, i) => ({ menu_item_id: `mi_${i}`, name: `Item ${i + 1}`, quantity: l.quantity, unit_price: l.unit_price, modifiers: [], note: '', discount: l.discount, tax_class: l.tax_class, seat: null, course: null })),
    total: 0,
    created_at: 0,
    updated_at: 0,
    number: 'A1',
    business_day: null,
    service: null,
    channel: null,
    pricing: { tax_included: taxIncluded, rounding, rates },
    discount: discountPercent !== null ? { kind: 'percent', value: discountPercent, reason: 'Regular' } : discountAmount !== null ? { kind: 'amount', value: discountAmount, reason: 'Regular' } : null,
    check_total: null,
    cloud_check: null,
    split: null,
    courses: null,
    gratuity: null,
  };
}

const cents = (row: string): number => {
  const match = /(-?)\$([\d,]+)\.(\d\d)$/.exec(row);
  if (!match) throw new Error(`no amount at the end of "${row}"`);
  return (match[1] ? -1 : 1) * (Number(match[2]!.replace(/,/g, '')) * 100 + Number(match[3]));
};

describe('the printed summary of a receipt', () => {
  it('adds up to its TOTAL, the order’s total, for random orders with line and order discounts, taxes added or included', () => {
    fc.assert(
      fc.property(order, (input) => {
        const view = orderView(orderDoc(input), context);
        fc.pre(view.check.source === 'till'); // a discount larger than what it applies to is refused when rung up
        const paper = normalizedText(decodeEscPos(renderJob('receipt', receiptDoc(view, location, 'A', 0, {}), { cpl: 48 }))).split('\n');
        const start = paper.findIndex((l) => l.startsWith('Subtotal'));
        const end = paper.findIndex((l) => l.startsWith('TOTAL'));
        expect(start).toBeGreaterThan(0);
        const summary = paper.slice(start, end).map(cents);
        const total = cents(paper[end]!);
        expect(total).toBe(view.total);
        expect(summary.reduce((sum, amount) => sum + amount, 0)).toBe(total);
        // Each tax is said once, and what the paper says of the tax is the check's tax.
        const taxRows = paper.filter((l) => /^(incl\. )?(Sales tax|VAT|City tax)/.test(l));
        expect(new Set(taxRows.map((l) => l.replace(/ -?\$[\d,.]+$/, ''))).size).toBe(taxRows.length);
        expect(taxRows.reduce((sum, l) => sum + cents(l), 0)).toBe(view.check.taxTotal);
        // The discounts under the lines are the "Item discounts" row (or "Discounts" with no order discount).
        const lineDiscounts = view.lines.reduce((sum, l) => sum + (l.discount?.amount ?? 0), 0);
        const itemRow = paper.slice(start, end).find((l) => /^(Item discounts|Discounts) /.test(l));
        expect(itemRow ? -cents(itemRow) : 0).toBe(lineDiscounts);
      }),
      { numRuns: 150 },
    );
  });
});
