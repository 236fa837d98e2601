import type { Order } from '../../bridge/contract';
import { money } from '../lib/format';
import { useBridge } from '../lib/hooks';
import { ApprovedActionDialog } from './ApprovedActionDialog';
import { useReasonField } from './ReasonField';

/** "Take the gratuity off?": a manager's call with a reason; what payments carried of it stays theirs. */
export function GratuityDialog({ order, onClose, onRemoved }: { order: Order; onClose: () => void; onRemoved: () => void }) {
  const client = useBridge();
  const reason = useReasonField('Why does it come off?', 'Say why the gratuity comes off (for example: the party asked to tip themselves).');
  const gratuity = order.gratuity!;
  return (
    <ApprovedActionDialog
      title="Take the gratuity off?"
      message={`${gratuity.name} (${money(gratuity.charged, order.currency)}) comes off this check: the payments still to take carry none of it.${gratuity.collected > 0 ? ` ${money(gratuity.collected, order.currency)} of it already paid stays paid.` : ''}`}
      permission="gratuity.remove"
      ready={reason.ready}
      perform={(approval) => client.call('orders.removeGratuity', { id: order.id, reason: reason.reason, ...approval })}
      keepLabel="Keep it"
      confirmLabel="Take it off"
      onClose={onClose}
      onDone={onRemoved}
    >
      {reason.field}
    </ApprovedActionDialog>
  );
}
