import { useId, type KeyboardEvent, type Ref } from 'react';
import type { ServiceDraft, ServiceErrors } from '../lib/service';
import type { Ticket } from '../lib/ticket';
import { FieldError } from './FieldError';
import { ServiceFields } from './ServicePicker';
import { describedByAll, TextLimit } from './TextLimit';

/** What the bridge takes (bridge/contract.ts, Customer and the order's notes). */
export const CUSTOMER_NAME_MAX = 120;
export const CUSTOMER_PHONE_MAX = 40;
export const ORDER_NOTES_MAX = 500;

export type CustomerField = 'name' | 'phone' | 'notes';
export type CustomerErrors = Partial<Record<CustomerField, string>>;

/**
 * The order's details in a drawer over the ticket's lines: the table and guests of a dine-in order,
 * the customer's name and phone, the notes. Each refusal under its field; each field takes no more
 * than the core does, and says so when full. Escape or Done closes it.
 */
export function OrderDetails({
  id,
  ticket,
  serviceErrors,
  customerErrors,
  onService,
  onChange,
  onClose,
  tableRef,
  nameRef,
}: {
  id: string;
  ticket: Ticket;
  serviceErrors: ServiceErrors;
  customerErrors: CustomerErrors;
  onService: (draft: ServiceDraft) => void;
  onChange: (change: Partial<Pick<Ticket, 'customerName' | 'customerPhone' | 'notes'>>) => void;
  onClose: () => void;
  tableRef?: Ref<HTMLInputElement>;
  nameRef?: Ref<HTMLInputElement>;
}) {
  const ids = { title: useId(), name: useId(), nameLimit: useId(), phone: useId(), phoneLimit: useId(), notes: useId(), notesLimit: useId() };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
  };
  const field = (name: CustomerField, errorId: string, limitId: string, value: string, max: number) => {
    const error = customerErrors[name] ?? null;
    return {
      value,
      maxLength: max,
      'aria-invalid': error ? (true as const) : undefined,
      'aria-describedby': describedByAll([
        [errorId, error !== null],
        [limitId, value.length >= max],
      ]),
    };
  };
  return (
    <section id={id} className="order-details" aria-labelledby={ids.title} onKeyDown={onKeyDown}>
      <h3 id={ids.title} className="order-details-title">
        Order details
      </h3>
      {ticket.service?.type === 'dine_in' ? <ServiceFields draft={ticket.service} errors={serviceErrors} onChange={onService} tableRef={tableRef} /> : null}
      <div className="customer-fields">
        <div>
          <label>
            Name
            <input ref={nameRef} autoComplete="off" onChange={(event) => onChange({ customerName: event.target.value })} {...field('name', ids.name, ids.nameLimit, ticket.customerName, CUSTOMER_NAME_MAX)} />
          </label>
          <FieldError id={ids.name} message={customerErrors.name ?? null} />
          <TextLimit id={ids.nameLimit} value={ticket.customerName} max={CUSTOMER_NAME_MAX} what="A name" />
        </div>
        <div>
          <label>
            Phone
            <input type="tel" autoComplete="off" onChange={(event) => onChange({ customerPhone: event.target.value })} {...field('phone', ids.phone, ids.phoneLimit, ticket.customerPhone, CUSTOMER_PHONE_MAX)} />
          </label>
          <FieldError id={ids.phone} message={customerErrors.phone ?? null} />
          <TextLimit id={ids.phoneLimit} value={ticket.customerPhone} max={CUSTOMER_PHONE_MAX} what="A phone number" />
        </div>
        <div className="customer-notes">
          <label>
            Notes
            <textarea rows={2} onChange={(event) => onChange({ notes: event.target.value })} {...field('notes', ids.notes, ids.notesLimit, ticket.notes, ORDER_NOTES_MAX)} />
          </label>
          <FieldError id={ids.notes} message={customerErrors.notes ?? null} />
          <TextLimit id={ids.notesLimit} value={ticket.notes} max={ORDER_NOTES_MAX} what="The notes" />
        </div>
      </div>
      <div className="order-details-actions">
        <button type="button" className="secondary" onClick={onClose}>
          Done <kbd>Esc</kbd>
        </button>
      </div>
    </section>
  );
}
