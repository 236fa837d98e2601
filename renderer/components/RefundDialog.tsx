import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { Order, Payment, RefundReason } from '../../bridge/contract';
import { minorDigits } from '../../bridge/money';
import { money, readAmount, toAmountText } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { Dialog, ErrorNote } from './Dialog';
import { describedBy, FieldError } from './FieldError';
import { useReasonChoice } from './ReasonChoice';
import { useRefundApproval, type RefundApproval } from './RefundApproval';
import { RefundByItems } from './RefundByItems';

/** The reasons the cloud records, in the cashier's words. */
export const REFUND_REASONS: Record<RefundReason, string> = {
  requested_by_customer: 'Customer asked for it',
  order_cancelled: 'Order cancelled',
  duplicate: 'Charged twice',
  fraudulent: 'Suspected fraud',
  other: 'Other',
};

type RefundMode = 'amount' | 'items';

/** Refund by amount: one payment, any amount up to what it has left. */
function RefundByAmount({
  order,
  refundable,
  reasonField,
  reasonReady,
  reason,
  note,
  approval,
  onRefunded,
  onClose,
}: {
  order: Order;
  refundable: Payment[];
  reasonField: ReactNode;
  reasonReady: () => boolean;
  reason: RefundReason;
  /** The words given with the reason (required with "Other"); '' when none. */
  note: string;
  approval: RefundApproval;
  onRefunded: (order: Order, confirmation: string) => void;
  onClose: () => void;
}) {
  const client = useBridge();
  const digits = minorDigits(order.currency);
  const [paymentId, setPaymentId] = useState(refundable[0]?.id ?? '');
  const payment = refundable.find((p) => p.id === paymentId) ?? refundable[0];
  const remaining = payment ? payment.amount - payment.refundedAmount : 0;
  const [amountText, setAmountText] = useState(toAmountText(remaining, digits));
  const [error, setError] = useState<string | null>(null);
  const [amountError, setAmountError] = useState<string | null>(null);
  const amountErrorId = useId();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!payment) return;
    const { amount, error: refused } = readAmount(amountText, order.currency, { min: 1, max: remaining });
    setAmountError(refused);
    if (amount === null) return;
    // The approval and the reason before anything is sent: the later check focuses the field higher up.
    const approved = approval.ready();
    if (!reasonReady() || !approved) return;
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('payments.refund', { paymentId: payment.id, amount, reason, ...(note !== '' ? { note } : {}), ...approval.payload });
      const given = money(amount, order.currency);
      onRefunded(
        result.order,
        payment.method === 'card' ? `Refunded ${given} to the card that paid ${money(payment.amount, order.currency)}.` : `Refunded ${given} in cash: hand it to the customer.`,
      );
    } catch (caught) {
      if (!approval.refused(caught)) setError(describeError(caught));
      setBusy(false);
    }
  };

  if (!payment) return null;
  return (
    <form onSubmit={submit}>
      {refundable.length > 1 ? (
        <label>
          Payment
          <select value={payment.id} onChange={(event) => setPaymentId(event.target.value)}>
            {refundable.map((p) => (
              <option key={p.id} value={p.id}>
                {p.method === 'card' ? 'Card' : 'Cash'} {money(p.amount, order.currency)}
                {p.splitPart ? ` · ${p.splitPart}` : ''}
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
        <input
          className="big-input"
          inputMode="decimal"
          value={amountText}
          onChange={(event) => setAmountText(event.target.value)}
          data-autofocus
          {...describedBy(amountErrorId, amountError)}
        />
      </label>
      <FieldError id={amountErrorId} message={amountError} />
      {reasonField}
      {approval.field}
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
  );
}

/**
 * Refund by amount or by item (units of lines), with one reason for either.
 * `onRefunded` gets the order as it is now and the sentence that confirms the refund to the cashier.
 */
export function RefundDialog({ order, onRefunded, onClose }: { order: Order; onRefunded: (order: Order, confirmation: string) => void; onClose: () => void }) {
  const refundable = order.payments.filter((p) => p.status !== 'failed' && p.amount > p.refundedAmount);
  const reasonChoice = useReasonChoice({ options: REFUND_REASONS, initial: 'requested_by_customer', other: 'other', what: 'the refund' });
  const reason = reasonChoice.reason ?? 'requested_by_customer';
  const [mode, setMode] = useState<RefundMode>('amount');
  /** A refund by item is asking "Refund …?": the mode cannot change under the question. */
  const [asking, setAsking] = useState(false);
  const approval = useRefundApproval();
  const itemsLeft = order.lines.some((line) => line.quantity > line.refundedQuantity);
  const title = `Refund · Order ${order.label}`;

  if (refundable.length === 0) {
    return (
      <Dialog title={title} onClose={onClose}>
        <p className="dialog-message">Nothing on this order can be refunded: it has no payment left to give back.</p>
      </Dialog>
    );
  }
  // "Other" sends its words (kept with the refund, printed on its receipt); other reasons need none.
  const note = reason === 'other' ? reasonChoice.words : '';
  const shared = { order, reason, note, reasonField: reasonChoice.field, reasonReady: reasonChoice.ready, approval, onRefunded, onClose };
  return (
    <Dialog title={title} onClose={onClose}>
      {itemsLeft ? (
        <fieldset className="segmented">
          <legend className="visually-hidden">Refund by</legend>
          {(['amount', 'items'] as const).map((option) => (
            <label key={option} className={mode === option ? 'segment selected' : 'segment'}>
              <input type="radio" name="refund-mode" checked={mode === option} disabled={asking} onChange={() => setMode(option)} />
              {option === 'amount' ? 'By amount' : 'By item'}
            </label>
          ))}
        </fieldset>
      ) : null}
      {mode === 'items' ? <RefundByItems {...shared} onAsking={setAsking} /> : <RefundByAmount {...shared} refundable={refundable} />}
    </Dialog>
  );
}
