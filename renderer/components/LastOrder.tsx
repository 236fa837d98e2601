import { useId } from 'react';
import type { Order } from '../../bridge/contract';
import { money } from '../lib/format';
import { balanceDue } from '../lib/order-check';
import { serviceLabel } from '../lib/service';

/**
 * The order just charged or saved, in a box of its own above the next ticket: its number big,
 * how it is served, what it came to and whether it is paid, and what to do now (the change to
 * give). It is the finished order's, never the new ticket's header; "Start next order" puts it away.
 */
export function LastOrder({ order, notice, onNext }: { order: Order; notice: string | null; onNext: () => void }) {
  const titleId = useId();
  const service = serviceLabel(order.service, order.customer.name, order.channel);
  const due = balanceDue(order);
  const paid = due === 0 && order.paidAmount > 0;
  const total = (
    <strong className="last-order-total" data-testid="last-order-total">
      {money(order.total, order.currency)}
    </strong>
  );
  return (
    <section className={paid ? 'last-order last-order-paid' : 'last-order'} aria-labelledby={titleId}>
      <div className="last-order-head">
        <h2 id={titleId} className="last-order-title">
          Last order
        </h2>
        <button type="button" className="secondary" onClick={onNext}>
          Start next order
        </button>
      </div>
      <p className="order-label-big" data-testid="order-label">
        Order {order.label}
      </p>
      <p className="last-order-facts" data-testid="last-order-facts">
        {service ? `${service} · ` : ''}
        {paid ? (
          <>paid {total}</>
        ) : order.paidAmount > 0 ? (
          <>
            paid {money(order.paidAmount, order.currency)} of {total} · {money(due, order.currency)} due
          </>
        ) : (
          <>unpaid · {total} due</>
        )}
      </p>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
    </section>
  );
}
