import { useState, type FormEvent, type ReactNode } from 'react';
import type { Order, RefundReason } from '../../bridge/contract';
import { money } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { refundPreview } from '../lib/order-check';
import { describeShares, refundShares, sharesOfRefunds } from '../lib/refunds';
import { ErrorNote } from './Dialog';
import type { RefundApproval } from './RefundApproval';

function items(count: number): string {
  return `${count} ${count === 1 ? 'item' : 'items'}`;
}

/**
 * Refund by item: how many units of each line go back (up to what is not refunded yet), what that
 * gives back and to which payments (worked out as the core does: cash to hand back, card), a
 * confirmation in words, then payments.refundItems. What is said after it comes from the core's
 * answer: the refunds it made, each named by its payment.
 */
export function RefundByItems({
  order,
  reasonField,
  reasonReady,
  reason,
  note,
  approval,
  onRefunded,
  onClose,
  onAsking,
}: {
  order: Order;
  /** The shared reason picker, shown with the units. */
  reasonField: ReactNode;
  /** The reason is picked (with words for "Other"), else said under it. */
  reasonReady: () => boolean;
  reason: RefundReason;
  /** The words given with the reason (required with "Other"); '' when none. */
  note: string;
  /** A manager's PIN when the signed-in person may not refund. */
  approval: RefundApproval;
  onRefunded: (order: Order, confirmation: string) => void;
  onClose: () => void;
  /** The confirmation is showing (true) or gone (false): the dialog keeps its mode while it asks. */
  onAsking: (asking: boolean) => void;
}) {
  const client = useBridge();
  const [units, setUnits] = useState<number[]>(() => order.lines.map(() => 0));
  const [confirming, setConfirmingState] = useState(false);
  const setConfirming = (asking: boolean) => {
    setConfirmingState(asking);
    onAsking(asking);
  };
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const count = units.reduce((a, b) => a + b, 0);
  const amount = refundPreview(order, units);
  // The amount, then where it goes: either refusal is the one the core would give.
  const shares = amount.value === null || count === 0 ? null : refundShares(order, units, amount.value);
  const problem = amount.error ?? shares?.error ?? null;
  const step = (index: number, delta: number) => setUnits((current) => current.map((n, i) => (i === index ? n + delta : n)));

  const refund = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('payments.refundItems', {
        orderId: order.id,
        items: units.flatMap((quantity, lineIndex) => (quantity > 0 ? [{ lineIndex, quantity }] : [])),
        reason,
        ...(note !== '' ? { note } : {}),
        ...approval.payload,
      });
      // Said from what the core did: the refunds it made, each to its payment.
      onRefunded(result.order, `Refunded ${items(count)}, ${describeShares(sharesOfRefunds(result.order, result.refunds), order.currency)}.`);
    } catch (caught) {
      if (!approval.refused(caught)) setError(describeError(caught));
      setConfirming(false);
      setBusy(false);
    }
  };

  const ask = async (event: FormEvent) => {
    event.preventDefault();
    if (count === 0 || problem !== null || busy) return;
    // The reason and the PIN first (the later check focuses the field higher up), then the PIN
    // checked by the core: "Yes, refund" is asked only of a refund that can go through.
    const pinTyped = approval.ready();
    if (!reasonReady() || !pinTyped) return;
    if (approval.check === null) {
      setConfirming(true);
      return;
    }
    setBusy(true);
    const approved = await approval.check();
    setBusy(false);
    if (approved) setConfirming(true);
  };

  if (confirming && amount.value !== null && shares?.value) {
    return (
      <div className="refund-confirm">
        <p className="warning-note" role="alert" data-testid="refund-question">
          Refund {items(count)}, {describeShares(shares.value, order.currency)}.
        </p>
        <div className="dialog-actions">
          <button type="button" className="secondary big" onClick={() => setConfirming(false)} autoFocus>
            No, go back
          </button>
          <button type="button" className="danger big" disabled={busy} onClick={() => void refund()} data-testid="confirm-refund-items">
            {busy ? 'Recording…' : `Yes, refund ${money(amount.value, order.currency)}`}
          </button>
        </div>
      </div>
    );
  }
  return (
    <form onSubmit={(event) => void ask(event)}>
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
      {approval.field}
      <p className="refund-amount" aria-live="polite" data-testid="refund-items-amount">
        {problem ?? (shares?.value ? `Gives back ${describeShares(shares.value, order.currency, 'in cash')}.` : 'Pick the items to give back.')}
      </p>
      <ErrorNote message={error} />
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="danger big" disabled={count === 0 || problem !== null || busy} data-testid="refund-items">
          {busy ? 'Checking the PIN…' : `Refund ${items(count)}`}
        </button>
      </div>
    </form>
  );
}
