import { useId, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../bridge/contract';
import { BridgeCallError } from '../lib/bridge-client';
import { describeError, useBridge } from '../lib/hooks';
import { receiptPrinter, usePrintingStatus } from '../lib/printing';
import { useApproval } from '../lib/session';
import { ErrorNote } from './Dialog';
import { FieldError } from './FieldError';
import { ManagerPinField } from './ManagerPinField';

/**
 * Whether the customer's receipt prints by itself after each payment (else the cashier prints it
 * from the last order or the orders list). A manager's setting, like the other limits.
 */
export function PrintingSettings({ settings, onSaved }: { settings: SettingsView; onSaved: () => void }) {
  const client = useBridge();
  const { status } = usePrintingStatus();
  const approval = useApproval('settings.store');
  const [autoReceipt, setAutoReceipt] = useState(settings.autoReceipt);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pinErrorId = useId();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    setPinError(null);
    if (approval.needed && pin === '') {
      setPinError('Changing how receipts print needs a manager: a manager enters their PIN.');
      return;
    }
    setBusy(true);
    try {
      await client.call('settings.update', { autoReceipt, ...(approval.needed && pin ? { managerPin: pin } : {}) });
      onSaved();
    } catch (caught) {
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager' && approval.needed) setPinError(caught.message);
      else setRefusal(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card printing-settings" onSubmit={(event) => void save(event)} aria-label="Printing">
      <h2>Printing</h2>
      {status && receiptPrinter(status) === null ? (
        <p className="muted" data-testid="no-receipt-printer">
          No receipt printer is set up on this terminal: nothing prints until IT sets one up (--receipt-printer). The setting below applies then.
        </p>
      ) : null}
      <label className="checkbox">
        <input type="checkbox" checked={autoReceipt} onChange={(event) => setAutoReceipt(event.target.checked)} />
        Print the receipt after each payment
      </label>
      <p className="muted field-hint">{autoReceipt ? 'Each payment prints the customer’s receipt.' : 'Receipts print only on request: “Print receipt” after the payment, or Receipt → Reprint in Orders.'}</p>
      {approval.needed ? (
        <>
          <ManagerPinField permission="settings.store" value={pin} onChange={setPin} errorId={pinErrorId} error={pinError} />
          <FieldError id={pinErrorId} message={pinError} />
        </>
      ) : null}
      <ErrorNote message={refusal} />
      <div className="dialog-actions">
        <button type="submit" className="primary big" disabled={busy}>
          Save printing settings
        </button>
      </div>
    </form>
  );
}
