import { useId, useState } from 'react';
import type { Order } from '../../bridge/contract';
import { money } from '../lib/format';
import { useBridge } from '../lib/hooks';
import { balanceDue } from '../lib/order-check';
import { ApprovedActionDialog } from './ApprovedActionDialog';
import { describedBy, FieldError } from './FieldError';

/** What the core takes as a walkout's reason (bridge/contract.ts, orders.fulfil). */
const REASON_MAX = 120;

/**
 * "Close it unpaid?": a walkout is a manager's decision with a reason (the core refuses to complete
 * an order of this till with money due otherwise); the Z report shows it apart from the sales.
 */
export function WalkoutDialog({ order, onClose, onClosed }: { order: Order; onClose: () => void; onClosed: () => void }) {
  const client = useBridge();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const ready = () => {
    if (reason.trim() !== '') return true;
    setReasonError('Say why it is closed unpaid (for example: the guests left without paying).');
    return false;
  };
  return (
    <ApprovedActionDialog
      title="Close it unpaid?"
      message={`${money(balanceDue(order), order.currency)} is still due. Closing it unpaid records a walkout on the day's report, with your reason; the money is not taken.`}
      permission="order.walkout"
      ready={ready}
      perform={(approval) => client.call('orders.fulfil', { id: order.id, walkout: { reason }, ...approval })}
      keepLabel="Keep it open"
      confirmLabel="Close unpaid"
      onClose={onClose}
      onDone={onClosed}
    >
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
    </ApprovedActionDialog>
  );
}
