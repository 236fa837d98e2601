import { describe, expect, it } from 'vitest';
import {
  clientListEnvelopeSchema,
  clientMenuItemSchema,
  clientOrderSchema,
  clientPaymentSchema,
  clientWebhookEventSchema,
  isKnownEventType,
  paymentHoldsNoMoney,
} from '../../api/client-records';
import { ENDPOINTS } from '../../api/endpoints';
import { ALL_PERMISSIONS, PRESET_PERMISSIONS, scopeSchema } from '../../api/enums';
import { clientErrorBodySchema, ERROR_STATUS, errorCodeSchema, oauthErrorStatus, RETRYABLE_ERROR_CODES } from '../../api/errors';
import { buildAuthorizeUrl, parseScopeList, pkceChallenge } from '../../api/oauth';
import { orderSchema } from '../../api/records';
import { createOrderRequestSchema, listOrdersQuerySchema, patchOrderRequestSchema } from '../../api/requests';

const order = {
  id: 'ord_01abc',
  object: 'order',
  location_id: 'loc_01abc',
  status: 'open',
  items: [{ id: 'li_1', menu_item_id: 'mi_1', name: 'Soup', quantity: 2, price: 450, modifiers: [], note: '' }],
  customer: null,
  total: 900,
  order_number: null,
  order_type: null,
  table: null,
  guests: null,
  channel: 'pos',
  subtotal: 900,
  discounts: [],
  discount_total: 0,
  tax_total: 0,
  tax_included: false,
  currency: 'usd',
  amount_paid: 0,
  metadata: {},
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
  fulfilled_at: null,
  cancelled_at: null,
};

describe('the strict records (what the sandbox sends)', () => {
  it('accept the documented shape and nothing more', () => {
    expect(orderSchema.parse(order)).toEqual(order);
    expect(orderSchema.safeParse({ ...order, extra: 1 }).success).toBe(false);
    expect(orderSchema.safeParse({ ...order, total: 9.5 }).success).toBe(false);
    expect(orderSchema.safeParse({ ...order, currency: 'USD' }).success).toBe(false);
  });
});

describe('the client records (what the terminal accepts)', () => {
  it('accept the sandbox’s exact records', () => {
    expect(clientOrderSchema.parse(order)).toMatchObject({ id: order.id, status: 'open', total: 900 });
  });

  it('keep unknown fields and normalise close variants', () => {
    const variant = clientOrderSchema.parse({ id: 'o1', status: 'Canceled', created_at: 1_800_000_000, currency: 'USD', tip: 100 });
    expect(variant).toMatchObject({ status: 'cancelled', created_at: new Date(1_800_000_000_000).toISOString(), currency: 'usd', tip: 100 });
    expect(clientOrderSchema.parse({ id: 'o2', status: 'completed', created_at: '2026-11-21T12:00:00+02:00' }).created_at).toBe('2026-11-21T10:00:00.000Z');
    expect(clientPaymentSchema.parse({ id: 'p', amount: 5, status: 'requires_capture' }).status).toBe('authorized');
    expect(clientMenuItemSchema.parse({ id: 'm', name: 'Tea', price: 300 })).toMatchObject({ available: true, modifiers: [] });
  });

  it('still refuse what cannot be read', () => {
    expect(clientOrderSchema.safeParse({ id: 'o', status: '' }).success).toBe(false);
    expect(clientOrderSchema.safeParse({ status: 'open' }).success).toBe(false);
    expect(clientOrderSchema.safeParse({ id: 'o', status: 'open', total: '12.50' }).success).toBe(false);
    expect(clientOrderSchema.safeParse({ id: 'o', status: 'open', created_at: 'yesterday' }).success).toBe(false);
  });

  it('keep a state the spec does not list as the server said it, never refusing the record', () => {
    expect(clientOrderSchema.parse({ id: 'o', status: ' Voided ' }).status).toBe('voided');
    expect(clientOrderSchema.parse({ id: 'o', status: 'canceled' }).status).toBe('cancelled');
    expect(clientPaymentSchema.parse({ id: 'p', amount: 1, status: 'Settled' }).status).toBe('settled');
    expect(clientPaymentSchema.parse({ id: 'p', amount: 1, status: 'requires_capture' }).status).toBe('authorized');
    expect(paymentHoldsNoMoney('settled')).toBe(false);
    expect(paymentHoldsNoMoney('authorized')).toBe(true);
    expect(paymentHoldsNoMoney('failed')).toBe(true);
  });

  it('read list envelopes with or without meta and links, and nulls in links', () => {
    const list = clientListEnvelopeSchema(clientOrderSchema);
    expect(list.parse({ data: [order] }).data).toHaveLength(1);
    expect(list.parse({ data: [], meta: { total: 0, page: 1, per_page: 20, total_pages: 0 }, links: { first: 'x', prev: null, next: null, last: 'x' } }).links?.next).toBeNull();
    expect(list.safeParse({ meta: {} }).success).toBe(false);
  });

  it('read events of unknown kinds so a receiver can acknowledge them', () => {
    const event = clientWebhookEventSchema.parse({ id: 'evt_1', type: 'order.refunded_partially', data: { id: 'ord_1', type: 'order' } });
    expect(event.data.attributes).toEqual({});
    expect(isKnownEventType(event.type)).toBe(false);
    expect(isKnownEventType('order.created')).toBe(true);
  });

  it('read any error body', () => {
    expect(clientErrorBodySchema.parse({ error: { code: 'quota_exceeded', hint: 'x' } }).error.code).toBe('quota_exceeded');
  });
});

describe('requests', () => {
  it('refuse unknown fields and enforce what the spec-gaps page says', () => {
    expect(createOrderRequestSchema.safeParse({ location_id: 'loc_1', items: [{ menu_item_id: 'mi_1', quantity: 1 }] }).success).toBe(true);
    expect(createOrderRequestSchema.safeParse({ location_id: 'loc_1', items: [{ menu_item_id: 'mi_1', quantity: 1, colour: 'x' }] }).success).toBe(false);
    expect(createOrderRequestSchema.safeParse({ location_id: 'loc_1', items: [{ menu_item_id: 'mi_1', quantity: 1, modifiers: ['a', 'a'] }] }).success).toBe(false);
    expect(patchOrderRequestSchema.safeParse({}).success).toBe(false);
    expect(patchOrderRequestSchema.safeParse({ status: 'open' }).success).toBe(false);
  });

  it('parse list query parameters strictly from strings', () => {
    expect(listOrdersQuerySchema.parse({ page: '2', per_page: '100', created_after: '2026-11-21T00:00:00Z' })).toEqual({ page: 2, per_page: 100, created_after: Date.parse('2026-11-21T00:00:00Z') });
    for (const bad of [{ per_page: '101' }, { page: '0' }, { page: '1.0' }, { page: ' 1' }, { status: 'OPEN' }, { other: '1' }]) {
      expect(listOrdersQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('errors, permissions and scopes', () => {
  it('give every error code one HTTP status', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...errorCodeSchema.options].sort());
    expect(ERROR_STATUS).toMatchObject({ invalid_request: 400, authentication_failed: 401, not_found: 404, rate_limit_exceeded: 429, internal_error: 500 });
    expect(RETRYABLE_ERROR_CODES.every((c) => ERROR_STATUS[c] === 409 || ERROR_STATUS[c] >= 429)).toBe(true);
    expect(oauthErrorStatus('invalid_client')).toBe(401);
    expect(oauthErrorStatus('invalid_grant')).toBe(400);
  });

  it('give every endpoint a permission, and a scope or an explicit API-key-only marker', () => {
    const ids = new Set<string>();
    for (const endpoint of ENDPOINTS) {
      expect(ids.has(endpoint.operationId)).toBe(false);
      ids.add(endpoint.operationId);
      expect(endpoint.permissions.length).toBeGreaterThan(0);
      for (const p of endpoint.permissions) expect(ALL_PERMISSIONS).toContain(p);
      if (endpoint.scopes) for (const s of endpoint.scopes) expect(scopeSchema.options).toContain(s);
      if (endpoint.method === 'GET') expect(endpoint.permissions.every((p) => p.endsWith(':read'))).toBe(true);
    }
    expect(PRESET_PERMISSIONS.read_only.every((p) => p.endsWith(':read'))).toBe(true);
  });
});

describe('OAuth helpers', () => {
  it('join scopes with + in the authorize URL and split on + or space', () => {
    const url = buildAuthorizeUrl({ authUrl: 'http://auth.test/', clientId: 'c 1', redirectUri: 'http://127.0.0.1:5/cb', scopes: ['read_orders', 'write_orders'], state: 's&t', codeChallenge: 'x' });
    expect(url).toBe('http://auth.test/oauth/authorize?client_id=c%201&redirect_uri=http%3A%2F%2F127.0.0.1%3A5%2Fcb&response_type=code&scope=read_orders+write_orders&state=s%26t&code_challenge=x&code_challenge_method=S256');
    expect(new URL(url).searchParams.get('scope')).toBe('read_orders write_orders');
    expect(parseScopeList('read_orders+write_orders  read_menu')).toEqual(['read_orders', 'write_orders', 'read_menu']);
  });

  it('compute the RFC 7636 S256 challenge', () => {
    // RFC 7636 appendix B.
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});
