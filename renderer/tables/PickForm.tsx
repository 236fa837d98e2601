import { useId, type ReactNode } from 'react';
import { describedBy, FieldError } from '../components/FieldError';

/**
 * What a check is moved or given to: one choice from a list, its refusal under it, then "keep" or
 * "go" (the sheet of a table: Move…, Give…). `extra` goes between the choice and the buttons.
 */
export function PickForm({
  label,
  options,
  value,
  onChange,
  error,
  extra,
  keepLabel,
  goLabel,
  canGo,
  onKeep,
  onGo,
}: {
  label: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  extra?: ReactNode;
  keepLabel: string;
  goLabel: string;
  canGo: boolean;
  onKeep: () => void;
  onGo: () => void;
}) {
  const errorId = useId();
  return (
    <form
      className="move-check"
      onSubmit={(event) => {
        event.preventDefault();
        onGo();
      }}
    >
      <label>
        {label}
        <select value={value} data-autofocus onChange={(event) => onChange(event.target.value)} {...describedBy(errorId, error)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <FieldError id={errorId} message={error} />
      {extra}
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onKeep}>
          {keepLabel}
        </button>
        <button type="submit" className="primary big" disabled={!canGo}>
          {goLabel}
        </button>
      </div>
    </form>
  );
}
