// The Z report's store view (reports.storeZ): the business day across the store's tills, one row per
// till (this one first) and the totals row, which is exactly their sum; a sentence for each till whose
// figures may be incomplete, and what stays on each till's own report.
import { useEffect, useId, useState } from 'react';
import type { CommandResult } from '../../bridge/contract';
import type { StoreDayFigures } from '../../bridge/store-mode/contract';
import { ErrorNote } from '../components/Dialog';
import { formatBusinessDay, money } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { useTimePlace } from '../lib/location-time';

type StoreDay = CommandResult<'reports.storeZ'>;

const COLUMNS = ['Till', 'Orders', 'Net', 'Tax', 'Total', 'Cash', 'Card', 'Tips', 'Refunds', 'Voids', 'Open checks'] as const;

/** The store's day of `businessDay` (null: the current one), asked with the manager's PIN the report was approved with. */
export function StoreDayView({ businessDay, managerPin, tick }: { businessDay: string | null; managerPin: string | null; tick: number }) {
  const client = useBridge();
  const [loaded, setLoaded] = useState<{ day: StoreDay } | { error: string } | null>(null);
  useEffect(() => {
    let live = true;
    client.call('reports.storeZ', { ...(businessDay !== null ? { day: businessDay } : {}), ...(managerPin !== null ? { managerPin } : {}) }).then(
      (day) => live && setLoaded({ day }),
      (caught: unknown) => live && setLoaded({ error: describeError(caught) }),
    );
    return () => {
      live = false;
    };
  }, [client, businessDay, managerPin, tick]);
  if (loaded === null) return <p className="muted empty">Adding up the store's day…</p>;
  if ('error' in loaded) return <ErrorNote message={loaded.error} />;
  return <StoreDayBody day={loaded.day} />;
}

export function StoreDayBody({ day }: { day: StoreDay }) {
  const place = useTimePlace();
  const headingId = useId();
  const m = (amount: number) => money(amount + 0, day.currency);
  // Net and tax another till priced with rules not replicated here: on its own report.
  const known = (amount: number | null) => (amount === null ? 'on its till' : m(amount));
  const cells = (f: StoreDayFigures) => [
    String(f.orders),
    known(f.net),
    known(f.tax),
    m(f.total),
    m(f.cash),
    m(f.card),
    m(f.tips),
    m(f.refunds),
    `${f.voids.count} · ${m(f.voids.amount)}`,
    `${f.openChecks.count} · ${m(f.openChecks.due)} due`,
  ];
  return (
    <article className="report" aria-label={`The store's day, ${formatBusinessDay(day.businessDay, place)}`} data-testid="store-day">
      <header className="report-head">
        <h2 id={headingId}>The store's day · {formatBusinessDay(day.businessDay, place)}</h2>
        <p className="muted">Each till's figures as recorded on that till; the store's total is their sum.</p>
      </header>
      {day.incomplete.length > 0 ? (
        <section className="warning-note" aria-label="Tills whose figures may be incomplete" data-testid="store-day-incomplete">
          {day.incomplete.map((sentence) => (
            <p key={sentence}>{sentence}</p>
          ))}
        </section>
      ) : null}
      <div className="table-scroll">
        <table className="table report-table" aria-labelledby={headingId}>
          <thead>
            <tr>
              {COLUMNS.map((label, c) => (
                <th key={label} scope="col" className={c === 0 ? undefined : 'num'}>
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {day.tills.map((till) => (
              <tr key={till.tillId} data-testid="store-day-till">
                <th scope="row">
                  {till.name ?? `Till ${till.tillId.slice(0, 8)}`}
                  {till.self ? ' (this till)' : ''}
                </th>
                {cells(till.figures).map((cell, c) => (
                  <td key={c} className="num">
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr data-testid="store-day-totals">
              <th scope="row">Store</th>
              {cells(day.totals).map((cell, c) => (
                <td key={c} className="num">
                  <strong>{cell}</strong>
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>
      {day.perTillOnly.map((sentence) => (
        <p key={sentence} className="muted" data-testid="store-day-per-till">
          {sentence}
        </p>
      ))}
    </article>
  );
}
