// What every certificate of a store shares: the signature algorithm, and a validity that does not depend
// on any till's clock. A till's key lives as long as the till, revocation is rotating the store secret
// (docs/store-mode.md), and a till whose clock is wrong must still talk to the others; so certificates
// carry RFC 5280's "no well-defined expiration" (99991231235959Z) and a fixed start in the past.
import { randomBytes } from 'node:crypto';

export const SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;

export const CERTIFICATE_VALIDITY = {
  notBefore: new Date(Date.UTC(2020, 0, 1)),
  notAfter: new Date(Date.UTC(9999, 11, 31, 23, 59, 59)),
} as const;

/** A DER INTEGER serial that is positive and minimally encoded: top byte in 0x40..0x7f. */
export function positiveSerial(bytes: Buffer = randomBytes(16)): string {
  const serial = Buffer.from(bytes);
  serial[0] = ((serial[0] ?? 0) & 0x3f) | 0x40;
  return serial.toString('hex');
}
