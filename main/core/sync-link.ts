// What the cashier sees of sync, whatever moves the outbox. With the sync engine running, its
// status is forwarded; without one (no credentials yet, or an engine that failed to start) the
// indicator still tells the truth from the local outbox: how much waits and since when.
import { formatMoney } from '../../bridge/money';
import type { DeadLetter, SyncStatusView } from '../../bridge/contract';
import type { Clock } from '../../common/clock';
import type { DeadLetter as StoreDeadLetter, OutboxOperation, Store } from '../../store/index';
import type { SyncStatus } from '../../sync/status';
import { CoreError } from './errors';

/** The sync engine as the core uses it (sync/engine.ts createSyncEngine). */
export interface SyncEngineLike {
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
  status(): SyncStatus;
  isOnline(): boolean;
  onStatus(listener: (status: SyncStatus) => void): () => void;
  syncNow(): unknown;
  notifyLocalWrite(): void;
  retryDeadLetter(id: string): unknown;
  discardDeadLetter(id: string): unknown;
}

export type CredentialKind = SyncStatusView['credentials'];

/** One refused change, in the words a cashier uses. */
export function describeOperation(op: OutboxOperation, currency: string): string {
  const payload = op.payload as Record<string, unknown>;
  const amount = typeof payload.amount === 'number' ? formatMoney(payload.amount, currency) : '';
  switch (op.kind) {
    case 'order.create': {
      const items = Array.isArray(payload.items) ? payload.items.length : 0;
      const customer = (payload.customer as { name?: string } | undefined)?.name;
      return `New order${customer ? ` for ${customer}` : ''} (${items} ${items === 1 ? 'line' : 'lines'})`;
    }
    case 'order.update':
      return 'Change to an order';
    case 'order.fulfil':
      return 'Order marked fulfilled';
    case 'order.cancel':
      return 'Order cancelled';
    case 'payment_intent.create':
      return `Card payment of ${amount}`;
    case 'payment_intent.capture':
      return 'Card payment capture';
    case 'refund.create':
      return `Refund of ${amount}`;
    case 'menu_item.create':
      return `New menu item “${String(payload.name ?? '')}”`;
    case 'menu_item.update':
      return 'available' in payload && Object.keys(payload).length === 1
        ? `Menu item ${payload.available ? 'back on' : "86'd"}`
        : 'Change to a menu item';
    case 'menu_item.delete':
      return 'Menu item deleted';
    case 'location.update':
      return 'Change to the location details';
  }
}

export function deadLetterView(letter: StoreDeadLetter, currency: string): DeadLetter {
  return {
    id: String(letter.id),
    description: describeOperation(letter.operation, currency),
    reason: letter.reason,
    failedAt: new Date(letter.deadAt).toISOString(),
  };
}

function deadLetterId(id: string): number {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) throw new CoreError('not_found', 'That refused change is no longer listed. Open the sync panel again.');
  return n;
}

const CREDENTIALS_FROM_ENGINE: Record<SyncStatus['credentials'], CredentialKind | null> = {
  ok: null, // the configured kind: api_key or oauth
  missing: 'none',
  rejected: 'rejected',
  insufficient_permission: 'rejected',
};

export class SyncLink {
  #engine: SyncEngineLike | null = null;
  #offEngine: (() => void) | null = null;
  readonly #listeners = new Set<() => void>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly currency: () => string,
    private readonly credentials: () => CredentialKind,
  ) {}

  /** Swaps the engine (settings changed, signed out); null runs on the outbox alone. */
  async attach(engine: SyncEngineLike | null): Promise<void> {
    const previous = this.#engine;
    this.#offEngine?.();
    this.#offEngine = null;
    this.#engine = engine;
    if (previous) await previous.stop();
    if (engine) {
      this.#offEngine = engine.onStatus(() => this.changed());
      await engine.start();
    }
    this.changed();
  }

  get engine(): SyncEngineLike | null {
    return this.#engine;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  changed(): void {
    for (const listener of this.#listeners) listener();
  }

  /** The engine's online state this moment (its probe keeps it current while idle); no engine: offline. */
  isOnline(): boolean {
    return this.#engine?.isOnline() ?? false;
  }

  status(): SyncStatusView {
    const now = this.clock.now();
    const stats = this.store.outbox.outboxStats(now);
    const deadLetters = this.store.outbox.listDeadLetters().map((letter) => deadLetterView(letter, this.currency()));
    const engine = this.#engine?.status();
    const base = {
      pending: stats.pending + stats.inFlight,
      oldestPendingAgeMs: stats.oldestPendingAgeMs,
      deadLetters,
    };
    if (!engine) {
      return {
        ...base,
        online: false,
        lastPushAt: null,
        lastPullAt: null,
        retryInMs: null,
        credentials: this.credentials(),
        lastError: this.credentials() === 'none' ? 'Not connected: add an API key or connect with OAuth in Settings.' : null,
        engineRunning: false,
      };
    }
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      ...base,
      online: engine.online,
      lastPushAt: iso(engine.lastPushAt),
      lastPullAt: iso(engine.lastPullAt),
      retryInMs: engine.backoff ? Math.max(0, engine.backoff.untilMs - now) : null,
      credentials: CREDENTIALS_FROM_ENGINE[engine.credentials] ?? this.credentials(),
      lastError: engine.lastError,
      engineRunning: true,
    };
  }

  notifyLocalWrite(): void {
    this.#engine?.notifyLocalWrite();
    this.changed();
  }

  async syncNow(): Promise<void> {
    if (!this.#engine) throw new CoreError('unavailable', 'This terminal is not connected to an account yet. Add an API key or connect with OAuth in Settings.');
    // Starts a round and answers at once: progress arrives as status events, nobody waits on the network.
    this.#engine.syncNow();
  }

  async retryDeadLetter(id: string): Promise<void> {
    const n = deadLetterId(id);
    this.#requireDeadLetter(n);
    if (this.#engine) await this.#engine.retryDeadLetter(String(n));
    else this.store.outbox.retryDeadLetter(n, this.clock.now());
    this.changed();
  }

  async discardDeadLetter(id: string): Promise<void> {
    const n = deadLetterId(id);
    this.#requireDeadLetter(n);
    if (this.#engine) await this.#engine.discardDeadLetter(String(n));
    else this.store.outbox.discardDeadLetter(n);
    this.changed();
  }

  #requireDeadLetter(id: number): void {
    if (!this.store.outbox.listDeadLetters().some((letter) => letter.id === id)) {
      throw new CoreError('not_found', 'That refused change is no longer listed. Open the sync panel again.');
    }
  }

  async stop(): Promise<void> {
    await this.attach(null);
  }
}
