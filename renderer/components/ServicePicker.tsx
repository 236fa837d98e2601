import { useId, type Ref } from 'react';
import { serviceLabel, type ServiceDraft, type ServiceErrors } from '../lib/service';
import { describedBy, FieldError } from './FieldError';

/** Each with its shortcut (the register's Alt+D / Alt+T). */
export const SERVICE_CHOICES: { type: 'dine_in' | 'takeout'; label: string; shortcut: string }[] = [
  { type: 'dine_in', label: 'Dine in', shortcut: 'Alt+D' },
  { type: 'takeout', label: 'Takeout', shortcut: 'Alt+T' },
];

/** The longest table number the bridge takes (bridge/contract.ts, Service). */
export const TABLE_MAX = 12;
const GUESTS_MAX_DIGITS = 2;

/**
 * How the order on the ticket is served: dine in or takeout, in the ticket's order row. Delivery
 * comes only from the cloud's channels: such an order shows it and keeps it.
 */
export function ServiceTypes({
  draft,
  channel,
  onPick,
}: {
  /** null: an order the cloud sent without a service; picking one sets it. */
  draft: ServiceDraft | null;
  channel: string | null;
  onPick: (type: 'dine_in' | 'takeout') => void;
}) {
  if (draft?.type === 'delivery') {
    return (
      <p className="service-fixed" data-testid="ticket-service">
        {serviceLabel({ type: 'delivery', table: null, guests: null }, '', channel)}
      </p>
    );
  }
  return (
    <fieldset className="service">
      <legend className="visually-hidden">Order type</legend>
      <div className="segmented service-types">
        {SERVICE_CHOICES.map(({ type, label, shortcut }) => (
          <label key={type} className={draft?.type === type ? 'segment selected' : 'segment'}>
            <input type="radio" name="service-type" checked={draft?.type === type} aria-keyshortcuts={shortcut} onChange={() => onPick(type)} />
            {label} <kbd>{shortcut}</kbd>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A dine-in order's table (required) and guests (optional), each refusal under its field. */
export function ServiceFields({
  draft,
  errors,
  onChange,
  tableRef,
}: {
  draft: ServiceDraft;
  errors: ServiceErrors;
  onChange: (draft: ServiceDraft) => void;
  /** The table field, for the register to focus when dine in is picked. */
  tableRef?: Ref<HTMLInputElement>;
}) {
  const ids = { table: useId(), guests: useId() };
  const set = (change: Partial<ServiceDraft>) => onChange({ ...draft, ...change });
  return (
    <div className="service-fields">
      <div>
        <label>
          Table
          <input
            ref={tableRef}
            value={draft.table}
            maxLength={TABLE_MAX}
            autoComplete="off"
            onChange={(event) => set({ table: event.target.value })}
            {...describedBy(ids.table, errors.table ?? null)}
          />
        </label>
        <FieldError id={ids.table} message={errors.table ?? null} />
      </div>
      <div>
        <label>
          Guests
          <input
            inputMode="numeric"
            placeholder="optional"
            value={draft.guests}
            maxLength={GUESTS_MAX_DIGITS}
            autoComplete="off"
            onChange={(event) => set({ guests: event.target.value })}
            {...describedBy(ids.guests, errors.guests ?? null)}
          />
        </label>
        <FieldError id={ids.guests} message={errors.guests ?? null} />
      </div>
    </div>
  );
}
