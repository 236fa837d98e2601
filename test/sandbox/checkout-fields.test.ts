// The checkout fields the sandbox models beyond the spec (docs/sandbox.md, "Checkout fields";
// docs/spec-gaps.md, "Checkout: what the sandbox models beyond the spec"), over real HTTP: tax,
// discounts, order number, type, table, guests, line notes, modifier groups, tips; what spec-minimal
// does with them (nothing); the seed's tax rates and channels; events; older databases.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEventSchema } from '../../api/events';
import { locationSchema, menuItemSchema, orderSchema, paymentSchema } from '../../api/records';
import type { Sandbox } from '../../sandbox/index';
import { specOrderEventAttributesSchema, specOrderSchema } from '../../sandbox/profile-schemas';
import { demoTax } from '../../sandbox/seed';
import { call, dashboard, runSandboxCli, sandboxPerSuite, withSandbox, type Loose, type SuiteSandbox } from './helpers';
import { startReceiver, waitFor, type Receiver } from './receiver';

/** Every menu item the location sells (all pages). */
async function menuOf(sb: Sandbox, locationId = sb.credentials.locationIds[0]): Promise<Loose[]> {
  const items: Loose[] = [];
  for (let page = 1; ; page++) {
    const { body } = await call(sb, 'GET', `/menu/items?per_page=100&page=${page}&location_id=${locationId}`, { key: sb.credentials.apiKeys.full });
    items.push(...body.data);
    if (page >= body.meta.total_pages) return items;
  }
}

async function allOrders(sb: Sandbox): Promise<Loose[]> {
  const orders: Loose[] = [];
  for (let page = 1; ; page++) {
    const { body } = await call(sb, 'GET', `/orders?per_page=100&page=${page}`, { key: sb.credentials.apiKeys.full });
    orders.push(...body.data);
    if (page >= body.meta.total_pages) return orders;
  }
}

/** The open online and delivery orders `taxes: 'demo'` adds (sandbox/seed.ts, LIVE_ORDERS). */
const LIVE_NUMBERS = ['UE-7342', 'W2001', 'DD-1188', 'W2002', 'UE-5520'];

/** An item the location sells as it is: no modifiers, no stock to run out. */
function plainItem(menu: readonly Loose[]): Loose {
  return menu.find((i) => i.available && i.modifiers.length === 0 && i.stock === null);
}

function byName(items: readonly Loose[], name: string): Loose {
  const item = items.find((i) => i.name === name);
  if (!item) throw new Error(`no ${name} on the menu`);
  return item;
}

/** The ids of a group's modifiers, by modifier name. */
function choice(item: Loose, ...names: string[]): string[] {
  return names.map((name) => {
    const modifier = item.modifiers.find((m: Loose) => m.name === name);
    if (!modifier) throw new Error(`${item.name} has no modifier ${name}`);
    return modifier.id as string;
  });
}

function price(item: Loose, ...names: string[]): number {
  return item.price + names.reduce((sum, name) => sum + item.modifiers.find((m: Loose) => m.name === name).price, 0);
}

/** A suite's sandbox (demo seed) and what the checkout suites order from its menu, read before the tests. */
function checkoutSuite(): SuiteSandbox & { plain: Loose; coffee: Loose; steak: Loose } {
  const suite = sandboxPerSuite() as SuiteSandbox & { plain: Loose; coffee: Loose; steak: Loose };
  beforeAll(async () => {
    const menu = await menuOf(suite.sb);
    suite.plain = plainItem(menu);
    suite.coffee = byName(menu, 'Iced flat white');
    suite.steak = byName(menu, 'Ribeye steak');
  });
  return suite;
}

describe('default profile: checkout fields of orders', () => {
  const t = checkoutSuite();

  const post = (body: object) => call(t.sb, 'POST', '/orders', { key: t.key, body: { location_id: t.loc, ...body } });

  it('round-trips number, type, table, guests, notes, discounts and tax, and the totals add up', async () => {
    const lines = [
      { menu_item_id: t.plain.id, quantity: 2 },
      { menu_item_id: t.coffee.id, quantity: 1, modifiers: choice(t.coffee, 'Regular', 'Oat milk'), note: 'extra hot' },
    ];
    const subtotal = t.plain.price * 2 + price(t.coffee, 'Regular', 'Oat milk');
    const created = await post({
      items: lines,
      order_number: 'A17',
      order_type: 'dine_in',
      table: '12',
      guests: 3,
      discounts: [
        { reason: 'Happy hour', amount: 100, line: 0 },
        { reason: 'Manager comp', amount: 200 },
      ],
      tax_total: 123,
      tax_included: false,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      order_number: 'A17',
      order_type: 'dine_in',
      table: '12',
      guests: 3,
      channel: 'pos',
      subtotal,
      discounts: [
        { reason: 'Happy hour', amount: 100, line: 0 },
        { reason: 'Manager comp', amount: 200, line: null },
      ],
      discount_total: 300,
      tax_total: 123,
      tax_included: false,
      total: subtotal - 300 + 123,
    });
    expect(created.body.items.map((l: Loose) => l.note)).toEqual(['', 'extra hot']);
    expect(created.body.items[1].price).toBe(price(t.coffee, 'Regular', 'Oat milk'));
    const read = await call(t.sb, 'GET', `/orders/${created.body.id}`, { key: t.key });
    expect(read.body).toEqual(created.body);

    // Tax inside the prices: it no longer adds to the total. Fields not sent keep their value.
    const included = await call(t.sb, 'PATCH', `/orders/${created.body.id}`, { key: t.key, body: { tax_total: 50, tax_included: true } });
    expect(included.status).toBe(200);
    expect(included.body).toMatchObject({ order_number: 'A17', table: '12', discount_total: 300, tax_total: 50, tax_included: true, total: subtotal - 300 });

    // New lines: the line discount (its index meant the old lines) goes, the order's stays.
    const relined = await call(t.sb, 'PATCH', `/orders/${created.body.id}`, { key: t.key, body: { items: [{ menu_item_id: t.plain.id, quantity: 3, note: 'to share' }] } });
    expect(relined.status).toBe(200);
    expect(relined.body).toMatchObject({
      subtotal: t.plain.price * 3,
      discounts: [{ reason: 'Manager comp', amount: 200, line: null }],
      discount_total: 200,
      tax_total: 50,
      tax_included: true,
      total: t.plain.price * 3 - 200,
      guests: 3,
    });
    expect(relined.body.items[0].note).toBe('to share');

    const moved = await call(t.sb, 'PATCH', `/orders/${created.body.id}`, { key: t.key, body: { order_type: 'takeout', table: null, guests: null, order_number: 'A18', discounts: [] } });
    expect(moved.body).toMatchObject({ order_type: 'takeout', table: null, guests: null, order_number: 'A18', discounts: [], discount_total: 0, total: t.plain.price * 3 });
  });

  it('defaults every checkout field on an order that sends none', async () => {
    const created = await post({ items: [{ menu_item_id: t.plain.id, quantity: 2 }] });
    expect(created.body).toMatchObject({
      order_number: null,
      order_type: null,
      table: null,
      guests: null,
      channel: 'pos',
      subtotal: t.plain.price * 2,
      discounts: [],
      discount_total: 0,
      tax_total: 0,
      tax_included: false,
      total: t.plain.price * 2,
    });
    expect(created.body.items[0].note).toBe('');
  });

  it('does not make order numbers unique: the till owns them', async () => {
    const first = await post({ items: [{ menu_item_id: t.plain.id, quantity: 1 }], order_number: 'B2' });
    const second = await post({ items: [{ menu_item_id: t.plain.id, quantity: 1 }], order_number: 'B2' });
    expect([first.status, second.status]).toEqual([201, 201]);
  });

  it.each([
    ['a discount above the subtotal', (p: number) => ({ discounts: [{ reason: 'Comp', amount: p * 2 + 1 }] }), 'discounts', /more than the subtotal/],
    ['a line index out of range', () => ({ discounts: [{ reason: 'Comp', amount: 1, line: 1 }] }), 'discounts.0.line', /has 1 line \(0 to 0\), not 1/],
    ['a line discount above the line', (p: number) => ({ discounts: [{ reason: 'Comp', amount: p * 2 + 1, line: 0 }] }), 'discounts.0.amount', /more than the line's/],
    ['line discounts adding up above the line', (p: number) => ({ discounts: [{ reason: 'A', amount: p * 2, line: 0 }, { reason: 'B', amount: 1, line: 0 }] }), 'discounts.1.amount', /come to/],
    ['included tax above what the prices come to', (p: number) => ({ tax_total: p * 2 + 1, tax_included: true }), 'tax_total', /included in the prices/],
    ['a negative line index', () => ({ discounts: [{ reason: 'Comp', amount: 1, line: -1 }] }), 'discounts.0.line', /./],
    ['a zero discount', () => ({ discounts: [{ reason: 'Comp', amount: 0 }] }), 'discounts.0.amount', /./],
    ['a discount without a reason', () => ({ discounts: [{ amount: 5 }] }), 'discounts.0.reason', /./],
    ['an order number over 16 characters', () => ({ order_number: 'A'.repeat(17) }), 'order_number', /./],
    ['an unknown order type', () => ({ order_type: 'drive_thru' }), 'order_type', /./],
    ['a table over 12 characters', () => ({ table: 'T'.repeat(13) }), 'table', /./],
    ['no guests', () => ({ guests: 0 }), 'guests', /./],
    ['100 guests', () => ({ guests: 100 }), 'guests', /./],
    ['a negative tax', () => ({ tax_total: -1 }), 'tax_total', /./],
  ])('refuses %s as invalid_request naming the field, and writes nothing', async (_what, extra, param, message) => {
    const before = await t.sb.countOrders();
    const reply = await post({ items: [{ menu_item_id: t.plain.id, quantity: 2 }], ...extra(t.plain.price) });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'invalid_request', param });
    expect(reply.body.error.message).toMatch(message);
    expect(await t.sb.countOrders()).toBe(before);
  });

  it('refuses a note over 140 characters', async () => {
    const reply = await post({ items: [{ menu_item_id: t.plain.id, quantity: 1, note: 'n'.repeat(141) }] });
    expect(reply.body.error).toMatchObject({ code: 'invalid_request', param: 'items.0.note' });
    expect((await post({ items: [{ menu_item_id: t.plain.id, quantity: 1, note: 'n'.repeat(140) }] })).status).toBe(201);
  });

  it.each([
    ['no size', [], 'Size needs exactly 1 choice (0 chosen)'],
    ['two sizes', ['Small', 'Large'], 'Size needs exactly 1 choice (2 chosen)'],
    ['four extras', ['Small', 'Oat milk', 'Extra shot', 'Vanilla syrup', 'Caramel'], 'Extras allows at most 3 choices (4 chosen)'],
  ])('enforces modifier groups: %s is refused naming the group', async (_what, names, message) => {
    const reply = await post({ items: [{ menu_item_id: t.plain.id, quantity: 1 }, { menu_item_id: t.coffee.id, quantity: 1, modifiers: choice(t.coffee, ...names) }] });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'invalid_request', param: 'items.1.modifiers', message: `items.1.modifiers: ${message}` });
  });

  it('takes exactly one size with up to three extras, and no side or up to three on a steak', async () => {
    const coffeeOk = await post({ items: [{ menu_item_id: t.coffee.id, quantity: 2, modifiers: choice(t.coffee, 'Large', 'Oat milk', 'Extra shot', 'Caramel') }] });
    expect(coffeeOk.status).toBe(201);
    expect(coffeeOk.body.subtotal).toBe(2 * price(t.coffee, 'Large', 'Oat milk', 'Extra shot', 'Caramel'));
    const steakOk = await post({ items: [{ menu_item_id: t.steak.id, quantity: 1, modifiers: choice(t.steak, 'Medium rare') }] });
    expect(steakOk.status).toBe(201);
    const noTemperature = await post({ items: [{ menu_item_id: t.steak.id, quantity: 1, modifiers: choice(t.steak, 'French fries') }] });
    expect(noTemperature.body.error.message).toBe('items.0.modifiers: Temperature needs exactly 1 choice (0 chosen)');
    // An item's ungrouped modifiers stay free extras.
    const burger = (await menuOf(t.sb)).find((i) => i.modifiers.length >= 2 && i.modifier_groups.length === 0);
    expect((await post({ items: [{ menu_item_id: burger.id, quantity: 1, modifiers: burger.modifiers.map((m: Loose) => m.id) }] })).status).toBe(201);
  });

  it('checks discounts and groups on PATCH too; kept order discounts must still fit new lines', async () => {
    const order = (await post({ items: [{ menu_item_id: t.plain.id, quantity: 3 }], discounts: [{ reason: 'Comp', amount: t.plain.price * 2 }] })).body;
    const smaller = await call(t.sb, 'PATCH', `/orders/${order.id}`, { key: t.key, body: { items: [{ menu_item_id: t.plain.id, quantity: 1 }] } });
    expect(smaller.body.error).toMatchObject({ code: 'invalid_request', param: 'discounts' });
    expect(smaller.body.error.message).toContain('send discounts again');
    const together = await call(t.sb, 'PATCH', `/orders/${order.id}`, { key: t.key, body: { items: [{ menu_item_id: t.plain.id, quantity: 1 }], discounts: [{ reason: 'Comp', amount: 1, line: 0 }] } });
    expect(together.status).toBe(200);
    expect(together.body).toMatchObject({ discount_total: 1, total: t.plain.price - 1 });
    const badLine = await call(t.sb, 'PATCH', `/orders/${order.id}`, { key: t.key, body: { discounts: [{ reason: 'Comp', amount: 1, line: 3 }] } });
    expect(badLine.body.error.param).toBe('discounts.0.line');
    const noSize = await call(t.sb, 'PATCH', `/orders/${order.id}`, { key: t.key, body: { items: [{ menu_item_id: t.coffee.id, quantity: 1 }] } });
    expect(noSize.body.error.param).toBe('items.0.modifiers');
    expect((await call(t.sb, 'GET', `/orders/${order.id}`, { key: t.key })).body).toEqual(together.body);
  });
});

describe('default profile: tips on payment intents', () => {
  const t = checkoutSuite();

  const order = async (extra: object = {}) =>
    (await call(t.sb, 'POST', '/orders', { key: t.key, body: { location_id: t.sb.credentials.locationIds[0], items: [{ menu_item_id: t.plain.id, quantity: 2 }], ...extra } })).body;
  const intent = (orderId: string, amount: number, tip?: number) =>
    call(t.sb, 'POST', '/payments/intents', { key: t.key, body: { order_id: orderId, amount, currency: 'usd', ...(tip === undefined ? {} : { tip_amount: tip }) } });

  it('charges the total plus the tip; the tip does not use up what is left to pay', async () => {
    const o = await order({ tax_total: 77 });
    expect(o.total).toBe(t.plain.price * 2 + 77);
    const tipped = await intent(o.id, o.total + 300, 300);
    expect(tipped.status).toBe(201);
    expect(tipped.body).toMatchObject({ amount: o.total + 300, tip_amount: 300 });
    const more = await intent(o.id, 1);
    expect(more.status).toBe(400);
    expect(more.body.error).toMatchObject({ code: 'invalid_request', param: 'amount' });
    // A tip alone is nothing towards the order, so it still does not fit.
    expect((await intent(o.id, 100, 99)).body.error.message).toMatch(/100 less its tip 99 is more than the 0 left to pay/);

    const captured = await call(t.sb, 'POST', `/payments/intents/${tipped.body.id}/capture`, { key: t.key });
    expect(captured.body).toMatchObject({ status: 'captured', amount_captured: o.total + 300, tip_amount: 300 });
    expect((await call(t.sb, 'GET', `/orders/${o.id}`, { key: t.key })).body.amount_paid).toBe(o.total + 300);
    // Refunds are unchanged: everything captured, tip included, can go back.
    const refund = await call(t.sb, 'POST', `/payments/${tipped.body.id}/refunds`, { key: t.key });
    expect(refund.body.amount).toBe(o.total + 300);
  });

  it('splits a bill with a tip on each part, never more than the total towards the order', async () => {
    const o = await order();
    const half = Math.floor(o.total / 2);
    expect((await intent(o.id, half + 100, 100)).status).toBe(201);
    expect((await intent(o.id, o.total - half + 1 + 50, 50)).body.error.param).toBe('amount');
    expect((await intent(o.id, o.total - half + 50, 50)).status).toBe(201);
    expect((await intent(o.id, 1)).status).toBe(400);
  });

  it('refuses a tip above the amount, and a negative tip', async () => {
    const o = await order();
    const over = await intent(o.id, 100, 101);
    expect(over.body.error).toMatchObject({ code: 'invalid_request', param: 'tip_amount' });
    expect((await intent(o.id, 100, -1)).body.error.param).toBe('tip_amount');
    const whole = await intent(o.id, 100, 100);
    expect(whole.status).toBe(201);
    expect(whole.body.tip_amount).toBe(100);
    expect((await intent(o.id, 50)).body.tip_amount).toBe(0);
  });

  it('refuses new lines whose total is below what the payments hold less their tips', async () => {
    const o = await order();
    expect((await intent(o.id, o.total + 500, 500)).status).toBe(201);
    const below = await call(t.sb, 'PATCH', `/orders/${o.id}`, { key: t.key, body: { items: [{ menu_item_id: t.plain.id, quantity: 1 }] } });
    expect(below.status).toBe(409);
    expect(below.body.error).toMatchObject({ code: 'invalid_state', param: 'items' });
    const discounted = await call(t.sb, 'PATCH', `/orders/${o.id}`, { key: t.key, body: { discounts: [{ reason: 'Comp', amount: 1 }] } });
    expect(discounted.body.error).toMatchObject({ code: 'invalid_state', param: 'discounts' });
    const taxed = await call(t.sb, 'PATCH', `/orders/${o.id}`, { key: t.key, body: { tax_total: 10 } });
    expect(taxed.body.total).toBe(o.total + 10);
  });
});

describe('default profile: menu items and locations', () => {
  const t = sandboxPerSuite();

  it('gives a created item the standard tax class unless told, and no groups', async () => {
    const category = (await call(t.sb, 'GET', '/menu/categories', { key: t.key })).body.data[0].id;
    const plain = await call(t.sb, 'POST', '/menu/items', { key: t.key, body: { name: 'Soda bread', price: 400, category_id: category } });
    expect(plain.body).toMatchObject({ tax_class: 'standard', modifier_groups: [] });
    const wine = await call(t.sb, 'POST', '/menu/items', { key: t.key, body: { name: 'Rosé', price: 1100, category_id: category, tax_class: 'alcohol' } });
    expect(wine.body.tax_class).toBe('alcohol');
    const patched = await call(t.sb, 'PATCH', `/menu/items/${plain.body.id}`, { key: t.key, body: { tax_class: 'food' } });
    expect(patched.body.tax_class).toBe('food');
    expect((await call(t.sb, 'PATCH', `/menu/items/${plain.body.id}`, { key: t.key, body: { tax_class: '' } })).body.error.param).toBe('tax_class');
    expect((await call(t.sb, 'POST', '/menu/items', { key: t.key, body: { name: 'x', price: 1, category_id: category, modifier_groups: [] } })).body.error.param).toBe('modifier_groups');
  });

  it('keeps groups in step when a PATCH replaces the modifiers', async () => {
    const coffee = byName(await menuOf(t.sb), 'Iced flat white');
    const keep = coffee.modifiers.filter((m: Loose) => m.name !== 'Small' && m.name !== 'Regular' && m.name !== 'Large').map((m: Loose) => ({ id: m.id, name: m.name, price: m.price }));
    const sized = coffee.modifiers.find((m: Loose) => m.name === 'Large');
    const patched = await call(t.sb, 'PATCH', `/menu/items/${coffee.id}`, { key: t.key, body: { modifiers: [{ id: sized.id, name: 'Large', price: 100 }, ...keep.slice(0, 2)] } });
    expect(patched.status).toBe(200);
    expect(patched.body.modifier_groups).toEqual([
      { ...coffee.modifier_groups[0], modifier_ids: [sized.id] },
      { ...coffee.modifier_groups[1], modifier_ids: keep.slice(0, 2).map((m: Loose) => m.id), min_choices: 0 },
    ]);
    const sizeless = await call(t.sb, 'PATCH', `/menu/items/${coffee.id}`, { key: t.key, body: { modifiers: keep.slice(0, 1) } });
    expect(sizeless.body.modifier_groups.map((g: Loose) => g.name)).toEqual(['Extras']);
    expect(sizeless.body.modifier_groups[0].min_choices).toBe(0);
  });
});

describe('the demo data', () => {
  let plain: Sandbox;
  let taxed: Sandbox;
  beforeAll(async () => {
    [plain, taxed] = await Promise.all([withSandbox(), withSandbox({ taxes: 'demo' })]);
  });
  afterAll(async () => {
    await Promise.all([plain.close(), taxed.close()]);
  });

  it('has no tax rates by default, the fields still present', async () => {
    const { body } = await call(plain, 'GET', '/locations', { key: plain.credentials.apiKeys.full });
    for (const location of body.data) expect(location).toMatchObject({ tax_rates: [], prices_include_tax: false, tax_rounding: 'per_line' });
  });

  it('with taxes demo: sales tax on top at Downtown (per line) and Mission (per order), included in Oakland’s prices, liquor tax on alcohol', async () => {
    const { body } = await call(taxed, 'GET', '/locations', { key: taxed.credentials.apiKeys.full });
    const [downtown, mission, oakland] = body.data;
    for (const location of body.data) locationSchema.parse(location);
    expect(downtown).toMatchObject({ prices_include_tax: false, tax_rounding: 'per_line' });
    expect(mission).toMatchObject({ prices_include_tax: false, tax_rounding: 'per_order' });
    expect(oakland).toMatchObject({ prices_include_tax: true, tax_rounding: 'per_line' });
    expect(downtown.tax_rates.map((r: Loose) => [r.name, r.tax_class, r.rate_bps])).toEqual([
      ['Sales tax', 'food', 875],
      ['Sales tax', 'standard', 875],
      ['Sales tax', 'alcohol', 875],
      ['Liquor tax', 'alcohol', 500],
    ]);
    expect(new Set(downtown.tax_rates.map((r: Loose) => r.id)).size).toBe(4);
  });

  it('classes every item: food, alcohol for beer and wine; groups only on the new items, which track stock', async () => {
    const menu = await menuOf(plain, plain.credentials.locationIds[2]);
    expect(menu.length).toBe(111);
    for (const item of menu) menuItemSchema.parse(item);
    expect(new Set(menu.map((i) => i.tax_class))).toEqual(new Set(['food', 'alcohol']));
    expect(menu.filter((i) => i.tax_class === 'alcohol').map((i) => i.name)).toEqual(['House red wine', 'House white wine', 'Lager']);
    const grouped = menu.filter((i) => i.modifier_groups.length > 0);
    expect(grouped.map((i) => i.name).sort()).toEqual(['Iced flat white', 'Ribeye steak']);
    for (const item of grouped) expect(item.stock).not.toBeNull();
    const coffee = byName(menu, 'Iced flat white');
    expect(coffee.modifier_groups.map((g: Loose) => [g.name, g.min_choices, g.max_choices, g.modifier_ids.length])).toEqual([
      ['Size', 1, 1, 3],
      ['Extras', 0, 3, 4],
    ]);
    expect(byName(menu, 'Ribeye steak').modifier_groups.map((g: Loose) => [g.name, g.min_choices, g.max_choices])).toEqual([
      ['Temperature', 1, 1],
      ['Sides', 0, 3],
    ]);
    // Every grouped modifier is the item's, in one group at most.
    for (const item of grouped) {
      const ids = item.modifier_groups.flatMap((g: Loose) => g.modifier_ids);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(item.modifiers.map((m: Loose) => m.id)).toContain(id);
    }
    // The first tracked item is still a dessert (suites that take it order it without modifiers).
    const all = (await call(plain, 'GET', '/menu/items?per_page=100', { key: plain.credentials.apiKeys.full })).body.data;
    expect(all.find((i: Loose) => i.stock !== null && i.location_id === null).modifier_groups).toEqual([]);
  });

  it('keeps 240 orders with their lines; online and delivery ones name a customer; no tax without taxes demo', async () => {
    const orders = await allOrders(plain);
    expect(orders).toHaveLength(240);
    for (const order of orders) {
      orderSchema.parse(order);
      expect(order.total).toBe(order.items.reduce((sum: number, l: Loose) => sum + l.price * l.quantity, 0));
      expect(order).toMatchObject({ subtotal: order.total, tax_total: 0, discount_total: 0, discounts: [] });
      expect(order.channel).toBe(order.metadata.channel);
      if (order.channel !== 'pos') expect(order.customer?.name).toEqual(expect.any(String));
      expect(order.order_type).toEqual(order.channel === 'delivery' ? 'delivery' : order.channel === 'online' ? 'takeout' : expect.stringMatching(/^(dine_in|takeout)$/));
      if (order.order_type === 'dine_in') expect(order.table).toMatch(/^\d+$/);
      else expect(order.table).toBeNull();
    }
    const channels = new Set(orders.map((o) => o.channel));
    expect(channels).toEqual(new Set(['pos', 'online', 'delivery']));
    expect(orders.some((o) => o.items.some((l: Loose) => l.note !== ''))).toBe(true);
  });

  it('with taxes demo: the same orders, each carrying the tax its location’s rates give, paid in full', async () => {
    const [all, untaxed, locations] = await Promise.all([allOrders(taxed), allOrders(plain), call(taxed, 'GET', '/locations', { key: taxed.credentials.apiKeys.full })]);
    const orders = all.filter((o) => !LIVE_NUMBERS.includes(o.order_number));
    const menu = new Map((await menuOf(taxed, taxed.credentials.locationIds[2])).map((i) => [i.id, i]));
    const byId = new Map(locations.body.data.map((l: Loose) => [l.id, l]));
    expect(orders.map((o) => o.subtotal)).toEqual(untaxed.map((o) => o.subtotal));
    for (const order of all) {
      const location = byId.get(order.location_id) as Loose;
      const nets = order.items.map((l: Loose, index: number) => ({
        net: l.price * l.quantity - order.discounts.filter((d: Loose) => d.line === index).reduce((sum: number, d: Loose) => sum + d.amount, 0),
        taxClass: menu.get(l.menu_item_id).tax_class,
      }));
      const tax = demoTax(location, nets);
      expect(tax).toBeGreaterThan(0);
      expect(order).toMatchObject({ tax_total: tax, tax_included: location.prices_include_tax, total: order.subtotal - order.discount_total + (location.prices_include_tax ? 0 : tax) });
      if (order.status === 'fulfilled') expect(order.amount_paid).toBe(order.total);
    }
  });

  it('with taxes demo: a few online and delivery orders of the last hour wait open at the tills', async () => {
    const live = (await allOrders(taxed)).filter((o) => LIVE_NUMBERS.includes(o.order_number));
    expect(live.map((o) => o.order_number).sort()).toEqual([...LIVE_NUMBERS].sort());
    for (const order of live) {
      expect(order).toMatchObject({ status: 'open', channel: expect.stringMatching(/^(online|delivery)$/), customer: { name: expect.any(String) } });
      expect(order.order_type).toBe(order.channel === 'delivery' ? 'delivery' : 'takeout');
      expect(Date.parse(order.created_at)).toBeGreaterThan(taxed.clock.now() - 3600_000);
    }
    expect(live.filter((o) => o.location_id === taxed.credentials.locationIds[0]).length).toBeGreaterThanOrEqual(3);
    const promo = live.find((o) => o.discounts.length > 0);
    expect(promo.discounts).toEqual([{ reason: 'Online promo', amount: 500, line: 0 }]);
    expect(promo.items[0].modifiers.map((m: Loose) => m.name)).toEqual(['Medium rare', 'French fries', 'Side salad']);
    expect(live.filter((o) => o.amount_paid === o.total).length).toBe(4);
    // Without taxes demo there are none.
    expect((await allOrders(plain)).filter((o) => LIVE_NUMBERS.includes(o.order_number))).toEqual([]);
  });

  it('computes tax as the till does: per line or per order, on top or inside the price', () => {
    const rates = [
      { id: 'tax_a', name: 'Sales tax', tax_class: 'food', rate_bps: 875 },
      { id: 'tax_b', name: 'Liquor tax', tax_class: 'alcohol', rate_bps: 500 },
      { id: 'tax_c', name: 'Sales tax', tax_class: 'alcohol', rate_bps: 875 },
    ];
    const lines = [
      { net: 1050, taxClass: 'food' },
      { net: 1050, taxClass: 'food' },
      { net: 800, taxClass: 'alcohol' },
      { net: 999, taxClass: 'none' },
    ];
    // 1050 × 8.75 % = 91.875 → 92 per line; 2100 → 183.75 → 184 per order. Alcohol: 40 + 70.
    expect(demoTax({ tax_rates: rates, prices_include_tax: false, tax_rounding: 'per_line' }, lines)).toBe(92 + 92 + 40 + 70);
    expect(demoTax({ tax_rates: rates, prices_include_tax: false, tax_rounding: 'per_order' }, lines)).toBe(184 + 40 + 70);
    // Inside: 1050 − round(1050 / 1.0875) = 1050 − 966 = 84; 2100 − 1931 = 169; 800 − round(800 / 1.1375) = 800 − 703 = 97.
    expect(demoTax({ tax_rates: rates, prices_include_tax: true, tax_rounding: 'per_line' }, lines)).toBe(84 + 84 + 97);
    expect(demoTax({ tax_rates: rates, prices_include_tax: true, tax_rounding: 'per_order' }, lines)).toBe(169 + 97);
  });

  it('the dashboard seeds with the sandbox’s taxes option, or the one given', async () => {
    const empty = await withSandbox({ seed: 'none', taxes: 'demo' });
    const other = await withSandbox({ seed: 'none' });
    try {
      expect((await dashboard(empty, 'POST', '/seed', { dataset: 'demo' })).status).toBe(200);
      expect((await call(empty, 'GET', '/locations', { key: empty.credentials.apiKeys.full })).body.data[0].tax_rates).toHaveLength(4);
      expect((await dashboard(other, 'POST', '/seed', { dataset: 'demo', taxes: 'demo' })).status).toBe(200);
      expect((await call(other, 'GET', '/locations', { key: other.credentials.apiKeys.full })).body.data[2].prices_include_tax).toBe(true);
      expect((await dashboard(other, 'POST', '/seed', { dataset: 'demo', taxes: 'vat' })).status).toBe(400);
    } finally {
      await Promise.all([empty.close(), other.close()]);
    }
  });
});

describe('events carry the checkout fields in the default profile only', () => {
  let sb: Sandbox;
  let receiver: Receiver;
  beforeAll(async () => {
    sb = await withSandbox();
    receiver = await startReceiver();
    await sb.createWebhookEndpoint({ url: receiver.url, event_types: ['order.created', 'order.updated', 'payment.completed'] });
  });
  afterAll(async () => {
    await sb.close();
    await receiver.close();
  });

  it('order.created, order.updated and payment.completed', async () => {
    const key = sb.credentials.apiKeys.full;
    const plain = plainItem(await menuOf(sb));
    const body = { location_id: sb.credentials.locationIds[0], items: [{ menu_item_id: plain.id, quantity: 2, note: 'no salt' }], order_number: 'C3', order_type: 'takeout', discounts: [{ reason: 'Staff', amount: 50 }], tax_total: 40 };
    const order = (await call(sb, 'POST', '/orders', { key, body })).body;
    await call(sb, 'PATCH', `/orders/${order.id}`, { key, body: { table: '4', order_type: 'dine_in', guests: 2 } });
    const pay = (await call(sb, 'POST', '/payments/intents', { key, body: { order_id: order.id, amount: order.total + 100, tip_amount: 100, currency: 'usd' } })).body;
    await call(sb, 'POST', `/payments/intents/${pay.id}/capture`, { key });
    await waitFor(() => receiver.arrivals.length === 3, 5000, 'three events');
    const events = receiver.arrivals.map((a) => webhookEventSchema.parse(JSON.parse(a.rawBody.toString('utf8'))));
    const [created, updated, completed] = events.sort((a, b) => a.type.localeCompare(b.type));
    expect(created?.type).toBe('order.created');
    expect(created?.data.attributes).toMatchObject({ order_number: 'C3', order_type: 'takeout', channel: 'pos', discount_total: 50, tax_total: 40, total: order.total, subtotal: plain.price * 2 });
    expect((created?.data.attributes as Loose).items[0].note).toBe('no salt');
    expect(updated?.data.attributes).toMatchObject({ table: '4', order_type: 'dine_in', guests: 2, order_number: 'C3' });
    expect(completed?.data.attributes).toMatchObject({ tip_amount: 100, amount: order.total + 100 });
    paymentSchema.parse(completed?.data.attributes);
  });
});

describe('spec-minimal knows nothing of checkout', () => {
  const t = checkoutSuite();
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    await t.sb.createWebhookEndpoint({ url: receiver.url, event_types: ['order.created'] });
    t.sb.updateSettings({ profile: 'spec-minimal', events_before_reply: false });
  });
  afterAll(() => receiver.close());

  /** A /v1 call without the default profile's schema checks. */
  async function v1(method: string, path: string, body?: unknown): Promise<{ status: number; body: Loose }> {
    const response = await fetch(`${t.sb.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${t.key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** The stored record, read through the default profile. */
  async function asDefault(path: string): Promise<Loose> {
    t.sb.updateSettings({ profile: 'default' });
    try {
      return (await call(t.sb, 'GET', path, { key: t.key })).body;
    } finally {
      t.sb.updateSettings({ profile: 'spec-minimal', events_before_reply: false });
    }
  }

  it('accepts the checkout fields whatever their value, ignores them and sends none back; the total is Σ price × quantity', async () => {
    const created = await v1('POST', '/orders', {
      location_id: t.loc,
      items: [
        { menu_item_id: t.plain.id, quantity: 2, note: 42 },
        { menu_item_id: t.coffee.id, quantity: 1 },
      ],
      order_number: 'A'.repeat(40),
      order_type: 'hovercraft',
      table: '7',
      guests: 0,
      discounts: 'all of it',
      tax_total: 999,
      tax_included: 'maybe',
    });
    expect(created.status).toBe(201);
    specOrderSchema.parse(created.body);
    expect(created.body.total).toBe(t.plain.price * 2 + t.coffee.price);
    const stored = await asDefault(`/orders/${created.body.id}`);
    expect(stored).toMatchObject({ order_number: null, order_type: null, table: null, guests: null, channel: 'pos', discounts: [], tax_total: 0, subtotal: created.body.total, total: created.body.total });
    expect(stored.items.map((l: Loose) => l.note)).toEqual(['', '']);

    const list = await v1('GET', '/orders?per_page=5');
    for (const order of list.body.data) specOrderSchema.parse(order);
    const menu = await v1('GET', `/menu/items?per_page=100&location_id=${t.loc}`);
    for (const item of menu.body.data) expect(Object.keys(item).sort()).toEqual(['available', 'category_id', 'description', 'id', 'name', 'price']);
    const locations = await v1('GET', '/locations');
    for (const location of locations.body.data) expect(Object.keys(location).sort()).toEqual(['id', 'name']);
  });

  it('answers a PATCH of checkout fields only with 200 and changes nothing', async () => {
    const created = (await v1('POST', '/orders', { location_id: t.loc, items: [{ menu_item_id: t.plain.id, quantity: 1 }] })).body;
    const patched = await v1('PATCH', `/orders/${created.id}`, { table: '9', discounts: [{ reason: 'x', amount: 1 }] });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual(created);
    expect(await asDefault(`/orders/${created.id}`)).toMatchObject({ table: null, discounts: [] });
  });

  it('does not enforce modifier groups', async () => {
    const none = await v1('POST', '/orders', { location_id: t.loc, items: [{ menu_item_id: t.coffee.id, quantity: 1 }] });
    expect(none.status).toBe(201);
    const all = await v1('POST', '/orders', { location_id: t.loc, items: [{ menu_item_id: t.coffee.id, quantity: 1, modifiers: t.coffee.modifiers.map((m: Loose) => m.id) }] });
    expect(all.status).toBe(201);
  });

  it('takes a payment above the total (the till’s tax and tip), and ignores tip_amount', async () => {
    const order = (await v1('POST', '/orders', { location_id: t.loc, items: [{ menu_item_id: t.plain.id, quantity: 1 }] })).body;
    const over = await v1('POST', '/payments/intents', { order_id: order.id, amount: order.total + 250, currency: 'usd', tip_amount: 'generous' });
    expect(over.status).toBe(201);
    expect(Object.keys(over.body).sort()).toEqual(['amount', 'currency', 'id', 'order_id', 'status']);
    expect(over.body.amount).toBe(order.total + 250);
    expect((await v1('POST', '/payments/intents', { order_id: order.id, amount: 5000, currency: 'usd' })).status).toBe(201);
    expect((await asDefault(`/orders/${order.id}`)).total).toBe(order.total);
    // Nor does it refuse new lines below what the payments hold.
    const smaller = await v1('PATCH', `/orders/${order.id}`, { items: [{ menu_item_id: t.plain.id, quantity: 1 }] });
    expect(smaller.status).toBe(200);
    // The other payment rules stand.
    expect((await v1('POST', '/payments/intents', { order_id: order.id, amount: 100, currency: 'eur' })).status).toBe(422);
  });

  it('new lines on an order discounted in the default profile make its total Σ price × quantity', async () => {
    t.sb.updateSettings({ profile: 'default' });
    const order = (await call(t.sb, 'POST', '/orders', { key: t.key, body: { location_id: t.loc, items: [{ menu_item_id: t.plain.id, quantity: 2 }], discounts: [{ reason: 'Comp', amount: 100 }], tax_total: 30, order_number: 'D1' } })).body;
    t.sb.updateSettings({ profile: 'spec-minimal', events_before_reply: false });
    const relined = await v1('PATCH', `/orders/${order.id}`, { items: [{ menu_item_id: t.plain.id, quantity: 3 }] });
    expect(relined.body.total).toBe(t.plain.price * 3);
    expect(await asDefault(`/orders/${order.id}`)).toMatchObject({ discounts: [], tax_total: 0, order_number: 'D1', total: t.plain.price * 3 });
  });

  it('ignores tax_class on menu items', async () => {
    const category = (await v1('GET', '/menu/categories')).body.data[0].id;
    const created = await v1('POST', '/menu/items', { name: 'Shandy', price: 700, category_id: category, tax_class: 17 });
    expect(created.status).toBe(201);
    expect((await v1('PATCH', `/menu/items/${created.body.id}`, { tax_class: 'alcohol' })).status).toBe(200);
    const stored = (await asDefault(`/menu/items?per_page=100&location_id=${t.loc}`)).data.find((i: Loose) => i.id === created.body.id);
    expect(stored.tax_class).toBe('standard');
  });

  it('sends order events with the spec’s attributes only', async () => {
    const created = await v1('POST', '/orders', { location_id: t.loc, items: [{ menu_item_id: t.plain.id, quantity: 1, note: 'x' }], order_number: 'Z9' });
    const find = () => receiver.arrivals.map((a) => JSON.parse(a.rawBody.toString('utf8'))).find((e) => e.data.id === created.body.id);
    await waitFor(() => find() !== undefined, 5000, 'the event');
    expect(specOrderEventAttributesSchema.safeParse(find().data.attributes).success).toBe(true);
  });
});

describe('a database written before the checkout fields', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-checkout-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gets their defaults once, when it is opened', async () => {
    const dbFile = join(dir, 'old.sqlite');
    const first = await withSandbox({ dbFile });
    const key = first.credentials.apiKeys.full;
    const plain = (await menuOf(first)).find((i) => i.available && i.modifiers.length === 0 && i.stock === null);
    const order = (await call(first, 'POST', '/orders', { key, body: { location_id: first.credentials.locationIds[0], items: [{ menu_item_id: plain.id, quantity: 1 }], order_number: 'A1' } })).body;
    const pay = (await call(first, 'POST', '/payments/intents', { key, body: { order_id: order.id, amount: order.total, currency: 'usd' } })).body;
    // Back to the shapes stored before: no checkout fields anywhere.
    const strip = (doc: string, fields: string[]) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(doc)).filter(([k]) => !fields.includes(k))));
    const oldOrder = JSON.parse(strip(JSON.stringify(order), ['order_number', 'order_type', 'table', 'guests', 'channel', 'subtotal', 'discounts', 'discount_total', 'tax_total', 'tax_included']));
    oldOrder.items = oldOrder.items.map(({ note: _note, ...line }: Loose) => line);
    await first.db.updateTable('orders').set({ doc: JSON.stringify({ ...oldOrder, metadata: { channel: 'delivery' } }) }).where('id', '=', order.id).execute();
    await first.db.updateTable('payments').set({ doc: strip(JSON.stringify(pay), ['tip_amount']) }).where('id', '=', pay.id).execute();
    await first.db.updateTable('locations').set({ doc: strip(JSON.stringify((await call(first, 'GET', '/locations', { key })).body.data[0]), ['tax_rates', 'prices_include_tax', 'tax_rounding']) }).where('id', '=', first.credentials.locationIds[0] as string).execute();
    await first.db.updateTable('menu_items').set({ doc: strip(JSON.stringify(plain), ['tax_class', 'modifier_groups']) }).where('id', '=', plain.id).execute();
    await first.db.deleteFrom('settings').where('name', '=', 'docs_version').execute();
    await first.close();

    const second = await withSandbox({ dbFile });
    try {
      const read = await call(second, 'GET', `/orders/${order.id}`, { key });
      expect(read.body).toMatchObject({ channel: 'delivery', order_number: null, subtotal: order.total, total: order.total, discounts: [], tax_total: 0 });
      expect(Object.keys(read.body)).toEqual(Object.keys(order));
      expect(read.body.items[0].note).toBe('');
      const location = (await call(second, 'GET', `/locations/${second.credentials.locationIds[0]}`, { key })).body;
      expect(location).toMatchObject({ tax_rates: [], prices_include_tax: false, tax_rounding: 'per_line' });
      const item = (await menuOf(second)).find((i) => i.id === plain.id);
      expect(item).toMatchObject({ tax_class: 'standard', modifier_groups: [] });
      const stored = JSON.parse((await second.db.selectFrom('payments').select('doc').where('id', '=', pay.id).executeTakeFirstOrThrow()).doc);
      expect(paymentSchema.parse(stored).tip_amount).toBe(0);
    } finally {
      await second.close();
    }
  });
});

describe('npm run sandbox -- --taxes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-taxes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a bad value with exit 2 naming the flag', async () => {
    const cli = runSandboxCli(['--taxes', 'vat']);
    expect(await cli.exited).toBe(2);
    expect(cli.err()).toContain('--taxes must be demo or none, not vat');
    expect(cli.err()).toContain('[--taxes demo|none]');
  });

  it('seeds the demo tax rates by default', async () => {
    const credentialsFile = join(dir, 'credentials.json');
    const cli = runSandboxCli(['--seed', 'demo', '--credentials-out', credentialsFile]);
    try {
      await waitFor(() => cli.out().includes('sandbox ready:'), 30_000, 'the CLI');
      const written = JSON.parse(readFileSync(credentialsFile, 'utf8'));
      const response = await fetch(`${written.base_url}/locations`, { headers: { Authorization: `Bearer ${written.api_keys.full}` } });
      const body = (await response.json()) as Loose;
      expect(body.data.map((l: Loose) => l.tax_rates.length)).toEqual([4, 4, 4]);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });
});
