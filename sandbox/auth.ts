// Who is calling: API keys (full or restricted) and OAuth access tokens, and what they may do.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { PRESET_PERMISSIONS, permissionSchema, type ApiKeyKind, type ApiKeyMode, type Permission, type Scope } from '../api/enums';
import type { Endpoint } from '../api/endpoints';
import { sql } from 'kysely';
import { ACCESS_TOKEN_PREFIX } from '../api/oauth';
import type { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { ApiError } from './http';
import type { Db } from './storage';

export type Principal =
  | { kind: 'api_key'; credentialId: string; permissions: ReadonlySet<Permission> }
  | { kind: 'oauth'; credentialId: string; scopes: ReadonlySet<string> };

export function randomSecret(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Built once: zod schemas cost more to build than to run, and every request reads a key's permissions. */
const storedPermissions = permissionSchema.array();

const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/;

function unauthenticated(message: string): ApiError {
  return new ApiError('authentication_failed', message, {}, { 'WWW-Authenticate': 'Bearer realm="v1"' });
}

export async function authenticate(db: Db, req: IncomingMessage, clock: Clock): Promise<Principal> {
  const header = req.headers.authorization;
  if (!header) throw unauthenticated('no Authorization header: send "Authorization: Bearer <API key or access token>"');
  const match = BEARER.exec(header);
  if (!match) throw unauthenticated('the Authorization header must be "Bearer <credential>"');
  const credential = match[1] as string;
  if (credential.startsWith('sk_test_') || credential.startsWith('sk_live_')) {
    const key = await db.selectFrom('api_keys').select(['id', 'permissions']).where('secret', '=', credential).executeTakeFirst();
    if (!key) throw unauthenticated('this API key is not valid (unknown, or regenerated since)');
    const permissions = storedPermissions.parse(JSON.parse(key.permissions));
    return { kind: 'api_key', credentialId: key.id, permissions: new Set(permissions) };
  }
  if (credential.startsWith(ACCESS_TOKEN_PREFIX)) {
    const hash = sha256(credential);
    const token = await db
      .selectFrom('oauth_tokens')
      .select(['scopes', 'expires_at', 'revoked'])
      .where('token_hash', '=', hash)
      .where('kind', '=', 'access')
      .executeTakeFirst();
    if (!token || token.revoked) throw unauthenticated('this access token is not valid');
    if (token.expires_at <= clock.now()) throw unauthenticated('this access token has expired: refresh it');
    return { kind: 'oauth', credentialId: `tok_${hash.slice(0, 24)}`, scopes: new Set(token.scopes.split(' ')) };
  }
  throw unauthenticated('the credential is neither an API key (sk_test_/sk_live_) nor an access token (at_live_)');
}

/** Throws permission_denied naming what the caller lacks for `endpoint`. */
export function authorize(principal: Principal, endpoint: Endpoint): void {
  const what = `${endpoint.method} ${endpoint.path}`;
  if (principal.kind === 'api_key') {
    const missing = endpoint.permissions.filter((p) => !principal.permissions.has(p));
    if (missing.length > 0) {
      throw new ApiError('permission_denied', `this API key lacks the permission ${missing.join(', ')} needed for ${what}`, {
        missing_permissions: [...missing],
      });
    }
    return;
  }
  if (endpoint.scopes === null) {
    throw new ApiError('permission_denied', `${what} is available to API keys only: no OAuth scope grants it`, {
      missing_permissions: [...endpoint.permissions],
    });
  }
  const missing = endpoint.scopes.filter((s: Scope) => !principal.scopes.has(s));
  if (missing.length > 0) {
    throw new ApiError('permission_denied', `this access token lacks the scope ${missing.join(', ')} needed for ${what}`, {
      missing_scopes: [...missing],
    });
  }
}

export interface ApiKeyRecord {
  id: string;
  kind: ApiKeyKind;
  mode: ApiKeyMode;
  label: string;
  secret: string;
  permissions: Permission[];
  created_at: string;
}

export async function createApiKey(
  db: Db,
  clock: Clock,
  input: { kind: ApiKeyKind; mode: ApiKeyMode; label?: string; permissions?: readonly Permission[] },
): Promise<ApiKeyRecord> {
  const permissions = input.kind === 'custom' ? [...new Set(input.permissions ?? [])] : [...PRESET_PERMISSIONS[input.kind]];
  const now = clock.now();
  const record: ApiKeyRecord = {
    id: newId('key_', now),
    kind: input.kind,
    mode: input.mode,
    label: input.label ?? `${input.kind} ${input.mode} key`,
    secret: randomSecret(`sk_${input.mode}_`),
    permissions,
    created_at: new Date(now).toISOString(),
  };
  await db
    .insertInto('api_keys')
    .values({ id: record.id, kind: record.kind, mode: record.mode, label: record.label, secret: record.secret, permissions: JSON.stringify(permissions), created_at: now })
    .execute();
  return record;
}

export async function listApiKeys(db: Db): Promise<ApiKeyRecord[]> {
  // Creation order, even for keys made in the same millisecond.
  const rows = await db.selectFrom('api_keys').selectAll().orderBy(sql`rowid`).execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as ApiKeyKind,
    mode: r.mode as ApiKeyMode,
    label: r.label,
    secret: r.secret,
    permissions: storedPermissions.parse(JSON.parse(r.permissions)),
    created_at: new Date(r.created_at).toISOString(),
  }));
}

/** A new secret for the same key; the old one stops working at once. */
export async function regenerateApiKey(db: Db, id: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').select(['mode']).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  await db.updateTable('api_keys').set({ secret: randomSecret(`sk_${row.mode}_`) }).where('id', '=', id).execute();
  return (await listApiKeys(db)).find((k) => k.id === id);
}
