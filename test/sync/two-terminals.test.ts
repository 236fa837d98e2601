// Two tills changing one order's lines (field lessons: odoo issue 138664, two devices overwriting
// each other's lines on one table). /v1 takes a PATCH's lines whole, so the engine merges a change
// with what the server has now before sending it: both tills' additions survive, also when the
// merged request's reply is lost.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { OrderLineInput } from '../../store/index';
import { cleanupAfterEach, engineFor, getJson, menuFixture, openStore, placeOrder, sandboxAndStore, tempStoreFile, waitFor, type MenuFixture, type Sandbox, type Store } from './harness';

const defer = cleanupAfterEach();

type ServerOrder = { items: { menu_item_id: string; quantity: number }[] };

const lineOf = (item: MenuFixture['items'][number]): OrderLineInput => ({ menu_item_id: item.id, name: item.name, quantity: 1, unit_price: item.price, modifiers: [] });
const quantities = (lines: readonly { menu_item_id: string; quantity: number }[]) =>
  Object.fromEntries(lines.map((line) => [line.menu_item_id, line.quantity]));

/**
 * Till A sells an order with one line and syncs it; till B (its own store) pulls it. Then A,
 * offline, adds one item while B adds another and syncs.
 */
async function bothAddAnItem() {
  const { sandbox, store: a } = await sandboxAndStore(defer);
  const menu = await menuFixture(sandbox);
  const order = placeOrder(a, menu, 1, 1);
  const first = engineFor(sandbox, a, { locationId: menu.locationId });
  first.start();
  await waitFor(() => a.outbox.unfinishedCount() === 0, 20_000, "A's order to reach the server");
  await first.stop();
  const serverId = a.serverIdFor('order', order.id)!;

  const b = openStore(tempStoreFile());
  defer(() => b.close());
  const engineB = engineFor(sandbox, b, { locationId: menu.locationId });
  engineB.start();
  defer(() => engineB.stop());
  await waitFor(() => b.cashier.getOrder(serverId) !== undefined, 20_000, 'B to pull the order');

  const [fries, drink] = [menu.items[5]!, menu.items[6]!];
  a.cashier.updateOrder(order.id, { lines: [...order.lines, lineOf(fries)] }, { actor: 'till-a' });
  b.cashier.updateOrder(serverId, { lines: [...b.cashier.getOrder(serverId)!.lines, lineOf(drink)] }, { actor: 'till-b' });
  engineB.notifyLocalWrite();
  await waitFor(() => b.outbox.unfinishedCount() === 0, 20_000, "B's change to reach the server");
  const expected = { ...quantities(order.lines), [fries.id]: 1, [drink.id]: 1 };
  return { sandbox, menu, a, b, engineB, order, serverId, expected };
}

async function syncA(sandbox: Sandbox, a: Store, menu: MenuFixture): Promise<void> {
  const engineA = engineFor(sandbox, a, { locationId: menu.locationId });
  engineA.start();
  defer(() => engineA.stop());
  await waitFor(() => a.outbox.unfinishedCount() === 0, 20_000, "A's change to reach the server");
}

describe('two tills, one order', () => {
  it("each adds an item: the server and both tills end with both, neither erased by the other's push", async () => {
    const { sandbox, menu, a, b, engineB, order, serverId, expected } = await bothAddAnItem();
    await syncA(sandbox, a, menu);

    expect(a.outbox.listDeadLetters()).toEqual([]);
    expect(quantities((await getJson<ServerOrder>(sandbox, `/orders/${serverId}`)).items)).toEqual(expected);
    expect(quantities(a.cashier.getOrder(order.id)!.lines)).toEqual(expected);
    expect(a.repricedOrders.listUnsettled()).toEqual([]); // the merged total is the server's
    const [merged] = a.cashier.listAudit({ entityKind: 'order', entityId: order.id }).filter((entry) => entry.action === 'order.lines_merged');
    expect(merged).toMatchObject({ actor: 'sync' });
    // B learns of A's item at its next sync.
    engineB.syncNow();
    await waitFor(() => b.cashier.getOrder(serverId)!.lines.length === Object.keys(expected).length, 20_000, "B to pull A's item");
    expect(quantities(b.cashier.getOrder(serverId)!.lines)).toEqual(expected);
  });

  it('the merged change reaching the server with its reply lost is not applied twice', async () => {
    const { sandbox, menu, a, order, serverId, expected } = await bothAddAnItem();
    await sandbox.faults.set({ drop_response_rate: 1, drop_response_methods: ['PATCH'] });
    const engineA = engineFor(sandbox, a, { locationId: menu.locationId });
    engineA.start();
    defer(() => engineA.stop());
    // Every PATCH's reply is dropped: once the server has the merged lines, a reply was lost.
    // (Polling for the op's error instead raced its retry, which may find the change applied and finish at once.)
    const landed = async () => isDeepStrictEqual(quantities((await getJson<ServerOrder>(sandbox, `/orders/${serverId}`)).items), expected);
    await waitFor(landed, 20_000, 'the PATCH to land with its reply lost');
    await sandbox.faults.set({ drop_response_rate: 0 });
    await waitFor(() => a.outbox.unfinishedCount() === 0, 20_000, 'the retry');

    expect(a.outbox.listDeadLetters()).toEqual([]);
    expect(quantities((await getJson<ServerOrder>(sandbox, `/orders/${serverId}`)).items)).toEqual(expected);
    expect(quantities(a.cashier.getOrder(order.id)!.lines)).toEqual(expected);
  });
});
