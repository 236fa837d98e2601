// A table's "check printed" against the cloud's answers (docs/tables.md, "What takes a table back from
// Check printed"): a bill printed while the check's last change is still on its way to the cloud stays
// printed when the cloud's answer lands (its updated_at, its ids, its status change nothing the bill
// shows); a round or a discount after the bill makes the table Seated again. A real
// sandbox over loopback HTTP answers, slowed so that the bill is printed before it does. In store
// mode, a round another till sends to the check's owner makes the owner's table Seated too.
import { afterEach, describe, expect, it } from 'vitest';
import type { MenuSnapshot, Order, SyncStatusView } from '../../bridge/contract';
import type { FloorView } from '../../bridge/tables/contract';
import type { Core } from '../../main/core/index';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { FakePrinter } from '../printing/fake-printer';
import { inProcessTills, tillConfig } from '../store-mode/fixtures/in-process-tills';
import { freePorts } from '../store-mode/fixtures/ports';
import { waitFor } from '../sync/harness';
import { ITEMS, startCoreOnSandbox } from './fixtures';

const tills = inProcessTills();
let sandbox: Sandbox | undefined;
let core: Core | undefined;
let receipt: FakePrinter | undefined;
afterEach(async () => {
  await core?.shutdown();
  await sandbox?.close();
  await receipt?.stop();
  core = sandbox = receipt = undefined;
});

async function call<T>(command: string, payload: unknown): Promise<T> {
  const response = await (core as Core).invoke({ command, payload });
  if (!response.ok) throw Object.assign(new Error(response.error.message), { code: response.error.code });
  return response.value as T;
}

/** A till on the sandbox with a receipt printer, the menu pulled, and table 12 on the floor; two plain items. */
async function floorOnSandbox(): Promise<{ tableId: string; items: [string, string] }> {
  sandbox = await startSandbox({ seed: 'demo' });
  receipt = await FakePrinter.start();
  core = await startCoreOnSandbox(sandbox, { config: { printing: { receiptPrinter: receipt.url } } });
  let menu: MenuSnapshot | undefined;
  await waitFor(
    async () => {
      menu = await call<MenuSnapshot>('menu.snapshot', {});
      return menu.items.some((i) => i.available) && (await call<SyncStatusView>('sync.status', {})).online;
    },
    15_000,
    'the first pull',
  );
  const plain = (menu?.items ?? []).filter((i) => i.available && i.modifiers.length === 0);
  if (plain.length < 2) throw new Error('the demo menu has fewer than two plain items');
  const section = (await call<FloorView>('tables.saveSection', { name: 'Main' })).sections[0]!.id;
  const floor = await call<FloorView>('tables.saveTable', { sectionId: section, name: '12', seats: 4, shape: 'square', x: 0, y: 0, width: 2, height: 2 });
  return { tableId: floor.tables[0]!.id, items: [plain[0]!.id, plain[1]!.id] };
}

const stateOf12 = async () => (await call<FloorView>('tables.floor', {})).tables.find((t) => t.name === '12')!.state;

async function synced(orderId: string): Promise<Order> {
  let order: Order | undefined;
  await waitFor(async () => (order = await call<Order>('orders.get', { id: orderId })).syncState === 'synced', 15_000, `order ${orderId} to reach the cloud`);
  return order!;
}

describe('a table whose bill was printed while its check was syncing', () => {
  it('stays "check printed" when the cloud answers the change made before the bill; a round or a discount after the bill makes it "seated"', async () => {
    const { tableId, items } = await floorOnSandbox();
    const placed = await call<Order>('orders.place', { lines: [{ menuItemId: items[0], quantity: 1 }], service: { type: 'dine_in', table: '12', guests: 2 } });
    await synced(placed.id);

    // The last round, then the bill at once: the cloud answers the round only after the bill is out.
    await sandbox!.faults.set({ latency_ms: 400 });
    const lines = [{ menuItemId: items[0], quantity: 1 }, { menuItemId: items[1], quantity: 2 }];
    await call<Order>('orders.update', { id: placed.id, lines });
    expect((await call<FloorView>('tables.printBill', { id: tableId })).tables[0]!.state).toBe('check_printed');
    const billOut = Date.now();
    expect((await call<Order>('orders.get', { id: placed.id })).syncState).not.toBe('synced');
    const answered = await synced(placed.id);
    await sandbox!.faults.set({ latency_ms: 0 });
    // The cloud's answer moved the order's updated_at past the bill: bookkeeping, not a change.
    expect(Date.parse(answered.updatedAt)).toBeGreaterThan(billOut);
    expect(await stateOf12()).toBe('check_printed');

    // A round after the bill: the paper is out of date, and stays so once the cloud has it.
    await call<Order>('orders.update', { id: placed.id, lines: [...lines, { menuItemId: items[1], quantity: 1 }] });
    expect(await stateOf12()).toBe('seated');
    await synced(placed.id);
    expect(await stateOf12()).toBe('seated');

    // Printed again, then a discount on the whole check.
    await call<FloorView>('tables.printBill', { id: tableId });
    expect(await stateOf12()).toBe('check_printed');
    await call<Order>('orders.update', { id: placed.id, discount: { kind: 'percent', value: 1000, reason: 'Happy hour' } });
    expect(await stateOf12()).toBe('seated');
    await synced(placed.id);
    expect(await stateOf12()).toBe('seated');
  });
});

describe('a table whose bill was printed, in store mode', () => {
  it('is "seated" again on the till that owns the check when another till sends it a round', async () => {
    const [barPort, frontPort] = (await freePorts(2)) as [number, number];
    receipt = await FakePrinter.start();
    const bar = await tills.start(tillConfig('Bar', 'B', barPort, frontPort, { more: { printing: { receiptPrinter: receipt.url } } }));
    const front = await tills.start(tillConfig('Front', 'F', frontPort, barPort));
    const section = (await bar.call('tables.saveSection', { name: 'Main' })).sections[0]!.id;
    const tableId = (await bar.call('tables.saveTable', { sectionId: section, name: '4', seats: 4, shape: 'square', x: 0, y: 0, width: 2, height: 2 })).tables[0]!.id;
    const order = await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '4', guests: 2 } });
    await expect.poll(async () => (await front.call('storeMode.orders', {})).orders.map((o) => o.id), { timeout: 15_000 }).toEqual([order.id]);
    const barState = async () => (await bar.call('tables.floor', {})).tables[0]!.state;
    expect((await bar.call('tables.printBill', { id: tableId })).tables[0]!.state).toBe('check_printed');

    await front.call('storeMode.changeOrder', { orderId: order.id, change: { kind: 'lines', lines: [{ menuItemId: ITEMS.fries, quantity: 2 }, { menuItemId: ITEMS.latte, quantity: 1 }] } });
    await expect.poll(async () => (await bar.call('orders.get', { id: order.id })).lines.length, { timeout: 15_000 }).toBe(2);
    expect(await barState()).toBe('seated');
  }, 60_000);
});
