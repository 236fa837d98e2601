// The adopter SIGKILLed while it adopts (docs/store-mode.md, "Built: adopting a dead till's orders"): three
// registers as processes (real cores, their own SQLite files, mutual TLS on 127.0.0.1), no cloud. Bar rings
// up three orders and dies; Front is told to adopt them and is SIGKILLed 0, 2, 5, 10, 20… ms later, then
// restarted on its file, until an adoption has committed. The adoption is one transaction: after each
// kill Front holds all three or none. Once it holds them: each of Bar's operations is in Front's outbox
// once, with Bar's op id; Front lists each order once as its own, Patio lists each once, and the audit
// holds one adoption. The kill delays are the test's subject, not a wait for something to happen.
import { describe, expect, it } from 'vitest';
import { ITEMS, seedDataDir } from '../core/fixtures';
import type { CoreTillConfig } from './fixtures/core-till';
import { killedTills } from './fixtures/killed-tills';
import { freePorts } from './fixtures/ports';
import { call, count, type ListedOrder } from './fixtures/store-tills';
import { until } from './fixtures/until';
import type { TillProcess } from './till-process';

const { start, kill } = killedTills();

interface Peer {
  tillId: string | null;
  name: string | null;
  adoptableOrders: number;
  adoptionRefusal: string | null;
}

const KILL_AFTER_MS = [0, 2, 5, 10, 20, 40, 80];

describe('store mode: the adopter killed mid-adoption', () => {
  it('holds all of a quiet till’s orders or none after each SIGKILL, and each operation once when it holds them', async () => {
    const [barPort, frontPort, patioPort] = (await freePorts(3)) as [number, number, number];
    const timing = { quietBeforeAdoptionMs: 500 };
    const config = (tillName: string, tillLetter: string, port: number, peers: number[]): CoreTillConfig => ({
      dataDir: seedDataDir(), tillName, tillLetter, storeMode: 'on', port, peers: peers.map((peer) => `127.0.0.1:${peer}`), deadlineMs: 100_000, storeModeTiming: timing,
    });
    const barConfig = config('Bar', 'B', barPort, [frontPort, patioPort]);
    const frontConfig = config('Front', 'F', frontPort, [barPort, patioPort]);
    const patioConfig = config('Patio', 'P', patioPort, [barPort, frontPort]);
    const bar = await start(barConfig);
    let front = await start(frontConfig);
    const patio = await start(patioConfig);

    const barOrders: string[] = [];
    for (const table of ['1', '2', '3']) barOrders.push((await call<{ id: string }>(bar, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table, guests: 2 } })).id);
    const barLogEnd = count(barConfig.dataDir, 'SELECT MAX(seq) FROM store_log');
    const barTillId = bar.tillId;
    for (const [till, dataDir] of [[front, frontConfig.dataDir], [patio, patioConfig.dataDir]] as const) {
      await until('Bar’s log pulled', async () => count(dataDir, 'SELECT seq FROM store_cursors WHERE origin = ?', barTillId), (seq) => seq === barLogEnd);
      expect(till.tillId).not.toBe(barTillId);
    }
    await kill(bar);

    const barPeer = async (till: TillProcess) => (await call<{ peers: Peer[] }>(till, 'storeMode.status')).peers.find((peer) => peer.tillId === barTillId);
    const heldByFront = () => count(frontConfig.dataDir, `SELECT COUNT(*) FROM orders WHERE id IN (${barOrders.map(() => '?').join(',')})`, ...barOrders);
    let adopted = false;
    const rounds: string[] = [];
    for (const killAfterMs of KILL_AFTER_MS) {
      await until('Bar quiet long enough to adopt', () => barPeer(front), (peer) => peer?.adoptionRefusal === null && peer.adoptableOrders === 3, 20_000);
      front.send({ type: 'call', command: 'storeMode.adoptTill', payload: { tillId: barTillId } });
      await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      await kill(front);
      // All or none, on the file the kill left.
      const held = heldByFront();
      expect([0, 3]).toContain(held);
      rounds.push(`killed ${killAfterMs} ms after asking: ${held === 3 ? 'adopted' : 'not adopted'}`);
      front = await start(frontConfig);
      if (held === 3) {
        adopted = true;
        break;
      }
    }
    console.info(`adoption-kill: ${rounds.join('; ')}`);
    if (!adopted) {
      // Every kill came before the commit: the adoption, uninterrupted.
      await until('Bar quiet long enough to adopt', () => barPeer(front), (peer) => peer?.adoptionRefusal === null && peer.adoptableOrders === 3, 20_000);
      expect((await call<{ orders: number }>(front, 'storeMode.adoptTill', { tillId: barTillId })).orders).toBe(3);
    }

    // Nothing left to take, and a repeat takes nothing.
    expect((await barPeer(front))?.adoptableOrders).toBe(0);
    expect((await call<{ orders: number }>(front, 'storeMode.adoptTill', { tillId: barTillId })).orders).toBe(0);
    // Each of Bar's operations in Front's outbox once, under Bar's op id.
    const opsOf = (dataDir: string) =>
      count(dataDir, `SELECT group_concat(op_id) FROM (SELECT op_id FROM outbox WHERE entity_id IN (${barOrders.map(() => '?').join(',')}) ORDER BY op_id)`, ...barOrders) as unknown as string;
    expect(opsOf(barConfig.dataDir).split(',')).toHaveLength(3);
    expect(opsOf(frontConfig.dataDir)).toBe(opsOf(barConfig.dataDir));
    // Listed once each: as Front's own there, and once on Patio.
    const frontOwn = (await call<{ id: string }[]>(front, 'orders.list', { status: 'open' })).map((order) => order.id).filter((id) => barOrders.includes(id));
    expect(frontOwn.sort()).toEqual([...barOrders].sort());
    const onPatio = await until('Patio lists Bar’s orders once each', async () => (await call<{ orders: ListedOrder[] }>(patio, 'storeMode.orders')).orders.filter((order) => barOrders.includes(order.id)), (orders) => orders.length === 3);
    expect(new Set(onPatio.map((order) => order.id)).size).toBe(3);
    expect(count(frontConfig.dataDir, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.adopt'")).toBe(1);
    // Seven kills and restarts of a real core: 23 s on a quiet machine, over 60 s at a load of 9.
  }, 150_000);
});
