// The status tells the truth: a server whose data cannot be read, a first sync that never
// completed, and an address that is wrong (a name that does not exist, a port nobody listens on,
// a web server that is not /v1) are each told apart from "online" and from a plain outage.
import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiKeyCredentials } from '../../sync/credentials';
import { createSyncEngine, type SyncEngine } from '../../sync/engine';
import { cleanupAfterEach, engineFor, FAST_TIMERS, FAST_TUNING, openStore, sandboxAndStore, tempStoreFile, waitFor } from './harness';

const defer = cleanupAfterEach();

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

function engineAt(baseUrl: string): SyncEngine {
  const store = openStore(tempStoreFile());
  defer(() => store.close());
  const engine = createSyncEngine({
    store,
    baseUrl,
    credentials: new ApiKeyCredentials(async () => 'sk_test_any'),
    timers: { ...FAST_TIMERS, probe: { idleIntervalMs: 200, minGapMs: 50, timeoutMs: 2_000 } },
    tuning: FAST_TUNING,
  });
  engine.start();
  defer(() => engine.stop());
  return engine;
}

describe('sync status', () => {
  it('a server sending menu items it cannot read: the menu is named unreadable, the rest still syncs, and the first sync is not complete', async () => {
    const { sandbox, store } = await sandboxAndStore(defer);
    const locationId = sandbox.credentials.locationIds[0]!;
    // A real HTTP hop in front of the sandbox that garbles the menu.
    const { baseUrl } = await listen((req, res) => {
      void (async () => {
        if ((req.url ?? '').startsWith('/v1/menu/items')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ data: [{ id: 'mi_1', price: 'twelve' }], meta: { total: 1, page: 1, per_page: 100, total_pages: 1 } }));
          return;
        }
        const upstream = await fetch(`${sandbox.apiHost}${req.url ?? '/'}`, { headers: { authorization: req.headers.authorization ?? '' } });
        res.writeHead(upstream.status, { 'content-type': 'application/json' });
        res.end(await upstream.text());
      })();
    });
    const engine = engineFor(sandbox, store, { baseUrl, locationId });
    expect(engine.status().initialSyncDone).toBe(false);
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => engine.status().lastPullAt !== null, 20_000, 'the pull');
    const status = engine.status();
    expect(status.readProblems).toEqual([{ scope: 'menu items', detail: expect.stringMatching(/unreadable GET \/menu\/items response/), since: expect.any(Number) }]);
    expect(status.initialSyncDone).toBe(false); // the menu never came
    expect(store.cashier.listOrders({ limit: 5 }).length).toBeGreaterThan(0); // orders did
  });

  it('the first full pull completing is remembered: a fresh engine on the same store knows', async () => {
    const { sandbox, store } = await sandboxAndStore(defer);
    const engine = engineFor(sandbox, store, { locationId: sandbox.credentials.locationIds[0]! });
    engine.start();
    await waitFor(() => engine.status().lastPullAt !== null, 20_000, 'the pull');
    await engine.stop();
    expect(engine.status()).toMatchObject({ readProblems: [], initialSyncDone: true, reachProblem: null });
    expect(engineFor(sandbox, store, { locationId: sandbox.credentials.locationIds[0]! }).status().initialSyncDone).toBe(true);
  });

  it('an address nobody listens on: "refused", not a plain outage', async () => {
    const { server, baseUrl } = await listen(() => undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const engine = engineAt(baseUrl);
    await waitFor(() => engine.status().reachProblem !== null, 10_000, 'the problem to be named');
    expect(engine.status()).toMatchObject({ online: false, reachProblem: { kind: 'refused', host: new URL(baseUrl).host } });
  });

  it('a web server that is not a /v1 API: "not an API", although it answers', async () => {
    const { baseUrl } = await listen((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome to nginx</body></html>');
    });
    const engine = engineAt(baseUrl);
    await waitFor(() => engine.status().reachProblem !== null, 10_000, 'the problem to be named');
    expect(engine.status().reachProblem).toEqual({ kind: 'not_an_api', host: new URL(baseUrl).host });
  });

  it('a name that does not exist: "DNS name not found" where the resolver says so', async () => {
    const host = 'pos-api.no-such-store.invalid';
    const code = await lookup(host).then(
      () => 'resolved',
      (error: NodeJS.ErrnoException) => error.code,
    );
    const engine = engineAt(`http://${host}/v1`);
    await waitFor(() => !engine.status().online && engine.status().lastError !== null, 10_000, 'the failure');
    // A resolver that cannot be reached answers EAI_AGAIN: that is an outage, and says so.
    expect(engine.status().reachProblem).toEqual(code === 'ENOTFOUND' ? { kind: 'dns_not_found', host } : null);
  });

  it('a rate limit that has passed is not told any more: lastError clears once the work it stopped has run again', async () => {
    const { sandbox, store } = await sandboxAndStore(defer);
    await sandbox.faults.set({ rate_limit_rate: 1, retry_after_sec: 1 });
    const engine = engineFor(sandbox, store, { locationId: sandbox.credentials.locationIds[0]! });
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => engine.status().lastError?.includes('429') === true, 10_000, 'the rate limit to be told');
    await sandbox.faults.reset();
    await waitFor(() => engine.status().lastPullAt !== null, 10_000, 'a pull after the pause');
    expect(engine.status()).toMatchObject({ lastError: null, pending: 0, readProblems: [] });
  });
});
