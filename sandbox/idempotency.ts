// Idempotency-Key on POSTs: the stored reply is written in the same transaction as the write, so a
// reply lost after the commit is replayed on retry; a key reused with another request is refused.
import { createHash } from 'node:crypto';
import type { Clock } from '../common/clock';
import { ApiError } from './http';
import type { Db, Tx } from './storage';

export const IDEMPOTENCY_RETENTION_MS = 24 * 3600 * 1000;
/**
 * Expired keys are deleted at most this often: lookups ignore them already, so deleting is only
 * housekeeping, and a delete per request cost more than the request's own work.
 */
export const IDEMPOTENCY_EXPIRY_INTERVAL_MS = 60 * 1000;
const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;
/** The sandbox has one merchant account: keys are scoped to it, whichever credential sends them. */
const ACCOUNT = 'acct_sandbox';

export interface StoredReply {
  status: number;
  body: string;
}

export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${JSON.stringify(body ?? null)}`).digest('hex');
}

export function checkKeyShape(key: string): void {
  if (!KEY_SHAPE.test(key)) {
    throw new ApiError('invalid_request', 'Idempotency-Key: 1 to 255 printable ASCII characters', { param: 'Idempotency-Key' });
  }
}

export class IdempotencyStore {
  readonly #running = new Set<string>();
  /** Clock time of the last delete of expired keys; the first save does one. */
  #expiredAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Marks the key as running; throws if a request with it is running already. Pair with release(). */
  claim(key: string): void {
    if (this.#running.has(key)) {
      throw new ApiError('idempotency_key_in_use', 'a request with this Idempotency-Key is still running: retry later', {}, { 'Retry-After': '1' });
    }
    this.#running.add(key);
  }

  release(key: string): void {
    this.#running.delete(key);
  }

  /** The stored reply for this key, or undefined to run the request. Throws when the key was used for another request. */
  async lookup(key: string, print: string): Promise<StoredReply | undefined> {
    const row = await this.db
      .selectFrom('idempotency')
      .select(['fingerprint', 'status', 'body'])
      .where('account_key', '=', ACCOUNT)
      .where('key', '=', key)
      .where('created_at', '>', this.clock.now() - IDEMPOTENCY_RETENTION_MS)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.fingerprint !== print) {
      throw new ApiError('idempotency_key_reused', 'this Idempotency-Key was used with a different request (method, path or body)', { param: 'Idempotency-Key' });
    }
    return { status: row.status, body: row.body };
  }

  async save(db: Db | Tx, key: string, print: string, reply: StoredReply): Promise<void> {
    const now = this.clock.now();
    // An injected clock may also move back: expire again then rather than wait for it to return.
    if (now - this.#expiredAt >= IDEMPOTENCY_EXPIRY_INTERVAL_MS || now < this.#expiredAt) {
      await db.deleteFrom('idempotency').where('created_at', '<=', now - IDEMPOTENCY_RETENTION_MS).execute();
      this.#expiredAt = now;
    }
    await db
      .insertInto('idempotency')
      .values({ account_key: ACCOUNT, key, fingerprint: print, status: reply.status, body: reply.body, created_at: now })
      .onConflict((oc) => oc.columns(['account_key', 'key']).doUpdateSet({ fingerprint: print, status: reply.status, body: reply.body, created_at: now }))
      .execute();
  }
}
