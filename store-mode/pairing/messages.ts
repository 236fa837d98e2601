// The pairing protocol's wire shapes: two requests (hello, confirm) and their answers, strict and bounded.
// Byte fields travel as unpadded base64url of an exact decoded length; parsing hands them over as bytes.
import { z } from 'zod';
import { STORE_SECRET_MIN_BYTES } from '../secret';
import { CONFIRM_BYTES, NONCE_BYTES, SEAL_TAG_BYTES, SESSION_ID_BYTES, SHARE_BYTES } from './cpace';

export const PAIRING_PROTOCOL_VERSION = 1;
export const HELLO_PATH = '/pair/hello';
export const CONFIRM_PATH = '/pair/confirm';
/** No request or answer of the protocol comes near this; a bigger body is refused unread. */
export const MAX_PAIRING_BODY_BYTES = 4 * 1024;
/** The longest store secret a listener hands over; secret.ts sets the shortest. */
export const MAX_SEALED_SECRET_BYTES = 256;
export const PAIRING_TILL_NAME_MAX = 64;

const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** No control characters: the name is shown on a screen and written in a log line. */
const PRINTABLE = /^[^\p{Cc}\p{Cf}\u2028\u2029]+$/u;

/** Unpadded base64url of minBytes..maxBytes bytes, in its one canonical spelling, parsed into the bytes. */
function base64urlBytes(minBytes: number, maxBytes = minBytes) {
  return z
    .string()
    .min(Math.ceil((minBytes * 4) / 3))
    .max(Math.ceil((maxBytes * 4) / 3))
    .regex(BASE64URL)
    .transform((text, context) => {
      const bytes = Buffer.from(text, 'base64url');
      if (bytes.length < minBytes || bytes.length > maxBytes || bytes.toString('base64url') !== text) {
        context.addIssue({ code: 'custom', message: minBytes === maxBytes ? `must be ${minBytes} bytes of base64url` : `must be ${minBytes} to ${maxBytes} bytes of base64url` });
        return z.NEVER;
      }
      return new Uint8Array(bytes);
    });
}

export const pairingTillName = z.string().min(1).max(PAIRING_TILL_NAME_MAX).regex(PRINTABLE, 'must have no control characters');
/** A till name a caller hands to pairing, or a RangeError: a programming mistake, not something a person typed. */
export function checkedTillName(name: string): string {
  if (!pairingTillName.safeParse(name).success) throw new RangeError(`a till name for pairing has 1 to ${PAIRING_TILL_NAME_MAX} characters and no control characters`);
  return name;
}

const version = z.literal(PAIRING_PROTOCOL_VERSION);

export const helloRequest = z.strictObject({
  v: version,
  sessionId: base64urlBytes(SESSION_ID_BYTES),
  tillName: pairingTillName,
  share: base64urlBytes(SHARE_BYTES),
});

export const helloAnswer = z.strictObject({
  v: version,
  tillName: pairingTillName,
  share: base64urlBytes(SHARE_BYTES),
});

export const confirmRequest = z.strictObject({
  v: version,
  sessionId: base64urlBytes(SESSION_ID_BYTES),
  confirm: base64urlBytes(CONFIRM_BYTES),
});

export const confirmAnswer = z.strictObject({
  v: version,
  confirm: base64urlBytes(CONFIRM_BYTES),
  nonce: base64urlBytes(NONCE_BYTES),
  sealed: base64urlBytes(STORE_SECRET_MIN_BYTES + SEAL_TAG_BYTES, MAX_SEALED_SECRET_BYTES + SEAL_TAG_BYTES),
});

/**
 * Why the listener refused: malformed (400), notFound (404), wrongCode (403), unknownSession (409: never seen,
 * forgotten after 30 s or pushed out by newer ones), closed (410: pairing on this till is over).
 */
export const pairingRefusal = z.enum(['malformed', 'notFound', 'wrongCode', 'unknownSession', 'closed']);
export const errorAnswer = z.strictObject({ error: pairingRefusal });

export type HelloRequest = z.input<typeof helloRequest>;
export type HelloAnswer = z.input<typeof helloAnswer>;
export type ConfirmRequest = z.input<typeof confirmRequest>;
export type ConfirmAnswer = z.input<typeof confirmAnswer>;
export type PairingRefusal = z.infer<typeof pairingRefusal>;

export const toBase64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
