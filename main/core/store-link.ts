// Store mode in a running till (docs/store-mode.md): mints the till's identity from the store secret
// and its own key, serves its log on the configured address, pulls each peer's log (configured, or
// discovered on the LAN by DNS-SD, then identified by TLS like any other) into the store's replicas,
// applies the changes other tills forwarded to this till's orders (each once),
// logs the writes of the store's staff under this till's id, and wakes its feed after each commit
// that appended to the log. Started by the core's composition only when store mode is on; stop()
// ends every connection.
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/log';
import type { Store } from '../../store/index';
import type { Cashier } from './cashier';
import { PageApplier } from './store-mode/catch-up';
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
import { tillCertificatesInSecretStore, tillKeyInSecretStore } from './store-mode/till-key-secret';

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
  /** Applies the pages of every follower (docs/store-mode-catch-up.md). */
  pages: PageApplier;
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
        coming: (_from, entries) => this.link.pages.coming(entries),
        apply: async (from, page) => {
          // A catch-up's page goes to the apply thread, a live one is applied here: the register answers meanwhile.
          const cursor = await this.link.pages.apply(from, page.logId, page.entries);
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
    certificateStore: tillCertificatesInSecretStore(options.secrets),
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
  const pages = new PageApplier(store, identity.tillId, () => options.clock.now(), logger);
  const followerLink: FollowerLink = {
    identity,
    pages,
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
      await pages.stop();
      await server.close();
    },
  };
}
