// OAuth 2.0 constants and the authorize URL, built by hand: the spec joins scopes with '+', which
// URLSearchParams would encode as %2B.
import { createHash } from 'node:crypto';
import type { Scope } from './enums';

export const ACCESS_TOKEN_TTL_SEC = 3600;
/** RFC 6749 §4.1.2 recommends at most 10 minutes; codes are single-use. */
export const AUTHORIZATION_CODE_TTL_SEC = 600;
/** Refresh tokens rotate on every use; an unused one lapses after 90 days. */
export const REFRESH_TOKEN_TTL_SEC = 90 * 24 * 3600;

export const ACCESS_TOKEN_PREFIX = 'at_live_';
export const REFRESH_TOKEN_PREFIX = 'rt_live_';

export interface AuthorizeUrlInput {
  authUrl: string;
  clientId: string;
  redirectUri: string;
  scopes: readonly Scope[];
  state: string;
  /** RFC 7636 S256 challenge of the client's code verifier. */
  codeChallenge?: string;
}

export function buildAuthorizeUrl(input: AuthorizeUrlInput): string {
  const params: [string, string][] = [
    ['client_id', input.clientId],
    ['redirect_uri', input.redirectUri],
    ['response_type', 'code'],
    ['scope', input.scopes.map(encodeURIComponent).join('+')],
    ['state', input.state],
  ];
  if (input.codeChallenge) params.push(['code_challenge', input.codeChallenge], ['code_challenge_method', 'S256']);
  const query = params.map(([k, v]) => `${k}=${k === 'scope' ? v : encodeURIComponent(v)}`).join('&');
  return `${input.authUrl.replace(/\/$/, '')}/oauth/authorize?${query}`;
}

/** Scopes from an authorize URL or a token response: '+' or space separated, empty entries dropped. */
export function parseScopeList(raw: string): string[] {
  return raw.split(/[ +]+/).filter((s) => s.length > 0);
}

/** The S256 code challenge of a verifier (RFC 7636 §4.2). */
export function pkceChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier, 'ascii').digest('base64url');
}
