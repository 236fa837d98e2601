import { useState, type FormEvent } from 'react';
import type { Order, Payment, PaymentMethod } from '../../bridge/contract';
import { minorDigits } from '../../bridge/money';
import { BridgeCallError } from '../lib/bridge-client';
import { money, parseAmount, toAmountText } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { Dialog, ErrorNote } from './Dialog';

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
  const [busy, setBusy] = useState(false);

  const tendered = parseAmount(tenderedText, digits);
  const change = method === 'cash' && tendered !== null ? tendered - due : 0;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    if (method === 'cash' && (tendered === null || tendered < due)) {
      setError(`Cash handed over must be at least ${money(due, order.currency)}.`);
      return;
    }
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
              />
            </label>
            <div className="quick-cash">
              {cashSuggestions(due, digits).map((amount) => (
                <button key={amount} type="button" className="secondary" onClick={() => setTenderedText(toAmountText(amount, digits))}>
                  {money(amount, order.currency)}
                </button>
              ))}
            </div>
            <p className="change" aria-live="polite">
              Change: <strong>{change >= 0 ? money(change, order.currency) : '—'}</strong>
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
        <div className="dialog-actions">
          <button type="button" className="secondary big" onClick={onClose}>
            Not now
          </button>
          <button type="submit" className="primary big" disabled={busy} data-testid="confirm-payment" data-autofocus>
            {busy ? 'Recording…' : `Charge ${money(due, order.currency)}`} <kbd>Enter</kbd>
          </button>
        </div>
      </form>
    </Dialog>
  );
}
