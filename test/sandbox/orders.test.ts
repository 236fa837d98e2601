import { describe, expect, it } from 'vitest';
import { call, createOrder, sandboxPerSuite, sellableItem, type Loose } from './helpers';

const t = sandboxPerSuite();

describe('POST /orders', () => {
  it('creates an open order priced from the menu, modifiers included', async () => {
    const item = await sellableItem(t.sb, 2);
    const [m1, m2] = item.modifiers;
    const reply = await call(t.sb, 'POST', '/orders', {
      key: t.key,
      body: {
        location_id: t.sb.credentials.locationIds[0],
        items: [{ menu_item_id: item.id, quantity: 3, modifiers: [m1.id, m2.id] }],
        customer: { name: 'Ada' },
        metadata: { op: 'op_1' },
      },
    });
    expect(reply.status).toBe(201);
    const unit = item.price + m1.price + m2.price;
    expect(reply.body).toMatchObject({
      status: 'open',
      total: unit * 3,
      currency: 'usd',
      amount_paid: 0,
      customer: { name: 'Ada', phone: null },
      metadata: { op: 'op_1' },
      items: [{ menu_item_id: item.id, name: item.name, quantity: 3, price: unit }],
    });
    const fetched = await call(t.sb, 'GET', `/orders/${reply.body.id}`, { key: t.key });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(reply.body);
  });

  it.each([
    ['an unknown field', { extra: 1 }, 'extra'],
    ['a zero quantity', { items: [{ menu_item_id: 'mi_x', quantity: 0 }] }, 'items.0.quantity'],
    ['no lines', { items: [] }, 'items'],
    ['a missing location', { location_id: undefined }, 'location_id'],
  ])('refuses %s with invalid_request naming the field', async (_name, override, param) => {
    const item = await sellableItem(t.sb);
    const body = { location_id: t.sb.credentials.locationIds[0], items: [{ menu_item_id: item.id, quantity: 1 }], ...override };
    const before = await t.sb.countOrders();
    const reply = await call(t.sb, 'POST', '/orders', { key: t.key, body });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('invalid_request');
    expect(reply.body.error.details.map((d: { param: string }) => d.param)).toContain(param);
    expect(await t.sb.countOrders()).toBe(before);
  });

  it('refuses references the menu does not allow', async () => {
    const items = (await call(t.sb, 'GET', '/menu/items?per_page=100', { key: t.key })).body.data;
    const unavailable = items.find((i: Loose) => !i.available);
    const elsewhere = items.find((i: Loose) => i.location_id !== null && i.location_id !== t.sb.credentials.locationIds[0]);
    const withMods = items.find((i: Loose) => i.modifiers.length > 0 && i.available && i.location_id === null);
    const other = items.find((i: Loose) => i.modifiers.length > 0 && i.id !== withMods.id && i.category_id !== withMods.category_id);
    const loc = t.sb.credentials.locationIds[0];
    const cases = [
      [{ menu_item_id: 'mi_doesnotexist', quantity: 1 }, 'items.0.menu_item_id'],
      [{ menu_item_id: unavailable.id, quantity: 1 }, 'items.0.menu_item_id'],
      [{ menu_item_id: elsewhere.id, quantity: 1 }, 'items.0.menu_item_id'],
      [{ menu_item_id: withMods.id, quantity: 1, modifiers: [other.modifiers[0].id] }, 'items.0.modifiers.0'],
    ] as const;
    for (const [line, param] of cases) {
      const reply = await call(t.sb, 'POST', '/orders', { key: t.key, body: { location_id: loc, items: [line] } });
      expect(reply.status).toBe(400);
      expect(reply.body.error.param).toBe(param);
    }
    const noLocation = await call(t.sb, 'POST', '/orders', { key: t.key, body: { location_id: 'loc_nope', items: [{ menu_item_id: withMods.id, quantity: 1 }] } });
    expect(noLocation.body.error).toMatchObject({ code: 'invalid_request', param: 'location_id' });
  });

  it('refuses orders at an inactive location with invalid_state', async () => {
    const loc = t.sb.credentials.locationIds[1];
    await call(t.sb, 'PATCH', `/locations/${loc}`, { key: t.key, body: { status: 'inactive' } });
    const item = await sellableItem(t.sb);
    const reply = await call(t.sb, 'POST', '/orders', { key: t.key, body: { location_id: loc, items: [{ menu_item_id: item.id, quantity: 1 }] } });
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('invalid_state');
    await call(t.sb, 'PATCH', `/locations/${loc}`, { key: t.key, body: { status: 'active' } });
  });

  it('refuses malformed bodies: bad JSON, no body, wrong media type, too large', async () => {
    const badJson = await call(t.sb, 'POST', '/orders', { key: t.key, rawBody: '{"location_id":' });
    expect(badJson.body.error).toMatchObject({ code: 'invalid_request', param: 'body' });
    const empty = await call(t.sb, 'POST', '/orders', { key: t.key });
    expect(empty.body.error.code).toBe('invalid_request');
    const form = await call(t.sb, 'POST', '/orders', { key: t.key, rawBody: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe('unsupported_media_type');
    const huge = await call(t.sb, 'POST', '/orders', { key: t.key, rawBody: JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
  });
});

describe('GET /orders/{id}, unknown paths and methods', () => {
  it('answers not_found for an unknown id or path and method_not_allowed with Allow', async () => {
    expect((await call(t.sb, 'GET', '/orders/ord_missing', { key: t.key })).body.error.code).toBe('not_found');
    expect((await call(t.sb, 'GET', '/nothing', { key: t.key })).status).toBe(404);
    const wrong = await call(t.sb, 'DELETE', '/orders/ord_x', { key: t.key });
    expect(wrong.status).toBe(405);
    expect(wrong.body.error.code).toBe('method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET, PATCH');
    const outside = await fetch(`${t.sb.apiHost}/orders`);
    expect(outside.status).toBe(404);
  });

  it('refuses a body on a bodiless operation, and changes nothing', async () => {
    const item = await sellableItem(t.sb);
    const reply = await call(t.sb, 'DELETE', `/menu/items/${item.id}`, { key: t.key, rawBody: '{}' });
    expect(reply.status).toBe(400);
    expect((await call(t.sb, 'GET', `/menu/items?per_page=100`, { key: t.key })).body.data.map((i: Loose) => i.id)).toContain(item.id);
  });
});

describe('PATCH /orders/{id}', () => {
  it('changes customer and lines of an open order and recomputes the total', async () => {
    const order = await createOrder(t.sb);
    const item = await sellableItem(t.sb);
    const reply = await call(t.sb, 'PATCH', `/orders/${order.id}`, {
      key: t.key,
      body: { customer: { phone: '+1 555 0100' }, items: [{ menu_item_id: item.id, quantity: 5 }] },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.customer).toEqual({ name: null, phone: '+1 555 0100' });
    expect(reply.body.total).toBe(item.price * 5);
    expect(reply.body.status).toBe('open');
    const cleared = await call(t.sb, 'PATCH', `/orders/${order.id}`, { key: t.key, body: { customer: null } });
    expect(cleared.body.customer).toBeNull();
  });

  it.each(['fulfilled', 'cancelled'] as const)('moves open → %s once, then refuses every change', async (status) => {
    const order = await createOrder(t.sb);
    const closed = await call(t.sb, 'PATCH', `/orders/${order.id}`, { key: t.key, body: { status } });
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe(status);
    expect(closed.body[`${status}_at`]).not.toBeNull();
    for (const body of [{ status }, { customer: { name: 'x' } }, { status: status === 'fulfilled' ? 'cancelled' : 'fulfilled' }]) {
      const again = await call(t.sb, 'PATCH', `/orders/${order.id}`, { key: t.key, body });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('invalid_state');
    }
    expect((await call(t.sb, 'GET', `/orders/${order.id}`, { key: t.key })).body).toEqual(closed.body);
  });

  it('refuses an empty patch, an unknown status and an unknown order', async () => {
    const order = await createOrder(t.sb);
    expect((await call(t.sb, 'PATCH', `/orders/${order.id}`, { key: t.key, body: {} })).status).toBe(400);
    expect((await call(t.sb, 'PATCH', `/orders/${order.id}`, { key: t.key, body: { status: 'open' } })).status).toBe(400);
    expect((await call(t.sb, 'PATCH', '/orders/ord_nope', { key: t.key, body: { status: 'fulfilled' } })).status).toBe(404);
  });

  it('refuses new lines whose total is below what payments already hold', async () => {
    const order = await createOrder(t.sb);
    await call(t.sb, 'POST', '/payments/intents', { key: t.key, body: { order_id: order.id, amount: order.total, currency: 'usd' } });
    const cheapest = (await call(t.sb, 'GET', '/menu/items?per_page=100', { key: t.key })).body.data
      .filter((i: Loose) => i.available && i.location_id === null)
      .sort((a: Loose, b: Loose) => a.price - b.price)[0];
    const reply = await call(t.sb, 'PATCH', `/orders/${order.id}`, { key: t.key, body: { items: [{ menu_item_id: cheapest.id, quantity: 1 }] } });
    expect(reply.status).toBe(409);
    expect(reply.body.error.param).toBe('items');
  });
});

describe('GET /orders: filters and pagination', () => {
  it('filters by location, status and creation time (exclusive bounds)', async () => {
    const loc = t.sb.credentials.locationIds[2] as string;
    const all = (await call(t.sb, 'GET', `/orders?location_id=${loc}&per_page=100`, { key: t.key })).body;
    expect(all.meta.total).toBeGreaterThan(0);
    expect(all.data.every((o: Loose) => o.location_id === loc)).toBe(true);
    const cancelled = (await call(t.sb, 'GET', '/orders?status=cancelled&per_page=100', { key: t.key })).body;
    expect(cancelled.data.length).toBeGreaterThan(0);
    expect(cancelled.data.every((o: Loose) => o.status === 'cancelled')).toBe(true);
    const pivot = all.data[Math.floor(all.data.length / 2)].created_at;
    const after = (await call(t.sb, 'GET', `/orders?location_id=${loc}&per_page=100&created_after=${pivot}`, { key: t.key })).body;
    const before = (await call(t.sb, 'GET', `/orders?location_id=${loc}&per_page=100&created_before=${pivot}`, { key: t.key })).body;
    expect(after.data.every((o: Loose) => o.created_at > pivot)).toBe(true);
    expect(before.data.every((o: Loose) => o.created_at < pivot)).toBe(true);
    const atPivot = all.data.filter((o: Loose) => o.created_at === pivot).length;
    expect(after.meta.total + before.meta.total + atPivot).toBe(all.meta.total);
    const offset = (await call(t.sb, 'GET', `/orders?created_after=${encodeURIComponent('2000-01-01T00:00:00+02:00')}`, { key: t.key })).body;
    expect(offset.meta.total).toBeGreaterThan(0);
  });

  it('lists oldest first with default per_page 20 and absolute links', async () => {
    const page1 = (await call(t.sb, 'GET', '/orders', { key: t.key })).body;
    expect(page1.meta.per_page).toBe(20);
    expect(page1.meta.page).toBe(1);
    expect(page1.data).toHaveLength(20);
    const created = page1.data.map((o: Loose) => o.created_at);
    expect([...created].sort()).toEqual(created);
    expect(page1.links.prev).toBeNull();
    expect(page1.links.first).toBe(`${t.sb.baseUrl}/orders?page=1&per_page=20`);
    expect(page1.links.next).toBe(`${t.sb.baseUrl}/orders?page=2&per_page=20`);
    expect(page1.meta.total_pages).toBe(Math.ceil(page1.meta.total / 20));
  });

  it('follows next links through every page exactly once, with filters kept', async () => {
    const seen = new Set<string>();
    let url: string | null = `${t.sb.baseUrl}/orders?status=fulfilled&per_page=100`;
    let pages = 0;
    let total = 0;
    while (url) {
      const response = await fetch(url, { headers: { Authorization: `Bearer ${t.key}` } });
      const page = (await response.json()) as Loose;
      total = page.meta.total;
      for (const o of page.data) {
        expect(o.status).toBe('fulfilled');
        seen.add(o.id);
      }
      pages++;
      url = page.links.next;
      if (!url) {
        expect(page.meta.page).toBe(page.meta.total_pages);
        expect(page.links.last).toBe(response.url);
      }
    }
    expect(seen.size).toBe(total);
    expect(pages).toBe(Math.ceil(total / 100));
  });

  it('answers an empty list with total_pages 0 and a page beyond the last with no data', async () => {
    const empty = (await call(t.sb, 'GET', '/orders?created_after=2999-01-01T00:00:00Z', { key: t.key })).body;
    expect(empty).toEqual({
      data: [],
      meta: { total: 0, page: 1, per_page: 20, total_pages: 0 },
      links: {
        first: `${t.sb.baseUrl}/orders?created_after=2999-01-01T00%3A00%3A00Z&page=1&per_page=20`,
        prev: null,
        next: null,
        last: `${t.sb.baseUrl}/orders?created_after=2999-01-01T00%3A00%3A00Z&page=1&per_page=20`,
      },
    });
    const total = (await call(t.sb, 'GET', '/orders?per_page=100', { key: t.key })).body.meta.total_pages;
    const beyond = (await call(t.sb, 'GET', `/orders?per_page=100&page=${total + 5}`, { key: t.key })).body;
    expect(beyond.data).toEqual([]);
    expect(beyond.links.next).toBeNull();
    expect(beyond.links.prev).toBe(`${t.sb.baseUrl}/orders?per_page=100&page=${total}`);
  });

  it('accepts per_page 100 and refuses 101 and every malformed page parameter', async () => {
    expect((await call(t.sb, 'GET', '/orders?per_page=100', { key: t.key })).body.data).toHaveLength(100);
    for (const query of ['per_page=101', 'per_page=0', 'page=0', 'page=abc', 'page=1.5', 'page=', 'per_page=-1', 'page=1&page=2', 'page=01', 'status=done', 'created_after=yesterday', 'limit=5']) {
      const reply = await call(t.sb, 'GET', `/orders?${query}`, { key: t.key });
      expect(reply.status, query).toBe(400);
      expect(reply.body.error.code).toBe('invalid_request');
      expect(reply.body.error.param).toBe(query.split('=')[0]);
    }
  });
});
