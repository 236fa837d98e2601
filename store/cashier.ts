// The cashier's repositories. Every write is its domain rows (pending layer), its outbox row and
// an audit row in ONE synchronous transaction, and returns only after the commit.
import { isDeepStrictEqual } from 'node:util';
import type { Insertable, Kysely } from 'kysely';
import { z } from 'zod';
import { newId } from '../common/ids';
import type { Clock } from '../common/clock';
import {
  CourseStateDoc,
  CustomerDoc,
  DiscountDoc,
  GratuityDoc,
  OrderLineDoc,
  OrderStatus,
  PricingDoc,
  ServiceDoc,
  SplitDoc,
  type CategoryDoc,
  type EntityKind,
  type LocationDoc,
  type MenuItemDoc,
  type ModifierDoc,
  type OrderDoc,
  type PaymentDoc,
  type PaymentIntentDoc,
  type RefundDoc,
} from './documents';
import type { SqlRunner } from './database';
import { StoreError } from './errors';
import type { EntityLayers } from './layers';
import type { Outbox } from './outbox';
import { lineRefs, orderTotal } from './order-lines';
import type { StoreTables } from './schema';

const Currency = z.string().regex(/^[a-z]{3}$/);

/** Fields the till adds to a /v1 order body beyond the spec (docs/spec-gaps.md, "Checkout"): tax_total, discounts, order_type... */
const WireExtras = z.record(z.string(), z.unknown());

export const NewOrderInput = z.object({
  locationId: z.string().min(1),
  currency: Currency,
  lines: z.array(OrderLineDoc).min(1),
  customer: CustomerDoc.nullable().default(null),
  notes: z.string().default(''),
  /** Numbers the order "A17": this till's letter, counted per business day. Absent: no number. */
  numbering: z.object({ tillLetter: z.string().regex(/^[A-Z]$/), businessDay: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), dayStartedAt: z.number().int() }).optional(),
  service: ServiceDoc.nullable().default(null),
  pricing: PricingDoc.nullable().default(null),
  discount: DiscountDoc.nullable().default(null),
  checkTotal: z.number().int().nullable().default(null),
  /** The courses held when it is sent (docs/tables.md). */
  courses: z.array(CourseStateDoc).nullable().default(null),
  gratuity: GratuityDoc.nullable().default(null),
  wire: WireExtras.default({}),
});
export type NewOrderInput = z.input<typeof NewOrderInput>;

export const OrderChangeInput = z.object({
  lines: z.array(OrderLineDoc).min(1).optional(),
  customer: CustomerDoc.nullable().optional(),
  notes: z.string().optional(),
  service: ServiceDoc.nullable().optional(),
  pricing: PricingDoc.nullable().optional(),
  discount: DiscountDoc.nullable().optional(),
  checkTotal: z.number().int().nullable().optional(),
  split: SplitDoc.nullable().optional(),
  courses: z.array(CourseStateDoc).nullable().optional(),
  gratuity: GratuityDoc.nullable().optional(),
  /** Sent with the change when it has something for the cloud. */
  wire: WireExtras.optional(),
});
export type OrderChangeInput = z.input<typeof OrderChangeInput>;

export const OrderListFilter = z.object({
  status: OrderStatus.optional(),
  locationId: z.string().optional(),
  /** Inclusive lower bound on created_at (ms). */
  createdFrom: z.number().int().optional(),
  /** Exclusive upper bound on created_at (ms). */
  createdTo: z.number().int().optional(),
  limit: z.number().int().min(1).max(500).default(50),
  offset: z.number().int().min(0).default(0),
});
export type OrderListFilter = z.input<typeof OrderListFilter>;

export const NewMenuItemInput = z.object({
  locationId: z.string().nullable(),
  categoryId: z.string().nullable(),
  name: z.string().min(1),
  description: z.string().default(''),
  price: z.number().int().min(0),
  currency: Currency,
  available: z.boolean().default(true),
  modifierIds: z.array(z.string()).default([]),
  /** The till's own barcode or PLU (unique among items; its format is the bridge's to check). */
  barcode: z.string().min(1).nullable().default(null),
});
export type NewMenuItemInput = z.input<typeof NewMenuItemInput>;

export const MenuItemChangeInput = z.object({
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  price: z.number().int().min(0).optional(),
  categoryId: z.string().nullable().optional(),
  available: z.boolean().optional(),
  lowStock: z.boolean().optional(),
  /** null clears it. */
  barcode: z.string().min(1).nullable().optional(),
});
export type MenuItemChangeInput = z.infer<typeof MenuItemChangeInput>;

export const LocationChangeInput = z.object({
  name: z.string().min(1).optional(),
  address: z.string().nullable().optional(),
  timezone: z.string().nullable().optional(),
});
export type LocationChangeInput = z.infer<typeof LocationChangeInput>;

/** searchOrders: the newest index matches first, then their rows, each shown once (pending over base). */
export const SEARCH_ORDERS_SQL = `
  SELECT * FROM orders AS o
  WHERE o.rowid IN (
    SELECT rowid FROM (
      SELECT rowid, created_at FROM orders INDEXED BY orders_by_customer_name
        WHERE customer_name >= ? COLLATE NOCASE AND customer_name < ? COLLATE NOCASE
      UNION ALL
      SELECT rowid, created_at FROM orders INDEXED BY orders_by_customer_phone
        WHERE customer_phone >= ? AND customer_phone < ?
      UNION ALL
      SELECT rowid, created_at FROM orders INDEXED BY orders_by_number
        WHERE number >= ? COLLATE NOCASE AND number < ? COLLATE NOCASE
      ORDER BY created_at DESC LIMIT ?))
    AND (o.layer = 'pending' OR NOT EXISTS (SELECT 1 FROM orders AS p WHERE p.id = o.id AND p.layer = 'pending'))
  ORDER BY o.created_at DESC, o.id DESC LIMIT ?`;

/** SEARCH_ORDERS_SQL's parameters for a search of `text`: the name, phone and number ranges, the window, the limit. */
export function searchOrdersParameters(text: string, limit: number): (string | number)[] {
  const prefix = z.string().trim().min(1).parse(text);
  const take = z.number().int().min(1).max(500).parse(limit);
  // NOCASE folds ASCII letters only, to lowercase: the name's and number's bounds are folded the same way.
  const folded = prefix.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return [folded, prefixEnd(folded), prefix, prefixEnd(prefix), folded, prefixEnd(folded), take * 2 + 8, take];
}

/** The part of a payment's tip that is the automatic gratuity: whole units within the tip, or null when not known. */
function gratuityWithin(tip: number, gratuity: number | null | undefined): number | null {
  return z.number().int().min(0).max(tip).nullable().parse(gratuity ?? null);
}

/** The smallest string above every string starting with `prefix`: its last code unit plus one. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** Extras of a payment: the tip within its amount, the part of the tip that is the automatic gratuity, the split check part it paid. */
export interface PaymentExtras {
  tip?: number;
  /** Within tip; null or absent: not known (the view then works it out as before migration 32). */
  gratuity?: number | null;
  splitPart?: string | null;
  /** The id another till gave the payment it took toward this till's order (store mode); else a new one. */
  id?: string;
}

export interface AuditEntry {
  id: number;
  at: number;
  actor: string;
  action: string;
  entityKind: string | null;
  entityId: string | null;
  detail: unknown;
}

/**
 * A link between two checks, the till's (migration 25, docs/tables.md): `merged_into` (order_id
 * was merged into other_id and cancelled) or `reopened_as` (the closed check order_id was reopened;
 * other_id is the new check that carries what was added). Who did it, the manager who approved,
 * why, on which business day.
 */
export interface OrderLink {
  order_id: string;
  kind: 'merged_into' | 'reopened_as';
  /** Null for a reopening nothing was added to yet. */
  other_id: string | null;
  staff_id: string;
  approved_by: string | null;
  reason: string | null;
  business_day: string;
  at: number;
}

/** Who did it: every cashier write names its actor in the audit log. */
export interface Actor {
  actor: string;
}


export class CashierRepositories {
  readonly #insertAudit: (row: Insertable<StoreTables['audit_log']>) => unknown;

  constructor(
    private readonly kysely: Kysely<StoreTables>,
    private readonly sql: SqlRunner,
    private readonly layers: EntityLayers,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {
    this.#insertAudit = sql.compiledInsert(kysely, 'audit_log', ['at', 'actor', 'action', 'entity_kind', 'entity_id', 'detail']);
  }

  // ---- audit ----

  #audit(actor: string, action: string, entityKind: EntityKind | null, entityId: string | null, detail: unknown, at: number): void {
    this.#insertAudit({ at, actor, action, entity_kind: entityKind, entity_id: entityId, detail: JSON.stringify(detail ?? null) });
  }

  /** Records an action that changes no domain row (sign-in, drawer open, dead letter discarded...). */
  recordAudit(actor: string, action: string, detail: unknown, entity?: { kind: EntityKind; id: string }): void {
    this.#audit(actor, action, entity?.kind ?? null, entity?.id ?? null, detail, this.clock.now());
  }

  listAudit(filter: { entityKind?: EntityKind; entityId?: string; limit?: number } = {}): AuditEntry[] {
    let query = this.kysely.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(filter.limit ?? 100);
    if (filter.entityKind) query = query.where('entity_kind', '=', filter.entityKind);
    if (filter.entityId) query = query.where('entity_id', '=', filter.entityId);
    return (this.sql.all(query) as (StoreTables['audit_log'] & { id: number })[]).map((r) => ({
      id: r.id,
      at: r.at,
      actor: r.actor,
      action: r.action,
      entityKind: r.entity_kind,
      entityId: r.entity_id,
      detail: JSON.parse(r.detail) as unknown,
    }));
  }

  // ---- orders ----

  /** A new order: the order, its lines and modifiers, an 'order.create' operation and an audit row, in one commit. */
  createOrder(input: NewOrderInput, { actor }: Actor): OrderDoc {
    const order = NewOrderInput.parse(input);
    const now = this.clock.now();
    const id = newId('ord_', now);
    return this.transaction(() => {
      const number = order.numbering ? this.#nextOrderNumber(order.numbering) : null;
      const doc: OrderDoc = {
        id,
        location_id: order.locationId,
        status: 'open',
        currency: order.currency,
        customer: order.customer,
        notes: order.notes,
        lines: order.lines,
        total: orderTotal(order.lines),
        created_at: now,
        updated_at: now,
        number,
        business_day: order.numbering?.businessDay ?? null,
        service: order.service,
        channel: null,
        pricing: order.pricing,
        discount: order.discount,
        check_total: order.checkTotal,
        cloud_check: null,
        split: null,
        courses: order.courses,
        gratuity: order.gratuity,
      };
      const written = this.outbox.enqueue({
        opId: newId('op_', now),
        entityKind: 'order',
        entityId: id,
        kind: 'order.create',
        payload: {
          location_id: order.locationId,
          items: lineRefs(order.lines),
          ...(order.customer ? { customer: order.customer } : {}),
          ...order.wire,
          ...(number ? { order_number: number } : {}),
        },
        patch: doc,
        dependsOn: this.#unsentMenuItems(order.lines),
        resourceKey: `order:${id}`,
        now,
      });
      const discounts = [
        ...doc.lines.flatMap((line) => (line.discount ? [{ line: line.name, ...line.discount }] : [])),
        ...(doc.discount ? [{ line: null, ...doc.discount }] : []),
      ];
      this.#audit(actor, 'order.create', 'order', id, { number, total: doc.check_total ?? doc.total, lines: doc.lines.length, discounts }, now);
      return written;
    });
  }

  /**
   * The next number of the business day on this till: a counter per day, bumped in the order's
   * transaction. A day without a counter here (a reset till) starts after the highest number with
   * this till's letter among the day's orders the store still has, so a number is never given twice.
   */
  #nextOrderNumber({ tillLetter, businessDay, dayStartedAt }: { tillLetter: string; businessDay: string; dayStartedAt: number }): string {
    const [counter] = this.sql.allSql<{ last: number }>('SELECT last FROM order_numbers WHERE business_day = ?', [businessDay]);
    let next: number;
    if (counter) {
      next = counter.last + 1;
    } else {
      const taken = this.sql.allSql<{ number: string }>(
        `SELECT number FROM orders INDEXED BY orders_by_number WHERE number >= ? COLLATE NOCASE AND number < ? COLLATE NOCASE AND created_at >= ?`,
        [tillLetter, String.fromCharCode(tillLetter.charCodeAt(0) + 1), dayStartedAt],
      );
      next = taken.reduce((max, row) => Math.max(max, Number(/^[A-Z](\d+)$/i.exec(row.number)?.[1] ?? 0)), 0) + 1;
    }
    this.sql.runSql('INSERT INTO order_numbers (business_day, last) VALUES (?, ?) ON CONFLICT (business_day) DO UPDATE SET last = excluded.last', [businessDay, next]);
    return `${tillLetter}${next}`;
  }

  /**
   * The newest unfinished operation of each menu item the lines name that this till created and
   * has not sent yet: the order goes to the cloud after them, since /v1 knows the item only then.
   */
  #unsentMenuItems(lines: readonly { menu_item_id: string }[]): string[] {
    const ops = new Set<string>();
    for (const itemId of new Set(lines.map((line) => line.menu_item_id))) {
      const state = this.outbox.createState('menu_item', itemId);
      if (state !== 'pending' && state !== 'in_flight') continue;
      const latest = this.outbox.latestUnfinished('menu_item', itemId);
      if (latest !== undefined) ops.add(latest);
    }
    return [...ops];
  }

  #openOrder(id: string): OrderDoc {
    const order = this.layers.merged('order', id);
    if (!order) throw new StoreError('not_found', `no order ${id}`);
    if (order.status !== 'open') throw new StoreError('conflict', `order ${id} is ${order.status}; only open orders can change`);
    return order;
  }

  #orderOperation(id: string, kind: 'order.update' | 'order.fulfil' | 'order.cancel', payload: Record<string, unknown>, patch: Partial<OrderDoc>, actor: string): OrderDoc {
    return this.transaction(() => {
      const order = this.#openOrder(id);
      const now = this.clock.now();
      const previous = this.outbox.latestUnfinished('order', id);
      const written = this.outbox.enqueue({
        opId: newId('op_', now),
        entityKind: 'order',
        entityId: id,
        kind,
        payload,
        patch: { ...patch, updated_at: now },
        // A change of lines remembers the lines it changed: another terminal may change them first.
        ...('items' in payload ? { basedOn: lineRefs(order.lines) } : {}),
        dependsOn: [...(previous ? [previous] : []), ...('items' in payload ? this.#unsentMenuItems(patch.lines ?? []) : [])],
        resourceKey: `order:${id}`,
        now,
      });
      this.#audit(actor, kind, 'order', id, payload, now);
      return written;
    });
  }

  /**
   * Sends only what the cashier changed: the register hands over the whole order, and a customer
   * or lines sent unchanged would overwrite what another till changed meanwhile (/v1 has no
   * If-Match; docs/sync.md, "Two terminals, one order").
   */
  updateOrder(id: string, change: OrderChangeInput, { actor }: Actor): OrderDoc {
    const parsed = OrderChangeInput.parse(change);
    const current = this.#openOrder(id);
    const patch: Partial<OrderDoc> = {};
    const payload: Record<string, unknown> = {};
    if (parsed.lines && !isDeepStrictEqual(parsed.lines, current.lines)) {
      patch.lines = parsed.lines;
      patch.total = orderTotal(parsed.lines);
      // A line moved to another seat or course is the till's news only: the cloud's lines stay as they are.
      const items = lineRefs(parsed.lines);
      if (!isDeepStrictEqual(items, lineRefs(current.lines))) payload.items = items;
    }
    if (parsed.customer !== undefined && !isDeepStrictEqual(parsed.customer, current.customer)) {
      patch.customer = parsed.customer;
      payload.customer = parsed.customer;
    }
    if (parsed.notes !== undefined) patch.notes = parsed.notes;
    if (parsed.service !== undefined) patch.service = parsed.service;
    if (parsed.pricing !== undefined) patch.pricing = parsed.pricing;
    if (parsed.discount !== undefined) patch.discount = parsed.discount;
    if (parsed.checkTotal !== undefined) patch.check_total = parsed.checkTotal;
    if (parsed.split !== undefined) patch.split = parsed.split;
    if (parsed.courses !== undefined) patch.courses = parsed.courses;
    if (parsed.gratuity !== undefined) patch.gratuity = parsed.gratuity;
    const forCloud = payload.items !== undefined || payload.customer !== undefined || !isDeepStrictEqual(parsed.service ?? current.service, current.service) || !isDeepStrictEqual(parsed.checkTotal ?? current.check_total, current.check_total);
    if (forCloud && parsed.wire) Object.assign(payload, parsed.wire);
    // A change with nothing for the cloud (notes, the split) is still an operation: it keeps the
    // order's changes in sequence, and the engine sends no request for it (nothingToSend).
    return this.#orderOperation(id, 'order.update', payload, patch, actor);
  }

  fulfilOrder(id: string, { actor }: Actor): OrderDoc {
    return this.#orderOperation(id, 'order.fulfil', { status: 'fulfilled' }, { status: 'fulfilled' }, actor);
  }

  cancelOrder(id: string, { actor }: Actor): OrderDoc {
    return this.#orderOperation(id, 'order.cancel', { status: 'cancelled' }, { status: 'cancelled' }, actor);
  }

  /** Records a link between two checks; call inside the write's transaction (a second link of the same kind fails). */
  linkOrders(link: OrderLink): void {
    this.sql.runSql('INSERT INTO order_links (order_id, kind, other_id, staff_id, approved_by, reason, business_day, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      link.order_id,
      link.kind,
      link.other_id,
      link.staff_id,
      link.approved_by,
      link.reason,
      link.business_day,
      link.at,
    ]);
  }

  /** The linked check of a reopening, opened with its first additions; call inside the write's transaction. */
  setReopenedAs(orderId: string, linkedId: string): void {
    this.sql.runSql("UPDATE order_links SET other_id = ? WHERE order_id = ? AND kind = 'reopened_as' AND other_id IS NULL", [linkedId, orderId]);
  }

  /** The links from or to these checks. */
  linksOf(orderIds: readonly string[]): OrderLink[] {
    if (orderIds.length === 0) return [];
    const ids = JSON.stringify(orderIds);
    return this.sql.allSql<OrderLink>(
      'SELECT * FROM order_links WHERE order_id IN (SELECT value FROM json_each(?)) UNION SELECT * FROM order_links WHERE other_id IN (SELECT value FROM json_each(?))',
      [ids, ids],
    );
  }

  /** The links of one kind made on a business day, oldest first (the Z report's reopened checks). */
  linksOn(day: string, kind: OrderLink['kind']): OrderLink[] {
    return this.sql.allSql<OrderLink>('SELECT * FROM order_links WHERE business_day = ? AND kind = ? ORDER BY at, order_id', [day, kind]);
  }

  getOrder(id: string): OrderDoc | undefined {
    return this.layers.merged('order', id);
  }

  /** Orders in the merged view, newest first. */
  listOrders(filter: OrderListFilter = {}): OrderDoc[] {
    const f = OrderListFilter.parse(filter);
    let query = this.kysely.selectFrom('orders_merged').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset);
    if (f.status) query = query.where('status', '=', f.status);
    if (f.locationId) query = query.where('location_id', '=', f.locationId);
    if (f.createdFrom !== undefined) query = query.where('created_at', '>=', f.createdFrom);
    if (f.createdTo !== undefined) query = query.where('created_at', '<', f.createdTo);
    return this.sql.all(query).map((row) => this.layers.fromRow('order', row as unknown as Record<string, unknown>));
  }

  /**
   * Orders whose customer's name or number (any case, ASCII) or phone starts with `text`, newest first, in
   * the merged view. Two index range scans: the newest matches are picked from the covering
   * indexes (created_at is in them) before any order row is read, so the cost follows the number
   * of matching index entries, not of orders. Each entity has at most two rows (base, pending):
   * a window of twice the limit and a few more keeps a page whole.
   */
  searchOrders(text: string, limit = 50): OrderDoc[] {
    const rows = this.sql.allSql<Record<string, unknown>>(SEARCH_ORDERS_SQL, searchOrdersParameters(text, limit));
    return rows.map((row) => this.layers.fromRow('order', row));
  }

  // ---- payments and refunds ----

  /** `amount` is what the card is charged, tip included. */
  createPaymentIntent(orderId: string, amount: number, currency: string, { actor }: Actor, extras: PaymentExtras = {}): PaymentIntentDoc {
    if (!this.layers.merged('order', orderId)) throw new StoreError('not_found', `no order ${orderId}`);
    const now = this.clock.now();
    const id = extras.id ?? newId('pi_', now);
    const charged = z.number().int().positive().parse(amount);
    const tip = z.number().int().min(0).max(charged).parse(extras.tip ?? 0);
    const doc: PaymentIntentDoc = {
      id, order_id: orderId, amount: charged, tip, gratuity: gratuityWithin(tip, extras.gratuity), split_part: extras.splitPart ?? null, currency: Currency.parse(currency), status: 'authorized', created_at: now,
    };
    return this.transaction(() => {
      const orderOp = this.outbox.latestUnfinished('order', orderId);
      const written = this.outbox.enqueue({
        opId: newId('op_', now),
        entityKind: 'payment_intent',
        entityId: id,
        kind: 'payment_intent.create',
        payload: { order_id: orderId, amount: doc.amount, currency: doc.currency, ...(tip > 0 ? { tip_amount: tip } : {}) },
        patch: doc,
        dependsOn: orderOp ? [orderOp] : [],
        resourceKey: `payment_intent:${id}`,
        now,
      });
      this.#audit(actor, 'payment_intent.create', 'payment_intent', id, { order_id: orderId, amount: doc.amount, tip, gratuity: doc.gratuity, currency: doc.currency, split_part: doc.split_part }, now);
      return written;
    });
  }

  capturePaymentIntent(id: string, { actor }: Actor): PaymentIntentDoc {
    return this.transaction(() => {
      const intent = this.layers.merged('payment_intent', id);
      if (!intent) throw new StoreError('not_found', `no payment intent ${id}`);
      if (intent.status === 'captured') throw new StoreError('conflict', `payment intent ${id} is already captured`);
      const now = this.clock.now();
      const previous = this.outbox.latestUnfinished('payment_intent', id);
      const written = this.outbox.enqueue({
        opId: newId('op_', now),
        entityKind: 'payment_intent',
        entityId: id,
        kind: 'payment_intent.capture',
        payload: {},
        patch: { status: 'captured' },
        dependsOn: previous ? [previous] : [],
        resourceKey: `payment_intent:${id}`,
        now,
      });
      this.#audit(actor, 'payment_intent.capture', 'payment_intent', id, { amount: intent.amount }, now);
      return written;
    });
  }

  /** Cash is settled at the till: it goes straight to the confirmed layer and has no /v1 operation. */
  /** `amount` is what the drawer takes, tip included. */
  recordCashPayment(orderId: string, amount: number, currency: string, { actor }: Actor, extras: PaymentExtras = {}): PaymentDoc {
    return this.transaction(() => {
      if (!this.layers.merged('order', orderId)) throw new StoreError('not_found', `no order ${orderId}`);
      const now = this.clock.now();
      const taken = z.number().int().positive().parse(amount);
      const tip = z.number().int().min(0).max(taken).parse(extras.tip ?? 0);
      const doc: PaymentDoc = {
        id: extras.id ?? newId('pay_', now),
        order_id: orderId,
        payment_intent_id: null,
        method: 'cash',
        amount: taken,
        currency: Currency.parse(currency),
        status: 'succeeded',
        created_at: now,
        tip,
        gratuity: gratuityWithin(tip, extras.gratuity),
        split_part: extras.splitPart ?? null,
      };
      this.layers.write('payment', doc, 'base');
      this.outbox.settledAtTill('payment', doc.id, now);
      this.#audit(actor, 'payment.cash', 'payment', doc.id, { order_id: orderId, amount: doc.amount, tip: doc.tip, gratuity: doc.gratuity, currency: doc.currency, split_part: doc.split_part }, now);
      return doc;
    });
  }

  getPayment(id: string): PaymentDoc | undefined {
    return this.layers.merged('payment', id);
  }

  getPaymentIntent(id: string): PaymentIntentDoc | undefined {
    return this.layers.merged('payment_intent', id);
  }

  /** Ids of the entities of `table` whose `column` is one of `values` (each id once, any layer). */
  #idsWhere(table: 'payment_intents' | 'payments' | 'refunds', column: string, values: readonly string[]): string[] {
    if (values.length === 0) return [];
    const marks = values.map(() => '?').join(', ');
    return this.sql.allSql<{ id: string }>(`SELECT DISTINCT id FROM ${table} WHERE ${column} IN (${marks}) ORDER BY id`, values).map((r) => r.id);
  }

  /** Payment intents, payments and their refunds of the given orders, in the merged view. */
  paymentsOfOrders(orderIds: readonly string[]): { intents: PaymentIntentDoc[]; payments: PaymentDoc[]; refunds: RefundDoc[] } {
    const merged = <K extends 'payment_intent' | 'payment' | 'refund'>(kind: K, ids: string[]) =>
      ids.map((id) => this.layers.merged(kind, id)).filter((d): d is NonNullable<typeof d> => d !== undefined);
    const intents = merged('payment_intent', this.#idsWhere('payment_intents', 'order_id', orderIds)).filter((i) => orderIds.includes(i.order_id));
    const payments = merged('payment', this.#idsWhere('payments', 'order_id', orderIds)).filter((p) => orderIds.includes(p.order_id));
    const paymentIds = payments.map((p) => p.id);
    const refunds = merged('refund', this.#idsWhere('refunds', 'payment_id', paymentIds)).filter((r) => paymentIds.includes(r.payment_id));
    return { intents, payments, refunds };
  }

  /** The card payment a captured intent produced, once the server has reported it. */
  cardPaymentForIntent(intentId: string): PaymentDoc | undefined {
    const [id] = this.#idsWhere('payments', 'payment_intent_id', [intentId]);
    return id === undefined ? undefined : this.layers.merged('payment', id);
  }

  #refundsOf(paymentId: string): RefundDoc[] {
    const ids = this.sql.allSql<{ id: string }>(`SELECT DISTINCT id FROM refunds WHERE payment_id = ?`, [paymentId]);
    return ids.map(({ id }) => this.layers.merged('refund', id)).filter((r): r is RefundDoc => r !== undefined);
  }

  refundsOf(paymentId: string): RefundDoc[] {
    return this.#refundsOf(paymentId);
  }

  getRefund(id: string): RefundDoc | undefined {
    return this.layers.merged('refund', id);
  }

  /**
   * A full or partial refund, never more than what is left of the payment. Card refunds go to the
   * server ('refund.create'); cash refunds leave the drawer now and are confirmed at once. The
   * cashier's words (`note`) stay here: the cloud is told the reason only.
   */
  createRefund(paymentId: string, amount: number, reason: string, { actor }: Actor, items: RefundDoc['items'] = [], note: string | null = null): RefundDoc {
    return this.transaction(() => {
      const payment = this.layers.merged('payment', paymentId);
      if (!payment) throw new StoreError('not_found', `no payment ${paymentId}`);
      const refunded = this.#refundsOf(paymentId).reduce((sum, r) => sum + r.amount, 0);
      const wanted = z.number().int().positive().parse(amount);
      if (refunded + wanted > payment.amount) {
        throw new StoreError('conflict', `payment ${paymentId} has ${payment.amount - refunded} left to refund, not ${wanted}`);
      }
      const now = this.clock.now();
      const doc: RefundDoc = {
        id: newId('re_', now),
        payment_id: paymentId,
        amount: wanted,
        currency: payment.currency,
        reason: z.string().min(1).parse(reason),
        status: payment.method === 'cash' ? 'succeeded' : 'pending',
        created_at: now,
        items,
        note: note === null || note.trim() === '' ? null : note.trim(),
      };
      let written = doc;
      if (payment.method === 'cash') {
        this.layers.write('refund', doc, 'base');
        this.outbox.settledAtTill('refund', doc.id, now);
      } else {
        written = this.outbox.enqueue({
          opId: newId('op_', now),
          entityKind: 'refund',
          entityId: doc.id,
          kind: 'refund.create',
          payload: { payment_id: paymentId, amount: wanted, reason: doc.reason },
          patch: doc,
          dependsOn: [],
          resourceKey: `payment:${paymentId}`,
          now,
        });
      }
      this.#audit(actor, 'refund.create', 'refund', doc.id, { payment_id: paymentId, amount: wanted, reason: doc.reason, note: doc.note, items }, now);
      return written;
    });
  }

  // ---- menu ----

  /** The menu as the cashier sees it: categories, modifiers and the items of a location (or of every location). */
  listMenu(locationId?: string): { categories: CategoryDoc[]; modifiers: ModifierDoc[]; items: MenuItemDoc[] } {
    let items = this.kysely.selectFrom('menu_items_merged').selectAll().where('deleted', '=', 0).orderBy('name');
    if (locationId !== undefined) items = items.where((eb) => eb.or([eb('location_id', '=', locationId), eb('location_id', 'is', null)]));
    const ids = (table: string) => this.sql.allSql<{ id: string }>(`SELECT DISTINCT id FROM ${table}`, []).map((r) => r.id);
    return {
      categories: ids('categories')
        .map((id) => this.layers.merged('category', id))
        .filter((c): c is CategoryDoc => c !== undefined)
        .sort((a, b) => a.position - b.position),
      modifiers: ids('modifiers').map((id) => this.layers.merged('modifier', id)).filter((m): m is ModifierDoc => m !== undefined),
      items: this.sql.all(items).map((row) => this.layers.fromRow('menu_item', row as unknown as Record<string, unknown>)),
    };
  }

  getMenuItem(id: string): MenuItemDoc | undefined {
    const item = this.layers.merged('menu_item', id);
    return item && !item.deleted ? item : undefined;
  }

  /** The item on the menu that has this barcode or PLU, if any. */
  menuItemWithBarcode(barcode: string): MenuItemDoc | undefined {
    const row = this.sql.first(this.kysely.selectFrom('menu_items_merged').selectAll().where('barcode', '=', barcode).where('deleted', '=', 0).limit(1));
    return row ? this.layers.fromRow('menu_item', row as unknown as Record<string, unknown>) : undefined;
  }

  /** A scan must name one item: a code already on another item is refused. Call inside the write's transaction. */
  #requireFreeBarcode(barcode: string | null | undefined, itemId: string): void {
    if (barcode == null) return;
    const holder = this.menuItemWithBarcode(barcode);
    if (holder && holder.id !== itemId) throw new StoreError('conflict', `barcode ${barcode} is already on menu item ${holder.id}`);
  }

  createMenuItem(input: NewMenuItemInput, { actor }: Actor): MenuItemDoc {
    const item = NewMenuItemInput.parse(input);
    const now = this.clock.now();
    const id = newId('mi_', now);
    const doc: MenuItemDoc = {
      id,
      location_id: item.locationId,
      category_id: item.categoryId,
      name: item.name,
      description: item.description,
      price: item.price,
      currency: item.currency,
      available: item.available,
      low_stock: false,
      modifier_ids: item.modifierIds,
      deleted: false,
      barcode: item.barcode,
      tax_class: null,
      modifier_groups: [],
    };
    return this.transaction(() => {
      this.#requireFreeBarcode(doc.barcode, id);
      const written = this.outbox.enqueue({
        opId: newId('op_', now),
        entityKind: 'menu_item',
        entityId: id,
        kind: 'menu_item.create',
        payload: { name: doc.name, price: doc.price, category_id: doc.category_id, description: doc.description, available: doc.available },
        patch: doc,
        dependsOn: [],
        resourceKey: `menu_item:${id}`,
        now,
      });
      this.#audit(actor, 'menu_item.create', 'menu_item', id, { name: doc.name, price: doc.price }, now);
      return written;
    });
  }

  #menuItemOperation(id: string, kind: 'menu_item.update' | 'menu_item.delete', payload: Record<string, unknown>, patch: Partial<MenuItemDoc>, actor: string): MenuItemDoc {
    return this.transaction(() => {
      if (!this.getMenuItem(id)) throw new StoreError('not_found', `no menu item ${id}`);
      const now = this.clock.now();
      const previous = this.outbox.latestUnfinished('menu_item', id);
      const written = this.outbox.enqueue({
        opId: newId('op_', now),
        entityKind: 'menu_item',
        entityId: id,
        kind,
        payload,
        patch,
        dependsOn: previous ? [previous] : [],
        resourceKey: `menu_item:${id}`,
        now,
      });
      this.#audit(actor, kind, 'menu_item', id, patch, now);
      return written;
    });
  }

  /** Name, price, description, category, available ("86"), and the terminal's own low-stock flag and barcode / PLU. */
  updateMenuItem(id: string, change: MenuItemChangeInput, { actor }: Actor): MenuItemDoc {
    const c = MenuItemChangeInput.parse(change);
    const patch: Partial<MenuItemDoc> = {};
    if (c.name !== undefined) patch.name = c.name;
    if (c.description !== undefined) patch.description = c.description;
    if (c.price !== undefined) patch.price = c.price;
    if (c.categoryId !== undefined) patch.category_id = c.categoryId;
    if (c.available !== undefined) patch.available = c.available;
    if (c.lowStock !== undefined) patch.low_stock = c.lowStock;
    if (c.barcode !== undefined) patch.barcode = c.barcode;
    // low_stock and barcode are the terminal's own: in the patch, not in the /v1 body.
    const { low_stock: _lowStock, barcode: _barcode, ...payload } = patch;
    return this.transaction(() => {
      this.#requireFreeBarcode(c.barcode, id);
      if (Object.keys(payload).length > 0) return this.#menuItemOperation(id, 'menu_item.update', payload, patch, actor);
      // Nothing for the cloud (a PATCH without fields, which a server may refuse and so undo the change).
      if (!this.getMenuItem(id)) throw new StoreError('not_found', `no menu item ${id}`);
      this.outbox.setTillOnlyFields('menu_item', id, patch);
      this.#audit(actor, 'menu_item.update', 'menu_item', id, patch, this.clock.now());
      return this.getMenuItem(id) as MenuItemDoc;
    });
  }

  /** "86" an item (sold out) or bring it back. */
  setAvailable(id: string, available: boolean, who: Actor): MenuItemDoc {
    return this.updateMenuItem(id, { available }, who);
  }

  deleteMenuItem(id: string, { actor }: Actor): void {
    this.#menuItemOperation(id, 'menu_item.delete', {}, { deleted: true }, actor);
  }

  // ---- locations ----

  getLocation(id: string): LocationDoc | undefined {
    return this.layers.merged('location', id);
  }

  listLocations(): LocationDoc[] {
    const ids = this.sql.allSql<{ id: string }>('SELECT DISTINCT id FROM locations ORDER BY id', []);
    return ids.map(({ id }) => this.layers.merged('location', id)).filter((l): l is LocationDoc => l !== undefined);
  }

  updateLocation(id: string, change: LocationChangeInput, { actor }: Actor): LocationDoc {
    const patch = LocationChangeInput.parse(change);
    return this.transaction(() => {
      if (!this.layers.merged('location', id)) throw new StoreError('not_found', `no location ${id}`);
      const now = this.clock.now();
      const previous = this.outbox.latestUnfinished('location', id);
      const written = this.outbox.enqueue({
        opId: newId('op_', now),
        entityKind: 'location',
        entityId: id,
        kind: 'location.update',
        payload: patch,
        patch,
        dependsOn: previous ? [previous] : [],
        resourceKey: `location:${id}`,
        now,
      });
      this.#audit(actor, 'location.update', 'location', id, patch, now);
      return written;
    });
  }

  // ---- settings ----

  getSetting<T>(key: string, schema: z.ZodType<T>): T | undefined {
    const row = this.sql.first(this.kysely.selectFrom('settings').select('value').where('key', '=', key));
    return row ? schema.parse(JSON.parse(row.value)) : undefined;
  }

  setSetting(key: string, value: unknown, { actor }: Actor): void {
    const now = this.clock.now();
    const text = JSON.stringify(value);
    this.transaction(() => {
      this.sql.run(
        this.kysely
          .insertInto('settings')
          .values({ key, value: text, updated_at: now })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: text, updated_at: now })),
      );
      this.#audit(actor, 'setting.set', null, null, { key }, now);
    });
  }
}
