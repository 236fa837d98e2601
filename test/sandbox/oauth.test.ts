import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../api/endpoints';
import { buildAuthorizeUrl, pkceChallenge } from '../../api/oauth';
import { tokenResponseSchema } from '../../api/requests';
import type { Scope } from '../../api/enums';
import { ManualClock } from '../../common/clock';
import type { Sandbox } from '../../sandbox/index';
import { call, dashboard, withSandbox } from './helpers';
import { openConsentPage, startCallbackListener, submitConsent, tokenRequest, type CallbackListener } from './oauth-helpers';

let sb: Sandbox;
let clock: ManualClock;
let listener: CallbackListener;
beforeAll(async () => {
  clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
  sb = await withSandbox({ clock });
});
afterAll(() => sb.close());
afterEach(() => listener?.close());

async function authorize(scopes: Scope[], options: { verifier?: string; clientId?: string; state?: string } = {}) {
  listener = await startCallbackListener();
  const state = options.state ?? randomBytes(8).toString('hex');
  const url = buildAuthorizeUrl({
    authUrl: sb.authUrl,
    clientId: options.clientId ?? sb.credentials.oauthClient.clientId,
    redirectUri: listener.redirectUri,
    scopes,
    state,
    codeChallenge: options.verifier ? pkceChallenge(options.verifier) : undefined,
  });
  const page = await openConsentPage(url);
  expect(page.status).toBe(200);
  expect(page.html).toContain('Approve');
  expect(page.html).toContain('Deny');
  const followed = await submitConsent(sb, page.requestToken as string, 'approve');
  expect(followed.status).toBe(200);
  const params = listener.received.at(-1) as URLSearchParams;
  expect(params.get('state')).toBe(state);
  return { code: params.get('code') as string, redirectUri: listener.redirectUri };
}

function exchange(code: string, redirectUri: string, extra: Record<string, string> = {}) {
  const { clientId, clientSecret } = sb.credentials.oauthClient;
  return tokenRequest(sb, { grant_type: 'authorization_code', client_id: clientId, client_secret: clientSecret, code, redirect_uri: redirectUri, ...extra });
}

describe('authorization code flow', () => {
  it('consents, exchanges, calls /v1 with the token, refreshes with rotation', async () => {
    const { code, redirectUri } = await authorize(['read_orders', 'write_orders']);
    expect(code).toMatch(/^ac_/);
    const tokens = await exchange(code, redirectUri);
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    const parsed = tokenResponseSchema.parse(tokens.body);
    expect(parsed.access_token).toMatch(/^at_live_/);
    expect(parsed.refresh_token).toMatch(/^rt_live_/);
    expect(parsed).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read_orders write_orders' });

    expect((await call(sb, 'GET', '/orders', { key: parsed.access_token })).status).toBe(200);

    const { clientId, clientSecret } = sb.credentials.oauthClient;
    const refreshed = await tokenRequest(sb, { grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: parsed.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(parsed.refresh_token);
    expect(refreshed.body.scope).toBe('read_orders write_orders');
    const reused = await tokenRequest(sb, { grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: parsed.refresh_token });
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await call(sb, 'GET', '/orders', { key: refreshed.body.access_token })).status).toBe(200);
  });

  it('expires access tokens after 3600 s and codes after 600 s, on the sandbox clock', async () => {
    const { code, redirectUri } = await authorize(['read_menu']);
    const tokens = (await exchange(code, redirectUri)).body;
    clock.advance(3599_000);
    expect((await call(sb, 'GET', '/menu/categories', { key: tokens.access_token })).status).toBe(200);
    clock.advance(1000);
    const expired = await call(sb, 'GET', '/menu/categories', { key: tokens.access_token });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('authentication_failed');

    const late = await authorize(['read_menu']);
    clock.advance(600_000);
    expect((await exchange(late.code, late.redirectUri)).body.error).toBe('invalid_grant');
  });

  it('single-use codes: a replay is invalid_grant and revokes the tokens it issued', async () => {
    const { code, redirectUri } = await authorize(['read_orders']);
    const first = (await exchange(code, redirectUri)).body;
    expect((await exchange(code, redirectUri)).body.error).toBe('invalid_grant');
    expect((await call(sb, 'GET', '/orders', { key: first.access_token })).status).toBe(401);
  });

  it('PKCE S256: the verifier is then required and must match', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const a = await authorize(['read_orders'], { verifier });
    expect((await exchange(a.code, a.redirectUri)).body).toMatchObject({ error: 'invalid_grant' });
    const b = await authorize(['read_orders'], { verifier });
    expect((await exchange(b.code, b.redirectUri, { code_verifier: randomBytes(32).toString('base64url') })).body.error).toBe('invalid_grant');
    const c = await authorize(['read_orders'], { verifier });
    expect((await exchange(c.code, c.redirectUri, { code_verifier: verifier })).status).toBe(200);
    const d = await authorize(['read_orders']);
    expect((await exchange(d.code, d.redirectUri, { code_verifier: verifier })).body.error).toBe('invalid_grant');
  });

  it('public clients need PKCE and no secret', async () => {
    listener = await startCallbackListener();
    const app = (await dashboard(sb, 'POST', '/oauth/apps', { name: 'Desktop', redirect_uris: ['http://[::1]/cb', 'http://127.0.0.1/callback'], public: true })).body;
    expect(app.client_secret).toBeNull();
    const withoutPkce = await openConsentPage(buildAuthorizeUrl({ authUrl: sb.authUrl, clientId: app.client_id, redirectUri: listener.redirectUri, scopes: ['read_orders'], state: 's' }));
    expect(withoutPkce.status).toBe(303);
    expect(new URL(withoutPkce.response.headers.get('location') as string).searchParams.get('error')).toBe('invalid_request');
    await listener.close();
    const verifier = randomBytes(32).toString('base64url');
    const { code, redirectUri } = await authorize(['read_orders'], { verifier, clientId: app.client_id });
    const tokens = await tokenRequest(sb, { grant_type: 'authorization_code', client_id: app.client_id, code, redirect_uri: redirectUri, code_verifier: verifier });
    expect(tokens.status).toBe(200);
  });

  it('Deny redirects with access_denied and the state', async () => {
    listener = await startCallbackListener();
    const url = buildAuthorizeUrl({ authUrl: sb.authUrl, clientId: sb.credentials.oauthClient.clientId, redirectUri: listener.redirectUri, scopes: ['read_menu'], state: 'xyz' });
    const page = await openConsentPage(url);
    await submitConsent(sb, page.requestToken as string, 'deny');
    expect(Object.fromEntries(listener.received[0] as URLSearchParams)).toMatchObject({ error: 'access_denied', state: 'xyz' });
    const replay = await submitConsent(sb, page.requestToken as string, 'approve');
    expect(replay.status).toBe(400);
  });

  it('a consent page left open for more than 10 minutes can no longer be approved', async () => {
    listener = await startCallbackListener();
    const url = buildAuthorizeUrl({ authUrl: sb.authUrl, clientId: sb.credentials.oauthClient.clientId, redirectUri: listener.redirectUri, scopes: ['read_menu'], state: 's' });
    const page = await openConsentPage(url);
    clock.advance(600_000);
    const late = await submitConsent(sb, page.requestToken as string, 'approve');
    expect(late.status).toBe(400);
    expect(await late.text()).toContain('expired');
    expect(listener.received).toHaveLength(0);
  });
});

describe('authorize request validation', () => {
  const base = () => ({ authUrl: sb.authUrl, clientId: sb.credentials.oauthClient.clientId, state: 'st' });

  it('shows an error page, without redirecting, for an unknown client or an unregistered redirect URI', async () => {
    const unknown = await openConsentPage(buildAuthorizeUrl({ ...base(), clientId: 'client_nope', redirectUri: 'http://127.0.0.1:9/callback', scopes: ['read_orders'] }));
    expect(unknown.status).toBe(400);
    const evil = await openConsentPage(buildAuthorizeUrl({ ...base(), redirectUri: 'https://evil.example/callback', scopes: ['read_orders'] }));
    expect(evil.status).toBe(400);
    const otherPath = await openConsentPage(buildAuthorizeUrl({ ...base(), redirectUri: 'http://127.0.0.1:5555/other', scopes: ['read_orders'] }));
    expect(otherPath.status).toBe(400);
  });

  it('matches loopback redirect URIs with any port (RFC 8252)', async () => {
    for (const uri of ['http://127.0.0.1:1/callback', 'http://127.0.0.1:65000/callback', 'http://localhost:8080/callback']) {
      expect((await openConsentPage(buildAuthorizeUrl({ ...base(), redirectUri: uri, scopes: ['read_orders'] }))).status).toBe(200);
    }
  });

  it('redirects with invalid_scope or unsupported_response_type', async () => {
    const redirectUri = 'http://127.0.0.1:7/callback';
    const badScope = await openConsentPage(`${sb.authUrl}/oauth/authorize?client_id=${base().clientId}&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&scope=read_orders+fly&state=st`);
    expect(new URL(badScope.response.headers.get('location') as string).searchParams.get('error')).toBe('invalid_scope');
    const noScope = await openConsentPage(`${sb.authUrl}/oauth/authorize?client_id=${base().clientId}&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&state=st`);
    expect(new URL(noScope.response.headers.get('location') as string).searchParams.get('error')).toBe('invalid_scope');
    const token = await openConsentPage(`${sb.authUrl}/oauth/authorize?client_id=${base().clientId}&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=token&scope=read_orders&state=st`);
    const location = new URL(token.response.headers.get('location') as string);
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.get('state')).toBe('st');
    const plain = await openConsentPage(`${sb.authUrl}/oauth/authorize?client_id=${base().clientId}&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&scope=read_orders&code_challenge=abc&code_challenge_method=plain`);
    expect(new URL(plain.response.headers.get('location') as string).searchParams.get('error')).toBe('invalid_request');
  });

  it('accepts scopes joined by %2B or by spaces as well as by +', async () => {
    const redirectUri = encodeURIComponent('http://127.0.0.1:7/callback');
    for (const scope of ['read_orders%2Bread_menu', 'read_orders%20read_menu']) {
      const page = await openConsentPage(`${sb.authUrl}/oauth/authorize?client_id=${base().clientId}&redirect_uri=${redirectUri}&response_type=code&scope=${scope}&state=s`);
      expect(page.status).toBe(200);
      expect(page.html).toContain('(read_menu)');
    }
  });
});

describe('token endpoint errors (RFC 6749 §5.2)', () => {
  it.each([
    ['form-encoded body', 'grant_type=authorization_code', 'application/x-www-form-urlencoded', 400, 'invalid_request'],
    ['bad JSON', '{', 'application/json', 400, 'invalid_request'],
    ['no grant_type', { client_id: 'x' }, 'application/json', 400, 'invalid_request'],
    ['unknown grant_type', { grant_type: 'password' }, 'application/json', 400, 'unsupported_grant_type'],
    ['missing code', { grant_type: 'authorization_code', client_id: 'x', client_secret: 'y', redirect_uri: 'z' }, 'application/json', 400, 'invalid_request'],
    ['unknown client', { grant_type: 'refresh_token', client_id: 'client_nope', client_secret: 'y', refresh_token: 'rt_live_x' }, 'application/json', 401, 'invalid_client'],
  ])('%s', async (_name, body, contentType, status, error) => {
    const reply = await tokenRequest(sb, body, contentType);
    expect(reply.status).toBe(status);
    expect(reply.body.error).toBe(error);
    expect(typeof reply.body.error_description).toBe('string');
  });

  it('wrong client secret is invalid_client; a code for another redirect URI is invalid_grant', async () => {
    const { code, redirectUri } = await authorize(['read_orders']);
    const wrongSecret = await tokenRequest(sb, { grant_type: 'authorization_code', client_id: sb.credentials.oauthClient.clientId, client_secret: 'cs_wrong', code, redirect_uri: redirectUri });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.headers.get('www-authenticate')).toContain('Basic');
    expect((await exchange(code, `${redirectUri}x`)).body.error).toBe('invalid_grant');
    expect((await exchange('ac_forged', redirectUri)).body.error).toBe('invalid_grant');
  });
});

describe('scopes', () => {
  it('each endpoint needs exactly its scopes; API-key-only endpoints refuse every token', async () => {
    const { code, redirectUri } = await authorize(['read_orders', 'read_menu', 'read_locations']);
    const token = (await exchange(code, redirectUri)).body.access_token as string;
    const granted = new Set(['read_orders', 'read_menu', 'read_locations']);
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace('{id}', 'x_1');
      const reply = await call(sb, endpoint.method, path, { key: token, body: endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : {} });
      const scopes = endpoint.scopes as readonly string[] | null;
      if (scopes !== null && scopes.every((s) => granted.has(s))) {
        expect(reply.status, `${endpoint.method} ${endpoint.path}`).not.toBe(403);
      } else {
        expect(reply.status, `${endpoint.method} ${endpoint.path}`).toBe(403);
        expect(reply.body.error.code).toBe('permission_denied');
        if (scopes === null) expect(reply.body.error.message).toContain('API keys only');
        else expect(reply.body.error.missing_scopes).toEqual(scopes.filter((s) => !granted.has(s)));
      }
    }
  });
});
