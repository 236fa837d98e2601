// The time of sale is the till's (issue 24, item 4). An order sold during an outage reaches the
// cloud later, and the cloud stamps it with the time it received it; the till keeps the time it
// was sold and its business day, for its screens, receipts and reports, after the sync and after a
// full pull. A real core over loopback HTTP; the sandbox's clock runs 2 hours ahead of the till's
// when the order arrives, as it would after a 2-hour outage.
import { afterEach, describe, expect, it } from 'vitest';
import type { MenuSnapshot, Order, SyncStatusView } from '../../bridge/contract';
import type { Core } from '../../main/core/index';
import { startCoreOnSandbox } from '../core/fixtures';
import { allServerOrders, startSandbox, waitFor, type Sandbox } from './harness';

const TWO_HOURS = 2 * 60 * 60_000;

let sandbox: Sandbox | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.shutdown();
  await sandbox?.close();
  core = undefined;
  sandbox = undefined;
});

async function call<T>(command: string, payload: unknown): Promise<T> {
  const response = await (core as Core).invoke({ command, payload });
  if (!response.ok) throw Object.assign(new Error(response.error.message), { code: response.error.code });
  return response.value as T;
}

const status = () => call<SyncStatusView>('sync.status', {});

describe('the time of sale', () => {
  it('an order sold during an outage keeps its time and business day after it syncs 2 hours later, and after a full pull', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    // Every pull is a full one (with its sweep).
    core = await startCoreOnSandbox(sandbox, { timers: { fullPullIntervalMs: 0 } });
    let menu: MenuSnapshot | undefined;
    await waitFor(
      async () => {
        menu = await call<MenuSnapshot>('menu.snapshot', {});
        return menu.items.some((i) => i.available) && (await status()).online;
      },
      15_000,
      'the first pull',
    );
    const item = menu!.items.find((i) => i.available && i.modifiers.length === 0)!;

    await sandbox.faults.set({ outage: true });
    const placed = await call<Order>('orders.place', { lines: [{ menuItemId: item.id, quantity: 1 }] });
    expect(placed.businessDay).not.toBeNull();

    // The outage ends 2 hours later: the cloud receives the order at its own time.
    sandbox.advanceClock(TWO_HOURS);
    await sandbox.faults.set({ outage: false });
    await call('sync.now', {});
    await waitFor(async () => (await call<Order>('orders.get', { id: placed.id })).syncState === 'synced', 15_000, 'the order to reach the cloud');
    const cloudTimes = (await allServerOrders(sandbox)).map((o) => Date.parse((o as unknown as { created_at: string }).created_at));
    // The cloud did stamp it with its reception time (else this case proves nothing).
    expect(cloudTimes.some((t) => t >= Date.parse(placed.createdAt) + TWO_HOURS - 60_000)).toBe(true);

    const synced = await call<Order>('orders.get', { id: placed.id });
    expect({ createdAt: synced.createdAt, businessDay: synced.businessDay }).toEqual({ createdAt: placed.createdAt, businessDay: placed.businessDay });

    // A full pull brings the cloud's record back: the till still says when it was sold.
    const before = (await status()).lastPullAt;
    await call('sync.now', {});
    await waitFor(async () => {
      const now = await status();
      return now.lastPullAt !== null && now.lastPullAt !== before && now.pending === 0;
    }, 15_000, 'a full pull');
    const pulled = await call<Order>('orders.get', { id: placed.id });
    expect({ createdAt: pulled.createdAt, businessDay: pulled.businessDay }).toEqual({ createdAt: placed.createdAt, businessDay: placed.businessDay });
    const listed = (await call<Order[]>('orders.list', {})).find((o) => o.id === placed.id);
    expect(listed?.createdAt).toBe(placed.createdAt);
  });
});
