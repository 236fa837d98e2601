// The till's feed: GET /feed/{origin}?after=N&limit=L&waitMs=W[&logId=ID] over HTTPS, TLS 1.3 only, with a client
// certificate from the store CA required. It answers with up to L entries after N (frames.ts) and the
// log's id, or holds the request up to W ms (at most 25 s) until an entry is appended. Every refusal is
// counted and logged without anything secret, and changes nothing.
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Logger } from '../common/log';
import { encodePage, type FeedEntry } from './frames';
import type { TillIdentity } from './identity';
import type { LogSource } from './log-source';
import { checkPeerCertificate, type PeerCheck } from './peer-certificate';
import { emptyRefusalCounts, handshakeRefusal, type RefusalCounts, type RefusalReason } from './refusals';
import type { TillPins } from './till-pins';

export const MAX_WAIT_MS = 25_000;
export const MAX_PAGE_ENTRIES = 5_000;
export const DEFAULT_PAGE_ENTRIES = 1_000;
/** A page stops growing past this many body bytes, so a till's memory stays flat whatever the peer asks. */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;

const FEED_PATH = /^\/feed\/([0-9a-f]{64})$/;
const WHOLE_NUMBER = /^\d{1,15}$/;
const LOG_ID = /^[A-Za-z0-9_-]{1,64}$/;
const NUMBER_KEYS = new Set(['after', 'limit', 'waitMs']);

export interface FeedServerOptions {
  identity: TillIdentity;
  source: LogSource;
  pins: TillPins;
  host: string;
  port: number;
  logger: Logger;
}

export interface FeedServer {
  port: number;
  /** Call after a commit that appended to `origin`'s log: wakes the long polls waiting on it. */
  appended(origin: string): void;
  refusals(): RefusalCounts;
  close(): Promise<void>;
}

interface FeedQuery {
  origin: string;
  /** The log id the puller's cursor belongs to, when it has one. */
  logId: string | null;
  after: number;
  limit: number;
  waitMs: number;
}

function parseQuery(req: IncomingMessage): FeedQuery | null {
  if (req.method !== 'GET' || req.url === undefined) return null;
  const url = new URL(req.url, 'https://feed.invalid');
  const origin = FEED_PATH.exec(url.pathname)?.[1];
  if (origin === undefined) return null;
  const numbers: Record<string, number> = {};
  let logId: string | null = null;
  for (const [key, value] of url.searchParams) {
    if (key === 'logId' && logId === null && LOG_ID.test(value)) logId = value;
    else if (!NUMBER_KEYS.has(key) || key in numbers || !WHOLE_NUMBER.test(value)) return null;
    else numbers[key] = Number(value);
  }
  const after = numbers['after'];
  if (after === undefined) return null;
  const limit = numbers['limit'] ?? DEFAULT_PAGE_ENTRIES;
  if (limit < 1) return null;
  return { origin, logId, after, limit: Math.min(limit, MAX_PAGE_ENTRIES), waitMs: Math.min(numbers['waitMs'] ?? 0, MAX_WAIT_MS) };
}

export async function startFeedServer(options: FeedServerOptions): Promise<FeedServer> {
  const { source, logger, pins } = options;
  const counts = emptyRefusalCounts();
  const waiters = new Map<string, Set<() => void>>();
  const peers = new WeakMap<TLSSocket, PeerCheck>();
  let closing = false;

  const refuse = (reason: RefusalReason, remote: string | undefined, detail: { claimedTillId?: string | null; tlsError?: string } = {}): void => {
    counts[reason]++;
    logger.warn({ event: 'store-feed.refused', reason, remote, ...detail }, 'store feed refused a request');
  };

  const wake = (origin: string): void => {
    const set = waiters.get(origin);
    if (!set) return;
    waiters.delete(origin);
    for (const resolve of set) resolve();
  };

  /** Resolves when `origin` gets an entry, the wait runs out, the client goes away or the server closes. */
  const waitForAppend = (origin: string, ms: number, res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      const set = waiters.get(origin) ?? new Set();
      waiters.set(origin, set);
      const done = (): void => {
        clearTimeout(timer);
        set.delete(done);
        res.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      res.once('close', done);
      set.add(done);
    });

  const readPage = (query: FeedQuery): FeedEntry[] => {
    const entries: FeedEntry[] = [];
    let bytes = 0;
    for (const entry of source.read(query.origin, query.after, query.limit)) {
      if (entries.length > 0 && bytes + entry.body.length > MAX_PAGE_BYTES) break;
      entries.push(entry);
      bytes += entry.body.length;
    }
    return entries;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const socket = req.socket as TLSSocket;
    const remote = socket.remoteAddress;
    let peer = peers.get(socket);
    if (!peer) {
      peer = checkPeerCertificate(socket.getPeerCertificate().raw, pins);
      peers.set(socket, peer);
    }
    if (!peer.ok) {
      refuse(peer.reason, remote, { claimedTillId: peer.claimedTillId });
      res.writeHead(403, { connection: 'close', 'content-type': 'text/plain' }).end(`refused: ${peer.reason}\n`);
      return;
    }
    const query = parseQuery(req);
    if (!query) {
      refuse('malformedRequest', remote, { claimedTillId: peer.tillId });
      res.writeHead(400, { 'content-type': 'text/plain' }).end('expected GET /feed/{till id}?after=N[&limit=L][&waitMs=W][&logId=ID]\n');
      return;
    }
    const logId = source.logId(query.origin);
    if (logId === null) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('this till holds no log of that till\n');
      return;
    }
    let entries = readPage(query);
    // A puller whose cursor is of another file, or beyond this one, must learn it now, not after its long poll.
    const stale = (query.logId !== null && query.logId !== logId) || query.after > source.maxSeq(query.origin);
    const deadline = Date.now() + (stale ? 0 : query.waitMs);
    while (entries.length === 0 && !closing && !res.destroyed && Date.now() < deadline) {
      await waitForAppend(query.origin, deadline - Date.now(), res);
      entries = readPage(query);
    }
    if (res.destroyed) return;
    const page = encodePage(entries);
    res.writeHead(200, {
      'content-type': 'application/x-pos-store-feed',
      'content-length': page.bytes,
      // Read after the page: a log replaced in between shows as a changed id or a maximum below the page.
      'x-log-id': source.logId(query.origin) ?? logId,
      'x-log-max-seq': source.maxSeq(query.origin),
    });
    res.cork();
    for (const chunk of page.chunks) res.write(chunk);
    res.uncork();
    res.end();
  };

  const server = https.createServer(
    {
      ...options.identity.tls,
      minVersion: 'TLSv1.3',
      maxVersion: 'TLSv1.3',
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      serve(req, res).catch((error: unknown) => {
        logger.error({ event: 'store-feed.failed', err: error }, 'store feed failed to answer');
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    },
  );
  // With rejectUnauthorized, node drops a client whose certificate fails verification as a bare hang-up;
  // the verification's code is left on the socket (authorizationError).
  server.on('tlsClientError', (error: NodeJS.ErrnoException, socket: TLSSocket) => {
    const noCertificate = error.code === 'ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE';
    const code = noCertificate || socket.authorizationError === undefined ? error.code : String(socket.authorizationError);
    refuse(handshakeRefusal(code), socket.remoteAddress, { tlsError: code ?? error.message });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  logger.info({ event: 'store-feed.listening', host: options.host, port: (server.address() as AddressInfo).port, tillId: options.identity.tillId }, 'store feed listening');

  return {
    port: (server.address() as AddressInfo).port,
    appended: wake,
    refusals: () => ({ ...counts }),
    close: async () => {
      closing = true;
      for (const origin of [...waiters.keys()]) wake(origin);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
