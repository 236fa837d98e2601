import { useState, type ReactNode } from 'react';
import type { Permission } from '../../bridge/staff/roles';
import { describeError } from '../lib/hooks';
import { useApproval } from '../lib/session';
import { useApprovalPin } from './ApprovalPin';
import { Dialog, ErrorNote } from './Dialog';

/**
 * "Cancel this order?", "Close it unpaid?", "Delete …?": an action guarded by `permission`, asked
 * in a dialog that says first what it does (`message`), then takes what the action needs
 * (`children`, checked by `ready` before anything is sent) and a manager's PIN when the signed-in
 * person may not do it alone. A refused approval is said next to the PIN, any other refusal under
 * everything, and the dialog stays; `onDone` once the core has done it.
 */
export function ApprovedActionDialog({
  title,
  message,
  permission,
  children,
  ready = () => true,
  perform,
  keepLabel,
  confirmLabel,
  onClose,
  onDone,
}: {
  title: string;
  message: string;
  permission: Permission;
  children?: ReactNode;
  /** True when the fields are filled in; else each says what it lacks, and nothing is sent. */
  ready?: () => boolean;
  /** The command, with the approval to spread into it. */
  perform: (approval: { managerPin?: string }) => Promise<unknown>;
  keepLabel: string;
  confirmLabel: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const approval = useApprovalPin(permission, useApproval(permission).needed);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!ready()) return;
    setBusy(true);
    setError(null);
    approval.clearRefusal();
    try {
      await perform(approval.payload);
      onDone();
    } catch (caught) {
      if (!approval.refused(caught)) setError(describeError(caught));
      setBusy(false);
    }
  };
  return (
    <Dialog title={title} onClose={onClose}>
      <p className="dialog-message">{message}</p>
      {children}
      {approval.field}
      <ErrorNote message={error} />
      <div className="dialog-actions">
        {/* Keeping things as they are is where the focus starts, unless a field above asks for it first. */}
        <button type="button" className="secondary big" onClick={onClose} data-autofocus>
          {keepLabel}
        </button>
        <button type="button" className="danger big" disabled={busy || approval.missing} onClick={() => void confirm()}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
