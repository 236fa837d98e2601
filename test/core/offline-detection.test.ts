// The offline card-payment limits follow the engine's connectivity probe: an outage that starts
// while the till is idle is known before the next card payment, with no write having failed.
// Real sandbox over loopback HTTP, real store file, the core as the renderer drives it.
import { afterEach, describe, expect, it } from 'vitest';
import type { MenuSnapshot, SyncStatusView } from '../../bridge/contract';
import { type Core } from '../../main/core/index';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { waitFor } from '../sync/harness';
import { STAFF, startCoreOnSandbox } from './fixtures';

const PROBE = { idleIntervalMs: 300, minGapMs: 50, timeoutMs: 500 };
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

describe('offline detection at the till', () => {
  it("an outage while idle makes a cashier's next large card payment need a manager's PIN; it syncs once the outage ends", async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    core = await startCoreOnSandbox(sandbox, {
      config: { offlinePayments: { perTransaction: 100, total: 100_000 } },
      timers: { probe: PROBE },
      signIn: 'cashier',
    });
    const status = () => call<SyncStatusView>('sync.status', {});
    let menu: MenuSnapshot | undefined;
    await waitFor(
      async () => {
        menu = await call<MenuSnapshot>('menu.snapshot', {});
        return menu.items.some((i) => i.available && i.modifiers.length === 0) && (await status()).online;
      },
      15_000,
      'the first pull',
    );
    const item = menu?.items.find((i) => i.available && i.modifiers.length === 0 && i.price > 100);
    if (!item) throw new Error('the demo menu has no plain item above 1.00');
    const order = await call<{ id: string; total: number }>('orders.place', { lines: [{ menuItemId: item.id, quantity: 1 }] });
    await waitFor(async () => (await status()).pending === 0, 10_000, 'the order to reach the cloud');

    // Online, a card payment above the offline limit needs nobody.
    const online = await call<{ payment: { status: string } }>('payments.take', { orderId: order.id, method: 'card', amount: 1 });
    expect(online.payment.status).not.toBe('queued_offline');
    await waitFor(async () => (await status()).pending === 0, 10_000, 'the first payment to reach the cloud');

    await sandbox.faults.set({ outage: true });
    const outageAt = Date.now();
    await waitFor(async () => !(await status()).online, 5_000, 'the till to notice the outage');
    expect(Date.now() - outageAt).toBeLessThan(PROBE.idleIntervalMs + PROBE.timeoutMs + 400);
    expect((await status()).pending).toBe(0); // nothing was written, nothing failed to push

    const rest = order.total - 1;
    await expect(call('payments.take', { orderId: order.id, method: 'card', amount: rest })).rejects.toMatchObject({
      code: 'needs_manager',
      message: expect.stringMatching(/offline.*\$1\.00 limit/),
    });
    const approved = await call<{ payment: { status: string } }>('payments.take', { orderId: order.id, method: 'card', amount: rest, managerPin: STAFF.manager.pin });
    expect(approved.payment.status).toBe('queued_offline');

    await sandbox.faults.set({ outage: false });
    await waitFor(async () => {
      const s = await status();
      return s.online && s.pending === 0;
    }, 10_000, 'the queued payment to reach the cloud after the outage');
  });
});
