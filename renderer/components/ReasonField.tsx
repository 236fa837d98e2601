import { useId, useState, type ReactNode } from 'react';
import { describedBy, FieldError } from './FieldError';

/** What the core takes as a reason in words (walkouts, a gratuity taken off). */
const REASON_MAX = 120;

/**
 * A reason a manager's action needs, typed in words: `ready()` says whether one was given (and if
 * not, says `missing` next to the field); `field` is the field to show.
 */
export function useReasonField(label: string, missing: string): { reason: string; ready: () => boolean; field: ReactNode } {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ready = () => {
    if (reason.trim() !== '') return true;
    setError(missing);
    return false;
  };
  const field = (
    <>
      <label>
        {label}
        <input
          value={reason}
          maxLength={REASON_MAX}
          data-autofocus
          onChange={(event) => {
            setReason(event.target.value);
            setError(null);
          }}
          {...describedBy(id, error)}
        />
      </label>
      <FieldError id={id} message={error} />
    </>
  );
  return { reason, ready, field };
}
