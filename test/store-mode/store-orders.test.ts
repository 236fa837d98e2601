// Every till sees the store's orders, with the cloud unreachable: three tills as separate processes,
// each a real core with its own SQLite file and store mode on, pulling the two others over mutual TLS
// on 127.0.0.1. Orders rung up on each appear once on the two others' storeMode.orders, quickly; a
// till SIGKILLed while the others sell catches up when restarted; store mode off opens nothing.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { seedDataDir } from '../core/fixtures';
import { startCoreTill, type TillProcess } from './till-process';
import { freePorts } from './fixtures/ports';
import { listeningSocketsOf } from './fixtures/sockets';
import { call, count, listed, percentile, place, startStoreTill as startTill, STORE_SECRET, waitForListing, type TillSpec } from './fixtures/store-tills';

const started: TillProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((till) => till.kill()));
});

const startStoreTill = (spec: TillSpec, all: readonly TillSpec[]) => startTill(spec, all, started);

describe('store mode: every till sees the store orders', () => {
  it('lists 30 orders rung up across three tills on every other till, once each, fast; a till killed mid-sale catches up', async () => {
    const ports = await freePorts(3);
    const specs: TillSpec[] = [
      { name: 'Bar', letter: 'B', dataDir: seedDataDir(), port: ports[0]! },
      { name: 'Patio', letter: 'P', dataDir: seedDataDir(), port: ports[1]! },
      { name: 'Front', letter: 'F', dataDir: seedDataDir(), port: ports[2]! },
    ];
    const tills = await Promise.all(specs.map((spec) => startStoreTill(spec, specs)));
    const [bar, patio, front] = tills as [TillProcess, TillProcess, TillProcess];
    // Each till has heard the two others before the test measures anything.
    for (const till of tills) {
      await expect.poll(async () => (await call<{ peers: { tillId: string | null }[] }>(till, 'storeMode.status')).peers.filter((p) => p.tillId !== null).length, { timeout: 20_000 }).toBe(2);
      till.send({ type: 'watch' });
    }

    const rungUp = await Promise.all(tills.map((till, i) => place(till, 10, String(i + 1))));
    const owner = new Map(rungUp.flatMap((orders, i) => orders.map((order) => [order.id, tills[i]!] as const)));
    const everyId = rungUp.flat().map((order) => order.id);
    expect(new Set(everyId).size).toBe(30);
    for (const [i, till] of tills.entries()) {
      const others = rungUp.filter((_, j) => j !== i).flat().map((order) => order.id);
      const orders = await waitForListing(till, others);
      for (const order of orders) {
        expect(order.ownerTillId).toBe(owner.get(order.id)!.tillId);
        expect(order.ownerTillName).toBe(specs[tills.indexOf(owner.get(order.id)!)]!.name);
        expect(order.reachedCloud).toBe(false);
      }
      // Its own orders are its own: in orders.list, not in the store's listing.
      const ownIds = (await call<{ id: string }[]>(till, 'orders.list', { status: 'open' })).map((order) => order.id);
      expect(ownIds.sort()).toEqual(rungUp[i]!.map((order) => order.id).sort());
    }

    // Commit on one till → listed on another (the watcher polls every 10 ms).
    const latencies: number[] = [];
    for (const [i, till] of tills.entries()) {
      till.send({ type: 'seen' });
      const { at } = (await till.next('seen')) as unknown as { at: Record<string, number> };
      for (const [j, orders] of rungUp.entries()) if (j !== i) for (const order of orders) latencies.push((at[order.id] as number) - order.at);
    }
    expect(latencies).toHaveLength(60);
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    console.info(`store-mode orders: commit → listed on another till, 60 samples: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`);
    // Listed as soon as committed (the long poll wakes), not at its 25 s end. The 250 ms target is a
    // speed figure, measured in `npm run bench` next to its raw limit: a loaded 2-core CI box is no judge of it.
    expect(p95).toBeLessThan(2_000);

    // Front is SIGKILLed while the others sell, then restarted on its own file: it catches up.
    await front.kill();
    const whileAway = await Promise.all([place(bar, 5, '7'), place(patio, 5, '8')]);
    const frontAgain = await startStoreTill(specs[2]!, specs);
    const othersNow = [...rungUp[0]!, ...rungUp[1]!, ...whileAway.flat()].map((order) => order.id);
    await waitForListing(frontAgain, othersNow);
    const frontOwn = rungUp[2]!.map((order) => order.id);
    await waitForListing(bar, [...rungUp[1]!, ...whileAway[1]!].map((o) => o.id).concat(frontOwn));
    await waitForListing(patio, [...rungUp[0]!, ...whileAway[0]!].map((o) => o.id).concat(frontOwn));
    await Promise.all([bar.stop(), patio.stop(), frontAgain.stop()]);

    // On disk: every entry of every other till once; each log holds one entry per operation.
    for (const [i, spec] of specs.entries()) {
      const ownOps = count(spec.dataDir, "SELECT COUNT(*) FROM outbox WHERE entity_kind = 'order'");
      expect(count(spec.dataDir, 'SELECT COUNT(*) FROM store_log')).toBe(ownOps);
      const otherEntries = specs.filter((_, j) => j !== i).reduce((sum, other) => sum + count(other.dataDir, 'SELECT COUNT(*) FROM store_log'), 0);
      expect(count(spec.dataDir, 'SELECT COUNT(*) FROM store_replica_log')).toBe(otherEntries);
      expect(count(spec.dataDir, 'SELECT COUNT(DISTINCT op_id) FROM store_replica_log')).toBe(otherEntries);
    }
  });

  it('store mode off: no listener opened (nor a multicast socket), no log rows written', async () => {
    const [port] = await freePorts(1);
    const spec: TillSpec = { name: 'Bar', letter: 'B', dataDir: seedDataDir(), port: port! };
    // Every interface and discovery on: with store mode off, still nothing.
    const till = await startCoreTill({ dataDir: spec.dataDir, tillName: spec.name, tillLetter: spec.letter, storeMode: 'off', listenHost: '0.0.0.0', port: spec.port, discovery: 'on', peers: [`127.0.0.1:${port! + 1}`], deadlineMs: 80_000 }, STORE_SECRET);
    started.push(till);
    await place(till, 3, '4');
    expect(await call(till, 'storeMode.status')).toEqual({ mode: 'off', till: null, refusals: {}, peers: [], pairing: { open: null, last: null } });
    expect(await listed(till)).toEqual([]);
    // Nothing answers on the configured address, and the process holds no listening socket at all.
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: port! }, () => (socket.destroy(), resolve(false)));
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    expect(listeningSocketsOf(till.process.pid!)).toEqual([]);
    await till.stop();
    expect(count(spec.dataDir, 'SELECT COUNT(*) FROM store_log')).toBe(0);
    expect(count(spec.dataDir, 'SELECT COUNT(*) FROM outbox')).toBe(3);
  });
});
