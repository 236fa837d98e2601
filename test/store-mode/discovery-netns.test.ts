// Store discovery by real multicast: three tills, each a real core in its own network namespace, joined
// by veth pairs to a bridge in a fourth namespace, addresses private to the test (nothing leaves the
// namespaces created here). No peer list (one till names one peer too, to prove the dedupe): each till
// finds the two others by DNS-SD and pulls their orders; one till's link down, the others stop hearing
// it while they keep hearing each other; link up, it catches up both ways. On the wire, the tills say
// the store tag and nothing else, and goodbye when they stop. Needs CAP_NET_ADMIN (root on
// CI): skipped, saying why, where namespaces cannot be made. The loopback peer-list tests always run.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStoreSecret } from '../../store-mode/secret';
import { deriveStoreCa } from '../../store-mode/store-ca';
import { seedDataDir } from '../core/fixtures';
import { startCoreTill, type TillProcess } from './till-process';
import { call, listed, place, waitForListing, type Placed } from './fixtures/store-tills';
import { listeningSocketsOf } from './fixtures/sockets';

const ip = (...args: string[]): void => void execFileSync('ip', args, { stdio: 'pipe' });

const run = randomBytes(3).toString('hex');
const BRIDGE_NS = `posd-${run}-br`;
const TILLS = ['Bar', 'Patio', 'Front'].map((name, i) => ({ name, letter: name[0] as string, ns: `posd-${run}-${i + 1}`, port: `v${run}${i + 1}`, address: `10.231.7.${11 + i}` }));
const FEED_PORT = 7420;
// A store of this run alone.
const SECRET = randomBytes(32).toString('base64');

/** Why namespaces cannot be made here, or null when they can. */
function namespacesUnavailable(): string | null {
  const probe = `posd-${run}-probe`;
  try {
    ip('netns', 'add', probe);
    ip('netns', 'del', probe);
    return null;
  } catch (error) {
    return `cannot create network namespaces here (needs root or CAP_NET_ADMIN): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

const unavailable = namespacesUnavailable();
if (unavailable !== null) console.warn(`discovery-netns: skipped: ${unavailable}`);

interface PeerStatus {
  address: string | null;
  source: 'configured' | 'discovered' | null;
  tillId: string | null;
  lastHeardAt: string | null;
}
/**
 * Every DNS-SD response for the store's service type heard in `ns`, as JSON lines (TXT values as text):
 * what the tills really put on the wire. It asks once at start, so the current advertisements are among them.
 */
function listenOnTheWire(ns: string, address: string): { lines: () => string[]; stop: () => void; ready: Promise<void> } {
  const script = `
    import mdns from 'multicast-dns';
    const m = mdns({ interface: process.argv[1], bind: '0.0.0.0' });
    m.on('response', (packet, rinfo) => {
      const records = [...packet.answers, ...packet.additionals].map((r) => ({ name: r.name, type: r.type, ttl: r.ttl, data: r.type === 'TXT' ? r.data.map(String) : r.data }));
      if (records.some((r) => r.name.includes('_pos-store'))) process.stdout.write(JSON.stringify({ from: rinfo.address, records }) + '\\n');
    });
    m.on('ready', () => { m.query('_pos-store._tcp.local', 'PTR'); process.stdout.write('ready\\n'); });`;
  const child = spawn('ip', ['netns', 'exec', ns, process.execPath, '--input-type=module', '-e', script, address], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const ready = new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => ((output += chunk.toString()), output.includes('ready\n') && resolve())));
  return { ready, lines: () => output.split('\n').filter((line) => line.startsWith('{')), stop: () => void child.kill() };
}

const peersOf = async (till: TillProcess) => (await call<{ peers: PeerStatus[] }>(till, 'storeMode.status')).peers;

describe.skipIf(unavailable !== null)('store discovery by multicast, a till per network namespace', () => {
  const tills: TillProcess[] = [];

  beforeAll(async () => {
    ip('netns', 'add', BRIDGE_NS);
    ip('-n', BRIDGE_NS, 'link', 'add', 'br0', 'type', 'bridge');
    ip('-n', BRIDGE_NS, 'link', 'set', 'br0', 'up');
    for (const till of TILLS) {
      ip('netns', 'add', till.ns);
      ip('link', 'add', till.port, 'netns', BRIDGE_NS, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', till.ns);
      ip('-n', BRIDGE_NS, 'link', 'set', till.port, 'master', 'br0', 'up');
      ip('-n', till.ns, 'addr', 'add', `${till.address}/24`, 'dev', 'eth0');
      ip('-n', till.ns, 'link', 'set', 'eth0', 'up');
      ip('-n', till.ns, 'link', 'set', 'lo', 'up');
    }
    const started = await Promise.all(
      TILLS.map((till, i) =>
        startCoreTill(
          {
            dataDir: seedDataDir(),
            tillName: till.name,
            tillLetter: till.letter,
            storeMode: 'on',
            listenHost: till.address,
            port: FEED_PORT,
            discovery: 'on',
            // Front also has Bar in its list: Bar is then both configured and discovered there.
            peers: i === 2 ? [`${TILLS[0]!.address}:${FEED_PORT}`] : [],
            deadlineMs: 60_000,
          },
          SECRET,
          ['ip', 'netns', 'exec', till.ns],
        ),
      ),
    );
    tills.push(...started);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(tills.map((till) => till.stop().catch(() => till.kill())));
    // Deleting a namespace deletes its end of each veth pair, and the pair with it.
    for (const ns of [...TILLS.map((till) => till.ns), BRIDGE_NS]) {
      try {
        ip('netns', 'del', ns);
      } catch {
        // Never made: beforeAll failed before it.
      }
    }
  }, 20_000);

  it('finds the other tills with no peer list, pulls their orders, stops hearing a till cut off and catches it up', { timeout: 45_000 }, async () => {
    const [bar, patio, front] = tills as [TillProcess, TillProcess, TillProcess];
    const idOf = new Map(tills.map((till, i) => [till.tillId, TILLS[i]!]));
    // Each hears the two others once, at their namespace addresses; Bar once on Front, as configured.
    for (const [i, till] of tills.entries()) {
      await expect
        .poll(async () => (await peersOf(till)).filter((peer) => peer.tillId !== null).length, { timeout: 15_000, interval: 200 })
        .toBe(2);
      const peers = (await peersOf(till)).filter((peer) => peer.tillId !== null);
      expect(peers.map((peer) => peer.tillId).sort()).toEqual(tills.filter((other) => other !== till).map((other) => other.tillId).sort());
      for (const peer of peers) {
        expect(peer.address).toBe(`${idOf.get(peer.tillId!)!.address}:${FEED_PORT}`);
        expect(peer.source).toBe(i === 2 && peer.tillId === bar.tillId ? 'configured' : 'discovered');
      }
    }

    // The multicast socket is the till's own: DNS-SD's port, 5353 (14E9), bound in its namespace.
    for (const till of tills) expect(listeningSocketsOf(till.process.pid!).filter((socket) => socket.startsWith('udp ') && socket.endsWith(':14E9'))).toHaveLength(1);

    const rungUp = await Promise.all(tills.map((till, i) => place(till, 2, String(i + 1))));
    for (const [i, till] of tills.entries()) await waitForListing(till, rungUp.filter((_, j) => j !== i).flat().map((order) => order.id));

    // Bar's link down: Bar and Patio sell on; Front hears Patio, not Bar; Bar hears no one.
    ip('-n', BRIDGE_NS, 'link', 'set', TILLS[0]!.port, 'down');
    const [barCut, patioMeanwhile] = await Promise.all([place(bar, 2, '1'), place(patio, 2, '2')]);
    const cutAt = Math.min(...barCut.map((order) => order.at));
    const ids = (orders: readonly Placed[]) => orders.map((order) => order.id);
    await waitForListing(front, [...ids(rungUp[0]!), ...ids(rungUp[1]!), ...ids(patioMeanwhile)]);
    for (const till of [patio, front]) {
      expect((await listed(till)).map((order) => order.id)).not.toContain(barCut[0]!.id);
      const heardOfBar = (await peersOf(till)).find((peer) => peer.tillId === bar.tillId)!;
      // Not heard since before its first sale cut off.
      expect(heardOfBar.lastHeardAt === null || Date.parse(heardOfBar.lastHeardAt) < cutAt).toBe(true);
    }
    expect((await listed(bar)).map((order) => order.id)).not.toContain(patioMeanwhile[0]!.id);

    // Link up: everyone has everything, once.
    ip('-n', BRIDGE_NS, 'link', 'set', TILLS[0]!.port, 'up');
    const everything = [[...rungUp[0]!, ...barCut], [...rungUp[1]!, ...patioMeanwhile], rungUp[2]!];
    for (const [i, till] of tills.entries()) await waitForListing(till, everything.filter((_, j) => j !== i).flat().map((order) => order.id), 30_000);

    // On the wire, from Patio's namespace: the store tag and nothing else; Bar stopping says goodbye (TTL 0).
    const wire = listenOnTheWire(TILLS[1]!.ns, TILLS[1]!.address);
    try {
      await wire.ready;
      const { storeTag } = await deriveStoreCa(parseStoreSecret(SECRET));
      await expect.poll(() => new Set(wire.lines().map((line) => (JSON.parse(line) as { from: string }).from)).size, { timeout: 5_000 }).toBe(3);
      await bar.stop();
      const goodbye = (line: string) => {
        const heard = JSON.parse(line) as { from: string; records: { ttl: number }[] };
        return heard.from === TILLS[0]!.address && heard.records.every((record) => record.ttl === 0);
      };
      await expect.poll(() => wire.lines().some(goodbye), { timeout: 5_000 }).toBe(true);
      expect(wire.lines().filter((line) => line.includes('"TXT"')).length).toBeGreaterThan(0);
      for (const line of wire.lines()) {
        for (const leak of [...TILLS.map((till) => till.name), SECRET, Buffer.from(parseStoreSecret(SECRET)).toString('hex')]) expect(line).not.toContain(leak);
        const txt = (JSON.parse(line) as { records: { type: string; data: string[] }[] }).records.filter((record) => record.type === 'TXT');
        for (const record of txt) expect(record.data).toEqual([`store=${storeTag}`]);
      }
    } finally {
      wire.stop();
    }
  });
});
