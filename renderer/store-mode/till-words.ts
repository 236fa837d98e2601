// How the store-mode views name a till and say what it refused, in a cashier's or IT's words.

/** The till's name as its certificate gave it, else the start of its id. */
export function tillName(name: string | null, tillId: string): string {
  return name ?? `Till ${tillId.slice(0, 8)}`;
}

/** Why a connection was refused (store-mode/refusals.ts reasons), as the sync panel says it. */
const REFUSAL_WORDS: Record<string, string> = {
  noClientCertificate: 'no store certificate',
  untrustedCertificate: 'wrong store secret',
  handshakeFailed: 'the other side hung up while connecting (a till of another store secret, or not a till)',
  malformedCertificate: 'a damaged certificate',
  tillIdNotKeyHash: 'a till claiming another till’s id',
  namePinnedToAnotherTill: 'a till name already used by another till',
  malformedRequest: 'a request this till does not understand',
  rejectedPage: 'a damaged or replayed page of orders',
};

/** "2 connections refused: wrong store secret", one sentence per reason counted; none when all are 0. */
export function refusalSentences(refusals: Record<string, number>): string[] {
  return Object.entries(refusals)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${count} ${count === 1 ? 'connection' : 'connections'} refused: ${REFUSAL_WORDS[reason] ?? reason}`);
}
