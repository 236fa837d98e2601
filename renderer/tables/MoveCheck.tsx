import { useId, useState } from 'react';
import type { TableCheck, TableView } from '../../bridge/tables/contract';
import { describedBy, FieldError } from '../components/FieldError';
import { describeError, useBridge } from '../lib/hooks';
import { STATE_NAMES } from './floor-text';

/**
 * Moves a check to another table: its service names the new table (the guests stay), as any change
 * of an order, so it is audited and reaches the cloud like one. Free tables are offered first.
 */
export function MoveCheck({ check, from, tables, onMoved, onCancel }: { check: TableCheck; from: TableView; tables: readonly TableView[]; onMoved: (to: string) => void; onCancel: () => void }) {
  const client = useBridge();
  const id = useId();
  const choices = tables.filter((t) => t.id !== from.id).sort((a, b) => Number(a.state !== 'free') - Number(b.state !== 'free'));
  const [to, setTo] = useState(choices[0]?.id ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const move = async () => {
    const target = choices.find((t) => t.id === to);
    if (!target) {
      setError('Choose the table it goes to.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await client.call('orders.update', { id: check.orderId, service: { type: 'dine_in', table: target.name, guests: check.guests } });
      onMoved(target.name);
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
    }
  };
  return (
    <form
      className="move-check"
      onSubmit={(event) => {
        event.preventDefault();
        void move();
      }}
    >
      <label>
        Move {check.label} to table
        <select value={to} data-autofocus onChange={(event) => setTo(event.target.value)} {...describedBy(`${id}-error`, error)}>
          {choices.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} · {STATE_NAMES[t.state]}
            </option>
          ))}
        </select>
      </label>
      <FieldError id={`${id}-error`} message={error} />
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onCancel}>
          Keep it here
        </button>
        <button type="submit" className="primary big" disabled={busy || choices.length === 0}>
          Move
        </button>
      </div>
    </form>
  );
}
