// Time-ordered, collision-resistant identifiers with a type prefix ("ord_", "op_"...).
// Lexicographic order follows creation order, which keeps outbox scans and logs readable.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lowercase

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeRandom(bytes: number): string {
  const buf = randomBytes(bytes);
  let out = '';
  for (const b of buf) out += ALPHABET[b & 31];
  return out;
}

export function newId(prefix: string, nowMs: number = Date.now()): string {
  return `${prefix}${encodeTime(nowMs)}${encodeRandom(16)}`;
}
