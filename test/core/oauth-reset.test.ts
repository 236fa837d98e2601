// An OAuth sign-in belongs to the session that started it: a terminal reset cancels it, and an
// approval that comes back afterwards (at the loopback callback, or as a token reply under way)
// stores no token in the fresh terminal and is reported as cancelled. The token endpoint is a
// real HTTP server on loopback whose reply the test releases; the test plays the browser.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { OAUTH_SECRET_NAMES } from '../../sync/oauth';
import { FileSecretStore } from '../../sync/secret-store';
import { signIn, startTestCore, type TestCore } from './fixtures';

let t: TestCore | undefined;
let tokenServer: Server | undefined;
afterEach(async () => {
  await t?.core.shutdown();
  tokenServer?.closeAllConnections();
  await new Promise<void>((resolve) => (tokenServer ? tokenServer.close(() => resolve()) : resolve()));
  t = undefined;
  tokenServer = undefined;
});

/** A token endpoint that holds each exchange until the test answers it. */
async function startTokenEndpoint(): Promise<{ apiHost: string; exchanges: ServerResponse[]; nextExchange: () => Promise<ServerResponse> }> {
  const exchanges: ServerResponse[] = [];
  const waiting: ((res: ServerResponse) => void)[] = [];
  tokenServer = createServer((req, res) => {
    req.resume();
    if (req.url !== '/oauth/token') {
      // The sync engine a sign-in starts finds no API here.
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    req.on('end', () => {
      exchanges.push(res);
      waiting.shift()?.(res);
    });
  });
  await new Promise<void>((resolve) => tokenServer!.listen(0, '127.0.0.1', () => resolve()));
  const apiHost = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}`;
  return { apiHost, exchanges, nextExchange: () => new Promise((resolve) => waiting.push(resolve)) };
}

async function startOAuthTerminal(apiHost: string) {
  const secretFile = join(mkdtempSync(join(tmpdir(), 'oauth-reset-')), 'secrets.json');
  const secrets = new FileSecretStore(secretFile);
  await secrets.setMany({ oauth_client_secret: 'client-secret' });
  const authorizeUrls: string[] = [];
  t = await startTestCore(
    { api: { baseUrl: `${apiHost}/v1`, apiHost, authUrl: apiHost }, credentials: { oauthClientId: 'till-client' } },
    { secretStore: secrets, openExternal: async (url: string) => void authorizeUrls.push(url) },
  );
  const finished: { ok: boolean; message: string }[] = [];
  t.core.subscribe((event) => {
    if (event.event === 'oauth.finished') finished.push(event.payload as { ok: boolean; message: string });
  });
  return { secrets, finished };
}

/** The browser's redirect back to the terminal, as the consent page would send it. */
function callbackUrl(authorizeUrl: string): string {
  const params = new URL(authorizeUrl).searchParams;
  return `${params.get('redirect_uri')}?code=auth-code-1&state=${encodeURIComponent(params.get('state')!)}`;
}

const tokens = JSON.stringify({ access_token: 'at_after_reset', refresh_token: 'rt_after_reset', token_type: 'Bearer', expires_in: 3600 });

describe('an OAuth sign-in and a terminal reset', () => {
  it('an approval arriving after the reset finds no listener and stores nothing', async () => {
    const { apiHost, exchanges } = await startTokenEndpoint();
    const { secrets, finished } = await startOAuthTerminal(apiHost);
    const { authorizeUrl } = await t!.call('credentials.connectOAuth', {});
    await t!.call('terminal.reset', { confirmPendingLoss: true });
    await expect(request(callbackUrl(authorizeUrl))).rejects.toThrow();
    expect(exchanges).toHaveLength(0);
    expect(await secrets.get(OAUTH_SECRET_NAMES.accessToken)).toBeNull();
    expect(finished).toEqual([{ ok: false, message: expect.stringMatching(/cancelled: the terminal was reset/) }]);
    // The fresh terminal has its provisioned staff and no one signed in.
    expect((await t!.call('staff.session', {})).signedIn).toBeNull();
    await signIn(t!.core, 'owner');
    expect(await t!.call('credentials.oauthStatus', {})).toEqual({ state: 'idle', message: '' });
    expect((await t!.call('settings.get', {})).credentials.kind).toBe('none');
  });

  it('a token reply still under way at the reset is dropped: the fresh terminal stays signed out', async () => {
    const { apiHost, nextExchange } = await startTokenEndpoint();
    const { secrets, finished } = await startOAuthTerminal(apiHost);
    const { authorizeUrl } = await t!.call('credentials.connectOAuth', {});
    const exchange = nextExchange();
    const redirect = await request(callbackUrl(authorizeUrl));
    expect(redirect.statusCode).toBe(200);
    await redirect.body.text();
    const held = await exchange; // the terminal is waiting for the token endpoint's answer
    await t!.call('terminal.reset', { confirmPendingLoss: true });
    // The approval comes back after the reset (the terminal gave up on the reply).
    if (!held.destroyed) held.writeHead(200, { 'content-type': 'application/json' }).end(tokens);
    expect(await secrets.get(OAUTH_SECRET_NAMES.accessToken)).toBeNull();
    expect(await secrets.get(OAUTH_SECRET_NAMES.refreshToken)).toBeNull();
    expect(finished).toEqual([{ ok: false, message: expect.stringMatching(/cancelled/) }]);
    expect((await t!.call('settings.get', {})).credentials.kind).toBe('none');
  });

  it('an approval before any reset still signs the terminal in', async () => {
    const { apiHost, nextExchange } = await startTokenEndpoint();
    const { secrets, finished } = await startOAuthTerminal(apiHost);
    const { authorizeUrl } = await t!.call('credentials.connectOAuth', {});
    const exchange = nextExchange();
    await (await request(callbackUrl(authorizeUrl))).body.text();
    (await exchange).writeHead(200, { 'content-type': 'application/json' }).end(tokens);
    await expect.poll(() => finished).toEqual([{ ok: true, message: expect.stringMatching(/Connected with OAuth/) }]);
    expect(await secrets.get(OAUTH_SECRET_NAMES.accessToken)).toBe('at_after_reset');
  });
});
