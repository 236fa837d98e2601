import { useId, useState, type FormEvent } from 'react';
import { DEFAULT_CONFIRM_CHARGE_ABOVE, type Order, type Payment, type PaymentMethod } from '../../bridge/contract';
import { minorDigits } from '../../bridge/money';
import { BridgeCallError } from '../lib/bridge-client';
import { money, parseAmount, readAmount, toAmountText } from '../lib/format';
import { describeError, useBridge, useQuery } from '../lib/hooks';
import { Dialog, ErrorNote } from './Dialog';
import { describedBy, FieldError } from './FieldError';

/** Quick cash amounts: exact, then the next round notes above the amount due. */
function cashSuggestions(due: number, digits: number): number[] {
  const unit = 10 ** digits;
  const rounds = [5, 10, 20, 50, 100].map((note) => Math.ceil(due / (note * unit)) * note * unit);
  return [...new Set([due, ...rounds])].filter((v) => v >= due).slice(0, 4);
}

export function PaymentDialog({ order, onPaid, onClose }: { order: Order; onPaid: (order: Order, change: number, payment: Payment) => void; onClose: () => void }) {
  const client = useBridge();
  const digits = minorDigits(order.currency);
  const due = Math.max(0, order.total - order.paidAmount);
  const [method, setMethod] = useState<PaymentMethod>('card');
  const [tenderedText, setTenderedText] = useState(toAmountText(due, digits));
  const [pin, setPin] = useState('');
  const [needsManager, setNeedsManager] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tenderedError, setTenderedError] = useState<string | null>(null);
  const tenderedErrorId = useId();
  const [busy, setBusy] = useState(false);
  // A second look before an unusually large charge (a slipped key, a price typed in cents).
  const { data: settings } = useQuery('settings.get', {}, ['settings.changed']);
  const confirmAbove = settings?.confirmChargeAbove ?? DEFAULT_CONFIRM_CHARGE_ABOVE;
  const [confirmingLarge, setConfirmingLarge] = useState(false);

  const tendered = parseAmount(tenderedText, digits);
  const change = method === 'cash' && tendered !== null ? tendered - due : null;

  const submit = async (event?: FormEvent, largeConfirmed = false) => {
    event?.preventDefault();
    if (busy) return;
    if (method === 'cash') {
      const read = readAmount(tenderedText, order.currency);
      const refused = read.error ?? (read.amount < due ? `Cash handed over must be at least ${money(due, order.currency)}.` : null);
      setTenderedError(refused);
      if (refused) return;
    }
    if (!largeConfirmed && confirmAbove > 0 && due > confirmAbove) {
      setConfirmingLarge(true);
      return;
    }
    setConfirmingLarge(false);
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('payments.take', {
        orderId: order.id,
        method,
        amount: due,
        ...(method === 'cash' && tendered !== null ? { tendered } : {}),
        ...(needsManager && pin !== '' ? { managerPin: pin } : {}),
      });
      onPaid(result.order, result.change, result.payment);
    } catch (caught) {
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager') setNeedsManager(true);
      setError(describeError(caught));
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Take payment · ${money(due, order.currency)}`} onClose={onClose}>
      <form onSubmit={submit} className="payment-form">
        <fieldset className="segmented">
          <legend>How is the customer paying?</legend>
          {(['card', 'cash'] as const).map((option) => (
            <label key={option} className={method === option ? 'segment selected' : 'segment'}>
              <input type="radio" name="method" value={option} checked={method === option} onChange={() => setMethod(option)} />
              {option === 'card' ? 'Card' : 'Cash'}
            </label>
          ))}
        </fieldset>
        {method === 'cash' ? (
          <div className="cash">
            <label>
              Cash handed over
              <input
                className="big-input"
                inputMode="decimal"
                value={tenderedText}
                onChange={(event) => setTenderedText(event.target.value)}
                onFocus={(event) => event.target.select()}
                autoFocus
                {...describedBy(tenderedErrorId, tenderedError)}
              />
            </label>
            <FieldError id={tenderedErrorId} message={tenderedError} />
            <div className="quick-cash">
              {cashSuggestions(due, digits).map((amount) => (
                <button key={amount} type="button" className="secondary" onClick={() => setTenderedText(toAmountText(amount, digits))}>
                  {money(amount, order.currency)}
                </button>
              ))}
            </div>
            <p className="change" aria-live="polite">
              Change: <strong>{change !== null && change >= 0 ? money(change, order.currency) : '—'}</strong>
            </p>
          </div>
        ) : null}
        {needsManager ? (
          <label>
            Manager PIN
            <input className="big-input" type="password" inputMode="numeric" autoComplete="off" value={pin} onChange={(event) => setPin(event.target.value)} autoFocus />
          </label>
        ) : null}
        <ErrorNote message={error} />
        {confirmingLarge ? (
          <div className="large-charge">
            <p className="warning-note" role="alert">{`Charge ${money(due, order.currency)}? That is more than ${money(confirmAbove, order.currency)}.`}</p>
            <div className="dialog-actions">
              {/* The safe answer has the focus: Enter twice must not charge an amount nobody looked at. */}
              <button type="button" className="secondary big" onClick={() => setConfirmingLarge(false)} autoFocus>
                No, go back
              </button>
              <button type="button" className="primary big" disabled={busy} onClick={() => void submit(undefined, true)}>
                {busy ? 'Recording…' : `Yes, charge ${money(due, order.currency)}`}
              </button>
            </div>
          </div>
        ) : (
          <div className="dialog-actions">
            {/* The order is already saved: leaving keeps it open (docs/config.md, "Charge and open orders"). */}
            <button type="button" className="secondary big" onClick={onClose}>
              {due < order.total ? `Not now — keep it open, ${money(due, order.currency)} due` : 'Not now — keep it open, unpaid'}
            </button>
            <button type="submit" className="primary big" disabled={busy} data-testid="confirm-payment" data-autofocus>
              {busy ? 'Recording…' : `Charge ${money(due, order.currency)}`} <kbd>Enter</kbd>
            </button>
          </div>
        )}
      </form>
    </Dialog>
  );
}
