import { useId, useState, type ReactNode } from 'react';
import { BridgeCallError } from '../lib/bridge-client';
import { useApproval } from '../lib/session';
import { FieldError } from './FieldError';
import { ManagerPinField } from './ManagerPinField';

/** A manager's approval of a cashier's refund: the PIN field (when the signed-in person may not refund), what to send, where a refusal goes. */
export interface RefundApproval {
  field: ReactNode;
  payload: { managerPin?: string };
  /** The core refused for want of a manager (or a right PIN): true when that was said next to the PIN field. */
  refused: (caught: unknown) => boolean;
}

export function useRefundApproval(): RefundApproval {
  const approval = useApproval('refund');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  return {
    field: approval.needed ? (
      <>
        <ManagerPinField permission="refund" value={pin} onChange={setPin} errorId={errorId} error={error} />
        <FieldError id={errorId} message={error} />
      </>
    ) : null,
    payload: approval.needed && pin !== '' ? { managerPin: pin } : {},
    refused: (caught) => {
      if (approval.needed && caught instanceof BridgeCallError && caught.code === 'needs_manager') {
        setError(caught.message);
        return true;
      }
      setError(null);
      return false;
    },
  };
}
