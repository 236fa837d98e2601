// Issue 26's main test: a store through a cloud outage. Three registers and one kitchen display, each
// its own process (a real core, its own data folder and port, a peer list naming the others, mutual
// TLS on 127.0.0.1); the registers sync with a sandbox (/v1 over real HTTP, in this process) that
// goes down once they have its menu. During the outage 100 orders are rung up across the three tills
// (34/33/33, at once): each shows on the two other registers and on the display; changes made on one
// till to other tills' orders (a line added, a quantity, a cancel) each land once on the owner. The
// outage ends: every order reaches the sandbox exactly once, pushed by its owner alone, and every
// till's order list then equals the sandbox's. Runs in the profile POS_TEST_SANDBOX_PROFILE names
// (default | spec-minimal/flat | spec-minimal/jsonapi: test/sync/harness.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KitchenTickets } from '../../bridge/kitchen/contract';
import { ROUTING } from '../kitchen/fixtures';
import { seedDataDir } from '../core/fixtures';
import { allServerOrders, menuFixture, OUR_GAP_DECISIONS, SANDBOX_PROFILE, startSandbox, type Sandbox } from '../sync/harness';
import { startCoreTill, type TillProcess } from './till-process';
import { orderServerIds, startDisplayProcess } from './fixtures/outage-store';
import { freePorts } from './fixtures/ports';
import { answer, call, count, STORE_SECRET, type ListedOrder, type Placed } from './fixtures/store-tills';
import { until } from './fixtures/until';

const started: TillProcess[] = [];
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await Promise.all(started.splice(0).map((till) => till.kill()));
  await sandbox?.close();
  sandbox = undefined;
});

interface OrderView {
  id: string;
  status: string;
  createdAt: string;
  lines: { menuItemId: string; quantity: number }[];
}

interface Forward {
  id: string;
  state: 'pending' | 'applied' | 'refused';
  sentence: string;
}

interface SyncStatus {
  online: boolean;
  pending: number;
  deadLetters: unknown[];
  initialSyncDone: boolean;
  lastProblem: string | null;
}

/** Every wait has a deadline; the error names what was awaited and what was last seen. */
const sorted = (ids: Iterable<string>) => [...ids].sort();
const sameSet = (a: Iterable<string>, b: Iterable<string>) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
const linesOf = (lines: readonly { menuItemId: string; quantity: number }[]) => lines.map((line) => [line.menuItemId, line.quantity]);
const change = (till: TillProcess, orderId: string, what: object) => call<Forward>(till, 'storeMode.changeOrder', { orderId, change: what });
const listed = async (till: TillProcess) => (await call<{ orders: ListedOrder[] }>(till, 'storeMode.orders')).orders;
/** A till's own orders of this test (created since `since`), every status: one page holds them all (100 of 500). */
const ownList = (till: TillProcess, since: string) => call<OrderView[]>(till, 'orders.list', { createdAfter: since, limit: 500 });

describe(`store mode through a cloud outage (sandbox profile ${SANDBOX_PROFILE.profile}/${SANDBOX_PROFILE.recordShape})`, () => {
  it('100 orders rung up on three registers in an outage show on every till and the display, changes land once on the owner, then each order reaches the sandbox once and every till lists the sandbox’s orders', async () => {
    const box = (sandbox = await startSandbox({ seed: 'demo' }));
    const menu = await menuFixture(box);
    // Items sold here: no modifiers (none to choose), stock not tracked (nothing runs out).
    const items = menu.items.filter((item) => item.modifiers.length === 0).slice(0, 4).map((item) => item.id);
    expect(items).toHaveLength(4);
    const api = { baseUrl: box.baseUrl, apiHost: box.apiHost, authUrl: box.authUrl, apiKey: box.credentials.apiKeys.full, locationId: menu.locationId };

    const [barPort, patioPort, frontPort, displayPort] = (await freePorts(4)) as [number, number, number, number];
    const specs = [
      { name: 'Bar', letter: 'B', port: barPort },
      { name: 'Patio', letter: 'P', port: patioPort },
      { name: 'Front', letter: 'F', port: frontPort },
    ];
    const peer = (port: number) => `127.0.0.1:${port}`;
    const allPorts = [barPort, patioPort, frontPort, displayPort];
    // A fresh folder each (as startCoreOnSandbox): the register takes the location and menu from the cloud.
    const tills = await Promise.all(
      specs.map(async (spec) => {
        const till = await startCoreTill(
          {
            dataDir: mkdtempSync(join(tmpdir(), 'pos-store-outage-')),
            tillName: spec.name,
            tillLetter: spec.letter,
            storeMode: 'on',
            port: spec.port,
            peers: allPorts.filter((port) => port !== spec.port).map(peer),
            deadlineMs: 170_000,
            api,
          },
          STORE_SECRET,
        );
        started.push(till);
        return till;
      }),
    );
    const [bar, patio, front] = tills as [TillProcess, TillProcess, TillProcess];
    const display = await startDisplayProcess(
      { dataDir: seedDataDir(), tillName: 'Pass', port: displayPort, peers: [barPort, patioPort, frontPort].map(peer), deadlineMs: 170_000, printing: ROUTING },
      STORE_SECRET,
      started,
    );
    const nameOf = new Map<string, string>(tills.map((till, i) => [till.tillId, specs[i]!.name]));

    // Each register has the sandbox's menu, and every device has heard the three others.
    await Promise.all(tills.map((till) => until('the register’s first sync with the sandbox', () => call<SyncStatus>(till, 'sync.status'), (s) => s.initialSyncDone && s.pending === 0, 40_000)));
    for (const device of [...tills, display]) {
      await until('every peer identified', () => call<{ peers: { tillId: string | null }[] }>(device, 'storeMode.status'), (s) => s.peers.length === 3 && s.peers.every((p) => p.tillId !== null), 20_000);
    }

    // The outage: the API's listener is closed, connections refused.
    await box.faults.set({ outage: true });
    const since = new Date().toISOString();
    const testStart = Date.parse(since);
    const madeOnSandbox = async () => (await box.db.selectFrom('orders').select(['id']).where('created_at', '>=', testStart).execute()).map((row) => row.id);

    // 100 orders at once across the three tills, each till its own item and tables.
    const counts = [34, 33, 33];
    const rungUp = await Promise.all(
      tills.map(async (till, i) => {
        till.send({ type: 'place', count: counts[i], intervalMs: 15, table: String(i + 1), menuItemId: items[i] });
        return ((await till.next('placed', 60_000)) as unknown as { orders: Placed[] }).orders.map((order) => order.id);
      }),
    );
    const owners = new Map<string, number>(rungUp.flatMap((ids, i) => ids.map((id) => [id, i] as const)));
    const every = rungUp.flat();
    expect(every).toHaveLength(100);
    expect(new Set(every).size).toBe(100);

    // Every register lists the 66 or 67 orders of the two others, once each, with the right owner, not in the cloud.
    for (const [i, till] of tills.entries()) {
      const others = every.filter((id) => owners.get(id) !== i);
      const orders = await until(`${specs[i]!.name} lists the others' orders`, () => listed(till), (o) => sameSet(o.map((x) => x.id), others), 30_000, 200);
      expect(orders).toHaveLength(others.length);
      for (const order of orders) {
        expect(order.ownerTillId).toBe(tills[owners.get(order.id)!]!.tillId);
        expect(order.ownerTillName).toBe(specs[owners.get(order.id)!]!.name);
        expect(order.reachedCloud).toBe(false);
        expect(order.lines).toEqual([expect.objectContaining({ menuItemId: items[owners.get(order.id)!] })]);
      }
      // Its own are its own: in its order list, and only those (nothing came from the cloud).
      expect(sorted((await ownList(till, since)).map((order) => order.id))).toEqual(sorted(rungUp[i]!));
    }
    // The display shows all 100 as tickets, each once, named by its till.
    const tickets = await until('the display shows the 100 orders', () => call<KitchenTickets>(display, 'kitchen.tickets'), (t) => sameSet(t.tickets.map((x) => x.orderId), every), 30_000, 200);
    expect(tickets.tickets).toHaveLength(100);
    for (const ticket of tickets.tickets) expect(ticket.tillName).toBe(specs[owners.get(ticket.orderId)!]!.name);
    // Nothing reached the cloud.
    expect(await madeOnSandbox()).toEqual([]);
    for (const till of tills) expect((await call<SyncStatus>(till, 'sync.status')).pending).toBeGreaterThanOrEqual(33);

    // Changes to other tills' orders, from the till where the guest asks: a line added, quantities, two cancels.
    const [barOrders, patioOrders, frontOrders] = rungUp as [string[], string[], string[]];
    const changes: { from: TillProcess; owner: number; orderId: string; change: object; expect: { status: string; lines: (string | number)[][] } }[] = [
      { from: patio, owner: 0, orderId: barOrders[0]!, change: { kind: 'lines', lines: [{ menuItemId: items[0], quantity: 1 }, { menuItemId: items[3], quantity: 2 }] }, expect: { status: 'open', lines: [[items[0]!, 1], [items[3]!, 2]] } },
      { from: front, owner: 0, orderId: barOrders[1]!, change: { kind: 'lines', lines: [{ menuItemId: items[0], quantity: 7 }] }, expect: { status: 'open', lines: [[items[0]!, 7]] } },
      { from: front, owner: 0, orderId: barOrders[2]!, change: { kind: 'cancel', reason: 'guest left' }, expect: { status: 'cancelled', lines: [[items[0]!, 3]] } },
      { from: bar, owner: 1, orderId: patioOrders[0]!, change: { kind: 'lines', lines: [{ menuItemId: items[1], quantity: 4 }, { menuItemId: items[2], quantity: 1 }] }, expect: { status: 'open', lines: [[items[1]!, 4], [items[2]!, 1]] } },
      { from: front, owner: 1, orderId: patioOrders[1]!, change: { kind: 'lines', lines: [{ menuItemId: items[1], quantity: 5 }] }, expect: { status: 'open', lines: [[items[1]!, 5]] } },
      { from: bar, owner: 2, orderId: frontOrders[0]!, change: { kind: 'lines', lines: [{ menuItemId: items[2], quantity: 1 }, { menuItemId: items[0], quantity: 1 }] }, expect: { status: 'open', lines: [[items[2]!, 1], [items[0]!, 1]] } },
      { from: patio, owner: 2, orderId: frontOrders[1]!, change: { kind: 'cancel', reason: 'wrong table' }, expect: { status: 'cancelled', lines: [[items[2]!, 2]] } },
    ];
    // One call at a time per till (its answers come back in order); the three tills at once.
    const sent = await Promise.all(
      tills.map(async (till) => {
        const answers: Forward[] = [];
        for (const c of changes.filter((x) => x.from === till)) answers.push(await change(till, c.orderId, c.change));
        return answers;
      }),
    );
    expect(sent.flat()).toHaveLength(changes.length);
    for (const [i, answers] of sent.entries()) {
      const mine = changes.filter((x) => x.from === tills[i]);
      expect(answers.map((a) => a.sentence)).toEqual(mine.map((c) => `Sent to ${specs[c.owner]!.name}, waiting for it.`));
    }
    // Each sender sees its forwards applied by the owners.
    for (const till of tills) await until('the forwards applied', () => call<{ forwards: Forward[] }>(till, 'storeMode.forwards'), (f) => f.forwards.length === 0, 20_000);
    for (const [i, spec] of specs.entries()) {
      const mine = changes.filter((c) => c.owner === i);
      for (const c of mine) {
        const onOwner = await call<OrderView>(tills[i]!, 'orders.get', { id: c.orderId });
        expect([onOwner.status, linesOf(onOwner.lines)]).toEqual([c.expect.status, c.expect.lines]);
        // Once: one outbox operation for the change after the create, one applied inbox row, one audit.
        expect(count(tills[i]!.dataDir, "SELECT COUNT(*) FROM outbox WHERE entity_kind = 'order' AND entity_id = ?", c.orderId)).toBe(2);
        expect(count(tills[i]!.dataDir, "SELECT COUNT(*) FROM store_inbox WHERE order_id = ? AND state = 'applied'", c.orderId)).toBe(1);
        expect(count(tills[i]!.dataDir, "SELECT COUNT(*) FROM audit_log WHERE action = 'store.forward.applied' AND entity_id = ?", c.orderId)).toBe(1);
      }
      expect(count(tills[i]!.dataDir, 'SELECT COUNT(*) FROM store_inbox'), `${spec.name}'s inbox`).toBe(mine.length);
      // The orders nobody changed from elsewhere: their create only.
      expect(count(tills[i]!.dataDir, "SELECT COUNT(*) FROM outbox WHERE entity_kind = 'order'")).toBe(counts[i]! + mine.length);
    }
    // Every other till and the display show the results: the cancelled orders gone, the changed lines.
    const cancelled = new Set(changes.filter((c) => c.expect.status === 'cancelled').map((c) => c.orderId));
    const open = every.filter((id) => !cancelled.has(id));
    for (const [i, till] of tills.entries()) {
      const others = open.filter((id) => owners.get(id) !== i);
      const orders = await until('the changes shown on every till', () => listed(till), (o) => sameSet(o.map((x) => x.id), others) && changes.every((c) => c.owner === i || cancelled.has(c.orderId) || JSON.stringify(linesOf(o.find((x) => x.id === c.orderId)!.lines)) === JSON.stringify(c.expect.lines)), 20_000, 200);
      for (const order of orders) expect(order.forwards).toEqual([]);
    }
    const afterChanges = await until('the display drops the cancelled orders', () => call<KitchenTickets>(display, 'kitchen.tickets'), (t) => sameSet(t.tickets.map((x) => x.orderId), open), 20_000, 200);
    const ticketOf = (id: string) => afterChanges.tickets.find((ticket) => ticket.orderId === id)!;
    expect(ticketOf(barOrders[1]!).lines.reduce((sum, line) => sum + line.quantity, 0)).toBe(7);
    expect(await madeOnSandbox()).toEqual([]);

    // The outage ends: each register drains its outbox, with nothing refused.
    await box.faults.set({ outage: false });
    for (const till of tills) {
      await until('the outbox drained', () => call<SyncStatus>(till, 'sync.status'), (s) => s.online && s.pending === 0, 60_000, 200);
      expect((await call<SyncStatus>(till, 'sync.status')).deadLetters).toEqual([]);
    }

    // Every order on the sandbox exactly once: the server made 100 orders since the outage began, and
    // they are the owners' 100 (each owner's id map names a distinct one), with the owner's lines and status.
    const serverIdsOf = tills.map((till) => orderServerIds(till.dataDir));
    const serverIdOf = (localId: string) => serverIdsOf[owners.get(localId)!]!.get(localId);
    const pushed = every.map(serverIdOf);
    expect(pushed.every((id) => id !== undefined)).toBe(true);
    expect(new Set(pushed).size).toBe(100);
    const made = await madeOnSandbox();
    expect(made).toHaveLength(100);
    expect(sorted(made)).toEqual(sorted(pushed as string[]));
    const server = new Map((await allServerOrders(box)).filter((order) => made.includes(order.id)).map((order) => [order.id, order]));
    expect(server.size).toBe(100);
    for (const localId of every) {
      const onServer = server.get(serverIdOf(localId)!)!;
      const onOwner = await call<OrderView>(tills[owners.get(localId)!]!, 'orders.get', { id: localId });
      if (OUR_GAP_DECISIONS) expect(onServer.metadata.pos_local_id).toBe(localId);
      expect([onServer.status, onServer.items.map((item) => [item.menu_item_id, item.quantity])]).toEqual([onOwner.status, linesOf(onOwner.lines)]);
    }
    for (const c of changes) expect(server.get(serverIdOf(c.orderId)!)!.status).toBe(c.expect.status);

    // Every till's orders equal the sandbox's, each once: its own (under their server ids) and the other
    // tills' closed ones pulled from the cloud in its order list, the other tills' open ones under "At
    // other tills" only (the cloud's copy of an order another till owns is that order, not a second one).
    for (const till of tills) await call(till, 'sync.now');
    for (const [i, till] of tills.entries()) {
      // Its own orders by the id map read above; an order pulled from the cloud has its server id as its local id.
      const ids = serverIdsOf[i]!;
      const asServer = (orders: OrderView[]) => orders.map((order) => ids.get(order.id) ?? order.id);
      const summary = async () => {
        const orders = await ownList(till, since);
        const listedIds = asServer(orders);
        const elsewhere = (await listed(till)).map((order) => serverIdOf(order.id)!);
        const both = [...listedIds, ...elsewhere];
        return {
          orders, listed: both.length, missing: made.filter((id) => !both.includes(id)).length, extra: both.filter((id) => !made.includes(id)),
          twice: listedIds.filter((id) => elsewhere.includes(id)).length, elsewhere: elsewhere.length,
        };
      };
      const seen = await until(`${specs[i]!.name}'s orders to equal the sandbox's`, summary, (s) => s.listed === 100 && s.missing === 0 && s.extra.length === 0 && s.twice === 0, 30_000, 300);
      expect(seen.elsewhere).toBe(open.filter((id) => owners.get(id) !== i).length);
      const orders = seen.orders;
      const asServerIds = asServer(orders);
      for (const [k, order] of orders.entries()) {
        const onServer = server.get(asServerIds[k]!)!;
        expect([order.status, linesOf(order.lines)]).toEqual([onServer.status, onServer.items.map((item) => [item.menu_item_id, item.quantity])]);
      }
    }
    // The store's listing agrees: every open order of another till has reached the cloud, none listed twice.
    for (const [i, till] of tills.entries()) {
      const others = open.filter((id) => owners.get(id) !== i);
      const orders = await until('the others’ orders shown as in the cloud', () => listed(till), (o) => o.length === others.length && o.every((x) => x.reachedCloud), 20_000, 200);
      expect(sorted(orders.map((o) => o.id))).toEqual(sorted(others));
      for (const order of orders) expect(nameOf.get(order.ownerTillId)).toBe(specs[owners.get(order.id)!]!.name);
    }
    // The cloud's copy of another till's open order is not this till's to write: refused in words, nothing changes.
    const barOpen = open.find((id) => owners.get(id) === 0)!;
    const copyOnPatio = serverIdOf(barOpen)!;
    for (const [command, payload] of [['orders.update', { id: copyOnPatio, notes: 'by the window' }], ['payments.take', { orderId: copyOnPatio, method: 'cash', amount: 100 }], ['orders.cancel', { id: copyOnPatio, reason: 'test' }]] as const) {
      const refused = await answer(patio, command, payload);
      expect(refused.ok).toBe(false);
      expect(refused.error?.message).toBe('This order belongs to Bar: change it from Orders → At other tills, and Bar makes the change.');
    }
    expect(count(patio.dataDir, 'SELECT COUNT(*) FROM outbox WHERE entity_id = ?', copyOnPatio)).toBe(0);
    // The display still shows each open order once (the cloud changed nothing there).
    expect(sorted((await call<KitchenTickets>(display, 'kitchen.tickets')).tickets.map((t) => t.orderId))).toEqual(sorted(open));
    await Promise.all([...tills, display].map((device) => device.stop()));
  }, 170_000);
});
