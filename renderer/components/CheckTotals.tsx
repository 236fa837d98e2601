import { mergeTaxLines } from '../../bridge/checkout/tax-lines';
import type { Check } from '../../bridge/contract';
import { money, toRateText } from '../lib/format';

/** What the ticket preview (priceCheck) and an order's check (from the core) both carry. */
export type CheckFigures = Pick<Check, 'subtotal' | 'discountTotal' | 'taxTotal' | 'taxIncluded' | 'total'> & { taxes: readonly Pick<Check['taxes'][number], 'name' | 'ratePpm' | 'amount'>[] };

/**
 * The tax rows: one "Tax" row, or one per rate when several applied (the same name and rate from
 * two tax classes is one row, as on the receipt); "incl." when prices include it; none without tax.
 */
function taxRows(check: CheckFigures): { label: string; amount: number }[] {
  const included = check.taxIncluded ? ' (incl.)' : '';
  const taxes = mergeTaxLines(check.taxes);
  if (taxes.length > 1) return taxes.map((tax) => ({ label: `${tax.name} ${toRateText(tax.ratePpm)}%${included}`, amount: tax.amount }));
  return check.taxTotal > 0 || check.taxes.length > 0 ? [{ label: `Tax${included}`, amount: check.taxTotal }] : [];
}

/** The discount on the whole order, in words ("10% off · Loyalty"), with what it took off. */
export type OrderDiscountRow = { label: string; amount: number };

/** A large party's gratuity under the total: paid with the payments, as a tip ("Gratuity 18% (8+ guests)"). */
export type GratuityRow = { label: string; amount: number; removed: string | null };

/**
 * Subtotal, discounts, Tax and Total of a check. The order's discount is a row of its own, named
 * ("10% off · Loyalty −$1.40"); what the lines' own discounts took off (each said under its line)
 * is "Item discounts" next to it, or "Discounts" when the order has no discount of its own.
 * Without a discount or a tax only the total is shown: the rows above it would repeat it.
 */
export function CheckTotals({
  check,
  currency,
  totalTestId,
  orderDiscount = null,
  gratuity = null,
}: {
  check: CheckFigures;
  currency: string;
  totalTestId?: string;
  orderDiscount?: OrderDiscountRow | null;
  gratuity?: GratuityRow | null;
}) {
  const detailed = check.discountTotal > 0 || check.taxTotal > 0 || check.taxes.length > 0;
  const byOrder = orderDiscount && orderDiscount.amount > 0 ? orderDiscount : null;
  const otherDiscounts = check.discountTotal - (byOrder?.amount ?? 0);
  return (
    <dl className="check-totals">
      {detailed ? (
        <>
          <div className="check-row">
            <dt>Subtotal</dt>
            <dd data-testid="check-subtotal">{money(check.subtotal, currency)}</dd>
          </div>
          {otherDiscounts > 0 ? (
            <div className="check-row">
              <dt>{byOrder ? 'Item discounts' : 'Discounts'}</dt>
              <dd data-testid="check-discounts">−{money(otherDiscounts, currency)}</dd>
            </div>
          ) : null}
          {byOrder ? (
            <div className="check-row check-order-discount">
              <dt>{byOrder.label}</dt>
              <dd data-testid="check-order-discount">−{money(byOrder.amount, currency)}</dd>
            </div>
          ) : null}
          {taxRows(check).map((row) => (
            <div key={row.label} className="check-row" data-testid="check-tax">
              <dt>{row.label}</dt>
              <dd>{money(row.amount, currency)}</dd>
            </div>
          ))}
        </>
      ) : null}
      <div className="check-row check-total" aria-live="polite">
        <dt>Total</dt>
        <dd>
          <strong data-testid={totalTestId}>{money(check.total, currency)}</strong>
        </dd>
      </div>
      {gratuity ? (
        <div className={gratuity.removed ? 'check-row check-gratuity removed' : 'check-row check-gratuity'} data-testid="check-gratuity">
          <dt>
            {gratuity.label}
            <span className="muted"> {gratuity.removed ?? 'with the payments'}</span>
          </dt>
          <dd>{gratuity.removed ? <s>+{money(gratuity.amount, currency)}</s> : `+${money(gratuity.amount, currency)}`}</dd>
        </div>
      ) : null}
    </dl>
  );
}
