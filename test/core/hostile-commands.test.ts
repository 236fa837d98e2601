// Every bridge command walked with hostile payloads, as a signed-in cashier's script would send them
// with the page's token: not an object, unknown fields, empty, too long, too many lines, amounts
// beyond any till, foreign ids, another cashier's PIN as an approval. Each must be refused with
// words a person can act on (never a stack, a TypeError or "internal"), change nothing in any table
// of the store, and never take away a local order, payment or shift.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands, type CommandName } from '../../bridge/contract';
import type { BridgeResponse } from '../../bridge/protocol';
import { ITEMS, STAFF, startTestCore, type TestCore } from './fixtures';
import { as, count, ok, snapshot } from './staff-fixtures';

let t: TestCore;
let openOrder: { id: string };
let paidOrder: { id: string };
let paymentId: string;

beforeAll(async () => {
  t = await startTestCore({}, {}, undefined, { signIn: 'cashier' });
  openOrder = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }] });
  paidOrder = await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
  const paid = await ok(t.core, 'payments.take', { orderId: paidOrder.id, method: 'cash', amount: 450, tendered: 500 });
  paymentId = paid.payment.id;
});

afterAll(async () => {
  await t?.core.shutdown();
});

const LONG = 'x'.repeat(10_000);
const BEYOND = 1e15;
const FOREIGN = 'ord_not_on_this_terminal';
const line = { menuItemId: ITEMS.burger, quantity: 1 };
const lines = (n: number) => Array.from({ length: n }, () => line);
const count20 = [{ value: 2000, count: 1 }];

/** Payloads no till sends, per command (the ids of the orders set up above are filled in when run). */
function hostileCases(): [CommandName, string, unknown][] {
  return [
    ['orders.place', 'no lines', { lines: [] }],
    ['orders.place', '101 lines (more than /v1 takes)', { lines: lines(101) }],
    ['orders.place', 'a quantity of zero', { lines: [{ ...line, quantity: 0 }] }],
    ['orders.place', 'a negative quantity', { lines: [{ ...line, quantity: -1 }] }],
    ['orders.place', 'a fractional quantity', { lines: [{ ...line, quantity: 1.5 }] }],
    ['orders.place', 'an item of no menu', { lines: [{ ...line, menuItemId: 'mi_foreign' }] }],
    ['orders.place', 'a 10,000-character note', { lines: [{ ...line, note: LONG }] }],
    ['orders.place', 'a 10,000-character customer name', { lines: [line], customer: { name: LONG, phone: '' } }],
    ['orders.place', 'a discount beyond any till', { lines: [line], discount: { kind: 'amount', value: BEYOND, reason: 'x' } }],
    ['orders.place', 'a discount of 150%', { lines: [line], discount: { kind: 'percent', value: 15_000, reason: 'x' } }],
    ['orders.place', 'a negative discount', { lines: [line], discount: { kind: 'amount', value: -500, reason: 'x' } }],
    ['orders.place', 'a comp by amount with no approval', { lines: [{ ...line, discount: { kind: 'amount', value: 1200, reason: 'friend' } }] }],
    ['orders.place', 'a comp approved by another cashier', { lines: [{ ...line, discount: { kind: 'percent', value: 10_000, reason: 'friend' } }], managerPin: STAFF.cashier2.pin }],
    ['orders.update', 'a foreign order', { id: FOREIGN, notes: 'x' }],
    ['orders.update', '101 lines', { id: '$open', lines: lines(101) }],
    ['orders.update', 'a 10,000-character note', { id: '$open', notes: LONG }],
    ['orders.fulfil', 'a foreign order', { id: FOREIGN }],
    ['orders.cancel', 'a foreign order', { id: FOREIGN, reason: 'mistake' }],
    ['orders.cancel', 'no reason', { id: '$open' }],
    ['orders.cancel', 'approved by another cashier', { id: '$open', reason: 'mistake', managerPin: STAFF.cashier2.pin }],
    ['orders.get', 'a foreign order', { id: FOREIGN }],
    ['payments.take', 'a foreign order', { orderId: FOREIGN, method: 'cash', amount: 100 }],
    ['payments.take', 'nothing', { orderId: '$open', method: 'cash', amount: 0 }],
    ['payments.take', 'more than is due', { orderId: '$open', method: 'card', amount: 999_999 }],
    ['payments.take', 'an amount beyond any till', { orderId: '$open', method: 'cash', amount: BEYOND }],
    ['payments.take', 'a negative tip', { orderId: '$open', method: 'card', amount: 100, tip: -100 }],
    ['payments.take', 'a tender no till has', { orderId: '$open', method: 'bitcoin', amount: 100 }],
    ['payments.take', 'a paid order', { orderId: '$paid', method: 'cash', amount: 100 }],
    ['payments.refund', 'a foreign payment', { paymentId: 'pay_foreign', amount: 100, reason: 'other', note: 'Cold soup' }],
    ['payments.refund', 'with no approval', { paymentId: '$payment', amount: 100, reason: 'other', note: 'Cold soup' }],
    ['payments.refund', 'approved by another cashier', { paymentId: '$payment', amount: 100, reason: 'other', note: 'Cold soup', managerPin: STAFF.cashier2.pin }],
    ['payments.refund', 'more than was paid', { paymentId: '$payment', amount: 100_000, reason: 'other', note: 'Cold soup', managerPin: STAFF.manager.pin }],
    ['payments.refundItems', 'a line the order does not have', { orderId: '$paid', items: [{ lineIndex: 999, quantity: 1 }], reason: 'other', note: 'Cold soup', managerPin: STAFF.manager.pin }],
    ['payments.refundItems', '201 items', { orderId: '$paid', items: Array.from({ length: 201 }, () => ({ lineIndex: 0, quantity: 1 })), reason: 'other', note: 'Cold soup' }],
    ['shift.open', 'a second shift on an open drawer', { count: count20 }],
    ['shift.open', 'a float beyond any till', { count: [{ value: 10_000_000, count: 100_000 }] }],
    ['shift.moveCash', 'a paid-out beyond any till', { kind: 'paid_out', amount: BEYOND, reason: 'x' }],
    ['shift.moveCash', 'a paid-out with no reason', { kind: 'paid_out', amount: 100, reason: '' }],
    ['shift.moveCash', 'a 10,000-character reason', { kind: 'drop', amount: 100, reason: LONG }],
    ['shift.close', 'a negative count', { count: [{ value: 100, count: -1 }] }],
    ['staff.create', 'by a cashier', { name: 'Mallory', role: 'owner', pin: '2580' }],
    ['staff.create', 'a 10,000-character name', { name: LONG, role: 'cashier', pin: '2580', managerPin: STAFF.manager.pin }],
    ['staff.update', 'a foreign member', { id: 'stf_foreign', role: 'owner' }],
    ['staff.signIn', 'letters for a PIN', { pin: 'abcd' }],
    ['menu.createItem', 'by a cashier', { name: 'Free lunch', price: 0, categoryId: 'cat_food' }],
    ['menu.createItem', 'a negative price', { name: 'Refund machine', price: -100, categoryId: 'cat_food', managerPin: STAFF.manager.pin }],
    ['menu.updateItem', 'a foreign item', { id: 'mi_foreign', changes: { price: 1 }, managerPin: STAFF.manager.pin }],
    ['menu.setAvailable', 'a foreign item', { id: 'mi_foreign', available: false }],
    ['settings.update', 'by a cashier', { autoLockMinutes: 0 }],
    ['settings.update', 'a script for an address', { apiBaseUrl: 'javascript:alert(1)', managerPin: STAFF.manager.pin }],
    ['credentials.setApiKey', 'not a key', { apiKey: 'nope' }],
    ['printing.redirectJob', 'a foreign job', { id: 'job_foreign', printer: 'receipt' }],
    ['printing.discardJob', 'a foreign job', { id: 'job_foreign', managerPin: STAFF.manager.pin }],
    ['sync.retryDeadLetter', 'a foreign letter', { id: 'dl_foreign' }],
    ['sync.discardDeadLetter', 'a foreign letter', { id: 'dl_foreign', managerPin: STAFF.manager.pin }],
    ['reports.z', 'by a cashier', {}],
    ['terminal.reset', 'by a cashier', { confirmPendingLoss: true }],
    ['session.signOut', 'by a cashier', { despitePending: true }],
  ];
}

/** Every command with payloads no command takes: not an object, a list, a number, a field nobody knows. */
function shapeCases(): [CommandName, string, unknown][] {
  const out: [CommandName, string, unknown][] = [];
  for (const command of Object.keys(commands) as CommandName[]) {
    out.push([command, 'a string', 'x'], [command, 'a list', []], [command, 'a number', 42], [command, 'an unknown field', { isAdmin: true }]);
    // null stands for "no details": refused where details are required.
    if (!commands[command].payload.safeParse({}).success) out.push([command, 'null', null]);
  }
  return out;
}

function fill(payload: unknown): unknown {
  return JSON.parse(JSON.stringify(payload), (_key, value: unknown) =>
    value === '$open' ? openOrder.id : value === '$paid' ? paidOrder.id : value === '$payment' ? paymentId : value,
  );
}

const KEPT = ['orders', 'payments', 'refunds', 'shifts', 'cash_movements'];

async function expectRefusedChangingNothing(command: CommandName, payload: unknown): Promise<void> {
  // Every case as the cashier: an earlier case may not leave someone else signed in.
  await as(t.core, 'cashier');
  const before = snapshot(t.dataDir);
  const kept = KEPT.map((table) => count(t.dataDir, table));
  const response: BridgeResponse = await t.core.invoke({ command, payload: fill(payload) });
  expect(response.ok, `${command} was accepted: ${JSON.stringify(response).slice(0, 200)}`).toBe(false);
  if (response.ok) return;
  expect(response.error.code).not.toBe('internal');
  expect(response.error.message.length).toBeGreaterThan(10);
  expect(response.error.message).not.toMatch(/TypeError|undefined|\[object|\bat .*\.ts|Too big|Too small|expected/);
  expect(snapshot(t.dataDir)).toEqual(before);
  expect(KEPT.map((table) => count(t.dataDir, table))).toEqual(kept);
}

describe('hostile payloads through the bridge', () => {
  it.each(hostileCases())('%s: %s is refused in words and changes nothing', async (command, _what, payload) => {
    await expectRefusedChangingNothing(command, payload);
  });

  it.each(shapeCases())('%s: %s is refused in words and changes nothing', async (command, _what, payload) => {
    await expectRefusedChangingNothing(command, payload);
  });
});
