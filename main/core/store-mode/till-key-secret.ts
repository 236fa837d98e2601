// The till's store-mode key kept in the app's secret store (Electron: safeStorage; elsewhere the
// secrets file), never in the SQLite file: a copied database must not carry the till's identity.
// Its certificates are kept beside it: public, but a start that finds them valid need not mint them.
import { z } from 'zod';
import type { KeptCertificates, TillCertificateStore } from '../../../store-mode/identity';
import type { StoredTillKey, TillKeyStore } from '../../../store-mode/till-key';
import type { SecretStore } from '../../../sync/secret-store';

/** The secret-store entry of the till's own P-256 key (PKCS#8 PEM). */
export const TILL_KEY_SECRET = 'storeMode.tillKey';
/** The secret-store entry of the store CA's and the till's certificates (JSON of KeptCertificates). */
export const TILL_CERTIFICATES_SECRET = 'storeMode.tillCertificates';

const KeptCertificatesJson = z.object({ profile: z.number().int(), ca: z.string(), cert: z.string() }) satisfies z.ZodType<KeptCertificates>;

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

export function tillCertificatesInSecretStore(secrets: SecretStore): TillCertificateStore {
  return {
    async load() {
      const text = await secrets.get(TILL_CERTIFICATES_SECRET);
      if (text === null) return null;
      try {
        // Anything unreadable is minted over.
        return KeptCertificatesJson.parse(JSON.parse(text));
      } catch {
        return null;
      }
    },
    async save(certificates) {
      await secrets.setMany({ [TILL_CERTIFICATES_SECRET]: JSON.stringify(certificates) });
    },
  };
}
