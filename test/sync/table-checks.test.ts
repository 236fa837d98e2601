// Merged and reopened checks in the cloud (docs/spec-gaps.md, "Tables" and "Reopened checks"),
// through the bridge and the sandbox over real HTTP with 30% of the replies to writes lost. A
// merge: into updated with both checks' lines, from cancelled with no payment, each order in the
// cloud once. A reopening: the original untouched (/v1 changes only open orders), the linked check
// an ordinary new order, once, paid, naming the original in its metadata where the server keeps
// metadata. Run in the default profile and in spec-minimal, both record shapes
// (POS_TEST_SANDBOX_PROFILE, see test/sync/harness.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandInput, CommandName, CommandResult, MenuItem } from '../../bridge/contract';
import type { Core } from '../../main/core/index';
import type { Sandbox } from '../../sandbox/index';
import { startCoreOnSandbox } from '../core/fixtures';
import { ok } from '../core/staff-fixtures';
import { allServerOrders, OUR_GAP_DECISIONS, startSandbox, waitFor } from './harness';

let sandbox: Sandbox | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.shutdown();
  await sandbox?.close();
  core = sandbox = undefined;
});

/** A command through the bridge, its refusal a failure of the test. */
const call = <C extends CommandName>(command: C, payload: CommandInput<C>): Promise<CommandResult<C>> => ok(core!, command, payload);

/** A till on a demo sandbox, and two items that need no choice. */
async function tillOnSandbox(): Promise<[MenuItem, MenuItem]> {
  sandbox = await startSandbox({ seed: 'demo' });
  core = await startCoreOnSandbox(sandbox);
  let menu = await call('menu.snapshot', {});
  await waitFor(async () => (menu = await call('menu.snapshot', {})).items.length > 0, 20_000, 'the menu');
  const [first, second] = menu.items.filter((item) => item.available && item.modifierGroups.every((g) => g.min === 0));
  return [first!, second!];
}

/** The cloud's orders for a customer name. */
async function cloudOrdersOf(name: string) {
  return (await allServerOrders(sandbox!)).filter((o) => (o.customer as { name?: string } | null)?.name === name);
}

async function cloudPaymentsOf(orderId: string) {
  return (await sandbox!.db.selectFrom('payments').select('doc').where('order_id', '=', orderId).execute()).map((row) => JSON.parse(row.doc) as { amount: number; status: string });
}

/** What the cloud's record says the order comes to: a spec-minimal /v1 knows no tax, so its total is the items'. */
const cloudTotal = (order: { total: number; check: { subtotal: number } }) => (OUR_GAP_DECISIONS ? order.total : order.check.subtotal);

describe('merged and reopened checks in the cloud', () => {
  it('a merge reaches the cloud once: into with both checks’ lines and their total, from cancelled with no payment', { timeout: 120_000 }, async () => {
    const [first, second] = await tillOnSandbox();
    await sandbox!.faults.set({ drop_response_rate: 0.3, drop_response_methods: ['POST', 'PATCH'] });
    const into = await call('orders.place', { lines: [{ menuItemId: first.id, quantity: 2 }], customer: { name: 'Merge Into', phone: '' }, service: { type: 'dine_in', table: '12', guests: 2 } });
    const from = await call('orders.place', { lines: [{ menuItemId: second.id, quantity: 1 }], customer: { name: 'Merge From', phone: '' }, service: { type: 'dine_in', table: '14', guests: 3 } });
    const merged = await call('orders.merge', { into: into.id, from: from.id });
    expect(merged.total).toBe(into.total + from.total);
    await call('payments.take', { orderId: into.id, method: 'card', amount: merged.total });
    await waitFor(() => core!.pendingOperations() === 0, 90_000, 'the outbox to drain');
    await sandbox!.faults.set({ drop_response_rate: 0 });

    const [cloudInto, ...moreInto] = await cloudOrdersOf('Merge Into');
    const [cloudFrom, ...moreFrom] = await cloudOrdersOf('Merge From');
    expect(moreInto).toEqual([]);
    expect(moreFrom).toEqual([]);
    expect(cloudInto!.items.map((i) => [i.menu_item_id, i.quantity])).toEqual([
      [first.id, 2],
      [second.id, 1],
    ]);
    expect((cloudInto as unknown as { total: number }).total).toBe(cloudTotal(merged));
    expect(cloudFrom!.status).toBe('cancelled');
    expect(await cloudPaymentsOf(cloudFrom!.id)).toEqual([]);
    expect((await cloudPaymentsOf(cloudInto!.id)).filter((p) => p.status === 'captured').map((p) => p.amount)).toEqual([merged.total]);
    expect((await call('sync.status', {})).deadLetters).toEqual([]);
  });

  it('a reopened check’s additions reach the cloud once as a new order, paid, the original untouched', { timeout: 120_000 }, async () => {
    const [first, second] = await tillOnSandbox();
    const original = await call('orders.place', { lines: [{ menuItemId: first.id, quantity: 1 }], customer: { name: 'Reopened Party', phone: '' }, service: { type: 'dine_in', table: '7', guests: 2 } });
    await call('payments.take', { orderId: original.id, method: 'card', amount: original.total });
    await call('orders.fulfil', { id: original.id });
    await waitFor(() => core!.pendingOperations() === 0, 30_000, 'the sale to reach the cloud');
    const [cloudOriginal] = await cloudOrdersOf('Reopened Party');

    await sandbox!.faults.set({ drop_response_rate: 0.3, drop_response_methods: ['POST', 'PATCH'] });
    const reopened = await call('orders.reopen', { id: original.id, reason: 'Forgot the dessert', lines: [{ menuItemId: second.id, quantity: 2 }] });
    const linked = await call('orders.get', { id: reopened.reopened!.linked!.id });
    expect(linked).toMatchObject({ status: 'open', reopenOf: { id: original.id, label: original.label }, service: { table: '7', guests: 2 } });
    await call('payments.take', { orderId: linked.id, method: 'card', amount: linked.total });
    await call('orders.fulfil', { id: linked.id });
    await waitFor(() => core!.pendingOperations() === 0, 90_000, 'the outbox to drain');
    await sandbox!.faults.set({ drop_response_rate: 0 });

    const cloud = await cloudOrdersOf('Reopened Party');
    expect(cloud).toHaveLength(2);
    const cloudLinked = cloud.find((o) => o.id !== cloudOriginal!.id)!;
    expect(cloudLinked.items.map((i) => [i.menu_item_id, i.quantity])).toEqual([[second.id, 2]]);
    expect(cloudLinked.status).toBe('fulfilled');
    // A server that keeps metadata is told which order it reopens; one that keeps none drops it.
    expect(cloudLinked.metadata.reopen_of).toBe(OUR_GAP_DECISIONS ? cloudOriginal!.id : undefined);
    expect(cloud.find((o) => o.id === cloudOriginal!.id)!.items.map((i) => [i.menu_item_id, i.quantity])).toEqual([[first.id, 1]]);
    expect((await cloudPaymentsOf(cloudLinked.id)).filter((p) => p.status === 'captured').map((p) => p.amount)).toEqual([linked.total]);
    expect((await call('sync.status', {})).deadLetters).toEqual([]);
  });
});
