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

/** A peer's last failure as the puller saw it (Node's and undici's words), said as what a person can check. */
const PROBLEM_WORDS: readonly [RegExp, (match: RegExpExecArray) => string][] = [
  [/ECONNREFUSED (\S+)/, (match) => `Nothing answers at ${match[1]}: the till is off, or its app is closed.`],
  [/EHOSTUNREACH|ENETUNREACH|EHOSTDOWN/, () => 'It cannot be reached on the network: check its cable or Wi-Fi.'],
  [/ENOTFOUND|EAI_AGAIN/, () => 'Its address is not found on the network: check the peer list.'],
  [/ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|timed? ?out/i, () => 'It does not answer in time: it may be off, or off the network.'],
  [/certificate|CERT_|SSL|alert/i, () => 'The connection was refused while connecting: the two tills may not have the same store secret.'],
  [/ECONNRESET|socket hang up|other side closed/i, () => 'The connection was cut: it may be restarting.'],
];

/** "Nothing answers at 10.0.0.5:7420: the till is off, or its app is closed."; words already plain are kept. */
export function problemWords(problem: string): string {
  for (const [pattern, words] of PROBLEM_WORDS) {
    const match = pattern.exec(problem);
    if (match) return words(match);
  }
  return problem;
}
