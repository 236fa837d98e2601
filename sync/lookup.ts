// "Did my POST land?" After an ambiguous failure (timeout, reset, 5xx after sending, or an
// operation found in flight after a crash) the engine never re-POSTs blindly: it first looks for
// the record the attempt may have created. Orders carry our operation id in metadata, which
// settles it when the server keeps metadata; otherwise the content decides (location, lines,
// quantities, modifiers, customer), skipping orders already linked to another local order.
import { clientListEnvelopeSchema, clientMenuItemSchema, clientOrderSchema, type ClientMenuItem, type ClientOrder } from '../api/client-records';
import type { OutboxOperation, Store } from '../store/index';
import type { ApiClient } from './api-client';
import { ApiError } from './api-error';
import { hasMorePages } from './pages';
import { ORDER_METADATA, metadataString } from './server-records';

const OrderPage = clientListEnvelopeSchema(clientOrderSchema);
const MenuItemPage = clientListEnvelopeSchema(clientMenuItemSchema);

export interface LookupWindow {
  /** Server clocks differ from ours: widen the created_at window by this much on both sides. */
  clockSkewMs: number;
  /** Upper bound on pages read per lookup, so one lookup cannot page through a whole history. */
  maxPages: number;
  /**
   * A request we gave up on (timeout, connection lost while waiting) may still be running on the
   * server. Looking before it has finished would find nothing and resend it: the lookup waits
   * this long after such an attempt (at least the server's own processing limit).
   */
  settleMs: number;
}

type Line = { menu_item_id: string; quantity: number; modifiers: string[] };

function normaliseLines(items: readonly { menu_item_id?: unknown; quantity?: unknown; modifiers?: readonly unknown[] }[]): string {
  const lines: Line[] = items.map((item) => ({
    menu_item_id: String(item.menu_item_id ?? ''),
    quantity: Number(item.quantity),
    modifiers: (item.modifiers ?? []).map((m) => (typeof m === 'string' ? m : String((m as { id?: unknown }).id ?? ''))).sort(),
  }));
  return JSON.stringify(lines);
}

function normaliseCustomer(customer: unknown): string {
  if (customer == null || typeof customer !== 'object') return '{}';
  const c = customer as { name?: unknown; phone?: unknown };
  const clean = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);
  return JSON.stringify({ name: clean(c.name), phone: clean(c.phone) });
}

/** Whether a server order is the one `body` (the POST we sent, in server ids) would have created. */
export function orderMatchesRequest(order: ClientOrder, body: Record<string, unknown>): boolean {
  if (order.location_id !== undefined && order.location_id !== body.location_id) return false;
  if (order.items === undefined) return false;
  if (normaliseLines(order.items) !== normaliseLines(body.items as Line[])) return false;
  return normaliseCustomer(order.customer) === normaliseCustomer(body.customer);
}

/**
 * The look could not read every page the server has for the window: not finding the record there
 * proves nothing, so the operation is not sent again (it stays ambiguous and is looked for later).
 */
function unfinished(what: string, maxPages: number): ApiError {
  return new ApiError('server', `could not finish looking for the ${what} an earlier attempt may have created: the cloud lists more than ${maxPages} pages in the window`);
}

/** A links.next under our base URL, as a path the client can call; null for another host (then pages are numbered). */
function linkUnder(baseUrl: string, next: string | null | undefined): string | null {
  if (!next || !next.startsWith(`${baseUrl}/`)) return null;
  return next.slice(baseUrl.length);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Looks for the order an earlier attempt of `op` may have created. Returns it, or null when the
 * server has no such order (then sending again is safe).
 */
export async function findCreatedOrder(
  api: ApiClient,
  store: Store,
  op: OutboxOperation,
  body: Record<string, unknown>,
  /** When the first attempt whose outcome is unknown was made: nothing of ours is older. */
  sinceMs: number,
  nowMs: number,
  window: LookupWindow,
): Promise<ClientOrder | null> {
  let contentMatch: ClientOrder | null = null;
  const query = {
    location_id: typeof body.location_id === 'string' ? body.location_id : undefined,
    created_after: iso(sinceMs - window.clockSkewMs),
    created_before: iso(nowMs + window.clockSkewMs),
    per_page: 100,
  };
  for (let page = 1, link: string | null = null; ; page++) {
    if (page > window.maxPages) throw unfinished('order', window.maxPages);
    const { data } = await api.call(link === null ? { method: 'GET', path: '/orders', query: { ...query, page }, schema: OrderPage } : { method: 'GET', path: link, schema: OrderPage });
    for (const order of data.data) {
      const taggedOp = metadataString(order, ORDER_METADATA.operationId);
      if (taggedOp === op.opId) return order; // our own operation id: certain
      if (taggedOp !== undefined) continue; // another operation's order, whatever it contains
      if (contentMatch !== null || !orderMatchesRequest(order, body)) continue;
      const owner = store.localIdFor('order', order.id);
      // Linked to another local order (or seen from another channel and claimed): not ours.
      if (owner !== undefined && owner !== op.entityId && owner !== order.id) continue;
      contentMatch = order;
    }
    // On while the server says there is more, whatever this page's length or order.
    if (!hasMorePages(data, page)) break;
    link = linkUnder(api.baseUrl, data.links?.next);
  }
  return contentMatch;
}

/** Same question for a menu item: name, price, category and location identify it. */
export async function findCreatedMenuItem(
  api: ApiClient,
  store: Store,
  op: OutboxOperation,
  body: Record<string, unknown>,
  sinceMs: number,
  window: LookupWindow,
): Promise<ClientMenuItem | null> {
  const locationId = typeof body.location_id === 'string' ? body.location_id : undefined;
  for (let page = 1, link: string | null = null; ; page++) {
    if (page > window.maxPages) throw unfinished('menu item', window.maxPages);
    const { data } = await api.call(
      link === null ? { method: 'GET', path: '/menu/items', query: { location_id: locationId, per_page: 100, page }, schema: MenuItemPage } : { method: 'GET', path: link, schema: MenuItemPage },
    );
    for (const item of data.data) {
      const owner = store.localIdFor('menu_item', item.id);
      if (owner !== undefined && owner !== op.entityId && owner !== item.id) continue;
      if (item.name === body.name && item.price === body.price && (item.category_id ?? null) === (body.category_id ?? null) && (item.location_id ?? null) === (locationId ?? null)) {
        const created = item.created_at === undefined ? sinceMs : Date.parse(item.created_at);
        // An identical item that existed before our first uncertain attempt is not ours.
        if (created >= sinceMs - window.clockSkewMs) return item;
      }
    }
    if (!hasMorePages(data, page)) break;
    link = linkUnder(api.baseUrl, data.links?.next);
  }
  return null;
}
