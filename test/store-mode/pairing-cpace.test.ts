import { describe, expect, it, vi } from 'vitest';
import {
  confirmation,
  confirmationMatches,
  derivePairingKeys,
  InvalidShareError,
  loadCpace,
  newSessionId,
  openSealedSecret,
  sealSecret,
  type PairingTranscript,
} from '../../store-mode/pairing/cpace';

const { pairingGenerator, pairingShare, randomScalar, sharedPoint } = await loadCpace();

/** Both sides of one exchange, each with its own code, as the joiner and the listener run it. */
function exchange(joinerCode: string, listenerCode: string) {
  const sessionId = newSessionId();
  const ya = randomScalar();
  const yb = randomScalar();
  const joinerShare = pairingShare(ya, pairingGenerator(joinerCode, sessionId));
  const listenerShare = pairingShare(yb, pairingGenerator(listenerCode, sessionId));
  const transcript: PairingTranscript = { sessionId, joinerShare, listenerShare, joinerName: 'Patio', listenerName: 'Bar' };
  return {
    transcript,
    joiner: derivePairingKeys(sharedPoint(ya, listenerShare), transcript),
    listener: derivePairingKeys(sharedPoint(yb, joinerShare), transcript),
  };
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('store pairing CPace', () => {
  it('derives the same three keys on both sides from the same code, and their confirmations match', () => {
    const { transcript, joiner, listener } = exchange('12345678', '12345678');
    expect(hex(joiner.joinerConfirm)).toBe(hex(listener.joinerConfirm));
    expect(hex(joiner.listenerConfirm)).toBe(hex(listener.listenerConfirm));
    expect(hex(joiner.seal)).toBe(hex(listener.seal));
    expect(new Set([hex(joiner.joinerConfirm), hex(joiner.listenerConfirm), hex(joiner.seal)]).size).toBe(3);
    expect(confirmationMatches(confirmation(listener.joinerConfirm, 'joiner', transcript), confirmation(joiner.joinerConfirm, 'joiner', transcript))).toBe(true);
    // A confirmation of one role never passes for the other's.
    expect(confirmationMatches(confirmation(listener.listenerConfirm, 'listener', transcript), confirmation(joiner.joinerConfirm, 'joiner', transcript))).toBe(false);
  });

  it('derives different keys from different codes, so the confirmation fails', () => {
    const { transcript, joiner, listener } = exchange('12345678', '12345679');
    expect(hex(joiner.seal)).not.toBe(hex(listener.seal));
    expect(hex(joiner.joinerConfirm)).not.toBe(hex(listener.joinerConfirm));
    expect(confirmationMatches(confirmation(listener.joinerConfirm, 'joiner', transcript), confirmation(joiner.joinerConfirm, 'joiner', transcript))).toBe(false);
  });

  it('binds the keys to the till names', () => {
    const { transcript, joiner } = exchange('12345678', '12345678');
    const renamed = { ...transcript, joinerName: 'Patio 2' };
    const shared = sharedPoint(1n, transcript.listenerShare);
    expect(hex(derivePairingKeys(shared, transcript).seal)).not.toBe(hex(derivePairingKeys(shared, renamed).seal));
    expect(hex(confirmation(joiner.joinerConfirm, 'joiner', transcript))).not.toBe(hex(confirmation(joiner.joinerConfirm, 'joiner', renamed)));
  });

  it('refuses the identity point, an encoding that is no point, and a share of the wrong length', () => {
    const scalar = randomScalar();
    expect(() => sharedPoint(scalar, new Uint8Array(32))).toThrow(InvalidShareError);
    expect(() => sharedPoint(scalar, new Uint8Array(32).fill(0xff))).toThrow(InvalidShareError);
    expect(() => sharedPoint(scalar, new Uint8Array(31).fill(1))).toThrow(InvalidShareError);
    const valid = pairingShare(randomScalar(), pairingGenerator('12345678', newSessionId()));
    expect(() => sharedPoint(scalar, valid.subarray(0, 31))).toThrow(InvalidShareError);
  });

  it('takes a generator of its own for each session id and each code, the same one for the same inputs', () => {
    const sid = newSessionId();
    const generator = (code: string, sessionId: Uint8Array) => hex(pairingGenerator(code, sessionId).toBytes());
    expect(generator('12345678', sid)).toBe(generator('12345678', Uint8Array.from(sid)));
    expect(generator('12345678', sid)).not.toBe(generator('12345678', newSessionId()));
    expect(generator('12345678', sid)).not.toBe(generator('12345679', sid));
  });

  it('seals the secret so only the same key and transcript open it, and an altered seal does not open', () => {
    const { transcript, joiner, listener } = exchange('12345678', '12345678');
    const secret = new Uint8Array(32).map((_, i) => i * 7);
    const sealed = sealSecret(listener.seal, secret, transcript);
    expect(hex(openSealedSecret(joiner.seal, sealed, transcript) ?? new Uint8Array())).toBe(hex(secret));
    expect(openSealedSecret(joiner.seal, sealed, { ...transcript, listenerName: 'Not bar' })).toBeNull();
    expect(openSealedSecret(joiner.joinerConfirm, sealed, transcript)).toBeNull();
    const altered = Uint8Array.from(sealed.sealed);
    altered[3] = (altered[3] ?? 0) ^ 1;
    expect(openSealedSecret(joiner.seal, { nonce: sealed.nonce, sealed: altered }, transcript)).toBeNull();
  });

  it('loads the curve library again after a failed load: a pairing after one that could not load it can', async () => {
    vi.resetModules();
    const fresh = await import('../../store-mode/pairing/cpace');
    await expect(fresh.loadCpace(() => Promise.reject(new Error('the library is not there')))).rejects.toThrow('the library is not there');
    const cpace = await fresh.loadCpace();
    expect(typeof cpace.randomScalar()).toBe('bigint');
  });
});
