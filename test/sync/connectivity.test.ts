// The connectivity probe over real HTTP against the sandbox's outage fault: offline is noticed
// while the terminal sits idle (no write, no pull due), coming back is noticed with an empty
// outbox, and the probes stay few. Every request asks the credentials for a bearer once, which
// is how the requests are counted here.
import { describe, expect, it } from 'vitest';
import { ApiKeyCredentials } from '../../sync/credentials';
import { allServerOrders, cleanupAfterEach, engineFor, menuFixture, placeOrder, sandboxAndStore, waitFor, type Sandbox, type Store } from './harness';
import type { SyncEngine } from '../../sync/engine';

const defer = cleanupAfterEach();
const PROBE = { idleIntervalMs: 300, minGapMs: 50, timeoutMs: 500 };

function countingEngine(sandbox: Sandbox, store: Store): { engine: SyncEngine; requests: () => number } {
  let requests = 0;
  const engine = engineFor(sandbox, store, {
    credentials: new ApiKeyCredentials(async () => {
      requests++;
      return sandbox.credentials.apiKeys.full;
    }),
    timers: { pushIntervalMs: 200, pullIntervalMs: 60_000, probe: PROBE },
    tuning: { offlineBackoff: { baseMs: 100, capMs: 400 }, requestTimeoutMs: 2_000 },
  });
  engine.start();
  defer(() => engine.stop());
  return { engine, requests: () => requests };
}

describe('connectivity probe', () => {
  it('notices an outage while idle within the probe interval, and the end of it with nothing to push', async () => {
    const { sandbox, store } = await sandboxAndStore(defer);
    const { engine } = countingEngine(sandbox, store);
    await waitFor(() => engine.status().online && engine.status().lastPullAt !== null, 15_000, 'the first pull');
    await engine.idle();

    await sandbox.faults.set({ outage: true });
    const outageAt = Date.now();
    await waitFor(() => !engine.status().online, 5_000, 'the outage to be noticed');
    // Idle interval, plus one probe's timeout at most (a refused connection fails at once).
    expect(Date.now() - outageAt).toBeLessThan(PROBE.idleIntervalMs + PROBE.timeoutMs + 400);
    expect(store.outbox.unfinishedCount()).toBe(0); // no write told it
    expect(engine.status().lastError).not.toBeNull();

    await sandbox.faults.set({ outage: false });
    const backAt = Date.now();
    await waitFor(() => engine.status().online, 5_000, 'the connection to come back');
    // The next probe is due at the end of the offline pause (capped at 400 ms here).
    expect(Date.now() - backAt).toBeLessThan(400 + PROBE.timeoutMs + 400);
    expect(engine.status()).toMatchObject({ backoff: null, lastError: null });
  });

  it('keeps probes few: about one per idle interval online, and one per pause offline', async () => {
    const { sandbox, store } = await sandboxAndStore(defer);
    const { engine, requests } = countingEngine(sandbox, store);
    await waitFor(() => engine.status().lastPullAt !== null, 15_000, 'the first pull');
    await engine.idle();

    const onlineStart = requests();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const onlineProbes = requests() - onlineStart;
    expect(onlineProbes).toBeGreaterThanOrEqual(3); // every 300 ms of quiet
    expect(onlineProbes).toBeLessThanOrEqual(6);

    await sandbox.faults.set({ outage: true });
    await waitFor(() => !engine.status().online, 5_000, 'the outage to be noticed');
    const offlineStart = requests();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const offlineProbes = requests() - offlineStart;
    // Pauses of 50..400 ms with jitter, never closer than 50 ms: bounded, not a loop.
    expect(offlineProbes).toBeGreaterThanOrEqual(2);
    expect(offlineProbes).toBeLessThanOrEqual(1_500 / PROBE.minGapMs);
    expect(engine.status().online).toBe(false);
  });

  it('a revoked key is noticed by the probe while idle, and probing stops until the key is replaced', async () => {
    const { sandbox, store } = await sandboxAndStore(defer);
    let key = sandbox.credentials.apiKeys.full;
    let requests = 0;
    const engine = engineFor(sandbox, store, {
      credentials: new ApiKeyCredentials(async () => {
        requests++;
        return key;
      }),
      timers: { pullIntervalMs: 60_000, probe: PROBE },
    });
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => engine.status().lastPullAt !== null, 15_000, 'the first pull');
    key = 'sk_test_revoked';
    await waitFor(() => engine.status().credentials === 'rejected', 5_000, 'the probe to meet the refusal');
    expect(engine.status().online).toBe(true); // the server answered: a key problem, not an outage
    const after = requests;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(requests - after).toBe(0);
  });

  it('a write that fails on the network while GETs still work is a blip: online again at once, not after the offline pause', async () => {
    const { sandbox, store } = await sandboxAndStore(defer);
    const menu = await menuFixture(sandbox);
    const engine = engineFor(sandbox, store, {
      // An offline pause of 2.5 s at least: coming back before it proves the probe ran at once.
      timers: { pushIntervalMs: 200, pullIntervalMs: 60_000, probe: { idleIntervalMs: 60_000, minGapMs: 50, timeoutMs: 500 } },
      tuning: { offlineBackoff: { baseMs: 5_000, capMs: 10_000 }, requestTimeoutMs: 2_000, push: { lookup: { clockSkewMs: 600_000, maxPages: 50, settleMs: 300 } } },
    });
    const transitions: { online: boolean; at: number }[] = [];
    engine.onStatus((s) => {
      if (transitions.at(-1)?.online !== s.online) transitions.push({ online: s.online, at: Date.now() });
    });
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => engine.status().online && engine.status().lastPullAt !== null, 15_000, 'the first pull');

    transitions.length = 0;
    transitions.push({ online: true, at: Date.now() });
    // The order's POST commits but its reply is lost (the connection is cut): a network failure.
    await sandbox.faults.set({ drop_response_rate: 1, drop_response_methods: ['POST'] });
    const order = placeOrder(store, menu, 1);
    engine.notifyLocalWrite();
    await waitFor(() => transitions.some((t) => !t.online), 5_000, 'the failed push');
    await waitFor(() => engine.status().online, 2_000, 'the probe right after the failure');
    const wentOffline = transitions.findLast((t) => !t.online) as { at: number };
    const cameBack = transitions.findLast((t) => t.online) as { at: number };
    expect(cameBack.at - wentOffline.at).toBeLessThan(1_000);

    await sandbox.faults.set({ drop_response_rate: 0 });
    await waitFor(() => store.outbox.unfinishedCount() === 0, 10_000, 'the order to be confirmed');
    const copies = (await allServerOrders(sandbox)).filter((o) => o.metadata.pos_local_id === order.id);
    expect(copies).toHaveLength(1); // looked for before resending: the committed POST is found, not doubled
  });
});
