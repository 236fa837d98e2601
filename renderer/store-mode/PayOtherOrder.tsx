// Taking payment here toward an order another till owns (docs/store-mode.md, "Payment on another
// till's order"): cash goes into this till's drawer, a card is charged here, and the payment is sent
// to the order's till, which records it once. What is due is the owner's figure less what this till
// sent and the owner has not applied yet. A split bill is paid part by part, as on the register, and
// split (or split again) from here (SplitOtherOrder.tsx). A refused cash payment is handed back (HandBackButton).
import { useId, useState, type FormEvent } from 'react';
import type { CheckoutRules } from '../../bridge/contract';
import type { PaymentMethod } from '../../bridge/primitives';
import { minorDigits } from '../../bridge/money';
import type { StoreModeForward, StoreModeOrder } from '../../bridge/store-mode/contract';
import { CashHandedOver } from '../components/CashHandedOver';
import { Dialog, ErrorNote, StatusNote } from '../components/Dialog';
import { describedBy, FieldError } from '../components/FieldError';
import { LargeChargeConfirm, useConfirmChargeAbove } from '../components/LargeCharge';
import { ManagerPinField } from '../components/ManagerPinField';
import { PartsToPay } from '../components/SplitPanel';
import { TipPicker } from '../components/TipPicker';
import { BridgeCallError } from '../lib/bridge-client';
import { money, readAmount, toAmountText } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { chargeLabel, NO_TIP, readTip, type TipChoice } from '../lib/payment';
import { SplitOtherOrder } from './SplitOtherOrder';
import { tillName } from './till-words';

type FieldErrors = { amount?: string; tip?: string; tendered?: string };

/** What is still due on the order as this till knows it: the owner's figure, less this till's payments not applied yet. */
export function dueHere(order: StoreModeOrder): number {
  const sent = order.forwards.reduce((sum, forward) => sum + (forward.state === 'pending' && forward.change.kind === 'payment' ? forward.change.amount : 0), 0);
  return Math.max(0, order.total.amount - order.paid.amount - sent);
}

export function PayOtherOrderDialog({ order, checkout, onClose, onSent }: { order: StoreModeOrder; checkout: CheckoutRules; onClose: () => void; onSent: () => void }) {
  const client = useBridge();
  const owner = tillName(order.ownerTillName, order.ownerTillId);
  const currency = order.total.currency;
  const digits = minorDigits(currency);
  const due = dueHere(order);
  const [method, setMethod] = useState<PaymentMethod>('card');
  const [amountText, setAmountText] = useState(toAmountText(due, digits));
  const [tipChoice, setTipChoice] = useState<TipChoice>(NO_TIP);
  const [tenderedText, setTenderedText] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  const [needsManager, setNeedsManager] = useState(false);
  /** Why a manager's PIN is asked (or the one typed refused), said next to it: never left to be sent again. */
  const [pinError, setPinError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Sent: the change to give, said until the cashier closes. */
  const [done, setDone] = useState<string | null>(null);
  const [splitting, setSplitting] = useState(false);
  const [chosenPart, setChosenPart] = useState<string | null>(null);
  const ids = { amount: useId(), pin: useId() };
  const confirmAbove = useConfirmChargeAbove();
  const [confirmingLarge, setConfirmingLarge] = useState(false);

  const unpaidParts = order.split?.parts.filter((p) => !p.paid) ?? [];
  const part = unpaidParts.find((p) => p.label === chosenPart) ?? unpaidParts[0] ?? null;
  const splitLocked = order.split?.parts.some((p) => p.paid) ?? false;
  const splitSent = order.forwards.some((forward) => forward.state === 'pending' && forward.change.kind === 'split');
  const amountRead = part ? { amount: Math.min(part.amount, due), error: null } : readAmount(amountText, currency, { min: 1, max: due });
  const amount = amountRead.amount ?? 0;
  const tipsAllowed = method === 'card' || checkout.cashTips;
  const tipRead = tipsAllowed ? readTip(tipChoice, amount, currency) : { tip: 0, error: null };
  const tip = tipRead.tip ?? 0;
  const charge = amount + tip;
  const tenderedShown = tenderedText ?? toAmountText(charge, digits);
  const tenderedRead = readAmount(tenderedShown, currency, { min: 1 });

  const submit = async (event?: FormEvent, largeConfirmed = false) => {
    event?.preventDefault();
    if (busy) return;
    const errors: FieldErrors = {};
    if (amountRead.error !== null) errors.amount = amountRead.error;
    if (tipRead.error !== null) errors.tip = tipRead.error;
    if (method === 'cash') {
      const refused = tenderedRead.error ?? (tenderedRead.amount < charge ? `Cash handed over must be at least ${money(charge, currency)}.` : null);
      if (refused) errors.tendered = refused;
    }
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    // A second look before an unusually large charge, as on the register.
    if (!largeConfirmed && confirmAbove > 0 && charge > confirmAbove) {
      setConfirmingLarge(true);
      return;
    }
    setConfirmingLarge(false);
    setBusy(true);
    setError(null);
    setPinError(null);
    try {
      const result = await client.call('storeMode.takePayment', {
        orderId: order.id,
        method,
        amount,
        tip,
        tendered: method === 'cash' && tenderedRead.error === null ? tenderedRead.amount : null,
        splitPart: part?.label ?? null,
        ...(needsManager && pin !== '' ? { managerPin: pin } : {}),
      });
      onSent();
      const taken = method === 'cash' ? `${money(charge, currency)} in cash is in this drawer` : `${money(charge, currency)} by card`;
      setDone(`${taken}. Sent to ${owner}, which records it on ${order.label}.${result.change > 0 ? ` Give ${money(result.change, currency)} change.` : ''}`);
    } catch (caught) {
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager') {
        setNeedsManager(true);
        setPinError(caught.message);
        setPin('');
      } else setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  if (done !== null) {
    return (
      <Dialog title={`Payment taken for ${order.label}`} onClose={onClose}>
        <StatusNote message={done} testId="other-payment-done" />
        <div className="dialog-actions">
          <button type="button" className="primary big" onClick={onClose} data-autofocus>
            Done
          </button>
        </div>
      </Dialog>
    );
  }

  if (splitting) {
    return (
      <Dialog title={`Split ${order.label} at ${owner}`} onClose={onClose} wide>
        <SplitOtherOrder
          order={order}
          onBack={() => setSplitting(false)}
          onSent={() => {
            setSplitting(false);
            onSent();
          }}
        />
      </Dialog>
    );
  }

  return (
    <Dialog title={`Take payment for ${order.label} at ${owner} · ${money(due, currency)} due`} onClose={onClose} wide>
      <form onSubmit={submit} className="payment-form">
        <p className="dialog-message">
          The money is taken here; {owner} records the payment on {order.label} once it has it.
        </p>
        <div className="payment-columns">
          <div>
            {order.split ? (
              <PartsToPay parts={order.split.parts} currency={currency} selected={part?.label ?? null} onSelect={setChosenPart} />
            ) : (
              <>
                <label>
                  Paying now (up to {money(due, currency)})
                  <input inputMode="decimal" autoComplete="off" value={amountText} onChange={(event) => setAmountText(event.target.value)} {...describedBy(ids.amount, fieldErrors.amount ?? null)} />
                </label>
                <FieldError id={ids.amount} message={fieldErrors.amount ?? null} />
              </>
            )}
            {splitSent ? <p className="muted">A split is sent to {owner}, waiting for it.</p> : null}
            {splitLocked ? null : (
              <button type="button" className="secondary" onClick={() => setSplitting(true)}>
                {order.split ? 'Change the split…' : 'Split the bill…'}
              </button>
            )}
            <fieldset className="segmented">
              <legend>How is the customer paying?</legend>
              {(['card', 'cash'] as const).map((option) => (
                <label key={option} className={method === option ? 'segment selected' : 'segment'}>
                  <input type="radio" name="other-method" value={option} checked={method === option} onChange={() => setMethod(option)} />
                  {option === 'card' ? 'Card' : 'Cash'}
                </label>
              ))}
            </fieldset>
          </div>
          <div>
            {tipsAllowed ? <TipPicker base={amount} beforeTax={false} percents={checkout.tipPercents} currency={currency} choice={tipChoice} error={fieldErrors.tip ?? null} onChange={setTipChoice} /> : null}
            {method === 'cash' ? (
              <CashHandedOver
                charge={charge}
                currency={currency}
                text={tenderedShown}
                error={fieldErrors.tendered ?? null}
                onText={setTenderedText}
                onPicked={() => setFieldErrors(({ tendered: _fixed, ...rest }) => rest)}
              />
            ) : null}
          </div>
        </div>
        {needsManager ? (
          <>
            <ManagerPinField className="big-input" autoFocus value={pin} onChange={setPin} errorId={ids.pin} error={pinError} />
            <FieldError id={ids.pin} message={pinError} />
          </>
        ) : null}
        <ErrorNote message={error} />
        {confirmingLarge ? (
          <LargeChargeConfirm method={method} charge={charge} above={confirmAbove} currency={currency} busy={busy} onBack={() => setConfirmingLarge(false)} onConfirm={() => void submit(undefined, true)} />
        ) : (
          <div className="dialog-actions">
            <button type="button" className="secondary big" onClick={onClose}>
              Not now
            </button>
            <button type="submit" className="primary big" disabled={busy || due === 0} data-testid="confirm-other-payment" data-autofocus>
              {busy ? 'Recording…' : chargeLabel(amount, tip, currency, method)}
            </button>
          </div>
        )}
      </form>
    </Dialog>
  );
}

/** On a refused cash payment: the cash goes back to the guest, and the drawer hears of it once. */
export function HandBackButton({ forward, onDone }: { forward: StoreModeForward; onDone: () => void }) {
  const client = useBridge();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (forward.giveBack === null) return null;
  const { amount, currency } = forward.giveBack;
  const handBack = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.call('storeMode.giveBack', { forwardId: forward.id });
      onDone();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {' '}
      <button type="button" className="secondary" disabled={busy} onClick={() => void handBack()}>
        {`Handed back ${money(amount, currency)}`}
      </button>
      <ErrorNote message={error} />
    </>
  );
}
