import { useState } from 'react';
import type { TableCheck, TableView } from '../../bridge/tables/contract';
import { describeError, useBridge } from '../lib/hooks';
import { STATE_NAMES } from './floor-text';
import { PickForm } from './PickForm';

/**
 * Moves a check to another table: its service names the new table (the guests stay), as any change
 * of an order, so it is audited and reaches the cloud like one. Free tables are offered first.
 */
export function MoveCheck({ check, from, tables, onMoved, onCancel }: { check: TableCheck; from: TableView; tables: readonly TableView[]; onMoved: (to: string) => void; onCancel: () => void }) {
  const client = useBridge();
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
    <PickForm
      label={`Move ${check.label} to table`}
      options={choices.map((t) => ({ value: t.id, label: `${t.name} · ${STATE_NAMES[t.state]}` }))}
      value={to}
      onChange={setTo}
      error={error}
      keepLabel="Keep it here"
      goLabel="Move"
      canGo={!busy && choices.length > 0}
      onKeep={onCancel}
      onGo={() => void move()}
    />
  );
}
