// GET/POST /orders, GET/PATCH /orders/{id}.
import type { MenuItem, Order, Payment } from '../../api/records';
import type { CreateOrderRequest, ListOrdersQuery, PatchOrderRequest } from '../../api/requests';
import { newId } from '../../common/ids';
import { iso, type OpContext, type OpResult } from '../context';
import { ApiError } from '../http';
import { envelopeOfDocs, pageRequest } from '../paginate';
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

/** What the order's payments hold: authorized amounts plus captured-not-refunded amounts. */
export function heldAmount(payments: readonly Payment[]): number {
  return payments.reduce((sum, p) => sum + (p.status === 'authorized' ? p.amount : p.amount_captured - p.amount_refunded), 0);
}

export async function paymentsOf(tx: Tx, orderId: string): Promise<Payment[]> {
  const rows = await tx.selectFrom('payments').select('doc').where('order_id', '=', orderId).orderBy('created_at').execute();
  return rows.map((r) => JSON.parse(r.doc) as Payment);
}

/** Turns requested lines into priced lines, checking every reference against the menu. */
async function priceLines(tx: Tx, locationId: string, lines: readonly LineInput[], nowMs: number): Promise<{ items: Order['items']; menu: Map<string, MenuItem> }> {
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
    const price = item.price + modifiers.reduce((sum, m) => sum + m.price, 0);
    priced.push({ id: newId('li_', nowMs), menu_item_id: item.id, name: item.name, quantity: line.quantity, price, modifiers });
  }
  return { items: priced, menu };
}

function totalOf(lines: Order['items']): number {
  return lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
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
  const page = pageRequest(query);
  let base = ctx.tx.selectFrom('orders');
  if (query.location_id !== undefined) base = base.where('location_id', '=', query.location_id);
  if (query.status !== undefined) base = base.where('status', '=', query.status);
  if (query.created_after !== undefined) base = base.where('created_at', '>', query.created_after);
  if (query.created_before !== undefined) base = base.where('created_at', '<', query.created_before);
  const { count } = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const rows = await base.select('doc').orderBy('created_at').orderBy('id').limit(page.perPage).offset(page.offset).execute();
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
  const { items, menu } = await priceLines(ctx.tx, location.id, body.items, now);
  const order: Order = {
    id: newId('ord_', now),
    object: 'order',
    location_id: location.id,
    status: 'open',
    items,
    customer: toCustomer(body.customer),
    total: totalOf(items),
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
  const now = ctx.clock.now();
  let updated: Order = { ...order, updated_at: iso(now) };
  let consumed: Map<string, number> | undefined;
  let menu = new Map<string, MenuItem>();
  if (patch.items !== undefined) {
    const priced = await priceLines(ctx.tx, order.location_id, patch.items, now);
    const items = priced.items;
    menu = priced.menu;
    const total = totalOf(items);
    const held = heldAmount(await paymentsOf(ctx.tx, order.id));
    if (total < held) throw new ApiError('invalid_state', `the new total ${total} is below the ${held} its payments already hold`, { param: 'items' });
    consumed = quantities(items, 1, quantities(order.items, -1));
    updated = { ...updated, items, total };
  }
  if (patch.customer !== undefined) updated.customer = toCustomer(patch.customer);
  if (patch.metadata !== undefined) updated.metadata = patch.metadata;
  const changedOtherThanStatus = patch.items !== undefined || patch.customer !== undefined || patch.metadata !== undefined;
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
