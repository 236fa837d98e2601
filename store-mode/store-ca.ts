// The store's certificate authority, derived from the store secret alone: every till computes the same
// P-256 key, the same subject and the same serial, so a certificate minted by any till validates on
// every other one without ever copying a CA file around. ECDSA signatures are randomised, so two tills'
// CA certificates differ in their signature bytes only; TLS trusts an anchor by its name and key, never
// by its self-signature, which is what the two-process tests check.
import { createECDH, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import { x509Library, type JsonName, type X509Certificate } from './x509';
import { CERTIFICATE_VALIDITY, positiveSerial, SIGNING_ALGORITHM } from './certificate-rules';

/** The P-256 group order n: a private scalar must lie in [1, n-1]. */
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const HKDF_SALT = 'pos-terminal store-mode v1';

export interface StoreCa {
  /** Signs till certificates; not extractable, so it cannot be exported or logged by accident. */
  signingKey: CryptoKey;
  publicKey: CryptoKey;
  certificate: X509Certificate;
  /** PEM of the CA certificate: the `ca` of every TLS connection of the store. */
  certificatePem: string;
  /** 8 bytes (hex) naming the store without revealing anything of the secret: in the CA's name, and later in discovery. */
  storeTag: string;
}

function derive(secret: Uint8Array, purpose: string, bytes: number): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, purpose, bytes));
}

/**
 * The CA's private scalar from 384 derived bits reduced into [1, n-1] (FIPS 186-4 B.4.1, "extra random
 * bits"): the 128 extra bits make the reduction's bias negligible.
 */
function caScalar(secret: Uint8Array): Buffer {
  const wide = BigInt(`0x${derive(secret, 'store CA P-256 private key', 48).toString('hex')}`);
  const scalar = (wide % (P256_ORDER - 1n)) + 1n;
  return Buffer.from(scalar.toString(16).padStart(64, '0'), 'hex');
}

/** The CA's public key and the store's tag: what every till derives from the secret, no certificate library needed. */
export interface StoreCaKey {
  /** The CA's public key as a node:crypto KeyObject: what a kept certificate is checked against. */
  publicKey: KeyObject;
  /** Its SPKI DER, to compare with a certificate's. */
  publicKeySpki: Buffer;
  storeTag: string;
}

type EcJwk = { kty: string; crv: string; x: string; y: string; d?: string };

/** The CA's key as JWKs, for WebCrypto; the private one only for minting (deriveStoreCa), never handed out. */
function caJwks(secret: Uint8Array): { privateJwk: EcJwk; publicJwk: EcJwk } {
  const d = caScalar(secret);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey(); // 0x04 || x || y
  const publicJwk = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') };
  return { privateJwk: { ...publicJwk, d: d.toString('base64url') }, publicJwk };
}

export function deriveStoreCaKey(secret: Uint8Array): StoreCaKey {
  const publicKey = createPublicKey({ key: caJwks(secret).publicJwk, format: 'jwk' });
  return { publicKey, publicKeySpki: publicKey.export({ type: 'spki', format: 'der' }), storeTag: derive(secret, 'store tag', 8).toString('hex') };
}

/** The CA with its certificate, for minting a till's certificate (loads the certificate library). */
export async function deriveStoreCa(secret: Uint8Array): Promise<StoreCa> {
  const x509 = x509Library();
  const { privateJwk, publicJwk } = caJwks(secret);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
  const signingKey = await crypto.subtle.importKey('jwk', privateJwk, algorithm, false, ['sign']);
  const publicKey = await crypto.subtle.importKey('jwk', publicJwk, algorithm, true, ['verify']);
  const storeTag = derive(secret, 'store tag', 8).toString('hex');
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: positiveSerial(derive(secret, 'store CA serial', 16)),
      name: storeCaName(storeTag),
      ...CERTIFICATE_VALIDITY,
      keys: { privateKey: signingKey, publicKey },
      signingAlgorithm: SIGNING_ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(publicKey),
      ],
    },
  );
  return { signingKey, publicKey, certificate, certificatePem: certificate.toString('pem'), storeTag };
}

export function storeCaName(storeTag: string): JsonName {
  return [{ CN: [`POS store ${storeTag}`] }, { O: ['pos-terminal store mode'] }];
}
