import type { Ref } from 'react';
import type { Permission } from '../../bridge/staff/roles';
import { approvalLabel } from '../lib/session';
import { describedBy } from './FieldError';

/**
 * The approval PIN's password box under its label ("Manager PIN to approve", or "Owner PIN to
 * approve" when `permission` is the owner's alone), pointing at its error note (`errorId`) when it
 * has one. Shown when the signed-in person may not do the action themselves.
 */
export function ManagerPinField({
  permission,
  label = permission ? approvalLabel(permission) : 'Manager PIN to approve',
  value,
  onChange,
  errorId,
  error,
  autoFocus,
  inputRef,
  disabled,
  className,
}: {
  permission?: Permission;
  label?: string;
  value: string;
  onChange: (value: string) => void;
  errorId: string;
  error: string | null;
  autoFocus?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <label>
      {label}
      <input
        ref={inputRef}
        className={className}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={8}
        autoFocus={autoFocus}
        disabled={disabled}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...describedBy(errorId, error)}
      />
    </label>
  );
}
