import { useId, useState } from 'react';
import type { Order } from '../../bridge/contract';
import { money } from '../lib/format';
import { useBridge, useQuery } from '../lib/hooks';
import { ApprovedActionDialog } from './ApprovedActionDialog';
import { describedBy, FieldError } from './FieldError';
import { useReasonField } from './ReasonField';

/**
 * "Reopen this check?": a manager's call with a reason (orders.reopen). The check stays the sale it
 * was; what comes off is refunded by item on it, what is added goes on a linked check.
 */
export function ReopenDialog({ order, onClose, onReopened }: { order: Order; onClose: () => void; onReopened: () => void }) {
  const client = useBridge();
  const reason = useReasonField('Why is it reopened?', 'Say why the check is reopened (for example: the dessert was not rung up).');
  return (
    <ApprovedActionDialog
      title={`Reopen check ${order.label}?`}
      message={`It stays the sale it was (${money(order.total, order.currency)}). Take an item off with a refund by item on it; what is added goes on a new check at its table, paid as usual.`}
      permission="orders.reopen"
      ready={reason.ready}
      perform={(approval) => client.call('orders.reopen', { id: order.id, reason: reason.reason, ...approval })}
      keepLabel="Keep it closed"
      confirmLabel="Reopen"
      onClose={onClose}
      onDone={onReopened}
    >
      {reason.field}
    </ApprovedActionDialog>
  );
}

/**
 * What is added to a reopened check: items and how many, put on the linked check that opens with
 * them at the check's table (orders.reopen with its lines), then paid as any check.
 */
export function AddToReopenedDialog({ order, onClose, onAdded }: { order: Order; onClose: () => void; onAdded: () => void }) {
  const client = useBridge();
  const { data: menu } = useQuery('menu.snapshot', {});
  // Items that need a choice (a size) are rung up on the register, where the choice is asked.
  const items = (menu?.items ?? []).filter((item) => item.available && item.modifierGroups.every((g) => g.min === 0));
  const [itemId, setItemId] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [lines, setLines] = useState<{ menuItemId: string; name: string; quantity: number }[]>([]);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const chosen = items.find((item) => item.id === itemId) ?? items[0];
  const add = () => {
    const count = Number(quantity);
    if (!chosen || !Number.isInteger(count) || count < 1 || count > 999) {
      setError('Choose an item and a whole number from 1 to 999.');
      return;
    }
    setError(null);
    setLines([...lines, { menuItemId: chosen.id, name: chosen.name, quantity: count }]);
  };
  return (
    <ApprovedActionDialog
      title={`Add to check ${order.label}`}
      message="What is added goes on a new check at its table, linked to this one, and is paid as usual."
      permission="orders.reopen"
      ready={() => {
        if (lines.length > 0) return true;
        setError('Add at least one item.');
        return false;
      }}
      perform={(approval) => client.call('orders.reopen', { id: order.id, reason: order.reopened?.reason ?? 'Added to a reopened check', lines: lines.map(({ menuItemId, quantity: q }) => ({ menuItemId, quantity: q })), ...approval })}
      keepLabel="Add nothing"
      confirmLabel="Open the check"
      onClose={onClose}
      onDone={onAdded}
    >
      <div className="reopen-add">
        <label>
          Item
          <select value={chosen?.id ?? ''} data-autofocus onChange={(event) => setItemId(event.target.value)} {...describedBy(errorId, error)}>
            {items.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name} · {money(item.price, menu?.currency ?? order.currency)}
              </option>
            ))}
          </select>
        </label>
        <label>
          How many
          <input type="number" min={1} max={999} value={quantity} onChange={(event) => setQuantity(event.target.value)} {...describedBy(errorId, error)} />
        </label>
        <button type="button" className="secondary" onClick={add}>
          Add
        </button>
      </div>
      <FieldError id={errorId} message={error} />
      {lines.length > 0 ? (
        <ul className="reopen-lines" aria-label="To add">
          {lines.map((line, index) => (
            <li key={index}>
              {line.quantity} × {line.name}
            </li>
          ))}
        </ul>
      ) : null}
    </ApprovedActionDialog>
  );
}
