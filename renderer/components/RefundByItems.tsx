import { useState, type FormEvent, type ReactNode } from 'react';
import type { Order, Payment, RefundReason } from '../../bridge/contract';
import { money } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { refundPreview } from '../lib/order-check';
import { ErrorNote } from './Dialog';

/** Where the money goes back, in the cashier's words (the core picks the payments when there are several). */
function destination(payments: readonly Payment[]): string {
  const methods = new Set(payments.map((payment) => payment.method));
  if (methods.size > 1) return 'to the card and cash payments that paid for it';
  return methods.has('card') ? "to the customer's card" : 'in cash';
}

function items(count: number): string {
  return `${count} ${count === 1 ? 'item' : 'items'}`;
}

/**
 * Refund by item: how many units of each line go back (up to what is not refunded yet), what that
 * gives back, a confirmation in words, then payments.refundItems. The core works out the amount
 * and which payments it goes back to; its answer is what the confirmation after it says.
 */
export function RefundByItems({
  order,
  reasonField,
  reason,
  onRefunded,
  onClose,
}: {
  order: Order;
  /** The shared reason picker, shown with the units. */
  reasonField: ReactNode;
  reason: RefundReason;
  onRefunded: (order: Order, confirmation: string) => void;
  onClose: () => void;
}) {
  const client = useBridge();
  const [units, setUnits] = useState<number[]>(() => order.lines.map(() => 0));
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const count = units.reduce((a, b) => a + b, 0);
  const preview = refundPreview(order, units);
  const refundable = order.payments.filter((p) => p.status !== 'failed' && p.amount > p.refundedAmount);
  const to = destination(refundable);
  const step = (index: number, delta: number) => setUnits((current) => current.map((n, i) => (i === index ? n + delta : n)));

  const refund = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('payments.refundItems', {
        orderId: order.id,
        items: units.flatMap((quantity, lineIndex) => (quantity > 0 ? [{ lineIndex, quantity }] : [])),
        reason,
      });
      // Said from what the core did: which payments the refunds went to.
      const refundIds = new Set(result.refunds.map((refund) => refund.id));
      const paidBack = result.order.payments.filter((payment) => payment.refunds.some((refund) => refundIds.has(refund.id)));
      onRefunded(result.order, `Refunded ${items(count)}, ${money(result.amount, order.currency)}, ${destination(paidBack)}.`);
    } catch (caught) {
      setError(describeError(caught));
      setConfirming(false);
      setBusy(false);
    }
  };

  const ask = (event: FormEvent) => {
    event.preventDefault();
    if (count > 0 && preview.error === null) setConfirming(true);
  };

  if (confirming && preview.value !== null) {
    return (
      <div className="refund-confirm">
        <p className="warning-note" role="alert" data-testid="refund-question">
          Refund {items(count)}, {money(preview.value, order.currency)}, {to}?
        </p>
        <div className="dialog-actions">
          <button type="button" className="secondary big" onClick={() => setConfirming(false)} autoFocus>
            No, go back
          </button>
          <button type="button" className="danger big" disabled={busy} onClick={() => void refund()} data-testid="confirm-refund-items">
            {busy ? 'Recording…' : `Yes, refund ${money(preview.value, order.currency)}`}
          </button>
        </div>
      </div>
    );
  }
  return (
    <form onSubmit={ask}>
      <ul className="refund-lines">
        {order.lines.map((line, index) => {
          const left = line.quantity - line.refundedQuantity;
          const chosen = units[index] ?? 0;
          return (
            <li key={index} data-testid="refund-line">
              <span className="refund-line-name">
                {line.quantity} × {line.name}
                {line.refundedQuantity > 0 ? <span className="muted"> ({line.refundedQuantity} refunded)</span> : null}
              </span>
              {left > 0 ? (
                <span className="qty" role="group" aria-label={`${line.name} to refund`}>
                  <button type="button" className="qty-btn" aria-label={`One less ${line.name} to refund`} disabled={chosen === 0} onClick={() => step(index, -1)}>
                    −
                  </button>
                  <span className="qty-value" aria-label={`${line.name} units to refund`}>
                    {chosen}
                  </span>
                  <button type="button" className="qty-btn" aria-label={`One more ${line.name} to refund`} disabled={chosen >= left} onClick={() => step(index, 1)}>
                    +
                  </button>
                </span>
              ) : (
                <span className="muted">All refunded</span>
              )}
            </li>
          );
        })}
      </ul>
      {reasonField}
      <p className="refund-amount" aria-live="polite" data-testid="refund-items-amount">
        {preview.error !== null ? preview.error : count === 0 ? 'Pick the items to give back.' : `Gives back ${money(preview.value, order.currency)} ${to}.`}
      </p>
      <ErrorNote message={error} />
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="danger big" disabled={count === 0 || preview.error !== null} data-testid="refund-items">
          Refund {items(count)}
        </button>
      </div>
    </form>
  );
}
