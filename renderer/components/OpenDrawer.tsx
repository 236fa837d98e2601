import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { BridgeCallError } from '../lib/bridge-client';
import { describeError, useBridge } from '../lib/hooks';
import { PRINTER_STATE_LABEL, receiptPrinter, usePrintingStatus } from '../lib/printing';
import { useApproval } from '../lib/session';
import { ErrorNote, StatusNote } from './Dialog';
import { describedBy, FieldError } from './FieldError';
import { ManagerPinField } from './ManagerPinField';

type Field = 'reason' | 'pin';

/**
 * "Open the drawer" with no sale: a manager's (a cashier's with a manager's PIN), with the reason kept in the audit. The drawer opens
 * through the receipt printer, so the section is there only where printers are set up.
 */
export function OpenDrawer() {
  const client = useBridge();
  const { status, publish } = usePrintingStatus();
  const approval = useApproval('drawer.open');
  const [reason, setReason] = useState('');
  const [pin, setPin] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { reason: useId(), pin: useId() };
  const formRef = useRef<HTMLFormElement>(null);
  // The refused field takes the focus, its text selected: typing again replaces it.
  useEffect(() => {
    const field = formRef.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]');
    field?.focus();
    field?.select();
  }, [errors]);

  if (!status?.enabled) return null;
  const printer = receiptPrinter(status);
  const needsPin = approval.needed;
  const fieldError = (field: Field) => errors[field] ?? null;

  const open = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setNotice(null);
    if (reason.trim() === '') {
      setErrors({ reason: 'Say why the drawer is opened (for example: change for the float).' });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const next = await client.call('printing.openDrawer', { reason: reason.trim(), ...(needsPin && pin ? { managerPin: pin } : {}) });
      publish(next);
      const after = receiptPrinter(next);
      setNotice(
        after && after.state !== 'ready' && after.state !== 'printing'
          ? `The drawer opening is queued: the receipt printer is ${PRINTER_STATE_LABEL[after.state].toLowerCase()}. The drawer opens when the printer is back.`
          : `The drawer opens now. Reason kept: “${reason.trim()}”.`,
      );
      setReason('');
      setPin('');
    } catch (caught) {
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager' && needsPin) setErrors({ pin: caught.message });
      else if (caught instanceof BridgeCallError && caught.issues?.some((issue) => issue.path === 'reason')) setErrors({ reason: caught.issues.find((issue) => issue.path === 'reason')!.message });
      else setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card open-drawer" aria-label="Cash drawer" onSubmit={(event) => void open(event)} ref={formRef} noValidate>
      <h2>Cash drawer</h2>
      {printer === null ? (
        <p className="muted" data-testid="drawer-unavailable">
          The drawer opens through the receipt printer, and none is set up on this terminal.
        </p>
      ) : (
        <p className="muted">Opens the drawer without a sale. {needsPin ? 'A manager approves it with their PIN; the reason is kept.' : 'The reason is kept.'}</p>
      )}
      <label>
        Reason
        <input value={reason} maxLength={120} autoComplete="off" disabled={printer === null} onChange={(event) => setReason(event.target.value)} {...describedBy(ids.reason, fieldError('reason'))} />
      </label>
      <FieldError id={ids.reason} message={fieldError('reason')} />
      {needsPin ? (
        <>
          <ManagerPinField permission="drawer.open" disabled={printer === null} value={pin} onChange={setPin} errorId={ids.pin} error={fieldError('pin')} />
          <FieldError id={ids.pin} message={fieldError('pin')} />
        </>
      ) : null}
      <ErrorNote message={error} />
      <StatusNote message={notice} testId="drawer-notice" />
      <div className="dialog-actions">
        <button type="submit" className="primary big" disabled={busy || printer === null}>
          Open the drawer
        </button>
      </div>
    </form>
  );
}
