// GET/POST /orders, GET/PATCH /orders/{id}, and the checkout arithmetic the sandbox checks (the
// till computes discounts and tax; the sandbox checks they fit the order and adds them up).
import type { MenuItem, ModifierGroup, Order, OrderDiscount, Payment } from '../../api/records';
import type { CreateOrderRequest, DiscountInput, ListOrdersQuery, PatchOrderRequest } from '../../api/requests';
import { newId } from '../../common/ids';
import { iso, type OpContext, type OpResult } from '../context';
import { ApiError } from '../http';
import { envelopeOfDocs, pageRequest, pageSlice } from '../paginate';
import type { Tx } from '../storage';
import { findLocation } from './locations';
import { consumeStock, findMenuItem } from './menu';

type LineInput = CreateOrderRequest['items'][number];

export async function findOrder(tx: Tx, id: string): Promise<Order | undefined> {
  const row = await tx.selectFrom('orders').select('doc').where('id', '=', id).executeTakeFirst();
  return row ? (JSON.parse(row.doc) as Order) : undefined;
}

export async function saveOrder(tx: Tx, order: Order): Promise<void> {
  await tx.updateTable('orders').set({ status: order.status, doc: JSON.stringify(order) }).where('id', '=', order.id).execute();
}

/** What one payment holds: its authorized amount, or what was captured and not refunded. */
function heldBy(p: Payment): number {
  return p.status === 'authorized' ? p.amount : p.amount_captured - p.amount_refunded;
}

/**
 * What the order's payments hold towards its total: each payment's held amount less its tip
 * (never below 0). Tips are on top of the total, so they never use up what is left to pay.
 */
export function heldTowardsTotal(payments: readonly Payment[]): number {
  return payments.reduce((sum, p) => sum + Math.max(0, heldBy(p) - p.tip_amount), 0);
}

export async function paymentsOf(tx: Tx, orderId: string): Promise<Payment[]> {
  const rows = await tx.selectFrom('payments').select('doc').where('order_id', '=', orderId).orderBy('created_at').execute();
  return rows.map((r) => JSON.parse(r.doc) as Payment);
}

function choices(n: number): string {
  return `${n} choice${n === 1 ? '' : 's'}`;
}

/** "needs exactly 1 choice", "allows at most 3 choices"… */
function groupRule(group: ModifierGroup): string {
  if (group.max_choices === null) return `needs at least ${choices(group.min_choices)}`;
  if (group.min_choices === group.max_choices) return `needs exactly ${choices(group.min_choices)}`;
  if (group.min_choices === 0) return `allows at most ${choices(group.max_choices)}`;
  return `needs ${group.min_choices} to ${group.max_choices} choices`;
}

/** Fewer than min_choices or more than max_choices of a group's modifiers is an invalid_request naming the group. */
function checkModifierGroups(item: MenuItem, chosen: readonly string[], index: number): void {
  const param = `items.${index}.modifiers`;
  for (const group of item.modifier_groups) {
    const count = chosen.filter((id) => group.modifier_ids.includes(id)).length;
    if (count < group.min_choices || (group.max_choices !== null && count > group.max_choices)) {
      throw new ApiError('invalid_request', `${param}: ${group.name} ${groupRule(group)} (${count} chosen)`, { param });
    }
  }
}

/**
 * Turns requested lines into priced lines, checking every reference against the menu, and the
 * items' modifier groups unless `groups` is false (spec-minimal knows no groups).
 */
async function priceLines(
  tx: Tx,
  locationId: string,
  lines: readonly LineInput[],
  nowMs: number,
  groups: boolean,
): Promise<{ items: Order['items']; menu: Map<string, MenuItem> }> {
  const priced: Order['items'] = [];
  const menu = new Map<string, MenuItem>();
  for (const [index, line] of lines.entries()) {
    const param = `items.${index}.menu_item_id`;
    const item = menu.get(line.menu_item_id) ?? (await findMenuItem(tx, line.menu_item_id));
    if (!item) throw new ApiError('invalid_request', `${param}: no menu item ${line.menu_item_id}`, { param });
    menu.set(item.id, item);
    if (!item.available) throw new ApiError('invalid_request', `${param}: ${item.name} is not available`, { param });
    if (item.location_id !== null && item.location_id !== locationId) {
      throw new ApiError('invalid_request', `${param}: ${item.name} is not sold at ${locationId}`, { param });
    }
    const modifiers = (line.modifiers ?? []).map((modifierId, m) => {
      const found = item.modifiers.find((mod) => mod.id === modifierId);
      if (!found) {
        const modParam = `items.${index}.modifiers.${m}`;
        throw new ApiError('invalid_request', `${modParam}: ${modifierId} is not a modifier of ${item.id}`, { param: modParam });
      }
      return { id: found.id, name: found.name, price: found.price };
    });
    if (groups) checkModifierGroups(item, line.modifiers ?? [], index);
    const price = item.price + modifiers.reduce((sum, m) => sum + m.price, 0);
    priced.push({ id: newId('li_', nowMs), menu_item_id: item.id, name: item.name, quantity: line.quantity, price, modifiers, note: line.note ?? '' });
  }
  return { items: priced, menu };
}

function subtotalOf(lines: Order['items']): number {
  return lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
}

function toDiscounts(input: readonly DiscountInput[]): OrderDiscount[] {
  return input.map((d) => ({ reason: d.reason, amount: d.amount, line: d.line ?? null }));
}

/** The money fields of an order, from its lines, discounts and the till's tax. */
type Money = Pick<Order, 'subtotal' | 'discounts' | 'discount_total' | 'tax_total' | 'tax_included' | 'total'>;

/**
 * Checks the till's discounts and tax against the lines and adds them up. `kept` says the
 * discounts were not sent in this request but kept from before (the message then says so).
 */
function checkout(items: Order['items'], discounts: OrderDiscount[], tax: { tax_total: number; tax_included: boolean }, kept: boolean): Money {
  const subtotal = subtotalOf(items);
  const onLine = new Map<number, number>();
  for (const [i, discount] of discounts.entries()) {
    if (discount.line === null) continue;
    const line = items[discount.line];
    if (!line) {
      const param = `discounts.${i}.line`;
      throw new ApiError('invalid_request', `${param}: the order has ${items.length} line${items.length === 1 ? '' : 's'} (0 to ${items.length - 1}), not ${discount.line}`, { param });
    }
    const sum = (onLine.get(discount.line) ?? 0) + discount.amount;
    onLine.set(discount.line, sum);
    if (sum > line.price * line.quantity) {
      const param = `discounts.${i}.amount`;
      throw new ApiError('invalid_request', `${param}: the discounts on line ${discount.line} come to ${sum}, more than the line's ${line.price * line.quantity}`, { param });
    }
  }
  const discountTotal = discounts.reduce((sum, d) => sum + d.amount, 0);
  if (discountTotal > subtotal) {
    const why = kept ? ' (kept from before the lines changed: send discounts again with the new items)' : '';
    throw new ApiError('invalid_request', `discounts: they come to ${discountTotal}, more than the subtotal ${subtotal}${why}`, { param: 'discounts' });
  }
  const net = subtotal - discountTotal;
  if (tax.tax_included && tax.tax_total > net) {
    throw new ApiError('invalid_request', `tax_total: ${tax.tax_total} of tax included in the prices is more than the ${net} they come to after discounts`, { param: 'tax_total' });
  }
  return {
    subtotal,
    discounts,
    discount_total: discountTotal,
    tax_total: tax.tax_total,
    tax_included: tax.tax_included,
    total: net + (tax.tax_included ? 0 : tax.tax_total),
  };
}

function quantities(lines: Order['items'], sign: 1 | -1, into = new Map<string, number>()): Map<string, number> {
  for (const line of lines) into.set(line.menu_item_id, (into.get(line.menu_item_id) ?? 0) + sign * line.quantity);
  return into;
}

function toCustomer(input: CreateOrderRequest['customer'] | null | undefined): Order['customer'] {
  return input ? { name: input.name ?? null, phone: input.phone ?? null } : null;
}

export async function listOrders(ctx: OpContext): Promise<OpResult> {
  const query = ctx.query as ListOrdersQuery;
  const page = pageRequest(query, ctx.quirks);
  let base = ctx.tx.selectFrom('orders');
  if (query.location_id !== undefined) base = base.where('location_id', '=', query.location_id);
  if (query.status !== undefined) base = base.where('status', '=', query.status);
  if (query.created_after !== undefined) base = base.where('created_at', '>', query.created_after);
  if (query.created_before !== undefined) base = base.where('created_at', '<', query.created_before);
  const { count } = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const slice = pageSlice(page, Number(count));
  const direction = ctx.quirks.newest_first ? 'desc' : 'asc';
  const rows = await base.select('doc').orderBy('created_at', direction).orderBy('id', direction).limit(slice.limit).offset(slice.offset).execute();
  return { status: 200, body: envelopeOfDocs(rows.map((r) => r.doc), Number(count), page, ctx.requestUrl) };
}

export async function getOrder(ctx: OpContext): Promise<OpResult> {
  const order = await findOrder(ctx.tx, ctx.id);
  if (!order) throw new ApiError('not_found', `no order ${ctx.id}`);
  return { status: 200, body: order };
}

export async function createOrder(ctx: OpContext): Promise<OpResult> {
  const body = ctx.body as CreateOrderRequest;
  const location = await findLocation(ctx.tx, body.location_id);
  if (!location) throw new ApiError('invalid_request', `location_id: no location ${body.location_id}`, { param: 'location_id' });
  if (location.status !== 'active') throw new ApiError('invalid_state', `location ${location.id} is inactive and takes no orders`, { param: 'location_id' });
  const now = ctx.clock.now();
  // spec-minimal dropped the checkout fields before this point: the defaults apply.
  const { items, menu } = await priceLines(ctx.tx, location.id, body.items, now, ctx.profile === 'default');
  const money = checkout(items, toDiscounts(body.discounts ?? []), { tax_total: body.tax_total ?? 0, tax_included: body.tax_included ?? false }, false);
  const order: Order = {
    id: newId('ord_', now),
    object: 'order',
    location_id: location.id,
    status: 'open',
    items,
    customer: toCustomer(body.customer),
    order_number: body.order_number ?? null,
    order_type: body.order_type ?? null,
    table: body.table ?? null,
    guests: body.guests ?? null,
    channel: 'pos',
    subtotal: money.subtotal,
    discounts: money.discounts,
    discount_total: money.discount_total,
    tax_total: money.tax_total,
    tax_included: money.tax_included,
    total: money.total,
    currency: location.currency,
    amount_paid: 0,
    metadata: body.metadata ?? {},
    created_at: iso(now),
    updated_at: iso(now),
    fulfilled_at: null,
    cancelled_at: null,
  };
  await ctx.tx.insertInto('orders').values({ id: order.id, location_id: order.location_id, status: order.status, created_at: now, doc: JSON.stringify(order) }).execute();
  await ctx.emit('order.created', { id: order.id, type: 'order', attributes: order });
  await consumeStock(ctx, quantities(items, 1), menu);
  return { status: 201, body: order };
}

export async function updateOrder(ctx: OpContext): Promise<OpResult> {
  const order = await findOrder(ctx.tx, ctx.id);
  if (!order) throw new ApiError('not_found', `no order ${ctx.id}`);
  if (order.status !== 'open') throw new ApiError('invalid_state', `order ${order.id} is ${order.status}: only open orders can be modified`);
  const patch = ctx.body as PatchOrderRequest;
  const checkoutRules = ctx.profile === 'default';
  const now = ctx.clock.now();
  let updated: Order = { ...order, updated_at: iso(now) };
  let consumed: Map<string, number> | undefined;
  let menu = new Map<string, MenuItem>();
  let items = order.items;
  if (patch.items !== undefined) {
    const priced = await priceLines(ctx.tx, order.location_id, patch.items, now, checkoutRules);
    items = priced.items;
    menu = priced.menu;
    consumed = quantities(items, 1, quantities(order.items, -1));
  }
  // Fields not sent keep their value; new lines drop the line discounts (their indexes meant the old lines).
  let discounts = patch.discounts !== undefined ? toDiscounts(patch.discounts) : patch.items !== undefined ? order.discounts.filter((d) => d.line === null) : order.discounts;
  let tax = { tax_total: patch.tax_total ?? order.tax_total, tax_included: patch.tax_included ?? order.tax_included };
  // spec-minimal knows no checkout: new lines make the total Σ price × quantity again.
  if (!checkoutRules && patch.items !== undefined) {
    discounts = [];
    tax = { tax_total: 0, tax_included: false };
  }
  const moneyFields = (['items', 'discounts', 'tax_total', 'tax_included'] as const).filter((f) => patch[f] !== undefined);
  if (moneyFields.length > 0) {
    const money = checkout(items, discounts, tax, patch.discounts === undefined && patch.items !== undefined);
    // spec-minimal does not cap payments, so it cannot refuse a total below them either.
    const held = checkoutRules ? heldTowardsTotal(await paymentsOf(ctx.tx, order.id)) : 0;
    if (money.total < held) {
      throw new ApiError('invalid_state', `the new total ${money.total} is below the ${held} its payments already hold`, { param: moneyFields[0] as string });
    }
    updated = { ...updated, items, ...money };
  }
  if (patch.customer !== undefined) updated.customer = toCustomer(patch.customer);
  if (patch.metadata !== undefined) updated.metadata = patch.metadata;
  if (patch.order_number !== undefined) updated.order_number = patch.order_number;
  if (patch.order_type !== undefined) updated.order_type = patch.order_type;
  if (patch.table !== undefined) updated.table = patch.table;
  if (patch.guests !== undefined) updated.guests = patch.guests;
  const changedOtherThanStatus = (Object.keys(patch) as (keyof PatchOrderRequest)[]).some((field) => field !== 'status' && patch[field] !== undefined);
  if (patch.status === 'fulfilled') updated = { ...updated, status: 'fulfilled', fulfilled_at: iso(now) };
  if (patch.status === 'cancelled') updated = { ...updated, status: 'cancelled', cancelled_at: iso(now) };
  await saveOrder(ctx.tx, updated);
  if (changedOtherThanStatus) {
    // The event shows the order as it was after the field changes, before any status change.
    const fieldsOnly = patch.status ? { ...updated, status: 'open' as const, fulfilled_at: null, cancelled_at: null } : updated;
    await ctx.emit('order.updated', { id: updated.id, type: 'order', attributes: fieldsOnly });
  }
  if (patch.status) await ctx.emit(patch.status === 'fulfilled' ? 'order.fulfilled' : 'order.cancelled', { id: updated.id, type: 'order', attributes: updated });
  if (consumed) await consumeStock(ctx, consumed, menu);
  return { status: 200, body: updated };
}
