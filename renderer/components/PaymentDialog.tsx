import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { describePercent, gratuityPartWith, tipBase } from '../../bridge/checkout';
import type { CheckoutRules, Order, Payment } from '../../bridge/contract';
import type { PaymentMethod } from '../../bridge/primitives';
import { minorDigits } from '../../bridge/money';
import { BridgeCallError } from '../lib/bridge-client';
import { money, parseAmount, readAmount, toAmountText } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { balanceDue } from '../lib/order-check';
import { chargeLabel, NO_TIP, readTip, type TipChoice } from '../lib/payment';
import { serviceLabel } from '../lib/service';
import { CashHandedOver } from './CashHandedOver';
import { Dialog, ErrorNote, StatusNote } from './Dialog';
import { describedBy, FieldError } from './FieldError';
import { LargeChargeConfirm, useConfirmChargeAbove } from './LargeCharge';
import { ManagerPinField } from './ManagerPinField';
import { SplitPanel, useSplitChoice } from './SplitPanel';
import { TipPicker } from './TipPicker';

type FieldErrors = { amount?: string; tip?: string; tendered?: string };

/** The payment method's keys, shown on its button: Alt+C card, Alt+H cash (the register's screens are Alt+1…7). */
const METHOD_KEYS: Record<PaymentMethod, { label: string; key: string; letter: string }> = {
  card: { label: 'Card', key: 'Alt+C', letter: 'KeyC' },
  cash: { label: 'Cash', key: 'Alt+H', letter: 'KeyH' },
};

/**
 * A refusal that a manager's PIN would lift, split by where each part belongs. The core's refusal
 * names the PIN's own refusal as the issue of `managerPin` ("That PIN is not right…") inside a
 * sentence that also says why a manager is needed (the offline card limit): the PIN's part goes
 * next to the PIN field, the rest is the dialog's message; neither is lost. With no such issue (the
 * PIN is asked for the first time) the whole of it says, next to the field, why it is asked.
 */
function managerRefusal(caught: BridgeCallError): { pin: string; note: string | null } {
  const pin = caught.issues?.find((issue) => issue.path === 'managerPin')?.message.trim();
  if (!pin) return { pin: caught.message, note: null };
  const rest = caught.message.replace(pin, ' ').replace(/\s+/g, ' ').trim();
  return { pin, note: rest === '' ? null : rest };
}

/**
 * Takes payment for an order, one payment at a time: the whole balance, a split part, or an
 * amount typed (part card, part cash), with a tip on top for cards (and cash when the venue
 * takes cash tips). It stays open until the order is paid or the cashier leaves ("Not now").
 * A split is saved as it is chosen, and while the split on screen is not yet the order's
 * nothing can be charged: never the whole bill under a split the cashier is looking at.
 */
export function PaymentDialog({
  order: placed,
  checkout,
  onPaid,
  onClose,
}: {
  order: Order;
  checkout: CheckoutRules;
  /** The order is paid in full. */
  onPaid: (order: Order, change: number, payment: Payment) => void;
  /** Left with something still due: the order as it is now (parts may have been paid meanwhile). */
  onClose: (order: Order) => void;
}) {
  const client = useBridge();
  const [order, setOrder] = useState(placed);
  const currency = order.currency;
  const digits = minorDigits(currency);
  const due = balanceDue(order);
  const [method, setMethod] = useState<PaymentMethod>('card');
  const [chosenPart, setChosenPart] = useState<string | null>(null);
  const [amountText, setAmountText] = useState(toAmountText(due, digits));
  const [tipChoice, setTipChoice] = useState<TipChoice>(NO_TIP);
  /** null: follows what is charged, until the cashier types what was handed over. */
  const [tenderedText, setTenderedText] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  const [needsManager, setNeedsManager] = useState(false);
  /** Why a manager's PIN is asked (or the one typed refused), said next to it: never left to be sent again. */
  const [pinError, setPinError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const ids = { amount: useId(), method: useId(), pin: useId() };
  const [busy, setBusy] = useState(false);
  /** What the last part payment did ("Paid 1 of 3…"), while the rest is still due. */
  const [news, setNews] = useState<string | null>(null);
  // A second look before an unusually large charge (a slipped key, a price typed in cents).
  const confirmAbove = useConfirmChargeAbove();
  const [confirmingLarge, setConfirmingLarge] = useState(false);

  const split = useSplitChoice(order, setOrder);
  const unpaidParts = order.split?.parts.filter((part) => !part.paid) ?? [];
  const part = unpaidParts.find((p) => p.label === chosenPart) ?? unpaidParts[0] ?? null;
  const amountRead = part ? { amount: part.amount, error: null } : readAmount(amountText, currency, { min: 1, max: due });
  const amount = amountRead.amount ?? 0;
  const tipsAllowed = method === 'card' || checkout.cashTips;
  // What suggested tips are a percentage of: this payment, or its part before tax (the checkout's tip basis).
  const tipOn = tipBase(amount, order.check, checkout.tipBasis);
  const tipRead = tipsAllowed ? readTip(tipChoice, tipOn, currency) : { tip: 0, error: null };
  // A large party's gratuity rides on each payment in proportion to what it pays, cash too (the core checks it).
  const gratuity = order.gratuity !== null && order.gratuity.removed === null ? order.gratuity : null;
  const gratuityPart = gratuityPartWith(gratuity, order.check.total, order.paidAmount, amount);
  const tip = gratuityPart + (tipRead.tip ?? 0);
  const charge = amount + tip;
  const tenderedShown = tenderedText ?? toAmountText(charge, digits);
  const tendered = parseAmount(tenderedShown, digits);
  const label = chargeLabel(amount, tip, currency, method, gratuityPart);
  const service = serviceLabel(order.service, order.customer.name, order.channel);

  /** A method picked by its key from anywhere in the dialog (the register's shortcuts sleep while a dialog is open). */
  const onMethodKey = (event: KeyboardEvent<HTMLFormElement>) => {
    if (!event.altKey || event.ctrlKey || event.metaKey) return;
    const picked = (Object.keys(METHOD_KEYS) as PaymentMethod[]).find((m) => METHOD_KEYS[m].letter === event.code);
    if (!picked) return;
    event.preventDefault();
    setMethod(picked);
  };

  const submit = async (event?: FormEvent, largeConfirmed = false) => {
    event?.preventDefault();
    if (busy || split.blocked !== null) return;
    const errors: FieldErrors = {};
    if (amountRead.error !== null) errors.amount = amountRead.error;
    if (tipRead.error !== null) errors.tip = tipRead.error;
    if (method === 'cash') {
      const read = readAmount(tenderedShown, currency);
      const refused = read.error ?? (read.amount < charge ? `Cash handed over must be at least ${money(charge, currency)}.` : null);
      if (refused) errors.tendered = refused;
    }
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    if (!largeConfirmed && confirmAbove > 0 && charge > confirmAbove) {
      setConfirmingLarge(true);
      return;
    }
    setConfirmingLarge(false);
    setBusy(true);
    setError(null);
    setPinError(null);
    try {
      const result = await client.call('payments.take', {
        orderId: order.id,
        method,
        amount,
        tip,
        splitPart: part?.label ?? null,
        ...(method === 'cash' && tendered !== null ? { tendered } : {}),
        ...(needsManager && pin !== '' ? { managerPin: pin } : {}),
      });
      // The approval was for this payment only: the next part asks again if it needs one.
      setPin('');
      setNeedsManager(false);
      const left = balanceDue(result.order);
      if (left === 0) {
        onPaid(result.order, result.change, result.payment);
        return;
      }
      // Something is still due: the next payment starts fresh from what is left.
      setOrder(result.order);
      const tipped = result.payment.tip > 0 ? ` + ${money(result.payment.tip, currency)} tip` : '';
      const change = result.change > 0 ? ` Give ${money(result.change, currency)} change.` : '';
      setNews(`Paid ${part ? `${part.label}: ` : ''}${money(result.payment.amount, currency)}${tipped}.${change} ${money(left, currency)} still due.`);
      setChosenPart(null);
      setAmountText(toAmountText(left, digits));
      setTipChoice(NO_TIP);
      setTenderedText(null);
      setBusy(false);
    } catch (caught) {
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager') {
        const refusal = managerRefusal(caught);
        setNeedsManager(true);
        setPinError(refusal.pin);
        setError(refusal.note);
        setPin('');
      } else setError(describeError(caught));
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Take payment · ${money(due, currency)}`} onClose={() => onClose(order)} wide>
      <form onSubmit={submit} onKeyDown={onMethodKey} className="payment-form">
        <p className="payment-summary">
          {/* One item of the row: the separator keeps its own spacing, not the row's gap. */}
          <span>
            <strong>Order {order.label}</strong>
            {service ? ` · ${service}` : ''}
          </span>
          <span className="balance-due" data-testid="balance-due">
            Due {money(due, currency)}
            {order.paidAmount > 0 ? ` of ${money(order.total, currency)}` : ''}
          </span>
        </p>
        <StatusNote message={news} testId="payment-news" />
        <div className="payment-columns">
          <div>
            <SplitPanel order={order} split={split} selectedPart={part?.label ?? null} onSelectPart={setChosenPart} />
            {part || split.blocked !== null ? null : (
              <>
                <label>
                  Paying now (up to {money(due, currency)})
                  <input inputMode="decimal" autoComplete="off" value={amountText} onChange={(event) => setAmountText(event.target.value)} {...describedBy(ids.amount, fieldErrors.amount ?? null)} />
                </label>
                <FieldError id={ids.amount} message={fieldErrors.amount ?? null} />
              </>
            )}
          </div>
          <div>
            <fieldset className="segmented">
              <legend>How is the customer paying?</legend>
              {(['card', 'cash'] as const).map((option) => (
                <label key={option} className={method === option ? 'segment selected' : 'segment'}>
                  {/* Named by the method alone; the key is its shortcut (aria-keyshortcuts), shown beside it. */}
                  <input
                    type="radio"
                    name="method"
                    value={option}
                    checked={method === option}
                    aria-labelledby={`${ids.method}-${option}`}
                    aria-keyshortcuts={METHOD_KEYS[option].key}
                    onChange={() => setMethod(option)}
                  />
                  <span id={`${ids.method}-${option}`}>{METHOD_KEYS[option].label}</span> <kbd>{METHOD_KEYS[option].key}</kbd>
                </label>
              ))}
            </fieldset>
            {gratuity !== null ? (
              <p className="gratuity-part" data-testid="gratuity-part">
                {gratuity.name} ({describePercent(gratuity.percentBps)}, parties of {gratuity.minGuests} or more): <strong>{money(gratuityPart, currency)}</strong> with this payment
              </p>
            ) : null}
            {tipsAllowed ? (
              <TipPicker base={tipOn} beforeTax={tipOn !== amount} percents={checkout.tipPercents} currency={currency} choice={tipChoice} error={fieldErrors.tip ?? null} onChange={setTipChoice} />
            ) : null}
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
        {/* The dialog's message (why the payment is refused: the offline limit) above the PIN that may approve it, whose own refusal is under it. */}
        <ErrorNote message={error} />
        {needsManager ? (
          <>
            <ManagerPinField className="big-input" autoFocus value={pin} onChange={setPin} errorId={ids.pin} error={pinError} />
            <FieldError id={ids.pin} message={pinError} />
          </>
        ) : null}
        {confirmingLarge ? (
          <LargeChargeConfirm method={method} charge={charge} above={confirmAbove} currency={currency} busy={busy} onBack={() => setConfirmingLarge(false)} onConfirm={() => void submit(undefined, true)} />
        ) : (
          <div className="dialog-actions">
            {/* The order is already saved: leaving keeps it open (docs/config.md, "Charge and open orders"). */}
            <button type="button" className="secondary big" onClick={() => onClose(order)}>
              {due < order.total ? `Not now — keep it open, ${money(due, currency)} due` : 'Not now — keep it open, unpaid'}
            </button>
            <button type="submit" className="primary big" disabled={busy || split.blocked !== null} data-testid="confirm-payment" data-autofocus>
              {busy ? 'Recording…' : (split.blocked ?? label)}
              {split.blocked === null ? (
                <>
                  {' '}
                  <kbd>Enter</kbd>
                </>
              ) : null}
            </button>
          </div>
        )}
      </form>
    </Dialog>
  );
}
