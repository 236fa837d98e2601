// The store secret IT provisions (POS_STORE_SECRET or a secret-store entry): the one thing every till of
// a store shares. Given as hex or base64 text; it must decode to at least 128 bits, because every key of
// the store's trust is derived from it and a short secret could be guessed offline from one certificate.

export const STORE_SECRET_MIN_BYTES = 16;

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export class StoreSecretError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'StoreSecretError';
  }
}

/** The secret's bytes, or a StoreSecretError whose message never repeats the secret. */
export function parseStoreSecret(text: string): Uint8Array {
  const trimmed = text.trim();
  if (trimmed === '') throw new StoreSecretError('there is no store secret: set POS_STORE_SECRET, or name its secret-store entry with --store-secret-ref');
  let bytes: Buffer;
  if (HEX.test(trimmed)) bytes = Buffer.from(trimmed, 'hex');
  else if (BASE64.test(trimmed)) bytes = Buffer.from(trimmed, 'base64');
  else if (BASE64URL.test(trimmed)) bytes = Buffer.from(trimmed, 'base64url');
  else throw new StoreSecretError('the store secret must be hex or base64 text (make one with: openssl rand -base64 32)');
  if (bytes.length < STORE_SECRET_MIN_BYTES) {
    throw new StoreSecretError(
      `the store secret is too short: it holds ${bytes.length * 8} bits, at least ${STORE_SECRET_MIN_BYTES * 8} are needed (32 hex or 24 base64 characters; make one with: openssl rand -base64 32)`,
    );
  }
  return new Uint8Array(bytes);
}
