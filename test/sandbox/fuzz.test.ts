// Throws malformed bodies, parameters and ids at every endpoint: never a 500, never a body off its
// schema (call() checks), and a refused request never changes anything.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../../api/endpoints';
import type { Sandbox } from '../../sandbox/index';
import { DEFAULT_RATE_LIMIT } from '../../sandbox/rate-limit';
import { call, createOrder, sellableItem, withSandbox, type Loose } from './helpers';

let sb: Sandbox;
let key: string;
let ids: string[];
let validBodies: Record<string, Record<string, unknown>>;

beforeAll(async () => {
  sb = await withSandbox();
  key = sb.credentials.apiKeys.full;
  const item = await sellableItem(sb, 1);
  const order = await createOrder(sb);
  const payment = (await call(sb, 'POST', '/payments/intents', { key, body: { order_id: order.id, amount: 100, currency: 'usd' } })).body;
  const category = (await call(sb, 'GET', '/menu/categories', { key })).body.data[0].id;
  const endpoint = await sb.createWebhookEndpoint({ url: 'http://127.0.0.1:1/nowhere', event_types: ['order.created'] });
  ids = [item.id, order.id, payment.id, category, sb.credentials.locationIds[0] as string, item.modifiers[0].id];
  validBodies = {
    createOrder: { location_id: sb.credentials.locationIds[0], items: [{ menu_item_id: item.id, quantity: 1, modifiers: [item.modifiers[0].id] }], customer: { name: 'F' } },
    updateOrder: { items: [{ menu_item_id: item.id, quantity: 2 }], customer: null },
    createPaymentIntent: { order_id: order.id, amount: 1, currency: 'usd' },
    capturePaymentIntent: { amount_to_capture: 1 },
    createRefund: { amount: 1, reason: 'duplicate' },
    updateLocation: { name: 'Fuzzed', address: { city: 'Fuzz' } },
    createMenuItem: { name: 'Fuzz', price: 100, category_id: category, modifiers: [{ name: 'm', price: 1 }] },
    updateMenuItem: { price: 200, modifiers: [{ id: item.modifiers[0].id, name: 'n', price: 2 }] },
    sendTestWebhook: { endpoint_id: endpoint.id, event_type: 'order.created' },
  };
});
afterAll(() => sb.close());

/** A fingerprint of everything the API can write. */
async function snapshot(): Promise<string> {
  const tables = ['locations', 'categories', 'menu_items', 'orders', 'payments', 'events', 'deliveries', 'idempotency'];
  const parts: string[] = [];
  for (const table of tables) {
    const hasDoc = ['locations', 'categories', 'menu_items', 'orders', 'payments'].includes(table);
    const row = await sql<{ n: number; h: number | null }>`select count(*) as n, ${hasDoc ? sql`sum(length(doc) + unicode(substr(doc, length(doc) / 2)))` : sql`0`} as h from ${sql.table(table)}`.execute(sb.db);
    parts.push(`${table}:${row.rows[0]?.n}:${row.rows[0]?.h}`);
  }
  return parts.join('|');
}

const weirdString = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', ' ', '%', '%zz', '../', 'ord_', 'null', '0', '-1', '1e3', '１', '\u0000', 'a'.repeat(300)));
const anyJson = fc.oneof(fc.anything({ maxDepth: 3 }), weirdString, fc.integer(), fc.double(), fc.constant(null), fc.boolean());

function mutate(body: Record<string, unknown>) {
  return fc.oneof(
    fc.record({ key: fc.constantFrom(...Object.keys(body), 'extra', '__proto__', 'constructor'), value: anyJson }).map(({ key: k, value }) => ({ ...body, [k]: value })),
    fc.constantFrom(...Object.keys(body)).map((k) => Object.fromEntries(Object.entries(body).filter(([x]) => x !== k))),
    fc.record({ path: fc.constantFrom('items', 'modifiers', 'customer', 'address'), value: anyJson }).map(({ path, value }) =>
      path in body ? { ...body, [path]: Array.isArray(body[path]) ? [value] : { value } } : body,
    ),
  );
}

const bodyFor = (endpoint: Endpoint) =>
  fc.oneof(
    { weight: 3, arbitrary: mutate(validBodies[endpoint.operationId] ?? { a: 1 }).map((b) => JSON.stringify(b)) },
    { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify(v) ?? '') },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  );

const queryString = fc
  .array(fc.tuple(fc.constantFrom('page', 'per_page', 'location_id', 'status', 'created_after', 'created_before', 'x', ''), fc.oneof(weirdString, fc.integer({ min: -5, max: 200 }).map(String), fc.constantFrom('open', '2026-11-21T00:00:00Z'))), { maxLength: 3 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

const request = fc.record({
  endpoint: fc.constantFrom(...ENDPOINTS),
  /** Mostly a real id of some type, sometimes a weird string. */
  id: fc.oneof({ weight: 3, arbitrary: fc.nat().map((n) => ids[n % ids.length] as string) }, { weight: 1, arbitrary: weirdString }),
  /** Mostly none; unknown parameters are refused, which would hide the body from the fuzzer. */
  query: fc.oneof({ weight: 2, arbitrary: fc.constant('') }, { weight: 1, arbitrary: queryString }),
  authorization: fc.oneof({ weight: 8, arbitrary: fc.constant('full') }, { weight: 1, arbitrary: weirdString }),
});

describe('fuzzing every endpoint', () => {
  it('never answers 500 and never half-writes', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(request, fc.nat(), async ({ endpoint, id, query, authorization }, seed) => {
        const bodies = fc.sample(bodyFor(endpoint), { numRuns: 1, seed });
        const path = `${endpoint.path.replace('{id}', encodeURIComponent(id) || 'x')}${query ? `?${query}` : ''}`;
        const hasBody = endpoint.method !== 'GET';
        const before = await snapshot();
        const reply = await call(sb, endpoint.method, path, {
          headers: { Authorization: authorization === 'full' ? `Bearer ${key}` : authorization.replace(/[^\x20-\x7e]/g, '') },
          rawBody: hasBody ? bodies[0] : undefined,
        });
        expect(reply.status, `${endpoint.method} ${path}: ${reply.text}`).toBeLessThan(500);
        if (reply.status >= 400) expect(await snapshot(), `${endpoint.method} ${path} refused but wrote`).toBe(before);
      }),
      { numRuns: 400, seed: 4242, endOnFailure: true },
    );
  });

  it('survives raw garbage on the wire', async () => {
    const garbage = ['{"', '[]', '"str"', '123', 'null', '{"location_id":{"$gt":""}}', '\uFEFF{}', '{"items":[{"quantity":1e309}]}'];
    const before = await snapshot();
    for (const raw of garbage) {
      for (const path of ['/orders', '/payments/intents', '/menu/items', '/webhooks/test']) {
        const reply = await call(sb, 'POST', path, { key, rawBody: raw });
        expect(reply.status, `${path} ${raw}`).toBe(400);
      }
    }
    expect(await snapshot()).toBe(before);
    const response: Loose = await fetch(`${sb.baseUrl}/orders`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json; charset=utf-8' }, body: Buffer.from([0xff, 0xfe, 0x00]) });
    expect(response.status).toBe(400);
  });
});

describe('fuzzing the OAuth endpoints and the dashboard controls', () => {
  const token = fc.oneof(
    anyJson.map((v) => JSON.stringify(v) ?? ''),
    fc
      .record({
        grant_type: fc.oneof(fc.constantFrom('authorization_code', 'refresh_token'), weirdString),
        client_id: fc.oneof(fc.constant('CLIENT'), weirdString),
        client_secret: fc.oneof(fc.constant('SECRET'), weirdString),
        code: weirdString,
        refresh_token: weirdString,
        redirect_uri: weirdString,
        code_verifier: weirdString,
      }, { requiredKeys: [] })
      .map((b) => JSON.stringify(b).replace('"CLIENT"', JSON.stringify(sb.credentials.oauthClient.clientId)).replace('"SECRET"', JSON.stringify(sb.credentials.oauthClient.clientSecret))),
  );

  it('POST /oauth/token answers an RFC 6749 error for anything malformed, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(token, async (body) => {
        const response = await fetch(`${sb.apiHost}/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
        const reply = (await response.json()) as Loose;
        expect([400, 401]).toContain(response.status);
        expect(typeof reply.error).toBe('string');
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('GET /oauth/authorize shows a page, redirects or refuses, never a 500', async () => {
    const params = fc.dictionary(fc.constantFrom('client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'), weirdString, { maxKeys: 7 });
    await fc.assert(
      fc.asyncProperty(params, fc.boolean(), async (query, realClient) => {
        if (realClient) Object.assign(query, { client_id: sb.credentials.oauthClient.clientId, redirect_uri: 'http://127.0.0.1:9/callback' });
        const response = await fetch(`${sb.authUrl}/oauth/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
        expect([200, 303, 400]).toContain(response.status);
        await response.arrayBuffer();
      }),
      { numRuns: 150, seed: 8 },
    );
  });

  it('the dashboard controls refuse malformed input without a 500', async () => {
    const controls = fc.constantFrom(
      ['POST', '/keys'],
      ['POST', '/keys/key_nope/regenerate'],
      ['POST', '/oauth/apps'],
      ['POST', '/webhook-endpoints'],
      ['POST', '/deliveries/whd_nope/retry'],
      ['POST', '/seed'],
      ['POST', '/clock/advance'],
      ['PATCH', '/faults'],
      ['PATCH', '/settings'],
    );
    await fc.assert(
      fc.asyncProperty(controls, fc.oneof(anyJson.map((v) => JSON.stringify(v) ?? ''), fc.string({ maxLength: 20 })), async ([method, path], body) => {
        const response = await fetch(`${sb.dashboardApiUrl}${path}`, { method, headers: { 'Content-Type': 'application/json' }, body });
        expect(response.status, `${method} ${path} ${body}`).toBeLessThan(500);
        await response.arrayBuffer();
        // A random but valid patch may switch faults or settings on: put them back for the next run.
        await sb.faults.reset();
        sb.updateSettings({ idempotency: 'honour', rate_limit: DEFAULT_RATE_LIMIT });
      }),
      { numRuns: 150, seed: 9 },
    );
  });
});
