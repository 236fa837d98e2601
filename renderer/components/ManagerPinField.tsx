import type { Ref } from 'react';
import { describedBy } from './FieldError';

/** The manager PIN's password box under its label, pointing at its error note (`errorId`) when it has one. */
export function ManagerPinField({
  label = 'Manager PIN',
  value,
  onChange,
  errorId,
  error,
  autoFocus,
  inputRef,
}: {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  errorId: string;
  error: string | null;
  autoFocus?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <label>
      {label}
      <input ref={inputRef} type="password" inputMode="numeric" autoComplete="off" autoFocus={autoFocus} value={value} onChange={(event) => onChange(event.target.value)} {...describedBy(errorId, error)} />
    </label>
  );
}
