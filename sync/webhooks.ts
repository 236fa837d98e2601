// Applying webhook events. Each event is recorded in the inbox by its id and applied in the same
// transaction, so a duplicate changes nothing. Events of one resource may arrive out of order:
// a record older than what we hold is ignored (orders compare updated_at with the base copy;
// menu items and payments keep the updated_at last applied per resource), and when two versions
// claim the same instant but differ, the order is fetched from the API instead of guessing.
// Echoes of the terminal's own pushes land on the local entity through the metadata we sent.
import { z } from 'zod';
import { clientMenuItemSchema, clientOrderSchema, clientPaymentSchema, type ClientOrder } from '../api/client-records';
import type { Clock } from '../common/clock';
import { systemClock } from '../common/clock';
import type { Logger } from '../common/log';
import { silentLogger } from '../common/log';
import type { Store } from '../store/index';
import { ApiClient } from './api-client';
import { ApiError } from './api-error';
import type { CredentialsProvider } from './credentials';
import { cardPaymentRecord, claimOwnOrders, menuItemRecord, modifierRecords, orderRecord, paymentIntentRecord } from './server-records';
import { startWebhookReceiverServer, type ReceivedEvent, type SinkOutcome, type WebhookEventSink, type WebhookReceiver } from './webhook-receiver';

const MenuItemAttributes = clientMenuItemSchema.extend({ deleted: z.boolean().optional(), low_stock_threshold: z.int().nullish() });

export interface WebhookApplierOptions {
  store: Store;
  /** Used to fetch an order when two versions of it disagree at the same updated_at. */
  api?: ApiClient;
  clock?: Clock;
  logger?: Logger;
}

/** Records and applies verified events; the receiver's sink. */
export class WebhookApplier implements WebhookEventSink {
  readonly #store: Store;
  readonly #api: ApiClient | undefined;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #toFetch = new Set<string>();
  #fetching: Promise<void> | null = null;

  constructor(options: WebhookApplierOptions) {
    this.#store = options.store;
    this.#api = options.api;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? silentLogger;
  }

  acceptMany(events: readonly ReceivedEvent[]): SinkOutcome[] {
    const receivedAt = this.#clock.now();
    const outcomes = this.#store.transaction(() =>
      events.map((event): SinkOutcome => {
        try {
          // Its own savepoint: if applying fails, this event leaves no trace and the others stay.
          // The parsed event is the body as sent (the receiver's schema keeps every field).
          return this.#store.server.recordWebhookEvent({ eventId: event.id, type: event.type, payload: event, receivedAt }, () => this.#apply(event));
        } catch (error) {
          return { error };
        }
      }),
    );
    if (this.#toFetch.size > 0) this.#fetchDoubtful();
    return outcomes;
  }

  /** Resolves once the orders queued for a fetch have been fetched (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#fetching) await this.#fetching;
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
    if (!parsed.success) {
      this.#logger.warn({ eventId: event.id }, 'order event without a readable order: fetching it');
      this.#toFetch.add(event.data.id);
      return;
    }
    const order = parsed.data;
    claimOwnOrders(this.#store, [order]);
    const localId = this.#store.localIdFor('order', order.id);
    const base = localId === undefined ? undefined : this.#store.server.readBase('order', localId);
    if (base === undefined) {
      this.#writeOrder(order);
      return;
    }
    const incoming = order.updated_at === undefined ? Number.NaN : Date.parse(order.updated_at);
    if (Number.isNaN(incoming)) {
      this.#toFetch.add(order.id); // cannot tell which is newer: ask the server
      return;
    }
    if (incoming < base.updated_at) return; // an older version arriving late
    if (incoming === base.updated_at) {
      const record = orderRecord(order);
      const same = record.status === base.status && (record.total === undefined || record.total === base.total);
      if (!same) this.#toFetch.add(order.id); // two versions, one instant: the server decides
      return;
    }
    this.#writeOrder(order);
  }

  #writeOrder(order: ClientOrder): void {
    this.#store.server.applyServerRecord('order', orderRecord(order));
  }

  /** The version (updated_at, ms) last applied for a resource that has no updated_at locally. */
  #appliedVersion(scope: string): number | null {
    return this.#store.server.getCursor(scope)?.highWaterMark ?? null;
  }

  #applyMenuItem(event: ReceivedEvent): void {
    const parsed = MenuItemAttributes.safeParse({ id: event.data.id, ...event.data.attributes });
    if (!parsed.success) {
      this.#logger.warn({ eventId: event.id }, 'menu item event without a readable item: ignored until the next pull');
      return;
    }
    const item = parsed.data;
    const scope = menuItemVersionScope(item.id);
    const version = item.updated_at === undefined ? null : Date.parse(item.updated_at);
    const applied = this.#appliedVersion(scope);
    const lowStockEvent = event.type === 'inventory.low_stock';
    if (version !== null && applied !== null && (version < applied || (version === applied && !lowStockEvent))) return;
    if (item.deleted === true) {
      this.#store.server.removeServerRecord('menu_item', item.id);
    } else {
      for (const modifier of modifierRecords(item)) this.#store.server.applyServerRecord('modifier', modifier);
      const record = menuItemRecord(item);
      this.#store.server.applyServerRecord('menu_item', lowStockEvent ? { ...record, low_stock: true } : record);
    }
    if (version !== null) this.#store.server.setCursor(scope, { highWaterMark: version }, this.#clock.now());
  }

  #applyPayment(event: ReceivedEvent): void {
    const parsed = clientPaymentSchema.safeParse({ id: event.data.id, ...event.data.attributes });
    if (!parsed.success) {
      this.#logger.warn({ eventId: event.id }, 'payment event without a readable payment: ignored');
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
        this.#store.server.applyServerRecord('refund', {
          id: refund.id,
          payment_id: payment.id,
          amount: refund.amount,
          currency: refund.currency ?? payment.currency ?? 'usd',
          reason: refund.reason ?? 'requested_by_customer',
          status: refund.status ?? 'succeeded',
          created_at: refund.created_at === undefined ? this.#clock.now() : Date.parse(refund.created_at),
        });
      }
    }
    if (version !== null) this.#store.server.setCursor(scope, { highWaterMark: version }, this.#clock.now());
  }

  /** Fetches the orders whose events were in doubt, one batch at a time, after the answer went out. */
  #fetchDoubtful(): void {
    if (this.#fetching || !this.#api) return;
    const api = this.#api;
    this.#fetching = (async () => {
      while (this.#toFetch.size > 0) {
        const [id] = this.#toFetch;
        this.#toFetch.delete(id as string);
        try {
          const { data } = await api.call({ method: 'GET', path: `/orders/${encodeURIComponent(id as string)}`, schema: clientOrderSchema });
          claimOwnOrders(this.#store, [data]);
          this.#writeOrder(data);
        } catch (error) {
          // The next pull reconciles it; a webhook must not retry forever.
          this.#logger.warn({ err: error instanceof ApiError ? error.message : error, orderId: id }, 'could not fetch an order named by a webhook');
        }
      }
    })().finally(() => {
      this.#fetching = null;
    });
  }
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
  /** Lets the receiver fetch an order when two versions disagree; without it the next pull settles it. */
  api?: { baseUrl: string; credentials: CredentialsProvider };
  /** Told the types of the events each commit applied (not duplicates, not failures): screens refresh at once. */
  onApplied?: (eventTypes: readonly string[]) => void;
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
  const applier = new WebhookApplier({ store: options.store, api, clock: options.clock, logger: options.logger });
  const secrets = options.secrets;
  const { onApplied } = options;
  const sink: WebhookEventSink = onApplied
    ? {
        acceptMany: (events) => {
          const outcomes = applier.acceptMany(events);
          onApplied(events.filter((_, i) => outcomes[i] === 'applied').map((event) => event.type));
          return outcomes;
        },
      }
    : applier;
  const receiver = await startWebhookReceiverServer({
    host: options.host,
    port: options.port,
    path: options.path,
    secrets: typeof secrets === 'function' ? secrets : () => secrets,
    sink,
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
