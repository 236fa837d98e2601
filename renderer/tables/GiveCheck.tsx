import { useState } from 'react';
import type { TableCheck } from '../../bridge/tables/contract';
import { ApprovalPin } from '../components/ApprovalPin';
import { BridgeCallError } from '../lib/bridge-client';
import { describeError, useBridge, useQuery } from '../lib/hooks';
import { useApproval, useSession } from '../lib/session';
import { PickForm } from './PickForm';

/**
 * Gives a check to another server (orders.transfer): one's own at once; someone else's with a
 * manager's PIN when the signed-in person may not take orders over.
 */
export function GiveCheck({ check, onGiven, onCancel }: { check: TableCheck; onGiven: (to: string) => void; onCancel: () => void }) {
  const client = useBridge();
  const { session } = useSession();
  const approval = useApproval('order.adopt');
  const needsPin = approval.needed && check.server !== null && check.server.id !== session?.signedIn?.id;
  const { data: roster, error: rosterError } = useQuery('staff.roster', {});
  const choices = (roster ?? []).filter((m) => m.id !== check.server?.id);
  const [to, setTo] = useState('');
  const chosen = choices.find((m) => m.id === to) ?? choices[0];
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const give = async () => {
    if (!chosen) {
      setError('Choose whom it goes to.');
      return;
    }
    setBusy(true);
    setError(null);
    setPinError(null);
    try {
      await client.call('orders.transfer', { id: check.orderId, toStaffId: chosen.id, ...(needsPin && pin !== '' ? { managerPin: pin } : {}) });
      onGiven(chosen.name);
    } catch (caught) {
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager') setPinError(caught.message);
      else setError(describeError(caught));
      setBusy(false);
    }
  };
  return (
    <PickForm
      label={`Give ${check.label} to`}
      options={choices.map((m) => ({ value: m.id, label: m.name }))}
      value={chosen?.id ?? ''}
      onChange={setTo}
      error={error ?? rosterError}
      extra={<ApprovalPin needed={needsPin} permission="order.adopt" value={pin} onChange={setPin} error={pinError} />}
      keepLabel="Keep it"
      goLabel="Give it"
      canGo={!busy && chosen !== undefined && !(needsPin && pin === '')}
      onKeep={onCancel}
      onGo={() => void give()}
    />
  );
}
