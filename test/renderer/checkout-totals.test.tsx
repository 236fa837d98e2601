// @vitest-environment happy-dom
// The check's rows as the ticket and the orders screen show them: one Tax row, or one per rate
// when several applied, "incl." when prices include tax, and only the total when nothing came off
// and nothing was taxed.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckTotals, type CheckFigures } from '../../renderer/components/CheckTotals';

afterEach(cleanup);

const rows = () => [...document.querySelectorAll('.check-row')].map((row) => [row.querySelector('dt')?.textContent, row.querySelector('dd')?.textContent]);
const check = (figures: Partial<CheckFigures>): CheckFigures => ({ subtotal: 2000, discountTotal: 0, taxTotal: 0, taxIncluded: false, total: 2000, taxes: [], ...figures });

describe('CheckTotals', () => {
  it('names each rate when several applied', () => {
    render(
      <CheckTotals
        currency="usd"
        totalTestId="total"
        check={check({
          discountTotal: 200,
          taxTotal: 249,
          total: 2049,
          taxes: [
            { name: 'State tax', ratePpm: 60_000, amount: 108 },
            { name: 'City tax', ratePpm: 78_750, amount: 141 },
          ],
        })}
      />,
    );
    expect(rows()).toEqual([
      ['Subtotal', '$20.00'],
      ['Discounts', '−$2.00'],
      ['State tax 6%', '$1.08'],
      ['City tax 7.875%', '$1.41'],
      ['Total', '$20.49'],
    ]);
    expect(screen.getByTestId('total').textContent).toBe('$20.49');
  });

  it('says "incl." when the prices include the tax, and shows only the total when there is nothing to break down', () => {
    render(<CheckTotals currency="usd" check={check({ taxIncluded: true, taxTotal: 333, taxes: [{ name: 'VAT', ratePpm: 200_000, amount: 333 }] })} />);
    expect(rows()).toEqual([
      ['Subtotal', '$20.00'],
      ['Tax (incl.)', '$3.33'],
      ['Total', '$20.00'],
    ]);
    cleanup();
    render(<CheckTotals currency="usd" check={check({})} />);
    expect(rows()).toEqual([['Total', '$20.00']]);
  });
});
