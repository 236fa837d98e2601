// The short code a manager reads off a till of the store and types on the new till: 8 decimal digits,
// shown as "1234 5678". It only ever goes through the PAKE (cpace.ts), never keys anything by itself.
import { randomInt } from 'node:crypto';

export const PAIRING_CODE_DIGITS = 8;

const CODE = /^\d{8}$/;
/** Digits, each group split by one space or dash; nothing before the first digit or after the last. */
const TYPED_CODE = /^\d+(?:[ -]\d+)*$/;

export class PairingCodeError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'PairingCodeError';
  }
}

export function newPairingCode(): string {
  return String(randomInt(0, 10 ** PAIRING_CODE_DIGITS)).padStart(PAIRING_CODE_DIGITS, '0');
}

/** "12345678" as it is shown on the screen: "1234 5678". */
export function formatPairingCode(code: string): string {
  const digits = parsePairingCode(code);
  return `${digits.slice(0, 4)} ${digits.slice(4)}`;
}

/**
 * The 8 digits of a typed code ("1234 5678", "1234-5678", "12345678"), or a PairingCodeError in plain words.
 * Anything else is refused, never repaired: a letter dropped would turn a typo into a wrong attempt.
 */
export function parsePairingCode(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') throw new PairingCodeError('Type the code shown on the other till: 8 digits, like 1234 5678');
  if (!TYPED_CODE.test(trimmed)) {
    throw new PairingCodeError('The code has only digits, with a space or a dash between groups if you like: 1234 5678');
  }
  const digits = trimmed.replace(/[ -]/g, '');
  if (!CODE.test(digits)) {
    throw new PairingCodeError(`The code has ${PAIRING_CODE_DIGITS} digits, like 1234 5678; this one has ${digits.length}`);
  }
  return digits;
}
