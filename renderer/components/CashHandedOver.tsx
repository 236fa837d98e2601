import { useId } from 'react';
import { minorDigits } from '../../bridge/money';
import { money, parseAmount, toAmountText } from '../lib/format';
import { cashSuggestions } from '../lib/payment';
import { describedBy, FieldError } from './FieldError';

/**
 * The cash a guest hands over for `charge`: typed, or one of the round notes above it, with the change
 * it leaves. A suggestion always covers the charge, so picking one clears the field's refusal (`onPicked`).
 */
export function CashHandedOver({
  charge,
  currency,
  text,
  error,
  onText,
  onPicked,
}: {
  charge: number;
  currency: string;
  text: string;
  error: string | null;
  onText: (text: string) => void;
  onPicked: () => void;
}) {
  const errorId = useId();
  const digits = minorDigits(currency);
  const tendered = parseAmount(text, digits);
  const change = tendered === null ? null : tendered - charge;
  return (
    <div className="cash">
      <label>
        Cash handed over
        <input
          className="big-input"
          inputMode="decimal"
          value={text}
          onChange={(event) => onText(event.target.value)}
          onFocus={(event) => event.target.select()}
          autoFocus
          {...describedBy(errorId, error)}
        />
      </label>
      <FieldError id={errorId} message={error} />
      <div className="quick-cash">
        {cashSuggestions(charge, digits).map((suggested) => (
          <button
            key={suggested}
            type="button"
            className="secondary"
            onClick={() => {
              onText(toAmountText(suggested, digits));
              onPicked();
            }}
          >
            {money(suggested, currency)}
          </button>
        ))}
      </div>
      <p className="change" aria-live="polite">
        Change: <strong>{change !== null && change >= 0 ? money(change, currency) : '—'}</strong>
      </p>
    </div>
  );
}
