// PINs are kept only as scrypt hashes, `scrypt:<salt base64>:<hash base64>` (the config's staff
// members, the till's staff table), compared in constant time. The core checks and makes them on
// its one scrypt thread (main/config/scrypt-thread.ts: not libuv's pool, for memory), one at a
// time; `npm run hash-pin` and test set-ups make them in one call (sync).
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { MANAGER_PIN_HASH } from './schema';
import { pinScrypt, type ScryptThread } from './scrypt-thread';

const KEY_LENGTH = 32;

const format = (salt: Buffer, key: Buffer) => `scrypt:${salt.toString('base64')}:${key.toString('base64')}`;

export function hashManagerPin(pin: string): string {
  if (!/^\d{4,8}$/.test(pin)) throw new RangeError('a PIN is 4 to 8 digits');
  const salt = randomBytes(16);
  return format(salt, scryptSync(pin, salt, KEY_LENGTH));
}

export async function hashPin(pin: string, thread: ScryptThread = pinScrypt): Promise<string> {
  const salt = randomBytes(16);
  return format(salt, await thread.derive(pin, salt, KEY_LENGTH));
}

/** Whether `pin` is the one `hash` was made from; false for a malformed hash; rejects if hashing failed. */
export async function pinMatches(pin: string, hash: string, thread: ScryptThread = pinScrypt): Promise<boolean> {
  if (!MANAGER_PIN_HASH.test(hash)) return false;
  const [, saltText, expectedText] = hash.split(':') as [string, string, string];
  const expected = Buffer.from(expectedText, 'base64');
  const key = await thread.derive(pin, Buffer.from(saltText, 'base64'), expected.length);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
