// A terminal data directory seeded as if a first sync had run: one location, two categories,
// items with modifiers. Written through the store's public API into a real SQLite file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../common/log';
import { hashManagerPin } from '../../main/config/manager-pin';
import { TerminalConfig, type TerminalConfigInput } from '../../main/config/schema';
import { startCore, type Core, type CoreDeps } from '../../main/core/index';
import { openStore, type Store } from '../../store/index';
import type { Sandbox } from '../../sandbox/index';
import type { ConnectivityTiming } from '../../sync/connectivity';
import { createSyncEngine, type SyncTimers } from '../../sync/engine';
import { FileSecretStore } from '../../sync/secret-store';
import type { CommandInput, CommandName, CommandResult } from '../../bridge/contract';
import type { BridgeResponse } from '../../bridge/protocol';

export const LOCATION = 'loc_test';
export const ITEMS = {
  burger: 'mi_burger',
  fries: 'mi_fries',
  latte: 'mi_latte',
  soup: 'mi_soup',
} as const;
export const MODIFIERS = { cheese: 'mod_cheese', bacon: 'mod_bacon', oat: 'mod_oat' } as const;

export function seedDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'pos-core-'));
  const store = openStore(join(dataDir, 'terminal.db'));
  const s = store.server;
  s.applyServerRecord('location', { id: LOCATION, name: 'Test Kitchen', currency: 'usd', address: '1 Main St', timezone: 'UTC' });
  s.applyServerRecord('category', { id: 'cat_mains', name: 'Mains', position: 0 });
  s.applyServerRecord('category', { id: 'cat_drinks', name: 'Drinks', position: 1 });
  s.applyServerRecord('modifier', { id: MODIFIERS.cheese, name: 'Extra cheese', price: 150 });
  s.applyServerRecord('modifier', { id: MODIFIERS.bacon, name: 'Bacon', price: 200 });
  s.applyServerRecord('modifier', { id: MODIFIERS.oat, name: 'Oat milk', price: 60 });
  const item = (id: string, name: string, price: number, category: string, modifiers: string[]) =>
    s.applyServerRecord('menu_item', {
      id,
      location_id: LOCATION,
      category_id: category,
      name,
      description: '',
      price,
      currency: 'usd',
      available: true,
      low_stock: false,
      modifier_ids: modifiers,
      deleted: false,
    });
  item(ITEMS.burger, 'Burger', 1200, 'cat_mains', [MODIFIERS.cheese, MODIFIERS.bacon]);
  item(ITEMS.fries, 'Fries', 450, 'cat_mains', []);
  item(ITEMS.latte, 'Café latte', 400, 'cat_drinks', [MODIFIERS.oat]);
  item(ITEMS.soup, 'Soup of the day', 700, 'cat_mains', []);
  store.close();
  return dataDir;
}

export const FLAT_WHITE = 'mi_flat_white';
export const SIZES = { small: 'mod_small', large: 'mod_large' } as const;

/**
 * More seed for the checkout suites: a flat white ($3.80, taxed as food) whose size must be chosen,
 * exactly one (Small, Large +$1.00), with up to two extras (oat milk).
 */
export function seedCoffee(store: Store): void {
  const s = store.server;
  s.applyServerRecord('modifier', { id: SIZES.small, name: 'Small', price: 0 });
  s.applyServerRecord('modifier', { id: SIZES.large, name: 'Large', price: 100 });
  s.applyServerRecord('menu_item', {
    id: FLAT_WHITE,
    location_id: LOCATION,
    category_id: 'cat_drinks',
    name: 'Flat white',
    description: '',
    price: 380,
    currency: 'usd',
    available: true,
    low_stock: false,
    modifier_ids: [SIZES.small, SIZES.large, MODIFIERS.oat],
    deleted: false,
    tax_class: 'food',
    modifier_groups: [
      { id: 'mg_size', name: 'Size', min: 1, max: 1, modifier_ids: [SIZES.small, SIZES.large] },
      { id: 'mg_extras', name: 'Extras', min: 0, max: 2, modifier_ids: [MODIFIERS.oat] },
    ],
  });
}

/** The staff every test terminal is provisioned with (docs/staff.md); PINs as typed at the till. */
export const STAFF = {
  owner: { name: 'Olive Owner', role: 'owner', pin: '4826' },
  manager: { name: 'Max Manager', role: 'manager', pin: '5937' },
  cashier: { name: 'Cass Cashier', role: 'cashier', pin: '6048' },
  cashier2: { name: 'Carl Cashier', role: 'cashier', pin: '7159' },
} as const;
export type StaffKey = keyof typeof STAFF;

let provisioned: { name: string; role: string; pinHash: string }[] | undefined;
/** The test staff as the configuration provisions them (hashed once per test process). */
export function testStaffConfig(): { members: { name: string; role: string; pinHash: string }[] } {
  provisioned ??= Object.values(STAFF).map((m) => ({ name: m.name, role: m.role, pinHash: hashManagerPin(m.pin) }));
  return { members: provisioned };
}

/** Signs `who` in on a core (or locks it for null). */
export async function signIn(core: Pick<Core, 'invoke'>, who: StaffKey | null): Promise<void> {
  const response = await core.invoke(who === null ? { command: 'staff.lock', payload: {} } : { command: 'staff.signIn', payload: { pin: STAFF[who].pin } });
  if (!response.ok) throw new Error(`test sign-in failed: ${response.error.message}`);
}

/** Opens the drawer of whoever is signed in with an empty float (cash needs an open shift). */
export async function openShift(core: Pick<Core, 'invoke'>): Promise<void> {
  const response = await core.invoke({ command: 'shift.open', payload: { count: [] } });
  if (!response.ok) throw new Error(`test shift could not open: ${response.error.message}`);
}

export interface TestSession {
  /** Who is signed in when the test starts (the owner by default; null: no one). */
  signIn?: StaffKey | null;
  /** Open their drawer with an empty float (default: yes, when someone is signed in). */
  openShift?: boolean;
}

async function startSession(core: Pick<Core, 'invoke'>, options: TestSession): Promise<void> {
  const who = options.signIn === undefined ? 'owner' : options.signIn;
  if (who === null) return;
  await signIn(core, who);
  if (options.openShift ?? true) await openShift(core);
}

/** A core's config with the test staff provisioned, unless the test gives its own. */
function withTestStaff(config: Partial<TerminalConfigInput>): Partial<TerminalConfigInput> {
  return config.staff?.members !== undefined ? config : { ...config, staff: { ...config.staff, members: testStaffConfig().members as never } };
}

export interface TestCore {
  core: Core;
  dataDir: string;
  call<C extends CommandName>(command: C, payload: CommandInput<C>): Promise<CommandResult<C>>;
  raw(command: string, payload: unknown): Promise<BridgeResponse>;
}

/**
 * A core on a seeded data directory, with no API configured (the outbox fills, nothing drains),
 * the test staff provisioned and `signIn` (the owner by default) signed in.
 */
export async function startTestCore(
  config: Partial<TerminalConfigInput> = {},
  deps: CoreDeps = {},
  moreSeed?: (store: Store) => void,
  options: TestSession = {},
): Promise<TestCore> {
  const dataDir = seedDataDir();
  if (moreSeed) {
    const store = reopenStore(dataDir);
    moreSeed(store);
    store.close();
  }
  const core = await startCore(TerminalConfig.parse({ dataDir, locationId: LOCATION, ...withTestStaff(config) }), {
    logger: silentLogger,
    secretStore: new FileSecretStore(join(dataDir, 'secrets.json')),
    ...deps,
  });
  await startSession(core, options);
  return {
    core,
    dataDir,
    raw: (command, payload) => core.invoke({ command, payload }),
    async call(command, payload) {
      const response = await core.invoke({ command, payload });
      if (!response.ok) throw Object.assign(new Error(response.error.message), { code: response.error.code });
      return response.value as never;
    },
  };
}

/** The store file as another process would see it after the answer: proves durability. */
export function reopenStore(dataDir: string) {
  return openStore(join(dataDir, 'terminal.db'));
}

/**
 * A core on a fresh data folder against a real sandbox (demo seed) with its full API key, its
 * sync engine on quick push timers: the till as the renderer drives it, with the cloud behind it.
 */
export async function startCoreOnSandbox(
  sandbox: Sandbox,
  options: { config?: Partial<TerminalConfigInput>; timers?: Partial<SyncTimers> & { probe?: Partial<ConnectivityTiming> } } & TestSession = {},
): Promise<Core> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pos-core-sandbox-'));
  const secretStore = new FileSecretStore(join(dataDir, 'secrets.json'));
  await secretStore.setMany({ api_key: sandbox.credentials.apiKeys.full });
  const config = TerminalConfig.parse({
    dataDir,
    api: { baseUrl: sandbox.baseUrl, apiHost: sandbox.apiHost, authUrl: sandbox.authUrl },
    locationId: sandbox.credentials.locationIds[0],
    ...withTestStaff(options.config ?? {}),
  });
  const core = await startCore(config, {
    logger: silentLogger,
    secretStore,
    createEngine: (engine) =>
      createSyncEngine({
        ...engine,
        timers: { pushIntervalMs: 200, localWriteDelayMs: 10, ...options.timers },
        // A lost reply to a record the spec cannot list (a payment intent on a spec-minimal /v1) is
        // resent once it has had time to land: 2 s on loopback instead of the field's 30 s.
        tuning: { ...engine.tuning, offlineBackoff: { baseMs: 100, capMs: 400 }, push: { ...engine.tuning?.push, lookup: { clockSkewMs: 10 * 60_000, maxPages: 50, settleMs: 2_000 } } },
      }),
  });
  await startSession(core, options);
  return core;
}
