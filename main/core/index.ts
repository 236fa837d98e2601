// The core: cashier use cases on the local store and the sync engine, behind the bridge contract.
// Both shells (Electron IPC, browser-mode HTTP) host it through the same two calls.
import { closeSync, fsyncSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { lossAtStake, type PendingLoss, type SettingsView, type SyncStatusView } from '../../bridge/contract';
import type { BridgeEvent, BridgeHost, BridgeRequest, BridgeResponse } from '../../bridge/protocol';
import { systemClock, type Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { createLogger, type Logger } from '../../common/log';
import { openStore, type Store } from '../../store/index';
import { checkCredential, type CredentialCheck } from '../../sync/connectivity';
import { ApiKeyCredentials, type CredentialsProvider } from '../../sync/credentials';
import { createSyncEngine } from '../../sync/engine';
import { OAUTH_SECRET_NAMES, OAuthCredentials, runDesktopOAuthFlow } from '../../sync/oauth';
import { FileSecretStore, type SecretStore } from '../../sync/secret-store';
import type { TerminalConfig } from '../config/schema';
import { trimYoungGenerationWhenQuiet } from '../diagnostics/young-generation';
import { PrintLink } from './print-link';
import { Cashier } from './cashier';
import { businessDayAt } from '../../bridge/business-day';
import { createInvoker, type Handlers, type Prepare } from './dispatch';
import { CoreError } from './errors';
import { EventHub } from './events';
import { pendingLoss } from './pending-loss';
import { TerminalSettings } from './settings';
import { SyncLink, type CredentialKind, type SyncEngineLike } from './sync-link';
import { WebhookLink } from './webhooks';
import { StaffDesk } from './staff/desk';
import { TablesDesk } from './tables/desk';
import { tableHandlers } from './tables/handlers';
import { startStoreLink, type StoreLink } from './store-link';
import { PairingDesk } from './store-mode/pairing';
import { readStoreSecret, StoreSecretMissingError } from './store-mode/store-secret';
import { storeModeHandlers } from './store-mode/handlers';
import { kitchenHandlers, kitchenRoleGate } from './kitchen/handlers';
import { STORE_MODE_READS } from '../../bridge/store-mode/contract';
import { DayReports } from './staff/reports';
import { zReportCsv } from './staff/report-csv';
import { zReportDoc } from './staff/report-doc';
import { ShiftDesk } from './staff/shifts';
import type { CommandName } from '../../bridge/contract';

export { CoreError } from './errors';
export type { SyncEngineLike } from './sync-link';

export interface Core extends BridgeHost {
  /** Outbox not empty → block quit, sign-out and update. */
  pendingOperations(): number;
  /** Finishes the in-flight command, stops sync, closes the store. */
  shutdown(): Promise<void>;
}

export interface CoreDeps {
  secretStore?: SecretStore;
  logger?: Logger;
  clock?: Clock;
  /** Opens the OAuth consent page in the system browser (Electron: shell.openExternal). Browser mode lets the page open it. */
  openExternal?: (url: string) => void | Promise<void>;
  /** Builds the sync engine; tests pass tuned timers. Default: sync/engine with the configured API. */
  createEngine?: (options: Parameters<typeof createSyncEngine>[0]) => SyncEngineLike;
  /** Store mode's waits; tests shorten them. */
  storeModeTiming?: { quietBeforeAdoptionMs?: number; catchUpBeforePushMs?: number };
}

/** The scopes a till needs (spec: Scopes). */
const OAUTH_SCOPES = ['read_orders', 'write_orders', 'read_menu', 'write_menu', 'read_payments', 'read_locations'];
const STATUS_REFRESH_MS = 5_000;
const OAUTH_CANCELLED_BY_RESET = 'The OAuth sign-in was cancelled: the terminal was reset while it waited. Connect again if you still need it.';
const STORE_LOST_MESSAGE = 'The reset could not finish. Close the terminal and open it again.';

/** What the lock screen needs: answered when no one is signed in (docs/staff.md). */
const PUBLIC_COMMANDS: ReadonlySet<CommandName> = new Set([
  'staff.session', 'staff.signIn', 'staff.setupOwner', 'staff.liftLockout', 'staff.lock', 'staff.activity',
  'sync.status', 'printing.status', 'settings.get', 'location.get', 'menu.snapshot',
  // The sync panel's store part, as sync.status: which tills are heard (no orders, no secrets).
  'storeMode.status',
]);
/** Reads the screens make on their own (polls, refreshes after events): they do not keep the auto-lock away. */
const PASSIVE_COMMANDS: ReadonlySet<CommandName> = new Set([
  'menu.snapshot', 'menu.search', 'orders.list', 'orders.get', 'printing.status', 'printing.preview', 'location.get', 'location.list',
  'shift.summary', 'shift.current', 'settings.get', 'credentials.oauthStatus', 'sync.status', 'session.pending', 'staff.session',
  'staff.list', 'staff.roster', 'reports.days', 'reports.z', 'reports.storeZ',
  ...STORE_MODE_READS,
]);

function maskSecret(value: string): string {
  const prefix = /^(sk_(?:test|live)_|at_live_)/.exec(value)?.[1] ?? '';
  return `${prefix}…${value.slice(-4)}`;
}

/** What a running terminal holds on its store; a reset stops one and opens a fresh one. */
interface Session {
  store: Store;
  invoke(request: BridgeRequest): Promise<BridgeResponse>;
  syncStatus(): SyncStatusView;
  settingsView(): SettingsView;
  /** Stops sync and closes the store; answers how many changes it kept for next time. */
  stop(): Promise<number>;
}

/** Everything the sessions of one core share: configuration, secrets, the renderers' event stream. */
interface CoreContext {
  config: TerminalConfig;
  deps: CoreDeps;
  logger: Logger;
  clock: Clock;
  secrets: SecretStore;
  events: EventHub;
  /** Runs the reset (the session's handler has checked the PIN and what would be lost). */
  reset(loss: PendingLoss): Promise<SettingsView>;
}

export async function startCore(config: TerminalConfig, deps: CoreDeps = {}): Promise<Core> {
  const logger = deps.logger ?? createLogger({ name: 'core' });
  const clock = deps.clock ?? systemClock;
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const storeFile = join(config.dataDir, 'terminal.db');
  const secrets = deps.secretStore ?? new FileSecretStore(join(config.dataDir, 'secrets.json'));
  const events = new EventHub();

  const context: CoreContext = {
    config,
    deps,
    logger,
    clock,
    secrets,
    events,
    async reset(loss) {
      storeState = 'swapping';
      try {
        const view = await swapSession(loss);
        storeState = 'open';
        return view;
      } catch (error) {
        // The old session is stopped and maybe deleted; nothing may touch it any more.
        storeState = 'lost';
        logger.error({ err: error }, 'terminal reset could not open a fresh store');
        throw new CoreError('unavailable', STORE_LOST_MESSAGE);
      }
    },
  };

  /** Between closing the old store and opening the new one nothing may read a store; after a failed reset, none is open. */
  let storeState: 'open' | 'swapping' | 'lost' = 'open';
  async function swapSession(loss: PendingLoss): Promise<SettingsView> {
    await session.stop();
    // Credentials first: a crash part way leaves the orders on disk without a key, never a wiped
    // store still signed in to the account.
    await secrets.setMany({
      [config.credentials.apiKeyRef]: null,
      [OAUTH_SECRET_NAMES.accessToken]: null,
      [OAUTH_SECRET_NAMES.refreshToken]: null,
      [OAUTH_SECRET_NAMES.expiresAt]: null,
      [config.webhook.signingSecretRef]: null,
    });
    deleteStoreFiles(storeFile);
    logger.warn({ pending: loss.pending, deadLetters: loss.deadLetters }, 'terminal reset: local store and credentials removed');
    session = await openSession(storeFile, context);
    events.emit('terminal.reset', {});
    events.emit('settings.changed', session.settingsView());
    events.emit('menu.changed', {});
    events.emit('orders.changed', { ids: [] });
    events.emit('sync.status', session.syncStatus());
    return session.settingsView();
  }
  let session = await openSession(storeFile, context);

  // The "oldest pending" age on every renderer moves even when nothing else happens.
  const ticker = setInterval(() => {
    if (storeState === 'open') events.emit('sync.status', session.syncStatus());
  }, STATUS_REFRESH_MS);
  ticker.unref();

  let closing = false;
  let keptAtShutdown: number | null = null;
  const inFlight = new Set<Promise<BridgeResponse>>();
  // Start-up grew V8's young generation to its largest: given back once no command runs (docs/store-mode-memory.md).
  let lastCommandAt = performance.now();
  const trim = trimYoungGenerationWhenQuiet(() => (inFlight.size > 0 ? 0 : performance.now() - lastCommandAt), logger);
  /** A reset under way: every other command waits for the fresh store (none runs on the old one). */
  let resetting: Promise<BridgeResponse> | null = null;

  async function run(request: BridgeRequest): Promise<BridgeResponse> {
    while (resetting) await resetting;
    if (storeState === 'lost') return { ok: false, error: { code: 'unavailable', message: STORE_LOST_MESSAGE } };
    if (request.command === 'terminal.reset') {
      // Alone: the commands already running finish on the old store first.
      const others = [...inFlight];
      const current = (async () => {
        await Promise.allSettled(others);
        return session.invoke(request);
      })();
      resetting = current;
      try {
        return await current;
      } finally {
        resetting = null;
      }
    }
    return session.invoke(request);
  }

  return {
    invoke(request: BridgeRequest): Promise<BridgeResponse> {
      if (closing) {
        return Promise.resolve({ ok: false, error: { code: 'unavailable', message: 'The terminal is closing. Open it again to continue.' } });
      }
      const running = run(request).finally(() => {
        inFlight.delete(running);
        lastCommandAt = performance.now();
      });
      inFlight.add(running);
      return running;
    },
    subscribe(listener: (event: BridgeEvent) => void) {
      return events.subscribe(listener);
    },
    pendingOperations() {
      // After shutdown: what the closed store kept (the goodbye line says it).
      if (keptAtShutdown !== null) return keptAtShutdown;
      // Mid-reset the old changes are being deleted on request and the new store is not open yet.
      return storeState === 'open' ? session.store.outbox.unfinishedCount() : 0;
    },
    async shutdown() {
      if (closing) return;
      closing = true;
      clearInterval(ticker);
      trim.stop();
      await Promise.allSettled([...inFlight]);
      if (storeState === 'open') keptAtShutdown = await session.stop();
    },
  };
}

/**
 * Removes a closed store's files. The WAL and shared-memory files go first: a stale WAL left next
 * to a new database of the same name could be replayed into it. Then the database, then the
 * folder entry is made durable, so a crash cannot bring the old data back.
 */
function deleteStoreFiles(file: string): void {
  for (const path of [`${file}-wal`, `${file}-shm`, `${file}-journal`, file]) rmSync(path, { force: true });
  const folder = openSync(dirname(file), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}

/** Opens the store and builds a session on it; a failure part way closes the store again. */
async function openSession(storeFile: string, context: CoreContext): Promise<Session> {
  const store = openStore(storeFile, { clock: context.clock, currency: context.config.currency, storeMode: context.config.storeMode.mode === 'on' });
  try {
    return await buildSession(store, context);
  } catch (error) {
    store.close();
    throw error;
  }
}

/** Everything on one open store: settings, sync, cashier, webhooks, the command table. */
async function buildSession(store: Store, context: CoreContext): Promise<Session> {
  const { config, deps, logger, clock, secrets, events } = context;
  const settings = new TerminalSettings(store, config);

  let credentialKind: CredentialKind = 'none';
  let credentialHint = '';
  async function refreshCredentials(): Promise<void> {
    const chosen = settings.effective().credentials;
    const apiKey = await secrets.get(config.credentials.apiKeyRef);
    const accessToken = await secrets.get(OAUTH_SECRET_NAMES.accessToken);
    if (chosen === 'api_key' && apiKey) [credentialKind, credentialHint] = ['api_key', maskSecret(apiKey)];
    else if (chosen === 'oauth' && accessToken) [credentialKind, credentialHint] = ['oauth', maskSecret(accessToken)];
    else [credentialKind, credentialHint] = ['none', ''];
  }
  await refreshCredentials();

  // Kept in memory for the receiver, which reads it on every delivery.
  let webhookSecret = await secrets.get(config.webhook.signingSecretRef);

  const cashierRef: { current: Cashier | null } = { current: null };
  const sync = new SyncLink(store, clock, () => cashierRef.current?.currency() ?? 'usd', () => credentialKind);
  // Open checked only what the register reads at start (store/integrity.ts): the whole file is
  // checked now, off the till's thread. Damage is shown, never repaired: the file stays as it is.
  void store.verifyIntegrity().then(
    (report) => {
      if (report.status !== 'corrupt') return;
      logger.error({ problems: report.problems.slice(0, 3) }, 'the store failed its integrity check');
      sync.reportStoreProblem("This terminal's database is damaged. Keep selling only if you must, and call IT: what is not in the cloud yet may be lost. IT: see docs/it.md, \"A damaged store\".");
    },
    (error: unknown) => logger.warn({ err: error }, 'the store integrity check could not run'),
  );
  const printing = new PrintLink(
    store,
    config.printing,
    () => settings.effective().autoReceipt,
    (menuItemId) => cashierRef.current?.categoryOf(menuItemId) ?? null,
    clock,
    (status) => events.emit('printing.status', status),
    logger,
    () => ({ percents: settings.effective().checkout.tipPercents, basis: settings.effective().checkout.tipBasis }),
  );
  printing.start();
  const staff = new StaffDesk(store, config, () => settings.effective(), clock, events);
  staff.keepLegacyManagerPin(settings.overrides().managerPinHash, () => settings.update({ managerPinHash: undefined }, 'system'));
  const today = () => cashierRef.current?.today() ?? '';
  const shifts = new ShiftDesk(store, staff, () => settings.effective().drawerMode, () => settings.effective().checkout.tillLetter, today, () => cashierRef.current?.currency() ?? 'usd', clock, events);
  const cashier = new Cashier(store, settings, sync, events, clock, printing, staff, shifts);
  cashierRef.current = cashier;
  const tables = new TablesDesk({
    store,
    staff,
    clock,
    openOrders: () => cashier.listOrders({ status: 'open', limit: 500 }),
    businessDayStart: () => businessDayAt(clock.now(), cashier.location()?.timezone ?? '').startedAt,
    printBill: (orderId) => cashier.reprintReceipt(orderId),
    billShows: (order) => cashier.lastBillShows(order),
    changed: () => events.emit('floor.changed', {}),
    coursesChanged: () => events.emit('courses.changed', {}),
  });
  if (config.floor) tables.provision(config.floor);
  if (config.floor?.courses) tables.provisionCourses(config.floor.courses);
  /** Store mode's link, started last: a session that fails to build leaves nothing listening. */
  let storeLink: StoreLink | null = null;
  /** Store mode is on, but this till has no store secret yet: it sells alone until a manager pairs it. */
  let awaitingPairing = false;
  let storeSecretText: string | null = null;
  const pairing = new PairingDesk({
    store, staff, clock, logger, secrets,
    storeMode: config.storeMode,
    inStore: () => (storeLink === null || storeSecretText === null ? null : { tillName: storeLink.status().tillName, storeSecret: storeSecretText }),
    startStoreMode: (storeSecret) => startStoreMode(storeSecret),
    changed: () => events.emit('storeMode.replicated', {}),
    joinsByCodeAlone: config.role === 'kitchen',
  });
  const reports = new DayReports(
    store,
    cashier,
    staff,
    shifts,
    () => ({ location: cashier.locationDetails().name, till: settings.effective().checkout.tillLetter, currency: cashier.currency(), today: cashier.today() }),
    clock,
  );

  async function oauthClientSecret(): Promise<string | null> {
    return secrets.get(config.credentials.oauthClientSecretRef);
  }

  /** What sync is using now; the webhook receiver asks through it when an event is in doubt. */
  let syncCredentials: CredentialsProvider | null = null;
  const currentCredentials: CredentialsProvider = {
    bearer: async () => (syncCredentials ? syncCredentials.bearer() : null),
    handleRejected: async (rejected) => (syncCredentials ? syncCredentials.handleRejected(rejected) : false),
  };

  /** (Re)starts sync with the current settings and credentials; none without both. */
  async function restartSync(): Promise<void> {
    const s = settings.effective();
    if (s.apiBaseUrl === '' || credentialKind === 'none') {
      syncCredentials = null;
      await sync.attach(null);
      return;
    }
    const clientSecret = (await oauthClientSecret()) ?? '';
    const credentials =
      credentialKind === 'oauth'
        ? new OAuthCredentials({ authUrl: s.authUrl, apiHost: s.apiHost, clientId: config.credentials.oauthClientId, clientSecret, secrets, clock, logger })
        : new ApiKeyCredentials(() => secrets.get(config.credentials.apiKeyRef));
    syncCredentials = credentials;
    // Orders past the retention are neither pulled again nor kept (store/retention.ts); 0 keeps every one.
    const retentionMs = config.store.retentionDays === 0 ? null : config.store.retentionDays * 24 * 60 * 60_000;
    // Store mode: a till back from away first learns which of its orders another till took over (store-link.ts).
    const pushHeld = config.storeMode.mode === 'on' ? () => (storeLink === null ? !awaitingPairing : storeLink.holdsPush()) : undefined;
    const options = { store, baseUrl: s.apiBaseUrl, credentials, locationId: s.locationId || null, clock, logger, tuning: { pull: { retentionMs } }, ...(pushHeld ? { pushHeld } : {}) };
    await sync.attach(deps.createEngine ? deps.createEngine(options) : createSyncEngine(options));
  }

  const webhooks = new WebhookLink(
    store,
    () => webhookSecret,
    currentCredentials,
    (types) => {
      if (types.some((type) => type.startsWith('menu.') || type.startsWith('inventory.'))) cashier.menuChanged();
      if (types.some((type) => type.startsWith('order.') || type.startsWith('payment.'))) events.emit('orders.changed', { ids: [] });
    },
    () => settings.effective().locationId || null,
    clock,
    logger,
  );

  // Status to every renderer on each change.
  let lastPullAt: number | null = null;
  let lastMenuPullAt: number | null = null;
  let lastOutbox = '';
  sync.onChange(() => {
    const status = sync.status();
    const engineStatus = sync.engine?.status();
    const pulled = engineStatus !== undefined && engineStatus.lastPullAt !== lastPullAt;
    // The menu is pulled before the orders: a fresh till sells from it while its history comes.
    const menuPulled = engineStatus !== undefined && engineStatus.menuPulledAt !== lastMenuPullAt;
    if (pulled || menuPulled) {
      lastPullAt = engineStatus!.lastPullAt;
      lastMenuPullAt = engineStatus!.menuPulledAt;
      cashier.menuChanged();
    }
    // The order list shows each order's sync state: it refetches on the same change that moves the
    // indicator, before the indicator hears of it, instead of waiting for the next pull.
    const outbox = `${status.pending}:${status.deadLetters.length}`;
    if (pulled || outbox !== lastOutbox) {
      lastOutbox = outbox;
      events.emit('orders.changed', { ids: [] });
    }
    events.emit('sync.status', status);
  });
  function settingsView(): SettingsView {
    const s = settings.effective();
    return {
      apiBaseUrl: s.apiBaseUrl,
      apiHost: s.apiHost,
      authUrl: s.authUrl,
      locationId: s.locationId || (cashier.location()?.id ?? ''),
      credentials: { kind: credentialKind === 'rejected' ? 'none' : credentialKind, hint: credentialHint },
      webhook: { ...s.webhook, url: webhooks.url, secretSet: webhookSecret !== null },
      offlineLimits: s.offlineLimits,
      confirmChargeAbove: s.confirmChargeAbove,
      autoReceipt: s.autoReceipt,
      checkout: s.checkout,
      taxRules: s.taxRules,
      pricing: cashier.pricing(),
      drawerMode: s.drawerMode,
      autoLockMinutes: s.autoLockMinutes,
      kioskMode: config.kioskMode,
    };
  }

  async function settingsChanged(): Promise<SettingsView> {
    await refreshCredentials();
    await restartSync();
    await webhooks.apply(settings.effective().webhook, settings.effective().apiBaseUrl);
    cashier.menuChanged();
    const view = settingsView();
    events.emit('settings.changed', view);
    return view;
  }

  const loss = () => {
    const where = cashier.locationDetails();
    return pendingLoss(store, clock.now(), where.timezone, where.locale);
  };

  /** Who may run a command: no one signed in → only the lock screen's; the auto-lock checked on each. */
  const roleGate = kitchenRoleGate(config);
  const prepare: Prepare = async (command, payload) => {
    const asDisplay = roleGate.context(command);
    if (asDisplay) return asDisplay;
    const signedIn = staff.checkIdle();
    const open = PUBLIC_COMMANDS.has(command);
    if (!open && !signedIn) {
      throw new CoreError('needs_sign_in', staff.session().setupNeeded ? 'Set up the owner of this terminal first.' : 'Sign in with your PIN first.');
    }
    if (signedIn && !PASSIVE_COMMANDS.has(command)) staff.touch();
    const pin = open ? undefined : (payload as { managerPin?: unknown } | null)?.managerPin;
    const approver = await staff.approver(typeof pin === 'string' ? pin : undefined);
    return { act: () => staff.act(approver) };
  };

  let oauthState: { state: 'idle' | 'waiting' | 'connected' | 'failed'; message: string } = { state: 'idle', message: '' };
  /**
   * OAuth flows belong to this session: stopping it (a reset) cancels them and waits until they
   * have ended, so an approval finishing later cannot store tokens for the fresh terminal.
   */
  const oauthFlows = new AbortController();
  const runningFlows = new Set<Promise<unknown>>();

  const handlers: Handlers = {
    ...tableHandlers(tables),
    ...storeModeHandlers(
      () => storeLink,
      {
        store, staff, cashier, settings, clock, shifts, printing,
        online: () => sync.isOnline(),
        onAdopted: () => {
          // The changes other tills had sent to the quiet till for these orders are applied here now.
          storeLink?.drainInbox();
          sync.notifyLocalWrite();
          events.emit('orders.changed', { ids: [] });
        },
      },
      reports,
      { desk: pairing, awaiting: () => awaitingPairing },
      deps.storeModeTiming?.quietBeforeAdoptionMs,
    ),
    ...kitchenHandlers(() => storeLink, { store, staff, cashier, settings, clock, shifts, printing, online: () => sync.isOnline(), config }),
    'menu.snapshot': () => cashier.menuSnapshot(),
    'menu.search': (p) => cashier.menuSearch(p),
    'menu.createItem': (p, c) => cashier.createMenuItem(p, c.act()),
    'menu.updateItem': (p, c) => cashier.updateMenuItem(p, c.act()),
    'menu.deleteItem': (p, c) => cashier.deleteMenuItem(p, c.act()),
    'menu.setAvailable': (p, c) => cashier.setAvailable(p, c.act()),
    'orders.place': (p, c) => cashier.placeOrder(p, c.act()),
    'orders.list': (p) => cashier.listOrders(p),
    'orders.get': (p) => cashier.getOrder(p),
    'orders.update': (p, c) => cashier.updateOrder(p, c.act()),
    'orders.fulfil': (p, c) => cashier.fulfilOrder(p, c.act()),
    'orders.cancel': (p, c) => cashier.cancelOrder(p, c.act()),
    'orders.holdCourse': (p, c) => cashier.holdCourse(p, c.act()),
    'orders.fireCourse': (p, c) => cashier.fireCourse(p, c.act()),
    'orders.transfer': (p, c) => cashier.transferOrder(p, c.act()),
    'orders.removeGratuity': (p, c) => cashier.removeGratuity(p, c.act()),
    'orders.merge': (p, c) => cashier.mergeOrders(p, c.act()),
    'orders.reopen': (p, c) => cashier.reopenOrder(p, c.act()),
    'payments.take': (p, c) => cashier.takePayment(p, c.act()),
    'payments.refund': (p, c) => cashier.refund(p, c.act()),
    'payments.refundItems': (p, c) => cashier.refundItems(p, c.act()),
    'printing.status': () => printing.status(),
    'printing.preview': ({ orderId }) => cashier.receiptPreview(orderId),
    'printing.reprint': ({ orderId }) => {
      cashier.reprintReceipt(orderId);
      return printing.status();
    },
    'printing.openDrawer': ({ reason }, c) => {
      const act = c.act();
      const approvedBy = staff.require(act, 'drawer.open');
      store.transaction(() => {
        printing.openDrawer(String(clock.now()));
        store.cashier.recordAudit(act.by.id, 'drawer.open', { reason, ...StaffDesk.approval(approvedBy) });
      });
      return printing.status();
    },
    'printing.retryJob': ({ id }) => {
      printing.retry(id);
      return printing.status();
    },
    'printing.redirectJob': ({ id, printer }) => {
      printing.redirect(id, printer);
      return printing.status();
    },
    'printing.discardJob': ({ id }, c) => {
      const act = c.act();
      const approvedBy = staff.require(act, 'sync.resolve');
      store.transaction(() => {
        printing.discard(id);
        store.cashier.recordAudit(act.by.id, 'print_job.discard', { id, ...StaffDesk.approval(approvedBy) });
      });
      return printing.status();
    },
    'printing.confirmPrinted': ({ id }) => {
      printing.confirmPrinted(id);
      return printing.status();
    },
    'location.get': () => cashier.locationDetails(),
    'location.list': () => cashier.locations(),
    'shift.summary': (p, c) => cashier.shiftSummary(p, c.act()),
    'shift.current': (_p, c) => shifts.current(c.act()),
    'shift.open': ({ count }, c) => shifts.open(c.act(), count),
    'shift.moveCash': ({ kind, amount, reason }, c) => shifts.moveCash(c.act(), { kind, amount, reason }),
    'shift.close': ({ count, note }, c) => shifts.close(c.act(), count, note),
    'staff.session': () => staff.session(),
    'staff.setupOwner': ({ name, pin }) => staff.setupOwner(name, pin),
    'staff.signIn': ({ pin }) => staff.signIn(pin),
    'staff.liftLockout': ({ pin }) => staff.liftLockout(pin),
    'staff.lock': () => staff.lock(),
    'staff.activity': () => {
      if (staff.checkIdle()) staff.touch();
      return staff.session();
    },
    'staff.checkApproval': ({ permission }, c) => staff.checkApproval(c.act(), permission),
    'staff.roster': () => staff.roster(),
    'staff.list': (_p, c) => staff.list(c.act()),
    'staff.create': ({ name, role, pin }, c) => staff.create(c.act(), { name, role, pin }),
    'staff.update': ({ managerPin: _pin, ...change }, c) => staff.update(c.act(), change),
    'reports.days': (_p, c) => reports.days(c.act()),
    'reports.z': ({ businessDay }, c) => reports.report(c.act(), businessDay),
    'reports.csv': ({ businessDay }, c) => zReportCsv(reports.report(c.act(), businessDay), { timeZone: cashier.location()?.timezone ?? '' }),
    'reports.print': ({ businessDay }, c) => {
      const report = reports.report(c.act(), businessDay);
      const location = cashier.locationDetails();
      printing.printReport(`${businessDay}:${clock.now()}`, zReportDoc(report, { ...location, timeZone: location.timezone }));
      return printing.status();
    },
    'settings.get': () => settingsView(),
    'settings.update': async (p, c) => {
      const act = c.act();
      const system = [p.apiBaseUrl, p.apiHost, p.authUrl, p.locationId, p.webhook, p.webhookSigningSecret].some((v) => v !== undefined);
      const storeWide = [p.offlineLimits, p.confirmChargeAbove, p.checkout, p.taxRules, p.autoReceipt, p.drawerMode, p.autoLockMinutes].some((v) => v !== undefined);
      if (system) staff.require(act, 'settings.system');
      if (storeWide) staff.require(act, 'settings.store');
      if (p.drawerMode !== undefined && p.drawerMode !== settings.effective().drawerMode && store.shifts.anyOpen()) {
        const message = 'Close every open shift before changing how drawers are shared.';
        throw new CoreError('conflict', message, [{ path: 'drawerMode', message }]);
      }
      if (p.webhookSigningSecret !== undefined) {
        await secrets.setMany({ [config.webhook.signingSecretRef]: p.webhookSigningSecret });
        webhookSecret = p.webhookSigningSecret;
      }
      settings.update(
        {
          ...(p.apiBaseUrl !== undefined ? { apiBaseUrl: p.apiBaseUrl } : {}),
          ...(p.apiHost !== undefined ? { apiHost: p.apiHost } : {}),
          ...(p.authUrl !== undefined ? { authUrl: p.authUrl } : {}),
          ...(p.locationId !== undefined ? { locationId: p.locationId } : {}),
          ...(p.webhook !== undefined ? { webhook: p.webhook } : {}),
          ...(p.offlineLimits !== undefined ? { offlineLimits: p.offlineLimits } : {}),
          ...(p.confirmChargeAbove !== undefined ? { confirmChargeAbove: p.confirmChargeAbove } : {}),
          ...(p.drawerMode !== undefined ? { drawerMode: p.drawerMode } : {}),
          ...(p.autoLockMinutes !== undefined ? { autoLockMinutes: p.autoLockMinutes } : {}),
          ...(p.checkout !== undefined ? { checkout: { ...settings.overrides().checkout, ...p.checkout } } : {}),
          ...(p.taxRules !== undefined ? { taxRules: p.taxRules } : {}),
          ...(p.autoReceipt !== undefined ? { autoReceipt: p.autoReceipt } : {}),
        },
        act.by.id,
      );
      const view = await settingsChanged();
      // The lock screen and the auto-lock read these from the session.
      if (p.drawerMode !== undefined || p.autoLockMinutes !== undefined) events.emit('staff.session', staff.session());
      return view;
    },
    'credentials.setApiKey': async ({ apiKey }, c) => {
      const act = c.act();
      staff.require(act, 'settings.system');
      // Asked before saving: a wrong key is refused at once, not discovered later as "Sign-in rejected".
      const baseUrl = settings.effective().apiBaseUrl;
      const check = baseUrl === '' ? null : await checkCredential(baseUrl, apiKey);
      if (check?.outcome === 'rejected') {
        throw new CoreError('invalid_command', 'The cloud refused this API key. Check that it was copied whole and belongs to this account. Nothing was saved.');
      }
      await secrets.setMany({ [config.credentials.apiKeyRef]: apiKey });
      settings.update({ credentials: 'api_key' }, act.by.id);
      return { ...(await settingsChanged()), keyCheck: keyCheckMessage(check) };
    },
    'credentials.connectOAuth': async (_p, c) => {
      const act = c.act();
      staff.require(act, 'settings.system');
      const s = settings.effective();
      const clientSecret = await oauthClientSecret();
      if (config.credentials.oauthClientId === '' || !clientSecret || s.authUrl === '') {
        throw new CoreError('unavailable', 'OAuth is not set up on this terminal (no client id or secret). Ask IT, or use an API key.');
      }
      let announce: (url: string) => void = () => undefined;
      const authorizeUrl = new Promise<string>((resolve) => (announce = resolve));
      oauthState = { state: 'waiting', message: 'Waiting for approval in the browser.' };
      const flow = runDesktopOAuthFlow({
        authUrl: s.authUrl,
        apiHost: s.apiHost,
        clientId: config.credentials.oauthClientId,
        clientSecret,
        scopes: OAUTH_SCOPES,
        secrets,
        clock,
        logger,
        signal: oauthFlows.signal,
        openUrl: async (url) => {
          announce(url);
          await deps.openExternal?.(url);
        },
      });
      const finished = flow.then(
        async () => {
          settings.update({ credentials: 'oauth' }, act.by.id);
          await settingsChanged();
          oauthState = { state: 'connected', message: 'Connected with OAuth. Orders will sync to this account.' };
          events.emit('oauth.finished', { ok: true, message: oauthState.message });
        },
        (error: unknown) => {
          if (oauthFlows.signal.aborted) {
            // The session ended (a reset) before the approval came back: nothing was stored.
            logger.info('OAuth sign-in cancelled: the terminal was reset while it waited');
            events.emit('oauth.finished', { ok: false, message: OAUTH_CANCELLED_BY_RESET });
            return;
          }
          logger.warn({ err: error }, 'OAuth connection failed');
          oauthState = { state: 'failed', message: 'The OAuth connection did not complete. Try again, or use an API key.' };
          events.emit('oauth.finished', { ok: false, message: oauthState.message });
        },
      );
      // Tracked with its handlers, so a reset waits for the settings they write on this store too.
      runningFlows.add(finished);
      void finished.finally(() => runningFlows.delete(finished)).catch((error: unknown) => logger.error({ err: error }, 'OAuth connection could not be saved'));
      // The flow ends before announcing a URL only if its loopback listener cannot start.
      const url = await Promise.race([authorizeUrl, flow.then(() => null, () => null)]);
      if (url === null) throw new CoreError('unavailable', 'The OAuth connection could not start on this computer. Try again, or use an API key.');
      return { authorizeUrl: url };
    },
    'credentials.oauthStatus': () => oauthState,
    'sync.status': () => sync.status(),
    'sync.now': async () => {
      await sync.syncNow();
      return sync.status();
    },
    'sync.retryDeadLetter': async ({ id }) => {
      await sync.retryDeadLetter(id);
      events.emit('orders.changed', { ids: [] });
      return sync.status();
    },
    'sync.discardDeadLetter': async ({ id }, c) => {
      const act = c.act();
      const approvedBy = staff.require(act, 'sync.resolve');
      await sync.discardDeadLetter(id);
      store.cashier.recordAudit(act.by.id, 'dead_letter.discard', { id, ...StaffDesk.approval(approvedBy) });
      events.emit('orders.changed', { ids: [] });
      cashier.menuChanged();
      return sync.status();
    },
    'sync.settleRepricedOrder': ({ id }, c) => {
      sync.settleRepricedOrder(id, c.act().by.id);
      return sync.status();
    },
    'session.pending': () => loss(),
    'session.signOut': async ({ despitePending }, c) => {
      const act = c.act();
      staff.require(act, 'settings.system');
      const { pending, message } = loss();
      if (pending > 0 && !despitePending) {
        throw new CoreError('conflict', `${message} Signed out, they stay on this terminal but nothing is sent until it is connected again. Confirm to sign out anyway.`);
      }
      await secrets.setMany({
        [config.credentials.apiKeyRef]: null,
        [OAUTH_SECRET_NAMES.accessToken]: null,
        [OAUTH_SECRET_NAMES.refreshToken]: null,
        [OAUTH_SECRET_NAMES.expiresAt]: null,
      });
      settings.update({ credentials: 'none' }, act.by.id);
      store.cashier.recordAudit(act.by.id, 'session.sign_out', { pending });
      return settingsChanged();
    },
    'terminal.reset': async ({ confirmPendingLoss }, c) => {
      const act = c.act();
      staff.require(act, 'terminal.reset');
      const atStake = loss();
      if (lossAtStake(atStake) && !confirmPendingLoss) {
        throw new CoreError('conflict', `${atStake.message} A reset deletes them for good. Confirm to reset anyway.`);
      }
      return context.reset(atStake);
    },
  };

  const invoke = roleGate.guard(createInvoker(handlers, logger, prepare, { ledger: store.requests, runId: newId('run'), now: () => clock.now() }));
  await restartSync();
  await webhooks.apply(settings.effective().webhook, settings.effective().apiBaseUrl);
  // Store mode: this till's log served on the LAN, its peers' logs pulled into the replicas.
  if (config.storeMode.mode === 'on') {
    const storeSecret = await readStoreSecret(config.storeMode, secrets);
    // Without its secret yet, a register or a kitchen display waits to be paired by a code shown on a till of the store.
    if (storeSecret === null && config.storeMode.secretRef === '') throw new StoreSecretMissingError(config.storeMode.secretRef);
    if (storeSecret === null) awaitingPairing = true;
    else await startStoreMode(storeSecret);
  }

  /** Starts the store link (at start-up, or once a pairing brought the secret). */
  async function startStoreMode(storeSecret: string): Promise<void> {
    storeLink = await startStoreLink({
      storeMode: config.storeMode,
      storeSecret,
      tillName: config.storeMode.tillName || `Till ${settings.effective().checkout.tillLetter}`,
      store,
      cashier,
      secrets,
      clock,
      logger,
      ...(deps.storeModeTiming?.catchUpBeforePushMs === undefined ? {} : { catchUpBeforePushMs: deps.storeModeTiming.catchUpBeforePushMs }),
      onAdoptedAway: () => {
        sync.notifyLocalWrite();
        events.emit('orders.changed', { ids: [] });
      },
      // The screens showing the store ask again at once, not at their next poll.
      onReplicated: () => events.emit('storeMode.replicated', {}),
    });
    storeSecretText = storeSecret;
    awaitingPairing = false;
    // What this till sold before it joined is in its log; its peers pull it from now on.
    sync.notifyLocalWrite();
  }

  return {
    store,
    invoke,
    syncStatus: () => sync.status(),
    settingsView,
    async stop() {
      oauthFlows.abort();
      await Promise.allSettled([...runningFlows]);
      await webhooks.stop();
      await sync.stop();
      await printing.stop();
      await pairing.stop();
      await storeLink?.stop();
      const kept = store.outbox.unfinishedCount();
      store.close();
      return kept;
    },
  };
}

/** What the cashier is told after saving an API key. */
function keyCheckMessage(check: CredentialCheck | null): string {
  if (check === null) return 'API key saved. No API address is set yet: the key will be checked once one is.';
  switch (check.outcome) {
    case 'accepted':
      return 'API key saved. The cloud accepted it.';
    case 'limited':
      return "API key saved. The cloud accepted it, but it may not read the store's locations: some data will not sync.";
    case 'rejected':
    case 'unchecked':
      return 'API key saved. The cloud could not be reached to check it: it will be checked when the terminal is back online.';
  }
}
