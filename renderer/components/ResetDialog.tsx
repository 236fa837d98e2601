import { useEffect, useState } from 'react';
import { lossAtStake, type PendingLoss } from '../../bridge/contract';
import { BridgeCallError } from '../lib/bridge-client';
import { describeError, useBridge } from '../lib/hooks';
import { useApproval } from '../lib/session';
import { ApprovalPin } from './ApprovalPin';
import { Dialog, ErrorNote } from './Dialog';

/**
 * "Reset this terminal": says first, in numbers, what exists only here and would be destroyed,
 * asks for the owner's PIN when someone else is signed in, and sends the reset with the loss
 * confirmed only after it has been read.
 */
export function ResetDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const client = useBridge();
  const approval = useApproval('terminal.reset');
  const [loss, setLoss] = useState<PendingLoss | null>(null);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  useEffect(() => {
    let live = true;
    client.call('session.pending', {}).then(
      (value) => live && setLoss(value),
      (caught: unknown) => live && setError(describeError(caught)),
    );
    return () => {
      live = false;
    };
  }, [client]);

  const losesWork = loss !== null && lossAtStake(loss);
  const changes = loss === null ? 0 : loss.pending + loss.deadLetters;
  const reset = async () => {
    setWorking(true);
    setError(null);
    setPinError(null);
    try {
      await client.call('terminal.reset', { confirmPendingLoss: losesWork, ...(approval.needed && pin ? { managerPin: pin } : {}) });
      onDone();
    } catch (caught) {
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager' && approval.needed) setPinError(caught.message);
      else setError(describeError(caught));
      setWorking(false);
    }
  };

  return (
    <Dialog title="Reset this terminal?" onClose={onClose}>
      <p className="dialog-message">
        Everything kept on this terminal is deleted: orders, payments, the menu, settings made here and the saved API key or OAuth sign-in. The cloud keeps what
        already reached it.
      </p>
      {loss === null ? (
        <p className="muted">Checking what has not reached the cloud…</p>
      ) : losesWork ? (
        <p className="dialog-message loss" role="alert" data-testid="reset-loss">
          {loss.message} A reset deletes {changes + loss.repricedOrders === 1 ? 'it' : 'them'} for good.
        </p>
      ) : (
        <p className="dialog-message" data-testid="reset-loss">
          Every change has reached the cloud: nothing is lost.
        </p>
      )}
      <ApprovalPin needed={approval.needed} permission="terminal.reset" value={pin} onChange={setPin} error={pinError} />
      <ErrorNote message={error} />
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onClose} data-autofocus>
          Keep everything
        </button>
        <button type="button" className="danger big" onClick={() => void reset()} disabled={loss === null || working || (approval.needed && pin === '')} data-testid="confirm-reset">
          {!losesWork ? 'Reset this terminal' : changes > 0 ? `Reset and lose ${changes} ${changes === 1 ? 'change' : 'changes'}` : 'Reset anyway'}
        </button>
      </div>
    </Dialog>
  );
}
