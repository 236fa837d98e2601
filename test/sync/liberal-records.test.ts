// What the terminal reads from a /v1 it did not write: records with only the fields the spec
// shows, flat or in the {id, type, attributes} shape, error bodies of any reasonable shape and
// Retry-After as an HTTP date. Each case goes through the real ApiClient over HTTP (a small
// server answering fixed bodies) and, for records, into a real store as a whole document.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  clientCategorySchema,
  clientListEnvelopeSchema,
  clientLocationSchema,
  clientMenuItemSchema,
  clientOrderSchema,
  type ClientCategory,
  type ClientLocation,
  type ClientMenuItem,
  type ClientOrder,
} from '../../api/client-records';
import { ManualClock } from '../../common/clock';
import type { ServerRecord } from '../../store/index';
import { ApiClient } from '../../sync/api-client';
import { ApiError } from '../../sync/api-error';
import { ApiKeyCredentials } from '../../sync/credentials';
import { categoryRecord, locationRecord, menuItemRecord, orderRecord } from '../../sync/server-records';
import { openStore, tempStoreFile } from './harness';

/** Path → [status, headers, body] the test server answers. */
const replies = new Map<string, [number, Record<string, string>, string]>();
let server: Server;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2026-11-24T12:00:00.000Z'));

beforeAll(async () => {
  server = createServer((req, res) => {
    const [status, headers, body] = replies.get((req.url ?? '').replace(/^\/v1/, '')) ?? [404, { 'content-type': 'text/plain' }, 'no such fixture'];
    res.writeHead(status, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  api = new ApiClient({ baseUrl: `http://127.0.0.1:${port}/v1`, credentials: new ApiKeyCredentials(async () => 'sk_test_liberal'), clock, timeoutMs: 5_000 });
});
afterAll(async () => {
  await api.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function serve(path: string, body: unknown, status = 200, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  replies.set(path, [status, headers, typeof body === 'string' ? body : JSON.stringify(body)]);
}

/** The spec's fields only, per kind (its tables; the location and category records are "not shown": an id and a name). */
const SPEC_ONLY = {
  menu_item: { id: 'mi_7', name: 'Garlic knots', price: 650, category_id: 'cat_2', description: 'Six knots', available: false },
  order: {
    id: 'ord_9',
    location_id: 'loc_1',
    status: 'open',
    total: 1950,
    customer: { name: 'Ada', phone: '555-0100' },
    items: [{ menu_item_id: 'mi_7', name: 'Garlic knots', quantity: 3, price: 650, modifiers: [] as string[] }],
  },
  location: { id: 'loc_1', name: 'Harbor & Vine, Oakland' },
  category: { id: 'cat_2', name: 'Starters' },
};

type Kind = keyof typeof SPEC_ONLY;
const TYPES: Record<Kind, string> = { menu_item: 'menu_item', order: 'order', location: 'location', category: 'category' };

/** The {id, type, attributes} shape of a flat record; references become relationships. */
function asResource(kind: Kind, record: Record<string, unknown>) {
  const { id, location_id: locationId, category_id: categoryId, ...attributes } = record;
  const relationships: Record<string, unknown> = {};
  if (locationId !== undefined) relationships.location = { data: { type: 'location', id: locationId } };
  if (categoryId !== undefined) relationships.category = { data: { type: 'category', id: categoryId } };
  return { id, type: TYPES[kind], attributes, relationships, meta: { served_by: 'an independent /v1' } };
}

const CASES: Record<Kind, { path: string; schema: z.ZodType; toRecord: (r: unknown) => ServerRecord }> = {
  menu_item: { path: '/menu/items', schema: clientMenuItemSchema, toRecord: (r: unknown) => menuItemRecord(r as ClientMenuItem) },
  order: { path: '/orders', schema: clientOrderSchema, toRecord: (r: unknown) => orderRecord(r as ClientOrder) },
  location: { path: '/locations', schema: clientLocationSchema, toRecord: (r: unknown) => locationRecord(r as ClientLocation) },
  category: { path: '/menu/categories', schema: clientCategorySchema, toRecord: (r: unknown) => categoryRecord(r as ClientCategory) },
};

/** What the store holds for each kind once the record is read: the spec's fields, and docs/spec-gaps.md's defaults for the rest. */
const EXPECTED: Record<Kind, Record<string, unknown>> = {
  menu_item: { name: 'Garlic knots', price: 650, currency: 'eur', category_id: 'cat_2', description: 'Six knots', available: false, location_id: null, modifier_ids: [], low_stock: false, barcode: null },
  order: {
    location_id: 'loc_1',
    status: 'open',
    total: 1950,
    currency: 'eur',
    customer: { name: 'Ada', phone: '555-0100' },
    lines: [{ menu_item_id: 'mi_7', name: 'Garlic knots', quantity: 3, unit_price: 650, modifiers: [] }],
    notes: '',
    created_at: clock.now(),
    updated_at: clock.now(),
  },
  location: { name: 'Harbor & Vine, Oakland', currency: 'eur', address: null, timezone: null },
  category: { name: 'Starters', position: 0 },
};

describe('records with only the fields the spec shows', () => {
  for (const shape of ['flat', 'attributes'] as const) {
    for (const kind of Object.keys(SPEC_ONLY) as Kind[]) {
      it(`${kind}, ${shape}: read one and as a list item, kept whole with the documented defaults`, async () => {
        const { path, schema, toRecord } = CASES[kind];
        const record = shape === 'flat' ? SPEC_ONLY[kind] : asResource(kind, SPEC_ONLY[kind]);
        serve(`${path}/${SPEC_ONLY[kind].id}`, shape === 'flat' ? record : { data: record });
        serve(`${path}?page=1`, { data: [record], meta: { total: 1, page: 1, per_page: 20, total_pages: 1 }, links: { first: '', prev: null, next: null, last: '' } });

        const single = await api.call({ method: 'GET', path: `${path}/${SPEC_ONLY[kind].id}`, schema });
        const list = await api.call({ method: 'GET', path, query: { page: 1 }, schema: clientListEnvelopeSchema(schema) });
        const one = single.data;
        expect(one).toEqual(list.data.data[0]);
        expect(one).toMatchObject({ id: SPEC_ONLY[kind].id });

        // A store whose currency is euros (config): money without a currency is in it.
        const store = openStore(tempStoreFile(), { clock, currency: 'eur' });
        try {
          store.server.applyServerRecord(kind, toRecord(one));
          const doc = store.server.readBase(kind, SPEC_ONLY[kind].id);
          expect(doc).toMatchObject({ id: SPEC_ONLY[kind].id, ...EXPECTED[kind] });
        } finally {
          store.close();
        }
      });
    }
  }

  it("an order's unknown fields are kept, and its location's currency wins over the store's", async () => {
    serve('/orders/ord_x', { ...SPEC_ONLY.order, id: 'ord_x', table: 'T4' });
    const { data } = await api.call({ method: 'GET', path: '/orders/ord_x', schema: clientOrderSchema });
    expect(data).toMatchObject({ table: 'T4' });
    const store = openStore(tempStoreFile(), { clock, currency: 'eur' });
    try {
      store.server.applyServerRecord('location', locationRecord(clientLocationSchema.parse({ id: 'loc_1', name: 'Oakland', currency: 'USD' })));
      store.server.applyServerRecord('order', orderRecord(data));
      expect(store.server.readBase('order', 'ord_x')?.currency).toBe('usd');
    } finally {
      store.close();
    }
  });

  it('a record already known keeps what the server leaves out (its timestamps, its customer)', () => {
    const store = openStore(tempStoreFile(), { clock });
    try {
      store.server.applyServerRecord('order', orderRecord(clientOrderSchema.parse({ ...SPEC_ONLY.order, id: 'ord_k', currency: 'usd', created_at: '2026-11-20T09:00:00.000Z', updated_at: '2026-11-20T09:05:00.000Z' })));
      const { customer: _customer, ...withoutCustomer } = SPEC_ONLY.order;
      store.server.applyServerRecord('order', orderRecord(clientOrderSchema.parse({ ...withoutCustomer, id: 'ord_k', status: 'fulfilled' })));
      expect(store.server.readBase('order', 'ord_k')).toMatchObject({
        status: 'fulfilled',
        customer: { name: 'Ada', phone: '555-0100' },
        created_at: Date.parse('2026-11-20T09:00:00.000Z'),
        updated_at: Date.parse('2026-11-20T09:05:00.000Z'),
      });
    } finally {
      store.close();
    }
  });

  it('an order without a total charges what its lines add up to', () => {
    const { total: _total, ...withoutTotal } = SPEC_ONLY.order;
    expect(orderRecord(clientOrderSchema.parse(withoutTotal)).total).toBe(1950);
  });
});

describe("the checkout's fields beyond the spec", () => {
  it('reads a location\'s tax rates in any of the three spellings, in either record shape, as parts per million', () => {
    const rates = [
      { tax_class: 'food', name: 'Sales tax', percentage: '8.875' },
      { tax_class: 'alcohol', name: 'Liquor tax', rate_bps: 500 },
      { name: 'City tax', rate_ppm: 3_750 },
    ];
    const flat = { id: 'loc_t', name: 'Oakland', tax_rates: rates, prices_include_tax: false, tax_rounding: 'PER_ORDER' };
    for (const record of [flat, asResource('location', flat)]) {
      expect(locationRecord(clientLocationSchema.parse(record)).tax).toEqual({
        rates: [
          { tax_class: 'food', name: 'Sales tax', rate_ppm: 88_750 },
          { tax_class: 'alcohol', name: 'Liquor tax', rate_ppm: 50_000 },
          { tax_class: 'standard', name: 'City tax', rate_ppm: 3_750 },
        ],
        prices_include_tax: false,
        rounding: 'per_order',
      });
    }
  });

  it('ignores a malformed checkout field and still reads the record whole', () => {
    const store = openStore(tempStoreFile(), { clock, currency: 'usd' });
    try {
      store.server.applyServerRecord('location', locationRecord(clientLocationSchema.parse({ id: 'loc_m', name: 'Oakland', tax_rates: 'eight percent' })));
      expect(store.server.readBase('location', 'loc_m')).toMatchObject({ name: 'Oakland', tax: null });
      const order = clientOrderSchema.parse({ ...SPEC_ONLY.order, id: 'ord_m', guests: 'many', order_type: 'teleport', tax_total: -5 });
      store.server.applyServerRecord('order', orderRecord(order));
      expect(store.server.readBase('order', 'ord_m')).toMatchObject({ total: 1950, service: null, cloud_check: null });
    } finally {
      store.close();
    }
  });

  it("reads an order's number, service and the cloud's figures, with its subtotal as what the items come to", () => {
    const flat = { ...SPEC_ONLY.order, id: 'ord_c', order_number: 42, order_type: 'takeaway', channel: 'Delivery', subtotal: 1950, discount_total: 195, tax_total: 156, tax_included: false, total: 1911 };
    for (const record of [flat, { data: asResource('order', flat) }]) {
      expect(orderRecord(clientOrderSchema.parse(record))).toMatchObject({
        number: '42',
        service: { type: 'takeout', table: null, guests: null },
        channel: 'delivery',
        total: 1950,
        cloud_check: { total: 1911, subtotal: 1950, discount_total: 195, tax_total: 156, tax_included: false },
      });
    }
  });

  it("keeps the till's own line fields when the server's lines come back without them", () => {
    const store = openStore(tempStoreFile(), { clock, currency: 'usd' });
    try {
      const record = orderRecord(clientOrderSchema.parse({ ...SPEC_ONLY.order, id: 'ord_n' }));
      const lines = record.lines as Record<string, unknown>[];
      store.server.applyServerRecord('order', { ...record, lines: [{ ...lines[0], note: 'no garlic', tax_class: 'food', discount: { kind: 'percent', value: 1000, reason: 'Regulars' } }] });
      store.server.applyServerRecord('order', orderRecord(clientOrderSchema.parse({ ...SPEC_ONLY.order, id: 'ord_n', status: 'fulfilled' })));
      expect(store.server.readBase('order', 'ord_n')?.lines[0]).toMatchObject({ note: 'no garlic', tax_class: 'food', discount: { reason: 'Regulars' } });
    } finally {
      store.close();
    }
  });
});

describe('error replies of any reasonable shape', () => {
  const cases: { name: string; status: number; body: string; type?: string; kind: string; code: string | null }[] = [
    { name: '{error:{code}}', status: 400, body: '{"error":{"code":"invalid_request","message":"bad"}}', kind: 'invalid', code: 'invalid_request' },
    { name: '{errors:[{code,detail}]} (JSON:API)', status: 422, body: '{"errors":[{"code":"invalid_request","detail":"items.0.quantity: too small"}]}', kind: 'invalid', code: 'invalid_request' },
    { name: 'a bare {code,message}', status: 404, body: '{"code":"not_found","message":"no order"}', kind: 'not_found', code: 'not_found' },
    { name: 'text, 401', status: 401, body: 'Unauthorized', type: 'text/plain', kind: 'authentication', code: null },
    { name: 'text, 403', status: 403, body: 'Forbidden', type: 'text/plain', kind: 'permission', code: null },
    { name: 'empty, 404', status: 404, body: '', kind: 'not_found', code: null },
    { name: 'empty, 409', status: 409, body: '', kind: 'invalid', code: null },
    { name: 'empty, 422', status: 422, body: '', kind: 'invalid', code: null },
    { name: 'empty, 429', status: 429, body: '', kind: 'rate_limited', code: null },
    { name: 'HTML, 502', status: 502, body: '<html><body>Bad gateway</body></html>', type: 'text/html', kind: 'server', code: null },
    { name: 'text, 500', status: 500, body: 'Internal Server Error', type: 'text/plain', kind: 'server', code: null },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.kind}`, async () => {
      serve(`/errors/${c.status}-${cases.indexOf(c)}`, c.body, c.status, { 'content-type': c.type ?? 'application/json' });
      const error = await api.call({ method: 'GET', path: `/errors/${c.status}-${cases.indexOf(c)}`, schema: clientOrderSchema }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect({ kind: (error as ApiError).kind, code: (error as ApiError).code, status: (error as ApiError).status }).toEqual({ kind: c.kind, code: c.code, status: c.status });
    });
  }

  it('Retry-After as an HTTP date is waited for, as in seconds', async () => {
    const at = new Date(clock.now() + 7_000).toUTCString();
    serve('/busy-date', '{"errors":[{"code":"rate_limit_exceeded"}]}', 429, { 'content-type': 'application/json', 'retry-after': at });
    serve('/busy-seconds', '', 429, { 'retry-after': '7' });
    for (const path of ['/busy-date', '/busy-seconds']) {
      const error = (await api.call({ method: 'GET', path, schema: clientOrderSchema }).catch((e: unknown) => e)) as ApiError;
      expect(error.kind).toBe('rate_limited');
      expect(error.retryAfterMs).toBe(7_000);
    }
  });
});
