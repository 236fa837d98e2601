import { formatTime, money } from '../lib/format';
import { useQuery } from '../lib/hooks';
import { ErrorNote } from '../components/Dialog';
import { OpenDrawer } from '../components/OpenDrawer';

export function Shift() {
  const { data: summary, error } = useQuery('shift.summary', {}, ['orders.changed']);
  const { data: location } = useQuery('location.get', {});
  return (
    <div className="shift">
      <ErrorNote message={error} />
      {location ? (
        <section className="card" aria-label="Location">
          <h2>{location.name}</h2>
          <p className="muted">
            {location.address}
            {location.phone ? ` · ${location.phone}` : ''} · {location.timezone}
          </p>
        </section>
      ) : null}
      {summary ? (
        <section className="card shift-summary" aria-label="Shift summary">
          <h2>This shift since {formatTime(summary.since)}</h2>
          <dl className="facts big-facts">
            <dt>Orders</dt>
            <dd>{summary.orders}</dd>
            <dt>Cancelled</dt>
            <dd>{summary.cancelled}</dd>
            <dt>Card</dt>
            <dd>{money(summary.byMethod.card, summary.currency)}</dd>
            <dt>Cash</dt>
            <dd>{money(summary.byMethod.cash, summary.currency)}</dd>
            <dt>Tax</dt>
            <dd>{money(summary.tax, summary.currency)}</dd>
            <dt>Discounts and comps</dt>
            <dd>{money(summary.discounts, summary.currency)}</dd>
            <dt>Card tips</dt>
            <dd>{money(summary.tips.card, summary.currency)}</dd>
            {summary.tips.cash > 0 ? (
              <>
                <dt>Cash tips</dt>
                <dd>{money(summary.tips.cash, summary.currency)}</dd>
              </>
            ) : null}
            <dt>Card stored offline</dt>
            <dd>{money(summary.queuedOffline, summary.currency)}</dd>
            <dt>Refunded</dt>
            <dd>{money(summary.refunded, summary.currency)}</dd>
            <dt>Net taken</dt>
            <dd data-testid="shift-net">{money(summary.net, summary.currency)}</dd>
          </dl>
        </section>
      ) : null}
      <OpenDrawer />
    </div>
  );
}
