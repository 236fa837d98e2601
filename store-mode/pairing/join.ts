// The new till's side of pairing: run the PAKE against the listener a manager named (its address and the
// code shown on it), check the listener's confirmation, then open the sealed store secret. Every failure
// is a PairingError whose message a manager can act on; none of them repeats the code.
import http from 'node:http';
import { joinAddress } from '../address';
import { parsePairingCode } from './code';
import {
  confirmation,
  confirmationMatches,
  derivePairingKeys,
  InvalidShareError,
  loadCpace,
  newSessionId,
  openSealedSecret,
  type PairingTranscript,
} from './cpace';
import {
  CONFIRM_PATH,
  confirmAnswer,
  errorAnswer,
  HELLO_PATH,
  helloAnswer,
  MAX_PAIRING_BODY_BYTES,
  PAIRING_PROTOCOL_VERSION,
  checkedTillName,
  toBase64url,
  type ConfirmRequest,
  type HelloRequest,
} from './messages';

export const DEFAULT_PAIRING_TIMEOUT_MS = 10_000;

export type PairingFailure = 'wrongCode' | 'unreachable' | 'closed' | 'tampered' | 'malformed';

export class PairingError extends Error {
  constructor(
    readonly reason: PairingFailure,
    message: string,
  ) {
    super(message);
    this.name = 'PairingError';
  }
}

export interface PairWithStoreOptions {
  host: string;
  port: number;
  /** As typed: "1234 5678", "1234-5678" or "12345678". */
  code: string;
  /** This till's name, shown on the listener's till and bound into the keys. */
  tillName: string;
  /** For the whole exchange; 10 s by default. */
  timeoutMs?: number;
}

export interface StoreJoined {
  storeSecret: Uint8Array;
  listenerTillName: string;
}

interface Answer {
  status: number;
  body: unknown;
}

const NOT_JSON = Symbol('not JSON');

/** One POST of a JSON body on a connection of its own; any network failure or the deadline is 'unreachable'. */
function post(host: string, port: number, path: string, body: unknown, signal: AbortSignal, where: string): Promise<Answer> {
  const text = JSON.stringify(body);
  return new Promise<Answer>((resolve, reject) => {
    const unreachable = (): void => reject(new PairingError('unreachable', `No till answers at ${where}: is the code still shown there?`));
    const tooBig = (): void => reject(new PairingError('malformed', `The device at ${where} did not answer like a till offering pairing: check the address shown with the code.`));
    const request = http.request(
      {
        host,
        port,
        path,
        method: 'POST',
        agent: false,
        signal,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), connection: 'close' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > MAX_PAIRING_BODY_BYTES) {
            response.destroy();
            tooBig();
          } else chunks.push(chunk);
        });
        response.on('error', unreachable);
        response.on('end', () => {
          let parsed: unknown = NOT_JSON;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
          } catch {
            // Left as NOT_JSON: the caller decides what an answer that is not JSON means.
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    request.on('error', unreachable);
    request.end(text);
  });
}

/** Runs the pairing against the listener at host:port; the store secret and the listener's till name, or a PairingError. */
export async function pairWithStore(options: PairWithStoreOptions): Promise<StoreJoined> {
  const code = parsePairingCode(options.code);
  const joinerName = checkedTillName(options.tillName);
  const where = joinAddress(options);
  const signal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_PAIRING_TIMEOUT_MS);
  const malformed = (): PairingError =>
    new PairingError('malformed', `The device at ${where} did not answer like a till offering pairing: check the address shown with the code.`);
  const tampered = (): PairingError =>
    new PairingError('tampered', `The answer from ${where} was altered on its way, so this till did not join: ask for a new code and try again; if it happens again, call IT.`);
  /** What a refusal of the listener means for the person at this till; null for a refusal that is not the listener's. */
  const refused = (answer: Answer, listenerName: string): PairingError | null => {
    const error = errorAnswer.safeParse(answer.body);
    if (!error.success) return null;
    switch (error.data.error) {
      case 'wrongCode':
        return answer.status === 403 ? new PairingError('wrongCode', `The code was not accepted: check it on ${listenerName}'s screen and type it again.`) : null;
      case 'closed':
        return answer.status === 410
          ? new PairingError('closed', `${listenerName} no longer offers pairing (its code was used, ran out, or was typed wrong too often): ask for a new code there.`)
          : null;
      case 'unknownSession':
        return answer.status === 409
          ? new PairingError('closed', `${listenerName} dropped this attempt before it finished (another till may be trying at the same time): type the code again, or ask for a new one.`)
          : null;
      default:
        return null;
    }
  };

  const cpace = await loadCpace();
  const sessionId = newSessionId();
  const scalar = cpace.randomScalar();
  const joinerShare = cpace.pairingShare(scalar, cpace.pairingGenerator(code, sessionId));
  const hello: HelloRequest = { v: PAIRING_PROTOCOL_VERSION, sessionId: toBase64url(sessionId), tillName: joinerName, share: toBase64url(joinerShare) };
  const helloReply = await post(options.host, options.port, HELLO_PATH, hello, signal, where);
  if (helloReply.status !== 200) throw refused(helloReply, `The till at ${where}`) ?? malformed();
  const listenerHello = helloAnswer.safeParse(helloReply.body);
  if (!listenerHello.success) throw malformed();
  const { tillName: listenerName, share: listenerShare } = listenerHello.data;

  let shared: Uint8Array;
  try {
    shared = cpace.sharedPoint(scalar, listenerShare);
  } catch (error) {
    if (!(error instanceof InvalidShareError)) throw error;
    throw tampered();
  }
  const transcript: PairingTranscript = { sessionId, joinerShare, listenerShare, joinerName, listenerName };
  const keys = derivePairingKeys(shared, transcript);
  const confirm: ConfirmRequest = {
    v: PAIRING_PROTOCOL_VERSION,
    sessionId: toBase64url(sessionId),
    confirm: toBase64url(confirmation(keys.joinerConfirm, 'joiner', transcript)),
  };
  const confirmReply = await post(options.host, options.port, CONFIRM_PATH, confirm, signal, where);
  if (confirmReply.status !== 200) throw refused(confirmReply, listenerName) ?? malformed();
  const listenerConfirm = confirmAnswer.safeParse(confirmReply.body);
  if (!listenerConfirm.success) throw malformed();
  const { confirm: theirConfirm, nonce, sealed } = listenerConfirm.data;
  // The listener proves it holds the same keys before anything it sealed is opened.
  if (!confirmationMatches(confirmation(keys.listenerConfirm, 'listener', transcript), theirConfirm)) throw tampered();
  const storeSecret = openSealedSecret(keys.seal, { nonce, sealed }, transcript);
  if (storeSecret === null) throw tampered();
  return { storeSecret, listenerTillName: listenerName };
}
