// An order's lines confirmed by the server with another total than the till's: the difference is
// kept until a manager settles it; the order itself takes the server's total.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { openStore, StoreError, type OrderDoc } from '../../store';
import { cashier, tempDbPath, threeLineOrder } from './helpers';

function setup() {
  const clock = new ManualClock(1_800_000_000_000);
  return { clock, store: openStore(tempDbPath(), { clock }) };
}

/** What a server returns for the order with its own prices: each line at `unitPrice`. */
function serverCopy(order: OrderDoc, serverId: string, unitPrice: (line: OrderDoc['lines'][number]) => number) {
  const lines = order.lines.map((line) => ({ ...line, unit_price: unitPrice(line) }));
  const total = lines.reduce((sum, line) => sum + (line.unit_price + line.modifiers.reduce((m, modifier) => m + modifier.price, 0)) * line.quantity, 0);
  return { ...order, id: serverId, lines, total };
}

function completeNext(store: ReturnType<typeof openStore>, now: number, record: Record<string, unknown> & { id: string }) {
  const [op] = store.outbox.claimReady(now, 1);
  store.outbox.completeOperation(op!.opId, { serverRecord: record }, now);
}

describe('repriced orders', () => {
  it('notes an order the server priced higher or lower, and takes the server total', () => {
    const { store, clock } = setup();
    const dearer = store.cashier.createOrder(threeLineOrder(), cashier);
    const cheaper = store.cashier.createOrder(threeLineOrder(), cashier);
    const same = store.cashier.createOrder(threeLineOrder(), cashier);
    completeNext(store, clock.now(), serverCopy(dearer, 'ord_srv_1', (line) => line.unit_price + 100));
    completeNext(store, clock.now(), serverCopy(cheaper, 'ord_srv_2', (line) => line.unit_price - 50));
    completeNext(store, clock.now(), serverCopy(same, 'ord_srv_3', (line) => line.unit_price));
    const units = dearer.lines.reduce((sum, line) => sum + line.quantity, 0);
    expect(store.repricedOrders.listUnsettled()).toEqual([
      { orderId: dearer.id, tillTotal: dearer.total, serverTotal: dearer.total + 100 * units, currency: 'usd', detectedAt: clock.now() },
      { orderId: cheaper.id, tillTotal: cheaper.total, serverTotal: cheaper.total - 50 * units, currency: 'usd', detectedAt: clock.now() },
    ]);
    expect(store.cashier.getOrder(dearer.id)?.total).toBe(dearer.total + 100 * units);
    store.close();
  });

  it('keeps a difference until it is settled, once; a later repricing of the same order lists it again', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    completeNext(store, clock.now(), serverCopy(order, 'ord_srv_1', (line) => line.unit_price + 10));
    clock.advance(60_000);
    expect(store.repricedOrders.settle(order.id, 'manager-1', clock.now())).toMatchObject({ orderId: order.id, tillTotal: order.total });
    expect(store.repricedOrders.listUnsettled()).toEqual([]);
    expect(() => store.repricedOrders.settle(order.id, 'manager-1', clock.now())).toThrow(StoreError);

    // The cashier changes the lines; the server prices the new lines its own way again.
    const changed = store.cashier.updateOrder(order.id, { lines: [order.lines[0]!] }, cashier);
    clock.advance(60_000);
    completeNext(store, clock.now(), serverCopy(changed, 'ord_srv_1', (line) => line.unit_price + 10));
    expect(store.repricedOrders.listUnsettled()).toEqual([
      { orderId: order.id, tillTotal: changed.total, serverTotal: changed.total + 10 * order.lines[0]!.quantity, currency: 'usd', detectedAt: clock.now() },
    ]);
    store.close();
  });

  it('ignores replies without a total and changes that do not touch the lines', () => {
    const { store, clock } = setup();
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const { total: _total, ...withoutTotal } = serverCopy(order, 'ord_srv_1', (line) => line.unit_price + 10);
    completeNext(store, clock.now(), withoutTotal);
    store.cashier.fulfilOrder(order.id, cashier);
    completeNext(store, clock.now(), { ...serverCopy(order, 'ord_srv_1', (line) => line.unit_price + 10), status: 'fulfilled' });
    expect(store.repricedOrders.listUnsettled()).toEqual([]);
    store.close();
  });
});
