import { useId, useRef, useState, type ReactNode } from 'react';
import { FieldError } from './FieldError';
import { describedByAll, TextLimit } from './TextLimit';

/** How many characters "Other" takes in words (as a discount's reason: bridge/contract.ts, Discount). */
export const OTHER_WORDS_MAX = 100;

export interface ReasonChoice<R extends string> {
  /** The picker, and the words "Other" asks for, each refusal under its field. */
  field: ReactNode;
  reason: R | null;
  /** What was typed for "Other" (trimmed). */
  words: string;
  /** Before anything is asked or sent: true when a reason is picked (with words for "Other"); else said under the field, focused. */
  ready: () => boolean;
}

/**
 * A reason picked from `options` (`initial` null: none until someone picks one), where `other`
 * needs a few words of its own. `what` names it in the refusals ("a refund", "a void").
 */
export function useReasonChoice<R extends string>({ options, initial, other, what }: { options: Record<R, string>; initial: R | null; other: R; what: string }): ReasonChoice<R> {
  const [reason, setReason] = useState<R | null>(initial);
  const [words, setWords] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [wordsError, setWordsError] = useState<string | null>(null);
  const ids = { reason: useId(), words: useId(), limit: useId() };
  const selectRef = useRef<HTMLSelectElement>(null);
  const wordsRef = useRef<HTMLInputElement>(null);
  const field = (
    <>
      <label>
        Reason
        <select
          ref={selectRef}
          value={reason ?? ''}
          onChange={(event) => {
            setReason(event.target.value === '' ? null : (event.target.value as R));
            setReasonError(null);
            setWordsError(null);
          }}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? ids.reason : undefined}
        >
          {reason === null ? <option value="">Choose a reason</option> : null}
          {(Object.entries(options) as [R, string][]).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <FieldError id={ids.reason} message={reasonError} />
      {reason === other ? (
        <>
          <label>
            What happened
            <input
              ref={wordsRef}
              value={words}
              maxLength={OTHER_WORDS_MAX}
              autoComplete="off"
              onChange={(event) => {
                setWords(event.target.value);
                setWordsError(null);
              }}
              aria-invalid={wordsError ? true : undefined}
              aria-describedby={describedByAll([
                [ids.words, wordsError !== null],
                [ids.limit, words.length >= OTHER_WORDS_MAX],
              ])}
            />
          </label>
          <FieldError id={ids.words} message={wordsError} />
          <TextLimit id={ids.limit} value={words} max={OTHER_WORDS_MAX} what="The reason" />
        </>
      ) : null}
    </>
  );
  return {
    field,
    reason,
    words: words.trim(),
    ready: () => {
      if (reason === null) {
        setReasonError(`Choose the reason for ${what}.`);
        selectRef.current?.focus();
        return false;
      }
      if (reason === other && words.trim() === '') {
        setWordsError(`“${options[other]}” needs a few words: say what happened.`);
        wordsRef.current?.focus();
        return false;
      }
      return true;
    },
  };
}
