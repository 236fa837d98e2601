// Time-ordered, collision-resistant identifiers with a type prefix ("ord_", "op_"...).
// Lexicographic order follows creation order, which keeps outbox scans and logs readable.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lowercase
const RANDOM_CHARS = 16;

/**
 * Random bytes drawn from the CSPRNG a few KB at a time: one call per id cost more than the rest
 * of an order's creation in the sandbox (several ids each). Each byte is used once, so ids stay
 * as unpredictable as with one call each.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomChars(count: number): string {
  if (poolOffset + count > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let out = '';
  for (let i = poolOffset; i < poolOffset + count; i++) out += ALPHABET[(pool[i] as number) & 31];
  poolOffset += count;
  return out;
}

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

export function newId(prefix: string, nowMs: number = Date.now()): string {
  return `${prefix}${encodeTime(nowMs)}${randomChars(RANDOM_CHARS)}`;
}
