import { useState } from 'react';
import type { TableCheck, TableView } from '../../bridge/tables/contract';
import { useApprovalPin } from '../components/ApprovalPin';
import { describeError, useBridge } from '../lib/hooks';
import { useApproval, useSession } from '../lib/session';
import { PickForm } from './PickForm';

/**
 * Merges a check into another open check, at this table or another (orders.merge): its lines join
 * that check, its guests too, and it closes as merged. Checks of this table are offered first.
 * Someone else's check (either one) needs a manager's PIN when the signed-in person may not take
 * orders over, as for any change of it.
 */
export function MergeCheck({ check, from, tables, onMerged, onCancel }: { check: TableCheck; from: TableView; tables: readonly TableView[]; onMerged: (into: string) => void; onCancel: () => void }) {
  const client = useBridge();
  const { session } = useSession();
  const approval = useApproval('order.adopt');
  const choices = [from, ...tables.filter((t) => t.id !== from.id)].flatMap((table) =>
    table.checks.filter((c) => c.orderId !== check.orderId).map((c) => ({ check: c, table: table.name })),
  );
  const [to, setTo] = useState(choices[0]?.check.orderId ?? '');
  const chosen = choices.find((c) => c.check.orderId === to);
  const someoneElses = (c: TableCheck | undefined) => c !== undefined && c.server !== null && c.server.id !== session?.signedIn?.id;
  const pin = useApprovalPin('order.adopt', approval.needed && (someoneElses(check) || someoneElses(chosen?.check)));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const merge = async () => {
    if (!chosen) {
      setError('Choose the check it joins.');
      return;
    }
    setBusy(true);
    setError(null);
    pin.clearRefusal();
    try {
      await client.call('orders.merge', { into: chosen.check.orderId, from: check.orderId, ...pin.payload });
      onMerged(chosen.check.label);
    } catch (caught) {
      if (!pin.refused(caught)) setError(describeError(caught));
      setBusy(false);
    }
  };
  return (
    <PickForm
      label={`Merge ${check.label} into`}
      options={choices.map(({ check: c, table }) => ({ value: c.orderId, label: `${c.label} · table ${table}${c.server ? ` · ${c.server.name}` : ''}` }))}
      value={chosen?.check.orderId ?? ''}
      onChange={setTo}
      error={error ?? (choices.length === 0 ? 'No other check is open to merge it into.' : null)}
      extra={pin.field}
      keepLabel="Keep it apart"
      goLabel="Merge"
      canGo={!busy && chosen !== undefined && !pin.missing}
      onKeep={onCancel}
      onGo={() => void merge()}
    />
  );
}
