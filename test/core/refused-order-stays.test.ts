// An order the screen said was saved stays on the till, with its payments, whatever the cloud
// answers: a refusal marks it, only a person removes it (issue 22, finding 6). A real sandbox
// over loopback HTTP refuses the order: its item was deleted on the cloud after the till pulled
// the menu, so POST /orders is a 400 invalid_request.
import { afterEach, describe, expect, it } from 'vitest';
import type { MenuSnapshot, Order, SyncStatusView } from '../../bridge/contract';
import type { Core } from '../../main/core/index';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { sendJson, waitFor } from '../sync/harness';
import { STAFF, startCoreOnSandbox } from './fixtures';

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

/** A core on a sandbox, the menu pulled, and one plain item the cloud then deletes behind the till's back. */
async function tillWithAnItemTheCloudDropped(): Promise<{ itemId: string }> {
  sandbox = await startSandbox({ seed: 'demo' });
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
  await sandbox.db.updateTable('menu_items').set({ deleted: 1 }).where('id', '=', item.id).execute();
  return { itemId: item.id };
}

describe('an order the cloud refuses', () => {
  it('stays on the till with its card and cash payments, marked refused, until a manager discards it', async () => {
    const { itemId } = await tillWithAnItemTheCloudDropped();
    const ordersBefore = await sandbox!.countOrders();
    const placed = await call<Order>('orders.place', { lines: [{ menuItemId: itemId, quantity: 3 }] });
    const card = Math.floor(placed.total / 2);
    await call('payments.take', { orderId: placed.id, method: 'card', amount: card });
    await call('payments.take', { orderId: placed.id, method: 'cash', amount: placed.total - card, tendered: placed.total - card });
    await waitFor(async () => {
      const status = await call<SyncStatusView>('sync.status', {});
      return status.pending === 0 && status.deadLetters.length >= 1;
    }, 15_000, 'the cloud to refuse the order');
    expect(await sandbox!.countOrders()).toBe(ordersBefore);

    const shown = await call<Order>('orders.get', { id: placed.id });
    expect(shown).toMatchObject({ id: placed.id, total: placed.total, syncState: 'failed' });
    // The card payment is there, marked refused (the merchant must collect it again); the cash is counted.
    expect(shown.payments.map((p) => [p.method, p.amount, p.syncState])).toEqual([
      ['card', card, 'failed'],
      ['cash', placed.total - card, 'synced'],
    ]);
    expect(shown.paidAmount).toBe(placed.total - card);
    expect((await call<Order[]>('orders.list', {})).map((o) => o.id)).toContain(placed.id);
    const letters = (await call<SyncStatusView>('sync.status', {})).deadLetters;
    const create = letters.find((l) => l.description.startsWith('New order'));
    expect(create, JSON.stringify(letters)).toBeDefined();

    // Another sync pass changes nothing: nothing from the cloud takes it away.
    await call('sync.now', {});
    await waitFor(async () => (await call<SyncStatusView>('sync.status', {})).pending === 0, 10_000, 'the sync pass');
    expect((await call<Order>('orders.get', { id: placed.id })).syncState).toBe('failed');

    // A person decides: the manager discards it, and only then it leaves the till.
    await call('sync.discardDeadLetter', { id: create!.id, managerPin: STAFF.manager.pin });
    const gone = await core!.invoke({ command: 'orders.get', payload: { id: placed.id } });
    expect(gone).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('keeps a refund the cloud refuses, marked refused', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    core = await startCoreOnSandbox(sandbox);
    await waitFor(async () => (await call<MenuSnapshot>('menu.snapshot', {})).items.some((i) => i.available), 15_000, 'the first pull');
    const item = (await call<MenuSnapshot>('menu.snapshot', {})).items.find((i) => i.available && i.modifiers.length === 0)!;
    const placed = await call<Order>('orders.place', { lines: [{ menuItemId: item.id, quantity: 2 }] });
    const { payment } = await call<{ payment: { id: string } }>('payments.take', { orderId: placed.id, method: 'card', amount: placed.total });
    await waitFor(async () => {
      const order = await call<Order>('orders.get', { id: placed.id });
      return order.syncState === 'synced' && order.payments.every((p) => p.syncState === 'synced');
    }, 15_000, 'the order and its payment to reach the cloud');
    // The cloud gives the whole payment back on its own (another till, the dashboard): this till's
    // refund of it, not knowing, is refused as more than what is left.
    const [cloudPayment] = await sandbox.db.selectFrom('payments').select('id').orderBy('created_at', 'desc').limit(1).execute();
    await sendJson(sandbox, 'POST', `/payments/${cloudPayment!.id}/refunds`, { amount: placed.total, reason: 'duplicate' });
    let refunded: Order | undefined;
    await waitFor(async () => {
      const response = await core!.invoke({ command: 'payments.refund', payload: { paymentId: payment.id, amount: placed.total, reason: 'requested_by_customer', managerPin: STAFF.manager.pin } });
      if (response.ok) refunded = (response.value as { order: Order }).order;
      return response.ok;
    }, 15_000, 'the card payment to be refundable here');
    await waitFor(async () => {
      const status = await call<SyncStatusView>('sync.status', {});
      return status.pending === 0 && status.deadLetters.some((l) => l.description.startsWith('Refund of'));
    }, 15_000, 'the cloud to refuse the refund');

    const shown = await call<Order>('orders.get', { id: placed.id });
    expect(refunded?.refundedAmount).toBe(placed.total);
    expect(shown.refundedAmount).toBe(placed.total);
    const [shownPayment] = shown.payments;
    expect(shownPayment?.refunds).toMatchObject([{ amount: placed.total, syncState: 'failed' }]);
  });
});
