// How an order is served, in the words every screen uses ("Table 12 · 4 guests", "Takeout · Ada",
// "Delivery (online)"), and the register's service fields read into what the bridge takes.
import type { Order, OrderType, Service } from '../../bridge/contract';
import { readWholeNumber } from './format';

/** The register's service fields as typed: table and guests stay text until the order is sent. */
export interface ServiceDraft {
  type: OrderType;
  table: string;
  guests: string;
}

export const TAKEOUT: ServiceDraft = { type: 'takeout', table: '', guests: '' };

const MAX_TABLE_LENGTH = 12;
/** Channels that say nothing beyond "Delivery" itself. */
const PLAIN_CHANNELS = new Set(['pos', 'delivery']);

/** "Table 12 · 4 guests", "Takeout · Ada", "Delivery (online)"; '' when the order does not say. */
export function serviceLabel(service: Order['service'], customerName: string, channel: string | null): string {
  const name = customerName.trim();
  switch (service.type) {
    case 'dine_in': {
      const guests = service.guests === null ? '' : ` · ${service.guests} ${service.guests === 1 ? 'guest' : 'guests'}`;
      return `Table ${service.table ?? '?'}${guests}`;
    }
    case 'takeout':
      return name ? `Takeout · ${name}` : 'Takeout';
    case 'delivery':
      return channel && !PLAIN_CHANNELS.has(channel) ? `Delivery (${channel})` : 'Delivery';
    default:
      return '';
  }
}

/** Whether the label already names the customer (takeout does), so a screen does not say it twice. */
export function labelNamesCustomer(service: Order['service'], customerName: string): boolean {
  return service.type === 'takeout' && customerName.trim() !== '';
}

export function draftOfService(service: Order['service']): ServiceDraft | null {
  if (service.type === null) return null;
  return { type: service.type, table: service.table ?? '', guests: service.guests === null ? '' : String(service.guests) };
}

export type ServiceErrors = { table?: string; guests?: string };

/** The service to send, or the message for each field that cannot be sent as typed. */
export function readService(draft: ServiceDraft): { service: Service; errors: null } | { service: null; errors: ServiceErrors } {
  if (draft.type !== 'dine_in') return { service: { type: draft.type, table: null, guests: null }, errors: null };
  const errors: ServiceErrors = {};
  const table = draft.table.trim();
  if (table === '') errors.table = 'A dine-in order needs a table number.';
  else if (table.length > MAX_TABLE_LENGTH) errors.table = `A table number is at most ${MAX_TABLE_LENGTH} characters.`;
  let guests: number | null = null;
  if (draft.guests.trim() !== '') {
    const read = readWholeNumber(draft.guests, 1, 99);
    if (read.error !== null) errors.guests = read.error;
    else guests = read.value;
  }
  if (errors.table !== undefined || errors.guests !== undefined) return { service: null, errors };
  return { service: { type: 'dine_in', table, guests }, errors: null };
}
