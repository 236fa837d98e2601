import { useId, useState } from 'react';
import type { TableView } from '../../bridge/tables/contract';
import { Dialog } from '../components/Dialog';
import { describedBy, FieldError } from '../components/FieldError';
import { readWholeNumber } from '../lib/format';

/** What the order's service takes (bridge/contract.ts Service.guests). */
const MAX_GUESTS = 99;

/** "How many guests?": asked once, when a table is seated; the check starts with it. */
export function SeatDialog({ table, onClose, onSeat }: { table: TableView; onClose: () => void; onSeat: (guests: number) => void }) {
  const id = useId();
  const [text, setText] = useState(String(table.seats));
  const [error, setError] = useState<string | null>(null);
  const reading = readWholeNumber(text, 1, MAX_GUESTS);
  const step = (delta: number) => {
    const next = Math.min(MAX_GUESTS, Math.max(1, (reading.value ?? table.seats) + delta));
    setText(String(next));
    setError(null);
  };
  const seat = () => {
    if (reading.value === null) setError(reading.error);
    else onSeat(reading.value);
  };
  return (
    <Dialog title={`Seat table ${table.name}`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          seat();
        }}
      >
        <label htmlFor={`${id}-guests`}>How many guests?</label>
        <div className="seat-guests">
          <button type="button" className="big" aria-label="One guest fewer" onClick={() => step(-1)}>
            −
          </button>
          <input
            id={`${id}-guests`}
            className="seat-guests-count"
            inputMode="numeric"
            value={text}
            data-autofocus
            onFocus={(event) => event.target.select()}
            onChange={(event) => {
              setText(event.target.value);
              setError(null);
            }}
            {...describedBy(`${id}-error`, error)}
          />
          <button type="button" className="big" aria-label="One guest more" onClick={() => step(1)}>
            +
          </button>
        </div>
        <FieldError id={`${id}-error`} message={error} />
        <p className="muted">
          Table {table.name} seats {table.seats}.
        </p>
        <div className="dialog-actions">
          <button type="button" className="secondary big" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary big">
            Start the check
          </button>
        </div>
      </form>
    </Dialog>
  );
}
