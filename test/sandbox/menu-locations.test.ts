import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index';
import { call, withSandbox, type Loose } from './helpers';

let sb: Sandbox;
let key: string;
let categoryId: string;
beforeAll(async () => {
  sb = await withSandbox();
  key = sb.credentials.apiKeys.full;
  categoryId = (await call(sb, 'GET', '/menu/categories', { key })).body.data[0].id;
});
afterAll(() => sb.close());

describe('locations', () => {
  it('lists the seeded locations and gets one', async () => {
    const list = await call(sb, 'GET', '/locations', { key });
    expect(list.body.meta.total).toBe(3);
    expect(list.body.data.map((l: Loose) => l.id)).toEqual(sb.credentials.locationIds);
    const one = await call(sb, 'GET', `/locations/${sb.credentials.locationIds[0]}`, { key });
    expect(one.body).toEqual(list.body.data[0]);
    expect((await call(sb, 'GET', '/locations/loc_nope', { key })).status).toBe(404);
  });

  it('patches name, phone, timezone and merges the address', async () => {
    const id = sb.credentials.locationIds[2] as string;
    const before = (await call(sb, 'GET', `/locations/${id}`, { key })).body;
    const reply = await call(sb, 'PATCH', `/locations/${id}`, { key, body: { name: 'Uptown', phone: null, timezone: 'America/New_York', address: { line2: 'Suite 4' } } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ name: 'Uptown', phone: null, timezone: 'America/New_York', address: { ...before.address, line2: 'Suite 4' } });
    for (const body of [{}, { timezone: 'Mars/Olympus' }, { currency: 'eur' }, { address: { country: 'usa' } }]) {
      expect((await call(sb, 'PATCH', `/locations/${id}`, { key, body })).status).toBe(400);
    }
    expect((await call(sb, 'PATCH', '/locations/loc_nope', { key, body: { name: 'x' } })).status).toBe(404);
  });

  it('refuses query parameters the list does not take', async () => {
    expect((await call(sb, 'GET', '/locations?status=active', { key })).status).toBe(400);
    expect((await call(sb, 'GET', '/menu/categories?location_id=x', { key })).status).toBe(400);
  });
});

describe('menu', () => {
  it('has a believable demo menu: 100+ items, categories in order, modifiers', async () => {
    const items = await call(sb, 'GET', '/menu/items?per_page=100', { key });
    expect(items.body.meta.total).toBeGreaterThanOrEqual(100);
    expect(items.body.data.some((i: Loose) => i.modifiers.length > 0)).toBe(true);
    const categories = (await call(sb, 'GET', '/menu/categories', { key })).body.data;
    expect(categories.length).toBeGreaterThanOrEqual(8);
    expect(categories.map((c: Loose) => c.position)).toEqual([...categories.map((c: Loose) => c.position)].sort((a: number, b: number) => a - b));
  });

  it('lists a location’s items plus the ones sold everywhere', async () => {
    const [first, , third] = sb.credentials.locationIds;
    const all = (await call(sb, 'GET', '/menu/items?per_page=100&page=1', { key })).body.meta.total;
    const atFirst = (await call(sb, 'GET', `/menu/items?per_page=100&location_id=${first}`, { key })).body;
    const atThird = (await call(sb, 'GET', `/menu/items?per_page=100&location_id=${third}`, { key })).body;
    expect(atFirst.data.every((i: Loose) => i.location_id === null || i.location_id === first)).toBe(true);
    expect(atThird.meta.total).toBe(all);
    expect(atFirst.meta.total).toBeLessThan(all);
  });

  it('creates, patches (modifiers replaced by id) and deletes an item', async () => {
    const created = await call(sb, 'POST', '/menu/items', {
      key,
      body: { name: 'Test soup', price: 800, category_id: categoryId, modifiers: [{ name: 'Bread', price: 100 }, { name: 'Croutons', price: 50 }] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Test soup', description: '', available: true, location_id: null, stock: null, currency: 'usd' });
    const [bread] = created.body.modifiers;
    const patched = await call(sb, 'PATCH', `/menu/items/${created.body.id}`, {
      key,
      body: { price: 900, available: false, modifiers: [{ id: bread.id, name: 'Sourdough', price: 150 }, { name: 'Chili', price: 0 }] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.price).toBe(900);
    expect(patched.body.modifiers).toHaveLength(2);
    expect(patched.body.modifiers[0]).toEqual({ id: bread.id, object: 'modifier', name: 'Sourdough', price: 150 });
    const strange = await call(sb, 'PATCH', `/menu/items/${created.body.id}`, { key, body: { modifiers: [{ id: 'mod_other', name: 'x', price: 1 }] } });
    expect(strange.body.error.param).toBe('modifiers.0.id');

    const deleted = await call(sb, 'DELETE', `/menu/items/${created.body.id}`, { key });
    expect(deleted.body).toEqual({ id: created.body.id, object: 'menu_item', deleted: true });
    expect((await call(sb, 'DELETE', `/menu/items/${created.body.id}`, { key })).status).toBe(404);
    expect((await call(sb, 'PATCH', `/menu/items/${created.body.id}`, { key, body: { price: 1 } })).status).toBe(404);
    const list = (await call(sb, 'GET', '/menu/items?per_page=100&page=2', { key })).body.data;
    expect(list.find((i: Loose) => i.id === created.body.id)).toBeUndefined();
  });

  it('refuses bad references and bad fields', async () => {
    const cases = [
      { name: 'x', price: 1, category_id: 'cat_nope' },
      { name: 'x', price: 1, category_id: categoryId, location_id: 'loc_nope' },
      { name: '', price: 1, category_id: categoryId },
      { name: 'x', price: -1, category_id: categoryId },
      { name: 'x', price: 1.5, category_id: categoryId },
      { name: 'x', category_id: categoryId },
    ];
    for (const body of cases) expect((await call(sb, 'POST', '/menu/items', { key, body })).status).toBe(400);
  });
});
