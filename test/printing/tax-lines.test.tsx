// @vitest-environment happy-dom
// One row per tax (issue 24, item 10): the same name and rate from two tax classes is one row on
// the receipt (test/printing/full-service.test.ts) and on the screen's check, through the one merge
// in bridge/checkout/tax-lines.ts.
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeTaxLines } from '../../bridge/checkout/tax-lines';
import { CheckTotals } from '../../renderer/components/CheckTotals';

afterEach(cleanup);

describe('mergeTaxLines', () => {
  it('adds up lines of the same name and rate, keeps the others apart, in the order each first appears', () => {
    const lines = [
      { name: 'Sales tax', ratePpm: 87_500, amount: 312, taxClass: 'standard' },
      { name: 'City tax', ratePpm: 10_000, amount: 40 },
      { name: 'Sales tax', ratePpm: 87_500, amount: 181, taxClass: 'food' },
      { name: 'Sales tax', ratePpm: 40_000, amount: 7 },
    ];
    expect(mergeTaxLines(lines)).toEqual([
      { name: 'Sales tax', ratePpm: 87_500, amount: 493 },
      { name: 'City tax', ratePpm: 10_000, amount: 40 },
      { name: 'Sales tax', ratePpm: 40_000, amount: 7 },
    ]);
    expect(mergeTaxLines([])).toEqual([]);
    expect(lines[0]!.amount).toBe(312); // the input is left as it was
  });
});

describe('the check on screen', () => {
  it('shows "Sales tax 8.75%" charged on two tax classes as one row, next to another tax', () => {
    render(
      <CheckTotals
        currency="usd"
        check={{
          subtotal: 7595,
          discountTotal: 2580,
          taxTotal: 483,
          taxIncluded: false,
          total: 5498,
          taxes: [
            { name: 'Sales tax', ratePpm: 87_500, amount: 300 },
            { name: 'Sales tax', ratePpm: 87_500, amount: 139 },
            { name: 'City tax', ratePpm: 10_000, amount: 44 },
          ],
        }}
      />,
    );
    const rows = [...document.querySelectorAll('[data-testid="check-tax"]')].map((row) => [row.querySelector('dt')?.textContent, row.querySelector('dd')?.textContent]);
    expect(rows).toEqual([
      ['Sales tax 8.75%', '$4.39'],
      ['City tax 1%', '$0.44'],
    ]);
  });
});
