// Pulls one origin's log from one peer: long polls GET /feed/{origin}?after=cursor over mutual TLS,
// checks each page whole (frames.ts), hands it to the sink that commits entries and cursor together,
// and starts again from whatever cursor the sink committed. The next page is fetched while one is
// applied. Errors back off (bounded); stop() ends it cleanly.
import { Agent, request } from 'undici';
import type { PeerCertificate } from 'node:tls';
import type { Logger } from '../common/log';
import type { FeedCursor, FeedSink } from './feed-sink';
import { PageDecoder, PageError, type FeedEntry } from './frames';
import type { TillIdentity } from './identity';
import { checkPeerCertificate } from './peer-certificate';
import { emptyRefusalCounts, handshakeRefusal, type RefusalCounts } from './refusals';
import type { TillPins } from './till-pins';

const LOG_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface FeedPullerOptions {
  identity: TillIdentity;
  pins: TillPins;
  /** The peer's feed, host:port. */
  peer: string;
  /** Whose log to pull: the peer's own till id, or a till whose replica the peer relays. */
  origin: string;
  sink: FeedSink;
  logger: Logger;
  pageEntries?: number;
  longPollMs?: number;
  backoff?: { firstMs: number; maxMs: number };
}

export interface FeedPullerStatus {
  peer: string;
  origin: string;
  cursor: FeedCursor | null;
  /** Wall-clock ms of the last page (even empty) received whole. */
  lastHeardAt: number | null;
  /** Wall-clock ms a page reached the end of what the peer had (a page not full, even empty): caught up then. */
  caughtUpAt: number | null;
  lastError: string | null;
  pagesApplied: number;
  entriesApplied: number;
  logReplacements: number;
  refusals: RefusalCounts;
}

export interface FeedPuller {
  status(): FeedPullerStatus;
  /** Stops pulling: the request in flight is abandoned and nothing more is applied. */
  stop(): Promise<void>;
}

interface FetchedPage {
  logId: string;
  servedMaxSeq: number;
  entries: FeedEntry[];
}

class PeerIdentityError extends Error {}

export function startFeedPuller(options: FeedPullerOptions): FeedPuller {
  const { sink, origin, logger, pins } = options;
  // Measured under load (docs/store-mode.md): 1,000 × 1 KB pages overlap fetch and apply best, and bound memory.
  const pageEntries = options.pageEntries ?? 1_000;
  const longPollMs = options.longPollMs ?? 25_000;
  const backoff = options.backoff ?? { firstMs: 250, maxMs: 10_000 };
  const refusals = emptyRefusalCounts();
  const status: Omit<FeedPullerStatus, 'refusals'> = {
    peer: options.peer,
    origin,
    cursor: null,
    lastHeardAt: null,
    caughtUpAt: null,
    lastError: null,
    pagesApplied: 0,
    entriesApplied: 0,
    logReplacements: 0,
  };
  const stopping = new AbortController();

  const agent = new Agent({
    connect: {
      ...options.identity.tls,
      minVersion: 'TLSv1.3',
      maxVersion: 'TLSv1.3',
      // The chain to the store CA is checked by TLS; the peer's name is its till id, not a host name.
      checkServerIdentity: (_host: string, certificate: PeerCertificate) => {
        const peer = checkPeerCertificate(certificate.raw, pins);
        if (peer.ok) return undefined;
        refusals[peer.reason]++;
        return new PeerIdentityError(`the peer's certificate is refused: ${peer.reason}`);
      },
    },
    // A long poll is answered within longPollMs; past that the peer is gone (a LAN host dies without a reset).
    headersTimeout: longPollMs + 10_000,
    bodyTimeout: 30_000,
  });

  const fetchPage = async (cursor: FeedCursor | null, signal: AbortSignal): Promise<FetchedPage> => {
    const after = cursor?.seq ?? 0;
    const ofLog = cursor ? `&logId=${encodeURIComponent(cursor.logId)}` : '';
    const url = `https://${options.peer}/feed/${origin}?after=${after}&limit=${pageEntries}&waitMs=${longPollMs}${ofLog}`;
    const response = await request(url, { dispatcher: agent, signal });
    if (response.statusCode !== 200) {
      const text = (await response.body.text()).slice(0, 200).trim();
      throw new Error(`the peer answered ${response.statusCode}: ${text}`);
    }
    const logId = response.headers['x-log-id'];
    const servedMaxSeq = Number(response.headers['x-log-max-seq']);
    const decoder = new PageDecoder(after, pageEntries);
    try {
      if (typeof logId !== 'string' || !LOG_ID.test(logId)) throw new PageError('no valid X-Log-Id');
      if (!Number.isSafeInteger(servedMaxSeq) || servedMaxSeq < 0) throw new PageError('no valid X-Log-Max-Seq');
      if (servedMaxSeq > after) sink.coming?.(origin, Math.min(pageEntries, servedMaxSeq - after));
      for await (const chunk of response.body) decoder.push(chunk as Buffer);
      const entries = decoder.finish();
      const last = entries.at(-1);
      if (last && last.seq > servedMaxSeq) throw new PageError(`seq ${last.seq} above the served maximum ${servedMaxSeq}`);
      return { logId, servedMaxSeq, entries };
    } catch (error) {
      response.body.destroy();
      if (error instanceof PageError) refusals.rejectedPage++;
      throw error;
    }
  };

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      }
      stopping.signal.addEventListener('abort', done, { once: true });
    });

  /** One run from the committed cursor until an error: pages are applied in order, the next fetched meanwhile. */
  const pullFromCursor = async (): Promise<void> => {
    const run = new AbortController();
    const abortRun = (): void => run.abort();
    stopping.signal.addEventListener('abort', abortRun, { once: true });
    const startFetch = (from: FeedCursor | null): Promise<FetchedPage> => {
      const fetching = fetchPage(from, run.signal);
      // A prefetch abandoned by an abort is never awaited: its rejection is expected, not unhandled.
      fetching.catch(() => undefined);
      return fetching;
    };
    try {
      let cursor = await sink.cursor(origin);
      status.cursor = cursor;
      let next = startFetch(cursor);
      while (!stopping.signal.aborted) {
        const page = await next;
        status.lastHeardAt = Date.now();
        status.lastError = null;
        if (cursor !== null && (page.logId !== cursor.logId || page.servedMaxSeq < cursor.seq)) {
          status.logReplacements++;
          logger.warn(
            { event: 'store-feed.log-replaced', peer: options.peer, origin, previousLogId: cursor.logId, previousSeq: cursor.seq, logId: page.logId, servedMaxSeq: page.servedMaxSeq },
            "a peer's log was replaced: reading it again from the start",
          );
          cursor = await sink.logReplaced(origin, { previous: cursor, logId: page.logId, servedMaxSeq: page.servedMaxSeq });
          status.cursor = cursor;
          next = startFetch(cursor);
          continue;
        }
        const last = page.entries.at(-1);
        // A full page means more is waiting: fetch it while this one commits.
        const prefetched = last && page.entries.length === pageEntries ? startFetch({ logId: page.logId, seq: last.seq }) : null;
        // undici sends a request on a later turn of the event loop: let it go out before a synchronous apply blocks the loop.
        if (prefetched) await new Promise((resolve) => setImmediate(resolve));
        if (last) {
          cursor = await sink.apply(origin, { logId: page.logId, entries: page.entries });
          status.cursor = cursor;
          status.pagesApplied++;
          status.entriesApplied += page.entries.length;
        }
        if (!prefetched) status.caughtUpAt = Date.now();
        // The sink may commit another cursor than the page's end: then the prefetch asked from the wrong place.
        if (prefetched && cursor?.seq === last?.seq) next = prefetched;
        else if (prefetched) return; // the finally aborts the prefetch; the loop starts again from the committed cursor
        else next = startFetch(cursor);
      }
    } finally {
      run.abort();
      stopping.signal.removeEventListener('abort', abortRun);
    }
  };

  const loop = (async () => {
    let failures = 0;
    while (!stopping.signal.aborted) {
      try {
        await pullFromCursor();
        failures = 0;
      } catch (error) {
        if (stopping.signal.aborted) break;
        const message = error instanceof Error ? error.message : String(error);
        // The peer's certificate is not from the store CA: another store's till, or a wrong secret on one side.
        const tlsCode = (error as { code?: unknown }).code;
        if (typeof tlsCode === 'string' && handshakeRefusal(tlsCode) === 'untrustedCertificate') refusals.untrustedCertificate++;
        status.lastError = message;
        logger.warn({ event: 'store-feed.pull-failed', peer: options.peer, origin, error: message, failures }, 'store feed pull failed; retrying');
        const ceiling = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(failures, 16));
        failures++;
        // Full jitter between half and all of the ceiling: tills restarted together do not retry in step.
        await sleep(ceiling / 2 + Math.random() * (ceiling / 2));
      }
    }
  })();

  return {
    status: () => ({ ...status, refusals: { ...refusals } }),
    stop: async () => {
      stopping.abort();
      await loop;
      await agent.close();
    },
  };
}
