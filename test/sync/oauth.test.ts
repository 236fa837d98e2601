// OAuth against the sandbox's consent page, driven by a real HTTP client acting as the browser:
// loopback redirect, state, PKCE, JSON token exchange, refresh before expiry (injected clocks),
// refresh on authentication_failed, one refresh for many concurrent requests, rotation stored.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OffsetClock } from '../../common/clock';
import { ApiClient } from '../../sync/api-client';
import { ApiError } from '../../sync/api-error';
import { OAUTH_SECRET_NAMES, OAuthCredentials, OAuthFlowError, buildAuthorizeUrl, runDesktopOAuthFlow } from '../../sync/oauth';
import { FileSecretStore } from '../../sync/secret-store';
import { cleanupAfterEach, engineFor, menuFixture, openStore, placeOrder, startSandbox, tempStoreFile, waitFor, type Sandbox } from './harness';

const defer = cleanupAfterEach();

const SCOPES = ['read_orders', 'write_orders', 'read_menu', 'read_locations'] as const;

/** The "system browser": opens the consent page, presses a button, follows the redirect. */
function browser(decision: 'approve' | 'deny', seen: { authorizeUrl?: string; callbackStatus?: number } = {}) {
  return async (url: string) => {
    seen.authorizeUrl = url;
    const page = await request(url);
    const html = await page.body.text();
    expect(page.statusCode).toBe(200);
    const token = /name="request" value="([^"]+)"/.exec(html)?.[1];
    expect(token).toBeDefined();
    const answer = await request(new URL('/oauth/authorize', url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request: token!, decision }).toString(),
    });
    await answer.body.text();
    expect([302, 303]).toContain(answer.statusCode);
    const callback = await request(String(answer.headers.location));
    await callback.body.text();
    seen.callbackStatus = callback.statusCode;
  };
}

async function setup(): Promise<{ sandbox: Sandbox; clock: OffsetClock; secrets: FileSecretStore; secretFile: string }> {
  const clock = new OffsetClock();
  const sandbox = await startSandbox({ seed: 'demo', clock });
  defer(() => sandbox.close());
  const secretFile = join(mkdtempSync(join(tmpdir(), 'oauth-')), 'secrets.json');
  return { sandbox, clock, secrets: new FileSecretStore(secretFile), secretFile };
}

const Locations = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) });

describe('OAuth desktop flow', () => {
  it('signs in through the consent page with state and PKCE, then refreshes before expiry and on rejection, single-flight', async () => {
    const { sandbox, clock, secrets } = await setup();
    const { clientId, clientSecret } = sandbox.credentials.oauthClient;
    const seen: { authorizeUrl?: string; callbackStatus?: number } = {};
    const tokens = await runDesktopOAuthFlow({ authUrl: sandbox.authUrl, apiHost: sandbox.apiHost, clientId, clientSecret, scopes: SCOPES, openUrl: browser('approve', seen), secrets, clock });
    expect(seen.callbackStatus).toBe(200);
    const authorize = new URL(seen.authorizeUrl!);
    expect(authorize.hostname).toBe('127.0.0.1');
    expect(seen.authorizeUrl).toContain('scope=read_orders+write_orders+read_menu+read_locations');
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(tokens.access_token).toMatch(/^at_live_/);
    expect(await secrets.get(OAUTH_SECRET_NAMES.refreshToken)).toMatch(/^rt_live_/);

    const credentials = new OAuthCredentials({ authUrl: sandbox.authUrl, apiHost: sandbox.apiHost, clientId, clientSecret, secrets, clock, refreshMarginMs: 60_000 });
    const api = new ApiClient({ baseUrl: sandbox.baseUrl, credentials, clock });
    defer(() => api.close());
    expect((await api.call({ method: 'GET', path: '/locations', schema: Locations })).data.data.length).toBeGreaterThan(0);
    expect(credentials.refreshCount).toBe(0);

    // An hour later (both clocks): the token is due; ten concurrent requests make one refresh.
    const firstRefresh = await secrets.get(OAUTH_SECRET_NAMES.refreshToken);
    clock.advance(3_600_000);
    const results = await Promise.all(Array.from({ length: 10 }, () => api.call({ method: 'GET', path: '/locations', schema: Locations })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(credentials.refreshCount).toBe(1);
    // The refresh token rotated and the new one was stored; the old one no longer works.
    const secondRefresh = await secrets.get(OAUTH_SECRET_NAMES.refreshToken);
    expect(secondRefresh).not.toBe(firstRefresh);

    // The server expires the token while our clock still thinks it fresh: authentication_failed
    // makes one refresh for all concurrent requests, and each retries once.
    const serverOnly = new OffsetClock(clock);
    const lagging = new OAuthCredentials({ authUrl: sandbox.authUrl, apiHost: sandbox.apiHost, clientId, clientSecret, secrets, clock: { now: () => serverOnly.now() - 3_700_000 } });
    const laggingApi = new ApiClient({ baseUrl: sandbox.baseUrl, credentials: lagging });
    defer(() => laggingApi.close());
    sandbox.advanceClock(3_700_000);
    const after = await Promise.all(Array.from({ length: 8 }, () => laggingApi.call({ method: 'GET', path: '/locations', schema: Locations })));
    expect(after.every((r) => r.status === 200)).toBe(true);
    expect(lagging.refreshCount).toBe(1);
  });

  it('the engine keeps pushing across token expiry with OAuth credentials, one refresh, nothing dead-lettered', async () => {
    const { sandbox, clock, secrets } = await setup();
    const { clientId, clientSecret } = sandbox.credentials.oauthClient;
    await runDesktopOAuthFlow({ authUrl: sandbox.authUrl, apiHost: sandbox.apiHost, clientId, clientSecret, scopes: ['read_orders', 'write_orders', 'read_menu', 'read_locations'], openUrl: browser('approve'), secrets, clock });
    const credentials = new OAuthCredentials({ authUrl: sandbox.authUrl, apiHost: sandbox.apiHost, clientId, clientSecret, secrets, clock });
    const store = openStore(tempStoreFile());
    defer(() => store.close());
    const menu = await menuFixture(sandbox);
    const engine = engineFor(sandbox, store, { credentials, clock });
    engine.start();
    defer(() => engine.stop());
    const first = Array.from({ length: 20 }, (_, n) => placeOrder(store, menu, n));
    engine.notifyLocalWrite();
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the first push');
    // An hour passes (the till's clock and the server's): the next writes need a fresh token.
    clock.advance(3_600_000);
    const second = Array.from({ length: 20 }, (_, n) => placeOrder(store, menu, 100 + n));
    engine.notifyLocalWrite();
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the push after expiry');
    expect(credentials.refreshCount).toBe(1);
    expect(store.outbox.listDeadLetters()).toEqual([]);
    for (const order of [...first, ...second]) expect(store.serverIdFor('order', order.id)).toBeDefined();
    expect(engine.status().credentials).toBe('ok');
  });

  it('reports a denied consent, and a revoked refresh token as "sign in again"', async () => {
    const { sandbox, clock, secrets } = await setup();
    const { clientId, clientSecret } = sandbox.credentials.oauthClient;
    await expect(
      runDesktopOAuthFlow({ authUrl: sandbox.authUrl, apiHost: sandbox.apiHost, clientId, clientSecret, scopes: SCOPES, openUrl: browser('deny'), secrets, clock }),
    ).rejects.toThrow(OAuthFlowError);
    expect(await secrets.get(OAUTH_SECRET_NAMES.accessToken)).toBeNull();

    await secrets.setMany({ [OAUTH_SECRET_NAMES.accessToken]: 'at_live_forged', [OAUTH_SECRET_NAMES.refreshToken]: 'rt_live_forged', [OAUTH_SECRET_NAMES.expiresAt]: String(clock.now() + 3_600_000) });
    const credentials = new OAuthCredentials({ authUrl: sandbox.authUrl, apiHost: sandbox.apiHost, clientId, clientSecret, secrets, clock });
    const api = new ApiClient({ baseUrl: sandbox.baseUrl, credentials, clock });
    defer(() => api.close());
    const error = await api.call({ method: 'GET', path: '/locations', schema: Locations }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('authentication');
    expect(credentials.refreshCount).toBe(1);
  });

  it('ignores a callback with the wrong state and keeps waiting for the right one', async () => {
    const { sandbox, clock, secrets } = await setup();
    const { clientId, clientSecret } = sandbox.credentials.oauthClient;
    let forged = 0;
    await runDesktopOAuthFlow({
      authUrl: sandbox.authUrl,
      apiHost: sandbox.apiHost,
      clientId,
      clientSecret,
      scopes: SCOPES,
      secrets,
      clock,
      openUrl: async (url) => {
        const redirect = new URL(new URL(url).searchParams.get('redirect_uri')!);
        redirect.searchParams.set('code', 'attacker_code');
        redirect.searchParams.set('state', 'not-the-state');
        const attempt = await request(redirect);
        await attempt.body.text();
        forged = attempt.statusCode;
        await browser('approve')(url);
      },
    });
    expect(forged).toBe(400);
    expect(await secrets.get(OAUTH_SECRET_NAMES.accessToken)).toMatch(/^at_live_/);
  });

  it('builds the authorize URL with scopes joined by a literal +', () => {
    const url = buildAuthorizeUrl({ authUrl: 'https://dash.example/', clientId: 'ci d', redirectUri: 'http://127.0.0.1:5/callback', scopes: ['read_orders', 'write_orders'], state: 's', codeChallenge: 'c' });
    expect(url).toBe('https://dash.example/oauth/authorize?client_id=ci%20d&redirect_uri=http%3A%2F%2F127.0.0.1%3A5%2Fcallback&response_type=code&scope=read_orders+write_orders&state=s&code_challenge=c&code_challenge_method=S256');
  });
});
