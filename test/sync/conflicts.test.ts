// Local changes not yet pushed against the server's truth, rejected changes, and credentials:
// a pending change survives pulls and webhooks until pushed, and is not sent over a change made
// elsewhere to the same lines; a refused one lands in the dead letters with its reason and what
// depended on it; the queue never blocks behind it.
import { describe, expect, it } from 'vitest';
import { signatureHeader } from '../../api/signature';
import { ApiKeyCredentials } from '../../sync/credentials';
import type { SyncStatus } from '../../sync/status';
import { startWebhookReceiver } from '../../sync/webhooks';
import { request } from 'undici';
import { cleanupAfterEach, OUR_GAP_DECISIONS, sandboxAndStore, allServerOrders, engineFor, getJson, menuFixture, placeOrder, sendJson, waitFor } from './harness';

const defer = cleanupAfterEach();

const setup = () => sandboxAndStore(defer);

type ServerOrder = { id: string; status: string; items: { quantity: number }[]; updated_at: string };

describe('pending local changes against the server', () => {
  it('a pending change survives a conflicting pull and webhook; pushed, it does not erase the other change but waits for a person', async () => {
    const { sandbox, store } = await setup();
    const menu = await menuFixture(sandbox);
    const order = placeOrder(store, menu, 1, 1);
    const engine = engineFor(sandbox, store, { locationId: menu.locationId });
    engine.start();
    await waitFor(() => store.outbox.unfinishedCount() === 0 && engine.status().lastPullAt !== null, 20_000, 'the first sync');
    await engine.stop();
    const serverId = store.serverIdFor('order', order.id)!;

    // Offline, the cashier changes the quantities; meanwhile the server's copy changes too.
    const line = order.lines[0]!;
    store.cashier.updateOrder(order.id, { lines: [{ ...line, quantity: 7 }] }, { actor: 'test' });
    await sendJson(sandbox, 'PATCH', `/orders/${serverId}`, { items: [{ menu_item_id: line.menu_item_id, quantity: 3 }] });
    const serverCopy = await getJson<ServerOrder>(sandbox, `/orders/${serverId}`);

    // A webhook delivers the server's version: base follows, the merged view keeps ours.
    const secret = 'whsec_conflict_test';
    // With the API, as the app runs it: an event without a version (a spec-minimal server's) is settled by reading the order.
    const receiver = await startWebhookReceiver({ store, secrets: [secret], api: { baseUrl: sandbox.baseUrl, credentials: new ApiKeyCredentials(async () => sandbox.credentials.apiKeys.full) } });
    defer(() => receiver.close());
    const body = JSON.stringify({ id: 'evt_conflict1', type: 'order.updated', created_at: new Date().toISOString(), test: false, data: { id: serverId, type: 'order', attributes: serverCopy } });
    const delivered = await request(receiver.url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'service-signature': signatureHeader(secret, body, Math.floor(Date.now() / 1000)) } });
    await delivered.body.text();
    expect(delivered.statusCode).toBe(200);
    await receiver.applier.settled();
    expect(store.server.readBase('order', order.id)?.lines[0]?.quantity).toBe(3);
    expect(store.cashier.getOrder(order.id)?.lines[0]?.quantity).toBe(7);

    // A pull changes nothing either.
    const puller = engineFor(sandbox, store, { locationId: menu.locationId, timers: { pushIntervalMs: 60_000, pullIntervalMs: 60_000 } });
    // Hold the push back by leaving the outbox op not yet due: only the pull runs.
    store.db.prepare(`UPDATE outbox SET next_attempt_at = ? WHERE state = 'pending'`).run(Date.now() + 60_000);
    puller.start();
    await waitFor(() => puller.status().lastPullAt !== null, 20_000, 'the pull');
    await puller.stop();
    expect(store.cashier.getOrder(order.id)?.lines[0]?.quantity).toBe(7);
    expect(store.server.readBase('order', order.id)?.lines[0]?.quantity).toBe(3);

    // Pushed at last: both sides changed the same line, so the change is not sent over the other
    // one: it waits in the dead letters, and the order shows this till's version, marked refused,
    // until a person decides (the server's stays in base).
    store.db.prepare(`UPDATE outbox SET next_attempt_at = 0 WHERE state = 'pending'`).run();
    const pusher = engineFor(sandbox, store, { locationId: menu.locationId });
    pusher.start();
    defer(() => pusher.stop());
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the push');
    const [letter, ...others] = store.outbox.listDeadLetters();
    expect(others).toEqual([]);
    expect(letter?.refusal).toEqual({ cause: 'conflict', status: null, code: null });
    expect(letter?.reason).toContain(`${line.name}: 7 here, 3 there (was ${line.quantity})`);
    expect(store.cashier.listAudit({ entityKind: 'order', entityId: order.id })[0]).toMatchObject({
      actor: 'sync',
      action: 'order.lines_conflict',
      detail: { conflicts: [{ name: line.name, ancestor: line.quantity, ours: 7, theirs: 3 }] },
    });
    expect((await getJson<ServerOrder>(sandbox, `/orders/${serverId}`)).items[0]?.quantity).toBe(3);
    expect(store.cashier.getOrder(order.id)?.lines[0]?.quantity).toBe(7);
    expect(store.server.readBase('order', order.id)?.lines[0]?.quantity).toBe(3);

    // The cashier retries it: this till's quantity goes over the other one.
    pusher.retryDeadLetter(String(letter!.id));
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the retried push');
    expect(store.outbox.listDeadLetters()).toEqual([]);
    expect((await getJson<ServerOrder>(sandbox, `/orders/${serverId}`)).items[0]?.quantity).toBe(7);
    expect(store.server.readBase('order', order.id)?.lines[0]?.quantity).toBe(7);
  });

  it('a rejected change lands in the dead letters with its reason and dependents; the rest of the queue moves on', async () => {
    const { sandbox, store } = await setup();
    const menu = await menuFixture(sandbox);
    const engine = engineFor(sandbox, store);
    engine.start();
    defer(() => engine.stop());
    const doomed = placeOrder(store, menu, 1, 1);
    engine.notifyLocalWrite();
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the order to reach the server');
    const serverId = store.serverIdFor('order', doomed.id)!;
    await engine.stop();

    // The server cancels the order; the till, not knowing, fulfils it and takes a payment on it.
    await sendJson(sandbox, 'PATCH', `/orders/${serverId}`, { status: 'cancelled' });
    store.cashier.fulfilOrder(doomed.id, { actor: 'test' });
    // An order whose item does not exist on the server is refused as invalid_request.
    const bogus = store.cashier.createOrder(
      { locationId: menu.locationId, currency: menu.currency, lines: [{ menu_item_id: 'mi_doesnotexist', name: 'Ghost', quantity: 1, unit_price: 100, modifiers: [] }] },
      { actor: 'test' },
    );
    const intent = store.cashier.createPaymentIntent(bogus.id, 100, menu.currency, { actor: 'test' });
    const fine = Array.from({ length: 5 }, (_, n) => placeOrder(store, menu, 10 + n));

    const statuses: SyncStatus[] = [];
    const second = engineFor(sandbox, store);
    second.onStatus((s) => statuses.push(s));
    second.start();
    defer(() => second.stop());
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the queue to settle');
    for (const order of fine) expect(store.serverIdFor('order', order.id)).toBeDefined();

    const letters = store.outbox.listDeadLetters();
    expect(letters.map((l) => l.operation.kind).sort()).toEqual(['order.create', 'order.fulfil', 'payment_intent.create']);
    const fulfil = letters.find((l) => l.operation.kind === 'order.fulfil')!;
    expect(fulfil.reason).toMatch(OUR_GAP_DECISIONS ? /rejected by the server: .*409 invalid_state/ : /rejected by the server: .*409/);
    // The spec-minimal profile answers other codes and statuses (docs/sandbox.md): the same cause.
    expect(fulfil.refusal).toEqual({ cause: 'invalid', status: 409, code: OUR_GAP_DECISIONS ? 'invalid_state' : 'conflict' });
    const create = letters.find((l) => l.operation.kind === 'order.create')!;
    expect(create.reason).toMatch(OUR_GAP_DECISIONS ? /400 invalid_request/ : /422 invalid_request/);
    expect(create.refusal).toEqual({ cause: 'invalid', status: OUR_GAP_DECISIONS ? 400 : 422, code: 'invalid_request' });
    const dependent = letters.find((l) => l.operation.kind === 'payment_intent.create')!;
    expect(dependent.causedByOpId).toBe(create.operation.opId);
    expect(dependent.refusal).toEqual({ cause: 'dependency', status: null, code: null });
    expect(dependent.operation.entityId).toBe(intent.id);
    // The refused changes stay on the till, marked, until a person decides; base holds the server's truth.
    expect(store.cashier.getOrder(doomed.id)?.status).toBe('fulfilled');
    expect(store.server.readBase('order', doomed.id)?.status).toBe('cancelled');
    expect(store.cashier.getOrder(bogus.id)?.id).toBe(bogus.id);
    expect(store.cashier.getPaymentIntent(intent.id)?.id).toBe(intent.id);
    expect(statuses.at(-1)).toMatchObject({ deadLetters: 3, pending: 0 });

    // Retrying a dead letter sends it again (and it fails again, for the same reason).
    second.retryDeadLetter(String(fulfil.id));
    await waitFor(() => store.outbox.listDeadLetters().length === 3 && store.outbox.unfinishedCount() === 0, 20_000, 'the retry to fail again');
    expect(store.outbox.listDeadLetters().find((l) => l.operation.kind === 'order.fulfil')?.reason).toMatch(OUR_GAP_DECISIONS ? /invalid_state/ : /409 conflict/);
    // Retrying a dependent before its cause is refused with a reason; discarding takes the group.
    const again = store.outbox.listDeadLetters();
    expect(() => second.retryDeadLetter(String(again.find((l) => l.operation.kind === 'payment_intent.create')!.id))).toThrow(/depends on/);
    second.discardDeadLetter(String(again.find((l) => l.operation.kind === 'order.create')!.id));
    expect(store.outbox.listDeadLetters().map((l) => l.operation.kind)).toEqual(['order.fulfil']);
    expect(store.cashier.getOrder(bogus.id)).toBeUndefined();
    expect(store.cashier.getPaymentIntent(intent.id)).toBeUndefined();
    await waitFor(() => second.status().deadLetters === 1, 5_000, 'the status to follow');
  });
});

describe('credentials', () => {
  it('a restricted key is reported as insufficient permission, not a generic failure', async () => {
    const { sandbox, store } = await setup();
    const menu = await menuFixture(sandbox);
    placeOrder(store, menu, 1);
    const engine = engineFor(sandbox, store, { credentials: new ApiKeyCredentials(async () => sandbox.credentials.apiKeys.menuOnly) });
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => engine.status().credentials === 'insufficient_permission' && engine.status().pending === 0, 20_000, 'the permission problem to show');
    expect(engine.status().lastError).toMatch(/permission|orders:write/);
    expect(store.outbox.listDeadLetters()[0]?.reason).toMatch(/lack a permission for POST \/orders/);
    expect(store.outbox.listDeadLetters()[0]?.refusal).toMatchObject({ cause: 'permission', status: 403 });
  });

  it('a rejected key stops sync without dead-lettering anything; a new key and sync now resume it', async () => {
    const { sandbox, store } = await setup();
    const menu = await menuFixture(sandbox);
    const orders = Array.from({ length: 5 }, (_, n) => placeOrder(store, menu, n));
    let key = 'sk_test_revoked_or_mistyped';
    const engine = engineFor(sandbox, store, { credentials: new ApiKeyCredentials(async () => key) });
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => engine.status().credentials === 'rejected', 10_000, 'the rejection to show');
    expect(engine.status()).toMatchObject({ pending: 5, deadLetters: 0, online: true });
    expect(store.outbox.listDeadLetters()).toEqual([]);
    key = sandbox.credentials.apiKeys.custom;
    engine.syncNow();
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the push with the new key');
    for (const order of orders) expect(store.serverIdFor('order', order.id)).toBeDefined();
    expect(engine.status().credentials).toBe('ok');
  });

  it('a failure on this side (the secret store cannot be read) leaves nothing stuck in flight', async () => {
    const { sandbox, store } = await setup();
    const menu = await menuFixture(sandbox);
    const orders = Array.from({ length: 3 }, (_, n) => placeOrder(store, menu, n));
    let broken = true;
    const engine = engineFor(sandbox, store, {
      credentials: new ApiKeyCredentials(async () => {
        if (broken) throw new Error('secret file damaged');
        return sandbox.credentials.apiKeys.full;
      }),
    });
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => store.outbox.readyOperations(Number.MAX_SAFE_INTEGER, 10).some((op) => op.lastError?.includes('local failure: secret file damaged') ?? false), 10_000, 'the failure to be recorded');
    broken = false;
    await waitFor(() => store.outbox.unfinishedCount() === 0, 20_000, 'the push once the secrets are readable');
    for (const order of orders) expect(store.serverIdFor('order', order.id)).toBeDefined();
    const serverIds = new Set(orders.map((order) => store.serverIdFor('order', order.id)));
    expect((await allServerOrders(sandbox)).filter((o) => serverIds.has(o.id))).toHaveLength(3);
  });

  it('with no credentials at all the status says missing', async () => {
    const { sandbox, store } = await setup();
    const engine = engineFor(sandbox, store, { credentials: new ApiKeyCredentials(async () => null) });
    engine.start();
    defer(() => engine.stop());
    await waitFor(() => engine.status().credentials === 'missing', 10_000, 'the missing credentials to show');
  });
});
