import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../api/endpoints';
import { PRESET_PERMISSIONS } from '../../api/enums';
import type { Sandbox } from '../../sandbox/index';
import { call, dashboard, withSandbox, type Loose } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await withSandbox();
});
afterAll(() => sb.close());

describe('authentication', () => {
  it.each([
    ['no header', undefined],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['an unknown test key', 'Bearer sk_test_unknown'],
    ['an unknown live key', 'Bearer sk_live_unknown'],
    ['an unknown access token', 'Bearer at_live_unknown'],
    ['a credential of no known kind', 'Bearer hello'],
    ['a bare Bearer', 'Bearer '],
  ])('refuses %s with authentication_failed 401', async (_name, authorization) => {
    const reply = await call(sb, 'GET', '/orders', { headers: authorization ? { Authorization: authorization } : {} });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('authentication_failed');
    expect(reply.headers.get('www-authenticate')).toContain('Bearer');
    expect(reply.headers.get('request-id')).toBe(reply.body.error.request_id);
  });

  it('accepts full-access test and live keys', async () => {
    expect((await call(sb, 'GET', '/orders', { key: sb.credentials.apiKeys.full })).status).toBe(200);
    expect((await call(sb, 'GET', '/orders', { key: sb.credentials.apiKeys.fullLive })).status).toBe(200);
  });

  it('regenerating a key invalidates the old secret at once', async () => {
    const created = (await dashboard(sb, 'POST', '/keys', { kind: 'read_only' })).body;
    expect((await call(sb, 'GET', '/orders', { key: created.secret })).status).toBe(200);
    const regenerated = await dashboard(sb, 'POST', `/keys/${created.id}/regenerate`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.secret).not.toBe(created.secret);
    expect((await call(sb, 'GET', '/orders', { key: created.secret })).status).toBe(401);
    expect((await call(sb, 'GET', '/orders', { key: regenerated.body.secret })).status).toBe(200);
    expect((await dashboard(sb, 'POST', '/keys/key_nope/regenerate')).status).toBe(404);
  });
});

describe('restricted keys', () => {
  const kinds = [
    ['readOnly', PRESET_PERMISSIONS.read_only],
    ['ordersOnly', PRESET_PERMISSIONS.orders_only],
    ['menuOnly', PRESET_PERMISSIONS.menu_only],
  ] as const;

  it.each(kinds)('%s may call exactly the endpoints its permissions cover', async (name, permissions) => {
    const key = sb.credentials.apiKeys[name];
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace('{id}', 'x_1');
      const reply = await call(sb, endpoint.method, path, { key, body: endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : {} });
      const missing = endpoint.permissions.filter((p) => !(permissions as readonly string[]).includes(p));
      if (missing.length === 0) {
        expect(reply.status, `${name} ${endpoint.method} ${endpoint.path}`).not.toBe(403);
      } else {
        expect(reply.status, `${name} ${endpoint.method} ${endpoint.path}`).toBe(403);
        expect(reply.body.error).toMatchObject({ code: 'permission_denied', missing_permissions: missing });
        expect(reply.body.error.message).toContain(missing[0]);
      }
    }
  });

  it('custom keys hold exactly the chosen permissions', async () => {
    const created = await dashboard(sb, 'POST', '/keys', { kind: 'custom', permissions: ['locations:write', 'locations:read'] });
    expect(created.status).toBe(201);
    const key = created.body.secret as string;
    const id = sb.credentials.locationIds[0];
    expect((await call(sb, 'PATCH', `/locations/${id}`, { key, body: { name: 'Renamed' } })).status).toBe(200);
    expect((await call(sb, 'GET', '/orders', { key })).status).toBe(403);
    const till = sb.credentials.apiKeys.custom;
    expect((await call(sb, 'PATCH', `/locations/${id}`, { key: till, body: { name: 'x' } })).body.error.missing_permissions).toEqual(['locations:write']);
  });

  it('the dashboard refuses inconsistent key requests', async () => {
    expect((await dashboard(sb, 'POST', '/keys', { kind: 'custom' })).status).toBe(400);
    expect((await dashboard(sb, 'POST', '/keys', { kind: 'full', permissions: ['orders:read'] })).status).toBe(400);
    expect((await dashboard(sb, 'POST', '/keys', { kind: 'custom', permissions: ['orders:fly'] })).status).toBe(400);
    expect((await dashboard(sb, 'POST', '/keys', { kind: 'admin' })).status).toBe(400);
    const live = await dashboard(sb, 'POST', '/keys', { kind: 'menu_only', mode: 'live' });
    expect(live.body.secret).toMatch(/^sk_live_/);
    const list = (await dashboard(sb, 'GET', '/keys')).body.data;
    expect(list.map((k: Loose) => k.id)).toContain(live.body.id);
  });
});
