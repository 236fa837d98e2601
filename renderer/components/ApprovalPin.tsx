import { useCallback, useId, useState, type ReactNode } from 'react';
import type { Permission } from '../../bridge/staff/roles';
import { BridgeCallError } from '../lib/bridge-client';
import { describeError, useBridge } from '../lib/hooks';
import { FieldError } from './FieldError';
import { ManagerPinField } from './ManagerPinField';

/**
 * The approving PIN for `permission` with its refusal right under it, tied together by an id of
 * its own; nothing while the signed-in person may do the action themselves (`needed` false).
 */
export function ApprovalPin({ needed, permission, value, onChange, error }: { needed: boolean; permission: Permission; value: string; onChange: (value: string) => void; error: string | null }) {
  const errorId = useId();
  if (!needed) return null;
  return (
    <>
      <ManagerPinField permission={permission} value={value} onChange={onChange} errorId={errorId} error={error} />
      <FieldError id={errorId} message={error} />
    </>
  );
}

/** A manager's approval asked in a form: its PIN field, what to send with the command, and where a refusal goes. */
export interface ApprovalPinEntry {
  /** The PIN field and its refusal; nothing when no approval is needed. */
  field: ReactNode;
  /** A PIN is needed and none is typed: the action waits for one. */
  missing: boolean;
  /** Spread into the command: the PIN, when one is needed and typed. */
  payload: { managerPin?: string };
  /**
   * The core refused for want of a manager (or a right PIN): true when that was said next to the
   * PIN field, the PIN cleared so that no one can send it again.
   */
  refused: (caught: unknown) => boolean;
  /** Before the command is sent again: the last refusal is no longer shown. */
  clearRefusal: () => void;
}

/**
 * The approval PIN of a form for `permission`, when `needed` (the signed-in person may not do it
 * alone). It starts empty with the form, and a refused PIN is cleared: a manager's PIN never
 * lingers where a cashier could send it again. The form closes once the command is done, taking
 * the PIN with it.
 */
export function useApprovalPin(permission: Permission, needed: boolean): ApprovalPinEntry {
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  return {
    field: <ApprovalPin needed={needed} permission={permission} value={pin} onChange={setPin} error={error} />,
    missing: needed && pin === '',
    payload: needed && pin !== '' ? { managerPin: pin } : {},
    refused: (caught) => {
      if (!(needed && caught instanceof BridgeCallError && caught.code === 'needs_manager')) return false;
      setError(caught.message);
      setPin('');
      return true;
    },
    clearRefusal: () => setError(null),
  };
}

/** What checking an approval PIN said: who approves, or the refusal to show next to the PIN. */
export type ApprovalCheck = { approved: true; by: string } | { approved: false; refusal: string };

/**
 * Checks an approval PIN for `permission` when it is given (staff.checkApproval), for a dialog that
 * would otherwise close on it or ask "Yes, …?" before the command it is for checks it. The command
 * still checks it: this approves nothing by itself.
 */
export function useApprovalCheck(permission: Permission): (managerPin: string) => Promise<ApprovalCheck> {
  const client = useBridge();
  return useCallback(
    async (managerPin: string) => {
      try {
        const { approvedBy } = await client.call('staff.checkApproval', { permission, managerPin });
        return { approved: true, by: approvedBy.name };
      } catch (caught) {
        return { approved: false, refusal: describeError(caught) };
      }
    },
    [client, permission],
  );
}
