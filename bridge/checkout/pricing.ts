// Prices a check: line discounts, the order discount shared over the lines, then tax on what is
// left. Every total is a sum of the line figures, so the receipt adds up to the unit.
import { allocate } from './allocate';
import { discountOff, type DiscountSpec } from './discount';
import { CheckoutError, describeAmount } from './errors';
import { sumExact } from './guards';
import { computeTaxes, validateRules, type PricingRules, type TaxLine } from './tax';

export type { DiscountKind, DiscountSpec } from './discount';
export { discountAmount } from './discount';
export type { PricingRules, TaxLine, TaxRate, TaxRounding } from './tax';

export interface CheckLineInput {
  quantity: number;
  /** unit price plus the unit's modifiers, minor units, ≥ 0 */
  unitPrice: number;
  taxClass: string;
  discount: DiscountSpec | null;
}

export interface CheckLine {
  gross: number; // quantity × unitPrice
  lineDiscount: number; // the line's own discount
  orderDiscount: number; // its share of the order discount
  net: number; // gross − lineDiscount − orderDiscount (what tax is computed on; for taxIncluded, tax is inside net)
  tax: number; // tax of this line (sum over its rates)
  total: number; // net + (taxIncluded ? 0 : tax): what the line costs the customer
}

/** What splitting by items and refunding by unit read of a check: each line's gross and total (a CheckBreakdown is one). */
export interface CheckLines {
  lines: readonly Pick<CheckLine, 'gross' | 'total'>[];
}

export interface CheckBreakdown {
  subtotal: number; // Σ gross
  lineDiscountTotal: number;
  orderDiscountTotal: number;
  discountTotal: number; // line + order
  taxTotal: number; // Σ line.tax === Σ taxes[].amount
  taxIncluded: boolean;
  total: number; // subtotal − discountTotal + (taxIncluded ? 0 : taxTotal) === Σ line.total
  taxes: TaxLine[]; // one per rate that applied to at least one line (rate with taxable 0 omitted), in rules.rates order
  lines: CheckLine[]; // same order as the input
}

/** gross − line discount of one line; refuses a quantity or price that could not be rung up. */
function lineAfterOwnDiscount(line: CheckLineInput, index: number, currency: string | undefined): { gross: number; lineDiscount: number } {
  const item = `Line ${index + 1}`;
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
    throw new CheckoutError('invalid_quantity', `${item}: the quantity must be a whole number of at least 1 (got ${String(line.quantity)}).`, index);
  }
  if (!Number.isSafeInteger(line.unitPrice) || line.unitPrice < 0) {
    throw new CheckoutError('invalid_price', `${item}: the price must be zero or more, in whole units (got ${describeAmount(line.unitPrice, currency)}).`, index);
  }
  const gross = line.quantity * line.unitPrice; // exact whenever the true product is a safe integer
  if (!Number.isSafeInteger(gross)) throw new CheckoutError('too_large', `${item}: the amount is too large to compute exactly.`, index);
  const lineDiscount =
    line.discount === null
      ? 0
      : discountOff(line.discount, gross, (amount, of) => `A discount of ${amount} is more than the ${of} line it applies to.`, currency, index);
  return { gross, lineDiscount };
}

export function priceCheck(lines: readonly CheckLineInput[], orderDiscount: DiscountSpec | null, rules: PricingRules): CheckBreakdown {
  validateRules(rules);
  const { currency } = rules;
  const own = lines.map((line, index) => lineAfterOwnDiscount(line, index, currency));

  // The order discount comes off what the line discounts left, shared in proportion to it, so a
  // comped line takes none of it and no line goes below zero.
  const discountable = own.map(({ gross, lineDiscount }) => gross - lineDiscount);
  const discountableTotal = sumExact(discountable, 'check');
  const orderDiscountTotal =
    orderDiscount === null
      ? 0
      : discountOff(
          orderDiscount,
          discountableTotal,
          (amount, of) => `An order discount of ${amount} is more than the ${of} check it applies to (after item discounts).`,
          currency,
        );
  const shares = allocate(orderDiscountTotal, discountable);

  const nets = discountable.map((amount, index) => amount - (shares[index] ?? 0));
  const { lineTax, taxes } = computeTaxes(
    lines.map((line, index) => ({ net: nets[index] ?? 0, taxClass: line.taxClass })),
    rules,
  );

  const checkLines: CheckLine[] = own.map(({ gross, lineDiscount }, index) => {
    const net = nets[index] ?? 0;
    const tax = lineTax[index] ?? 0;
    const total = rules.taxIncluded ? net : sumExact([net, tax], `total of line ${index + 1}`);
    return { gross, lineDiscount, orderDiscount: shares[index] ?? 0, net, tax, total };
  });

  const lineDiscountTotal = sumExact(checkLines.map((line) => line.lineDiscount), 'discounts');
  return {
    subtotal: sumExact(checkLines.map((line) => line.gross), 'subtotal'),
    lineDiscountTotal,
    orderDiscountTotal,
    discountTotal: lineDiscountTotal + orderDiscountTotal,
    taxTotal: sumExact(lineTax, 'tax'),
    taxIncluded: rules.taxIncluded,
    total: sumExact(checkLines.map((line) => line.total), 'total'),
    taxes,
    lines: checkLines,
  };
}
