// The till's store-mode key kept in the app's secret store (Electron: safeStorage; elsewhere the
// secrets file), never in the SQLite file: a copied database must not carry the till's identity.
import type { StoredTillKey, TillKeyStore } from '../../../store-mode/till-key';
import type { SecretStore } from '../../../sync/secret-store';

/** The secret-store entry of the till's own P-256 key (PKCS#8 PEM). */
export const TILL_KEY_SECRET = 'storeMode.tillKey';

export function tillKeyInSecretStore(secrets: SecretStore): TillKeyStore {
  return {
    async load() {
      const privateKeyPem = await secrets.get(TILL_KEY_SECRET);
      return privateKeyPem === null ? null : ({ privateKeyPem } satisfies StoredTillKey);
    },
    async save(key) {
      await secrets.setMany({ [TILL_KEY_SECRET]: key.privateKeyPem });
    },
  };
}
