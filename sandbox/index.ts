// The sandbox's programmatic API: `startSandbox()` runs a complete local /v1 (API listener) and
// its dashboard (second listener, hosting the OAuth consent page and the controls).
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { buildOpenApiDocument } from '../api/openapi';
import { OffsetClock, type Clock } from '../common/clock';
import { silentLogger, type Logger } from '../common/log';
import { createApiHandler } from './api-server';
import { SandboxCore, type SandboxSettingsView, type SandboxUrls } from './core';
import { createDashboardHandler, DASHBOARD_API_PREFIX } from './dashboard';
import { FaultController, type FaultPatch, type FaultSettings } from './faults';
import { IdempotencyStore } from './idempotency';
import { OAuthService } from './oauth';
import type { Profile, RecordShape } from './profiles';
import type { QuirkPatch } from './quirks';
import { DEFAULT_RATE_LIMIT, RateLimiter } from './rate-limit';
import { createWebhookEndpoint, listDeliveries } from './resources/webhooks';
import { bootstrap, locationIds, seedDemo, type SeededCredentials, type TaxesOption } from './seed';
import { openStore, type Db } from './storage';
import { WebhookDispatcher } from './webhook-dispatcher';
import type { EventType } from '../api/enums';
import type { WebhookDelivery, WebhookEndpoint } from '../api/events';

export type { SeededCredentials, TaxesOption } from './seed';
export type { FaultSettings, FaultPatch } from './faults';
export type { SandboxUrls, SandboxSettingsView } from './core';
export type { Profile, RecordShape } from './profiles';
export { ALL_QUIRKS, NO_QUIRKS, type QuirkPatch, type QuirkSettings } from './quirks';

export interface SandboxOptions {
  /** API listener port; 0 (default) picks a free one. */
  port?: number;
  /** Dashboard listener port; 0 (default) picks a free one. */
  dashboardPort?: number;
  host?: string;
  /** SQLite file; in-memory when absent. Data in a file survives a restart. */
  dbFile?: string;
  seed?: 'demo' | 'none';
  /**
   * The demo locations' tax rates (docs/sandbox.md, "Checkout fields"): 'demo' gives each location
   * sales tax (one VAT-style), 'none' (the default) none. Used when the demo data is seeded.
   */
  taxes?: TaxesOption;
  /** Defaults to the system clock with an offset the dashboard can advance. */
  clock?: Clock;
  logger?: Logger;
  /** Webhook attempt timeout; the spec's 30 s by default. */
  webhookTimeoutMs?: number;
  /** How often due webhook retries are looked for between wake-ups. */
  webhookPollMs?: number;
  /** What replies and events carry (docs/sandbox.md, "Profiles"); 'default' when absent. */
  profile?: Profile;
  /** 'jsonapi' wraps every record as { id, type, attributes }; 'flat' when absent. */
  recordShape?: RecordShape;
  /** Hold a write's reply until its events' first delivery attempts; the profile's default when absent. */
  eventsBeforeReply?: boolean;
  /** Quirks to start with (sandbox/quirks.ts, docs/sandbox.md "Quirks"); all off when absent. */
  quirks?: QuirkPatch;
}

export interface FaultControl {
  get(): FaultSettings;
  set(patch: FaultPatch): Promise<FaultSettings>;
  reset(): Promise<FaultSettings>;
}

export interface Sandbox extends SandboxUrls {
  credentials: SeededCredentials;
  faults: FaultControl;
  clock: Clock;
  /** The sandbox's own database, for tests that look behind the API. */
  db: Db;
  countOrders(): Promise<number>;
  /** Moves the sandbox clock; due webhook retries run at once. */
  advanceClock(ms: number): void;
  createWebhookEndpoint(input: { url: string; event_types: readonly EventType[] }): Promise<WebhookEndpoint>;
  listDeliveries(filter?: { endpointId?: string; status?: string }): Promise<WebhookDelivery[]>;
  retryDelivery(id: string): Promise<'queued' | 'not_found' | 'not_failed'>;
  /** Resolves when no webhook attempt is running and none is due. */
  webhooksIdle(): Promise<void>;
  settings(): SandboxSettingsView;
  updateSettings(patch: Omit<Partial<SandboxSettingsView>, 'quirks'> & { quirks?: QuirkPatch }): SandboxSettingsView;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Tracks open sockets so an outage or close() can destroy them at once. */
function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return sockets;
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    for (const socket of sockets) socket.destroy();
  });
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? new OffsetClock();
  const logger = options.logger ?? silentLogger;
  const { db, sqlite } = await openStore(options.dbFile);
  const seeded = await bootstrap(db, clock);
  const taxes = options.taxes ?? 'none';
  if (options.seed === 'demo') await seedDemo(db, clock, { taxes });

  const faults = new FaultController();
  const rateLimiter = new RateLimiter(clock, DEFAULT_RATE_LIMIT);
  const idempotency = new IdempotencyStore(db, clock);
  const dispatcher = new WebhookDispatcher(db, clock, logger, {
    timeoutMs: options.webhookTimeoutMs ?? 30_000,
    pollMs: options.webhookPollMs ?? 250,
    maxInFlight: 16,
  });
  const core = new SandboxCore(db, clock, faults, dispatcher, rateLimiter, idempotency, { ...seeded, locationIds: await locationIds(db) }, taxes);
  core.updateSettings({ profile: options.profile, record_shape: options.recordShape, events_before_reply: options.eventsBeforeReply, quirks: options.quirks });
  const oauth = new OAuthService(db, clock);

  let openapi: Record<string, unknown> | undefined;
  const apiServer = createServer(
    { keepAliveTimeout: 5000 },
    createApiHandler({
      db,
      clock,
      logger,
      faults,
      rateLimiter,
      idempotency,
      dispatcher,
      mode: () => core.mode(),
      openapi: () => (openapi ??= buildOpenApiDocument({ baseUrl: core.urls.baseUrl, apiHost: core.urls.apiHost })),
      oauthToken: (req, res, raw) => oauth.token(req, res, raw),
    }),
  );
  const dashboardServer = createServer(createDashboardHandler(core, oauth, logger));
  const apiSockets = trackSockets(apiServer);
  const dashboardSockets = trackSockets(dashboardServer);

  const apiPort = await listen(apiServer, options.port ?? 0, host);
  const dashboardPort = await listen(dashboardServer, options.dashboardPort ?? 0, host);
  const apiHost = `http://${urlHost(host)}:${apiPort}`;
  const authUrl = `http://${urlHost(host)}:${dashboardPort}`;
  core.urls = { baseUrl: `${apiHost}/v1`, apiHost, authUrl, dashboardUrl: `${authUrl}/_dashboard`, dashboardApiUrl: `${authUrl}${DASHBOARD_API_PREFIX}` };

  // An outage closes the API listener (connections are refused) and drops open connections.
  faults.onOutageChange(async (outage) => {
    if (outage) await closeServer(apiServer, apiSockets);
    else await listen(apiServer, apiPort, host);
  });
  dispatcher.start();
  logger.info({ baseUrl: core.urls.baseUrl, authUrl }, 'sandbox ready');

  let closed = false;
  return {
    get baseUrl() {
      return core.urls.baseUrl;
    },
    get apiHost() {
      return core.urls.apiHost;
    },
    get authUrl() {
      return core.urls.authUrl;
    },
    get dashboardUrl() {
      return core.urls.dashboardUrl;
    },
    get dashboardApiUrl() {
      return core.urls.dashboardApiUrl;
    },
    get credentials() {
      return core.credentials;
    },
    faults: { get: () => faults.get(), set: (patch) => faults.set(patch), reset: () => faults.reset() },
    clock,
    db,
    async countOrders() {
      const { count } = await db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      return Number(count);
    },
    advanceClock: (ms) => core.advanceClock(ms),
    createWebhookEndpoint: (input) => createWebhookEndpoint(db, clock, input),
    listDeliveries: (filter) => listDeliveries(db, filter),
    retryDelivery: (id) => dispatcher.retry(id),
    webhooksIdle: () => dispatcher.idle(),
    settings: () => core.settings(),
    updateSettings: (patch) => core.updateSettings(patch),
    async close() {
      if (closed) return;
      closed = true;
      await dispatcher.close();
      await Promise.all([closeServer(apiServer, apiSockets), closeServer(dashboardServer, dashboardSockets)]);
      await db.destroy();
      if (sqlite.open) sqlite.close();
    },
  };
}
