// PINs are kept only as scrypt hashes (the format of `npm run hash-pin`). Checking a PIN against
// every staff hash runs on libuv's thread pool, all at once and always all of them: the answer
// takes as long whether the PIN is someone's or no one's, so its timing names no one.
import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { MANAGER_PIN_HASH } from '../../config/schema';

const KEY_LENGTH = 32;

function derive(pin: string, salt: Buffer, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(pin, salt, length, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt:${salt.toString('base64')}:${(await derive(pin, salt, KEY_LENGTH)).toString('base64')}`;
}

export async function pinMatches(pin: string, hash: string): Promise<boolean> {
  if (!MANAGER_PIN_HASH.test(hash)) return false;
  const [, saltText, expectedText] = hash.split(':') as [string, string, string];
  const expected = Buffer.from(expectedText, 'base64');
  return timingSafeEqual(await derive(pin, Buffer.from(saltText, 'base64'), expected.length), expected);
}

/**
 * Who a PIN belongs to among `candidates`. A person who signed in once since launch is found again
 * at once through a keyed digest held in memory only (a fresh key each launch; forgotten whenever
 * the staff list changes), so switching back and forth costs no hashing. Nothing of it is stored.
 */
export class PinDirectory {
  #key = randomBytes(32);
  #known = new Map<string, string>();

  #digest(pin: string): string {
    return createHmac('sha256', this.#key).update(pin).digest('base64');
  }

  /** The staff list changed (a PIN, a role, someone deactivated): forget what was learned. */
  forget(): void {
    this.#key = randomBytes(32);
    this.#known.clear();
  }

  async find<T extends { id: string; pin_hash: string }>(pin: string, candidates: readonly T[]): Promise<T | null> {
    const knownId = this.#known.get(this.#digest(pin));
    const known = knownId === undefined ? undefined : candidates.find((c) => c.id === knownId);
    if (known) return known;
    const results = await Promise.all(candidates.map((c) => pinMatches(pin, c.pin_hash)));
    const found = candidates.find((_, i) => results[i]) ?? null;
    if (found) this.#known.set(this.#digest(pin), found.id);
    return found;
  }
}
