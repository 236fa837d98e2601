// Store mode in a running till (docs/store-mode.md): mints the till's identity from the store secret
// and its own key, serves its log on the configured address, pulls each peer's log (configured, or
// discovered on the LAN by DNS-SD, then identified by TLS like any other) into the store's replicas,
// applies the changes other tills forwarded to this till's orders (each once),
// logs the writes of the store's staff under this till's id, and wakes its feed after each commit
// that appended to the log. Started by the core's composition only when store mode is on; stop()
// ends every connection.
import { createRequire } from 'node:module';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/log';
import type { ReplicaCursor, ReplicaEntry, Store } from '../../store/index';
import type { Cashier } from './cashier';
import { surrenderAdopted } from './store-mode/surrender';
import { ForwardInbox } from './store-mode/forward-inbox';
import { joinAddress } from '../../store-mode/address';
import { startFeedPuller, type FeedPuller } from '../../store-mode/feed-client';
import { startFeedServer, type FeedServer } from '../../store-mode/feed-server';
import { advertisable, startDiscovery, type Discovery } from '../../store-mode/discovery';
import { createTillIdentity, type TillIdentity } from '../../store-mode/identity';
import type { LogSource } from '../../store-mode/log-source';
import { identifyPeer, PeerRefusedError } from '../../store-mode/peer-identity';
import { emptyRefusalCounts, type RefusalCounts } from '../../store-mode/refusals';
import { pinsInMemory, type TillPins } from '../../store-mode/till-pins';
import type { SecretStore } from '../../sync/secret-store';
import type { TerminalConfig } from '../config/schema';
import { tillKeyInSecretStore } from './store-mode/till-key-secret';

export interface StoreLinkOptions {
  storeMode: TerminalConfig['storeMode'];
  /** The name this till goes by in its store (the configured one, or "Till" and its letter). */
  tillName: string;
  store: Store;
  /** Applies the changes other tills forward to this till's orders, as its own cashier's. */
  cashier: Cashier;
  /** The store secret's text (store-mode/secret.ts parses it): from the environment, the secret store, or a pairing. */
  storeSecret: string;
  secrets: SecretStore;
  clock: Clock;
  logger: Logger;
  /** A page of another till's log was applied: its orders may have changed. */
  onReplicated?: () => void;
  /** Pullers' pacing; tests shorten the retry. */
  backoff?: { firstMs: number; maxMs: number };
  /** How long the outbox waits, at most, for every configured peer to be caught up after a start (default 10 s). */
  catchUpBeforePushMs?: number;
  /** Orders of this till were taken over by another while it was away, and given up here. */
  onAdoptedAway?: () => void;
}

/**
 * How long one transaction of a page's entries may hold the event loop: a page is applied in slices
 * sized to this from what the entries have cost so far, so a register's command waits about this long
 * at most (docs/store-mode-catch-up.md). Short slices cost throughput: each commit rewrites the index
 * pages its entries touched.
 */
const SLICE_BUDGET_MS = 2;
/** Bounds of a slice, in entries: at least some progress on a slow machine, at most what a budget ever held. */
const SLICE_ENTRIES = { min: 5, max: 500 };
/** What an entry is taken to cost before one was measured (a first-page order entry on the loaded 2-core machine). */
const FIRST_ENTRY_MS = 0.15;
/** While a catch-up's page is applied, the checkpointer copies the log back into the file this often (see WalCheckpointer). */
const CHECKPOINT_EVERY_MS = 25;
/**
 * A catch-up waits (the event loop free) for the checkpointer to copy the whole log back once the log holds
 * this many 4 KiB pages (8 MiB): only a log checkpointed to its end starts again from its beginning, which
 * a checkpointer racing a writer seldom achieves, so without the wait the log file grows by all a catch-up
 * writes (~500 MB for 10,000 orders; 30–46 MB with it, up to ~80 MB on a loaded machine).
 */
const CHECKPOINT_WAIT_PAGES = 2_048;
/** The store's own connection checkpoints a log this far behind even so (64 MiB): a bound should the worker stall. */
const BEHIND_CHECKPOINTER_PAGES = 16_384;
/** The checkpointer's thread ends once no catch-up page came for this long. */
const CHECKPOINTER_IDLE_MS = 10_000;
/** A page longer than this is a catch-up's: the checkpointer takes over while it is applied. */
const CATCH_UP_PAGE_ENTRIES = 100;

/** A till back from away waits this long at most for its peers before its outbox drains: long enough for a LAN, short enough for a store alone. */
const CATCH_UP_BEFORE_PUSH_MS = 10_000;

/** A discovered till silent this long is forgotten (a feed's long poll answers at least every 25 s). */
const FORGET_DISCOVERED_AFTER_MS = 10 * 60_000;

/** How the link learned a peer's address: IT's list, or an advertisement on the LAN. */
export type PeerSource = 'configured' | 'discovered';

export interface PeerLinkStatus {
  address: string;
  source: PeerSource;
  tillId: string | null;
  name: string | null;
  /** Wall-clock ms the peer last answered (a page, even empty). */
  lastHeardAt: number | null;
  refusals: RefusalCounts;
  logReplacements: number;
  problem: string | null;
}

export interface StoreLinkStatus {
  tillId: string;
  tillName: string;
  listen: string;
  port: number;
  refusals: RefusalCounts;
  peers: PeerLinkStatus[];
}

export interface StoreLink {
  status(): StoreLinkStatus;
  /**
   * True while this till, just started, has not caught up with every configured peer (at most
   * catchUpBeforePushMs): its outbox waits, so what another till adopted meanwhile is given up first.
   */
  holdsPush(): boolean;
  /** Applies the forwards waiting in the inbox now (adoption put some there). */
  drainInbox(): void;
  stop(): Promise<void>;
}

/** The till's own log, served to its peers (it relays no other till's yet). */
function ownLog(store: Store, tillId: string): LogSource {
  return {
    logId: (origin) => (origin === tillId ? store.log.logId() : null),
    read: (_origin, after, limit) => store.log.read(after, limit),
    maxSeq: () => store.log.maxSeq(),
  };
}

/** What an entry of a page has cost to apply lately, in ms: the next slice is sized from it. */
export interface SlicePace {
  msPerEntry: number;
}

/**
 * Applies a page's entries in slices, each one transaction (`applySlice` commits the entries and the cursor
 * of the last), yielding to the event loop between them: a slice holds about SLICE_BUDGET_MS at the pace
 * measured so far, which `pace` keeps (a slow slice shrinks the next, a quick one grows it). Returns the
 * cursor the last slice committed; a slice that throws ends it, with the slices before it committed.
 */
export async function applyInSlices(
  entries: readonly ReplicaEntry[],
  pace: SlicePace,
  applySlice: (entries: readonly ReplicaEntry[]) => ReplicaCursor,
  /** Awaited between slices, after the yield: the checkpointer's keepUp. */
  between: () => Promise<void> = async () => undefined,
): Promise<ReplicaCursor> {
  let cursor: ReplicaCursor | undefined;
  for (let start = 0; start < entries.length; ) {
    if (start > 0) {
      await nextTurn();
      await between();
    }
    const count = Math.max(SLICE_ENTRIES.min, Math.min(SLICE_ENTRIES.max, Math.floor(SLICE_BUDGET_MS / pace.msPerEntry)));
    const slice = entries.slice(start, start + count);
    const began = performance.now();
    cursor = applySlice(slice);
    // Smoothed and bounded: one slice that met a collection or lost its core a while does not shrink the next to nothing.
    const measured = (performance.now() - began) / slice.length;
    pace.msPerEntry = 0.7 * pace.msPerEntry + 0.3 * Math.min(2 * pace.msPerEntry, Math.max(pace.msPerEntry / 2, measured));
    start += slice.length;
  }
  if (cursor === undefined) throw new Error('a replica page has at least one entry');
  return cursor;
}

/**
 * Copies the write-ahead log back into the store's file on a second connection in a worker thread while
 * a catch-up's pages are applied. Such a page writes tens of MB to the log (each slice rewrites the index
 * pages its entries touch), and SQLite's automatic checkpoint would copy it back inside the commit of
 * whichever slice crossed its threshold, holding the register's event loop 10–60 ms each time. Between
 * busy() and the matching idle() (nested for several peers) the store's connection checkpoints only a log
 * far behind (BEHIND_CHECKPOINTER_PAGES); the worker does, PASSIVE (it neither waits for nor blocks
 * the writer), and once more at idle(); keepUp() holds the catch-up back while the log is long (without
 * holding the event loop). The worker starts with a catch-up and ends once idle a while (a
 * thread costs memory); one that fails leaves the store's own checkpoints in place for good.
 */
export class WalCheckpointer {
  #worker: { thread: Worker; exited: Promise<void> } | null = null;
  /** Pages in the log at the worker's last checkpoint, and whether it copied them all. */
  #log = { pages: 0, complete: true };
  /** Called at the worker's next checkpoint (or its end). */
  readonly #waiting = new Set<() => void>();
  #failed = false;
  #applying = 0;
  #ending: NodeJS.Timeout | null = null;
  readonly #autocheckpoint: number;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {
    this.#autocheckpoint = store.db.pragma('wal_autocheckpoint', { simple: true }) as number;
  }

  busy(): void {
    if (this.#ending !== null) clearTimeout(this.#ending);
    this.#ending = null;
    if (this.#applying++ > 0) return;
    const worker = this.#worker ?? this.#start();
    if (worker === null) return;
    this.store.db.pragma(`wal_autocheckpoint = ${BEHIND_CHECKPOINTER_PAGES}`);
    worker.thread.postMessage('busy');
  }

  idle(): void {
    if (--this.#applying > 0) return;
    this.#worker?.thread.postMessage('idle');
    this.#restore();
    this.#ending = setTimeout(() => void this.#end(), CHECKPOINTER_IDLE_MS);
    this.#ending.unref();
  }

  /**
   * Between slices of a catch-up: once the log has grown past CHECKPOINT_WAIT_PAGES, resolves when the worker
   * has copied it all back (the next write then starts it again from its beginning), or when it is gone.
   */
  async keepUp(): Promise<void> {
    for (let tries = 0; tries < 3 && this.#worker !== null && this.#log.pages > CHECKPOINT_WAIT_PAGES; tries++) {
      const checkpointed = new Promise<void>((resolve) => this.#waiting.add(resolve));
      this.#worker.thread.postMessage('now');
      await checkpointed;
      // Copied to its end with nothing written since: the next write starts the log again.
      if (this.#log.complete) this.#log.pages = 0;
    }
  }

  /** Ends the worker and its connection (before the store closes: its close deletes the log only as the last connection). */
  async stop(): Promise<void> {
    if (this.#ending !== null) clearTimeout(this.#ending);
    this.#failed = true;
    await this.#end();
  }

  #start(): { thread: Worker; exited: Promise<void> } | null {
    if (this.#failed) return null;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const thread = new Worker(CHECKPOINTER_SOURCE, { eval: true, workerData: { file: this.store.file, driver, everyMs: CHECKPOINT_EVERY_MS } });
    thread.unref();
    const worker = { thread, exited: new Promise<void>((resolve) => thread.once('exit', () => resolve())) };
    const gone = (): void => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#restore();
      this.#wake();
    };
    thread.on('message', (log: { log: number; checkpointed: number; asked: boolean }) => {
      this.#log = { pages: log.log, complete: log.checkpointed === log.log };
      // Only a checkpoint asked for while the catch-up waits has seen all it wrote.
      if (log.asked) this.#wake();
    });
    thread.on('error', (error) => {
      this.logger.warn({ event: 'store-mode.checkpointer-failed', error: error.message }, "the log's checkpointer stopped; the store checkpoints in its commits again");
      this.#failed = true;
      gone();
    });
    thread.once('exit', gone);
    this.#worker = worker;
    return worker;
  }

  #wake(): void {
    for (const resolve of this.#waiting) resolve();
    this.#waiting.clear();
  }

  async #end(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#restore();
    this.#wake();
    if (worker === null) return;
    // Held until it has closed its connection: stop() is awaited.
    worker.thread.ref();
    worker.thread.postMessage('close');
    await worker.exited;
  }

  #restore(): void {
    // The thread may end after the store closed (a failure at shutdown): nothing is left to restore then.
    if (this.store.db.open) this.store.db.pragma(`wal_autocheckpoint = ${this.#autocheckpoint}`);
  }
}

const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
let timer = null;
const checkpoint = (asked) => {
  try {
    parentPort.postMessage({ ...db.pragma('wal_checkpoint(PASSIVE)')[0], asked });
  } catch (error) {
    // The store's own connection is checkpointing (its bound): nothing copied by this one, this time.
    if (error.code !== 'SQLITE_BUSY') throw error;
    parentPort.postMessage({ busy: 1, log: 0, checkpointed: -1, asked });
  }
};
const every = () => setInterval(() => checkpoint(false), workerData.everyMs);
parentPort.on('message', (message) => {
  if (message === 'busy') timer = timer ?? every();
  else if (message === 'now') {
    checkpoint(true);
    // None of its own for a while: the catch-up's next write must find the log copied whole to start it again.
    if (timer !== null) {
      clearInterval(timer);
      timer = every();
    }
  } else if (message === 'idle') {
    clearInterval(timer);
    timer = null;
    checkpoint(false);
  } else if (message === 'close') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

interface Claimant {
  source: PeerSource;
  /** The till it pulls; null while it pulls none. */
  tillId: string | null;
}

/**
 * One follower per till, however its address was learned: `claimant` identified `tillId`; null problem
 * when it may pull it, and the followers to drop. IT's address wins over an advertised one, otherwise
 * the first to pull the till keeps it; a discovered duplicate (or this till's own advertisement) has
 * nothing to show, so it goes, while a configured one stays listed with its problem.
 */
export function settleClaim<T extends Claimant>(claimant: T, tillId: string, followers: readonly T[], ownTillId: string): { problem: string | null; drop: T[] } {
  const other = followers.find((follower) => follower !== claimant && follower.tillId === tillId);
  if (tillId !== ownTillId && (other === undefined || (claimant.source === 'configured' && other.source === 'discovered'))) {
    return { problem: null, drop: other === undefined ? [] : [other] };
  }
  return {
    problem: tillId === ownTillId ? 'this address is this till itself' : 'this till is already followed at another address',
    drop: claimant.source === 'discovered' ? [claimant] : [],
  };
}

interface FollowerLink {
  identity: TillIdentity;
  /** The pace of applying entries, shared by the followers (they apply on one connection, one at a time). */
  pace: SlicePace;
  checkpointer: WalCheckpointer;
  pins: TillPins;
  options: StoreLinkOptions;
  /** After each page's commit: applies the forwards waiting, once this till has caught up with its peers. */
  drainInbox: () => void;
  /** After each page's commit: gives up this till's orders another till adopted, before anything else is pushed. */
  surrender: () => void;
  /** Null when this follower may pull the till it identified, else why not: one follower per till, however it was found. */
  claim: (follower: PeerFollower, tillId: string) => string | null;
}

/** One peer address: who answers there, then its log pulled into the replicas. */
class PeerFollower {
  readonly #status: PeerLinkStatus;
  readonly #stopping = new AbortController();
  #puller: FeedPuller | null = null;
  readonly #following: Promise<void>;
  /** Wall-clock ms it was added: a discovered one that never answers is forgotten counting from here. */
  readonly addedAt = Date.now();

  constructor(
    address: string,
    source: PeerSource,
    private readonly link: FollowerLink,
  ) {
    this.#status = { address, source, tillId: null, name: null, lastHeardAt: null, refusals: emptyRefusalCounts(), logReplacements: 0, problem: null };
    this.#following = this.#follow();
  }

  get address(): string {
    return this.#status.address;
  }

  get source(): PeerSource {
    return this.#status.source;
  }

  /** The till identified at this address (and pulled from); null before, or when another follower pulls it. */
  get tillId(): string | null {
    return this.#puller === null ? null : this.#status.tillId;
  }

  async #follow(): Promise<void> {
    const { identity, pins, options } = this.link;
    const backoff = options.backoff ?? { firstMs: 250, maxMs: 10_000 };
    for (let failures = 0; !this.#stopping.signal.aborted; failures++) {
      try {
        const peer = await identifyPeer({ identity, pins, peer: this.#status.address, signal: this.#stopping.signal });
        // Dropped or stopped while the handshake finished: it claims nothing.
        if (this.#stopping.signal.aborted) return;
        const taken = this.link.claim(this, peer.tillId);
        if (taken !== null) {
          this.#status.problem = taken;
          return;
        }
        Object.assign(this.#status, { tillId: peer.tillId, name: peer.tillName, problem: null });
        options.store.replicas.nameTill(peer.tillId, peer.tillName);
        this.#puller = this.#pull(peer.tillId);
        return;
      } catch (error) {
        if (this.#stopping.signal.aborted) return;
        if (error instanceof PeerRefusedError) this.#status.refusals[error.reason]++;
        this.#status.problem = error instanceof Error ? error.message : String(error);
        const ceiling = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(failures, 16));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ceiling / 2 + Math.random() * (ceiling / 2));
          this.#stopping.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
    }
  }

  #pull(origin: string): FeedPuller {
    const { identity, pins, options, drainInbox, surrender } = this.link;
    const { store, clock } = options;
    return startFeedPuller({
      identity,
      pins,
      peer: this.#status.address,
      origin,
      logger: options.logger,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      sink: {
        cursor: (from) => store.replicas.cursor(from),
        apply: async (from, page) => {
          // A page of a catch-up holds up to 1,000 entries: applied in slices, each with its cursor in its own
          // transaction, yielding between them, so the register's commands are answered while it catches up.
          const catchingUp = page.entries.length > CATCH_UP_PAGE_ENTRIES;
          if (catchingUp) this.link.checkpointer.busy();
          let cursor: ReplicaCursor;
          try {
            const apply = (entries: readonly ReplicaEntry[]) => store.replicas.apply(from, page.logId, entries, clock.now(), identity.tillId);
            cursor = await applyInSlices(page.entries, this.link.pace, apply, catchingUp ? () => this.link.checkpointer.keepUp() : undefined);
          } finally {
            if (catchingUp) this.link.checkpointer.idle();
          }
          surrender();
          // After the page's commit: forwards it brought are each applied in a transaction of their own
          // (once this till has caught up with its peers: see startStoreLink).
          drainInbox();
          options.onReplicated?.();
          return cursor;
        },
        logReplaced: (from, change) => store.replicas.logReplaced(from, change.logId, clock.now()),
      },
    });
  }

  /** Its till's log was read to the end since this link started. */
  caughtUp(): boolean {
    return (this.#puller?.status().caughtUpAt ?? null) !== null;
  }

  status(): PeerLinkStatus {
    const pulled = this.#puller?.status();
    if (!pulled) return { ...this.#status, refusals: { ...this.#status.refusals } };
    const refusals = emptyRefusalCounts();
    for (const reason of Object.keys(refusals) as (keyof RefusalCounts)[]) refusals[reason] = this.#status.refusals[reason] + pulled.refusals[reason];
    return { ...this.#status, lastHeardAt: pulled.lastHeardAt, refusals, logReplacements: pulled.logReplacements, problem: pulled.lastError };
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#following;
    await this.#puller?.stop();
  }
}

export async function startStoreLink(options: StoreLinkOptions): Promise<StoreLink> {
  const { storeMode, store, logger } = options;
  const identity = await createTillIdentity({
    storeSecret: options.storeSecret,
    tillName: options.tillName,
    keyStore: tillKeyInSecretStore(options.secrets),
  });
  const pins = pinsInMemory();
  if (storeMode.listen === '') throw new Error('store mode is on, but storeMode.listen is not set');
  const listen = joinAddress(storeMode.listen);
  const server: FeedServer = await startFeedServer({ identity, source: ownLog(store, identity.tillId), pins, ...storeMode.listen, logger });
  const stopWaking = store.log.onAppended(() => server.appended(identity.tillId));
  // The till id is the key's, known from here on: staff writes go out under it (and those not logged yet, now).
  store.staff.replicateTo({ tillId: identity.tillId, append: (entry) => store.log.append(entry) }, options.clock.now());
  const inbox = new ForwardInbox({ store, cashier: options.cashier, clock: options.clock, logger });
  const surrender = (): void => {
    if (surrenderAdopted(store, identity.tillId, options.clock, logger) > 0) options.onAdoptedAway?.();
  };
  // Adoptions received before a stop (or a crash) and not given up yet.
  surrender();
  const startedAt = Date.now();
  const catchUpMs = options.catchUpBeforePushMs ?? CATCH_UP_BEFORE_PUSH_MS;
  const peers: PeerFollower[] = [];
  /**
   * Every configured peer read to the end since this start, or catchUpMs passed. Until then, neither the
   * outbox drains nor forwards are applied: a till back from away first learns which of its orders
   * another till adopted meanwhile (and applied the changes sent for them), so nothing is done twice.
   */
  const caughtUp = (): boolean => Date.now() - startedAt >= catchUpMs || !peers.some((peer) => peer.source === 'configured' && !peer.caughtUp());
  const drainInbox = (): void => {
    if (caughtUp()) inbox.schedule();
  };
  // Forwards received before a stop (or a crash) and not answered yet: applied once caught up.
  const waitingForPeers = setInterval(() => {
    if (!caughtUp()) return;
    clearInterval(waitingForPeers);
    inbox.schedule();
  }, 100);
  waitingForPeers.unref();
  /** Followers dropped (duplicates, forgotten) still closing their connections: stop() waits for them. */
  const leaving = new Set<Promise<void>>();
  const drop = (follower: PeerFollower): void => {
    const at = peers.indexOf(follower);
    if (at === -1) return;
    peers.splice(at, 1);
    const stopped = follower.stop().finally(() => leaving.delete(stopped));
    leaving.add(stopped);
  };
  const checkpointer = new WalCheckpointer(store, logger);
  const followerLink: FollowerLink = {
    identity,
    pace: { msPerEntry: FIRST_ENTRY_MS },
    checkpointer,
    pins,
    options,
    drainInbox,
    surrender,
    claim: (follower, tillId) => {
      const settled = settleClaim(follower, tillId, peers, identity.tillId);
      settled.drop.forEach(drop);
      return settled.problem;
    },
  };
  peers.push(...storeMode.peers.map((address) => new PeerFollower(joinAddress(address), 'configured', followerLink)));
  let discovery: Discovery | null = null;
  let forgetting: NodeJS.Timeout | null = null;
  const discovering = storeMode.discovery === 'on' && advertisable(storeMode.listen.host);
  if (discovering) {
    discovery = startDiscovery({
      storeTag: identity.storeTag,
      listen: { host: storeMode.listen.host, port: server.port },
      logger,
      onCandidate: (address) => {
        if (!peers.some((peer) => peer.address === address)) peers.push(new PeerFollower(address, 'discovered', followerLink));
      },
    });
    // A discovered till silent this long is forgotten (configured ones are kept): its address may be
    // another device's by now; advertised again, it is offered again.
    forgetting = setInterval(() => {
      const now = Date.now();
      for (const peer of peers.filter((p) => p.source === 'discovered' && now - (p.status().lastHeardAt ?? p.addedAt) > FORGET_DISCOVERED_AFTER_MS)) drop(peer);
    }, 60_000);
    forgetting.unref();
  }
  logger.info({ event: 'store-mode.started', tillId: identity.tillId, tillName: identity.tillName, listen, port: server.port, peers: storeMode.peers.length, discovery: discovering ? 'on' : storeMode.discovery === 'on' ? 'off: the feed listens on loopback, or not on an IPv4 address' : 'off' }, 'store mode on');

  return {
    status: () => ({
      tillId: identity.tillId,
      tillName: identity.tillName,
      listen,
      port: server.port,
      refusals: server.refusals(),
      peers: peers.map((peer) => peer.status()),
    }),
    holdsPush: () => !caughtUp(),
    drainInbox: () => inbox.schedule(),
    async stop() {
      store.staff.replicateTo(null, options.clock.now());
      stopWaking();
      clearInterval(waitingForPeers);
      inbox.stop();
      if (forgetting) clearInterval(forgetting);
      await discovery?.stop();
      await Promise.all([...peers.map((peer) => peer.stop()), ...leaving]);
      await checkpointer.stop();
      await server.close();
    },
  };
}
