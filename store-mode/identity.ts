// A till's identity in its store: the store CA derived from the secret, the till's own key, and a
// certificate for that key minted at start by the store CA (CN = till id, OU = till name). These are
// the three PEMs of every TLS connection store mode makes, as server and as client.
import { x509Library } from './x509';
import { CERTIFICATE_VALIDITY, positiveSerial, SIGNING_ALGORITHM } from './certificate-rules';
import { parseStoreSecret } from './secret';
import { deriveStoreCa, storeCaName } from './store-ca';
import { loadOrCreateTillKey, type TillKeyStore } from './till-key';
import { isTillName, TILL_NAME_RULE } from './till-name';

export interface TlsMaterial {
  /** The store CA certificate: the only anchor a store connection trusts. */
  ca: string;
  cert: string;
  key: string;
}

export interface TillIdentity {
  tillId: string;
  tillName: string;
  storeTag: string;
  tls: TlsMaterial;
}

export interface TillIdentityOptions {
  /** The store secret as IT gave it (hex or base64); checked here too, so no caller can skip the length rule. */
  storeSecret: string;
  tillName: string;
  keyStore: TillKeyStore;
}

export async function createTillIdentity(options: TillIdentityOptions): Promise<TillIdentity> {
  if (!isTillName(options.tillName)) throw new Error(`the till name ${TILL_NAME_RULE}`);
  const x509 = x509Library();
  const ca = await deriveStoreCa(parseStoreSecret(options.storeSecret));
  const till = await loadOrCreateTillKey(options.keyStore);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
  const tillPublicKey = await crypto.subtle.importKey('spki', new Uint8Array(till.publicKeySpki), algorithm, true, ['verify']);
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: positiveSerial(),
      subject: [{ CN: [till.tillId] }, { OU: [options.tillName] }],
      issuer: storeCaName(ca.storeTag),
      ...CERTIFICATE_VALIDITY,
      publicKey: tillPublicKey,
      signingKey: ca.signingKey,
      signingAlgorithm: SIGNING_ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        // Every till is both a feed server and a puller.
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
        await x509.SubjectKeyIdentifierExtension.create(tillPublicKey),
        await x509.AuthorityKeyIdentifierExtension.create(ca.publicKey),
      ],
    },
  );
  return {
    tillId: till.tillId,
    tillName: options.tillName,
    storeTag: ca.storeTag,
    tls: { ca: ca.certificatePem, cert: certificate.toString('pem'), key: till.privateKeyPem },
  };
}
