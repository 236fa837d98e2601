import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ShiftView } from '../../bridge/staff/contract';
import { money, readAmount } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { useApproval } from '../lib/session';
import { APPROVAL_PIN, approvalRefusal, issueAt } from '../lib/shift';
import { Dialog, ErrorNote } from './Dialog';
import { describedBy, FieldError } from './FieldError';
import { ManagerPinField } from './ManagerPinField';

export type CashMoveKind = 'paid_out' | 'drop';

export const MOVE_TITLE: Record<CashMoveKind, string> = { paid_out: 'Paid-out', drop: 'Safe drop' };

const QUICK_REASONS: Record<CashMoveKind, readonly string[]> = {
  paid_out: ['Delivery', 'Supplies', 'Tips paid out'],
  drop: ['Safe drop', 'Too much cash in the drawer'],
};

const WHAT: Record<CashMoveKind, string> = {
  paid_out: 'Cash paid out of the drawer for a purpose (a delivery, supplies). It is taken off what the drawer should hold.',
  drop: 'Cash taken from the drawer to the safe. It is taken off what the drawer should hold.',
};

type Field = 'amount' | 'reason' | 'pin';

/**
 * A paid-out or a safe drop: the amount, the reason, and the approving PIN when the person may not
 * do it alone (a paid-out needs `cash.paid_out`) or the core asks for one.
 */
export function CashMoveDialog({ kind, currency, onDone, onClose }: { kind: CashMoveKind; currency: string; onDone: (shift: ShiftView, note: string) => void; onClose: () => void }) {
  const client = useBridge();
  const approval = useApproval('cash.paid_out');
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [pin, setPin] = useState('');
  // The core asked for a PIN the session did not foresee (a drop refused, a lockout): the field stays.
  const [askedForPin, setAskedForPin] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { amount: useId(), reason: useId(), pin: useId() };
  const formRef = useRef<HTMLFormElement>(null);
  const showPin = askedForPin || (kind === 'paid_out' && approval.needed);

  // The refused field takes the focus, its text selected: typing again replaces it.
  useEffect(() => {
    const field = formRef.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]');
    field?.focus();
    field?.select();
  }, [errors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const read = readAmount(amountText, currency, { min: 1 });
    const next: Partial<Record<Field, string>> = {};
    if (read.error !== null) next.amount = read.error;
    if (reason.trim() === '') next.reason = kind === 'paid_out' ? 'Say what the cash is for (for example: delivery).' : 'Say why the cash leaves the drawer (for example: safe drop).';
    if (showPin && !APPROVAL_PIN.test(pin)) next.pin = 'The approving PIN is 4 to 8 digits.';
    setErrors(next);
    if (Object.keys(next).length > 0 || read.amount === null) return;
    setBusy(true);
    try {
      const shift = await client.call('shift.moveCash', { kind, amount: read.amount, reason: reason.trim(), ...(showPin ? { managerPin: pin } : {}) });
      onDone(shift, kind === 'paid_out' ? `Paid out ${money(read.amount, currency)}: ${reason.trim()}.` : `Dropped ${money(read.amount, currency)} to the safe: ${reason.trim()}.`);
    } catch (caught) {
      const refusal = approvalRefusal(caught);
      const amountIssue = issueAt(caught, 'amount');
      const reasonIssue = issueAt(caught, 'reason');
      const pinIssue = issueAt(caught, 'managerPin');
      if (refusal !== null) {
        setAskedForPin(true);
        setPin('');
        setErrors({ pin: refusal });
      } else if (amountIssue || reasonIssue || pinIssue) {
        setErrors({ ...(amountIssue ? { amount: amountIssue } : {}), ...(reasonIssue ? { reason: reasonIssue } : {}), ...(pinIssue ? { pin: pinIssue } : {}) });
      } else setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (field: Field) => errors[field] ?? null;
  return (
    <Dialog title={MOVE_TITLE[kind]} onClose={onClose}>
      <form ref={formRef} className="cash-move-form" aria-label={MOVE_TITLE[kind]} onSubmit={(event) => void submit(event)} noValidate>
        <p className="muted">{WHAT[kind]}</p>
        <label>
          Amount
          <input className="big-input" inputMode="decimal" autoComplete="off" data-autofocus value={amountText} onChange={(event) => setAmountText(event.target.value)} {...describedBy(ids.amount, fieldError('amount'))} />
        </label>
        <FieldError id={ids.amount} message={fieldError('amount')} />
        <fieldset className="quick-reasons">
          <legend>Reason</legend>
          {QUICK_REASONS[kind].map((quick) => (
            <button key={quick} type="button" className="chip" aria-pressed={reason === quick} onClick={() => setReason(quick)}>
              {quick}
            </button>
          ))}
        </fieldset>
        <label>
          Reason (or type your own)
          <input value={reason} maxLength={120} autoComplete="off" onChange={(event) => setReason(event.target.value)} {...describedBy(ids.reason, fieldError('reason'))} />
        </label>
        <FieldError id={ids.reason} message={fieldError('reason')} />
        {showPin ? (
          <div className="manager-approval">
            {kind === 'paid_out' && approval.needed ? <p className="muted">Paying cash out of the drawer needs a manager: they enter their PIN.</p> : null}
            <ManagerPinField label={approval.label} value={pin} onChange={setPin} errorId={ids.pin} error={fieldError('pin')} />
            <FieldError id={ids.pin} message={fieldError('pin')} />
          </div>
        ) : null}
        <ErrorNote message={error} />
        <div className="dialog-actions">
          <button type="button" className="secondary big" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary big" disabled={busy}>
            Record the {kind === 'paid_out' ? 'paid-out' : 'drop'} <kbd>Enter</kbd>
          </button>
        </div>
      </form>
    </Dialog>
  );
}
