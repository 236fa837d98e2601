// Who is on the other end of a store connection. TLS has already checked the certificate chains to the
// store CA (so the peer holds the store secret); this checks what the CA cannot: that the till id in
// the certificate is the hash of the certificate's own key (nobody can claim another till's id without
// its key), and that the till's name is not already pinned to another till.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { TillPins } from './till-pins';
import { isTillName } from './till-name';
import { x509Library, type Name, type X509Certificate } from './x509';

const TILL_ID = /^[0-9a-f]{64}$/;

export type PeerRefusal = 'malformedCertificate' | 'tillIdNotKeyHash' | 'namePinnedToAnotherTill';

export type PeerCheck = { ok: true; tillId: string; tillName: string } | { ok: false; reason: PeerRefusal; claimedTillId: string | null };

function single(name: Name, field: string): string | null {
  const values = name.getField(field);
  return values.length === 1 ? (values[0] ?? null) : null;
}

export function checkPeerCertificate(der: Uint8Array, pins: TillPins): PeerCheck {
  // Outside the try: a library that fails to load must throw, not pass for a malformed certificate.
  const { X509Certificate: Certificate } = x509Library();
  let certificate: X509Certificate;
  try {
    certificate = new Certificate(new Uint8Array(der));
  } catch {
    return { ok: false, reason: 'malformedCertificate', claimedTillId: null };
  }
  const tillId = single(certificate.subjectName, 'CN');
  const tillName = single(certificate.subjectName, 'OU');
  if (tillId === null || !TILL_ID.test(tillId) || tillName === null || !isTillName(tillName)) {
    return { ok: false, reason: 'malformedCertificate', claimedTillId: tillId !== null && TILL_ID.test(tillId) ? tillId : null };
  }
  const keyHash = createHash('sha256').update(new Uint8Array(certificate.publicKey.rawData)).digest();
  if (!timingSafeEqual(keyHash, Buffer.from(tillId, 'hex'))) return { ok: false, reason: 'tillIdNotKeyHash', claimedTillId: tillId };
  if (!pins.sight(tillId, tillName)) return { ok: false, reason: 'namePinnedToAnotherTill', claimedTillId: tillId };
  return { ok: true, tillId, tillName };
}
