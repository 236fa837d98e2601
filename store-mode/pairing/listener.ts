// A till of the store offering pairing: a plain-HTTP listener (the PAKE protects the messages) that
// hands the store secret, sealed, to the one till whose manager typed the code. It takes one pairing,
// closes after maxWrongAttempts wrong codes or at expiry, and keeps at most a few sessions for a few
// seconds: nothing unauthenticated stays open on the LAN. It logs events only, never the code, a key,
// a share, a confirmation or the secret.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../../common/clock';
import type { Logger } from '../../common/log';
import { STORE_SECRET_MIN_BYTES } from '../secret';
import { parsePairingCode } from './code';
import {
  confirmation,
  confirmationMatches,
  derivePairingKeys,
  InvalidShareError,
  loadCpace,
  sealSecret,
  type PairingKeys,
  type PairingTranscript,
} from './cpace';
import {
  CONFIRM_PATH,
  confirmRequest,
  HELLO_PATH,
  helloRequest,
  MAX_PAIRING_BODY_BYTES,
  MAX_SEALED_SECRET_BYTES,
  PAIRING_PROTOCOL_VERSION,
  checkedTillName,
  toBase64url,
  type ConfirmAnswer,
  type HelloAnswer,
  type PairingRefusal,
} from './messages';

export const DEFAULT_PAIRING_EXPIRY_MS = 5 * 60_000;
export const DEFAULT_MAX_WRONG_ATTEMPTS = 3;
/** Sessions waiting for their confirmation; a newer one pushes out the oldest. */
export const MAX_PENDING_SESSIONS = 4;
/** A session's confirmation follows its hello within milliseconds; one not confirmed by then is forgotten. */
export const PENDING_SESSION_MS = 30_000;
const REQUEST_TIMEOUT_MS = 10_000;

export interface PairingListenerOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  code: string;
  tillName: string;
  storeSecret: Uint8Array;
  expiresInMs?: number;
  maxWrongAttempts?: number;
  logger: Logger;
  /** What ages pending sessions and judges expiry on a request; the system clock unless a test holds one. */
  clock?: Clock;
}

export type PairingOutcome = { kind: 'paired'; tillName: string } | { kind: 'expired' } | { kind: 'tooManyWrongCodes' } | { kind: 'closed' };

export interface PairingCounts {
  wrongCode: number;
  malformed: number;
  expiredSession: number;
}

export interface PairingListener {
  address: { host: string; port: number };
  /** Epoch milliseconds at which the code stops working. */
  expiresAt: number;
  counts(): PairingCounts;
  /** Takes the code back (outcome 'closed' unless the pairing already ended). */
  close(): Promise<void>;
  /** Settles once the listener has ended and its port no longer accepts connections. */
  outcome: Promise<PairingOutcome>;
}

interface PendingSession {
  transcript: PairingTranscript;
  keys: PairingKeys;
  createdAt: number;
}

const STATUS: Record<PairingRefusal, number> = { malformed: 400, notFound: 404, wrongCode: 403, unknownSession: 409, closed: 410 };

class MalformedRequest extends Error {}

function answer(res: ServerResponse, status: number, body: unknown, closeConnection = false): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...(closeConnection ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** The body as JSON, or MalformedRequest when it is too big or not JSON; a too-big body is not read to its end. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (!Number.isFinite(declared) || declared > MAX_PAIRING_BODY_BYTES) throw new MalformedRequest('body too large');
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_PAIRING_BODY_BYTES) throw new MalformedRequest('body too large');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new MalformedRequest('body is not JSON');
  }
}

export async function openPairingListener(options: PairingListenerOptions): Promise<PairingListener> {
  const { logger, storeSecret } = options;
  const clock = options.clock ?? systemClock;
  const code = parsePairingCode(options.code);
  const tillName = checkedTillName(options.tillName);
  if (storeSecret.length < STORE_SECRET_MIN_BYTES || storeSecret.length > MAX_SEALED_SECRET_BYTES) {
    throw new RangeError(`a store secret to hand over has ${STORE_SECRET_MIN_BYTES} to ${MAX_SEALED_SECRET_BYTES} bytes`);
  }
  const cpace = await loadCpace();
  const maxWrongAttempts = options.maxWrongAttempts ?? DEFAULT_MAX_WRONG_ATTEMPTS;
  const expiresInMs = options.expiresInMs ?? DEFAULT_PAIRING_EXPIRY_MS;
  const expiresAt = clock.now() + expiresInMs;
  const counts: PairingCounts = { wrongCode: 0, malformed: 0, expiredSession: 0 };
  /** By the session id's base64url, oldest first. */
  const sessions = new Map<string, PendingSession>();
  let ended: PairingOutcome | null = null;
  let resolveOutcome: (outcome: PairingOutcome) => void = () => undefined;
  const outcome = new Promise<PairingOutcome>((resolve) => {
    resolveOutcome = resolve;
  });

  const forgetStaleSessions = (): void => {
    const now = clock.now();
    for (const [id, session] of sessions) {
      if (now - session.createdAt >= PENDING_SESSION_MS) sessions.delete(id);
    }
  };

  const refuseMalformed = (res: ServerResponse, refusal: 'malformed' | 'notFound', reason: string, remote: string | undefined): void => {
    counts.malformed++;
    logger.warn({ event: 'store-pairing.malformed', reason, remote, malformed: counts.malformed }, 'store pairing refused a malformed request');
    answer(res, STATUS[refusal], { error: refusal }, true);
  };

  const hello = (body: unknown, res: ServerResponse, remote: string | undefined): void => {
    const request = helloRequest.safeParse(body);
    if (!request.success) return refuseMalformed(res, 'malformed', 'hello does not match its shape', remote);
    const { sessionId, share: joinerShare, tillName: joinerName } = request.data;
    const id = toBase64url(sessionId);
    forgetStaleSessions();
    if (sessions.has(id)) return refuseMalformed(res, 'malformed', 'hello reuses a pending session id', remote);
    const scalar = cpace.randomScalar();
    const listenerShare = cpace.pairingShare(scalar, cpace.pairingGenerator(code, sessionId));
    let shared: Uint8Array;
    try {
      shared = cpace.sharedPoint(scalar, joinerShare);
    } catch (error) {
      if (!(error instanceof InvalidShareError)) throw error;
      return refuseMalformed(res, 'malformed', 'hello carries an invalid share', remote);
    }
    const transcript: PairingTranscript = { sessionId, joinerShare, listenerShare, joinerName, listenerName: tillName };
    sessions.set(id, { transcript, keys: derivePairingKeys(shared, transcript), createdAt: clock.now() });
    while (sessions.size > MAX_PENDING_SESSIONS) {
      const oldest = sessions.keys().next().value;
      if (oldest === undefined) break;
      sessions.delete(oldest);
    }
    const reply: HelloAnswer = { v: PAIRING_PROTOCOL_VERSION, tillName, share: toBase64url(listenerShare) };
    answer(res, 200, reply);
  };

  const confirm = (body: unknown, res: ServerResponse, remote: string | undefined): void => {
    const request = confirmRequest.safeParse(body);
    if (!request.success) return refuseMalformed(res, 'malformed', 'confirm does not match its shape', remote);
    const id = toBase64url(request.data.sessionId);
    forgetStaleSessions();
    const session = sessions.get(id);
    if (session === undefined) {
      counts.expiredSession++;
      logger.warn({ event: 'store-pairing.unknown-session', remote, expiredSession: counts.expiredSession }, 'store pairing got a confirmation for a session it does not hold');
      return answer(res, STATUS.unknownSession, { error: 'unknownSession' });
    }
    sessions.delete(id);
    const { transcript, keys } = session;
    if (!confirmationMatches(confirmation(keys.joinerConfirm, 'joiner', transcript), request.data.confirm)) {
      counts.wrongCode++;
      const last = counts.wrongCode >= maxWrongAttempts;
      logger.warn(
        { event: 'store-pairing.wrong-code', tillName: transcript.joinerName, remote, wrongCode: counts.wrongCode, maxWrongAttempts },
        'store pairing refused a wrong code',
      );
      if (last) end({ kind: 'tooManyWrongCodes' }, res);
      return answer(res, STATUS.wrongCode, { error: 'wrongCode' }, last);
    }
    end({ kind: 'paired', tillName: transcript.joinerName }, res);
    const { nonce, sealed } = sealSecret(keys.seal, storeSecret, transcript);
    const reply: ConfirmAnswer = {
      v: PAIRING_PROTOCOL_VERSION,
      confirm: toBase64url(confirmation(keys.listenerConfirm, 'listener', transcript)),
      nonce: toBase64url(nonce),
      sealed: toBase64url(sealed),
    };
    answer(res, 200, reply, true);
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const remote = req.socket.remoteAddress;
    if (ended === null && clock.now() >= expiresAt) end({ kind: 'expired' }, res);
    if (ended !== null) return answer(res, STATUS.closed, { error: 'closed' }, true);
    const path = req.url === undefined ? '' : new URL(req.url, 'http://pairing.invalid').pathname;
    const route = req.method !== 'POST' ? undefined : path === HELLO_PATH ? hello : path === CONFIRM_PATH ? confirm : undefined;
    if (route === undefined) return refuseMalformed(res, 'notFound', 'no such path or method', remote);
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
      if (!(error instanceof MalformedRequest)) throw error;
      return refuseMalformed(res, 'malformed', error.message, remote);
    }
    // The wait for the body may have outlived the code.
    if (ended === null && clock.now() >= expiresAt) end({ kind: 'expired' }, res);
    if (ended !== null) return answer(res, STATUS.closed, { error: 'closed' }, true);
    route(body, res, remote);
  };

  const server = http.createServer({ requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS, maxHeaderSize: 8 * 1024 }, (req, res) => {
    serve(req, res).catch((error: unknown) => {
      logger.error({ event: 'store-pairing.failed', err: error }, 'store pairing failed to answer');
      if (!res.headersSent) answer(res, 500, { error: 'failed' }, true);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 1_000;

  let serverClosed: Promise<void> | null = null;
  /**
   * Stops accepting at once; the answer that ended the pairing (`finalAnswer`) still goes out whole, then
   * every connection ends.
   */
  const closeServer = (finalAnswer?: ServerResponse): Promise<void> => {
    serverClosed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      if (finalAnswer === undefined) server.closeAllConnections();
      else finalAnswer.once('close', () => server.closeAllConnections());
    });
    return serverClosed;
  };

  const expiryTimer = setTimeout(() => end({ kind: 'expired' }), expiresInMs);
  expiryTimer.unref();

  function end(result: PairingOutcome, finalAnswer?: ServerResponse): void {
    if (ended !== null) return;
    ended = result;
    clearTimeout(expiryTimer);
    sessions.clear();
    if (result.kind === 'paired') {
      logger.info({ event: 'store-pairing.paired', tillName: result.tillName }, 'store pairing: a till joined the store');
    } else {
      logger.info({ event: 'store-pairing.ended', outcome: result.kind, ...counts }, 'store pairing ended');
    }
    void closeServer(finalAnswer).then(() => resolveOutcome(result));
  }

  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error): void => {
      clearTimeout(expiryTimer);
      reject(error);
    };
    server.once('error', failed);
    server.listen(options.port, options.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const address = { host: options.host, port: bound.port };
  logger.info({ event: 'store-pairing.listening', host: address.host, port: address.port, expiresAt, maxWrongAttempts }, 'store pairing listening');

  return {
    address,
    expiresAt,
    counts: () => ({ ...counts }),
    close: async () => {
      end({ kind: 'closed' });
      await outcome;
    },
    outcome,
  };
}
