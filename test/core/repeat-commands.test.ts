// A command that creates something, repeated (the screen retrying after "the terminal is not
// answering", a second press, a script sending it again), is done once: the core keeps each answer
// by the page's request id and gives it again (bridge/once.ts, store/request-ledger.ts). Through the
// bridge on a real core; then the page's client, whose first reply is lost, repeating by itself.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeRequest, BridgeResponse } from '../../bridge/protocol';
import { createBridgeClient } from '../../renderer/lib/bridge-client';
import { ITEMS, STAFF, startTestCore, type TestCore } from './fixtures';
import { as, count, ok, refusal, startCoreOn } from './staff-fixtures';
import type { Core } from '../../main/core/index';

let t: TestCore | undefined;
let restarted: Core | undefined;
afterEach(async () => {
  await restarted?.shutdown();
  await t?.core.shutdown();
  t = restarted = undefined;
});

const ID = 'req_0123456789abcdef';
const burger = { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] };

function send(core: Pick<Core, 'invoke'>, command: string, payload: unknown, requestId?: string): Promise<BridgeResponse> {
  return core.invoke({ command, payload, ...(requestId === undefined ? {} : { requestId }) } as BridgeRequest);
}

function value<T>(response: BridgeResponse): T {
  if (!response.ok) throw new Error(`refused: ${response.error.message}`);
  return response.value as T;
}

describe('a repeated request', () => {
  it('places one order however often it is sent, one after another or all at once, and gives every sender the first answer', async () => {
    t = await startTestCore();
    const first = value<{ id: string }>(await send(t.core, 'orders.place', burger, ID));
    const again = value<{ id: string }>(await send(t.core, 'orders.place', burger, ID));
    expect(again).toEqual(first);
    const together = await Promise.all(Array.from({ length: 12 }, () => send(t!.core, 'orders.place', burger, 'req_all_at_once_0001')));
    const ids = new Set(together.map((r) => value<{ id: string }>(r).id));
    expect(ids.size).toBe(1);
    expect(count(t.dataDir, 'orders', "layer = 'pending'")).toBe(2);
    expect(count(t.dataDir, 'outbox', "entity_kind = 'order'")).toBe(2);
  });

  it('takes one payment and moves cash once', async () => {
    t = await startTestCore();
    const order = await ok(t.core, 'orders.place', burger);
    const payment = { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total };
    const answers = await Promise.all([send(t.core, 'payments.take', payment, 'req_pay_000000000001'), send(t.core, 'payments.take', payment, 'req_pay_000000000001')]);
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(count(t.dataDir, 'payments')).toBe(1);
    const paidOut = { kind: 'paid_out', amount: 500, reason: 'ice delivery' };
    for (let n = 0; n < 3; n++) value(await send(t.core, 'shift.moveCash', paidOut, 'req_paid_out_00000001'));
    expect(count(t.dataDir, 'cash_movements')).toBe(1);
  });

  it('refuses the same id with other details, and changes nothing', async () => {
    t = await startTestCore();
    value(await send(t.core, 'orders.place', burger, ID));
    const error = refusal(await send(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 3 }] }, ID));
    expect(error).toMatchObject({ code: 'invalid_command', message: 'This request id was used before for something else. Nothing was changed.' });
    expect(count(t.dataDir, 'orders', "layer = 'pending'")).toBe(1);
  });

  it('lets a refused request be sent again with the same id (nothing was done the first time)', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'cashier' });
    const order = await ok(t.core, 'orders.place', burger);
    const paid = await ok(t.core, 'payments.take', { orderId: order.id, method: 'cash', amount: order.total, tendered: order.total });
    const refund = { paymentId: paid.payment.id, amount: 100, reason: 'requested_by_customer' };
    expect(refusal(await send(t.core, 'payments.refund', refund, 'req_refund_0000000001')).code).toBe('needs_manager');
    const approved = { ...refund, managerPin: STAFF.manager.pin };
    value(await send(t.core, 'payments.refund', approved, 'req_refund_0000000001'));
    value(await send(t.core, 'payments.refund', approved, 'req_refund_0000000001'));
    expect(count(t.dataDir, 'refunds')).toBe(1);
    // The ledger keeps a digest of the details and the answer, never the payload with its PIN.
    expect(count(t.dataDir, 'bridge_requests', "result LIKE '%managerPin%' OR digest LIKE '%managerPin%'")).toBe(0);
  });

  it('gives the first answer after a restart', async () => {
    t = await startTestCore();
    const first = value<{ id: string }>(await send(t.core, 'orders.place', burger, ID));
    await t.core.shutdown();
    restarted = await startCoreOn(t.dataDir);
    await as(restarted, 'owner');
    expect(value<{ id: string }>(await send(restarted, 'orders.place', burger, ID)).id).toBe(first.id);
    expect(count(t.dataDir, 'orders', "layer = 'pending'")).toBe(1);
    t = undefined;
  });

  it('says a request interrupted by a stop may or may not have been done, and does not do it again', async () => {
    t = await startTestCore();
    value(await send(t.core, 'orders.place', burger, ID));
    // As a run that stopped between reserving the id and keeping the answer leaves it.
    const db = new Database(join(t.dataDir, 'terminal.db'));
    db.prepare("UPDATE bridge_requests SET result = NULL, run_id = 'run_stopped' WHERE request_id = ?").run(ID);
    db.close();
    const error = refusal(await send(t.core, 'orders.place', burger, ID));
    expect(error.code).toBe('conflict');
    expect(error.message).toMatch(/may or may not have been done\. Look in Orders/);
    expect(count(t.dataDir, 'orders', "layer = 'pending'")).toBe(1);
  });
});

describe('the page repeating a request whose reply was lost', () => {
  it('reuses the request id for the same command and details, so the second press gets the first order', async () => {
    t = await startTestCore();
    const core = t.core;
    let dropNext = true;
    const seen: (string | undefined)[] = [];
    const client = createBridgeClient({
      async invoke(request) {
        seen.push(request.requestId);
        const response = await core.invoke(request);
        if (!dropNext) return response;
        // The core did it; the answer never reaches the page.
        dropNext = false;
        return { ok: false, error: { code: 'unavailable', message: 'The terminal program is not answering.' } };
      },
      onEvent: () => () => undefined,
    });
    await expect(client.call('orders.place', burger)).rejects.toThrow(/not answering/);
    const order = await client.call('orders.place', burger);
    expect(seen[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(seen[1]).toBe(seen[0]);
    expect(count(t.dataDir, 'orders', "layer = 'pending'")).toBe(1);
    // Answered: the next sale of the same thing is a new order.
    const next = await client.call('orders.place', burger);
    expect(next.id).not.toBe(order.id);
    expect(seen[2]).not.toBe(seen[0]);
    // Queries carry no id.
    await client.call('orders.list', {});
    expect(seen[3]).toBeUndefined();
  });
});
