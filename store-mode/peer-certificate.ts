// Who is on the other end of a store connection. TLS has already checked the certificate chains to the
// store CA (so the peer holds the store secret); this checks what the CA cannot: that the till id in
// the certificate is the hash of the certificate's own key (nobody can claim another till's id without
// its key), and that the till's name is not already pinned to another till. Read with node:crypto's
// X509Certificate (the TLS library's own parser), so a handshake needs no certificate library loaded.
import { createHash, timingSafeEqual, X509Certificate } from 'node:crypto';
import type { TillPins } from './till-pins';
import { isTillName } from './till-name';

const TILL_ID = /^[0-9a-f]{64}$/;

export type PeerRefusal = 'malformedCertificate' | 'tillIdNotKeyHash' | 'namePinnedToAnotherTill';

export type PeerCheck = { ok: true; tillId: string; tillName: string } | { ok: false; reason: PeerRefusal; claimedTillId: string | null };

/** A subject field that occurs exactly once; null when absent or repeated (the legacy object gives an array then). */
export function subjectField(certificate: X509Certificate, field: 'CN' | 'OU'): string | null {
  const subject = certificate.toLegacyObject().subject as unknown as Record<string, unknown> | undefined;
  const value = subject && Object.hasOwn(subject, field) ? subject[field] : undefined;
  return typeof value === 'string' ? value : null;
}

export function checkPeerCertificate(der: Uint8Array, pins: TillPins): PeerCheck {
  let certificate: X509Certificate;
  let keySpki: Buffer;
  try {
    certificate = new X509Certificate(der);
    keySpki = certificate.publicKey.export({ type: 'spki', format: 'der' });
  } catch {
    return { ok: false, reason: 'malformedCertificate', claimedTillId: null };
  }
  const tillId = subjectField(certificate, 'CN');
  const tillName = subjectField(certificate, 'OU');
  if (tillId === null || !TILL_ID.test(tillId) || tillName === null || !isTillName(tillName)) {
    return { ok: false, reason: 'malformedCertificate', claimedTillId: tillId !== null && TILL_ID.test(tillId) ? tillId : null };
  }
  const keyHash = createHash('sha256').update(keySpki).digest();
  if (!timingSafeEqual(keyHash, Buffer.from(tillId, 'hex'))) return { ok: false, reason: 'tillIdNotKeyHash', claimedTillId: tillId };
  if (!pins.sight(tillId, tillName)) return { ok: false, reason: 'namePinnedToAnotherTill', claimedTillId: tillId };
  return { ok: true, tillId, tillName };
}
