import { useId, useState, type FormEvent } from 'react';
import type { CheckoutRules, Discount } from '../../bridge/contract';
import { minorDigits } from '../../bridge/money';
import { formOfDiscount, needsApproval, QUICK_REASONS, readDiscount, type DiscountFieldErrors, type DiscountForm, type DiscountMode } from '../lib/discounts';
import { money, toPercentText } from '../lib/format';
import { Dialog, ErrorNote } from './Dialog';
import { describedBy, FieldError } from './FieldError';

const MODES: { mode: DiscountMode; label: string }[] = [
  { mode: 'percent', label: 'Percent' },
  { mode: 'amount', label: 'Amount' },
  { mode: 'comp', label: 'Comp (100%)' },
];

const MANAGER_PIN = /^\d{4,8}$/;

/**
 * A discount or comp on one line or on the whole order: kind, value, reason (required). Above
 * the approval limits it asks for the manager PIN before it is applied; the PIN travels with
 * the order, and the core checks it.
 */
export function DiscountDialog({
  title,
  base,
  currency,
  current,
  approval,
  managerPinSet,
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
  managerPinSet: boolean;
  /** A PIN already given for this ticket, kept when another discount is changed. */
  managerPin: string;
  onApply: (discount: Discount, managerPin: string) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const [form, setForm] = useState<DiscountForm>(() => formOfDiscount(current, minorDigits(currency)));
  const [errors, setErrors] = useState<DiscountFieldErrors & { pin?: string; approval?: string }>({});
  const [pin, setPin] = useState(managerPin);
  const ids = { value: useId(), reason: useId(), pin: useId() };
  const reading = readDiscount(form, base, currency);
  const aboveLimit = reading.discount !== null && needsApproval(reading.discount, reading.off, approval);
  const limits = `Above ${toPercentText(approval.percentBps)}% or ${money(approval.amount, currency)} off, a manager approves the discount`;
  const change = (next: Partial<DiscountForm>) => setForm((f) => ({ ...f, ...next }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reading.discount === null) {
      setErrors(reading.errors);
      return;
    }
    // With no PIN set nobody can approve it: the core would refuse the order, so it is refused here.
    if (aboveLimit && !managerPinSet) {
      setErrors({ approval: `${limits}, and no manager PIN is set on this terminal. A manager can set one in Settings.` });
      return;
    }
    if (aboveLimit && !MANAGER_PIN.test(pin)) {
      setErrors({ pin: 'This discount is above the limit: the manager enters the PIN (4 to 8 digits).' });
      return;
    }
    onApply(reading.discount, aboveLimit ? pin : managerPin);
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit} className="discount-form">
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
        {aboveLimit && managerPinSet ? (
          <>
            <p className="warning-note">{limits}.</p>
            <label>
              Manager PIN
              <input type="password" inputMode="numeric" autoComplete="off" value={pin} onChange={(event) => setPin(event.target.value)} {...describedBy(ids.pin, errors.pin ?? null)} />
            </label>
            <FieldError id={ids.pin} message={errors.pin ?? null} />
          </>
        ) : null}
        <ErrorNote message={errors.approval ?? null} />
        <div className="dialog-actions">
          {current ? (
            <button type="button" className="danger big" onClick={onRemove}>
              Remove discount
            </button>
          ) : null}
          <button type="button" className="secondary big" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary big" data-testid="apply-discount">
            Apply <kbd>Enter</kbd>
          </button>
        </div>
      </form>
    </Dialog>
  );
}
