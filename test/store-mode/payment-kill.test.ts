// Payments taken on one till toward another till's order, through SIGKILLs (docs/store-mode.md, "A payment
// on another till's order"): two registers as processes (real cores, their own SQLite files, mutual TLS on
// 127.0.0.1), no cloud. Front takes cash toward Bar's tab and is SIGKILLed the instant it answers: the
// payment is in its drawer and its log after the restart. Then Front takes more, and each time Bar, which
// applies them, is SIGKILLed 0, 5, 20 or 80 ms later and restarted on its file. Bar holds each payment once
// or not yet, never twice; in the end it holds all of them, each under Front's id, and Front's drawer
// expects exactly their cash. The kill delays are the test's subject, not a wait for something to happen.
import { describe, expect, it } from 'vitest';
import { ITEMS, seedDataDir } from '../core/fixtures';
import type { CoreTillConfig } from './fixtures/core-till';
import { killedTills } from './fixtures/killed-tills';
import { freePorts } from './fixtures/ports';
import { call, count, type ListedOrder } from './fixtures/store-tills';
import { until } from './fixtures/until';

const { start, kill } = killedTills();

const KILL_BAR_AFTER_MS = [0, 5, 20, 80];
const EACH = 100;

describe('store mode: payments toward another till’s order through SIGKILLs', () => {
  it('keeps a payment taken on Front across its kill, and Bar applies each once whenever it is killed', async () => {
    const [barPort, frontPort] = (await freePorts(2)) as [number, number];
    const config = (tillName: string, tillLetter: string, port: number, peer: number): CoreTillConfig => ({
      dataDir: seedDataDir(), tillName, tillLetter, storeMode: 'on', port, peers: [`127.0.0.1:${peer}`], deadlineMs: 100_000,
    });
    const barConfig = config('Bar', 'B', barPort, frontPort);
    const frontConfig = config('Front', 'F', frontPort, barPort);
    let bar = await start(barConfig);
    let front = await start(frontConfig);
    const tab = await call<{ id: string; total: number }>(bar, 'orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 4 }], service: { type: 'dine_in', table: '9', guests: 4 } });
    await until('Front lists Bar’s tab', async () => (await call<{ orders: ListedOrder[] }>(front, 'storeMode.orders')).orders.some((order) => order.id === tab.id), (listed) => listed);
    const pay = () => call<{ forward: { id: string } }>(front, 'storeMode.takePayment', { orderId: tab.id, method: 'cash', amount: EACH });
    const paymentsOnBar = () => count(barConfig.dataDir, 'SELECT COUNT(*) FROM payments WHERE order_id = ?', tab.id);
    const distinctOnBar = () => count(barConfig.dataDir, 'SELECT COUNT(DISTINCT id) FROM payments WHERE order_id = ?', tab.id);

    // Front killed the instant it answered: the payment is kept, with its drawer's record, and goes to Bar.
    await pay();
    await kill(front);
    expect(count(frontConfig.dataDir, 'SELECT COUNT(*) FROM store_payments_taken')).toBe(1);
    expect(count(frontConfig.dataDir, 'SELECT COUNT(*) FROM store_forwards')).toBe(1);
    front = await start(frontConfig);

    // Bar killed while it applies each of the next ones.
    const rounds: string[] = [];
    for (const killAfterMs of KILL_BAR_AFTER_MS) {
      const before = paymentsOnBar();
      await pay();
      await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      await kill(bar);
      const held = paymentsOnBar();
      expect(held).toBe(distinctOnBar());
      expect(held).toBeLessThanOrEqual(KILL_BAR_AFTER_MS.indexOf(killAfterMs) + 2);
      rounds.push(`killed ${killAfterMs} ms after: ${held - before} applied`);
      bar = await start(barConfig);
    }
    console.info(`payment-kill: ${rounds.join('; ')}`);

    const taken = KILL_BAR_AFTER_MS.length + 1;
    await until('Bar holds every payment', async () => paymentsOnBar(), (n) => n === taken, 30_000);
    expect(distinctOnBar()).toBe(taken);
    // Each under the id Front gave it, and the inbox answered once per payment.
    const frontIds = count(frontConfig.dataDir, "SELECT group_concat(id, ',') FROM (SELECT id FROM store_payments_taken ORDER BY id)") as unknown as string;
    const barIds = count(barConfig.dataDir, "SELECT group_concat(id, ',') FROM (SELECT id FROM payments WHERE order_id = ? ORDER BY id)", tab.id) as unknown as string;
    expect(barIds).toBe(frontIds);
    expect(count(barConfig.dataDir, "SELECT COUNT(*) FROM store_inbox WHERE state = 'applied'")).toBe(taken);
    const order = await call<{ paidAmount: number }>(bar, 'orders.get', { id: tab.id });
    expect(order.paidAmount).toBe(taken * EACH);
    // Front's drawer expects exactly that cash, for another till's order.
    const shift = await call<{ cashForOtherTills: number; cashSales: number }>(front, 'shift.current');
    expect(shift.cashForOtherTills).toBe(taken * EACH);
    await until('Front told of every payment', async () => count(frontConfig.dataDir, "SELECT COUNT(*) FROM store_forwards WHERE state = 'applied'"), (n) => n === taken, 30_000);
  }, 150_000);
});
