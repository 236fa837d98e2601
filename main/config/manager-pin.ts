// PINs are kept only as scrypt hashes, `scrypt:<salt base64>:<hash base64>` (the config's staff
// members, the till's staff table), compared in constant time. The core checks them on libuv's
// thread pool (async); `npm run hash-pin` and test set-ups make them in one call (sync).
import { randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { MANAGER_PIN_HASH } from './schema';

const KEY_LENGTH = 32;

function derive(pin: string, salt: Buffer, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(pin, salt, length, (error, key) => (error ? reject(error) : resolve(key))));
}

const format = (salt: Buffer, key: Buffer) => `scrypt:${salt.toString('base64')}:${key.toString('base64')}`;

export function hashManagerPin(pin: string): string {
  if (!/^\d{4,8}$/.test(pin)) throw new RangeError('a PIN is 4 to 8 digits');
  const salt = randomBytes(16);
  return format(salt, scryptSync(pin, salt, KEY_LENGTH));
}

export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  return format(salt, await derive(pin, salt, KEY_LENGTH));
}

export async function pinMatches(pin: string, hash: string): Promise<boolean> {
  if (!MANAGER_PIN_HASH.test(hash)) return false;
  const [, saltText, expectedText] = hash.split(':') as [string, string, string];
  const expected = Buffer.from(expectedText, 'base64');
  return timingSafeEqual(await derive(pin, Buffer.from(saltText, 'base64'), expected.length), expected);
}
