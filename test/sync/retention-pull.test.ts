// Retention through the sync engine: a full pull asks only for orders within the retention and
// sweeps only those; after it, orders past the retention that the cloud has and nothing here
// still needs are pruned, and the next pull does not bring them back (what is never pruned:
// test/store/retention.test.ts).
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log';
import { systemClock } from '../../common/clock';
import { newId } from '../../common/ids';
import { ApiClient } from '../../sync/api-client';
import { ApiKeyCredentials } from '../../sync/credentials';
import { DEFAULT_TUNING } from '../../sync/engine';
import { Puller } from '../../sync/pull';
import { cleanupAfterEach, engineFor, sandboxAndStore, waitFor, type Sandbox } from './harness';

const defer = cleanupAfterEach();
const DAY = 24 * 60 * 60_000;

async function oldOrders(sandbox: Sandbox, count: number, daysAgo: number): Promise<string[]> {
  const location = sandbox.credentials.locationIds[0]!;
  const template = await sandbox.db.selectFrom('orders').select('doc').where('location_id', '=', location).limit(1).executeTakeFirstOrThrow();
  const base = JSON.parse(template.doc) as Record<string, unknown>;
  const rows = Array.from({ length: count }, (_, i) => {
    const at = Date.now() - daysAgo * DAY + i;
    const id = newId('ord_', at);
    const iso = new Date(at).toISOString();
    return { id, location_id: location, status: 'fulfilled', created_at: at, doc: JSON.stringify({ ...base, id, status: 'fulfilled', created_at: iso, updated_at: iso }) };
  });
  await sandbox.db.insertInto('orders').values(rows).execute();
  return rows.map((r) => r.id);
}

describe('retention', () => {
  it('prunes synced orders past the retention after a full pull, and does not pull them again', async () => {
    const { sandbox, store } = await sandboxAndStore(defer);
    const old = await oldOrders(sandbox, 5, 200);
    // A till that kept everything so far: the old orders are here.
    const api = new ApiClient({ baseUrl: sandbox.baseUrl, credentials: new ApiKeyCredentials(async () => sandbox.credentials.apiKeys.full) });
    defer(() => api.close());
    const everything = new Puller({ api, store, clock: systemClock, logger: silentLogger, tuning: { ...DEFAULT_TUNING.pull, retentionMs: null } });
    await everything.fullPull(everything.orderScope(null));
    expect(old.every((id) => store.cashier.getOrder(id) !== undefined)).toBe(true);

    const engine = engineFor(sandbox, store, { locationId: sandbox.credentials.locationIds[0]!, tuning: { pull: { retentionMs: 90 * DAY } } });
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => engine.status().lastPullAt !== null && old.every((id) => store.cashier.getOrder(id) === undefined), 20_000, 'the old orders to be pruned');
    const recent = store.cashier.listOrders({ limit: 5 });
    expect(recent.length).toBeGreaterThan(0);

    // The next full pull asks only for the retention's orders: the pruned ones stay away.
    const again = new Puller({ api, store, clock: systemClock, logger: silentLogger, tuning: { ...DEFAULT_TUNING.pull, retentionMs: 90 * DAY } });
    await again.fullPull(again.orderScope(sandbox.credentials.locationIds[0]!));
    expect(old.every((id) => store.cashier.getOrder(id) === undefined)).toBe(true);
  });
});
