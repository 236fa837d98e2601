// Store mode's feed between two till processes on 127.0.0.1 (test/store-mode/fixtures/till-child.ts),
// each figure next to its raw limit measured in the same run:
//   - an entry appended on A (its own SQLite commit, WAL + synchronous=FULL) → committed on B with B's
//     cursor, 10 a second: p50 / p95, next to a raw loopback TLS 1.3 round trip of 1 KB;
//   - a catch-up of 10,000 × 1 KB entries into B's SQLite file, next to the same bytes sent over one
//     mutual TLS 1.3 connection between the same two processes with the same keys;
//   - a change to another till's order (two real cores, test/store-mode/fixtures/core-till.ts): from its
//     commit in B's log ("sent") to the owner's result listed on B's storeMode.orders, the owner A having
//     pulled it, applied it once and answered in its own log, which B pulled back: p50 / p95, next to the
//     TLS 1.3 round trip.
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer } from 'node:tls';
import { createTillIdentity } from '../../../store-mode/identity';
import { seedDataDir } from '../../core/fixtures';
import { freePorts } from '../../store-mode/fixtures/ports';
import { keyFile } from '../../store-mode/fixtures/key-file';
import { place, startStoreTill, waitForListing, waitForPeers, type TillSpec } from '../../store-mode/fixtures/store-tills';
import { startTill, type TillProcess } from '../../store-mode/till-process';
import { percentile, row, type BenchRow, type BenchSuite } from '../harness';

const SECRET = Buffer.alloc(32, 0x61).toString('base64');
const LIVE_ENTRIES = 150;
const LIVE_PER_SECOND = 10;
const CATCHUP_ENTRIES = 10_000;
const WARM_UP_ENTRIES = 100;
const ENTRY_BYTES = 1024;
const FORWARD_ROUNDS = 50;
/** What the feed sends per entry besides the body: seq, op id length, a UUID op id, body length. */
const FRAME_OVERHEAD = 8 + 1 + 36 + 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 1 KB ping-pong over one mutual TLS 1.3 connection on loopback, in this process: ms per round trip, sorted. */
async function tlsRoundTrips(count: number): Promise<number[]> {
  const identity = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bench', keyStore: keyFile(join(mkdtempSync(join(tmpdir(), 'pos-bench-')), 'k.json')) });
  const server = createServer({ ...identity.tls, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.3' }, (socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const socket = connect({ ...identity.tls, host: '127.0.0.1', port: (server.address() as AddressInfo).port, minVersion: 'TLSv1.3', checkServerIdentity: () => undefined });
  await new Promise((resolve) => socket.once('secureConnect', resolve));
  const message = Buffer.alloc(ENTRY_BYTES, 0x62);
  const samples: number[] = [];
  for (let i = 0; i < count + 20; i++) {
    const start = process.hrtime.bigint();
    await new Promise<void>((resolve) => {
      let received = 0;
      const onData = (chunk: Buffer) => {
        received += chunk.length;
        if (received < ENTRY_BYTES) return;
        socket.off('data', onData);
        resolve();
      };
      socket.on('data', onData);
      socket.write(message);
    });
    if (i >= 20) samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  socket.destroy();
  server.close();
  return samples.sort((a, b) => a - b);
}

async function liveLatencies(): Promise<number[]> {
  const tills: TillProcess[] = [];
  try {
    const a = await startTill({ tillName: 'Bar', deadlineMs: 120_000 }, SECRET);
    tills.push(a);
    const b = await startTill({ tillName: 'Patio', peer: { address: `127.0.0.1:${a.port}`, origin: a.tillId }, reportLatency: true, deadlineMs: 120_000 }, SECRET);
    tills.push(b);
    const latencies: number[] = [];
    for (let i = 0; i < LIVE_ENTRIES; i++) {
      a.send({ type: 'append', count: 1, bytes: ENTRY_BYTES, batch: 1, stamp: true });
      const applied = await b.next('applied');
      latencies.push(...(applied.latenciesMs as number[]));
      await sleep(1000 / LIVE_PER_SECOND);
    }
    return latencies.sort((x, y) => x - y);
  } finally {
    await Promise.all(tills.map((t) => t.stop()));
  }
}

/**
 * B is running and has pulled A before (a till back from a LAN cut, its process warm), then A commits
 * 10,000 entries at once: from A's commit to B's commit of the last entry.
 */
async function catchUp(): Promise<{ feedMBps: number; rawMBps: number; feedMs: number; rawMs: number }> {
  const tills: TillProcess[] = [];
  try {
    const a = await startTill({ tillName: 'Bar', deadlineMs: 120_000 }, SECRET);
    tills.push(a);
    const b = await startTill({ tillName: 'Patio', peer: { address: `127.0.0.1:${a.port}`, origin: a.tillId }, deadlineMs: 120_000 }, SECRET);
    tills.push(b);
    a.send({ type: 'append', count: WARM_UP_ENTRIES, bytes: ENTRY_BYTES, batch: 100 });
    await a.next('appended');
    await b.waitFor('applied', (m) => m.seq === WARM_UP_ENTRIES);
    const bytes = CATCHUP_ENTRIES * (ENTRY_BYTES + FRAME_OVERHEAD);

    a.send({ type: 'serveRaw', bytes });
    const { port } = await a.next('rawServing');
    b.send({ type: 'fetchRaw', port });
    const raw = await b.next('rawFetched', 60_000);

    a.send({ type: 'append', count: CATCHUP_ENTRIES, bytes: ENTRY_BYTES, batch: CATCHUP_ENTRIES });
    const committed = await a.next('appended', 60_000);
    const done = await b.waitFor('applied', (m) => m.seq === WARM_UP_ENTRIES + CATCHUP_ENTRIES, 60_000);
    const feedMs = Number(BigInt(done.at as string) - BigInt(committed.at as string)) / 1e6;
    const mbps = (ms: number) => bytes / 1048576 / (ms / 1000);
    return { feedMBps: mbps(feedMs), rawMBps: mbps(raw.ms as number), feedMs, rawMs: raw.ms as number };
  } finally {
    await Promise.all(tills.map((t) => t.stop()));
  }
}

/** Changes made on B to an order A owns, one after another: ms from each commit on B to its result listed on B. */
async function forwardRoundTrips(): Promise<number[]> {
  const tills: TillProcess[] = [];
  try {
    const ports = await freePorts(2);
    const specs: TillSpec[] = [
      { name: 'Bar', letter: 'B', dataDir: seedDataDir(), port: ports[0]! },
      { name: 'Patio', letter: 'P', dataDir: seedDataDir(), port: ports[1]! },
    ];
    const [a, b] = (await Promise.all(specs.map((spec) => startStoreTill(spec, specs, tills)))) as [TillProcess, TillProcess];
    await Promise.all([waitForPeers(a, 1), waitForPeers(b, 1)]);
    const [order] = await place(a, 1, '1');
    await waitForListing(b, [order!.id]);
    b.send({ type: 'forwardRounds', orderId: order!.id, rounds: FORWARD_ROUNDS });
    const { latenciesMs } = await b.next('forwarded', 60_000);
    return (latenciesMs as number[]).sort((x, y) => x - y);
  } finally {
    await Promise.all(tills.map((t) => t.stop()));
  }
}

const suite: BenchSuite = {
  name: 'store-mode',
  async run(): Promise<BenchRow[]> {
    const roundTrips = await tlsRoundTrips(200);
    const live = await liveLatencies();
    const catchUpFigures = await catchUp();
    const forwards = await forwardRoundTrips();
    const p50 = percentile(live, 50);
    const p95 = percentile(live, 95);
    return [
      row({
        name: `append on A → committed on B, ${LIVE_PER_SECOND}/s, p50`,
        value: p50,
        unit: 'ms',
        baselineName: 'TLS 1.3 loopback round trip 1 KB p50',
        baseline: percentile(roundTrips, 50),
        better: 'lower',
        target: 'informational',
        ok: true,
      }),
      row({
        name: `append on A → committed on B, ${LIVE_PER_SECOND}/s, p95`,
        value: p95,
        unit: 'ms',
        baselineName: 'TLS 1.3 loopback round trip 1 KB p95',
        baseline: percentile(roundTrips, 95),
        better: 'lower',
        target: 'p95 < 250 ms',
        ok: p95 < 250,
      }),
      row({
        name: `catch-up ${CATCHUP_ENTRIES.toLocaleString('en-US')} × 1 KB committed on B (${Math.round(catchUpFigures.feedMs)} ms)`,
        value: catchUpFigures.feedMBps,
        unit: 'MB/s',
        baselineName: `same bytes over mutual TLS 1.3 (${Math.round(catchUpFigures.rawMs)} ms)`,
        baseline: catchUpFigures.rawMBps,
        better: 'higher',
        target: '≥ 0.5× raw TLS',
        ok: catchUpFigures.feedMBps >= 0.5 * catchUpFigures.rawMBps,
      }),
      row({
        name: `change to another till's order: sent on B → applied on A → listed on B, ${forwards.length} samples, p50`,
        value: percentile(forwards, 50),
        unit: 'ms',
        baselineName: 'TLS 1.3 loopback round trip 1 KB p50',
        baseline: percentile(roundTrips, 50),
        better: 'lower',
        target: 'informational',
        ok: true,
      }),
      row({
        name: `change to another till's order: sent on B → applied on A → listed on B, ${forwards.length} samples, p95`,
        value: percentile(forwards, 95),
        unit: 'ms',
        baselineName: 'TLS 1.3 loopback round trip 1 KB p95',
        baseline: percentile(roundTrips, 95),
        better: 'lower',
        // Two feed hops (each a commit on one side, a pull and a commit on the other) and the owner's apply.
        target: 'p95 < 500 ms',
        ok: percentile(forwards, 95) < 500,
      }),
    ];
  },
};

export default suite;
