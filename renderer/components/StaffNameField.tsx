import { useId, type InputHTMLAttributes } from 'react';
import { FieldError } from './FieldError';
import { describedByAll, TextLimit } from './TextLimit';

/** The most a staff member's name may have (the bridge's staff commands take no more). */
export const STAFF_NAME_MAX = 60;

/**
 * A staff member's name with its refusal under it, and a word when a paste reached the limit: a
 * 10,000-character name is never cut to 60 without saying so.
 */
export function StaffNameField({
  label,
  value,
  onChange,
  error,
  errorId,
  focus = {},
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  errorId: string;
  /** How the field takes the focus when its form opens (autoFocus, or the dialog's data-autofocus). */
  focus?: Pick<InputHTMLAttributes<HTMLInputElement>, 'autoFocus'> & { 'data-autofocus'?: boolean };
}) {
  const limitId = useId();
  return (
    <>
      <label>
        {label}
        <input
          value={value}
          autoComplete="off"
          maxLength={STAFF_NAME_MAX}
          {...focus}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByAll([
            [errorId, error !== null],
            [limitId, value.length >= STAFF_NAME_MAX],
          ])}
        />
      </label>
      <FieldError id={errorId} message={error} />
      <TextLimit id={limitId} value={value} max={STAFF_NAME_MAX} what="A name" />
    </>
  );
}
