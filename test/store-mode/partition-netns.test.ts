// A LAN partition between two tills (issue 26): Bar and Patio, each a real core in its own network
// namespace, joined by veth pairs to a bridge in a third (fixtures/netns-lan.ts), each pulling the
// other over mutual TLS from its peer list (no discovery). Bar owns a tab that Patio lists. Bar's
// switch port is set down: both keep selling, Bar changes the tab itself and Patio changes it too
// (a forward, durable on Patio and shown waiting). The port set up again: each till has every order
// of the other once, its replica of the other's log is that log exactly, the feeds went on from their
// cursors (no log read again from the start), and the tab holds both changes, merged on Bar once; or,
// when both changed the same line differently, Bar keeps its own and Patio shows one refusal in words.
// The first two cuts last about a second (the feeds' connections outlive them: TCP retransmits); the
// third lasts until each till's long poll times out (about 35 s), so each says it cannot reach the other,
// and after the heal reconnects and reads on from its cursor. About 55 s in all on the 2-core machine.
// Needs CAP_NET_ADMIN (root on CI): skipped, saying why, where namespaces cannot be made.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ITEMS, seedDataDir } from '../core/fixtures';
import { startCoreTill, type TillProcess } from './till-process';
import { call, count, listed, place, waitForListing, waitForPeers, type ListedOrder, type Placed } from './fixtures/store-tills';
import { createLan, namespacesUnavailable, type LanHost, type NetnsLan } from './fixtures/netns-lan';

const run = randomBytes(3).toString('hex');
// Apart from discovery-netns.test.ts's namespaces (posd-…) and subnet (10.231.7.0/24).
const PREFIX = `pospart-${run}`;
const SUBNET = '10.231.9';
const FEED_PORT = 7430;
// A store of this run alone.
const SECRET = randomBytes(32).toString('base64');

const unavailable = namespacesUnavailable(`${PREFIX}-probe`);
if (unavailable !== null) console.warn(`partition-netns: skipped: ${unavailable}`);

interface Forward {
  id: string;
  orderId: string;
  state: 'pending' | 'applied' | 'refused';
  sentence: string;
}
interface OrderView {
  id: string;
  status: string;
  lines: { menuItemId: string; quantity: number }[];
}
interface PeerStatus {
  tillId: string | null;
  lastHeardAt: string | null;
  logReplacements: number;
  problem: string | null;
}

const byItem = (a: [string, number], b: [string, number]) => a[0].localeCompare(b[0]);
const linesOf = (view: { lines: { menuItemId: string; quantity: number }[] }): [string, number][] => view.lines.map((line): [string, number] => [line.menuItemId, line.quantity]).sort(byItem);
const ids = (orders: readonly Placed[]) => orders.map((order) => order.id);
const forwardsOn = async (till: TillProcess) => (await call<{ forwards: Forward[] }>(till, 'storeMode.forwards')).forwards;
const rowOf = async (till: TillProcess, orderId: string): Promise<ListedOrder | undefined> => (await listed(till)).find((order) => order.id === orderId);

/** Reads until `done`, within `timeoutMs`: a bounded wait, never a sleep standing for correctness. */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The owner's outbox operations on one order (its create, then one per change). */
const operations = (owner: TillProcess, orderId: string) => count(owner.dataDir, "SELECT COUNT(*) FROM outbox WHERE entity_kind = 'order' AND entity_id = ?", orderId);
const logLength = (till: TillProcess) => count(till.dataDir, 'SELECT COUNT(*) FROM store_log');
const cursorOn = (till: TillProcess, origin: TillProcess) => count(till.dataDir, 'SELECT seq FROM store_cursors WHERE origin = ?', origin.tillId);

describe.skipIf(unavailable !== null)('store mode across a real LAN partition, a till per network namespace', () => {
  let lan: NetnsLan | null = null;
  const tills = new Map<string, TillProcess>();
  let bar: TillProcess;
  let patio: TillProcess;
  let barHost: LanHost;
  // The refusal Patio showed for the conflict (the second case).
  let conflictSentence: string | null = null;
  // The open orders each till owns, as the other should list them.
  const openOn = { bar: [] as string[], patio: [] as string[] };

  beforeAll(async () => {
    lan = createLan(PREFIX, SUBNET, ['Bar', 'Patio']);
    const hosts = lan.hosts;
    await Promise.all(
      hosts.map(async (host) => {
        const other = hosts.find((h) => h !== host)!;
        const till = await startCoreTill(
          {
            dataDir: seedDataDir(),
            tillName: host.name,
            tillLetter: host.name[0]!,
            storeMode: 'on',
            listenHost: host.address,
            port: FEED_PORT,
            discovery: 'off',
            peers: [`${other.address}:${FEED_PORT}`],
            deadlineMs: 150_000,
          },
          SECRET,
          host.launcher,
        );
        tills.set(host.name, till);
      }),
    );
    bar = tills.get('Bar')!;
    patio = tills.get('Patio')!;
    barHost = hosts[0]!;
    await Promise.all([waitForPeers(bar, 1), waitForPeers(patio, 1)]);
  }, 40_000);

  afterAll(async () => {
    await Promise.all([...tills.values()].map((till) => till.stop().catch(() => till.kill())));
    lan?.destroy();
  }, 20_000);

  /** Bar's new tab (fries 2 at `table`) and two orders each, listed across before the cut; the cursors then. */
  async function beforeTheCut(table: string) {
    const tab = await call<OrderView>(bar, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table, guests: 2 } });
    const [barSold, patioSold] = await Promise.all([place(bar, 2, `${table}1`), place(patio, 2, `${table}2`)]);
    openOn.bar.push(tab.id, ...ids(barSold));
    openOn.patio.push(...ids(patioSold));
    await waitForListing(patio, openOn.bar);
    await waitForListing(bar, openOn.patio);
    return { tab, cursors: { onBar: cursorOn(bar, patio), onPatio: cursorOn(patio, bar) } };
  }

  /** While cut off: what each sold is not on the other, Patio's forward waits (nothing on Bar), Patio's replica of the tab is as before. */
  async function expectCutOff(barSold: readonly Placed[], patioSold: readonly Placed[], tabId: string, forward: Forward) {
    expect(forward).toMatchObject({ state: 'pending', orderId: tabId, sentence: 'Sent to Bar, waiting for it.' });
    const row = await rowOf(patio, tabId);
    expect(row && linesOf(row)).toEqual([[ITEMS.fries, 2]]);
    expect(row?.forwards).toEqual([expect.objectContaining({ id: forward.id, state: 'pending', sentence: 'Sent to Bar, waiting for it.' })]);
    expect((await forwardsOn(patio)).filter((f) => f.state === 'pending').map((f) => f.id)).toEqual([forward.id]);
    expect(count(bar.dataDir, 'SELECT COUNT(*) FROM store_inbox WHERE op_id = ?', forward.id)).toBe(0);
    for (const id of ids(barSold)) expect((await listed(patio)).map((order) => order.id)).not.toContain(id);
    for (const id of ids(patioSold)) expect((await listed(bar)).map((order) => order.id)).not.toContain(id);
    // Neither has heard the other since before the other's first sale cut off.
    for (const [till, other, sold] of [
      [patio, bar, barSold],
      [bar, patio, patioSold],
    ] as const) {
      const heard = (await call<{ peers: PeerStatus[] }>(till, 'storeMode.status')).peers.find((peer) => peer.tillId === other.tillId)!;
      expect(heard.lastHeardAt).not.toBeNull();
      expect(Date.parse(heard.lastHeardAt!)).toBeLessThan(Math.min(...sold.map((order) => order.at)));
    }
  }

  /** After the heal: each lists the other's open orders once, holds the other's log once, read on from its cursor. */
  async function expectConverged(cursorsBefore: { onBar: number; onPatio: number }) {
    for (const [till, other] of [
      [bar, patio],
      [patio, bar],
    ] as const) {
      const expected = till === bar ? openOn.patio : openOn.bar;
      const rows = await waitForListing(till, expected, 30_000);
      expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
      // Its replica of the other's log is that log, each entry once (the other's log may still grow by an outcome: wait for it).
      const held = await until(
        () => [count(till.dataDir, 'SELECT COUNT(*) FROM store_replica_log WHERE origin = ?', other.tillId), logLength(other)],
        ([replica, log]) => replica === log,
        `${till === bar ? 'Bar' : 'Patio'}'s replica of the other's log`,
        15_000,
      );
      expect(count(till.dataDir, 'SELECT COUNT(DISTINCT op_id) FROM store_replica_log WHERE origin = ?', other.tillId)).toBe(held[1]);
      expect(count(till.dataDir, 'SELECT COUNT(DISTINCT seq) FROM store_replica_log WHERE origin = ?', other.tillId)).toBe(held[1]);
      // Read on from the cursor it had: past it now, the log never found replaced, never read again from 0.
      expect(cursorOn(till, other)).toBe(count(other.dataDir, 'SELECT MAX(seq) FROM store_log'));
      expect(cursorOn(till, other)).toBeGreaterThan(till === bar ? cursorsBefore.onBar : cursorsBefore.onPatio);
      expect(count(till.dataDir, 'SELECT replaced FROM store_cursors WHERE origin = ?', other.tillId)).toBe(0);
      const peers = (await call<{ peers: PeerStatus[] }>(till, 'storeMode.status')).peers.filter((peer) => peer.tillId !== null);
      expect(peers.map((peer) => [peer.tillId, peer.logReplacements])).toEqual([[other.tillId, 0]]);
      expect(till.output()).not.toContain('store-feed.log-replaced');
      // Its own sales, each once in its own outbox (no order made twice by the partition).
      expect(count(till.dataDir, "SELECT COUNT(DISTINCT entity_id) FROM outbox WHERE entity_kind = 'order'")).toBe(till === bar ? openOn.bar.length : openOn.patio.length);
      expect(count(till.dataDir, "SELECT COUNT(*) FROM outbox WHERE entity_kind = 'order' AND kind LIKE '%.create'")).toBe(till === bar ? openOn.bar.length : openOn.patio.length);
    }
  }

  it('both sell and both change one tab while cut off: after the heal each has everything once, the tab holding both changes, merged once on Bar', { timeout: 60_000 }, async () => {
    const { tab, cursors } = await beforeTheCut('5');

    lan!.cut(barHost);
    const [barSold, patioSold] = await Promise.all([place(bar, 5, '51'), place(patio, 5, '52')]);
    // Bar adds a burger to its own tab; Patio, on the tab as it last saw it, adds a latte.
    const onBar = await call<OrderView>(bar, 'orders.update', { id: tab.id, lines: [{ menuItemId: ITEMS.fries, quantity: 2 }, { menuItemId: ITEMS.burger, quantity: 1 }] });
    expect(linesOf(onBar)).toEqual(([[ITEMS.burger, 1], [ITEMS.fries, 2]] as [string, number][]).sort(byItem));
    const forward = await call<Forward>(patio, 'storeMode.changeOrder', { orderId: tab.id, change: { kind: 'lines', lines: [{ menuItemId: ITEMS.fries, quantity: 2 }, { menuItemId: ITEMS.latte, quantity: 1 }] } });
    await expectCutOff(barSold, patioSold, tab.id, forward);

    lan!.heal(barHost);
    openOn.bar.push(...ids(barSold));
    openOn.patio.push(...ids(patioSold));
    const merged = ([[ITEMS.burger, 1], [ITEMS.fries, 2], [ITEMS.latte, 1]] as [string, number][]).sort(byItem);
    // Patio's forward is applied (it leaves the list of pending and refused ones), and Patio's replica shows the merge.
    await until(() => forwardsOn(patio), (forwards) => forwards.length === 0, "Patio's forward still pending or refused");
    const row = await until(() => rowOf(patio, tab.id), (r) => r !== undefined && JSON.stringify(linesOf(r)) === JSON.stringify(merged), "Patio's replica of the tab", 10_000);
    expect(row!.forwards).toEqual([]);
    expect(count(patio.dataDir, 'SELECT state FROM store_forwards WHERE op_id = ?', forward.id)).toBe('applied');

    // On Bar: both changes, the forward applied once (one inbox row, one audit entry, one outbox operation).
    expect(linesOf(await call<OrderView>(bar, 'orders.get', { id: tab.id }))).toEqual(merged);
    expect(count(bar.dataDir, 'SELECT COUNT(*) FROM store_inbox')).toBe(1);
    expect(count(bar.dataDir, "SELECT COUNT(*) FROM store_inbox WHERE op_id = ? AND state = 'applied'", forward.id)).toBe(1);
    expect(count(bar.dataDir, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.forward.applied'")).toBe(1);
    expect(count(bar.dataDir, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.forward.refused'")).toBe(0);
    // Its create, Bar's own change, Patio's change.
    expect(operations(bar, tab.id)).toBe(3);
    await expectConverged(cursors);
  });

  it('both change the same line differently while cut off: after the heal Bar keeps its own, Patio shows one refusal in words, nothing doubled', { timeout: 60_000 }, async () => {
    const { tab, cursors } = await beforeTheCut('6');

    lan!.cut(barHost);
    const [barSold, patioSold] = await Promise.all([place(bar, 3, '61'), place(patio, 3, '62')]);
    // Bar makes the fries 3; Patio, on the old version (fries 2), makes them 5.
    expect(linesOf(await call<OrderView>(bar, 'orders.update', { id: tab.id, lines: [{ menuItemId: ITEMS.fries, quantity: 3 }] }))).toEqual([[ITEMS.fries, 3]]);
    const forward = await call<Forward>(patio, 'storeMode.changeOrder', { orderId: tab.id, change: { kind: 'lines', lines: [{ menuItemId: ITEMS.fries, quantity: 5 }] } });
    await expectCutOff(barSold, patioSold, tab.id, forward);

    lan!.heal(barHost);
    openOn.bar.push(...ids(barSold));
    openOn.patio.push(...ids(patioSold));
    // The item's name is asserted apart (below): the owner names none today.
    const refusal = expect.stringMatching(/^Bar refused: .+ was changed here meanwhile \(now 3, it was 2\): look at the order again and change it once more\.$/);
    // One conflict, shown to the person on Patio: in its forwards and on the tab's row, with Bar's value.
    const forwards = await until(() => forwardsOn(patio), (f) => !f.some((one) => one.state === 'pending'), "Patio's forward still pending");
    expect(forwards.map((f) => [f.id, f.state, f.sentence])).toEqual([[forward.id, 'refused', refusal]]);
    conflictSentence = forwards[0]!.sentence;
    const row = await until(() => rowOf(patio, tab.id), (r) => r !== undefined && JSON.stringify(linesOf(r)) === JSON.stringify([[ITEMS.fries, 3]]), "Patio's replica of the tab", 10_000);
    expect(row!.forwards.map((f) => [f.id, f.state, f.sentence])).toEqual([[forward.id, 'refused', refusal]]);
    expect(count(patio.dataDir, 'SELECT state FROM store_forwards WHERE op_id = ?', forward.id)).toBe('refused');
    expect(count(patio.dataDir, 'SELECT COUNT(*) FROM store_forwards')).toBe(2);

    // On Bar: its value kept, the forward answered once (refused), no operation for it.
    expect(linesOf(await call<OrderView>(bar, 'orders.get', { id: tab.id }))).toEqual([[ITEMS.fries, 3]]);
    expect(count(bar.dataDir, 'SELECT COUNT(*) FROM store_inbox')).toBe(2);
    expect(count(bar.dataDir, "SELECT COUNT(*) FROM store_inbox WHERE op_id = ? AND state = 'refused'", forward.id)).toBe(1);
    expect(count(bar.dataDir, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.forward.refused'")).toBe(1);
    expect(count(bar.dataDir, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.forward.applied'")).toBe(1);
    expect(operations(bar, tab.id)).toBe(2);
    await expectConverged(cursors);
  });

  it('a partition long enough that each till’s pull fails: each says so, and after the heal reconnects, reads on from its cursor, and the forward made meanwhile lands once', { timeout: 75_000 }, async () => {
    const { tab, cursors } = await beforeTheCut('7');

    lan!.cut(barHost);
    const [barSold, patioSold] = await Promise.all([place(bar, 3, '71'), place(patio, 3, '72')]);
    const forward = await call<Forward>(patio, 'storeMode.changeOrder', { orderId: tab.id, change: { kind: 'lines', lines: [{ menuItemId: ITEMS.fries, quantity: 2 }, { menuItemId: ITEMS.soup, quantity: 1 }] } });
    await expectCutOff(barSold, patioSold, tab.id, forward);
    // Each long poll goes unanswered past its limit (the long poll + 10 s): the pull fails, and each till says so.
    const problemOf = async (till: TillProcess, other: TillProcess) => (await call<{ peers: PeerStatus[] }>(till, 'storeMode.status')).peers.find((peer) => peer.tillId === other.tillId)?.problem ?? null;
    const problems = await until(async () => [await problemOf(bar, patio), await problemOf(patio, bar)], (both) => both.every((problem) => problem !== null), 'the pulls have not failed', 45_000);
    expect(problems).toEqual([expect.any(String), expect.any(String)]);

    lan!.heal(barHost);
    openOn.bar.push(...ids(barSold));
    openOn.patio.push(...ids(patioSold));
    // Applied, it leaves the list (the second case's refusal stays in it, for an hour).
    await until(() => forwardsOn(patio), (forwards) => !forwards.some((f) => f.id === forward.id), "Patio's forward still pending or refused");
    expect(count(patio.dataDir, 'SELECT state FROM store_forwards WHERE op_id = ?', forward.id)).toBe('applied');
    expect(linesOf(await call<OrderView>(bar, 'orders.get', { id: tab.id }))).toEqual(([[ITEMS.fries, 2], [ITEMS.soup, 1]] as [string, number][]).sort(byItem));
    expect(count(bar.dataDir, 'SELECT COUNT(*) FROM store_inbox WHERE op_id = ?', forward.id)).toBe(1);
    expect(operations(bar, tab.id)).toBe(2);
    await expectConverged(cursors);
    // Answering again: the problem is gone, and the failed pulls were logged (a new connection, not the old one resumed).
    await until(async () => [await problemOf(bar, patio), await problemOf(patio, bar)], (both) => both.every((problem) => problem === null), 'a problem still shown', 10_000);
    for (const till of [bar, patio]) expect(till.output()).toContain('store-feed.pull-failed');
  });

  // The sentence names the item as the owner's line does (forward-inbox.ts mergedLines).
  it('names the item in the conflict shown on Patio ("Fries was changed here meanwhile")', () => {
    expect(conflictSentence).toBe('Bar refused: Fries was changed here meanwhile (now 3, it was 2): look at the order again and change it once more.');
  });
});
