// OAuth 2.0 for a desktop app (RFC 8252): the system browser opens the consent page, the code
// comes back to a loopback listener on 127.0.0.1 with an ephemeral port, state is checked, PKCE
// is sent, and the code is exchanged with a JSON body (the token endpoint does not take forms).
// OAuthCredentials then keeps the access token fresh: refresh before expiry and on
// authentication_failed, one refresh at a time, new tokens stored in one atomic write.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, type Dispatcher } from 'undici';
import { z } from 'zod';
import type { Clock } from '../common/clock';
import { systemClock } from '../common/clock';
import type { Logger } from '../common/log';
import { silentLogger } from '../common/log';
import { ApiError, classifyHttpError, extractErrorCode } from './api-error';
import type { CredentialsProvider } from './credentials';
import type { SecretStore } from './secret-store';

/** The token endpoint's answer (spec: Authentication, step 5). Unknown fields are kept. */
export const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  token_type: z.string().optional(),
  expires_in: z.number().positive().optional(),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

export interface OAuthClientConfig {
  /** {auth_url}: the dashboard that hosts /oauth/authorize. */
  authUrl: string;
  /** {api_host}: {base_url} without /v1; the token endpoint lives here. */
  apiHost: string;
  clientId: string;
  clientSecret: string;
}

/** Where the tokens are kept in the SecretStore. */
export const OAUTH_SECRET_NAMES = {
  accessToken: 'oauth.access_token',
  refreshToken: 'oauth.refresh_token',
  expiresAt: 'oauth.expires_at',
} as const;

const DEFAULT_TOKEN_LIFETIME_S = 3600;

export interface DesktopFlowOptions extends OAuthClientConfig {
  scopes: readonly string[];
  /** Opens the system browser (Electron: shell.openExternal); tests drive the consent page with HTTP. */
  openUrl: (url: string) => void | Promise<void>;
  secrets: SecretStore;
  /** How long to wait for the merchant to approve. */
  timeoutMs?: number;
  clock?: Clock;
  logger?: Logger;
  dispatcher?: Dispatcher;
  /**
   * Ends the flow as cancelled (OAuthFlowError 'sign-in cancelled'): the callback stops listening,
   * a token exchange under way is dropped and no token is stored. The terminal aborts it when the
   * session that started it ends (a reset), so a late approval cannot sign the fresh terminal in.
   */
  signal?: AbortSignal;
}

export class OAuthFlowError extends Error {
  override readonly name = 'OAuthFlowError';
}

function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

/** Scopes are joined with a literal '+' (URLSearchParams would send %2B). */
export function buildAuthorizeUrl(params: {
  authUrl: string;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  state: string;
  codeChallenge: string;
}): string {
  const pairs: [string, string][] = [
    ['client_id', encodeURIComponent(params.clientId)],
    ['redirect_uri', encodeURIComponent(params.redirectUri)],
    ['response_type', 'code'],
    ['scope', params.scopes.map(encodeURIComponent).join('+')],
    ['state', encodeURIComponent(params.state)],
    ['code_challenge', encodeURIComponent(params.codeChallenge)],
    ['code_challenge_method', 'S256'],
  ];
  return `${params.authUrl.replace(/\/+$/, '')}/oauth/authorize?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

/** Runs the whole authorization-code flow and stores the tokens. Resolves with the token response. */
export async function runDesktopOAuthFlow(options: DesktopFlowOptions): Promise<TokenResponse> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const state = base64url(randomBytes(32));
  const codeVerifier = base64url(randomBytes(32));
  const codeChallenge = base64url(createHash('sha256').update(codeVerifier).digest());

  const { signal } = options;
  if (signal?.aborted) throw new OAuthFlowError('sign-in cancelled');
  const callback = await listenForCallback(state, options.timeoutMs ?? 5 * 60_000);
  const cancel = () => void callback.close();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    const redirectUri = `http://127.0.0.1:${callback.port}/callback`;
    const authorizeUrl = buildAuthorizeUrl({ ...options, redirectUri, state, codeChallenge });
    logger.info({ redirectUri }, 'opening the system browser for OAuth consent');
    await options.openUrl(authorizeUrl);
    const code = await callback.code;
    const tokens = await postToken(
      options.apiHost,
      {
        grant_type: 'authorization_code',
        client_id: options.clientId,
        client_secret: options.clientSecret,
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      },
      options.dispatcher,
      signal,
    ).catch((error: unknown) => {
      throw signal?.aborted ? new OAuthFlowError('sign-in cancelled') : error;
    });
    if (signal?.aborted) throw new OAuthFlowError('sign-in cancelled');
    await storeTokens(options.secrets, tokens, clock.now(), null);
    logger.info({ scope: tokens.scope }, 'OAuth authorization complete');
    return tokens;
  } finally {
    signal?.removeEventListener('abort', cancel);
    await callback.close();
  }
}

interface CallbackListener {
  port: number;
  code: Promise<string>;
  close(): Promise<void>;
}

async function listenForCallback(expectedState: string, timeoutMs: number): Promise<CallbackListener> {
  let resolveCode!: (code: string) => void;
  let rejectCode!: (error: Error) => void;
  const code = new Promise<string>((resolve, reject) => {
    resolveCode = resolve;
    rejectCode = reject;
  });
  code.catch(() => undefined); // observed by the caller; avoid an unhandled rejection before that
  let settled = false;
  const settle = (outcome: { code: string } | { error: Error }) => {
    if (settled) return;
    settled = true;
    if ('code' in outcome) resolveCode(outcome.code);
    else rejectCode(outcome.error);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const state = url.searchParams.get('state');
    const error = url.searchParams.get('error');
    const received = url.searchParams.get('code');
    if (state !== expectedState) {
      // Someone else's redirect (or a forged one): ignore it and keep waiting for ours.
      res.writeHead(400, { 'content-type': 'text/plain' }).end('state mismatch: this sign-in link is not from this terminal');
      return;
    }
    if (error !== null) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('Sign-in was not approved. You can close this window.');
      settle({ error: new OAuthFlowError(`authorization refused: ${error}`) });
      return;
    }
    if (received === null || received === '') {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('missing code');
      settle({ error: new OAuthFlowError('authorization redirect carried no code') });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Signed in. You can close this window and return to the till.');
    settle({ code: received });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const timer = setTimeout(() => settle({ error: new OAuthFlowError('timed out waiting for the browser sign-in') }), timeoutMs);
  timer.unref();
  return {
    port: (server.address() as AddressInfo).port,
    code,
    close: async () => {
      clearTimeout(timer);
      settle({ error: new OAuthFlowError('sign-in cancelled') });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function postToken(apiHost: string, body: Record<string, string>, dispatcher?: Dispatcher, cancelled?: AbortSignal): Promise<TokenResponse> {
  const url = `${apiHost.replace(/\/+$/, '')}/oauth/token`;
  let status: number;
  let text: string;
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: cancelled ? AbortSignal.any([AbortSignal.timeout(15_000), cancelled]) : AbortSignal.timeout(15_000),
      ...(dispatcher ? { dispatcher } : {}),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    const name = (error as Error).name;
    throw new ApiError(name === 'TimeoutError' ? 'timeout' : 'network', `token request failed: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (status >= 200 && status < 300) {
    const parsed = TokenResponse.safeParse(json);
    if (!parsed.success) throw new ApiError('server', 'unreadable token response', { status });
    return parsed.data;
  }
  const { code, message } = extractErrorCode(json);
  // invalid_grant & co. mean the refresh token (or code) is dead: the merchant must sign in again.
  const kind = status >= 500 || status === 429 ? classifyHttpError(status, code) : 'authentication';
  throw new ApiError(kind, `token endpoint → ${status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`, { status, code });
}

async function storeTokens(secrets: SecretStore, tokens: TokenResponse, nowMs: number, previousRefresh: string | null): Promise<void> {
  const lifetimeS = tokens.expires_in ?? DEFAULT_TOKEN_LIFETIME_S;
  await secrets.setMany({
    [OAUTH_SECRET_NAMES.accessToken]: tokens.access_token,
    // A refresh response may omit the refresh token: then the old one stays valid.
    [OAUTH_SECRET_NAMES.refreshToken]: tokens.refresh_token ?? previousRefresh,
    [OAUTH_SECRET_NAMES.expiresAt]: String(nowMs + lifetimeS * 1000),
  });
}

export interface OAuthCredentialsOptions extends OAuthClientConfig {
  secrets: SecretStore;
  clock?: Clock;
  logger?: Logger;
  /** Refresh this long before the access token expires. */
  refreshMarginMs?: number;
  dispatcher?: Dispatcher;
}

/** Access tokens from the SecretStore, refreshed before expiry and on rejection, single-flight. */
export class OAuthCredentials implements CredentialsProvider {
  readonly #options: OAuthCredentialsOptions;
  readonly #clock: Clock;
  readonly #logger: Logger;
  #refreshing: Promise<boolean> | null = null;
  /** How many refresh requests went to the token endpoint (status page and tests). */
  refreshCount = 0;

  constructor(options: OAuthCredentialsOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? silentLogger;
  }

  async bearer(): Promise<string | null> {
    const secrets = this.#options.secrets;
    const access = await secrets.get(OAUTH_SECRET_NAMES.accessToken);
    if (access === null) return null;
    const expiresAt = Number(await secrets.get(OAUTH_SECRET_NAMES.expiresAt));
    const margin = this.#options.refreshMarginMs ?? 60_000;
    if (Number.isFinite(expiresAt) && this.#clock.now() >= expiresAt - margin) {
      if (!(await this.refresh())) return null;
      return secrets.get(OAUTH_SECRET_NAMES.accessToken);
    }
    return access;
  }

  async handleRejected(rejected: string): Promise<boolean> {
    const current = await this.#options.secrets.get(OAUTH_SECRET_NAMES.accessToken);
    if (current !== null && current !== rejected) return true; // someone already refreshed
    return this.refresh();
  }

  /** Refreshes the access token; concurrent callers share one request. False: sign-in needed. */
  refresh(): Promise<boolean> {
    this.#refreshing ??= this.#refreshOnce().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #refreshOnce(): Promise<boolean> {
    const { secrets, apiHost, clientId, clientSecret } = this.#options;
    const refreshToken = await secrets.get(OAUTH_SECRET_NAMES.refreshToken);
    if (refreshToken === null) return false;
    this.refreshCount += 1;
    try {
      const tokens = await postToken(
        apiHost,
        { grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: refreshToken },
        this.#options.dispatcher,
      );
      await storeTokens(secrets, tokens, this.#clock.now(), refreshToken);
      this.#logger.info('OAuth access token refreshed');
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'authentication') {
        this.#logger.warn({ err: error }, 'OAuth refresh refused: sign-in needed');
        return false;
      }
      throw error; // network trouble: the caller retries later with the same refresh token
    }
  }
}
