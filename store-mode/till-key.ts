// Each till's own P-256 key: made once, kept by the app's secret store (the `TillKeyStore` the app
// hands in), and the source of the till's id. The till id is the hex SHA-256 of the public key (SPKI
// DER), so an id cannot be claimed without holding its key.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/** What is persisted: the private key as PKCS#8 PEM (the public key follows from it). */
export interface StoredTillKey {
  privateKeyPem: string;
}

export interface TillKeyStore {
  load(): Promise<StoredTillKey | null>;
  save(key: StoredTillKey): Promise<void>;
}

export interface TillKey {
  privateKey: KeyObject;
  privateKeyPem: string;
  publicKeySpki: Buffer;
  tillId: string;
}

export class TillKeyError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'TillKeyError';
  }
}

export function tillIdOf(publicKeySpki: Uint8Array): string {
  return createHash('sha256').update(publicKeySpki).digest('hex');
}

function fromPem(privateKeyPem: string): TillKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(privateKeyPem);
  } catch {
    throw new TillKeyError('the stored till key cannot be read (not a PKCS#8 PEM private key)');
  }
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new TillKeyError('the stored till key is not a P-256 key');
  }
  const publicKeySpki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return { privateKey, privateKeyPem, publicKeySpki, tillId: tillIdOf(publicKeySpki) };
}

/** The till's key from the store, or a new one saved there first: the id must survive restarts. */
export async function loadOrCreateTillKey(store: TillKeyStore): Promise<TillKey> {
  const stored = await store.load();
  if (stored) return fromPem(stored.privateKeyPem);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await store.save({ privateKeyPem });
  return fromPem(privateKeyPem);
}
