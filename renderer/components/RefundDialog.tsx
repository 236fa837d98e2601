import { useState, type FormEvent } from 'react';
import type { Order, RefundReason } from '../../bridge/contract';
import { minorDigits } from '../../bridge/money';
import { money, parseAmount, toAmountText } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { Dialog, ErrorNote } from './Dialog';

/** The reasons the cloud records, in the cashier's words. */
export const REFUND_REASONS: Record<RefundReason, string> = {
  requested_by_customer: 'Customer asked for it',
  order_cancelled: 'Order cancelled',
  duplicate: 'Charged twice',
  fraudulent: 'Suspected fraud',
  other: 'Other',
};

export function RefundDialog({ order, onRefunded, onClose }: { order: Order; onRefunded: (order: Order) => void; onClose: () => void }) {
  const client = useBridge();
  const digits = minorDigits(order.currency);
  const refundable = order.payments.filter((p) => p.status !== 'failed' && p.amount > p.refundedAmount);
  const [paymentId, setPaymentId] = useState(refundable[0]?.id ?? '');
  const payment = refundable.find((p) => p.id === paymentId);
  const remaining = payment ? payment.amount - payment.refundedAmount : 0;
  const [amountText, setAmountText] = useState(toAmountText(remaining, digits));
  const [reason, setReason] = useState<RefundReason>('requested_by_customer');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amount = parseAmount(amountText, digits);
    if (!payment) return;
    if (amount === null || amount <= 0 || amount > remaining) {
      setError(`Enter an amount between ${money(1, order.currency)} and ${money(remaining, order.currency)}.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('payments.refund', { paymentId: payment.id, amount, reason });
      onRefunded(result.order);
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
    }
  };

  if (!payment) {
    return (
      <Dialog title="Refund" onClose={onClose}>
        <p className="dialog-message">Nothing on this order can be refunded: it has no payment left to give back.</p>
      </Dialog>
    );
  }
  return (
    <Dialog title="Refund" onClose={onClose}>
      <form onSubmit={submit}>
        {refundable.length > 1 ? (
          <label>
            Payment
            <select value={paymentId} onChange={(event) => setPaymentId(event.target.value)}>
              {refundable.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.method === 'card' ? 'Card' : 'Cash'} {money(p.amount, order.currency)}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <p>
            {payment.method === 'card' ? 'Card' : 'Cash'} payment of {money(payment.amount, order.currency)}
            {payment.refundedAmount > 0 ? `, ${money(payment.refundedAmount, order.currency)} already refunded` : ''}
          </p>
        )}
        <label>
          Amount to give back (up to {money(remaining, order.currency)})
          <input className="big-input" inputMode="decimal" value={amountText} onChange={(event) => setAmountText(event.target.value)} data-autofocus />
        </label>
        <label>
          Reason
          <select value={reason} onChange={(event) => setReason(event.target.value as RefundReason)}>
            {Object.entries(REFUND_REASONS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <ErrorNote message={error} />
        <div className="dialog-actions">
          <button type="button" className="secondary big" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="danger big" disabled={busy} data-testid="confirm-refund">
            {busy ? 'Recording…' : 'Refund'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
