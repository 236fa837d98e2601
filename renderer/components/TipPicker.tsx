import { useId } from 'react';
import { describePercent, tipFor } from '../../bridge/checkout';
import { money } from '../lib/format';
import type { TipChoice } from '../lib/payment';
import { describedBy, FieldError } from './FieldError';

/**
 * The tip, chosen before the charge: the suggested percentages of what this payment puts toward
 * the bill (each with its amount), no tip, or an amount typed.
 */
export function TipPicker({
  base,
  beforeTax,
  percents,
  currency,
  choice,
  error,
  onChange,
}: {
  /** What the percentages are of. */
  base: number;
  /** The base is the amount before tax (the checkout's tip basis): said in the legend. */
  beforeTax: boolean;
  percents: readonly number[];
  currency: string;
  choice: TipChoice;
  /** Why the custom amount cannot be taken, shown next to it. */
  error: string | null;
  onChange: (choice: TipChoice) => void;
}) {
  const errorId = useId();
  const option = (key: string, label: string, checked: boolean, pick: () => void) => (
    <label key={key} className={checked ? 'segment selected' : 'segment'}>
      <input type="radio" name="tip" checked={checked} onChange={pick} />
      {label}
    </label>
  );
  return (
    <fieldset className="tips">
      <legend>{beforeTax ? `Tip (suggested on ${money(base, currency)} before tax)` : 'Tip'}</legend>
      <div className="tip-options">
        {option('none', 'No tip', choice.kind === 'none', () => onChange({ kind: 'none' }))}
        {percents.map((bps) =>
          option(`p${bps}`, `${describePercent(bps)} · ${money(tipFor(base, bps), currency)}`, choice.kind === 'percent' && choice.bps === bps, () => onChange({ kind: 'percent', bps })),
        )}
        {option('custom', 'Other amount', choice.kind === 'custom', () => onChange({ kind: 'custom', text: '' }))}
      </div>
      {choice.kind === 'custom' ? (
        <>
          <label>
            Tip amount
            <input inputMode="decimal" autoComplete="off" value={choice.text} onChange={(event) => onChange({ kind: 'custom', text: event.target.value })} autoFocus {...describedBy(errorId, error)} />
          </label>
          <FieldError id={errorId} message={error} />
        </>
      ) : null}
    </fieldset>
  );
}
