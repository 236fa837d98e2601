// The Service-Signature scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.rawBody">`.
// The receiver verifies the raw bytes (never re-serialised JSON), accepts any of several v1
// entries and several secrets (rotation), compares in constant time, and rejects timestamps
// more than the tolerance away from now in either direction.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';
export const DEFAULT_TOLERANCE_SEC = 300;

function hmacHex(secret: string, timestampSec: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestampSec}.`).update(rawBody).digest('hex');
}

export function signatureHeader(secret: string, rawBody: Buffer | string, timestampSec: number): string {
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0) throw new RangeError(`bad signature timestamp ${timestampSec}`);
  return `t=${timestampSec},v1=${hmacHex(secret, timestampSec, rawBody)}`;
}

export type SignatureFailure = 'missing' | 'malformed' | 'no_v1' | 'mismatch' | 'stale' | 'future';
export type SignatureResult = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailure };

export interface VerifySignatureInput {
  header: string | string[] | undefined | null;
  rawBody: Buffer | string;
  secrets: readonly string[];
  nowSec: number;
  toleranceSec?: number;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

export function verifySignature({ header, rawBody, secrets, nowSec, toleranceSec = DEFAULT_TOLERANCE_SEC }: VerifySignatureInput): SignatureResult {
  if (header == null || header === '' || (Array.isArray(header) && header.length === 0)) return { ok: false, reason: 'missing' };
  // A header sent twice is ambiguous: refuse rather than pick one.
  if (Array.isArray(header)) {
    if (header.length !== 1) return { ok: false, reason: 'malformed' };
    header = header[0] as string;
  }
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, reason: 'malformed' };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^[0-9]{1,12}$/.test(value)) return { ok: false, reason: 'malformed' };
      timestamp = Number(value);
    } else if (key === 'v1') {
      // Anything but lowercase hex of the right length can never match: skip it, other v1 entries may.
      if (HEX_SHA256.test(value)) candidates.push(value);
    }
    // Other schemes (v0, future versions) are ignored, as Stripe's verifiers do.
  }
  if (timestamp === undefined) return { ok: false, reason: 'malformed' };
  if (candidates.length === 0) return { ok: false, reason: 'no_v1' };

  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), 'utf8');
    for (const candidate of candidates) {
      // Both are 64 ASCII bytes, so timingSafeEqual's equal-length precondition holds.
      if (timingSafeEqual(expected, Buffer.from(candidate, 'utf8'))) matched = true;
    }
  }
  if (!matched) return { ok: false, reason: 'mismatch' };
  if (nowSec - timestamp > toleranceSec) return { ok: false, reason: 'stale' };
  if (timestamp - nowSec > toleranceSec) return { ok: false, reason: 'future' };
  return { ok: true, timestamp };
}
