// Every screen that shows sync state updates from the same change: when the sync indicator hears
// that the outbox drained, the order list has already been told to refetch (its per-order
// "Waiting to sync" badge must not wait for the next pull). Real sandbox over loopback HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeEvent } from '../../bridge/protocol';
import type { MenuSnapshot, Order, SyncStatusView } from '../../bridge/contract';
import { type Core } from '../../main/core/index';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { waitFor } from '../sync/harness';
import { startCoreOnSandbox } from './fixtures';

let sandbox: Sandbox | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.shutdown();
  await sandbox?.close();
});

async function call<T>(command: string, payload: unknown): Promise<T> {
  const response = await (core as Core).invoke({ command, payload });
  if (!response.ok) throw Object.assign(new Error(response.error.message), { code: response.error.code });
  return response.value as T;
}

describe('sync state on every screen', () => {
  it('tells the order list to refetch on the same change that tells the indicator the outbox drained', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    // Quick pushes; pulls keep their default minute, so no pull can refresh the list by chance.
    core = await startCoreOnSandbox(sandbox);
    let menu: MenuSnapshot | undefined;
    await waitFor(
      async () => {
        menu = await call<MenuSnapshot>('menu.snapshot', {});
        return menu.items.some((i) => i.available) && (await call<SyncStatusView>('sync.status', {})).online;
      },
      15_000,
      'the first pull',
    );
    const item = menu?.items.find((i) => i.available && i.modifiers.length === 0);
    if (!item) throw new Error('the demo menu has no plain item');

    const seen: BridgeEvent[] = [];
    core.subscribe((event) => seen.push(event));
    await sandbox.faults.set({ outage: true });
    const order = await call<Order>('orders.place', { lines: [{ menuItemId: item.id, quantity: 1 }] });
    await waitFor(async () => !(await call<SyncStatusView>('sync.status', {})).online, 5_000, 'the till to notice the outage');
    await sandbox.faults.set({ outage: false });

    const pendingAt = (e: BridgeEvent) => (e.event === 'sync.status' ? (e.payload as SyncStatusView).pending : null);
    const drained = () => {
      const waiting = seen.findIndex((e) => (pendingAt(e) ?? 0) > 0);
      return waiting < 0 ? -1 : seen.findIndex((e, i) => i > waiting && pendingAt(e) === 0);
    };
    await waitFor(async () => drained() >= 0, 15_000, 'the indicator to hear the outbox drained');
    const k = drained();
    const lastWaiting = seen.slice(0, k).findLastIndex((e) => (pendingAt(e) ?? 0) > 0);
    const refetches = seen.slice(lastWaiting + 1, k).filter((e) => e.event === 'orders.changed');
    expect(refetches.length, 'an orders.changed between the last "waiting" status and the "all synced" one').toBeGreaterThan(0);
    const listed = (await call<Order[]>('orders.list', {})).find((o) => o.id === order.id);
    expect(listed?.syncState).toBe('synced');
  });
});
