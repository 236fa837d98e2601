import { useCallback, useId } from 'react';
import type { Permission } from '../../bridge/staff/roles';
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
