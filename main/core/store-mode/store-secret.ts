// Where a till finds its store secret: POS_STORE_SECRET (the config's, from the environment only), else
// the secret-store entry IT named with --store-secret-ref, which a pairing by code fills too.
import type { SecretStore } from '../../../sync/secret-store';
import type { TerminalConfig } from '../../config/schema';

export class StoreSecretMissingError extends Error {
  constructor(secretRef: string) {
    super(`store mode is on, but the secret-store entry "${secretRef}" (storeMode.secretRef) holds no store secret: IT must provision it (docs/it.md)`);
    this.name = 'StoreSecretMissingError';
  }
}

/** The store secret's text, or null when the named secret-store entry holds none yet. */
export async function readStoreSecret(storeMode: TerminalConfig['storeMode'], secrets: SecretStore): Promise<string | null> {
  if (storeMode.secret !== '') return storeMode.secret;
  const stored = storeMode.secretRef === '' ? null : await secrets.get(storeMode.secretRef);
  return stored === null || stored === '' ? null : stored;
}
