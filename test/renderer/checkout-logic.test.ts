// The register's checkout rules on their own: modifier group limits, discounts read whole or
// refused (never fixed), the service fields, the priced ticket, tips, and the split and
// refund-by-item previews built from an order as the core sends it.
import { describe, expect, it } from 'vitest';
import type { MenuItem, Order, OrderLine } from '../../bridge/contract';
import { formOfDiscount, needsApproval, readDiscount, describeDiscount } from '../../renderer/lib/discounts';
import { readPercent, readTaxRate } from '../../renderer/lib/format';
import { chooseInGroup, clearGroup, extrasOf, groupRule, missingInGroup, readNote, unsatisfiedGroups } from '../../renderer/lib/modifiers';
import { linesOfOrder, previewEvenSplit, previewItemSplit, refundPreview } from '../../renderer/lib/order-check';
import { chargeLabel, readTip } from '../../renderer/lib/payment';
import { readService, serviceLabel } from '../../renderer/lib/service';
import { addItem, changeQuantity, emptyTicket, priceTicket, setLineChoice, setLineDiscount, ticketFromOrder, toLineInputs } from '../../renderer/lib/ticket';
import { BURGER as burger, SAUCES as sauces, SIZE as size } from './order-fixtures';

const fries: MenuItem = { ...burger, id: 'mi_fries', name: 'Fries', price: 450, modifiers: [], modifierGroups: [] };
const itemsById = new Map([burger, fries].map((item) => [item.id, item]));
const NO_TAX = { taxIncluded: false, rounding: 'per_line' as const, rates: [] };
const APPROVAL = { percentBps: 2000, amount: 1000 };

describe('modifier groups', () => {
  it('states each rule in words', () => {
    expect(groupRule(size)).toBe('Choose 1');
    expect(groupRule(sauces)).toBe('Up to 2');
    expect(groupRule({ ...sauces, min: 1, max: 3 })).toBe('Choose 1 to 3');
    expect(groupRule({ ...sauces, min: 1, max: null })).toBe('Choose at least 1');
    expect(groupRule({ ...sauces, min: 0, max: null })).toBe('Optional');
  });

  it('keeps a required group missing until chosen, swaps a single choice, and takes no more than the limit', () => {
    expect(unsatisfiedGroups(burger, []).map((g) => g.name)).toEqual(['Size']);
    expect(missingInGroup(size, [])).toBe('Required: choose 1');
    let chosen = chooseInGroup([], size, 'm_small');
    chosen = chooseInGroup(chosen, size, 'm_large');
    expect(chosen).toEqual(['m_large']);
    expect(unsatisfiedGroups(burger, chosen)).toEqual([]);
    chosen = chooseInGroup(chosen, sauces, 'm_bbq');
    chosen = chooseInGroup(chosen, sauces, 'm_mayo');
    expect(chooseInGroup(chosen, sauces, 'm_chili')).toEqual(chosen); // the third of "Up to 2" changes nothing
    expect(chooseInGroup(chosen, sauces, 'm_bbq')).toEqual(['m_large', 'm_mayo']); // untick
    expect(missingInGroup({ ...sauces, min: 2 }, ['m_bbq'])).toBe('Choose 1 more');
    expect(clearGroup(chosen, sauces)).toEqual(['m_large']);
  });

  it('treats modifiers in no group as free extras, and refuses a note over 140 characters', () => {
    expect(extrasOf(burger).map((m) => m.name)).toEqual(['Bacon']);
    expect(readNote('  no onions ')).toEqual({ note: 'no onions', error: null });
    expect(readNote('x'.repeat(141)).error).toBe('A note is at most 140 characters (this one has 141).');
  });
});

describe('discounts', () => {
  const read = (mode: 'percent' | 'amount' | 'comp', valueText: string, reason = 'Loyalty', base = 1200) => readDiscount({ mode, valueText, reason }, base, 'usd');

  it('reads a percent, an amount and a comp with what each takes off', () => {
    expect(read('percent', '12.5')).toEqual({ discount: { kind: 'percent', value: 1250, reason: 'Loyalty' }, off: 150, errors: null });
    expect(read('amount', '2.50')).toEqual({ discount: { kind: 'amount', value: 250, reason: 'Loyalty' }, off: 250, errors: null });
    expect(read('comp', '', 'Comp – kitchen error')).toMatchObject({ discount: { kind: 'percent', value: 10_000 }, off: 1200 });
  });

  it('refuses over 100%, more than the line, not a number, negative, and no reason: nothing is fixed', () => {
    expect(read('percent', '110').errors).toEqual({ value: 'Enter a percentage from 0.01% to 100%.' });
    expect(read('amount', '15.00').errors).toEqual({ value: 'A discount of $15.00 is more than the $12.00 it applies to.' });
    expect(read('amount', 'ten').errors?.value).toBe('Type the amount with digits and one decimal point, e.g. 4.50.');
    expect(read('percent', '-10').errors?.value).toBe('A percentage cannot be negative.');
    expect(read('percent', '0').errors?.value).toBe('Enter a percentage from 0.01% to 100%.');
    expect(read('percent', '10', '  ').errors).toEqual({ reason: 'Give the discount a reason, e.g. "Staff meal".' });
    expect(read('percent', '', '').errors).toEqual({ value: 'Enter a percentage, e.g. 10 or 12.5.', reason: 'Give the discount a reason, e.g. "Staff meal".' });
  });

  it('asks for the manager above either limit, as the core does: a percent above the percent, an amount off above the amount', () => {
    const at = (mode: 'percent' | 'amount', text: string, base: number) => {
      const r = readDiscount({ mode, valueText: text, reason: 'x' }, base, 'usd');
      if (r.discount === null) throw new Error('unreadable');
      return needsApproval(r.discount, r.off, APPROVAL);
    };
    expect(at('percent', '20', 1200)).toBe(false);
    expect(at('percent', '20.01', 1200)).toBe(true);
    expect(at('percent', '10', 20_000)).toBe(true); // $20.00 off is above the $10.00 limit
    expect(at('amount', '10.00', 1200)).toBe(false); // 83% of the line, but an amount is judged by its amount
    expect(at('amount', '10.01', 100_000)).toBe(true);
  });

  it('describes a discount and fills the form back from it', () => {
    expect(describeDiscount({ kind: 'percent', value: 1000, reason: 'Loyalty' }, 'usd')).toBe('10% off · Loyalty');
    expect(describeDiscount({ kind: 'amount', value: 200, reason: 'Staff meal' }, 'usd')).toBe('$2.00 off · Staff meal');
    expect(describeDiscount({ kind: 'percent', value: 10_000, reason: 'Comp – kitchen error' }, 'usd')).toBe('Comp – kitchen error');
    expect(describeDiscount({ kind: 'percent', value: 10_000, reason: 'Birthday' }, 'usd')).toBe('Comp · Birthday');
    expect(formOfDiscount({ kind: 'amount', value: 250, reason: 'Loyalty' }, 2)).toEqual({ mode: 'amount', valueText: '2.50', reason: 'Loyalty' });
    expect(formOfDiscount({ kind: 'percent', value: 10_000, reason: 'Comp' }, 2).mode).toBe('comp');
  });

  it('reads percentages and tax rates whole', () => {
    expect(readPercent('15%')).toEqual({ value: 1500, error: null });
    expect(readPercent('12.345').error).toBe('Use at most 2 digits after the decimal point.');
    expect(readTaxRate('8.875')).toEqual({ value: 88_750, error: null });
    expect(readTaxRate('8.87501').error).toBe('Use at most 4 digits after the decimal point.');
    expect(readTaxRate('1000.5').error).toBe('Enter a percentage from 0% to 100%.');
  });
});

describe('service', () => {
  it('needs a table for dine in and reads guests as a whole number', () => {
    expect(readService({ type: 'dine_in', table: ' ', guests: '' }).errors).toEqual({ table: 'A dine-in order needs a table number.' });
    expect(readService({ type: 'dine_in', table: '12', guests: '0' }).errors).toEqual({ guests: 'Enter a whole number from 1 to 99.' });
    expect(readService({ type: 'dine_in', table: '12', guests: '4' }).service).toEqual({ type: 'dine_in', table: '12', guests: 4 });
    expect(readService({ type: 'takeout', table: '7', guests: '2' }).service).toEqual({ type: 'takeout', table: null, guests: null });
  });

  it('labels every kind of order the same way on every screen', () => {
    expect(serviceLabel({ type: 'dine_in', table: '12', guests: 4 }, 'Ada', null)).toBe('Table 12 · 4 guests');
    expect(serviceLabel({ type: 'dine_in', table: '3', guests: 1 }, '', null)).toBe('Table 3 · 1 guest');
    expect(serviceLabel({ type: 'takeout', table: null, guests: null }, 'Ada', 'pos')).toBe('Takeout · Ada');
    expect(serviceLabel({ type: 'delivery', table: null, guests: null }, '', 'online')).toBe('Delivery (online)');
    expect(serviceLabel({ type: null, table: null, guests: null }, 'Ada', null)).toBe('');
  });
});

describe('the priced ticket', () => {
  it('keeps chosen lines apart, carries notes and discounts to the order, and prices them', () => {
    let t = addItem(emptyTicket, burger, { modifierIds: ['m_large'], note: 'no onions' });
    t = addItem(t, fries);
    t = addItem(t, fries);
    t = addItem(t, burger, { modifierIds: ['m_large'], note: 'no onions' }); // a chosen line never merges
    expect(t.lines.map((l) => l.quantity)).toEqual([1, 2, 1]);
    t = setLineDiscount(t, t.lines[1]?.key as string, { kind: 'percent', value: 5000, reason: 'Staff meal' });
    t = { ...t, discount: { kind: 'amount', value: 100, reason: 'Loyalty' } };
    const { check } = priceTicket(t, itemsById, NO_TAX, 'usd');
    expect(check).toMatchObject({ subtotal: 1500 + 900 + 1500, lineDiscountTotal: 450, orderDiscountTotal: 100, total: 3900 - 550 });
    t = setLineChoice(t, t.lines[0]?.key as string, { modifierIds: ['m_small'], note: '' });
    expect(toLineInputs(t)[0]).toEqual({ menuItemId: 'mi_burger', quantity: 1, modifierIds: ['m_small'], note: '', discount: null });
    expect(toLineInputs(t)[1]?.discount).toEqual({ kind: 'percent', value: 5000, reason: 'Staff meal' });
  });

  it('says which line a discount no longer fits once its quantity went down, instead of a total', () => {
    let t = addItem(addItem(emptyTicket, fries), fries);
    t = setLineDiscount(t, t.lines[0]?.key as string, { kind: 'amount', value: 800, reason: 'Loyalty' });
    expect(priceTicket(t, itemsById, NO_TAX, 'usd').check?.total).toBe(100);
    t = changeQuantity(t, t.lines[0]?.key as string, -1);
    const { check, error } = priceTicket(t, itemsById, NO_TAX, 'usd');
    expect(check).toBeNull();
    expect(error?.lineIndex).toBe(0);
    expect(error?.message).toMatch(/\$8\.00 is more than the \$4\.50/);
  });
});

describe('tips', () => {
  it('computes each suggested tip on the amount paid and says it on the charge line', () => {
    expect(readTip({ kind: 'percent', bps: 1800 }, 2350, 'usd')).toEqual({ tip: 423, error: null });
    expect(readTip({ kind: 'none' }, 2350, 'usd').tip).toBe(0);
    expect(readTip({ kind: 'custom', text: '3' }, 2350, 'usd').tip).toBe(300);
    expect(readTip({ kind: 'custom', text: '-3' }, 2350, 'usd').error).toBe('An amount cannot be negative.');
    expect(chargeLabel(2350, 423, 'usd')).toBe('Charge $27.73 (incl. $4.23 tip)');
    expect(chargeLabel(2350, 0, 'usd')).toBe('Charge $23.50');
  });
});

/** An order as the core sends it, with only what the previews read set to something meaningful. */
function orderOf(lines: Pick<OrderLine, 'name' | 'quantity' | 'lineTotal' | 'total' | 'refundedQuantity'>[], paidAmount = 0): Order {
  const total = lines.reduce((sum, line) => sum + line.total, 0);
  const subtotal = lines.reduce((sum, line) => sum + line.lineTotal, 0);
  return {
    id: 'ord_1',
    number: 'A17',
    label: 'A17',
    businessDay: '2025-01-01',
    service: { type: 'dine_in', table: '12', guests: 4 },
    channel: 'pos',
    check: { subtotal, discountTotal: 0, taxTotal: total - subtotal, taxIncluded: false, total, taxes: [], orderDiscount: null, source: 'till' },
    split: null,
    tipTotal: 0,
    gratuity: null,
    status: 'open',
    cloudStatus: null,
    displayState: 'open_unpaid',
    refundState: 'none',
    lines: lines.map((line) => ({ menuItemId: 'mi', unitPrice: line.lineTotal / line.quantity, modifiers: [], note: '', discount: null, seat: null, course: null, ...line })),
    customer: { name: '', phone: '' },
    notes: '',
    total,
    currency: 'usd',
    createdAt: '2025-01-01T12:00:00.000Z',
    updatedAt: '2025-01-01T12:00:00.000Z',
    paidAmount,
    refundedAmount: 0,
    payments: [],
    syncState: 'pending',
    staff: null,
    courses: [],
    mergedInto: null,
    reopened: null,
    reopenOf: null,
  };
}

describe('split and refund previews from an order', () => {
  const order = orderOf([
    { name: 'Burger', quantity: 2, lineTotal: 2400, total: 2598, refundedQuantity: 0 },
    { name: 'Fries', quantity: 3, lineTotal: 1350, total: 1461, refundedQuantity: 1 },
  ]);

  it('shares the total evenly, the first parts taking the odd cents', () => {
    expect(previewEvenSplit(order, 3).value?.map((p) => [p.label, p.amount])).toEqual([
      ['1 of 3', 1353],
      ['2 of 3', 1353],
      ['3 of 3', 1353],
    ]);
    expect(previewEvenSplit(order, 2).value?.map((p) => p.amount)).toEqual([2030, 2029]);
  });

  it('puts each line on its check, and says when a check is left empty', () => {
    expect(previewItemSplit(order, [2, 1], 2).value?.map((p) => [p.label, p.amount])).toEqual([
      ['1 of 2', 1461],
      ['2 of 2', 2598],
    ]);
    expect(previewItemSplit(order, [1, 1], 2).error).toBe('Check 2 of 2 has no items: move an item to it or split into fewer checks.');
    expect(previewItemSplit(order, [1, 3], 3).error).toBe('Check 2 of 3 has no items: move an item to it or split into fewer checks.');
  });

  it('gives back units of a line from its total, never more than is left', () => {
    expect(linesOfOrder(order).lines.map((l) => [l.gross, l.total])).toEqual([
      [2400, 2598],
      [1350, 1461],
    ]);
    expect(refundPreview(order, [1, 0]).value).toBe(1299);
    expect(refundPreview(order, [2, 2]).value).toBe(2598 + 974); // 1461 = 487 × 3: two of the fries
    expect(refundPreview(order, [0, 3]).error).toMatch(/Only 2 of the 3 on this line can still be refunded/);
  });

  it('loads an order back onto the register with its notes, discounts and service', () => {
    const loaded = ticketFromOrder({
      ...order,
      lines: order.lines.map((line, i) => (i === 0 ? { ...line, note: 'no onions', discount: { kind: 'amount', value: 200, reason: 'Loyalty', amount: 200 } } : line)),
      check: { ...order.check, orderDiscount: { kind: 'percent', value: 1000, reason: 'Staff meal', amount: 300 } },
    });
    expect(loaded.lines[0]).toMatchObject({ note: 'no onions', discount: { kind: 'amount', value: 200, reason: 'Loyalty' } });
    expect(loaded.discount).toEqual({ kind: 'percent', value: 1000, reason: 'Staff meal' });
    expect(loaded.service).toEqual({ type: 'dine_in', table: '12', guests: '4' });
    expect(loaded.editingLabel).toBe('A17');
  });
});
