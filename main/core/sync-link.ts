// What the cashier sees of sync, whatever moves the outbox. With the sync engine running, its
// status is forwarded; without one (no credentials yet, or an engine that failed to start) the
// indicator still tells the truth from the local outbox: how much waits and since when.
import { formatMoney } from '../../bridge/money';
import { WAITING_LISTED_MAX, type DeadLetter, type RepricedOrder, type SyncStatusView, type WaitingChange } from '../../bridge/contract';
import type { Clock } from '../../common/clock';
import type { DeadLetter as StoreDeadLetter, DeadLetterRefusal, EntityKind, OrderDoc, OutboxOperation, RepricedOrder as StoreRepricedOrder, Store } from '../../store/index';
import type { WaitingOperation } from '../../store/outbox';
import type { ReachProblem, SyncStatus } from '../../sync/status';
import { StoreError } from '../../store/index';
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

/** How screens name an order: its number, else the end of its id (as main/core/views.ts labels it). */
export function orderLabel(order: { id: string; number: string | null }): string {
  return order.number ?? `#${order.id.slice(-4).toUpperCase()}`;
}

/**
 * One change made here (refused, or waiting to be sent), in the words a cashier uses; with the
 * label of the order it concerns when known ("Card payment of $45.95 for order A12").
 */
export function describeOperation(op: OutboxOperation, currency: string, label: string | null = null): string {
  const payload = op.payload as Record<string, unknown>;
  const amount = typeof payload.amount === 'number' ? formatMoney(payload.amount, currency) : '';
  const named = label === null ? '' : ` ${label}`;
  const forOrder = label === null ? '' : ` for order ${label}`;
  switch (op.kind) {
    case 'order.create': {
      const items = Array.isArray(payload.items) ? payload.items.length : 0;
      const customer = (payload.customer as { name?: string } | undefined)?.name;
      return `New order${named}${customer ? ` for ${customer}` : ''} (${items} ${items === 1 ? 'line' : 'lines'})`;
    }
    case 'order.update':
      return label === null ? 'Change to an order' : `Change to order ${label}`;
    case 'order.fulfil':
      return `Order${named} marked fulfilled`;
    case 'order.cancel':
      return `Order${named} cancelled`;
    case 'payment_intent.create':
      return `Card payment of ${amount}${forOrder}`;
    case 'payment_intent.capture':
      return `Card payment capture${forOrder}`;
    case 'refund.create':
      return `Refund of ${amount}${forOrder}`;
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

/** What the cashier calls each kind of entity. */
const THING: Record<EntityKind, string> = {
  order: 'order',
  payment_intent: 'card payment',
  payment: 'payment',
  refund: 'refund',
  menu_item: 'menu item',
  category: 'menu category',
  modifier: 'modifier',
  location: 'location',
};

/**
 * Why a change was refused and what to do next, in one sentence a cashier can act on. Built from
 * the refusal's data (what kind, HTTP status, error code) and the kind of change, never from the
 * server's message, which stays available as the letter's detail.
 */
export function plainRefusal(refusal: DeadLetterRefusal | null, operation: OutboxOperation): string {
  const thing = THING[operation.entityKind];
  switch (refusal?.cause) {
    case 'dependency':
      return 'Not sent, because an earlier change it depends on was refused. Sort that one out first, then retry this one.';
    case 'permission':
      return "This terminal's cloud account is not allowed to make this change. Ask a manager to check the account's permissions, then retry.";
    case 'not_found':
      return `The cloud no longer has this ${thing}; it may have been removed on another device. Discard this change, or ask a manager.`;
    case 'unresolved_reference':
      return `This change refers to something that never reached the cloud. Retry once that has synced, or discard this change.`;
    case 'conflict':
      return `Another terminal changed the same items of this ${thing} at the same time; this till's version stays on screen, marked refused. Retry to send yours on those items (their other changes stay), or discard yours to take theirs.`;
    case 'unrecordable':
      return 'The cloud accepted this change, but this terminal could not save its answer. Ask a manager before retrying: it may already be done.';
    case 'invalid':
      if (refusal.status === 409) return `This ${thing} was changed elsewhere at the same time. Check it, then retry or discard this change.`;
      if (operation.kind === 'payment_intent.create' || operation.kind === 'payment_intent.capture') {
        return 'The cloud did not accept this card payment. Take the payment again (another card or cash), then discard this one.';
      }
      if (operation.kind === 'refund.create') return 'The cloud refused this refund. Check what is left to refund on the payment, then discard this one.';
      return `The cloud did not accept the details of this ${thing}. Check them and make the change again, then discard this one.`;
    case undefined:
      return 'The cloud refused this change. Ask a manager to look at the details.';
  }
}

/** System codes of a call that got no answer (sync/api-client.ts names them), in words. */
const UNANSWERED: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'the server name was not found',
  EAI_AGAIN: 'the server name could not be looked up',
  EHOSTUNREACH: 'no route to the server',
  ENETUNREACH: 'no network',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  ECONNRESET: 'the connection was cut',
  EPIPE: 'the connection was cut',
  UND_ERR_SOCKET: 'the connection was cut',
};

type Failure = { kind: 'unreachable' | 'sign_in' | 'permission' | 'busy' | 'cloud' | 'refused' | 'other'; words: string };

/**
 * What a try ran into, from the sync engine's text ("POST /v1/orders failed: ECONNREFUSED",
 * "POST /v1/orders → 503 service_unavailable: …", "… timed out"): its kind and one sentence.
 */
function failureOf(raw: string): Failure {
  const code = /\b(E[A-Z]+|UND_ERR_[A-Z_]+)\b/.exec(raw)?.[1];
  const unanswered = code === undefined ? undefined : UNANSWERED[code];
  if (unanswered) return { kind: 'unreachable', words: `The cloud could not be reached (${unanswered}).` };
  if (/\btimed out\b/i.test(raw)) return { kind: 'unreachable', words: 'The cloud did not answer in time.' };
  const status = Number(/→ (\d{3})\b/.exec(raw)?.[1] ?? 0);
  if (status === 401) return { kind: 'sign_in', words: 'The cloud did not accept this terminal’s sign-in.' };
  if (status === 403) return { kind: 'permission', words: 'This terminal’s cloud account may not make this change.' };
  if (status === 429) return { kind: 'busy', words: 'The cloud asked the terminal to slow down.' };
  if (status >= 500) return { kind: 'cloud', words: 'The cloud had a problem of its own.' };
  if (status >= 400) return { kind: 'refused', words: 'The cloud did not accept it.' };
  if (/fetch failed|socket|network/i.test(raw)) return { kind: 'unreachable', words: 'The cloud could not be reached.' };
  return { kind: 'other', words: 'The last try did not go through.' };
}

/** What the last try of a waiting change ran into, in one sentence; the engine's text stays its detail. */
export function syncFailureWords(raw: string): string {
  const { words } = failureOf(raw);
  // The request may have reached the cloud: it is not sent twice (sync/push.ts looks first).
  return /^ambiguous since /.test(raw) ? `${words} The terminal checks whether the cloud has it before sending it again.` : words;
}

/** The sync panel's "Last problem": what happened and what happens next, in the cashier's words. */
export function lastProblemText(raw: string, online: boolean): string {
  const failure = failureOf(raw);
  if (!online || failure.kind === 'unreachable') return 'The cloud cannot be reached. Sales go on: changes wait on this terminal and are sent when it answers.';
  switch (failure.kind) {
    case 'sign_in':
      return 'The cloud did not accept this terminal’s sign-in. Ask the owner to check the credentials in Settings.';
    case 'permission':
      return 'This terminal’s cloud account may not read or make some changes. Ask the owner to check the account’s permissions.';
    case 'busy':
    case 'cloud':
      return `${failure.words} The terminal tries again by itself.`;
    default:
      return 'The last attempt to sync did not go through. The terminal tries again by itself.';
  }
}

/** A change waiting to be sent, for the sync panel: what it is, since when, how its tries went. */
export function waitingChangeView({ operation, order }: WaitingOperation, currency: string): WaitingChange {
  return {
    id: operation.opId,
    description: describeOperation(operation, currency, order === null ? null : orderLabel(order)),
    since: new Date(operation.createdAt).toISOString(),
    sending: operation.state === 'in_flight',
    attempts: operation.attempts,
    problem: operation.lastError === null ? null : syncFailureWords(operation.lastError),
    detail: operation.lastError,
  };
}

/** The configured server's problem in the cashier's words: what is wrong and who can fix it. */
export function serverProblemMessage(problem: ReachProblem): string {
  switch (problem.kind) {
    case 'dns_not_found':
      return `The server name ${problem.host} does not exist (DNS). Check the API address in Settings.`;
    case 'refused':
      return `Cannot reach the configured server: ${problem.host} refuses connections. Check the API address in Settings.`;
    case 'not_an_api':
      return `${problem.host} answers, but it is not the POS cloud's /v1 API. Check the API address in Settings.`;
  }
}

const READ_SCOPES: Record<string, string> = {
  locations: 'The store details from the cloud could not be read.',
  'menu categories': 'The menu from the cloud could not be read.',
  'menu items': 'The menu from the cloud could not be read.',
  orders: 'The orders from the cloud could not be read.',
};

export function readProblemMessage(scope: string): string {
  return READ_SCOPES[scope] ?? `Data from the cloud (${scope}) could not be read.`;
}

/** An event's resource, as "order ord_123". */
function resourceOf(payload: unknown): string {
  const data = (payload as { data?: { type?: unknown; id?: unknown } } | null)?.data;
  return typeof data?.type === 'string' && typeof data.id === 'string' ? `${data.type.replace('_', ' ')} ${data.id}` : 'unknown';
}

export function deadLetterView(letter: StoreDeadLetter, currency: string): DeadLetter {
  const { refusal } = letter;
  const stated = [refusal?.status != null ? `HTTP ${refusal.status}` : null, refusal?.code ?? null].filter((part) => part !== null).join(' ');
  return {
    id: String(letter.id),
    description: describeOperation(letter.operation, currency),
    reason: plainRefusal(refusal, letter.operation),
    detail: stated === '' ? letter.reason : `${stated}: ${letter.reason}`,
    failedAt: new Date(letter.deadAt).toISOString(),
  };
}

/** A repriced order for the sync panel: which order, both totals and what to do, in the cashier's words. */
export function repricedOrderView(entry: StoreRepricedOrder, order: OrderDoc | undefined): RepricedOrder {
  const money = (amount: number) => formatMoney(amount, entry.currency);
  const lines = order?.lines.length ?? 0;
  const customer = order?.customer?.name;
  const gap = entry.serverTotal - entry.tillTotal;
  return {
    id: entry.orderId,
    description: `Order${customer ? ` for ${customer}` : ''}${order ? ` (${lines} ${lines === 1 ? 'line' : 'lines'})` : ''}`,
    message:
      `The cloud priced this order at ${money(entry.serverTotal)}, the till at ${money(entry.tillTotal)} ` +
      `(${money(Math.abs(gap))} ${gap > 0 ? 'more' : 'less'}): a menu price changed before the order was sent. ` +
      `Settle the difference with the customer if they have paid, then mark it settled.`,
    placedAt: order ? new Date(order.created_at).toISOString() : null,
    detectedAt: new Date(entry.detectedAt).toISOString(),
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
  #storeProblem: string | null = null;
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

  /** The store's background integrity check found damage: shown on the sync status until a restart. */
  reportStoreProblem(message: string): void {
    this.#storeProblem = message;
    this.changed();
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
    // Read once: the location's currency is a settings and a store read.
    const currency = this.currency();
    const deadLetters = this.store.outbox.listDeadLetters().map((letter) => deadLetterView(letter, currency));
    const repricedOrders = this.store.repricedOrders.listUnsettled().map((entry) => repricedOrderView(entry, this.store.cashier.getOrder(entry.orderId)));
    const engine = this.#engine?.status();
    const iso = (ms: number) => new Date(ms).toISOString();
    const base = {
      pending: stats.pending + stats.inFlight,
      oldestPendingAgeMs: stats.oldestPendingAgeMs,
      waiting: this.store.outbox.waiting(WAITING_LISTED_MAX).map((waiting) => waitingChangeView(waiting, currency)),
      deadLetters,
      repricedOrders,
      storeProblem: this.#storeProblem,
      unappliedEvents: this.store.server.unappliedWebhookEvents().map((event) => ({
        id: event.eventId,
        type: event.type,
        resource: resourceOf(event.payload),
        reason: event.reason,
        receivedAt: iso(event.receivedAt),
      })),
    };
    if (!engine) {
      // Said in words already: nothing of the engine's to put behind "details".
      const notConnected = this.credentials() === 'none' ? 'Not connected: add an API key or connect with OAuth in Settings.' : null;
      return {
        ...base,
        online: false,
        lastPushAt: null,
        lastPullAt: null,
        retryInMs: null,
        credentials: this.credentials(),
        lastProblem: notConnected,
        lastError: notConnected,
        engineRunning: false,
        serverProblem: null,
        readProblems: [],
        initialSyncDone: false,
        orderProgress: null,
      };
    }
    const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
    return {
      ...base,
      online: engine.online,
      lastPushAt: isoOrNull(engine.lastPushAt),
      lastPullAt: isoOrNull(engine.lastPullAt),
      retryInMs: engine.backoff ? Math.max(0, engine.backoff.untilMs - now) : null,
      credentials: CREDENTIALS_FROM_ENGINE[engine.credentials] ?? this.credentials(),
      lastProblem: engine.lastError === null ? null : lastProblemText(engine.lastError, engine.online),
      lastError: engine.lastError,
      engineRunning: true,
      serverProblem: engine.reachProblem && { kind: engine.reachProblem.kind, message: serverProblemMessage(engine.reachProblem) },
      readProblems: engine.readProblems.map((problem) => ({ message: readProblemMessage(problem.scope), detail: problem.detail, since: iso(problem.since) })),
      initialSyncDone: engine.initialSyncDone,
      orderProgress: engine.orderProgress,
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

  /** A manager has settled a repriced order's difference with the customer: it leaves the list, and the audit log says who. */
  settleRepricedOrder(orderId: string, actor: string): void {
    this.store.transaction(() => {
      let settled: StoreRepricedOrder;
      try {
        settled = this.store.repricedOrders.settle(orderId, actor, this.clock.now());
      } catch (error) {
        if (error instanceof StoreError && error.code === 'not_found') throw new CoreError('not_found', 'That order is no longer listed as repriced. Open the sync panel again.');
        throw error;
      }
      this.store.cashier.recordAudit(actor, 'order.repricing_settled', { till_total: settled.tillTotal, server_total: settled.serverTotal }, { kind: 'order', id: orderId });
    });
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
