import { useId, useState } from 'react';
import type { Order } from '../../bridge/contract';
import { BridgeCallError } from '../lib/bridge-client';
import { money } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { balanceDue } from '../lib/order-check';
import { useApproval } from '../lib/session';
import { ApprovalPin } from './ApprovalPin';
import { Dialog, ErrorNote } from './Dialog';
import { describedBy, FieldError } from './FieldError';

/** What the core takes as a walkout's reason (bridge/contract.ts, orders.fulfil). */
const REASON_MAX = 120;

/**
 * "Close it unpaid?": a walkout is a manager's decision with a reason (the core refuses to complete
 * an order of this till with money due otherwise); the Z report shows it apart from the sales.
 */
export function WalkoutDialog({ order, onClose, onClosed }: { order: Order; onClose: () => void; onClosed: () => void }) {
  const client = useBridge();
  const approval = useApproval('order.walkout');
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = async () => {
    if (reason.trim() === '') {
      setReasonError('Say why it is closed unpaid (for example: the guests left without paying).');
      return;
    }
    setBusy(true);
    setError(null);
    setPinError(null);
    try {
      await client.call('orders.fulfil', { id: order.id, walkout: { reason }, ...(approval.needed && pin !== '' ? { managerPin: pin } : {}) });
      onClosed();
    } catch (caught) {
      if (approval.needed && caught instanceof BridgeCallError && caught.code === 'needs_manager') setPinError(caught.message);
      else setError(describeError(caught));
      setBusy(false);
    }
  };
  return (
    <Dialog title="Close it unpaid?" onClose={onClose}>
      <p className="dialog-message">
        {`${money(balanceDue(order), order.currency)} is still due. Closing it unpaid records a walkout on the day's report, with your reason; the money is not taken.`}
      </p>
      <label>
        Why is it closed unpaid?
        <input
          value={reason}
          maxLength={REASON_MAX}
          data-autofocus
          onChange={(event) => {
            setReason(event.target.value);
            setReasonError(null);
          }}
          {...describedBy(reasonId, reasonError)}
        />
      </label>
      <FieldError id={reasonId} message={reasonError} />
      <ApprovalPin needed={approval.needed} permission="order.walkout" value={pin} onChange={setPin} error={pinError} />
      <ErrorNote message={error} />
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onClose}>
          Keep it open
        </button>
        <button type="button" className="danger big" disabled={busy || (approval.needed && pin === '')} onClick={() => void close()}>
          Close unpaid
        </button>
      </div>
    </Dialog>
  );
}
