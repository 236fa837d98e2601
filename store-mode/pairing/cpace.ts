// CPace over ristretto255 for pairing a till by a short code: both sides derive the same keys only if both
// hold the same code, and each guess at the code costs one online attempt (a transcript allows no offline
// test). Then key confirmation both ways and an AES-256-GCM seal of the store secret under the session key.
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type * as Ed25519 from '@noble/curves/ed25519.js';

export const PAIRING_DST = 'pos-store-pairing-v1';
export const SESSION_ID_BYTES = 16;
export const SHARE_BYTES = 32;
export const CONFIRM_BYTES = 32;
export const NONCE_BYTES = 12;
export const SEAL_TAG_BYTES = 16;

const KEY_BYTES = 32;
type RistrettoPoint = InstanceType<(typeof Ed25519)['ristretto255']['Point']>;

/** The other side's share is no group element we may use: the pairing stops there. */
export class InvalidShareError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'InvalidShareError';
  }
}

/** What both sides bind their keys to: the session, both shares and both till names. */
export interface PairingTranscript {
  sessionId: Uint8Array;
  joinerShare: Uint8Array;
  listenerShare: Uint8Array;
  joinerName: string;
  listenerName: string;
}

export interface PairingKeys {
  joinerConfirm: Uint8Array;
  listenerConfirm: Uint8Array;
  seal: Uint8Array;
}

export interface SealedSecret {
  nonce: Uint8Array;
  /** Ciphertext followed by the 16-byte GCM tag. */
  sealed: Uint8Array;
}

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

/** Each part behind its 4-byte big-endian length, so no two different lists concatenate alike. */
function lengthPrefixed(...parts: Uint8Array[]): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(part.length);
    pieces.push(length, Buffer.from(part));
  }
  return Buffer.concat(pieces);
}

/** The steps of CPace on the curve itself; the rest (keys, confirmations, the seal) is node:crypto's. */
export interface Cpace {
  /** The session's generator: hash-to-ristretto255 of the code and the session id. */
  pairingGenerator(code: string, sessionId: Uint8Array): RistrettoPoint;
  /** A uniformly random non-zero scalar (64 random bytes reduced modulo the group order). */
  randomScalar(): bigint;
  pairingShare(scalar: bigint, generator: RistrettoPoint): Uint8Array;
  /** scalar·(the other's share), refusing an encoding that is no ristretto255 point, and the identity. */
  sharedPoint(scalar: bigint, otherShare: Uint8Array): Uint8Array;
}

let loading: Promise<Cpace> | undefined;

/**
 * CPace's curve steps, with @noble/curves loaded by the first pairing (either side) rather than
 * imported: a bundle hoists a package's import to its top, and every till would load it for nothing.
 * `importCurves`: how (tests give one that fails).
 */
export function loadCpace(importCurves: () => Promise<typeof Ed25519> = () => import('@noble/curves/ed25519.js')): Promise<Cpace> {
  loading ??= importCurves().then(cpaceOn, (error: unknown) => {
    // Not kept: the next pairing tries the import again.
    loading = undefined;
    throw error;
  });
  return loading;
}

function cpaceOn({ ristretto255, ristretto255_hasher }: typeof Ed25519): Cpace {
  const Point = ristretto255.Point;
  return {
    pairingGenerator: (code, sessionId) => ristretto255_hasher.hashToCurve(lengthPrefixed(utf8(PAIRING_DST), utf8(code), sessionId), { DST: PAIRING_DST }),
    randomScalar: () => {
      const order = Point.Fn.ORDER;
      for (;;) {
        const scalar = BigInt(`0x${randomBytes(64).toString('hex')}`) % order;
        if (scalar !== 0n) return scalar;
      }
    },
    pairingShare: (scalar, generator) => generator.multiply(scalar).toBytes(),
    sharedPoint: (scalar, otherShare) => {
      if (otherShare.length !== SHARE_BYTES) throw new InvalidShareError(`a share has ${SHARE_BYTES} bytes, not ${otherShare.length}`);
      let point: RistrettoPoint;
      try {
        point = Point.fromBytes(otherShare);
      } catch {
        throw new InvalidShareError('the share is not a ristretto255 point');
      }
      if (point.is0()) throw new InvalidShareError('the share is the identity point');
      const shared = point.multiply(scalar);
      if (shared.is0()) throw new InvalidShareError('the shared point is the identity point');
      return shared.toBytes();
    },
  };
}

export function newSessionId(): Uint8Array {
  return new Uint8Array(randomBytes(SESSION_ID_BYTES));
}

export function transcriptBytes(transcript: PairingTranscript): Buffer {
  return lengthPrefixed(
    utf8(PAIRING_DST),
    transcript.sessionId,
    transcript.joinerShare,
    transcript.listenerShare,
    utf8(transcript.joinerName),
    utf8(transcript.listenerName),
  );
}

/** The intermediate session key (SHA-512 over the shared point and the transcript), expanded into three keys. */
export function derivePairingKeys(shared: Uint8Array, transcript: PairingTranscript): PairingKeys {
  const sessionKey = createHash('sha512').update(lengthPrefixed(utf8(PAIRING_DST), shared)).update(transcriptBytes(transcript)).digest();
  const expand = (purpose: string): Uint8Array =>
    new Uint8Array(hkdfSync('sha256', sessionKey, transcript.sessionId, `${PAIRING_DST} ${purpose}`, KEY_BYTES));
  return { joinerConfirm: expand('joiner confirm'), listenerConfirm: expand('listener confirm'), seal: expand('seal') };
}

/** HMAC-SHA256(key, role ‖ transcript): the proof that its sender derived the same keys. */
export function confirmation(key: Uint8Array, role: 'joiner' | 'listener', transcript: PairingTranscript): Uint8Array {
  return new Uint8Array(createHmac('sha256', key).update(role).update(transcriptBytes(transcript)).digest());
}

export function confirmationMatches(expected: Uint8Array, given: Uint8Array): boolean {
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function sealSecret(key: Uint8Array, secret: Uint8Array, transcript: PairingTranscript): SealedSecret {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(transcriptBytes(transcript));
  const sealed = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
  return { nonce: new Uint8Array(nonce), sealed: new Uint8Array(sealed) };
}

/** The secret, or null when the seal does not open (altered, or sealed under another key or transcript). */
export function openSealedSecret(key: Uint8Array, { nonce, sealed }: SealedSecret, transcript: PairingTranscript): Uint8Array | null {
  if (nonce.length !== NONCE_BYTES || sealed.length < SEAL_TAG_BYTES) return null;
  const tagAt = sealed.length - SEAL_TAG_BYTES;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: SEAL_TAG_BYTES });
    decipher.setAAD(transcriptBytes(transcript));
    decipher.setAuthTag(sealed.subarray(tagAt));
    return new Uint8Array(Buffer.concat([decipher.update(sealed.subarray(0, tagAt)), decipher.final()]));
  } catch {
    return null;
  }
}
