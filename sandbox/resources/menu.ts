// GET/POST /menu/items, PATCH/DELETE /menu/items/{id}, GET /menu/categories, and the stock moves
// orders make on menu items.
import type { MenuItem, Modifier, ModifierGroup } from '../../api/records';
import type { CreateMenuItemRequest, ListMenuItemsQuery, PatchMenuItemRequest } from '../../api/requests';
import { newId } from '../../common/ids';
import { iso, type OpContext, type OpResult } from '../context';
import { ApiError } from '../http';
import { envelopeOfDocs, pageRequest, pageSlice } from '../paginate';
import type { Tx } from '../storage';
import { findLocation } from './locations';

export async function findMenuItem(tx: Tx, id: string): Promise<MenuItem | undefined> {
  const row = await tx.selectFrom('menu_items').select('doc').where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
  return row ? (JSON.parse(row.doc) as MenuItem) : undefined;
}

async function categoryPosition(tx: Tx, categoryId: string): Promise<number | undefined> {
  const row = await tx.selectFrom('categories').select('position').where('id', '=', categoryId).executeTakeFirst();
  return row?.position;
}

/** Menu items sort by their category's position, then name: the order a menu is read in. */
function sortKey(position: number, name: string): string {
  return `${String(position).padStart(6, '0')}|${name.toLowerCase()}`;
}

async function saveMenuItem(tx: Tx, item: MenuItem, insert: boolean): Promise<void> {
  const position = await categoryPosition(tx, item.category_id);
  const columns = { location_id: item.location_id, category_id: item.category_id, sort_key: sortKey(position ?? 0, item.name), doc: JSON.stringify(item) };
  if (insert) await tx.insertInto('menu_items').values({ id: item.id, deleted: 0, ...columns }).execute();
  else await tx.updateTable('menu_items').set(columns).where('id', '=', item.id).execute();
}

async function checkReferences(tx: Tx, body: { category_id?: string; location_id?: string | null }): Promise<void> {
  if (body.category_id !== undefined && (await categoryPosition(tx, body.category_id)) === undefined) {
    throw new ApiError('invalid_request', `category_id: no category ${body.category_id}`, { param: 'category_id' });
  }
  if (body.location_id != null && !(await findLocation(tx, body.location_id))) {
    throw new ApiError('invalid_request', `location_id: no location ${body.location_id}`, { param: 'location_id' });
  }
}

async function accountCurrency(tx: Tx): Promise<string> {
  const row = await tx.selectFrom('settings').select('value').where('name', '=', 'currency').executeTakeFirst();
  return row?.value ?? 'usd';
}

/** The tax class of an item created without one. */
export const DEFAULT_TAX_CLASS = 'standard';

/**
 * An item's groups after its modifiers changed: ids no longer on the item leave their group, a
 * group left empty goes, and min_choices never asks for more than the group still offers.
 */
function pruneGroups(groups: readonly ModifierGroup[], modifiers: readonly Modifier[]): ModifierGroup[] {
  const ids = new Set(modifiers.map((m) => m.id));
  return groups.flatMap((group) => {
    const kept = group.modifier_ids.filter((id) => ids.has(id));
    return kept.length === 0 ? [] : [{ ...group, modifier_ids: kept, min_choices: Math.min(group.min_choices, kept.length) }];
  });
}

function crossedThreshold(item: MenuItem, stockBefore: number | null): boolean {
  if (item.stock === null || item.low_stock_threshold === null) return false;
  const wasAbove = stockBefore === null || stockBefore > item.low_stock_threshold;
  return wasAbove && item.stock <= item.low_stock_threshold;
}

async function emitMenuItem(ctx: OpContext, item: MenuItem, deleted: boolean): Promise<void> {
  await ctx.emit('menu.item_updated', { id: item.id, type: 'menu_item', attributes: { ...item, deleted } });
}

/**
 * Moves stock by -consumed per item id (negative consumed restores). Emits low-stock events.
 * `known` holds items this transaction already read, so untracked ones cost no query.
 */
export async function consumeStock(ctx: OpContext, consumed: ReadonlyMap<string, number>, known: ReadonlyMap<string, MenuItem>): Promise<void> {
  const now = iso(ctx.clock.now());
  for (const [id, quantity] of consumed) {
    if (quantity === 0) continue;
    let item = known.get(id);
    if (!item) {
      const row = await ctx.tx.selectFrom('menu_items').select('doc').where('id', '=', id).executeTakeFirst();
      if (!row) continue;
      item = JSON.parse(row.doc) as MenuItem;
    }
    if (item.stock === null) continue;
    const before = item.stock;
    const updated: MenuItem = { ...item, stock: before - quantity, updated_at: now };
    await ctx.tx.updateTable('menu_items').set({ doc: JSON.stringify(updated) }).where('id', '=', id).execute();
    if (crossedThreshold(updated, before)) {
      await ctx.emit('inventory.low_stock', { id, type: 'menu_item', attributes: { ...updated, deleted: false } });
    }
  }
}

export async function listMenuItems(ctx: OpContext): Promise<OpResult> {
  const query = ctx.query as ListMenuItemsQuery;
  const page = pageRequest(query, ctx.quirks);
  let base = ctx.tx.selectFrom('menu_items').where('deleted', '=', 0);
  if (query.location_id !== undefined) {
    const locationId = query.location_id;
    base = base.where((eb) => eb.or([eb('location_id', '=', locationId), eb('location_id', 'is', null)]));
  }
  const { count } = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const slice = pageSlice(page, Number(count));
  const rows = await base.select('doc').orderBy('sort_key').orderBy('id').limit(slice.limit).offset(slice.offset).execute();
  return { status: 200, body: envelopeOfDocs(rows.map((r) => r.doc), Number(count), page, ctx.requestUrl) };
}

export async function createMenuItem(ctx: OpContext): Promise<OpResult> {
  const body = ctx.body as CreateMenuItemRequest;
  await checkReferences(ctx.tx, body);
  const now = ctx.clock.now();
  const item: MenuItem = {
    id: newId('mi_', now),
    object: 'menu_item',
    location_id: body.location_id ?? null,
    category_id: body.category_id,
    name: body.name,
    description: body.description ?? '',
    price: body.price,
    currency: await accountCurrency(ctx.tx),
    available: body.available ?? true,
    modifiers: (body.modifiers ?? []).map((m) => ({ id: newId('mod_', now), object: 'modifier', name: m.name, price: m.price })),
    // Groups are seed data: /v1 does not write them.
    modifier_groups: [],
    tax_class: body.tax_class ?? DEFAULT_TAX_CLASS,
    stock: body.stock ?? null,
    low_stock_threshold: body.low_stock_threshold ?? null,
    created_at: iso(now),
    updated_at: iso(now),
  };
  await saveMenuItem(ctx.tx, item, true);
  await emitMenuItem(ctx, item, false);
  return { status: 201, body: item };
}

export async function updateMenuItem(ctx: OpContext): Promise<OpResult> {
  const item = await findMenuItem(ctx.tx, ctx.id);
  if (!item) throw new ApiError('not_found', `no menu item ${ctx.id}`);
  const patch = ctx.body as PatchMenuItemRequest;
  await checkReferences(ctx.tx, patch);
  const now = ctx.clock.now();
  let modifiers: Modifier[] = item.modifiers;
  if (patch.modifiers !== undefined) {
    const known = new Map(item.modifiers.map((m) => [m.id, m]));
    modifiers = patch.modifiers.map((m, index) => {
      if (m.id === undefined) return { id: newId('mod_', now), object: 'modifier', name: m.name, price: m.price };
      if (!known.has(m.id)) throw new ApiError('invalid_request', `modifiers.${index}.id: ${m.id} is not a modifier of ${item.id}`, { param: `modifiers.${index}.id` });
      return { id: m.id, object: 'modifier', name: m.name, price: m.price };
    });
    if (new Set(modifiers.map((m) => m.id)).size !== modifiers.length) {
      throw new ApiError('invalid_request', 'modifiers: the same modifier id appears twice', { param: 'modifiers' });
    }
  }
  const { modifiers: _ignored, ...scalarPatch } = patch;
  const modifierGroups = patch.modifiers === undefined ? item.modifier_groups : pruneGroups(item.modifier_groups, modifiers);
  const updated: MenuItem = { ...item, ...scalarPatch, modifiers, modifier_groups: modifierGroups, updated_at: iso(now) };
  await saveMenuItem(ctx.tx, updated, false);
  await emitMenuItem(ctx, updated, false);
  if (patch.stock !== undefined && crossedThreshold(updated, item.stock)) {
    await ctx.emit('inventory.low_stock', { id: updated.id, type: 'menu_item', attributes: { ...updated, deleted: false } });
  }
  return { status: 200, body: updated };
}

export async function deleteMenuItem(ctx: OpContext): Promise<OpResult> {
  const item = await findMenuItem(ctx.tx, ctx.id);
  if (!item) throw new ApiError('not_found', `no menu item ${ctx.id}`);
  // Kept as a tombstone: past orders and events still refer to it.
  await ctx.tx.updateTable('menu_items').set({ deleted: 1 }).where('id', '=', item.id).execute();
  await emitMenuItem(ctx, { ...item, updated_at: iso(ctx.clock.now()) }, true);
  return { status: 200, body: { id: item.id, object: 'menu_item', deleted: true } };
}

export async function listMenuCategories(ctx: OpContext): Promise<OpResult> {
  const page = pageRequest(ctx.query as ListMenuItemsQuery, ctx.quirks);
  const { count } = await ctx.tx.selectFrom('categories').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const slice = pageSlice(page, Number(count));
  const rows = await ctx.tx.selectFrom('categories').select('doc').orderBy('position').orderBy('id').limit(slice.limit).offset(slice.offset).execute();
  return { status: 200, body: envelopeOfDocs(rows.map((r) => r.doc), Number(count), page, ctx.requestUrl) };
}
