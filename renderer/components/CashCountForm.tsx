import { useId, useRef, type KeyboardEvent } from 'react';
import { countTotal, denominationsOf, type CashCount } from '../../bridge/staff/cash';
import { money } from '../lib/format';
import { describedBy, FieldError } from './FieldError';
import '../shift.css';

/** What was typed for each note and coin, by its value in minor units ("" when nothing was typed). */
export type CountTexts = Readonly<Record<number, string>>;

/** The most of one note or coin a count takes (the contract's limit). */
const MAX_PIECES = 100_000;

/**
 * How many of one note or coin, read whole: an empty field is none; anything but digits
 * ("-2", "2.5", "two", "3x") is refused with the sentence to show, never rounded or trimmed into a number.
 */
export function readPieces(text: string): { count: number; error: null } | { count: null; error: string } {
  const typed = text.trim();
  if (typed === '') return { count: 0, error: null };
  if (/^-\s*\d/.test(typed)) return { count: null, error: 'A count cannot be negative.' };
  if (/^\d+[.,]\d*$/.test(typed)) return { count: null, error: 'Count whole notes and coins: type a whole number, e.g. 3.' };
  if (!/^\d+$/.test(typed)) return { count: null, error: 'Type the number of notes or coins with digits only, e.g. 3.' };
  const count = Number(typed);
  if (count > MAX_PIECES) return { count: null, error: `At most ${MAX_PIECES.toLocaleString('en-US')} of one note or coin.` };
  return { count, error: null };
}

export interface CountReading {
  /** The lines counted (notes and coins with at least one), or null while a field is refused. */
  count: CashCount | null;
  /** What the fields read so far come to (refused fields count as none). */
  total: number;
  /** The refusal of each field that has one, by value. */
  errors: Readonly<Record<number, string>>;
}

export function readCount(texts: CountTexts, currency: string): CountReading {
  const lines: CashCount = [];
  const errors: Record<number, string> = {};
  for (const value of denominationsOf(currency)) {
    const read = readPieces(texts[value] ?? '');
    if (read.error !== null) errors[value] = read.error;
    else if (read.count > 0) lines.push({ value, count: read.count });
  }
  return { count: Object.keys(errors).length === 0 ? lines : null, total: countTotal(lines), errors };
}

/** A count's texts from a count (to count again from what was entered). */
export function textsOf(count: CashCount): CountTexts {
  return Object.fromEntries(count.map((line) => [line.value, String(line.count)]));
}

/** The first refused field of a count inside `root` takes the focus, its text selected. */
export function focusFirstRefused(root: ParentNode | null): void {
  const field = root?.querySelector<HTMLInputElement>('.cash-count input[aria-invalid="true"]');
  field?.focus();
  field?.select();
}

/**
 * A drawer counted by note and coin: one row per denomination of the currency with how many, what
 * they come to, and the running total. Tab or Enter goes to the next row (the − and + buttons are
 * for touch and stay out of the Tab order); Enter on the last row calls `onDone`. A field that is
 * not a whole number of pieces says so under itself and counts as nothing until it is fixed.
 */
export function CashCountForm({
  currency,
  texts,
  onChange,
  legend,
  hint,
  onDone,
  disabled,
}: {
  currency: string;
  texts: CountTexts;
  onChange: (texts: CountTexts) => void;
  legend: string;
  hint?: string;
  /** Enter on the last row: the next step (the note, the submit button). */
  onDone?: () => void;
  disabled?: boolean;
}) {
  const baseId = useId();
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const denominations = denominationsOf(currency);
  const reading = readCount(texts, currency);
  const refused = Object.keys(reading.errors).length;

  const set = (value: number, text: string) => onChange({ ...texts, [value]: text });
  const step = (value: number, by: number) => {
    const read = readPieces(texts[value] ?? '');
    // A refused field is not guessed at: the buttons wait until it is a number again.
    if (read.error !== null) return;
    const next = Math.min(MAX_PIECES, Math.max(0, read.count + by));
    set(value, next === 0 ? '' : String(next));
  };
  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // Enter moves on, like Tab: a count is never sent by a stray Enter in the middle of it.
    event.preventDefault();
    const next = inputs.current[index + 1];
    if (next) {
      next.focus();
      next.select();
    } else onDone?.();
  };

  return (
    <fieldset className="cash-count" disabled={disabled}>
      <legend>{legend}</legend>
      {hint ? <p className="muted cash-count-hint">{hint}</p> : null}
      <table className="table cash-count-table">
        <thead>
          <tr>
            <th scope="col">Note or coin</th>
            <th scope="col">How many</th>
            <th scope="col" className="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {denominations.map((value, index) => {
            const label = money(value, currency);
            const text = texts[value] ?? '';
            const error = reading.errors[value] ?? null;
            const read = readPieces(text);
            const errorId = `${baseId}-${value}-error`;
            return (
              <tr key={value} data-denomination={value} className={error ? 'refused' : undefined}>
                <th scope="row" className="denomination">
                  {label}
                </th>
                <td>
                  <div className="count-cell">
                    <button type="button" className="qty-btn" tabIndex={-1} aria-label={`One less ${label}`} disabled={read.error !== null || read.count === 0} onClick={() => step(value, -1)}>
                      −
                    </button>
                    <input
                      ref={(element) => {
                        inputs.current[index] = element;
                      }}
                      className="count-input"
                      inputMode="numeric"
                      autoComplete="off"
                      enterKeyHint={index === denominations.length - 1 ? 'done' : 'next'}
                      aria-label={`Count of ${label}`}
                      placeholder="0"
                      value={text}
                      onChange={(event) => set(value, event.target.value)}
                      onFocus={(event) => event.target.select()}
                      onKeyDown={onKeyDown(index)}
                      {...describedBy(errorId, error)}
                    />
                    <button type="button" className="qty-btn" tabIndex={-1} aria-label={`One more ${label}`} disabled={read.error !== null} onClick={() => step(value, 1)}>
                      +
                    </button>
                  </div>
                  <FieldError id={errorId} message={error} />
                </td>
                <td className="num subtotal" data-testid="count-subtotal">
                  {read.error === null ? money(value * read.count, currency) : '—'}
                </td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr className="count-total">
            <th scope="row" colSpan={2}>
              Total counted
            </th>
            <td className="num" data-testid="count-total" aria-live="polite">
              {money(reading.total, currency)}
            </td>
          </tr>
        </tfoot>
      </table>
      {refused > 0 ? (
        <p className="warning-note cash-count-refused" data-testid="count-refused">
          {refused === 1 ? 'One row is not a whole number of notes or coins' : `${refused} rows are not whole numbers of notes or coins`}: fix {refused === 1 ? 'it' : 'them'} (the total leaves {refused === 1 ? 'it' : 'them'} out until then).
        </p>
      ) : null}
    </fieldset>
  );
}
