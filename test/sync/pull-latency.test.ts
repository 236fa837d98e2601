// The full order pull through a real network's round trip (the sandbox's latency_ms): several
// keyset streams at once, with the same end state as on loopback (every order once, deletions
// swept, pending changes kept) through drift, an outage and a SIGKILL in the middle, resuming
// without reading again what it committed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childArgs } from '../child-script';
import { silentLogger } from '../../common/log';
import { systemClock } from '../../common/clock';
import { newId } from '../../common/ids';
import { ApiClient, type ApiCall, type ApiResult } from '../../sync/api-client';
import { ApiKeyCredentials } from '../../sync/credentials';
import { DEFAULT_TUNING } from '../../sync/engine';
import { Puller } from '../../sync/pull';
import { parseStreamsCursor } from '../../sync/pull-streams';
import { allServerOrders, cleanupAfterEach, openStore, sandboxAndStore, tempStoreFile, type Sandbox, type Store } from './harness';

const defer = cleanupAfterEach();
const LATENCY_MS = 50;
const EXTRA_ORDERS = 1_500;
const tuning = { ...DEFAULT_TUNING.pull, perPage: 50 };

/** Orders straight into the sandbox's database, 1 ms apart over the last seconds (as bench-sandbox does). */
async function seedOrders(sandbox: Sandbox, count: number): Promise<void> {
  const template = await sandbox.db.selectFrom('orders').select(['doc', 'location_id']).orderBy('created_at').limit(1).executeTakeFirstOrThrow();
  const base = JSON.parse(template.doc) as Record<string, unknown>;
  const start = Date.now() - count - 5_000;
  const rows = Array.from({ length: count }, (_, i) => {
    const at = start + i;
    const id = newId('ord_', at);
    const iso = new Date(at).toISOString();
    return { id, location_id: template.location_id, status: 'open', created_at: at, doc: JSON.stringify({ ...base, id, status: 'open', created_at: iso, updated_at: iso }) };
  });
  for (let i = 0; i < rows.length; i += 500) await sandbox.db.insertInto('orders').values(rows.slice(i, i + 500)).execute();
}

/** Counts list requests in flight at once, and records their queries. */
class WatchingClient extends ApiClient {
  inFlight = 0;
  maxInFlight = 0;
  #inFlightSum = 0;
  readonly queries: Record<string, string | number | undefined>[] = [];
  meanInFlight(): number {
    return this.#inFlightSum / Math.max(1, this.queries.length);
  }

  override async call<T>(call: ApiCall<T>): Promise<ApiResult<T>> {
    if (call.path !== '/orders') return super.call(call);
    this.queries.push(call.query ?? {});
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    this.#inFlightSum += this.inFlight;
    try {
      return await super.call(call);
    } finally {
      this.inFlight -= 1;
    }
  }
}

function baseOrderIds(store: Store): string[] {
  return (store.db.prepare(`SELECT id FROM orders WHERE layer = 'base'`).pluck().all() as string[]).map((id) => store.serverIdFor('order', id) ?? id).sort();
}

async function serverIds(sandbox: Sandbox): Promise<string[]> {
  return (await allServerOrders(sandbox)).map((o) => o.id).sort();
}

async function latentSandbox(): Promise<{ sandbox: Sandbox; store: Store; api: () => WatchingClient }> {
  const { sandbox, store } = await sandboxAndStore(defer);
  await seedOrders(sandbox, EXTRA_ORDERS);
  await sandbox.faults.set({ latency_ms: LATENCY_MS });
  const credentials = new ApiKeyCredentials(async () => sandbox.credentials.apiKeys.full);
  const api = () => {
    const client = new WatchingClient({ baseUrl: sandbox.baseUrl, credentials });
    defer(() => client.close());
    return client;
  };
  return { sandbox, store, api };
}

describe('full pull through 50 ms of latency', () => {
  it('runs several streams at once and ends with every order once, as on loopback', async () => {
    const { sandbox, store, api } = await latentSandbox();
    const client = api();
    const puller = new Puller({ api: client, store, clock: systemClock, logger: silentLogger, tuning });
    const result = await puller.fullPull(puller.orderScope(null));
    expect(result.drifted).toBe(false);
    expect(baseOrderIds(store)).toEqual(await serverIds(sandbox));
    // Requests overlapped: on average several were out when one left (one stream would have one).
    expect(client.maxInFlight).toBeGreaterThan(2);
    expect(client.meanInFlight()).toBeGreaterThan(2);
    // Wall time is left to the bench (`npm run bench -- sync`): here the sandbox shares this process's thread.
  });

  it('inserts and deletes during the pull: ends with exactly the server orders, a deleted one swept, a pending change kept', async () => {
    const { sandbox, store, api } = await latentSandbox();
    // A first pull, then a local change the next pull must not hide.
    const first = new Puller({ api: api(), store, clock: systemClock, logger: silentLogger, tuning });
    await first.fullPull(first.orderScope(null));
    const [kept] = store.cashier.listOrders({ status: 'open', limit: 1 });
    store.cashier.updateOrder(kept!.id, { notes: 'table 4 waits for the cake' }, { actor: 'test' });
    const keptServerId = store.serverIdFor('order', kept!.id) ?? kept!.id;
    let churning = true;
    const churn = (async () => {
      for (let round = 0; churning && round < 40; round++) {
        await seedOrders(sandbox, 1);
        const victim = await sandbox.db.selectFrom('orders').select('id').where('id', '!=', keptServerId).orderBy('created_at').offset(round * 7).limit(1).executeTakeFirst();
        if (victim) await sandbox.db.deleteFrom('orders').where('id', '=', victim.id).execute();
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();
    const puller = new Puller({ api: api(), store, clock: systemClock, logger: silentLogger, tuning: { ...tuning, maxPasses: 10 } });
    const result = await puller.fullPull(puller.orderScope(null));
    churning = false;
    await churn;
    // Churn that ended after the last pass is for the next pull: pull once more, quiet.
    if (result.drifted) await puller.fullPull(puller.orderScope(null));
    await puller.fullPull(puller.orderScope(null));
    expect(baseOrderIds(store)).toEqual(await serverIds(sandbox));
    expect(store.cashier.getOrder(kept!.id)?.notes).toBe('table 4 waits for the cake');
  });

  it('an outage in the middle: the next pull resumes each stream where it stood, reading nothing again', async () => {
    const { sandbox, store, api } = await latentSandbox();
    const cut = api();
    const puller = new Puller({ api: cut, store, clock: systemClock, logger: silentLogger, tuning });
    const pulling = puller.fullPull(puller.orderScope(null)).then(
      () => null,
      (e: unknown) => e,
    );
    while (cut.queries.length < 8) await new Promise((resolve) => setTimeout(resolve, 5));
    await sandbox.faults.set({ outage: true });
    expect(await pulling).toMatchObject({ kind: 'network' });
    await sandbox.faults.set({ outage: false });
    await expectResumesWithoutRereading(sandbox, store, api());
  });

  it('a SIGKILL in the middle: the next pull resumes each stream where it stood, reading nothing again', async () => {
    const { sandbox, api } = await latentSandbox();
    const file = tempStoreFile();
    const child = spawn(process.execPath, [...childArgs(fileURLToPath(new URL('./fixtures/pull-child.ts', import.meta.url))), file, sandbox.baseUrl, sandbox.credentials.apiKeys.full], { stdio: ['ignore', 'pipe', 'pipe'] });
    defer(() => void child.kill('SIGKILL'));
    let pages = 0;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        pages += chunk.toString().split('page').length - 1;
        if (pages >= 6) resolve();
      });
      child.once('exit', () => reject(new Error(`the child ended before it was killed: ${stderr}`)));
    });
    child.kill('SIGKILL');
    await exited;
    const store = openStore(file);
    defer(() => store.close());
    await expectResumesWithoutRereading(sandbox, store, api());
  });
});

/** Resumes the interrupted pull from its saved cursor: no page below a saved window is asked again, and the end state is the server's. */
async function expectResumesWithoutRereading(sandbox: Sandbox, store: Store, client: WatchingClient): Promise<void> {
  const saved = parseStreamsCursor(store.server.getCursor('order:all')?.cursor ?? null);
  expect(saved?.windows.length).toBeGreaterThan(0);
  const lowest = Math.min(...saved!.windows.map((w) => w.after ?? Number.NEGATIVE_INFINITY));
  const committedBefore = baseOrderIds(store).length;
  expect(committedBefore).toBeGreaterThan(0);
  const puller = new Puller({ api: client, store, clock: systemClock, logger: silentLogger, tuning });
  const result = await puller.fullPull(puller.orderScope(null));
  expect(result.drifted).toBe(false);
  const pages = client.queries.filter((q) => q.per_page !== 1);
  expect(pages.filter((q) => q.created_after === undefined || Date.parse(String(q.created_after)) < lowest)).toEqual([]);
  expect(baseOrderIds(store)).toEqual(await serverIds(sandbox));
}
