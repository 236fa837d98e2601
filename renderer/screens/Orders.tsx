import { useState } from 'react';
import type { CheckoutRules, Order, OrderDisplayState, OrderStatus, RefundState } from '../../bridge/contract';
import { ApprovedActionDialog } from '../components/ApprovedActionDialog';
import { CheckTotals } from '../components/CheckTotals';
import { GratuityDialog } from '../components/GratuityDialog';
import { ErrorNote, StatusNote } from '../components/Dialog';
import { PaymentDialog } from '../components/PaymentDialog';
import { useReasonChoice } from '../components/ReasonChoice';
import { ReceiptDialog } from '../components/ReceiptDialog';
import { REFUND_REASONS, RefundDialog } from '../components/RefundDialog';
import { AddToReopenedDialog, ReopenDialog } from '../components/ReopenDialog';
import { WalkoutDialog } from '../components/WalkoutDialog';
import { describeDiscount } from '../lib/discounts';
import { businessDayStart, nextDay } from '../../bridge/business-day';
import { gratuityLabel } from '../../bridge/checkout/gratuity';
import { formatClock, formatTime, money, zoneLabel } from '../lib/format';
import { describeError, useBridge, useQuery } from '../lib/hooks';
import { useTimePlace } from '../lib/location-time';
import { balanceDue } from '../lib/order-check';
import { labelNamesCustomer, serviceLabel } from '../lib/service';
import { OtherTillsOrders } from '../store-mode/OtherTillsOrders';

/** The state a restaurant reads at a glance (the /v1 status stays underneath: open, fulfilled, cancelled). */
const STATE_BADGE: Record<OrderDisplayState, { label: string; className: string }> = {
  open_unpaid: { label: 'Open · unpaid', className: 'badge-open' },
  open_part_paid: { label: 'Open · part paid', className: 'badge-open' },
  paid_in_kitchen: { label: 'Paid · in kitchen', className: 'badge-paid' },
  completed: { label: 'Completed', className: 'badge-fulfilled' },
  cancelled: { label: 'Cancelled', className: 'badge-cancelled' },
};
const REFUND_BADGE: Record<Exclude<RefundState, 'none'>, string> = { partial: 'Partially refunded', full: 'Refunded' };

function StateBadges({ order }: { order: Order }) {
  const state = STATE_BADGE[order.displayState];
  return (
    <>
      {order.cloudStatus === null ? (
        <span className={`badge ${state.className}`}>{state.label}</span>
      ) : (
        // A state this till does not know: the cloud's own word, closed here (docs/sync.md).
        <span className="badge badge-cancelled" title="The cloud holds this order in a state this till does not know. It is closed here.">
          Cloud: {order.cloudStatus}
        </span>
      )}
      {order.refundState !== 'none' ? <span className="badge badge-low">{REFUND_BADGE[order.refundState]}</span> : null}
    </>
  );
}
const SYNC_LABEL = { pending: 'Waiting to sync', synced: 'Synced', failed: 'Refused by the cloud' } as const;

/** "Table 12 · 4 guests", "Takeout · Ada", "Delivery (online)", with the customer's name when the label does not say it. */
function ServiceCell({ order }: { order: Order }) {
  const label = serviceLabel(order.service, order.customer.name, order.channel);
  const name = labelNamesCustomer(order.service, order.customer.name) ? '' : order.customer.name;
  return (
    <>
      {label ? <span className="service-tag">{label}</span> : null}
      {name ? <span className="service-customer">{name}</span> : null}
      {!label && !name ? '—' : null}
    </>
  );
}

/** "Card $4.55 + $0.68 tip · 1 of 3 · captured · $1.81 refunded". */
function paymentLine(payment: Order['payments'][number], currency: string): string {
  const status = payment.status === 'queued_offline' ? 'stored offline, sent when back online' : payment.status === 'failed' ? 'refused: collect again' : payment.status;
  const part = payment.splitPart ? ` · ${payment.splitPart}` : '';
  const tip = payment.tip > 0 ? ` + ${money(payment.tip, currency)} tip` : '';
  const refunded = payment.refundedAmount > 0 ? ` · ${money(payment.refundedAmount, currency)} refunded` : '';
  return `${payment.method === 'card' ? 'Card' : 'Cash'} ${money(payment.amount, currency)}${tip}${part} · ${status}${refunded}`;
}

/** Why an order is voided, in the staff's words; "Other" asks for a few words of its own. */
const VOID_REASONS = {
  mistake: 'Rung up by mistake',
  changed_mind: 'Customer changed their mind',
  kitchen: 'The kitchen cannot make it',
  left: 'Customer left',
  other: 'Other',
} as const;

/**
 * "Cancel this order?", with a reason (a void is a manager's decision with a reason) and a
 * manager's PIN when the signed-in person may not void orders. Says first what cancelling does
 * not do (give the money back).
 */
function CancelOrderDialog({ order, onClose, onCancelled }: { order: Order; onClose: () => void; onCancelled: () => void }) {
  const client = useBridge();
  const reason = useReasonChoice({ options: VOID_REASONS, initial: null, other: 'other', what: 'the void' });
  return (
    <ApprovedActionDialog
      title="Cancel this order?"
      message={
        order.paidAmount > 0
          ? `It was paid ${money(order.paidAmount, order.currency)}. Cancelling does not give the money back: refund it first if the customer should get it.`
          : 'The kitchen will stop on it. This cannot be undone.'
      }
      permission="order.void"
      ready={reason.ready}
      perform={(approval) =>
        client.call('orders.cancel', { id: order.id, reason: reason.reason === 'other' ? `Other: ${reason.words}` : VOID_REASONS[reason.reason!], ...approval })
      }
      keepLabel="Keep working"
      confirmLabel="Cancel order"
      onClose={onClose}
      onDone={onCancelled}
    >
      {reason.field}
    </ApprovedActionDialog>
  );
}

/**
 * How a check is tied to others: merged into one ("Merged into A12"), reopened ("Reopened by Maria:
 * forgot the dessert", with its linked check), opened by a reopening ("Reopened from #A12"). Each
 * linked check is a button that shows it.
 */
function OrderLinks({ order, onPick }: { order: Order; onPick: (id: string) => void }) {
  const link = (ref: { id: string; label: string }) => (
    <button type="button" className="link" onClick={() => onPick(ref.id)}>
      {ref.label}
    </button>
  );
  const reopened = order.reopened;
  return (
    <>
      {order.mergedInto ? <p className="order-link" data-testid="order-merged">Merged into {link(order.mergedInto)}</p> : null}
      {reopened ? (
        <p className="order-link" data-testid="order-reopened">
          Reopened by {reopened.by?.name ?? 'someone'}
          {reopened.approvedBy ? ` (approved by ${reopened.approvedBy.name})` : ''}: {reopened.reason}
          {reopened.linked ? <> · added on {link(reopened.linked)}</> : ' · nothing added yet'}
        </p>
      ) : null}
      {order.reopenOf ? (
        <p className="order-link" data-testid="order-reopen-of">
          Reopened from {order.reopenOf.label.startsWith('#') ? '' : '#'}
          {link(order.reopenOf)}
        </p>
      ) : null}
    </>
  );
}

/** What a day of the date filter is: the business day, from its turn to the next, where the location is. */
function BusinessDayNote({ day }: { day: string }) {
  const place = useTimePlace();
  const turn = new Date(businessDayStart(day, place.timezone)).toISOString();
  return (
    <p className="muted" data-testid="business-day-note">
      A day here is the business day: from {formatClock(turn, place)} to {formatClock(turn, place)} the next morning (times in {zoneLabel(turn, place)}), as on the end-of-day report.
    </p>
  );
}

export function Orders({ onEdit, checkout }: { onEdit: (order: Order) => void; checkout: CheckoutRules }) {
  const client = useBridge();
  const [status, setStatus] = useState<OrderStatus | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [search, setSearch] = useState('');
  const place = useTimePlace();
  // The dates picked are business days where the location is: From's starts the list, the day after To's ends it.
  const { data: orders, error: loadError } = useQuery(
    'orders.list',
    {
      ...(status ? { status } : {}),
      ...(from ? { createdAfter: new Date(businessDayStart(from, place.timezone)).toISOString() } : {}),
      ...(to ? { createdBefore: new Date(businessDayStart(nextDay(to), place.timezone)).toISOString() } : {}),
      ...(search.trim() ? { search: search.trim() } : {}),
    },
    ['orders.changed'],
  );
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'pay' | 'refund' | 'cancel' | 'walkout' | 'receipt' | 'gratuity' | 'reopen' | 'add' | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** What the last action on the selected order did ("Refunded $2.00 …"), until another is picked. */
  const [notice, setNotice] = useState<string | null>(null);
  const selected = orders?.find((order) => order.id === selectedId) ?? null;

  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  return (
    <div className="orders">
      <section className="orders-list" aria-label="Orders">
        <form className="filters" onSubmit={(event) => event.preventDefault()}>
          <label>
            Status
            <select value={status} onChange={(event) => setStatus(event.target.value as OrderStatus | '')}>
              <option value="">All</option>
              <option value="open">Open</option>
              <option value="fulfilled">Completed</option>
              <option value="cancelled">Cancelled</option>
            </select>
          </label>
          <label>
            From
            <input type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
          </label>
          <label>
            To
            <input type="date" value={to} onChange={(event) => setTo(event.target.value)} />
          </label>
          <label>
            Search
            <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Number, table, server, name or phone" />
          </label>
        </form>
        {from || to ? <BusinessDayNote day={from || to} /> : null}
        <ErrorNote message={loadError} />
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Service · customer</th>
              <th scope="col">Items</th>
              <th scope="col">Total</th>
              <th scope="col">Status</th>
              <th scope="col">Sync</th>
            </tr>
          </thead>
          <tbody>
            {(orders ?? []).map((order) => (
              <tr key={order.id} className={order.id === selectedId ? 'selected' : ''} data-order-id={order.id}>
                <td>
                  <button
                    type="button"
                    className="link order-label"
                    onClick={() => {
                      setSelectedId(order.id);
                      setNotice(null);
                    }}
                  >
                    {order.label}
                  </button>
                  <span className="order-time">{formatTime(order.createdAt, place)}</span>
                  {order.staff ? <span className="order-staff">{order.staff.name}</span> : null}
                </td>
                <td>
                  <ServiceCell order={order} />
                </td>
                <td>{order.lines.reduce((n, line) => n + line.quantity, 0)}</td>
                <td>{money(order.total, order.currency)}</td>
                <td>
                  <StateBadges order={order} />
                </td>
                <td>
                  <span className={`badge sync-${order.syncState}`}>{SYNC_LABEL[order.syncState]}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {orders && orders.length === 0 ? <p className="muted empty">No orders match these filters.</p> : null}
        <OtherTillsOrders search={search} />
      </section>
      <section className="order-detail" aria-label="Order details">
        {selected ? (
          <>
            <h2>
              Order {selected.label}
              {selected.customer.name ? ` · ${selected.customer.name}` : ''} <StateBadges order={selected} />
            </h2>
            <p className="muted">
              {formatTime(selected.createdAt, place)}
              {selected.customer.phone ? ` · ${selected.customer.phone}` : ''}
              {selected.staff ? <span data-testid="order-staff">{` · ${selected.staff.name}’s order`}</span> : null}
            </p>
            <p className="order-service">
              <ServiceCell order={selected} />
            </p>
            <OrderLinks
              order={selected}
              onPick={(id) => {
                setSelectedId(id);
                setNotice(null);
              }}
            />
            <ul className="detail-lines">
              {selected.lines.map((line, index) => (
                <li key={index}>
                  <span>
                    {line.quantity} × {line.name}
                    {line.modifiers.length > 0 ? <span className="line-mods"> ({line.modifiers.map((m) => m.name).join(', ')})</span> : null}
                    {line.note ? <span className="line-note">Note: {line.note}</span> : null}
                    {line.discount ? <span className="line-discount">{`${describeDiscount(line.discount, selected.currency)} −${money(line.discount.amount, selected.currency)}`}</span> : null}
                    {line.refundedQuantity > 0 ? <span className="line-refunded">{line.refundedQuantity} refunded</span> : null}
                  </span>
                  <span>{money(line.lineTotal, selected.currency)}</span>
                </li>
              ))}
            </ul>
            {selected.notes ? <p className="notes">Note: {selected.notes}</p> : null}
            <CheckTotals
              check={selected.check}
              currency={selected.currency}
              totalTestId="order-total"
              gratuity={
                selected.gratuity
                  ? {
                      label: gratuityLabel(selected.gratuity),
                      amount: selected.gratuity.charged,
                      removed: selected.gratuity.removed ? `taken off by ${selected.gratuity.removed.by?.name ?? 'a manager'}: ${selected.gratuity.removed.reason}` : null,
                    }
                  : null
              }
              orderDiscount={
                selected.check.orderDiscount ? { label: describeDiscount(selected.check.orderDiscount, selected.currency), amount: selected.check.orderDiscount.amount } : null
              }
            />
            <dl className="facts">
              {selected.tipTotal > 0 ? (
                <>
                  <dt>Tips</dt>
                  <dd data-testid="order-tips">{money(selected.tipTotal, selected.currency)}</dd>
                </>
              ) : null}
              <dt>Paid</dt>
              <dd data-testid="order-paid">{money(selected.paidAmount, selected.currency)}</dd>
              <dt>Refunded</dt>
              <dd data-testid="order-refunded">{money(selected.refundedAmount, selected.currency)}</dd>
            </dl>
            {selected.payments.length > 0 ? (
              <ul className="payments">
                {selected.payments.map((payment) => (
                  <li key={payment.id}>
                    <span data-testid="payment-line">{paymentLine(payment, selected.currency)}</span>
                    {payment.staff ? <span className="payment-staff" data-testid="payment-staff">{` · by ${payment.staff.name}`}</span> : null}
                    {payment.refunds.length > 0 ? (
                      <ul className="payment-refunds">
                        {payment.refunds.map((r) => (
                          <li key={r.id} data-testid="refund-line">
                            {`Refunded ${money(r.amount, selected.currency)} · ${(REFUND_REASONS as Record<string, string>)[r.reason] ?? r.reason}${r.note ? `: ${r.note}` : ''}`}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            <ErrorNote message={error} />
            <StatusNote message={notice} testId="order-notice" />
            <div className="detail-actions">
              {selected.status === 'open' && balanceDue(selected) > 0 ? (
                <button type="button" className="primary big" onClick={() => setDialog('pay')}>
                  Take payment
                </button>
              ) : null}
              {selected.status === 'open' ? (
                <>
                  {/* Money due comes first: the core refuses to complete an order of this till with money due (a walkout is a manager's, with a reason). */}
                  {balanceDue(selected) <= 0 || selected.staff === null ? (
                    <button type="button" className="secondary big" onClick={() => act(() => client.call('orders.fulfil', { id: selected.id }))}>
                      Mark completed
                    </button>
                  ) : (
                    <button type="button" className="secondary big" onClick={() => setDialog('walkout')}>
                      Close unpaid…
                    </button>
                  )}
                  <button type="button" className="secondary big" onClick={() => onEdit(selected)}>
                    Edit
                  </button>
                  <button type="button" className="danger big" onClick={() => setDialog('cancel')}>
                    Cancel order
                  </button>
                  {selected.gratuity && selected.gratuity.removed === null ? (
                    <button type="button" className="secondary big" onClick={() => setDialog('gratuity')}>
                      Take the gratuity off…
                    </button>
                  ) : null}
                </>
              ) : null}
              {selected.displayState === 'completed' && selected.reopened === null ? (
                <button type="button" className="secondary big" onClick={() => setDialog('reopen')}>
                  Reopen…
                </button>
              ) : null}
              {selected.reopened !== null && selected.reopened.linked === null ? (
                <button type="button" className="secondary big" onClick={() => setDialog('add')}>
                  Add items…
                </button>
              ) : null}
              {selected.payments.some((p) => p.status !== 'failed' && p.amount > p.refundedAmount) ? (
                <button type="button" className="secondary big" onClick={() => setDialog('refund')}>
                  Refund
                </button>
              ) : null}
              <button type="button" className="secondary big" onClick={() => setDialog('receipt')}>
                Receipt
              </button>
            </div>
          </>
        ) : (
          <p className="muted empty">Pick an order to see it and act on it.</p>
        )}
      </section>
      {selected && dialog === 'pay' ? <PaymentDialog order={selected} checkout={checkout} onClose={() => setDialog(null)} onPaid={() => setDialog(null)} /> : null}
      {selected && dialog === 'refund' ? (
        <RefundDialog
          order={selected}
          onClose={() => setDialog(null)}
          onRefunded={(_order, confirmation) => {
            setDialog(null);
            setNotice(confirmation);
          }}
        />
      ) : null}
      {selected && dialog === 'receipt' ? <ReceiptDialog order={selected} onClose={() => setDialog(null)} /> : null}
      {selected && dialog === 'walkout' ? (
        <WalkoutDialog
          order={selected}
          onClose={() => setDialog(null)}
          onClosed={() => {
            setDialog(null);
            setError(null);
            setNotice(`Order ${selected.label} closed unpaid: a walkout on the day's report.`);
          }}
        />
      ) : null}
      {selected && dialog === 'gratuity' ? (
        <GratuityDialog
          order={selected}
          onClose={() => setDialog(null)}
          onRemoved={() => {
            setDialog(null);
            setError(null);
            setNotice(`The gratuity is off order ${selected.label}.`);
          }}
        />
      ) : null}
      {selected && dialog === 'reopen' ? (
        <ReopenDialog
          order={selected}
          onClose={() => setDialog(null)}
          onReopened={() => {
            setDialog(null);
            setError(null);
            setNotice(`Check ${selected.label} is reopened: refund what comes off here, or add items on a new check.`);
          }}
        />
      ) : null}
      {selected && dialog === 'add' ? (
        <AddToReopenedDialog
          order={selected}
          onClose={() => setDialog(null)}
          onAdded={() => {
            setDialog(null);
            setError(null);
            setNotice(`The items are on a new check${selected.service.table ? ` at table ${selected.service.table}` : ''}, linked to ${selected.label}: take its payment there.`);
          }}
        />
      ) : null}
      {selected && dialog === 'cancel' ? (
        <CancelOrderDialog
          order={selected}
          onClose={() => setDialog(null)}
          onCancelled={() => {
            setDialog(null);
            setError(null);
            setNotice(`Order ${selected.label} cancelled.`);
          }}
        />
      ) : null}
    </div>
  );
}
