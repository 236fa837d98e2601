// Turns an outbox operation (a /v1 request body in local ids) into the HTTP request to send:
// method, path, body with every reference rewritten to the server's id, and the schema of the
// reply. The translation is deterministic, so every attempt sends the same bytes under the same
// Idempotency-Key (a server that stores keys would refuse a different body).
import type { z } from 'zod';
import {
  clientDeletedSchema,
  clientLocationSchema,
  clientMenuItemSchema,
  clientOrderSchema,
  clientPaymentSchema,
  clientRefundSchema,
  type ClientRefund,
} from '../api/client-records';
import type { EntityKind, OperationKind, OutboxOperation, ServerRecord, Store } from '../store/index';
import { ORDER_METADATA, cardPaymentRecord, locationRecord, menuItemRecord, orderRecord, paymentIntentRecord, refundRecord } from './server-records';

export interface OperationRequest {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body: Record<string, unknown> | undefined;
  /** The change has nothing /v1 can carry (e.g. notes only): confirm it locally without a request. */
  nothingToSend?: boolean;
  schema: z.ZodType<unknown>;
  /** Turns the reply into the record the store writes to base (null: the reply carries none). */
  toRecord: (reply: unknown) => ServerRecord | null;
  /** Other entities the reply tells us about (a capture makes the card payment). */
  relatedRecords?: (reply: unknown) => { kind: EntityKind; record: ServerRecord }[];
}

/** A reference whose server id is unknown: the operation it came from never reached the server. */
export class UnresolvedReferenceError extends Error {
  override readonly name = 'UnresolvedReferenceError';
}

/**
 * Turns the references of requests into server ids. What resolved once resolves the same way for
 * good (a local id is linked to its server id once; an id never created here is the server's), so
 * it is remembered: a drain builds thousands of requests naming the same location, menu items and
 * modifiers. A reference that cannot be resolved yet is not remembered. Keep one per drain.
 */
export class ReferenceResolver {
  readonly #resolved = new Map<string, string>();

  constructor(readonly store: Store) {}

  serverId(kind: EntityKind, localId: unknown): string {
    if (typeof localId !== 'string') throw new UnresolvedReferenceError(`missing ${kind} reference`);
    const key = `${kind}:${localId}`;
    let resolved = this.#resolved.get(key);
    if (resolved === undefined) {
      resolved = this.#lookUp(kind, localId);
      this.#resolved.set(key, resolved);
    }
    return resolved;
  }

  #lookUp(kind: EntityKind, localId: string): string {
    const mapped = this.store.serverIdFor(kind, localId);
    if (mapped !== undefined) return mapped;
    // Entities that never had a local id (pulled from the server) are referenced by the server's id.
    if (this.store.localIdFor(kind, localId) === undefined && !this.#isUnpushedLocal(kind, localId)) return localId;
    throw new UnresolvedReferenceError(`${kind} ${localId} has no server id yet`);
  }

  /** True when the id belongs to an entity created here whose create operation is not done. */
  #isUnpushedLocal(kind: EntityKind, localId: string): boolean {
    const state = this.store.outbox.createState(kind, localId);
    return state !== undefined && state !== 'done';
  }
}

function wireItems(refs: ReferenceResolver, items: unknown): unknown {
  if (!Array.isArray(items)) return items;
  return items.map((item: Record<string, unknown>) => ({
    ...item,
    menu_item_id: refs.serverId('menu_item', item.menu_item_id),
    ...(Array.isArray(item.modifiers) ? { modifiers: item.modifiers.map((m) => refs.serverId('modifier', m)) } : {}),
  }));
}

/** /v1 wants customer fields non-empty when present; the till stores "" for "not given". */
function wireCustomer(customer: unknown): unknown {
  if (customer === null || typeof customer !== 'object') return customer;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(customer as Record<string, unknown>)) {
    if (typeof value === 'string' && value.trim() !== '') out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function withoutUndefined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

const orderReply = { schema: clientOrderSchema, toRecord: (r: unknown) => orderRecord(r as z.infer<typeof clientOrderSchema>) };
const paymentReply = { schema: clientPaymentSchema, toRecord: (r: unknown) => paymentIntentRecord(r as z.infer<typeof clientPaymentSchema>) };
const menuItemReply = { schema: clientMenuItemSchema, toRecord: (r: unknown) => menuItemRecord(r as z.infer<typeof clientMenuItemSchema>) };

/** The server id of the card payment a refund is for: the payment's own mapping, or its intent's. */
function paymentServerId(refs: ReferenceResolver, paymentId: unknown): string {
  if (typeof paymentId !== 'string') throw new UnresolvedReferenceError('refund without a payment');
  const { store } = refs;
  const direct = store.serverIdFor('payment', paymentId);
  if (direct !== undefined) return direct;
  const payment = store.cashier.getPayment(paymentId);
  if (payment?.payment_intent_id) return refs.serverId('payment_intent', payment.payment_intent_id);
  if (store.serverIdFor('payment_intent', paymentId) !== undefined) return refs.serverId('payment_intent', paymentId);
  return refs.serverId('payment', paymentId);
}

const CREATES: ReadonlySet<OperationKind> = new Set(['order.create', 'payment_intent.create', 'refund.create', 'menu_item.create']);

/** Creates make a new server record each time they run: those are the ones a lost reply can duplicate. */
export function createsRecord(kind: OperationKind): boolean {
  return CREATES.has(kind);
}

/** `refs`: share one across the requests of a drain (see ReferenceResolver). */
export function buildRequest(refs: ReferenceResolver, op: OutboxOperation): OperationRequest {
  const p = op.payload;
  switch (op.kind) {
    case 'order.create':
      return {
        method: 'POST',
        path: '/orders',
        body: withoutUndefined({
          ...p,
          location_id: refs.serverId('location', p.location_id),
          items: wireItems(refs, p.items),
          customer: wireCustomer(p.customer),
          metadata: {
            ...((p.metadata as Record<string, string> | undefined) ?? {}),
            [ORDER_METADATA.operationId]: op.opId,
            [ORDER_METADATA.localId]: op.entityId,
          },
        }),
        ...orderReply,
      };
    case 'order.update':
    case 'order.fulfil':
    case 'order.cancel': {
      const body = withoutUndefined({
        ...p,
        ...('items' in p ? { items: wireItems(refs, p.items) } : {}),
        ...('customer' in p ? { customer: p.customer === null ? null : (wireCustomer(p.customer) ?? null) } : {}),
      });
      return {
        method: 'PATCH',
        path: `/orders/${encodeURIComponent(refs.serverId('order', op.entityId))}`,
        body,
        nothingToSend: Object.keys(body).length === 0,
        ...orderReply,
      };
    }
    case 'payment_intent.create':
      return { method: 'POST', path: '/payments/intents', body: { ...p, order_id: refs.serverId('order', p.order_id) }, ...paymentReply };
    case 'payment_intent.capture':
      return {
        method: 'POST',
        path: `/payments/intents/${encodeURIComponent(refs.serverId('payment_intent', op.entityId))}/capture`,
        body: p,
        ...paymentReply,
        relatedRecords: (reply) => {
          const payment = cardPaymentRecord(reply as z.infer<typeof clientPaymentSchema>);
          return payment ? [{ kind: 'payment', record: payment }] : [];
        },
      };
    case 'refund.create': {
      const { payment_id: paymentId, ...body } = p;
      return {
        method: 'POST',
        path: `/payments/${encodeURIComponent(paymentServerId(refs, paymentId))}/refunds`,
        body,
        schema: clientRefundSchema,
        toRecord: (r) => refundRecord(r as ClientRefund),
      };
    }
    case 'menu_item.create':
      return {
        method: 'POST',
        path: '/menu/items',
        body: withoutUndefined({
          ...p,
          category_id: p.category_id == null ? p.category_id : refs.serverId('category', p.category_id),
          location_id: p.location_id == null ? p.location_id : refs.serverId('location', p.location_id),
        }),
        ...menuItemReply,
      };
    case 'menu_item.update':
      return {
        method: 'PATCH',
        path: `/menu/items/${encodeURIComponent(refs.serverId('menu_item', op.entityId))}`,
        body: withoutUndefined({
          ...p,
          ...('category_id' in p && p.category_id != null ? { category_id: refs.serverId('category', p.category_id) } : {}),
          ...('location_id' in p && p.location_id != null ? { location_id: refs.serverId('location', p.location_id) } : {}),
        }),
        ...menuItemReply,
      };
    case 'menu_item.delete':
      return {
        method: 'DELETE',
        path: `/menu/items/${encodeURIComponent(refs.serverId('menu_item', op.entityId))}`,
        body: undefined,
        schema: clientDeletedSchema,
        toRecord: () => null,
      };
    case 'location.update':
      return {
        method: 'PATCH',
        path: `/locations/${encodeURIComponent(refs.serverId('location', op.entityId))}`,
        body: p,
        schema: clientLocationSchema,
        toRecord: (r) => locationRecord(r as z.infer<typeof clientLocationSchema>),
      };
  }
}
