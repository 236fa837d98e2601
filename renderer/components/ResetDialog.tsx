import { useEffect, useState } from 'react';
import { lossAtStake, type PendingLoss } from '../../bridge/contract';
import { describeError, useBridge } from '../lib/hooks';
import { Dialog, ErrorNote } from './Dialog';

/**
 * "Reset this terminal": says first, in numbers, what exists only here and would be destroyed,
 * asks for the manager PIN when one is set, and sends the reset with the loss confirmed only
 * after the manager has read it.
 */
export function ResetDialog({ managerPinSet, onClose, onDone }: { managerPinSet: boolean; onClose: () => void; onDone: () => void }) {
  const client = useBridge();
  const [loss, setLoss] = useState<PendingLoss | null>(null);
  const [pin, setPin] = useState('');
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
    try {
      await client.call('terminal.reset', { confirmPendingLoss: losesWork, ...(pin ? { managerPin: pin } : {}) });
      onDone();
    } catch (caught) {
      setError(describeError(caught));
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
      {managerPinSet ? (
        <label>
          Manager PIN
          <input type="password" inputMode="numeric" autoComplete="off" value={pin} onChange={(event) => setPin(event.target.value)} />
        </label>
      ) : null}
      <ErrorNote message={error} />
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onClose} data-autofocus>
          Keep everything
        </button>
        <button type="button" className="danger big" onClick={() => void reset()} disabled={loss === null || working || (managerPinSet && pin === '')} data-testid="confirm-reset">
          {!losesWork ? 'Reset this terminal' : changes > 0 ? `Reset and lose ${changes} ${changes === 1 ? 'change' : 'changes'}` : 'Reset anyway'}
        </button>
      </div>
    </Dialog>
  );
}
