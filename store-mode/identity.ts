// A till's identity in its store: the store CA derived from the secret, the till's own key, and a
// certificate for that key minted by the store CA (CN = till id, OU = till name). These are the three
// PEMs of every TLS connection store mode makes, as server and as client. The two certificates are
// kept (TillCertificateStore) and reused while they check out against the secret, the key and the
// name, so a start does not load the certificate library (~200 ms, ~5 MB) to mint them again.
import { X509Certificate } from 'node:crypto';
import { x509Library } from './x509';
import { CERTIFICATE_VALIDITY, positiveSerial, SIGNING_ALGORITHM } from './certificate-rules';
import { subjectField } from './peer-certificate';
import { parseStoreSecret } from './secret';
import { deriveStoreCa, deriveStoreCaKey, storeCaName, type StoreCaKey } from './store-ca';
import { loadOrCreateTillKey, type TillKey, type TillKeyStore } from './till-key';
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

/**
 * The store CA's and the till's certificates as last minted. Public, but kept beside the key: whatever is
 * loaded is used only if it checks out (reusable below), so a stale or altered copy is minted over.
 */
export interface KeptCertificates {
  /** Bumped when what is minted changes (extensions, names), so older copies are minted again. */
  profile: number;
  ca: string;
  cert: string;
}

export interface TillCertificateStore {
  load(): Promise<KeptCertificates | null>;
  save(certificates: KeptCertificates): Promise<void>;
}

export interface TillIdentityOptions {
  /** The store secret as IT gave it (hex or base64); checked here too, so no caller can skip the length rule. */
  storeSecret: string;
  tillName: string;
  keyStore: TillKeyStore;
  /** Where the certificates are kept between starts; without one they are minted at every start. */
  certificateStore?: TillCertificateStore;
}

export const CERTIFICATE_PROFILE = 1;

const spkiOf = (certificate: X509Certificate): Buffer => certificate.publicKey.export({ type: 'spki', format: 'der' });

/**
 * Whether kept certificates are this store's and this till's as it is now: the CA's key is the one the
 * secret derives and signed itself and the till's certificate, which carries the till's own key, its
 * id and its current name. A new secret, a renamed till or a new key fails here, and they are minted again.
 */
function reusable(kept: KeptCertificates | null, caKey: StoreCaKey, till: TillKey, tillName: string): kept is KeptCertificates {
  if (kept === null || kept.profile !== CERTIFICATE_PROFILE) return false;
  try {
    const ca = new X509Certificate(kept.ca);
    const cert = new X509Certificate(kept.cert);
    return (
      ca.ca &&
      spkiOf(ca).equals(caKey.publicKeySpki) &&
      ca.verify(caKey.publicKey) &&
      cert.checkIssued(ca) &&
      cert.verify(caKey.publicKey) &&
      spkiOf(cert).equals(till.publicKeySpki) &&
      subjectField(cert, 'CN') === till.tillId &&
      subjectField(cert, 'OU') === tillName
    );
  } catch {
    return false;
  }
}

export async function createTillIdentity(options: TillIdentityOptions): Promise<TillIdentity> {
  if (!isTillName(options.tillName)) throw new Error(`the till name ${TILL_NAME_RULE}`);
  const secret = parseStoreSecret(options.storeSecret);
  const till = await loadOrCreateTillKey(options.keyStore);
  const caKey = deriveStoreCaKey(secret);
  const kept = (await options.certificateStore?.load()) ?? null;
  let tls: { ca: string; cert: string };
  if (reusable(kept, caKey, till, options.tillName)) tls = { ca: kept.ca, cert: kept.cert };
  else {
    tls = await mint(secret, till, options.tillName);
    // Kept to spare the next start a minting: a copy that cannot be written costs only that.
    await options.certificateStore?.save({ profile: CERTIFICATE_PROFILE, ...tls }).catch(() => undefined);
  }
  return { tillId: till.tillId, tillName: options.tillName, storeTag: caKey.storeTag, tls: { ...tls, key: till.privateKeyPem } };
}

async function mint(secret: Uint8Array, till: TillKey, tillName: string): Promise<{ ca: string; cert: string }> {
  const x509 = x509Library();
  const ca = await deriveStoreCa(secret);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
  const tillPublicKey = await crypto.subtle.importKey('spki', new Uint8Array(till.publicKeySpki), algorithm, true, ['verify']);
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: positiveSerial(),
      subject: [{ CN: [till.tillId] }, { OU: [tillName] }],
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
  return { ca: ca.certificatePem, cert: certificate.toString('pem') };
}
