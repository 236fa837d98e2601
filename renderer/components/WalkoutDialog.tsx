import type { Order } from '../../bridge/contract';
import { money } from '../lib/format';
import { useBridge } from '../lib/hooks';
import { balanceDue } from '../lib/order-check';
import { ApprovedActionDialog } from './ApprovedActionDialog';
import { useReasonField } from './ReasonField';

/**
 * "Close it unpaid?": a walkout is a manager's decision with a reason (the core refuses to complete
 * an order of this till with money due otherwise); the Z report shows it apart from the sales.
 */
export function WalkoutDialog({ order, onClose, onClosed }: { order: Order; onClose: () => void; onClosed: () => void }) {
  const client = useBridge();
  const reason = useReasonField('Why is it closed unpaid?', 'Say why it is closed unpaid (for example: the guests left without paying).');
  return (
    <ApprovedActionDialog
      title="Close it unpaid?"
      message={`${money(balanceDue(order), order.currency)} is still due. Closing it unpaid records a walkout on the day's report, with your reason; the money is not taken.`}
      permission="order.walkout"
      ready={reason.ready}
      perform={(approval) => client.call('orders.fulfil', { id: order.id, walkout: { reason: reason.reason }, ...approval })}
      keepLabel="Keep it open"
      confirmLabel="Close unpaid"
      onClose={onClose}
      onDone={onClosed}
    >
      {reason.field}
    </ApprovedActionDialog>
  );
}
