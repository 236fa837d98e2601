// OAuth 2.0 authorization code flow: the consent page on {auth_url}/oauth/authorize (Approve /
// Deny), the token endpoint POST {api_host}/oauth/token (JSON), PKCE S256, refresh rotation,
// RFC 6749 error replies.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { scopeSchema } from '../api/enums';
import { oauthErrorStatus, type OAuthErrorCode } from '../api/errors';
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_TTL_SEC,
  AUTHORIZATION_CODE_TTL_SEC,
  parseScopeList,
  pkceChallenge,
  REFRESH_TOKEN_PREFIX,
  REFRESH_TOKEN_TTL_SEC,
} from '../api/oauth';
import { tokenRequestSchema, type TokenRequest } from '../api/requests';
import type { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { randomSecret, sha256 } from './auth';
import { escapeHtml, sendHtml, sendJson } from './http';
import type { Db } from './storage';

export const registerOAuthAppSchema = z.strictObject({
  name: z.string().min(1).max(100),
  redirect_uris: z.array(z.url()).min(1).max(20),
  /** Public clients (desktop apps) get no secret and must use PKCE (RFC 8252 §8.4). */
  public: z.boolean().optional(),
});
export type RegisterOAuthApp = z.infer<typeof registerOAuthAppSchema>;

export interface OAuthApp {
  client_id: string;
  client_secret: string | null;
  name: string;
  redirect_uris: string[];
  created_at: string;
}

export async function registerOAuthApp(db: Db, clock: Clock, input: RegisterOAuthApp): Promise<OAuthApp> {
  const now = clock.now();
  const app: OAuthApp = {
    client_id: newId('client_', now),
    client_secret: input.public ? null : randomSecret('cs_'),
    name: input.name,
    redirect_uris: input.redirect_uris,
    created_at: new Date(now).toISOString(),
  };
  await db
    .insertInto('oauth_apps')
    .values({ client_id: app.client_id, client_secret: app.client_secret, name: app.name, redirect_uris: JSON.stringify(app.redirect_uris), created_at: now })
    .execute();
  return app;
}

export async function findOAuthApp(db: Db, clientId: string): Promise<OAuthApp | undefined> {
  const row = await db.selectFrom('oauth_apps').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  if (!row) return undefined;
  return {
    client_id: row.client_id,
    client_secret: row.client_secret,
    name: row.name,
    redirect_uris: z.array(z.string()).parse(JSON.parse(row.redirect_uris)),
    created_at: new Date(row.created_at).toISOString(),
  };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Exact match, except loopback redirect URIs, which match with any port (RFC 8252 §7.3). */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  let a: URL;
  let b: URL;
  try {
    a = new URL(registered);
    b = new URL(requested);
  } catch {
    return false;
  }
  return (
    a.protocol === 'http:' &&
    b.protocol === 'http:' &&
    LOOPBACK_HOSTS.has(a.hostname) &&
    a.hostname === b.hostname &&
    a.pathname === b.pathname &&
    a.search === b.search &&
    b.username === '' &&
    b.password === '' &&
    b.hash === ''
  );
}

interface PendingConsent {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  codeChallenge: string | null;
  expiresAt: number;
}

function redirectWith(res: ServerResponse, redirectUri: string, params: Record<string, string | undefined>): void {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  res.writeHead(303, { Location: url.href, 'Cache-Control': 'no-store' });
  res.end();
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
ul{padding-left:1.2rem}button{font-size:1rem;padding:.6rem 1.4rem;margin-right:.8rem;border-radius:6px;border:1px solid #555;cursor:pointer}
button[value=approve]{background:#0b5;color:#fff;border-color:#0a4}.muted{color:#555;font-size:.9rem}</style></head>
<body>${body}</body></html>`;
}

function errorPage(res: ServerResponse, message: string): void {
  sendHtml(res, 400, page('Authorization error', `<h1>This authorization request cannot be completed</h1><p>${escapeHtml(message)}</p>`));
}

const SCOPE_TEXT: Record<string, string> = {
  read_orders: 'Read your orders',
  write_orders: 'Create and modify orders',
  read_menu: 'Read menu items and categories',
  write_menu: 'Create and modify menu items',
  read_payments: 'Read payment transactions',
  read_locations: 'Read location information',
};

function oauthError(res: ServerResponse, code: OAuthErrorCode, description: string): void {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  if (code === 'invalid_client') headers['WWW-Authenticate'] = 'Basic realm="oauth"';
  sendJson(res, oauthErrorStatus(code), { error: code, error_description: description }, headers);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class OAuthService {
  readonly #pending = new Map<string, PendingConsent>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** GET {auth_url}/oauth/authorize: validates the request and shows the consent page. */
  async authorizePage(res: ServerResponse, url: URL): Promise<void> {
    const q = url.searchParams;
    const clientId = q.get('client_id');
    const app = clientId ? await findOAuthApp(this.db, clientId) : undefined;
    if (!app) return errorPage(res, 'Unknown or missing client_id.');
    const redirectUri = q.get('redirect_uri');
    if (!redirectUri || !app.redirect_uris.some((r) => redirectUriMatches(r, redirectUri))) {
      return errorPage(res, 'The redirect_uri is missing or is not registered for this application.');
    }
    const state = q.get('state') ?? undefined;
    if (q.get('response_type') !== 'code') return redirectWith(res, redirectUri, { error: 'unsupported_response_type', error_description: 'response_type must be code', state });
    const scopes = [...new Set(parseScopeList(q.get('scope') ?? ''))];
    const unknown = scopes.filter((s) => !scopeSchema.safeParse(s).success);
    if (scopes.length === 0 || unknown.length > 0) {
      const description = scopes.length === 0 ? 'request at least one scope' : `unknown scope ${unknown.join(', ')}`;
      return redirectWith(res, redirectUri, { error: 'invalid_scope', error_description: description, state });
    }
    const codeChallenge = q.get('code_challenge');
    if (codeChallenge !== null) {
      if (q.get('code_challenge_method') !== 'S256') {
        return redirectWith(res, redirectUri, { error: 'invalid_request', error_description: 'code_challenge_method must be S256', state });
      }
      if (!/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
        return redirectWith(res, redirectUri, { error: 'invalid_request', error_description: 'code_challenge must be a base64url SHA-256', state });
      }
    } else if (app.client_secret === null) {
      return redirectWith(res, redirectUri, { error: 'invalid_request', error_description: 'public clients must use PKCE (code_challenge)', state });
    }
    const requestToken = randomBytes(18).toString('base64url');
    // Pages opened and never answered would otherwise pile up.
    for (const [token, stale] of this.#pending) if (stale.expiresAt <= this.clock.now()) this.#pending.delete(token);
    this.#pending.set(requestToken, {
      clientId: app.client_id,
      redirectUri,
      scopes,
      state,
      codeChallenge,
      expiresAt: this.clock.now() + AUTHORIZATION_CODE_TTL_SEC * 1000,
    });
    const list = scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)} <span class="muted">(${escapeHtml(s)})</span></li>`).join('');
    sendHtml(
      res,
      200,
      page(
        `Authorize ${app.name}`,
        `<h1>Authorize ${escapeHtml(app.name)}</h1>
<p><strong>${escapeHtml(app.name)}</strong> asks to act for your restaurant with these permissions:</p>
<ul>${list}</ul>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="request" value="${requestToken}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<p class="muted">You will be sent back to ${escapeHtml(new URL(redirectUri).origin)}.</p>`,
      ),
      // Browsers apply form-action to the redirect that follows the POST: allow the app's origin.
      { 'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(redirectUri).origin}; frame-ancestors 'none'` },
    );
  }

  /** POST {auth_url}/oauth/authorize: the merchant's decision. */
  async decide(res: ServerResponse, rawBody: Buffer): Promise<void> {
    const form = new URLSearchParams(rawBody.toString('utf8'));
    const token = form.get('request') ?? '';
    const pending = this.#pending.get(token);
    this.#pending.delete(token);
    if (!pending || pending.expiresAt <= this.clock.now()) return errorPage(res, 'This authorization request has expired or was already answered. Start again from the application.');
    const decision = form.get('decision');
    if (decision !== 'approve') {
      return redirectWith(res, pending.redirectUri, { error: 'access_denied', error_description: 'the merchant denied the request', state: pending.state });
    }
    const code = randomSecret('ac_');
    await this.db
      .insertInto('oauth_codes')
      .values({
        code_hash: sha256(code),
        client_id: pending.clientId,
        redirect_uri: pending.redirectUri,
        scopes: pending.scopes.join(' '),
        code_challenge: pending.codeChallenge,
        expires_at: this.clock.now() + AUTHORIZATION_CODE_TTL_SEC * 1000,
        used: 0,
      })
      .execute();
    redirectWith(res, pending.redirectUri, { code, state: pending.state });
  }

  /** POST {api_host}/oauth/token with a JSON body. */
  async token(req: IncomingMessage, res: ServerResponse, rawBody: Buffer): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return oauthError(res, 'invalid_request', 'the token endpoint takes POST only');
    }
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
      return oauthError(res, 'invalid_request', 'send the token request as JSON (Content-Type: application/json)');
    }
    let input: unknown;
    try {
      input = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return oauthError(res, 'invalid_request', 'the body is not valid JSON');
    }
    const grantType = (input as { grant_type?: unknown } | null)?.grant_type;
    if (typeof grantType !== 'string') return oauthError(res, 'invalid_request', 'grant_type is required');
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      return oauthError(res, 'unsupported_grant_type', `grant_type ${grantType} is not supported`);
    }
    const parsed = tokenRequestSchema.safeParse(input);
    if (!parsed.success) {
      return oauthError(res, 'invalid_request', parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
    }
    const request = parsed.data;
    const app = await findOAuthApp(this.db, request.client_id);
    const secretOk = app && (app.client_secret === null ? request.client_secret === undefined : request.client_secret !== undefined && sameSecret(app.client_secret, request.client_secret));
    if (!app || !secretOk) return oauthError(res, 'invalid_client', 'unknown client or wrong client_secret');
    if (request.grant_type === 'authorization_code') return this.#exchangeCode(res, request);
    return this.#refresh(res, request);
  }

  async #exchangeCode(res: ServerResponse, request: Extract<TokenRequest, { grant_type: 'authorization_code' }>): Promise<void> {
    const codeHash = sha256(request.code);
    const code = await this.db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    if (!code || code.client_id !== request.client_id) return oauthError(res, 'invalid_grant', 'unknown authorization code');
    if (code.used) {
      // RFC 6749 §4.1.2: a replayed code revokes what it issued.
      await this.db.updateTable('oauth_tokens').set({ revoked: 1 }).where('code_hash', '=', codeHash).execute();
      return oauthError(res, 'invalid_grant', 'this authorization code was already used; the tokens it issued are revoked');
    }
    if (code.expires_at <= this.clock.now()) return oauthError(res, 'invalid_grant', 'the authorization code has expired');
    if (code.redirect_uri !== request.redirect_uri) return oauthError(res, 'invalid_grant', 'redirect_uri differs from the one in the authorization request');
    if (code.code_challenge !== null) {
      if (!request.code_verifier) return oauthError(res, 'invalid_grant', 'code_verifier is required: the authorization used PKCE');
      if (!sameSecret(pkceChallenge(request.code_verifier), code.code_challenge)) return oauthError(res, 'invalid_grant', 'code_verifier does not match the code_challenge');
    } else if (request.code_verifier) {
      return oauthError(res, 'invalid_grant', 'code_verifier given but the authorization request had no code_challenge');
    }
    const { numUpdatedRows } = await this.db.updateTable('oauth_codes').set({ used: 1 }).where('code_hash', '=', codeHash).where('used', '=', 0).executeTakeFirstOrThrow();
    if (numUpdatedRows === 0n) return oauthError(res, 'invalid_grant', 'this authorization code was already used');
    await this.#issue(res, request.client_id, code.scopes, codeHash);
  }

  async #refresh(res: ServerResponse, request: Extract<TokenRequest, { grant_type: 'refresh_token' }>): Promise<void> {
    const hash = sha256(request.refresh_token);
    const token = await this.db.selectFrom('oauth_tokens').selectAll().where('token_hash', '=', hash).where('kind', '=', 'refresh').executeTakeFirst();
    if (!token || token.client_id !== request.client_id || token.revoked) return oauthError(res, 'invalid_grant', 'unknown, used or revoked refresh token');
    if (token.expires_at <= this.clock.now()) return oauthError(res, 'invalid_grant', 'the refresh token has expired');
    // Rotation: the old refresh token stops working now.
    const { numUpdatedRows } = await this.db.updateTable('oauth_tokens').set({ revoked: 1 }).where('token_hash', '=', hash).where('revoked', '=', 0).executeTakeFirstOrThrow();
    if (numUpdatedRows === 0n) return oauthError(res, 'invalid_grant', 'unknown, used or revoked refresh token');
    await this.#issue(res, request.client_id, token.scopes, token.code_hash);
  }

  async #issue(res: ServerResponse, clientId: string, scopes: string, codeHash: string): Promise<void> {
    const now = this.clock.now();
    const accessToken = randomSecret(ACCESS_TOKEN_PREFIX, 32);
    const refreshToken = randomSecret(REFRESH_TOKEN_PREFIX, 32);
    await this.db
      .insertInto('oauth_tokens')
      .values([
        { token_hash: sha256(accessToken), kind: 'access', client_id: clientId, scopes, expires_at: now + ACCESS_TOKEN_TTL_SEC * 1000, code_hash: codeHash, revoked: 0 },
        { token_hash: sha256(refreshToken), kind: 'refresh', client_id: clientId, scopes, expires_at: now + REFRESH_TOKEN_TTL_SEC * 1000, code_hash: codeHash, revoked: 0 },
      ])
      .execute();
    sendJson(
      res,
      200,
      { access_token: accessToken, refresh_token: refreshToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SEC, scope: scopes },
      { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
    );
  }
}
