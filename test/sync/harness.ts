// Shared set-up of the sync suites: a sandbox over real HTTP, a real store file, an engine with
// short timers, and helpers that read the server's truth back through the API.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach } from 'vitest';
import { flattenResource } from '../../api/client-records';
import { startSandbox as startAnySandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index';
import { openStore, type Store } from '../../store/index';
import { ApiKeyCredentials } from '../../sync/credentials';
import { createSyncEngine, type SyncEngine, type SyncEngineOptions } from '../../sync/engine';

/**
 * The /v1 the sync suites run against: our sandbox's default profile (its gap decisions), or its
 * spec-minimal profile in either record shape, which is what a /v1 written from the spec alone
 * may look like. vitest.config.ts runs the suites that matter once per profile
 * (POS_TEST_SANDBOX_PROFILE = default | spec-minimal/flat | spec-minimal/jsonapi).
 */
export const SANDBOX_PROFILE = ((value = 'default') => {
  const [profile, recordShape = 'flat'] = value.split('/');
  if ((profile !== 'default' && profile !== 'spec-minimal') || (recordShape !== 'flat' && recordShape !== 'jsonapi')) {
    throw new Error(`POS_TEST_SANDBOX_PROFILE must be default, spec-minimal/flat or spec-minimal/jsonapi, not ${value}`);
  }
  return { profile, recordShape } as const;
})(process.env.POS_TEST_SANDBOX_PROFILE);

/** True against the default profile: for cases that check one of our own gap decisions (metadata, modifiers, stock...). */
export const OUR_GAP_DECISIONS = SANDBOX_PROFILE.profile === 'default';

/** A sandbox in the profile the suites run against. */
export function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startAnySandbox({ ...SANDBOX_PROFILE, ...options });
}

export interface MenuFixture {
  locationId: string;
  currency: string;
  /** Available items of the location with their modifiers. */
  items: { id: string; name: string; price: number; modifiers: { id: string; name: string; price: number }[] }[];
}

export function tempStoreFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'sync-store-')), 'terminal.db');
}

/** A GET's JSON, a single record read flat whatever its shape. */
export async function getJson<T = unknown>(sandbox: Sandbox, path: string, key = sandbox.credentials.apiKeys.full): Promise<T> {
  const res = await request(`${sandbox.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET ${path} → ${res.statusCode}: ${text}`);
  return flattenResource(JSON.parse(text)) as T;
}

export async function sendJson<T = unknown>(sandbox: Sandbox, method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const res = await request(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.credentials.apiKeys.full}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path} → ${res.statusCode}: ${text}`);
  return flattenResource(JSON.parse(text)) as T;
}

/** An order as the server lists it (flattened if it came as {id, type, attributes}); the spec-minimal profile leaves out metadata, updated_at and modifier details. */
type ServerOrder = {
  id: string;
  status: string;
  items: { menu_item_id: string; quantity: number; modifiers: ({ id: string } | string)[] }[];
  /** Empty where the server keeps none (spec-minimal drops it). */
  metadata: Record<string, string>;
  customer: unknown;
  updated_at?: string;
};

/** A list page with its items flattened (the jsonapi record shape reads as flat records). */
async function listPage<T>(sandbox: Sandbox, path: string): Promise<{ data: T[]; meta: { total_pages: number } }> {
  const body = await getJson<{ data: unknown[]; meta: { total_pages: number } }>(sandbox, path);
  return { ...body, data: body.data.map((record) => flattenResource(record) as T) };
}

/** Every order on the server (all pages). */
export async function allServerOrders(sandbox: Sandbox, query = ''): Promise<ServerOrder[]> {
  const out: ServerOrder[] = [];
  for (let page = 1; ; page++) {
    const body = await listPage<ServerOrder>(sandbox, `/orders?per_page=100&page=${page}${query}`);
    out.push(...body.data.map((order) => ({ ...order, metadata: order.metadata ?? {} })));
    if (page >= body.meta.total_pages) return out;
  }
}

export async function menuFixture(sandbox: Sandbox): Promise<MenuFixture> {
  const locations = await listPage<{ id: string; currency?: string }>(sandbox, '/locations?per_page=100');
  const location = locations.data[0]!;
  const items: MenuFixture['items'] = [];
  for (let page = 1; ; page++) {
    const body = await listPage<Omit<MenuFixture['items'][number], 'modifiers'> & { modifiers?: MenuFixture['items'][number]['modifiers']; available: boolean; stock?: number | null }>(
      sandbox,
      `/menu/items?location_id=${location.id}&per_page=100&page=${page}`,
    );
    // Untracked stock only: the fault suites place hundreds of orders and must not run anything out.
    // (A spec-minimal server shows no stock: any available item then.)
    items.push(...body.data.filter((i) => i.available && i.stock == null).map((i) => ({ ...i, modifiers: i.modifiers ?? [] })));
    if (page >= body.meta.total_pages) break;
  }
  // A server that shows no currency: the store's (config) default, which the store gives such money.
  return { locationId: location.id, currency: location.currency ?? 'usd', items };
}

/** A cashier order: line i uses item i mod n, with its first modifier on odd lines. */
export function placeOrder(store: Store, menu: MenuFixture, n: number, lines = 1 + (n % 3)) {
  return store.cashier.createOrder(
    {
      locationId: menu.locationId,
      currency: menu.currency,
      lines: Array.from({ length: lines }, (_, i) => {
        const item = menu.items[(n + i) % menu.items.length]!;
        const modifier = i % 2 === 1 ? item.modifiers[0] : undefined;
        return {
          menu_item_id: item.id,
          name: item.name,
          quantity: 1 + ((n + i) % 4),
          unit_price: item.price, // the modifier's price is its own (store/documents.ts)
          modifiers: modifier ? [{ modifier_id: modifier.id, name: modifier.name, price: modifier.price }] : [],
        };
      }),
      customer: n % 5 === 0 ? { name: `Guest ${n}`, phone: '' } : null,
      notes: '',
    },
    { actor: 'test' },
  );
}

export const FAST_TIMERS = { pushIntervalMs: 50, pullIntervalMs: 60_000, localWriteDelayMs: 5, stopTimeoutMs: 2_000 } as const;
export const FAST_TUNING = {
  // Settle: a request given up on after 2 s is looked for 1.5 s later (the sandbox answers in ms).
  push: { concurrency: 8, backoff: { baseMs: 20, capMs: 200 }, lookup: { clockSkewMs: 600_000, maxPages: 50, settleMs: 1_500 } },
  offlineBackoff: { baseMs: 20, capMs: 200 },
  requestTimeoutMs: 2_000,
} as const;

export function engineFor(sandbox: Sandbox, store: Store, overrides: Partial<SyncEngineOptions> = {}): SyncEngine {
  return createSyncEngine({
    store,
    baseUrl: sandbox.baseUrl,
    credentials: new ApiKeyCredentials(async () => sandbox.credentials.apiKeys.full),
    timers: FAST_TIMERS,
    tuning: FAST_TUNING,
    ...overrides,
  });
}

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Cleanup = () => Promise<void> | void;

/** Registers teardown that runs after each test, newest first (engines stop before their store closes). */
export function cleanupAfterEach(): (cleanup: Cleanup) => void {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()?.();
  });
  return (cleanup) => void cleanups.push(cleanup);
}

/** A demo-seeded sandbox and a fresh store file, both torn down after the test. */
export async function sandboxAndStore(defer: (cleanup: Cleanup) => void): Promise<{ sandbox: Sandbox; store: Store }> {
  const sandbox = await startSandbox({ seed: 'demo' });
  defer(() => sandbox.close());
  const store = openStore(tempStoreFile());
  defer(() => store.close());
  return { sandbox, store };
}

export { openStore, type Sandbox, type Store };
