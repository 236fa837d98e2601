import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { CheckoutRules, Discount } from '../../bridge/contract';
import { minorDigits } from '../../bridge/money';
import { formOfDiscount, needsApproval, QUICK_REASONS, readDiscount, type DiscountFieldErrors, type DiscountForm, type DiscountMode } from '../lib/discounts';
import { money, toPercentText } from '../lib/format';
import { useApprovalCheck } from './ApprovalPin';
import { Dialog } from './Dialog';
import { describedBy, FieldError } from './FieldError';
import { ManagerPinField } from './ManagerPinField';

const MODES: { mode: DiscountMode; label: string }[] = [
  { mode: 'percent', label: 'Percent' },
  { mode: 'amount', label: 'Amount' },
  { mode: 'comp', label: 'Comp (100%)' },
];

const MANAGER_PIN = /^\d{4,8}$/;

/**
 * A discount or comp on one line or on the whole order: kind, value, reason (required). Above
 * the approval limits, when the signed-in person may not give it alone, it asks for a manager's
 * PIN, checked by the core before the discount is applied: a wrong PIN is refused next to the PIN
 * and the dialog stays. The PIN travels with the order, and the core checks it again on saving.
 */
export function DiscountDialog({
  title,
  base,
  currency,
  current,
  approval,
  pinNeeded,
  managerPin,
  onApply,
  onRemove,
  onClose,
}: {
  title: string;
  /** What the discount comes off: the line, or the order after its line discounts. */
  base: number;
  currency: string;
  current: Discount | null;
  approval: CheckoutRules['discountApproval'];
  /** The signed-in person may not give a discount above the limits alone (no 'discount.above_limit'). */
  pinNeeded: boolean;
  /**
   * A PIN already given for this ticket: handed back unchanged with a discount that needs no
   * approval (the ticket's other discounts still do). Never shown: a discount above the limits is
   * approved again, by a manager typing their PIN into an empty field.
   */
  managerPin: string;
  onApply: (discount: Discount, managerPin: string) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const [form, setForm] = useState<DiscountForm>(() => formOfDiscount(current, minorDigits(currency)));
  const [errors, setErrors] = useState<DiscountFieldErrors & { pin?: string }>({});
  const [pin, setPin] = useState('');
  const [checking, setChecking] = useState(false);
  const checkApproval = useApprovalCheck('discount.above_limit');
  const pinRef = useRef<HTMLInputElement>(null);
  const ids = { value: useId(), reason: useId(), pin: useId() };
  const reading = readDiscount(form, base, currency);
  const aboveLimit = reading.discount !== null && needsApproval(reading.discount, reading.off, approval);
  const askPin = aboveLimit && pinNeeded;
  const limits = `Above ${toPercentText(approval.percentBps)}% or ${money(approval.amount, currency)} off, a manager approves the discount`;
  const change = (next: Partial<DiscountForm>) => setForm((f) => ({ ...f, ...next }));

  // A refused PIN is cleared (no one may send it again) and the field has the focus for the next.
  useEffect(() => {
    if (errors.pin) pinRef.current?.focus();
  }, [errors.pin]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (checking) return;
    const discount = reading.discount;
    if (discount === null) {
      setErrors(reading.errors);
      return;
    }
    if (!askPin) {
      onApply(discount, managerPin);
      return;
    }
    if (!MANAGER_PIN.test(pin)) {
      setErrors({ pin: 'This discount is above the limit: a manager enters their PIN (4 to 8 digits).' });
      setPin('');
      return;
    }
    setChecking(true);
    const check = await checkApproval(pin);
    setChecking(false);
    if (!check.approved) {
      setErrors({ pin: check.refusal });
      setPin('');
      return;
    }
    onApply(discount, pin);
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} className="discount-form">
        <p className="muted">Applies to {money(base, currency)}.</p>
        <fieldset className="segmented segmented-3">
          <legend>Kind of discount</legend>
          {MODES.map(({ mode, label }) => (
            <label key={mode} className={form.mode === mode ? 'segment selected' : 'segment'}>
              <input type="radio" name="discount-mode" checked={form.mode === mode} onChange={() => change({ mode })} {...(form.mode === mode ? { 'data-autofocus': true } : {})} />
              {label}
            </label>
          ))}
        </fieldset>
        {form.mode === 'comp' ? null : (
          <>
            <label>
              {form.mode === 'percent' ? 'Percent off' : 'Amount off'}
              <input className="big-input" inputMode="decimal" autoComplete="off" value={form.valueText} onChange={(event) => change({ valueText: event.target.value })} {...describedBy(ids.value, errors.value ?? null)} />
            </label>
            <FieldError id={ids.value} message={errors.value ?? null} />
          </>
        )}
        <fieldset className="quick-reasons">
          <legend>Reason</legend>
          {QUICK_REASONS.map((reason) => (
            <button key={reason} type="button" className="chip" aria-pressed={form.reason === reason} onClick={() => change({ reason })}>
              {reason}
            </button>
          ))}
        </fieldset>
        <label>
          Reason (or type your own)
          <input value={form.reason} autoComplete="off" onChange={(event) => change({ reason: event.target.value })} {...describedBy(ids.reason, errors.reason ?? null)} />
        </label>
        <FieldError id={ids.reason} message={errors.reason ?? null} />
        {reading.discount !== null ? (
          <p className="discount-preview" aria-live="polite">
            Takes off <strong>{money(reading.off, currency)}</strong>
          </p>
        ) : null}
        {askPin ? (
          <>
            <p className="warning-note">{limits}.</p>
            <ManagerPinField permission="discount.above_limit" inputRef={pinRef} value={pin} onChange={setPin} errorId={ids.pin} error={errors.pin ?? null} />
            <FieldError id={ids.pin} message={errors.pin ?? null} />
          </>
        ) : null}
        <div className="dialog-actions">
          {current ? (
            <button type="button" className="danger big" onClick={onRemove}>
              Remove discount
            </button>
          ) : null}
          <button type="button" className="secondary big" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary big" data-testid="apply-discount" disabled={checking}>
            {checking ? 'Checking the PIN…' : (
              <>
                Apply <kbd>Enter</kbd>
              </>
            )}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
