// Translates what /v1 returns (read liberally through api/client-records) into the store's
// document fields. Ids stay the server's; the store maps them to local ids. A field the server
// did not send is left out, so the store keeps its current value, or for an entity it has not
// seen, the default docs/spec-gaps.md gives (store/documents.ts, unstatedFieldDefaults).
import { isKnownOrderStatus, type ClientCategory, type ClientLocation, type ClientMenuItem, type ClientOrder, type ClientPayment, type ClientRefund } from '../api/client-records';
import type { ServerRecord, Store } from '../store/index';

function millis(iso: string | undefined): number | undefined {
  return iso === undefined ? undefined : Date.parse(iso);
}

function defined(record: Record<string, unknown>): ServerRecord {
  const out: Record<string, unknown> = {};
  for (const key in record) {
    const value = record[key];
    if (value !== undefined) out[key] = value;
  }
  return out as ServerRecord;
}

/** Metadata keys the terminal writes on the orders it creates, to recognise them later. */
export const ORDER_METADATA = {
  /** The outbox operation that created the order: proves "this is ours" after a lost reply. */
  operationId: 'pos_op_id',
  /** The terminal's local id of the order: lets an echo land on the right local entity. */
  localId: 'pos_local_id',
} as const;

export function metadataString(order: ClientOrder, key: string): string | undefined {
  const value = order.metadata?.[key];
  return typeof value === 'string' ? value : undefined;
}

export function orderRecord(order: ClientOrder): ServerRecord {
  const customer = order.customer;
  const items = order.items;
  const known = order.status === undefined || isKnownOrderStatus(order.status);
  return defined({
    id: order.id,
    location_id: order.location_id,
    // A state the terminal does not know: not open for editing here; the server's word is kept beside it.
    status: known ? order.status : 'fulfilled',
    cloud_status: known ? undefined : order.status,
    currency: order.currency,
    customer: customer === undefined ? undefined : customer === null || (customer.name == null && customer.phone == null) ? null : { name: customer.name ?? '', phone: customer.phone ?? '' },
    lines: items?.map((line) => {
      const modifiers = (line.modifiers ?? []).map((m) =>
        typeof m === 'string' ? { modifier_id: m, name: '', price: 0 } : { modifier_id: m.id, name: m.name ?? '', price: m.price ?? 0 },
      );
      return defined({
        menu_item_id: line.menu_item_id ?? '',
        name: line.name ?? '',
        quantity: line.quantity,
        // A /v1 line's price has its modifiers in (docs/spec-gaps.md); the till keeps them apart.
        unit_price: (line.price ?? 0) - modifiers.reduce((sum, m) => sum + m.price, 0),
        modifiers,
        // Left out unless stated: the store keeps the till's own note (carryLineExtras).
        note: line.note ?? undefined,
      });
    }),
    // What the items come to: the cloud's subtotal where it models tax and discounts, else its
    // total (the spec shows one on every order); a server that sends neither charges its lines.
    total: order.subtotal ?? order.total ?? items?.reduce((sum, line) => sum + (line.price ?? 0) * line.quantity, 0),
    created_at: millis(order.created_at),
    updated_at: millis(order.updated_at),
    number: order.order_number ?? undefined,
    service:
      order.order_type == null && order.table == null
        ? undefined
        : { type: order.order_type ?? null, table: order.table ?? null, guests: order.guests ?? null },
    channel: order.channel ?? undefined,
    cloud_check: cloudCheck(order),
  });
}

/** The bill as the cloud states it, when it states more than its total (docs/spec-gaps.md, "Checkout"). */
function cloudCheck(order: ClientOrder): ServerRecord['cloud_check'] {
  if (order.subtotal == null && order.tax_total == null && order.discount_total == null) return undefined;
  return {
    total: order.total ?? null,
    subtotal: order.subtotal ?? null,
    discount_total: order.discount_total ?? null,
    tax_total: order.tax_total ?? null,
    tax_included: order.tax_included ?? null,
  };
}


export function menuItemRecord(item: ClientMenuItem & { low_stock_threshold?: number | null; deleted?: boolean }): ServerRecord {
  const stock = item.stock;
  const threshold = item.low_stock_threshold;
  return defined({
    id: item.id,
    location_id: item.location_id ?? null,
    category_id: item.category_id ?? null,
    name: item.name,
    description: item.description ?? '',
    price: item.price,
    currency: item.currency,
    available: item.available,
    // Low stock as the server's numbers say; a server that tracks no stock never reports it.
    low_stock: typeof stock === 'number' && typeof threshold === 'number' ? stock <= threshold : false,
    modifier_ids: item.modifiers.map((m) => m.id),
    deleted: item.deleted === true,
    tax_class: item.tax_class ?? undefined,
    modifier_groups: item.modifier_groups?.map((g) => ({ id: g.id, name: g.name, min: g.min_choices, max: g.max_choices ?? null, modifier_ids: g.modifier_ids })),
  });
}

export function modifierRecords(item: ClientMenuItem): ServerRecord[] {
  return item.modifiers.map((m) => ({ id: m.id, name: m.name, price: m.price }));
}

function addressText(address: ClientLocation['address']): string | null {
  if (address == null) return null;
  if (typeof address === 'string') return address;
  const parts = ['line1', 'line2', 'city', 'region', 'postal_code', 'country']
    .map((key) => (address as Record<string, unknown>)[key])
    .filter((v): v is string => typeof v === 'string' && v !== '');
  return parts.join(', ');
}

/** The address's country (ISO 3166-1 alpha-2, upper case): null when it names none, or only as text. */
function addressCountry(address: ClientLocation['address']): string | null {
  const country = address !== null && typeof address === 'object' ? (address as Record<string, unknown>).country : undefined;
  return typeof country === 'string' && /^[A-Za-z]{2}$/.test(country.trim()) ? country.trim().toUpperCase() : null;
}

export function locationRecord(location: ClientLocation): ServerRecord {
  return defined({
    id: location.id,
    name: location.name ?? location.id,
    currency: location.currency,
    address: location.address === undefined ? undefined : addressText(location.address),
    // Sent with the address it belongs to: a new address without a country forgets the old one.
    country: location.address === undefined ? undefined : addressCountry(location.address),
    timezone: location.timezone === undefined ? undefined : location.timezone,
    tax:
      location.tax_rates == null && location.prices_include_tax == null && location.tax_rounding == null
        ? undefined
        : {
            rates: location.tax_rates?.map((r) => ({ tax_class: r.tax_class, name: r.name, rate_ppm: r.rate_ppm })) ?? null,
            prices_include_tax: location.prices_include_tax ?? null,
            rounding: location.tax_rounding ?? null,
          },
  });
}

export function categoryRecord(category: ClientCategory): ServerRecord {
  return defined({ id: category.id, name: category.name ?? category.id, position: category.position });
}

export function refundRecord(refund: ClientRefund, paymentId?: string): ServerRecord {
  return defined({
    id: refund.id,
    payment_id: paymentId ?? refund.payment_id,
    amount: refund.amount,
    currency: refund.currency,
    reason: refund.reason ?? undefined,
    status: refund.status,
    created_at: millis(refund.created_at),
  });
}

/**
 * A captured /v1 payment is also the till's card payment (what a refund is made against). The
 * store keeps it as a payment entity under the server's id, pointing at its intent.
 */
export function cardPaymentRecord(payment: ClientPayment): ServerRecord | null {
  if (payment.status === 'authorized') return null;
  return defined({
    id: payment.id,
    order_id: payment.order_id,
    payment_intent_id: payment.id,
    method: 'card',
    amount: payment.amount_captured ?? payment.amount,
    currency: payment.currency,
    status: payment.status,
    created_at: millis(payment.captured_at as string | undefined) ?? millis(payment.created_at),
    tip: payment.tip_amount ?? undefined,
  });
}

/** /v1 has one record for the intent and the payment; the store keeps it as the payment intent. */
export function paymentIntentRecord(payment: ClientPayment): ServerRecord {
  return defined({
    id: payment.id,
    order_id: payment.order_id,
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status,
    created_at: millis(payment.created_at),
    // Left out unless stated: the till keeps the tip it took.
    tip: payment.tip_amount ?? undefined,
  });
}

/**
 * Orders this terminal created whose reply has not been processed yet (lost, or still on its way)
 * can arrive first through a pull or a webhook. Their metadata names our local order: link it
 * before the record is written, so it lands on that order instead of appearing as a second one.
 */
export function claimOwnOrders(store: Store, orders: readonly ClientOrder[]): void {
  const claims = orders.flatMap((order) => {
    const localId = metadataString(order, ORDER_METADATA.localId);
    if (localId === undefined || localId === order.id) return [];
    if (store.localIdFor('order', order.id) !== undefined || store.serverIdFor('order', localId) !== undefined) return [];
    return [{ localId, serverId: order.id }];
  });
  if (claims.length === 0) return;
  store.transaction(() => {
    for (const { localId, serverId } of claims) {
      // Only an order created here and not yet confirmed can be claimed: metadata alone proves nothing.
      const state = store.outbox.createState('order', localId);
      if (state === 'pending' || state === 'in_flight') store.ids.link('order', localId, serverId);
    }
  });
}
