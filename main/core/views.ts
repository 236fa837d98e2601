// Store documents → bridge shapes. The bridge speaks ISO times and camelCase; the store keeps
// epoch milliseconds and the /v1 field names.
import type { Category, Location, MenuItem, Order, OrderDisplayState, OrderStatus, Payment, PaymentStatus, Refund, RefundState, SyncState } from '../../bridge/contract';
import type { StaffRef } from '../../bridge/staff/contract';
import type { CategoryDoc, LocationDoc, MenuItemDoc, ModifierDoc, OrderDoc, PaymentDoc, PaymentIntentDoc, RefundDoc } from '../../store/index';
import { appliedLineDiscount, priceOrder, splitView } from './checkout';
import { orderGratuity, type GratuityPayment } from './gratuity';

/** An entity's outbox state (store.outbox.syncStatesOf / entitySyncStates): absent means in sync. */
export type OutboxState = 'unfinished' | 'dead';

const iso = (ms: number): string => new Date(ms).toISOString();

function syncStateOf(states: ReadonlyMap<string, OutboxState>, kind: string, id: string): SyncState {
  const state = states.get(`${kind}:${id}`);
  return state === 'dead' ? 'failed' : state === 'unfinished' ? 'pending' : 'synced';
}

export function categoryView(doc: CategoryDoc): Category {
  return { id: doc.id, name: doc.name, position: doc.position };
}

export function menuItemView(doc: MenuItemDoc, modifiers: ReadonlyMap<string, ModifierDoc>): MenuItem {
  return {
    id: doc.id,
    name: doc.name,
    price: doc.price,
    categoryId: doc.category_id,
    description: doc.description,
    available: doc.available,
    lowStock: doc.low_stock,
    barcode: doc.barcode,
    taxClass: doc.tax_class ?? 'standard',
    modifierGroups: doc.modifier_groups.map((g) => ({ id: g.id, name: g.name, min: g.min, max: g.max, modifierIds: g.modifier_ids })),
    modifiers: doc.modifier_ids.flatMap((id) => {
      const modifier = modifiers.get(id);
      return modifier ? [{ id: modifier.id, name: modifier.name, price: modifier.price }] : [];
    }),
  };
}

/** The locale of dates and times when neither IT nor the location's country names one. */
export const DEFAULT_LOCALE = 'en-US';

const REGION_NAMES = new Intl.DisplayNames('en', { type: 'region', fallback: 'code' });

/**
 * The locale of the location's dates and times: the language most used in its country, with that
 * country (CLDR's likely subtags: US → en-US, FR → fr-FR, CA → en-CA), else en-US
 * (docs/spec-gaps.md, "Location"). IT's `locale` wins over it (withConfiguredLocale).
 */
export function locationLocale(country: string | null): string {
  // A code ICU knows as no country (QQ, or ZZ: unknown) would pass for one (en-QQ): en-US instead.
  if (country === null || !/^[A-Z]{2}$/.test(country) || REGION_NAMES.of(country) === country) return DEFAULT_LOCALE;
  const likely = new Intl.Locale('und', { region: country }).maximize();
  if (likely.region !== country) return DEFAULT_LOCALE;
  const locale = `${likely.language}-${country}`;
  return Intl.DateTimeFormat.supportedLocalesOf(locale).length > 0 ? locale : DEFAULT_LOCALE;
}

/** The IANA zone if this runtime knows it, else '' (this computer's), as the screens and paper then use. */
function knownTimeZone(zone: string | null): string {
  if (!zone) return '';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return '';
  }
}

/** The zone a time is told in: the location's, or this computer's when the location has none. */
export function effectiveTimeZone(locationZone: string): string {
  return locationZone || new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function locationView(doc: LocationDoc): Location {
  return { id: doc.id, name: doc.name, address: doc.address ?? '', phone: '', timezone: knownTimeZone(doc.timezone), locale: locationLocale(doc.country), currency: doc.currency };
}

/** The location with IT's locale (the configuration's `locale`, checked when it loads; '' for none) instead of its country's. */
export function withConfiguredLocale(location: Location, configuredLocale: string): Location {
  return configuredLocale === '' ? location : { ...location, locale: configuredLocale };
}

export interface OrderContext {
  intents: readonly PaymentIntentDoc[];
  payments: readonly PaymentDoc[];
  refunds: readonly RefundDoc[];
  outbox: ReadonlyMap<string, OutboxState>;
  /** Intents taken while the terminal was offline (store-and-forward). */
  offlineIntentIds: ReadonlySet<string>;
  /** Who placed (or took over) each order, took each payment, gave each refund, by id. */
  staff: { orders: ReadonlyMap<string, StaffRef>; payments: ReadonlyMap<string, StaffRef>; refunds: ReadonlyMap<string, StaffRef> };
  /** The cloud's word for orders it holds in a state this terminal does not know ("voided"), by id. */
  cloudStatuses: ReadonlyMap<string, string>;
  /** The till's links between checks (merged, reopened), by the id of the check that shows each. */
  links: OrderLinkViews;
}

/** What a check shows of its links to others (Order's mergedInto, reopened, reopenOf), by order id. */
export interface OrderLinkViews {
  mergedInto: ReadonlyMap<string, NonNullable<Order['mergedInto']>>;
  reopened: ReadonlyMap<string, NonNullable<Order['reopened']>>;
  reopenOf: ReadonlyMap<string, NonNullable<Order['reopenOf']>>;
}

function refundViews(paymentId: string, ctx: OrderContext): Refund[] {
  return ctx.refunds
    .filter((r) => r.payment_id === paymentId)
    .map((r) => ({
      id: r.id,
      paymentId: r.payment_id,
      amount: r.amount,
      reason: r.reason,
      note: r.note,
      items: r.items.map((i) => ({ lineIndex: i.line_index, quantity: i.quantity })),
      createdAt: iso(r.created_at),
      syncState: syncStateOf(ctx.outbox, 'refund', r.id),
      staff: ctx.staff.refunds.get(r.id) ?? null,
    }));
}

/**
 * The payments of one order as the cashier sees them: each card payment is its intent (the
 * server's payment record, once synced, adds its refunds), each cash payment its own record.
 */
export function paymentViews(orderId: string, ctx: OrderContext): Payment[] {
  const out: Payment[] = [];
  for (const intent of ctx.intents.filter((i) => i.order_id === orderId)) {
    const record = ctx.payments.find((p) => p.payment_intent_id === intent.id);
    const refunds = record ? refundViews(record.id, ctx) : [];
    const sync = syncStateOf(ctx.outbox, 'payment_intent', intent.id);
    const status: PaymentStatus =
      sync === 'failed' ? 'failed' : sync === 'pending' ? (ctx.offlineIntentIds.has(intent.id) ? 'queued_offline' : 'pending') : 'captured';
    out.push({
      id: intent.id,
      orderId,
      method: 'card',
      // The card is charged amount + tip; the order counts only what went toward it.
      amount: intent.amount - intent.tip,
      tip: intent.tip,
      splitPart: intent.split_part,
      status,
      refundedAmount: refunds.reduce((sum, r) => sum + r.amount, 0),
      createdAt: iso(intent.created_at),
      refunds,
      syncState: sync,
      staff: ctx.staff.payments.get(intent.id) ?? null,
    });
  }
  for (const payment of ctx.payments.filter((p) => p.order_id === orderId && p.payment_intent_id === null)) {
    const refunds = refundViews(payment.id, ctx);
    out.push({
      id: payment.id,
      orderId,
      method: payment.method,
      amount: payment.amount - payment.tip,
      tip: payment.tip,
      splitPart: payment.split_part,
      status: 'captured',
      refundedAmount: refunds.reduce((sum, r) => sum + r.amount, 0),
      createdAt: iso(payment.created_at),
      refunds,
      syncState: 'synced',
      staff: ctx.staff.payments.get(payment.id) ?? null,
    });
  }
  return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * The payments as the gratuity counts them (gratuity.ts): each with the part of its tip recorded as
 * gratuity when it was taken, read from its intent (card) or its record (cash).
 */
function gratuityPayments(orderId: string, live: readonly Payment[], ctx: OrderContext): GratuityPayment[] {
  const parts = new Map<string, number | null>();
  for (const intent of ctx.intents) if (intent.order_id === orderId) parts.set(intent.id, intent.gratuity ?? null);
  for (const payment of ctx.payments) if (payment.order_id === orderId && payment.payment_intent_id === null) parts.set(payment.id, payment.gratuity ?? null);
  return live.map((payment) => ({ amount: payment.amount, tip: payment.tip, gratuity: parts.get(payment.id) ?? null }));
}

/** The state shown on the order: /v1 status plus whether it is paid here (failed card payments do not count). */
function displayStateOf(status: OrderStatus, total: number, paid: number): OrderDisplayState {
  if (status === 'cancelled') return 'cancelled';
  if (status === 'fulfilled') return 'completed';
  if (paid >= total) return 'paid_in_kitchen';
  return paid > 0 ? 'open_part_paid' : 'open_unpaid';
}

function refundStateOf(paid: number, refunded: number): RefundState {
  if (refunded <= 0) return 'none';
  return refunded >= paid ? 'full' : 'partial';
}

/** How screens and paper name an order: its number, else the end of its id. */
export function orderLabel(doc: Pick<OrderDoc, 'id' | 'number'>): string {
  return doc.number ?? `#${doc.id.slice(-4).toUpperCase()}`;
}

export function orderView(doc: OrderDoc, ctx: OrderContext): Order {
  const payments = paymentViews(doc.id, ctx);
  const live = payments.filter((p) => p.status !== 'failed');
  const paidAmount = live.reduce((sum, p) => sum + p.amount, 0);
  const refundedAmount = live.reduce((sum, p) => sum + p.refundedAmount, 0);
  const refundedUnits = new Map<number, number>();
  const paidByPart = new Map<string, number>();
  for (const payment of live) {
    if (payment.splitPart !== null) paidByPart.set(payment.splitPart, (paidByPart.get(payment.splitPart) ?? 0) + payment.amount);
    for (const item of payment.refunds.flatMap((r) => r.items)) refundedUnits.set(item.lineIndex, (refundedUnits.get(item.lineIndex) ?? 0) + item.quantity);
  }
  const priced = priceOrder(doc);
  return {
    id: doc.id,
    number: doc.number,
    label: orderLabel(doc),
    businessDay: doc.business_day,
    service: { type: doc.service?.type ?? null, table: doc.service?.table ?? null, guests: doc.service?.guests ?? null },
    channel: doc.channel,
    check: priced.check,
    split: splitView(doc, priced, paidByPart, live.filter((p) => p.splitPart === null).reduce((sum, p) => sum + p.amount, 0)),
    tipTotal: live.reduce((sum, p) => sum + p.tip, 0),
    // Only a check placed under a gratuity rule has one to count.
    gratuity: doc.gratuity === null ? null : orderGratuity(doc, priced.check, gratuityPayments(doc.id, live, ctx)),
    status: doc.status,
    cloudStatus: ctx.cloudStatuses.get(doc.id) ?? null,
    displayState: displayStateOf(doc.status, priced.check.total, paidAmount),
    refundState: refundStateOf(paidAmount, refundedAmount),
    lines: doc.lines.map((line, index) => {
      const modifiers = line.modifiers.map((m) => ({ id: m.modifier_id, name: m.name, price: m.price }));
      return {
        menuItemId: line.menu_item_id,
        name: line.name,
        unitPrice: line.unit_price,
        quantity: line.quantity,
        modifiers,
        lineTotal: line.quantity * (line.unit_price + modifiers.reduce((sum, m) => sum + m.price, 0)),
        note: line.note,
        discount: appliedLineDiscount(line, priced.breakdown, index),
        total: priced.breakdown.lines[index]?.total ?? 0,
        refundedQuantity: refundedUnits.get(index) ?? 0,
        // Lines stored before seats and courses (migration 21) have neither.
        seat: line.seat ?? null,
        course: line.course ?? null,
      };
    }),
    customer: doc.customer ?? { name: '', phone: '' },
    notes: doc.notes,
    total: priced.check.total,
    currency: doc.currency,
    createdAt: iso(doc.created_at),
    updatedAt: iso(doc.updated_at),
    paidAmount,
    refundedAmount,
    payments,
    syncState: syncStateOf(ctx.outbox, 'order', doc.id),
    staff: ctx.staff.orders.get(doc.id) ?? null,
    courses: (doc.courses ?? []).map((c) => ({ course: c.course, state: c.state })),
    mergedInto: ctx.links.mergedInto.get(doc.id) ?? null,
    reopened: ctx.links.reopened.get(doc.id) ?? null,
    reopenOf: ctx.links.reopenOf.get(doc.id) ?? null,
  };
}
