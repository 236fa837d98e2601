import { useId, useState } from 'react';
import type { Order } from '../../bridge/contract';
import { money } from '../lib/format';
import { useBridge } from '../lib/hooks';
import { ApprovedActionDialog } from './ApprovedActionDialog';
import { describedBy, FieldError } from './FieldError';

/** What the core takes as the reason (bridge/contract.ts, orders.removeGratuity). */
const REASON_MAX = 120;

/** "Take the gratuity off?": a manager's call with a reason; what payments carried of it stays theirs. */
export function GratuityDialog({ order, onClose, onRemoved }: { order: Order; onClose: () => void; onRemoved: () => void }) {
  const client = useBridge();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const gratuity = order.gratuity!;
  const ready = () => {
    if (reason.trim() !== '') return true;
    setReasonError('Say why the gratuity comes off (for example: the party asked to tip themselves).');
    return false;
  };
  return (
    <ApprovedActionDialog
      title="Take the gratuity off?"
      message={`${gratuity.name} (${money(gratuity.charged, order.currency)}) comes off this check: the payments still to take carry none of it.${gratuity.collected > 0 ? ` ${money(gratuity.collected, order.currency)} of it already paid stays paid.` : ''}`}
      permission="gratuity.remove"
      ready={ready}
      perform={(approval) => client.call('orders.removeGratuity', { id: order.id, reason, ...approval })}
      keepLabel="Keep it"
      confirmLabel="Take it off"
      onClose={onClose}
      onDone={onRemoved}
    >
      <label>
        Why does it come off?
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
