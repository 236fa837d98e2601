// An order created here whose create reply was lost can reach the terminal first through a pull
// or a webhook: it must be recognised by its metadata and land on the cashier's order (keeping
// what only the till knows, such as the notes), and the push must then complete without a
// second order.
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { signatureHeader } from '../../api/signature';
import { systemClock } from '../../common/clock';
import { silentLogger } from '../../common/log';
import { ApiClient } from '../../sync/api-client';
import { ApiKeyCredentials } from '../../sync/credentials';
import { DEFAULT_TUNING } from '../../sync/engine';
import { Puller } from '../../sync/pull';
import { OutboxPusher } from '../../sync/push';
import { startWebhookReceiver } from '../../sync/webhooks';
import { allServerOrders, cleanupAfterEach, getJson, menuFixture, placeOrder, sandboxAndStore } from './harness';

const defer = cleanupAfterEach();

/** An order placed here, with notes, whose create the server committed while the reply was lost. */
async function orderWithLostCreateReply(notes: string) {
  const { sandbox, store } = await sandboxAndStore(defer);
  const menu = await menuFixture(sandbox);
  const order = placeOrder(store, menu, 1);
  store.cashier.updateOrder(order.id, { notes }, { actor: 'test' });
  const api = new ApiClient({ baseUrl: sandbox.baseUrl, credentials: new ApiKeyCredentials(async () => sandbox.credentials.apiKeys.full) });
  defer(() => api.close());
  const pusher = new OutboxPusher({ api, store, clock: systemClock, logger: silentLogger, tuning: DEFAULT_TUNING.push });
  await sandbox.faults.set({ drop_response_rate: 1, drop_response_methods: ['POST'] });
  await pusher.drain();
  await sandbox.faults.set({ drop_response_rate: 0 });
  const [created, ...more] = (await allServerOrders(sandbox)).filter((o) => o.metadata.pos_local_id === order.id);
  expect(more).toEqual([]);
  return { sandbox, store, menu, order: store.cashier.getOrder(order.id)!, api, pusher, created: created! };
}

describe('our own order, first seen through a pull', () => {
  it('is claimed by the pull, keeps its notes, and is pushed without a duplicate', async () => {
    const { sandbox, store, menu, order, api, pusher, created } = await orderWithLostCreateReply('table 9, no onions');
    expect(store.serverIdFor('order', order.id)).toBeUndefined();

    const puller = new Puller({ api, store, clock: systemClock, logger: silentLogger, tuning: DEFAULT_TUNING.pull });
    await puller.fullPull(puller.orderScope(menu.locationId));
    expect(store.serverIdFor('order', order.id)).toBe(created.id);
    // One order, under the cashier's id: the server's copy did not appear as a second one.
    const local = store.cashier.listOrders({ limit: 500 }).map((o) => o.id);
    expect(local.filter((id) => id === order.id || id === created.id)).toEqual([order.id]);
    expect(store.cashier.getOrder(order.id)).toMatchObject({ notes: 'table 9, no onions', total: order.total });

    // The retry is due now rather than after its backoff: it looks for the order first and finds it.
    store.db.prepare(`UPDATE outbox SET next_attempt_at = 0 WHERE state = 'pending'`).run();
    await pusher.drain();
    expect(store.outbox.unfinishedCount()).toBe(0);
    expect((await allServerOrders(sandbox)).filter((o) => o.metadata.pos_local_id === order.id)).toHaveLength(1);
    expect(store.cashier.getOrder(order.id)).toMatchObject({ notes: 'table 9, no onions', total: order.total });
    expect(store.outbox.listDeadLetters()).toEqual([]);
  });

  it('is claimed from its order.created webhook, keeps its notes, and is pushed without a duplicate', async () => {
    const { sandbox, store, order, pusher, created } = await orderWithLostCreateReply('for pickup');

    const secret = 'whsec_own_order';
    const receiver = await startWebhookReceiver({ store, secrets: [secret] });
    defer(() => receiver.close());
    const attributes = await getJson<Record<string, unknown>>(sandbox, `/orders/${created.id}`);
    const body = JSON.stringify({ id: 'evt_own_order', type: 'order.created', created_at: new Date().toISOString(), test: false, data: { id: created.id, type: 'order', attributes } });
    const delivered = await request(receiver.url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'service-signature': signatureHeader(secret, body, Math.floor(Date.now() / 1000)) } });
    await delivered.body.text();
    expect(delivered.statusCode).toBe(200);
    expect(store.serverIdFor('order', order.id)).toBe(created.id);
    expect(store.cashier.getOrder(order.id)).toMatchObject({ notes: 'for pickup', total: order.total });
    expect(store.cashier.getOrder(created.id)).toBeUndefined();

    store.db.prepare(`UPDATE outbox SET next_attempt_at = 0 WHERE state = 'pending'`).run();
    await pusher.drain();
    expect(store.outbox.unfinishedCount()).toBe(0);
    expect((await allServerOrders(sandbox)).filter((o) => o.metadata.pos_local_id === order.id)).toHaveLength(1);
    expect(store.cashier.getOrder(order.id)?.notes).toBe('for pickup');
  });
});
