// The receiver against a /v1 that sends only what the spec shows (the sandbox's spec-minimal
// profile): every validly signed delivery is answered 2xx and applied, whatever its data (only
// the spec's attributes, an order the terminal does not know, an event that arrives before the
// reply of the request that caused it); every invalid one is still refused. The spec's sender
// gives up after three retries, so a 5xx here would lose the event.
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { signatureHeader } from '../../api/signature';
import { ApiKeyCredentials } from '../../sync/credentials';
import { startWebhookReceiver } from '../../sync/webhooks';
import { cleanupAfterEach, engineFor, menuFixture, openStore, placeOrder, sendJson, startSandbox, tempStoreFile, waitFor } from './harness';

const defer = cleanupAfterEach();
const ALL_EVENTS = ['order.created', 'order.updated', 'order.fulfilled', 'order.cancelled', 'payment.completed', 'payment.refunded', 'menu.item_updated', 'inventory.low_stock'] as const;

async function post(url: string, body: string, headers: Record<string, string>, method = 'POST'): Promise<number> {
  const res = await request(url, { method, body: method === 'POST' ? body : undefined, headers: { 'content-type': 'application/json', ...headers } });
  await res.body.text();
  return res.statusCode;
}

describe('webhook deliveries from a spec-minimal /v1', () => {
  it('accepts and applies every validly signed delivery, and refuses every invalid one', async () => {
    const sandbox = await startSandbox({ seed: 'demo', profile: 'spec-minimal', recordShape: 'flat', eventsBeforeReply: true });
    defer(() => sandbox.close());
    const store = openStore(tempStoreFile());
    defer(() => store.close());
    const credentials = new ApiKeyCredentials(async () => sandbox.credentials.apiKeys.full);
    let secrets: string[] = [];
    const receiver = await startWebhookReceiver({ store, secrets: () => secrets, api: { baseUrl: sandbox.baseUrl, credentials } });
    defer(() => receiver.close());
    const endpoint = await sandbox.createWebhookEndpoint({ url: receiver.url, event_types: ALL_EVENTS });
    secrets = [endpoint.secret];

    // 1. Our own order: its order.created (attributes only: items without menu items, no
    //    timestamps) reaches the receiver before the POST's reply reaches the engine.
    const menu = await menuFixture(sandbox);
    const ours = placeOrder(store, menu, 1);
    const engine = engineFor(sandbox, store, { locationId: menu.locationId });
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the order to be pushed');
    await sandbox.webhooksIdle();
    await receiver.applier.settled();
    const ourServerId = store.serverIdFor('order', ours.id)!;
    const createdEvent = (await sandbox.listDeliveries({ endpointId: endpoint.id })).find((d) => d.resource_id === ourServerId && d.event_type === 'order.created');
    expect(createdEvent?.status).toBe('delivered');
    // One order on this till for it, under the cashier's id (the early copy merged into it).
    expect(store.cashier.listOrders({ limit: 500 }).filter((o) => o.id === ours.id || o.id === ourServerId).map((o) => o.id)).toEqual([ours.id]);

    // 2. The battery, signed by hand as the spec's sender signs.
    const other = await sendJson<{ id: string; total: number }>(sandbox, 'POST', '/orders', { location_id: menu.locationId, items: [{ menu_item_id: menu.items[1]!.id, quantity: 2 }] });
    const attributes = (status: string) => ({ total: other.total, status, location_id: menu.locationId, items: [{ name: menu.items[1]!.name, quantity: 2, price: menu.items[1]!.price }] });
    const event = (id: string, status = 'open') => JSON.stringify({ id, type: 'order.created', created_at: new Date().toISOString(), data: { id: other.id, type: 'order', attributes: attributes(status) } });
    const now = () => Math.floor(Date.now() / 1000);
    const sign = (body: string, t = now(), secret = endpoint.secret) => signatureHeader(secret, body, t);
    const v1 = (body: string, t: number, secret: string) => sign(body, t, secret).split(',')[1]!;
    const rotated = 'whsec_rotated_secret_value';

    const valid = event('evt_battery_valid');
    const accepted: [string, number][] = [
      ['valid, only the spec attributes, an order not known here', await post(receiver.url, valid, { 'service-signature': sign(valid) })],
      ['the same delivery again', await post(receiver.url, valid, { 'service-signature': sign(valid) })],
      ['rotated secret: two v1 entries, the second one valid', await (async () => {
        secrets = [rotated, endpoint.secret];
        const body = event('evt_battery_rotated');
        const t = now();
        return post(receiver.url, body, { 'service-signature': `t=${t},${v1(body, t, 'whsec_old_secret')},${v1(body, t, endpoint.secret)}` });
      })()],
      ['an extra unknown scheme entry', await (async () => {
        const body = event('evt_battery_scheme');
        const t = now();
        return post(receiver.url, body, { 'service-signature': `t=${t},v0=deadbeef,${v1(body, t, endpoint.secret)},v2=abc` });
      })()],
      ['200 s old', await (async () => {
        const body = event('evt_battery_old', 'fulfilled');
        return post(receiver.url, body, { 'service-signature': sign(body, now() - 200) });
      })()],
    ];
    for (const [what, status] of accepted) expect(status, what).toBe(200);

    const body = event('evt_battery_refused');
    const refused: [string, number, number][] = [
      ['no signature', 400, await post(receiver.url, body, {})],
      ['a malformed header', 400, await post(receiver.url, body, { 'service-signature': 'v1=abc' })],
      ['no v1 entry', 400, await post(receiver.url, body, { 'service-signature': `t=${now()},v0=abc` })],
      ['a wrong secret', 401, await post(receiver.url, body, { 'service-signature': sign(body, now(), 'whsec_wrong') })],
      ['301 s old', 401, await post(receiver.url, body, { 'service-signature': sign(body, now() - 301) })],
      ['301 s in the future', 401, await post(receiver.url, body, { 'service-signature': sign(body, now() + 301) })],
      ['a body changed after signing', 401, await post(receiver.url, body.replace('"open"', '"cancelled"'), { 'service-signature': sign(body) })],
      ['signed, but not JSON', 400, await post(receiver.url, 'not json', { 'service-signature': sign('not json') })],
      ['signed JSON that is not an event', 400, await post(receiver.url, '{"hello":1}', { 'service-signature': sign('{"hello":1}') })],
      ['GET instead of POST', 405, await post(receiver.url, body, { 'service-signature': sign(body) }, 'GET')],
      ['another path', 404, await post(receiver.url.replace(/\/webhooks$/, '/other'), body, { 'service-signature': sign(body) })],
    ];
    for (const [what, expected, status] of refused) expect(status, what).toBe(expected);
    expect(accepted.length + refused.length).toBe(16);

    // Every accepted event was applied: the order made elsewhere is here as the server has it.
    await receiver.applier.settled();
    expect(store.server.unappliedWebhookEvents()).toEqual([]);
    expect(store.cashier.getOrder(other.id)).toMatchObject({ status: 'open', total: other.total, lines: [{ menu_item_id: menu.items[1]!.id, quantity: 2 }] });
    expect(store.server.hasWebhookEvent('evt_battery_refused')).toBe(false);
  });

  it('an event whose resource cannot be read is kept, shown, and applied once the server answers', async () => {
    const sandbox = await startSandbox({ seed: 'demo', profile: 'spec-minimal', recordShape: 'jsonapi' });
    defer(() => sandbox.close());
    const store = openStore(tempStoreFile());
    defer(() => store.close());
    const secret = 'whsec_kept';
    const receiver = await startWebhookReceiver({ store, secrets: [secret], api: { baseUrl: sandbox.baseUrl, credentials: new ApiKeyCredentials(async () => sandbox.credentials.apiKeys.full) } });
    defer(() => receiver.close());
    const menu = await menuFixture(sandbox);
    const order = await sendJson<{ id: string; total: number }>(sandbox, 'POST', '/orders', { location_id: menu.locationId, items: [{ menu_item_id: menu.items[0]!.id, quantity: 1 }] });
    const body = JSON.stringify({ id: 'evt_kept', type: 'order.updated', created_at: new Date().toISOString(), data: { id: order.id, type: 'order', attributes: { status: 'open' } } });

    await sandbox.faults.set({ outage: true });
    expect(await post(receiver.url, body, { 'service-signature': signatureHeader(secret, body, Math.floor(Date.now() / 1000)) })).toBe(200);
    await receiver.applier.settled();
    const [kept] = store.server.unappliedWebhookEvents();
    expect(kept).toMatchObject({ eventId: 'evt_kept', reason: expect.stringMatching(/could not read order .* from the server/) });
    expect(store.cashier.getOrder(order.id)).toBeUndefined();

    await sandbox.faults.set({ outage: false });
    receiver.applier.retryKept();
    await receiver.applier.settled();
    expect(store.server.unappliedWebhookEvents()).toEqual([]);
    expect(store.cashier.getOrder(order.id)).toMatchObject({ status: 'open', total: order.total });
  });
});
