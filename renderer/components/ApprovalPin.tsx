import { useId } from 'react';
import type { Permission } from '../../bridge/staff/roles';
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
