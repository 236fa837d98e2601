// Applying webhook events. Every validly signed event is recorded in the inbox by its id (a
// duplicate changes nothing) and applied on a savepoint of the same transaction. The spec's
// sender retries three times and gives up, so an event is never refused for its data: one that
// names a resource the terminal cannot write from the event alone (partial attributes, an order
// not known yet, two versions claiming one instant, a record the store refuses) is kept in the
// inbox, acknowledged, and settled by fetching the resource from the API; if that fails too it
// stays kept and the sync panel shows it. Events of one resource may arrive out of order: a
// record older than what we hold is ignored (orders compare updated_at with the base copy; menu
// items and payments keep the updated_at last applied per resource). Echoes of the terminal's own
// pushes land on the local entity through the metadata we sent.
import { z } from 'zod';
import { clientListEnvelopeSchema, clientMenuItemFieldsSchema, clientMenuItemSchema, clientOrderSchema, clientPaymentSchema, type ClientMenuItem, type ClientOrder } from '../api/client-records';
import type { Clock } from '../common/clock';
import { systemClock } from '../common/clock';
import type { Logger } from '../common/log';
import { silentLogger } from '../common/log';
import type { Store } from '../store/index';
import { ApiClient } from './api-client';
import { ApiError } from './api-error';
import type { CredentialsProvider } from './credentials';
import { hasMorePages } from './pages';
import { cardPaymentRecord, claimOwnOrders, menuItemRecord, modifierRecords, orderRecord, paymentIntentRecord, refundRecord } from './server-records';
import { startWebhookReceiverServer, type ReceivedEvent, type SinkOutcome, type WebhookEventSink, type WebhookReceiver } from './webhook-receiver';

const MenuItemAttributes = clientMenuItemFieldsSchema.extend({ deleted: z.boolean().optional(), low_stock_threshold: z.int().nullish() });

/** Resource kinds a kept event can be settled for by reading the API. */
type FetchableKind = 'order' | 'menu_item';

/** Thrown while applying: the event alone cannot be written; the resource must be read from the API. */
class NeedsFetch extends Error {
  constructor(
    readonly kind: FetchableKind,
    readonly resourceId: string,
    why: string,
  ) {
    super(`${why}: waiting for the server's copy`);
  }
}

/** Menu pages read at most while looking for items (/v1 has no GET of a menu item by id). */
const MAX_MENU_PAGES = 50;

export interface WebhookApplierOptions {
  store: Store;
  /** Reads the resource of an event that cannot be applied on its own; without it the event stays kept until a pull. */
  api?: ApiClient;
  clock?: Clock;
  logger?: Logger;
  /** Told the types of the events each commit applied (not duplicates, not failures): screens refresh at once. */
  onApplied?: (eventTypes: readonly string[]) => void;
  /**
   * The till's location (read per event), as the pull is limited to it: an order event of another
   * location is acknowledged and recorded, never applied. null or absent: every location's.
   */
  locationId?: string | null | (() => string | null);
}

/** Records and applies verified events; the receiver's sink. */
export class WebhookApplier implements WebhookEventSink {
  readonly #store: Store;
  readonly #api: ApiClient | undefined;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #onApplied: (eventTypes: readonly string[]) => void;
  readonly #locationId: () => string | null;
  /** Resources to read, `kind:id` → the kept events each read settles. */
  readonly #toFetch = new Map<string, QueuedFetch>();
  #fetching: Promise<void> | null = null;

  constructor(options: WebhookApplierOptions) {
    this.#store = options.store;
    this.#api = options.api;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? silentLogger;
    this.#onApplied = options.onApplied ?? (() => undefined);
    const locationId = options.locationId ?? null;
    this.#locationId = typeof locationId === 'function' ? locationId : () => locationId;
  }

  /** An order of another location than the till's: the pull does not bring it, nor may an event. */
  #elsewhere(order: ClientOrder): boolean {
    const ours = this.#locationId();
    return ours !== null && order.location_id !== undefined && order.location_id !== ours;
  }

  acceptMany(events: readonly ReceivedEvent[]): SinkOutcome[] {
    const receivedAt = this.#clock.now();
    const outcomes = this.#store.transaction(() =>
      events.map((event): SinkOutcome => {
        try {
          // The parsed event is the body as sent (the receiver's schema keeps every field).
          const outcome = this.#store.server.recordWebhookEvent({ eventId: event.id, type: event.type, payload: event, receivedAt }, () => this.#apply(event));
          if (typeof outcome === 'string') return outcome;
          this.#keep(event);
          return 'kept';
        } catch (error) {
          return { error }; // not recorded: only then may the sender be asked to deliver it again
        }
      }),
    );
    const applied = events.filter((_, i) => outcomes[i] === 'applied').map((event) => event.type);
    if (applied.length > 0) this.#onApplied(applied);
    if (this.#toFetch.size > 0) this.#fetchQueued();
    return outcomes;
  }

  /** Retries the fetches of events kept earlier (after a restart, or when the API is back). */
  retryKept(): void {
    for (const kept of this.#store.server.unappliedWebhookEvents()) {
      const parsed = KeptEvent.safeParse(kept.payload);
      if (parsed.success) this.#keep(parsed.data);
    }
    if (this.#toFetch.size > 0) this.#fetchQueued();
  }

  /** Resolves once the resources queued for a fetch have been read (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#fetching) await this.#fetching;
  }

  #keep(event: KeptEvent): void {
    const kind: FetchableKind | null = event.data.type === 'order' ? 'order' : event.data.type === 'menu_item' ? 'menu_item' : null;
    if (kind === null) return; // nothing to read it from: it stays kept and shown
    const key = `${kind}:${event.data.id}`;
    const queued = this.#toFetch.get(key) ?? { kind, id: event.data.id, events: new Map<string, string>() };
    queued.events.set(event.id, event.type);
    this.#toFetch.set(key, queued);
  }

  #apply(event: ReceivedEvent): void {
    if (event.test === true) return; // sample data with made-up ids
    switch (event.data.type) {
      case 'order':
        this.#applyOrder(event);
        return;
      case 'menu_item':
        this.#applyMenuItem(event);
        return;
      case 'payment':
        this.#applyPayment(event);
        return;
      default:
        // A resource type this terminal does not know (a newer API): acknowledged, not applied.
        this.#logger.info({ type: event.type }, 'webhook event of an unknown resource type ignored');
    }
  }

  #applyOrder(event: ReceivedEvent): void {
    const parsed = clientOrderSchema.safeParse({ id: event.data.id, ...event.data.attributes });
    if (!parsed.success) throw new NeedsFetch('order', event.data.id, `the event's order could not be read (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const order = parsed.data;
    if (this.#elsewhere(order)) {
      this.#logger.info({ eventId: event.id, orderId: order.id }, "webhook event for another location's order: recorded, not applied");
      return;
    }
    claimOwnOrders(this.#store, [order]);
    const localId = this.#store.localIdFor('order', order.id);
    const base = localId === undefined ? undefined : this.#store.server.readBase('order', localId);
    if (base === undefined) {
      // An order first seen here must be whole: the spec's event lines name no menu item.
      if (order.status === undefined || order.items === undefined || order.items.some((line) => line.menu_item_id === undefined)) {
        throw new NeedsFetch('order', order.id, 'an order this terminal does not know, with only part of it in the event');
      }
      this.#writeOrder(order, event);
      return;
    }
    const incoming = order.updated_at === undefined ? Number.NaN : Date.parse(order.updated_at);
    if (Number.isNaN(incoming)) throw new NeedsFetch('order', order.id, 'an order event without a version'); // which is newer? ask the server
    if (incoming < base.updated_at) return; // an older version arriving late
    if (incoming === base.updated_at) {
      const record = orderRecord(order);
      const same = (record.status === undefined || record.status === base.status) && (record.total === undefined || record.total === base.total);
      if (!same) throw new NeedsFetch('order', order.id, 'two versions of the order at one instant'); // the server decides
      return;
    }
    this.#writeOrder(order, event);
  }

  /** `event`: the event it came from; without one it is the server's copy, read just now. */
  #writeOrder(order: ClientOrder, event?: ReceivedEvent): void {
    this.#store.server.applyServerRecord('order', orderRecord(order));
    // A newer state of the order: what earlier events of it could not apply is superseded.
    const createdAt = event?.created_at === undefined ? undefined : Date.parse(event.created_at);
    if (event !== undefined && createdAt === undefined) return; // no time to compare with: the kept ones wait for their read
    this.#store.server.settleSupersededEvents('order', [order.id], this.#clock.now(), createdAt);
  }

  /** The version (updated_at, ms) last applied for a resource that has no updated_at locally. */
  #appliedVersion(scope: string): number | null {
    return this.#store.server.getCursor(scope)?.highWaterMark ?? null;
  }

  #applyMenuItem(event: ReceivedEvent): void {
    const parsed = MenuItemAttributes.safeParse({ id: event.data.id, ...event.data.attributes });
    if (!parsed.success) throw new NeedsFetch('menu_item', event.data.id, `the event's menu item could not be read (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const item = parsed.data;
    const scope = menuItemVersionScope(item.id);
    const version = item.updated_at === undefined ? null : Date.parse(item.updated_at);
    const applied = this.#appliedVersion(scope);
    const lowStockEvent = event.type === 'inventory.low_stock';
    if (version !== null && applied !== null && (version < applied || (version === applied && !lowStockEvent))) return;
    if (item.deleted === true) {
      this.#store.server.removeServerRecord('menu_item', item.id);
    } else {
      const record = this.#writeMenuItem(item);
      if (lowStockEvent) this.#store.server.applyServerRecord('menu_item', { ...record, low_stock: true });
    }
    if (version !== null) this.#store.server.setCursor(scope, { highWaterMark: version }, this.#clock.now());
  }

  #writeMenuItem(item: ClientMenuItem): ReturnType<typeof menuItemRecord> {
    for (const modifier of modifierRecords(item)) this.#store.server.applyServerRecord('modifier', modifier);
    const record = menuItemRecord(item);
    this.#store.server.applyServerRecord('menu_item', record);
    return record;
  }

  #applyPayment(event: ReceivedEvent): void {
    const parsed = clientPaymentSchema.safeParse({ id: event.data.id, ...event.data.attributes });
    if (!parsed.success) {
      // /v1 cannot read a payment back (no GET): the terminal knows its own from their replies,
      // and another channel's payment changes nothing on this till. Acknowledged, not applied.
      this.#logger.info({ eventId: event.id }, 'payment event without a readable payment: nothing to apply');
      return;
    }
    const payment = parsed.data;
    const scope = `webhook:payment:${payment.id}`;
    const version = payment.updated_at === undefined ? null : Date.parse(payment.updated_at);
    const applied = this.#appliedVersion(scope);
    if (version !== null && applied !== null && version <= applied) return;
    // The order must be known before a payment can point at it; otherwise the next pull brings both.
    if (payment.order_id === undefined || this.#store.localIdFor('order', payment.order_id) === undefined) return;
    this.#store.server.applyServerRecord('payment_intent', paymentIntentRecord(payment));
    const card = cardPaymentRecord(payment);
    if (card) {
      this.#store.server.applyServerRecord('payment', { ...card, payment_intent_id: payment.id });
      for (const refund of payment.refunds ?? []) {
        this.#store.server.applyServerRecord('refund', refundRecord({ ...refund, currency: refund.currency ?? payment.currency }, payment.id));
      }
    }
    if (version !== null) this.#store.server.setCursor(scope, { highWaterMark: version }, this.#clock.now());
  }

  /** Reads the resources of kept events, one at a time, after the answer went out; settles the events. */
  #fetchQueued(): void {
    if (this.#fetching || !this.#api) return;
    const api = this.#api;
    this.#fetching = (async () => {
      while (this.#toFetch.size > 0) {
        // One order at a time (GET by id); every menu item queued so far in one read of the menu list.
        const [first] = this.#toFetch.values() as IterableIterator<QueuedFetch>;
        const batch = first!.kind === 'order' ? [first!] : [...this.#toFetch.values()].filter((queued) => queued.kind === 'menu_item');
        for (const queued of batch) this.#toFetch.delete(`${queued.kind}:${queued.id}`);
        const events = batch.flatMap((queued) => [...queued.events]);
        try {
          if (first!.kind === 'order') await this.#fetchOrder(api, first!.id);
          else await this.#fetchMenuItems(api, new Set(batch.map((queued) => queued.id)));
          this.#store.transaction(() => {
            for (const [eventId] of events) this.#store.server.settleWebhookEvent(eventId);
          });
          this.#onApplied(events.map(([, type]) => type));
        } catch (error) {
          // Kept and shown; retried at the next start or the next event for it. A webhook must not retry forever.
          const what = batch.map((queued) => `${queued.kind.replace('_', ' ')} ${queued.id}`).join(', ');
          const reason = `could not read ${what} from the server: ${error instanceof Error ? error.message : String(error)}`;
          this.#logger.warn({ resources: what, err: error instanceof ApiError ? error.message : error }, 'could not fetch a resource named by a webhook');
          this.#store.transaction(() => {
            for (const [eventId] of events) this.#store.server.noteWebhookEventError(eventId, reason);
          });
        }
      }
    })().finally(() => {
      this.#fetching = null;
    });
  }

  async #fetchOrder(api: ApiClient, id: string): Promise<void> {
    try {
      const { data } = await api.call({ method: 'GET', path: `/orders/${encodeURIComponent(id)}`, schema: clientOrderSchema });
      if (this.#elsewhere(data)) return; // the event named only the order: it is another location's
      this.#store.transaction(() => {
        claimOwnOrders(this.#store, [data]);
        this.#writeOrder(data);
      });
    } catch (error) {
      if (!(error instanceof ApiError && error.kind === 'not_found')) throw error;
      this.#store.server.removeServerRecord('order', id); // gone on the server: nothing left to apply
    }
  }

  /** /v1 reads menu items only as a list: one pass through it finds them all (absent: deleted). */
  async #fetchMenuItems(api: ApiClient, ids: Set<string>): Promise<void> {
    const pageSchema = clientListEnvelopeSchema(clientMenuItemSchema);
    const missing = new Set(ids);
    for (let page = 1; missing.size > 0; page++) {
      if (page > MAX_MENU_PAGES) throw new Error(`not found in the first ${MAX_MENU_PAGES} pages of the menu`);
      const { data } = await api.call({ method: 'GET', path: '/menu/items', query: { per_page: 100, page }, schema: pageSchema });
      const found = data.data.filter((candidate) => missing.delete(candidate.id));
      if (found.length > 0) this.#store.transaction(() => found.forEach((item) => this.#writeMenuItem(item)));
      if (!hasMorePages(data, page)) break;
    }
    // Read to the end and not listed: deleted on the server.
    for (const id of missing) this.#store.server.removeServerRecord('menu_item', id);
  }
}

/** What a kept event needs to be fetched again: its id, type and resource. */
const KeptEvent = z.looseObject({ id: z.string(), type: z.string(), data: z.looseObject({ id: z.string(), type: z.string() }) });
type KeptEvent = z.infer<typeof KeptEvent>;

interface QueuedFetch {
  kind: FetchableKind;
  id: string;
  /** The kept events this read settles: event id → event type. */
  events: Map<string, string>;
}

/** Where the applied version of a menu item is kept (pulls write it too). */
export function menuItemVersionScope(serverId: string): string {
  return `webhook:menu_item:${serverId}`;
}

export interface StartWebhookReceiverOptions {
  store: Store;
  /** Signing secrets in use (several during a rotation), or a function read on each delivery. */
  secrets: readonly string[] | (() => readonly string[]);
  /** Loopback by default; see docs/sync.md for exposing it. */
  host?: string;
  port?: number;
  path?: string;
  /** Lets the receiver read the resource of an event it cannot apply on its own; without it such events stay kept. */
  api?: { baseUrl: string; credentials: CredentialsProvider };
  /** Told the types of the events each commit applied (not duplicates, not failures): screens refresh at once. */
  onApplied?: (eventTypes: readonly string[]) => void;
  /** The till's location: order events of another location are recorded, not applied (WebhookApplierOptions). */
  locationId?: WebhookApplierOptions['locationId'];
  toleranceSec?: number;
  maxBodyBytes?: number;
  clock?: Clock;
  logger?: Logger;
}

export interface RunningWebhookReceiver extends WebhookReceiver {
  applier: WebhookApplier;
}

export async function startWebhookReceiver(options: StartWebhookReceiverOptions): Promise<RunningWebhookReceiver> {
  const api = options.api ? new ApiClient({ baseUrl: options.api.baseUrl, credentials: options.api.credentials, clock: options.clock, logger: options.logger }) : undefined;
  const applier = new WebhookApplier({ store: options.store, api, clock: options.clock, logger: options.logger, onApplied: options.onApplied, locationId: options.locationId });
  const secrets = options.secrets;
  applier.retryKept();
  const receiver = await startWebhookReceiverServer({
    host: options.host,
    port: options.port,
    path: options.path,
    secrets: typeof secrets === 'function' ? secrets : () => secrets,
    sink: applier,
    toleranceSec: options.toleranceSec,
    maxBodyBytes: options.maxBodyBytes,
    clock: options.clock,
    logger: options.logger,
  });
  return {
    ...receiver,
    applier,
    close: async () => {
      await receiver.close();
      await applier.settled();
      await api?.close();
    },
  };
}
