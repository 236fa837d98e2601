// A kitchen display and two registers of one store, the cloud unreachable: each register a separate
// process (test/store-mode/fixtures/core-till.ts: a real core on its own SQLite file), the display a
// real core with the kitchen role in this process, pulling both over mutual TLS on 127.0.0.1 while the
// registers pull its log (its bumps). Orders rung up on the registers are listed as tickets on the
// display's bridge within 2 s (commit → listed, p50/p95 over 30 samples, next to a raw loopback round
// trip measured in the same run), and a bump, pressed 10 times at once, lands as fulfilled on its
// register once.
import { createServer, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KitchenTickets } from '../../bridge/kitchen/contract';
import { silentLogger } from '../../common/log';
import { TerminalConfig } from '../../main/config/schema';
import { startCore, type Core } from '../../main/core/index';
import { FileSecretStore } from '../../sync/secret-store';
import { LOCATION, seedDataDir, testStaffConfig } from '../core/fixtures';
import { count } from '../core/staff-fixtures';
import { freePorts } from '../store-mode/fixtures/ports';
import { startCoreTill, type TillProcess } from '../store-mode/till-process';
import { ROUTING, SECRET, until } from './fixtures';

interface Placed {
  id: string;
  label: string;
  at: number;
}

/** Wall-clock ms with sub-millisecond precision, comparable with the registers' (core-till.ts). */
const wallClock = (): number => performance.timeOrigin + performance.now();

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function call<T>(till: TillProcess, command: string, payload: unknown = {}): Promise<T> {
  till.send({ type: 'call', command, payload });
  const { response } = (await till.next('answer')) as unknown as { response: { ok: boolean; value?: T; error?: { message: string } } };
  if (!response.ok) throw new Error(`${command}: ${response.error?.message}`);
  return response.value as T;
}

async function invoke<T>(core: Core, command: string, payload: unknown = {}): Promise<T> {
  const response = await core.invoke({ command, payload });
  if (!response.ok) throw new Error(`${command}: ${response.error.message}`);
  return response.value as T;
}

/** Round trips of 1 KB over a loopback TCP connection: the raw limit beside the feed's figure. */
async function loopbackRoundTrips(samples: number): Promise<number[]> {
  const server = createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const socket: Socket = connect({ host: '127.0.0.1', port: (server.address() as { port: number }).port });
  await new Promise((resolve) => socket.once('connect', resolve));
  const payload = Buffer.alloc(1024, 0x61);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = wallClock();
    await new Promise<void>((resolve) => {
      let received = 0;
      const onData = (chunk: Buffer) => {
        received += chunk.length;
        if (received < payload.length) return;
        socket.off('data', onData);
        resolve();
      };
      socket.on('data', onData);
      socket.write(payload);
    });
    times.push(wallClock() - started);
  }
  socket.destroy();
  await new Promise((resolve) => server.close(resolve));
  return times;
}

let registers: TillProcess[] = [];
let display: Core;
let displayDir: string;

beforeAll(async () => {
  const [barPort, patioPort, displayPort] = (await freePorts(3)) as [number, number, number];
  const peer = (port: number) => `127.0.0.1:${port}`;
  registers = await Promise.all([
    startCoreTill({ dataDir: seedDataDir(), tillName: 'Bar', tillLetter: 'B', storeMode: 'on', port: barPort, peers: [peer(displayPort)], deadlineMs: 100_000 }, SECRET),
    startCoreTill({ dataDir: seedDataDir(), tillName: 'Patio', tillLetter: 'P', storeMode: 'on', port: patioPort, peers: [peer(displayPort)], deadlineMs: 100_000 }, SECRET),
  ]);
  displayDir = seedDataDir();
  display = await startCore(
    TerminalConfig.parse({
      dataDir: displayDir,
      locationId: LOCATION,
      staff: testStaffConfig(),
      role: 'kitchen',
      printing: ROUTING,
      storeMode: { mode: 'on', listen: peer(displayPort), peers: [peer(barPort), peer(patioPort)].join(','), tillName: 'Pass', secret: SECRET },
    }),
    { logger: silentLogger, secretStore: new FileSecretStore(join(displayDir, 'secrets.json')) },
  );
  // The display has identified both registers, and each register the display, before anything is measured.
  await until('the display identifies both registers', async () => (await invoke<{ peers: { tillId: string | null }[] }>(display, 'storeMode.status')).peers.every((p) => p.tillId !== null));
  for (const register of registers) await until('a register identifies the display', async () => (await call<{ peers: { tillId: string | null }[] }>(register, 'storeMode.status')).peers[0]?.tillId != null);
}, 60_000);

afterAll(async () => {
  await Promise.all(registers.map((register) => register.stop()));
  await display?.shutdown();
});

describe('a kitchen display with two registers, as processes', () => {
  it('lists the orders rung up on the registers as tickets within 2 s (p50/p95 over 30 samples, next to a loopback round trip)', async () => {
    const firstSeen = new Map<string, number>();
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const { tickets } = await invoke<KitchenTickets>(display, 'kitchen.tickets');
        const now = wallClock();
        for (const ticket of tickets) if (!firstSeen.has(ticket.orderId)) firstSeen.set(ticket.orderId, now);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const rungUp = await Promise.all(
      registers.map(async (register, i) => {
        register.send({ type: 'place', count: 15, intervalMs: 60, table: String(i + 1) });
        return ((await register.next('placed', 40_000)) as unknown as { orders: Placed[] }).orders;
      }),
    );
    const placed = rungUp.flat();
    expect(placed).toHaveLength(30);
    const deadline = Date.now() + 10_000;
    while (placed.some((order) => !firstSeen.has(order.id)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    watching = false;
    await watch;

    const latencies = placed.map((order) => (firstSeen.get(order.id) ?? Infinity) - order.at);
    const raw = await loopbackRoundTrips(30);
    const format = (values: number[]) => `p50 ${percentile(values, 50).toFixed(2)} ms, p95 ${percentile(values, 95).toFixed(2)} ms`;
    console.info(`kitchen display: commit on a register → ticket on the display's bridge, 30 samples: ${format(latencies)}, max ${Math.max(...latencies).toFixed(1)} ms; raw loopback TCP round trip (1 KB), 30 samples: ${format(raw)}`);
    expect(latencies.every((ms) => Number.isFinite(ms))).toBe(true);
    // Listed as soon as committed (the long poll wakes), not at its 25 s end; the 250 ms target is the bench's.
    expect(percentile(latencies, 95)).toBeLessThan(2_000);

    // Every order once, in arrival order, each with its till.
    const { tickets } = await invoke<KitchenTickets>(display, 'kitchen.tickets');
    expect(tickets.map((ticket) => ticket.orderId).sort()).toEqual(placed.map((order) => order.id).sort());
    expect(new Set(tickets.map((ticket) => ticket.tillName))).toEqual(new Set(['Bar', 'Patio']));
    const placedAt = tickets.map((ticket) => Date.parse(ticket.placedAt));
    expect(placedAt).toEqual([...placedAt].sort((a, b) => a - b));
  });

  it('a bump pressed 10 times at once lands as fulfilled on the register once', async () => {
    const [bar] = registers as [TillProcess];
    const order = await call<{ id: string; total: number }>(bar, 'orders.place', { lines: [{ menuItemId: 'mi_burger', quantity: 1 }], service: { type: 'dine_in', table: '12', guests: 2 } });
    // Paid at the bar: its cashier closes a paid order when the kitchen bumps it.
    await call(bar, 'payments.take', { orderId: order.id, method: 'cash', amount: order.total });
    await expect.poll(async () => (await invoke<KitchenTickets>(display, 'kitchen.tickets')).tickets.some((ticket) => ticket.orderId === order.id), { timeout: 5_000 }).toBe(true);
    // The payment too: an order with money due is bumped as served, with nothing sent.
    await expect.poll(() => count(displayDir, 'store_replica_docs', "entity_kind = 'payment' AND order_id = ?", order.id), { timeout: 5_000 }).toBe(1);

    const bumps = await Promise.all(Array.from({ length: 10 }, () => display.invoke({ command: 'kitchen.bump', payload: { orderId: order.id } })));
    expect(bumps.every((response) => response.ok)).toBe(true);
    expect((await invoke<KitchenTickets>(display, 'kitchen.tickets')).tickets.some((ticket) => ticket.orderId === order.id)).toBe(false);
    await expect.poll(async () => (await call<{ status: string }>(bar, 'orders.get', { id: order.id })).status, { timeout: 15_000 }).toBe('fulfilled');
    expect(count(bar.dataDir, 'audit_log', "action = 'store.forward.applied' AND entity_id = ?", order.id)).toBe(1);
    expect(count(bar.dataDir, 'outbox', "kind = 'order.fulfil' AND entity_id = ?", order.id)).toBe(1);
    expect(count(displayDir, 'store_forwards', 'order_id = ?', order.id)).toBe(1);
    // The display hears the answer: the bump says the till applied it.
    await expect.poll(async () => (await invoke<KitchenTickets>(display, 'kitchen.tickets')).lastBumped?.sentence, { timeout: 10_000 }).toBe('Marked fulfilled at its till.');
  });
});
