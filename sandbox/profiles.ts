// The output profiles (docs/sandbox.md, "Profiles"): the stored data and every business rule are the
// same in each; only what goes on the wire differs. `default` sends our documented gap decisions;
// `spec-minimal` narrows every record and event to the fields the spec shows, so the terminal can be
// tested against a server as minimal as the spec allows. `jsonapi` wraps records as { id, type, attributes }.
import type { OperationId } from '../api/endpoints';
import type { WebhookEvent, WebhookTestResult } from '../api/events';
import type { Category, DeletedMenuItem, ListEnvelope, Location, MenuItem, Order, Payment, Refund } from '../api/records';
import { serialise } from './context';
import {
  CHECKOUT_LINE_FIELDS,
  CHECKOUT_REQUEST_FIELDS,
  JSONAPI_TYPE,
  REPLIES,
  type JsonApiResource,
  type JsonApiType,
  type Profile,
  type RecordShape,
  type ReplyKind,
  type SpecCategory,
  type SpecDeletedMenuItem,
  type SpecLocation,
  type SpecMenuItem,
  type SpecOrder,
  type SpecPayment,
  type SpecRefund,
  type SpecWebhookEvent,
  type SpecWebhookTestResult,
} from './profile-schemas';

import { NO_QUIRKS, quirkyOrder, quirkyPayment, type QuirkSettings } from './quirks';

export type { Profile, RecordShape } from './profile-schemas';

/** The settings that decide what a /v1 reply and a webhook event look like. */
export interface OutputMode {
  profile: Profile;
  record_shape: RecordShape;
  /** Hold a write's reply until the first delivery attempt of the events it emitted (at most 2 s). */
  events_before_reply: boolean;
  /** Ways a /v1 may differ where the spec is silent (sandbox/quirks.ts), each off by default. */
  quirks: Readonly<QuirkSettings>;
}

export const DEFAULT_OUTPUT_MODE: OutputMode = { profile: 'default', record_shape: 'flat', events_before_reply: false, quirks: NO_QUIRKS };

/** What choosing a profile sets events_before_reply to, unless it is given alongside. */
export const EVENTS_BEFORE_REPLY_BY_PROFILE: Record<Profile, boolean> = { default: false, 'spec-minimal': true };

export function specOrder(order: Order): SpecOrder {
  return {
    id: order.id,
    location_id: order.location_id,
    status: order.status,
    total: order.total,
    customer: order.customer && { name: order.customer.name, phone: order.customer.phone },
    items: order.items.map((line) => ({
      menu_item_id: line.menu_item_id,
      name: line.name,
      quantity: line.quantity,
      price: line.price,
      modifiers: line.modifiers.map((m) => m.id),
    })),
  };
}

export function specMenuItem(item: MenuItem): SpecMenuItem {
  return { id: item.id, name: item.name, price: item.price, category_id: item.category_id, description: item.description, available: item.available };
}

export function specLocation(location: Location): SpecLocation {
  return { id: location.id, name: location.name };
}

export function specCategory(category: Category): SpecCategory {
  return { id: category.id, name: category.name };
}

export function specPayment(payment: Payment): SpecPayment {
  return { id: payment.id, order_id: payment.order_id, amount: payment.amount, currency: payment.currency, status: payment.status };
}

export function specRefund(refund: Refund): SpecRefund {
  return { id: refund.id, amount: refund.amount, reason: refund.reason };
}

export function specDeletedMenuItem(deleted: DeletedMenuItem): SpecDeletedMenuItem {
  return { id: deleted.id };
}

export function specWebhookTestResult(result: WebhookTestResult): SpecWebhookTestResult {
  return { id: result.event.id };
}

interface DefaultRecords {
  order: Order;
  menu_item: MenuItem;
  location: Location;
  category: Category;
  payment: Payment;
  refund: Refund;
  deleted_menu_item: DeletedMenuItem;
  webhook_test: WebhookTestResult;
}

const SPEC_MINIMAL: { [K in ReplyKind]: (record: DefaultRecords[K]) => object } = {
  order: specOrder,
  menu_item: specMenuItem,
  location: specLocation,
  category: specCategory,
  payment: specPayment,
  refund: specRefund,
  deleted_menu_item: specDeletedMenuItem,
  webhook_test: specWebhookTestResult,
};

/** A flat record as a jsonapi resource: id and type on top, every other field in attributes. */
export function jsonApiResource(type: JsonApiType, record: object): JsonApiResource {
  const { id, ...attributes } = record as { id: string } & Record<string, unknown>;
  return { id, type, attributes };
}

/** One record of `kind`, stored in the default shape, as these settings send it. */
export function presentRecord(kind: ReplyKind, record: unknown, mode: Pick<OutputMode, 'profile' | 'record_shape'>): object {
  // The table is keyed by kind, so each function receives its own record type.
  const narrowed = mode.profile === 'spec-minimal' ? (SPEC_MINIMAL[kind] as (r: unknown) => object)(record) : (record as object);
  const type = JSONAPI_TYPE[kind];
  return mode.record_shape === 'jsonapi' && type !== null ? jsonApiResource(type, narrowed) : narrowed;
}

/** The reply body of `operationId` as these settings send it; the default settings pass it through untouched. */
export function presentReply(operationId: OperationId, body: unknown, mode: Pick<OutputMode, 'profile' | 'record_shape'> & Partial<Pick<OutputMode, 'quirks'>>): unknown {
  const { kind, list } = REPLIES[operationId];
  const quirks = mode.quirks ?? NO_QUIRKS;
  const renamed = (kind === 'payment' || kind === 'refund') && quirks.unknown_payment_states ? quirkyPayment : kind === 'order' && quirks.unknown_order_states ? quirkyOrder : null;
  if (mode.profile === 'default' && mode.record_shape === 'flat' && renamed === null) return body;
  const present = (record: unknown) => presentRecord(kind, renamed ? renamed(record, quirks) : record, mode);
  if (!list) return present(body);
  // List pages arrive as stored JSON spliced together: only the other settings pay for parsing them.
  const page = JSON.parse(serialise(body)) as ListEnvelope<unknown>;
  return { data: page.data.map(present), meta: page.meta, links: page.links };
}

/** An event with only the spec's envelope; order attributes narrowed to the spec's, others empty. */
export function specWebhookEvent(event: WebhookEvent): SpecWebhookEvent {
  const envelope = { id: event.id, type: event.type, created_at: event.created_at };
  const { data } = event;
  if (data.type === 'order') {
    const order = data.attributes;
    const items = order.items.map((line) => ({ name: line.name, quantity: line.quantity, price: line.price }));
    return { ...envelope, data: { id: data.id, type: 'order', attributes: { total: order.total, status: order.status, items, location_id: order.location_id } } };
  }
  if (data.type === 'payment') return { ...envelope, data: { id: data.id, type: 'payment', attributes: {} } };
  return { ...envelope, data: { id: data.id, type: 'menu_item', attributes: {} } };
}

/** The event body as the profile sends it. */
export function presentEvent(event: WebhookEvent, profile: Profile): WebhookEvent | SpecWebhookEvent {
  return profile === 'spec-minimal' ? specWebhookEvent(event) : event;
}

function plainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function without(record: Record<string, unknown>, fields: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([field]) => !fields.has(field)));
}

const LINE_FIELDS_DROPPED = new Set(CHECKOUT_LINE_FIELDS);

/**
 * spec-minimal drops the metadata a client sends (the terminal sends it; a minimal server would
 * ignore it) and the checkout fields of `operationId` (items[].note included): it knows nothing of them.
 */
export function presentRequestBody(body: unknown, profile: Profile, operationId?: OperationId): unknown {
  if (profile !== 'spec-minimal' || !plainObject(body)) return body;
  const checkout = (operationId && CHECKOUT_REQUEST_FIELDS[operationId]) || [];
  const rest = without(body, new Set(['metadata', ...checkout]));
  if (checkout.length > 0 && Array.isArray(rest.items)) rest.items = rest.items.map((line: unknown) => (plainObject(line) ? without(line, LINE_FIELDS_DROPPED) : line));
  return rest;
}
