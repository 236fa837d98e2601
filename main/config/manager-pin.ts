// Manager PINs are kept only as scrypt hashes (config file or settings), compared in constant time.
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { MANAGER_PIN_HASH } from './schema';

const KEY_LENGTH = 32;

export function hashManagerPin(pin: string): string {
  if (!/^\d{4,8}$/.test(pin)) throw new RangeError('a manager PIN is 4 to 8 digits');
  const salt = randomBytes(16);
  return `scrypt:${salt.toString('base64')}:${scryptSync(pin, salt, KEY_LENGTH).toString('base64')}`;
}

export function verifyManagerPin(pin: string, hash: string): boolean {
  if (!MANAGER_PIN_HASH.test(hash)) return false;
  const [, saltText, expectedText] = hash.split(':') as [string, string, string];
  const expected = Buffer.from(expectedText, 'base64');
  const actual = scryptSync(pin, Buffer.from(saltText, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}
