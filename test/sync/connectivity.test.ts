// The connectivity probe over real HTTP against the sandbox's outage fault: offline is noticed
// while the terminal sits idle (no write, no pull due), coming back is noticed with an empty
// outbox, and the probes stay few. Every request asks the credentials for a bearer once, which
// is how the requests are counted here.
import { describe, expect, it } from 'vitest';
import { ApiKeyCredentials } from '../../sync/credentials';
import { cleanupAfterEach, engineFor, sandboxAndStore, waitFor, type Sandbox, type Store } from './harness';
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
});
