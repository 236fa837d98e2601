// The sync engine: owns the timers and the state the cashier sees. Push runs on a timer, on
// reconnect, on every local write and on demand; pull reconciles on its own timer. Transport
// failures pause everything with jittered backoff (one probe at a time while offline), a 429
// pauses until Retry-After, rejected credentials stop sync until the operator fixes them.
// A connectivity probe (sync/connectivity.ts) keeps `online` true to the moment while nothing
// else talks to the server, and checks at once whether a network failure was a blip.
import type { Clock } from '../common/clock';
import { systemClock } from '../common/clock';
import type { Logger } from '../common/log';
import { silentLogger } from '../common/log';
import type { Store } from '../store/index';
import { ApiClient } from './api-client';
import { ApiError } from './api-error';
import { defaultBackoff, fullJitterDelay, nextRetryDelay, type BackoffTuning } from './backoff';
import { nextProbeAt, probeApi, type ConnectivityTiming } from './connectivity';
import type { CredentialsProvider } from './credentials';
import { OutboxPusher, type DrainResult, type PushTuning } from './push';
import { Puller, type PullTuning } from './pull';
import { SyncStatus, type CredentialsState, type ReachProblem, type SyncBackoff } from './status';

export interface SyncTimers {
  /** Push attempts while the outbox is not empty (also retries due operations). */
  pushIntervalMs: number;
  /** Reconciliation pulls. */
  pullIntervalMs: number;
  /** A full order pull with deletion sweep at most this often; incremental pulls in between. */
  fullPullIntervalMs: number;
  /** A burst of cashier writes is pushed together after this pause. */
  localWriteDelayMs: number;
  /** stop() waits at most this long for requests in flight. */
  stopTimeoutMs: number;
  /** Confirmed operations are kept this long as history, then pruned after a pull. */
  completedRetentionMs: number;
  /** Connectivity probes: how often while idle, how close together at most, how long each may take. */
  probe: ConnectivityTiming;
}

export interface SyncTuning {
  push: PushTuning;
  pull: PullTuning;
  /** Pause after transport failures (offline), growing with each one. */
  offlineBackoff: BackoffTuning;
  requestTimeoutMs: number;
}

export interface SyncEngineOptions {
  store: Store;
  /** {base_url}, ending with /v1. */
  baseUrl: string;
  credentials: CredentialsProvider;
  /** The terminal's location: its menu and orders are pulled. null: every location. */
  locationId?: string | null;
  clock?: Clock;
  logger?: Logger;
  timers?: Partial<Omit<SyncTimers, 'probe'>> & { probe?: Partial<ConnectivityTiming> };
  tuning?: { push?: Partial<PushTuning>; pull?: Partial<PullTuning>; offlineBackoff?: BackoffTuning; requestTimeoutMs?: number };
  /** Randomness of the jitter (tests pin it). */
  random?: () => number;
  /** True while the outbox must not drain yet (store mode: a till back from away first learns what other tills took over). Pulls go on. */
  pushHeld?: () => boolean;
}

export interface SyncEngine {
  start(): void;
  stop(): Promise<void>;
  status(): SyncStatus;
  /** The server answered the last request (push, pull or probe): what the offline payment limits go by. Cheaper than status(). */
  isOnline(): boolean;
  onStatus(listener: (status: SyncStatus) => void): () => void;
  syncNow(): void;
  notifyLocalWrite(): void;
  retryDeadLetter(id: string): void;
  discardDeadLetter(id: string): void;
  /** Resolves when the current push and pull (if any) have finished: for shutdown and tests. */
  idle(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60_000;

export const DEFAULT_TIMERS: SyncTimers = {
  pushIntervalMs: 5_000,
  pullIntervalMs: 60_000,
  fullPullIntervalMs: 30 * 60_000,
  localWriteDelayMs: 25,
  stopTimeoutMs: 5_000,
  completedRetentionMs: 24 * 60 * 60_000,
  // Offline is noticed within ~10 s of idling (the status bar and the offline payment limits
  // depend on it); one small GET per 10 s is nothing next to a minute's pull.
  probe: { idleIntervalMs: 10_000, minGapMs: 1_000, timeoutMs: 5_000 },
};

export const DEFAULT_TUNING: SyncTuning = {
  push: { concurrency: 16, backoff: defaultBackoff, lookup: { clockSkewMs: 10 * 60_000, maxPages: 50, settleMs: 30_000 } },
  pull: { perPage: 100, streams: 16, retentionMs: 90 * DAY_MS, pagesInFlight: 4, maxPasses: 4, orderOverlapMs: 10 * 60_000, maxConfirmations: 50 },
  offlineBackoff: { baseMs: 1_000, capMs: 30_000 },
  requestTimeoutMs: 15_000,
};

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  return new Engine(options);
}

class Engine implements SyncEngine {
  readonly #store: Store;
  readonly #api: ApiClient;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #timers: SyncTimers;
  readonly #tuning: SyncTuning;
  readonly #random: () => number;
  readonly #pushHeld: () => boolean;
  readonly #pusher: OutboxPusher;
  readonly #puller: Puller;
  readonly #locationId: string | null;
  readonly #listeners = new Set<(status: SyncStatus) => void>();

  #started = false;
  #stopped = false;
  #pushTimer: NodeJS.Timeout | null = null;
  #pullTimer: NodeJS.Timeout | null = null;
  #writeTimer: NodeJS.Timeout | null = null;
  #pushing: Promise<void> | null = null;
  #pushAgain = false;
  #pulling: Promise<void> | null = null;
  #probeTimer: NodeJS.Timeout | null = null;
  #probing: Promise<void> | null = null;
  /** Last time any request got an answer or failed (a probe is due only after a quiet spell). */
  #lastContactAt = 0;
  #lastProbeAt = 0;
  /** A push or pull that was online just failed on the network: probe at once, it may have been a blip. */
  #failureToCheck = false;

  #online = false;
  #transportFailures = 0;
  #backoff: SyncBackoff | null = null;
  #credentials: CredentialsState = 'ok';
  #lastPushAt: number | null = null;
  #lastPullAt: number | null = null;
  #lastFullPullAt: number | null = null;
  #lastRetentionAt: number | null = null;
  /**
   * The last failure of each kind of work, cleared by that work's next success: the status says
   * what is true now, not what once went wrong (a 429 or a full disk long since recovered).
   */
  readonly #errors: Record<ErrorSource, string | null> = { push: null, pull: null, probe: null, permission: null };
  #pushPermissionProblems: string[] = [];
  /** A pull failed because the server was unreachable. */
  #pullMissed = false;
  /** The configured server has answered since sync started: a refused connection is then an outage, not a wrong address. */
  #everAnswered = false;
  #progressTimer: NodeJS.Timeout | null = null;
  #reachProblem: ReachProblem | null = null;
  /** When each read problem was first seen (kept while it lasts). */
  readonly #readProblemSince = new Map<string, number>();
  #lastEmitted = '';

  constructor(options: SyncEngineOptions) {
    this.#store = options.store;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? silentLogger;
    this.#timers = { ...DEFAULT_TIMERS, ...options.timers, probe: { ...DEFAULT_TIMERS.probe, ...options.timers?.probe } };
    this.#tuning = {
      push: { ...DEFAULT_TUNING.push, ...options.tuning?.push },
      pull: { ...DEFAULT_TUNING.pull, ...options.tuning?.pull },
      offlineBackoff: options.tuning?.offlineBackoff ?? DEFAULT_TUNING.offlineBackoff,
      requestTimeoutMs: options.tuning?.requestTimeoutMs ?? DEFAULT_TUNING.requestTimeoutMs,
    };
    this.#random = options.random ?? Math.random;
    this.#pushHeld = options.pushHeld ?? (() => false);
    this.#locationId = options.locationId ?? null;
    this.#api = new ApiClient({
      baseUrl: options.baseUrl,
      credentials: options.credentials,
      timeoutMs: this.#tuning.requestTimeoutMs,
      connections: this.#tuning.push.concurrency,
      clock: this.#clock,
      logger: this.#logger,
    });
    const deps = { api: this.#api, store: this.#store, clock: this.#clock, logger: this.#logger };
    this.#pusher = new OutboxPusher({ ...deps, tuning: this.#tuning.push, random: this.#random });
    // A page read is an answer from the server: online now, not only once a long first pull ends.
    this.#puller = new Puller({ ...deps, tuning: this.#tuning.pull, onProgress: () => (this.#markOnline(), this.#emitProgress()) });
  }

  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    this.#logger.info({ baseUrl: this.#api.baseUrl }, 'sync engine started');
    this.#lastContactAt = this.#clock.now();
    this.#runPush();
    this.#runPull();
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const timer of [this.#pushTimer, this.#pullTimer, this.#writeTimer, this.#probeTimer, this.#progressTimer]) if (timer) clearTimeout(timer);
    const settled = Promise.allSettled([this.#pushing, this.#pulling, this.#probing].filter(Boolean)).then(() => true);
    let timeout: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([settled, new Promise<false>((resolve) => (timeout = setTimeout(() => resolve(false), this.#timers.stopTimeoutMs)))]);
    clearTimeout(timeout);
    // Requests still hanging are cut off: their operations stay in flight and the next start
    // looks for what they may have done before sending them again.
    await (inTime ? this.#api.close() : this.#api.destroy()).catch(() => undefined);
    // Cut-off requests fail at once; let the push record that before the caller closes the store.
    if (!inTime) await settled;
    this.#logger.info('sync engine stopped');
  }

  async idle(): Promise<void> {
    while (this.#pushing || this.#pulling || this.#probing) await Promise.allSettled([this.#pushing, this.#pulling, this.#probing].filter(Boolean));
  }

  status(): SyncStatus {
    const now = this.#clock.now();
    const stats = this.#store.outbox.outboxStats(now);
    return SyncStatus.parse({
      online: this.#online,
      pending: stats.pending + stats.inFlight,
      oldestPendingAgeMs: stats.oldestPendingAgeMs === null ? null : Math.max(0, stats.oldestPendingAgeMs),
      lastPushAt: this.#lastPushAt,
      lastPullAt: this.#lastPullAt,
      menuPulledAt: this.#puller.menuPulledAt,
      deadLetters: stats.deadLetters,
      backoff: this.#backoff && this.#backoff.untilMs > now ? this.#backoff : null,
      credentials: this.#credentials,
      lastError: this.#errors.permission ?? this.#errors.push ?? this.#errors.pull ?? this.#errors.probe,
      reachProblem: this.#reachProblem,
      readProblems: [...this.#puller.readProblems].map(([scope, detail]) => ({ scope, detail, since: this.#readProblemSince.get(scope) ?? now })),
      initialSyncDone: this.#puller.initialSyncDone(this.#locationId),
      orderProgress: this.#puller.orderProgress && { ...this.#puller.orderProgress },
    });
  }

  /** Progress of a long pull, told at most every 250 ms: the screens follow it without a status per page. */
  #emitProgress(): void {
    // A pull still finishing while stop() waits must not leave a timer behind (the store closes after).
    if (this.#progressTimer !== null || this.#stopped) return;
    this.#progressTimer = setTimeout(() => {
      this.#progressTimer = null;
      if (!this.#stopped) this.#emit();
    }, 250);
    this.#progressTimer.unref?.();
  }

  isOnline(): boolean {
    return this.#online;
  }

  #apiHost(): string {
    return new URL(this.#api.baseUrl).host;
  }

  onStatus(listener: (status: SyncStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(): void {
    if (this.#listeners.size === 0) return;
    const status = this.status();
    const key = JSON.stringify(status);
    if (key === this.#lastEmitted) return;
    this.#lastEmitted = key;
    for (const listener of this.#listeners) {
      try {
        listener(status);
      } catch (error) {
        this.#logger.error({ err: error }, 'status listener failed');
      }
    }
  }

  syncNow(): void {
    // An explicit request overrides every pause: the operator may have fixed the network or the key.
    this.#backoff = null;
    if (this.#credentials !== 'ok') this.#credentials = 'ok';
    this.#runPush();
    this.#runPull();
  }

  notifyLocalWrite(): void {
    this.#emit();
    if (this.#stopped || !this.#started || this.#writeTimer) return;
    this.#writeTimer = setTimeout(() => {
      this.#writeTimer = null;
      const now = this.#clock.now();
      if (this.#credentials === 'rejected' || this.#credentials === 'missing') return;
      const backoff = this.#backoff && this.#backoff.untilMs > now ? this.#backoff : null;
      // Never earlier than a Retry-After.
      if (backoff?.reason.startsWith('rate limited')) return;
      if (backoff) {
        // Offline: a new write is a reason to probe again soon, but a burst of writes during an
        // outage makes one probe per offline base interval, not one per write.
        const probeAt = Math.min(backoff.untilMs, now + this.#tuning.offlineBackoff.baseMs);
        if (probeAt < backoff.untilMs) {
          this.#backoff = { ...backoff, untilMs: probeAt };
          if (!this.#pushing) {
            if (this.#pushTimer) clearTimeout(this.#pushTimer);
            this.#schedulePush();
          }
        }
        return;
      }
      this.#runPush();
    }, this.#timers.localWriteDelayMs);
  }

  retryDeadLetter(id: string): void {
    this.#store.outbox.retryDeadLetter(Number(id), this.#clock.now());
    this.#emit();
    if (this.#started) this.#runPush();
  }

  discardDeadLetter(id: string): void {
    this.#store.outbox.discardDeadLetter(Number(id));
    this.#emit();
  }

  // ---- push ----

  #runPush(): void {
    if (this.#stopped || !this.#started) return;
    if (this.#pushing) {
      this.#pushAgain = true;
      return;
    }
    if (this.#pushTimer) clearTimeout(this.#pushTimer);
    this.#pushTimer = null;
    this.#pushing = this.#pushOnce()
      .catch((error: unknown) => {
        this.#errors.push = `push failed: ${(error as Error).message}`;
        this.#logger.error({ err: error }, 'push failed unexpectedly');
      })
      .finally(() => {
        this.#pushing = null;
        this.#emit();
        if (this.#pushAgain && !this.#isPaused()) {
          this.#pushAgain = false;
          this.#runPush();
        } else {
          this.#pushAgain = false;
          this.#schedulePush();
        }
        this.#scheduleProbe();
      });
  }

  #isPaused(): boolean {
    return (this.#backoff !== null && this.#backoff.untilMs > this.#clock.now()) || this.#credentials === 'rejected' || this.#credentials === 'missing';
  }

  #schedulePush(): void {
    if (this.#stopped) return;
    const now = this.#clock.now();
    // An expired pause no longer shapes the schedule (and must not turn it into a busy loop).
    const delay = this.#backoff && this.#backoff.untilMs > now ? this.#backoff.untilMs - now : this.#timers.pushIntervalMs;
    this.#pushTimer = setTimeout(() => {
      this.#pushTimer = null;
      this.#runPush();
    }, delay);
    this.#pushTimer.unref?.();
  }

  async #pushOnce(): Promise<void> {
    if (this.#isPaused() || this.#pushHeld()) return;
    this.#emit();
    const result = await this.#pusher.drain();
    this.#afterDrain(result);
  }

  #afterDrain(result: DrainResult): void {
    const now = this.#clock.now();
    if (result.reachedServer || result.halt) this.#lastContactAt = now;
    if (result.completed > 0) this.#lastPushAt = now;
    if (result.reachedServer) this.#markOnline();
    this.#pushPermissionProblems = result.permissionErrors;
    this.#refreshPermissionState();
    if (result.halt) {
      const error = result.halt.error;
      if (this.#online && error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout')) this.#failureToCheck = true;
      this.#handleFailure(error, 'push');
    } else {
      this.#errors.push = null; // a drain that ran to its end: whatever stopped an earlier one has passed
    }
  }

  #markOnline(): void {
    this.#lastContactAt = this.#clock.now();
    const wasOffline = !this.#online;
    this.#online = true;
    this.#everAnswered = true;
    this.#reachProblem = null;
    this.#transportFailures = 0;
    if (this.#backoff?.reason.startsWith('offline')) this.#backoff = null;
    // Back: what the outage made fail is not true any more (each kind clears again on its next success).
    if (wasOffline) this.#errors.push = this.#errors.pull = this.#errors.probe = null;
    if (this.#pullMissed) {
      // Reconnected: the pull that failed while offline runs now, not at its next interval.
      this.#pullMissed = false;
      setImmediate(() => this.#runPull());
    }
  }

  #refreshPermissionState(): void {
    const problems = [...this.#pushPermissionProblems, ...this.#puller.permissionProblems];
    if (problems.length > 0 && this.#credentials === 'ok') {
      this.#credentials = 'insufficient_permission';
    } else if (problems.length === 0 && this.#credentials === 'insufficient_permission') {
      this.#credentials = 'ok';
    }
    this.#errors.permission = problems[0] ?? null;
  }

  /** Turns a failure that stops sync for everything (not one operation) into status and a pause. */
  #handleFailure(error: unknown, source: ErrorSource): void {
    const now = this.#clock.now();
    if (!(error instanceof ApiError)) {
      this.#errors[source] = (error as Error).message;
      return;
    }
    this.#errors[source] = error.message;
    switch (error.kind) {
      case 'network':
      case 'timeout': {
        this.#online = false;
        this.#reachProblem = reachProblemOf(error, this.#everAnswered, this.#apiHost());
        this.#lastContactAt = now;
        this.#transportFailures += 1;
        const wait = Math.max(this.#tuning.offlineBackoff.baseMs / 2, fullJitterDelay(this.#transportFailures, this.#tuning.offlineBackoff, this.#random));
        this.#backoff = { untilMs: now + wait, reason: `offline: ${error.message}` };
        break;
      }
      case 'rate_limited': {
        const wait = nextRetryDelay(1, error.retryAfterMs, this.#tuning.offlineBackoff, this.#random);
        this.#backoff = { untilMs: now + wait, reason: `rate limited: ${error.message}` };
        break;
      }
      case 'authentication':
        this.#credentials = error.message.includes('no credentials') ? 'missing' : 'rejected';
        this.#logger.warn({ reason: error.message }, 'credentials refused: sync stopped until they are replaced');
        break;
      case 'permission':
        this.#credentials = 'insufficient_permission';
        break;
      default:
        break;
    }
  }

  // ---- pull ----

  #runPull(): void {
    if (this.#stopped || !this.#started || this.#pulling) return;
    if (this.#pullTimer) clearTimeout(this.#pullTimer);
    this.#pullTimer = null;
    this.#pulling = this.#pullOnce()
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status !== null) this.#markOnline();
        if (answersNotAsAnApi(error)) this.#reachProblem = { kind: 'not_an_api', host: this.#apiHost() };
        if (error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout')) {
          this.#pullMissed = true;
          // Going offline on this failure: check at once whether it was a blip.
          if (this.#online) this.#failureToCheck = true;
        }
        this.#handleFailure(error, 'pull');
        if (!(error instanceof ApiError)) this.#logger.error({ err: error }, 'pull failed unexpectedly');
      })
      .finally(() => {
        this.#pulling = null;
        this.#emit();
        if (this.#stopped) return;
        // A pull stopped by a rate limit runs again when the pause ends, not a whole interval later.
        const now = this.#clock.now();
        const paused = this.#errors.pull !== null && this.#backoff?.reason.startsWith('rate limited') && this.#backoff.untilMs > now ? this.#backoff.untilMs - now : null;
        this.#pullTimer = setTimeout(() => this.#runPull(), paused === null ? this.#timers.pullIntervalMs : Math.min(paused, this.#timers.pullIntervalMs));
        this.#pullTimer.unref?.();
        this.#scheduleProbe();
      });
  }

  async #pullOnce(): Promise<void> {
    if (this.#isPaused()) return;
    const now = this.#clock.now();
    const fullOrders = this.#lastFullPullAt === null || now - this.#lastFullPullAt >= this.#timers.fullPullIntervalMs;
    await this.#puller.reconcile({ locationId: this.#locationId, fullOrders });
    this.#markOnline();
    this.#errors.pull = null;
    for (const scope of this.#readProblemSince.keys()) if (!this.#puller.readProblems.has(scope)) this.#readProblemSince.delete(scope);
    for (const scope of this.#puller.readProblems.keys()) if (!this.#readProblemSince.has(scope)) this.#readProblemSince.set(scope, now);
    this.#lastPullAt = this.#clock.now();
    if (fullOrders) this.#lastFullPullAt = now;
    this.#refreshPermissionState();
    this.#store.outbox.pruneCompleted(this.#clock.now() - this.#timers.completedRetentionMs);
    // After a full pull (the cloud has confirmed what it holds), at most once a day: orders past
    // the retention that the cloud has and nothing here still needs (store/retention.ts).
    const retention = this.#tuning.pull.retentionMs;
    if (fullOrders && retention !== null && (this.#lastRetentionAt === null || now - this.#lastRetentionAt >= DAY_MS)) {
      this.#lastRetentionAt = now;
      const pruned = await this.#store.retention.prune(now - retention);
      if (pruned.deleted > 0) this.#logger.info(pruned, 'orders past the retention pruned');
    }
    // The server is reachable: anything waiting to be pushed can go now.
    if (this.#store.outbox.unfinishedCount() > 0) this.#runPush();
  }

  // ---- connectivity ----

  /** (Re)arms the probe timer from the current state; called whenever a push, pull or probe ends. */
  #scheduleProbe(): void {
    if (this.#probeTimer) clearTimeout(this.#probeTimer);
    this.#probeTimer = null;
    if (this.#stopped || !this.#started) return;
    const now = this.#clock.now();
    const backoff = this.#backoff && this.#backoff.untilMs > now ? this.#backoff : null;
    const due = nextProbeAt({
      now,
      timing: this.#timers.probe,
      lastContactAt: this.#lastContactAt,
      lastProbeAt: this.#lastProbeAt,
      failureToCheck: this.#failureToCheck,
      pause: backoff ? { untilMs: backoff.untilMs, reason: backoff.reason.startsWith('rate limited') ? 'rate_limited' : 'offline' } : null,
      credentialsUsable: this.#credentials !== 'rejected' && this.#credentials !== 'missing',
    });
    if (due === null) return;
    this.#probeTimer = setTimeout(() => {
      this.#probeTimer = null;
      this.#runProbe();
    }, Math.max(0, due - now));
    this.#probeTimer.unref?.();
  }

  #runProbe(): void {
    // Another request is out: its outcome says the same, and it reschedules the probe when it ends.
    if (this.#stopped || this.#probing || this.#pushing || this.#pulling) return;
    const checkingFailure = this.#failureToCheck;
    this.#failureToCheck = false;
    // Offline with work queued, the push timer's drain is the probe (and reschedules this one when
    // it ends): a second request at the same moment would tell nothing new.
    if (!checkingFailure && !this.#online && this.#store.outbox.unfinishedCount() > 0) return;
    this.#lastProbeAt = this.#clock.now();
    this.#probing = probeApi(this.#api, Math.min(this.#timers.probe.timeoutMs, this.#tuning.requestTimeoutMs))
      .then(() => {
        this.#markOnline();
        this.#errors.probe = null;
        this.#refreshPermissionState();
        // Back (or still) reachable: whatever waits goes now, not at the end of an old pause.
        if (this.#store.outbox.unfinishedCount() > 0) this.#runPush();
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status !== null) this.#markOnline();
        if (answersNotAsAnApi(error)) this.#reachProblem = { kind: 'not_an_api', host: this.#apiHost() };
        this.#handleFailure(error, 'probe');
      })
      .finally(() => {
        this.#probing = null;
        this.#emit();
        this.#scheduleProbe();
      });
  }
}

/**
 * A transport failure that points at the configuration rather than an outage: a name that does
 * not exist (a network down fails with EAI_AGAIN or a timeout instead), or a refusal from a
 * server that has not answered once since sync started.
 */
/** The kinds of work whose last failure the status tells, each until its next success. */
type ErrorSource = 'push' | 'pull' | 'probe' | 'permission';

function reachProblemOf(error: ApiError, everAnswered: boolean, host: string): ReachProblem | null {
  if (error.transportCode === 'ENOTFOUND') return { kind: 'dns_not_found', host };
  if (error.transportCode === 'ECONNREFUSED' && !everAnswered) return { kind: 'refused', host };
  return null;
}

/** Every /v1 lists /locations and answers JSON: a 404/405 there, or a body that is not a list, is some other server. */
function answersNotAsAnApi(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status === null) return false;
  if ((error.status === 404 || error.status === 405) && error.code === null) return true;
  return error.kind === 'server' && error.status >= 200 && error.status < 300 && error.message.includes('/locations');
}
