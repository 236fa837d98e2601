import { useId, useRef, useState, type ReactNode } from 'react';
import { BridgeCallError } from '../lib/bridge-client';
import { APPROVAL_PIN_FORM, approvalAskedText, useApproval } from '../lib/session';
import { useApprovalCheck } from './ApprovalPin';
import { FieldError } from './FieldError';
import { ManagerPinField } from './ManagerPinField';

/** A manager's approval of a cashier's refund: the PIN field (when the signed-in person may not refund), what to send, where a refusal goes. */
export interface RefundApproval {
  field: ReactNode;
  payload: { managerPin?: string };
  /** The core refused for want of a manager (or a right PIN): true when that was said next to the PIN field. */
  refused: (caught: unknown) => boolean;
  /**
   * Before anything is asked or sent: true when no approval is needed or a PIN is typed; else the
   * need is said next to the PIN field, which takes the focus, and false.
   */
  ready: () => boolean;
  /**
   * Before asking "Yes, refund …?" (once `ready`): the PIN checked by the core now, so the question
   * is asked only of a refund it would approve; a refusal is said next to the PIN field. The refund
   * itself is checked again. Null when no approval is asked (the signed-in person may refund).
   */
  check: (() => Promise<boolean>) | null;
}

export function useRefundApproval(): RefundApproval {
  const approval = useApproval('refund');
  const checkApproval = useApprovalCheck('refund');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const pinRef = useRef<HTMLInputElement>(null);
  // A refused PIN is cleared: a manager's PIN never stays where someone else could send it again.
  const refuse = (message: string) => {
    setError(message);
    setPin('');
    pinRef.current?.focus();
  };
  return {
    field: approval.needed ? (
      <>
        <ManagerPinField permission="refund" inputRef={pinRef} value={pin} onChange={setPin} errorId={errorId} error={error} />
        <FieldError id={errorId} message={error} />
      </>
    ) : null,
    payload: approval.needed && pin !== '' ? { managerPin: pin } : {},
    refused: (caught) => {
      if (approval.needed && caught instanceof BridgeCallError && caught.code === 'needs_manager') {
        refuse(caught.message);
        return true;
      }
      setError(null);
      return false;
    },
    ready: () => {
      if (!approval.needed) return true;
      if (APPROVAL_PIN_FORM.test(pin)) return true;
      refuse(pin === '' ? approvalAskedText('refund') : 'A PIN is 4 to 8 digits.');
      return false;
    },
    check: approval.needed
      ? async () => {
          const checked = await checkApproval(pin);
          if (checked.approved) {
            setError(null);
            return true;
          }
          refuse(checked.refusal);
          return false;
        }
      : null,
  };
}
