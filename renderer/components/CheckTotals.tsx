import type { Check } from '../../bridge/contract';
import { money, toRateText } from '../lib/format';

/** What the ticket preview (priceCheck) and an order's check (from the core) both carry. */
export type CheckFigures = Pick<Check, 'subtotal' | 'discountTotal' | 'taxTotal' | 'taxIncluded' | 'total'> & { taxes: readonly Pick<Check['taxes'][number], 'name' | 'ratePpm' | 'amount'>[] };

/** The tax rows: one "Tax" row, or one per rate when several applied; "incl." when prices include it; none without tax. */
function taxRows(check: CheckFigures): { label: string; amount: number }[] {
  const included = check.taxIncluded ? ' (incl.)' : '';
  if (check.taxes.length > 1) return check.taxes.map((tax) => ({ label: `${tax.name} ${toRateText(tax.ratePpm)}%${included}`, amount: tax.amount }));
  return check.taxTotal > 0 || check.taxes.length > 0 ? [{ label: `Tax${included}`, amount: check.taxTotal }] : [];
}

/**
 * Subtotal, Discounts, Tax and Total of a check. Without a discount or a tax only the total is
 * shown: the rows above it would repeat it.
 */
export function CheckTotals({ check, currency, totalTestId }: { check: CheckFigures; currency: string; totalTestId?: string }) {
  const detailed = check.discountTotal > 0 || check.taxTotal > 0 || check.taxes.length > 0;
  return (
    <dl className="check-totals">
      {detailed ? (
        <>
          <div className="check-row">
            <dt>Subtotal</dt>
            <dd data-testid="check-subtotal">{money(check.subtotal, currency)}</dd>
          </div>
          {check.discountTotal > 0 ? (
            <div className="check-row">
              <dt>Discounts</dt>
              <dd data-testid="check-discounts">−{money(check.discountTotal, currency)}</dd>
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
    </dl>
  );
}
