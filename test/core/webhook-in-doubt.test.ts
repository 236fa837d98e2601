// The webhook receiver as the terminal runs it (browser mode, a real sandbox): an order event it
// cannot read is checked with the cloud at once, through the session's own credentials, instead
// of waiting for the next pull.
import { request } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signatureHeader } from '../../api/signature';
import type { BridgeResponse } from '../../bridge/protocol';
import { startTerminal, type Terminal } from '../e2e/harness';
import { signIn } from './fixtures';

let terminal: Terminal | undefined;
afterEach(async () => {
  await terminal?.close();
  terminal = undefined;
});

describe("the terminal's webhook receiver", () => {
  it('fetches an order whose event it cannot read from the cloud at once', async () => {
    terminal = await startTerminal();
    const { core } = terminal.mode;
    const { sandbox } = terminal;
    // The webhook is the owner's to set up ('settings.system').
    await signIn(core, 'owner');
    const secret = 'whsec_core_in_doubt';
    const saved = (await core.invoke({ command: 'settings.update', payload: { webhook: { enabled: true, host: '127.0.0.1', port: 0 }, webhookSigningSecret: secret } })) as BridgeResponse & {
      value: { webhook: { url: string } };
    };
    expect(saved.ok).toBe(true);

    // An order made in the cloud after the terminal's first pull (the next one is a minute away).
    await vi.waitFor(
      async () => {
        const status = (await core.invoke({ command: 'sync.status', payload: {} })) as BridgeResponse & { value: { lastPullAt: string | null } };
        if (status.value.lastPullAt === null) throw new Error('the first pull has not finished');
      },
      { timeout: 15_000, interval: 50 },
    );
    const headers = { authorization: `Bearer ${sandbox.credentials.apiKeys.full}`, 'content-type': 'application/json' };
    const items = (await (await fetch(`${sandbox.baseUrl}/menu/items?location_id=${sandbox.credentials.locationIds[0]}&per_page=100`, { headers })).json()) as {
      data: { id: string; available: boolean; stock: number | null }[];
    };
    const item = items.data.find((i) => i.available && i.stock === null)!;
    const created = await fetch(`${sandbox.baseUrl}/orders`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ location_id: sandbox.credentials.locationIds[0], items: [{ menu_item_id: item.id, quantity: 2 }] }),
    });
    const order = (await created.json()) as { id: string };
    expect((await core.invoke({ command: 'orders.get', payload: { id: order.id } })).ok).toBe(false);

    // Its event arrives with attributes the terminal cannot read.
    const body = JSON.stringify({ id: 'evt_in_doubt1', type: 'order.updated', created_at: new Date().toISOString(), test: false, data: { id: order.id, type: 'order', attributes: { status: 42 } } });
    const delivered = await request(saved.value.webhook.url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'service-signature': signatureHeader(secret, body, Math.floor(Date.now() / 1000)) },
    });
    await delivered.body.text();
    expect(delivered.statusCode).toBe(200);
    await vi.waitFor(
      async () => {
        const got = await core.invoke({ command: 'orders.get', payload: { id: order.id } });
        if (!got.ok) throw new Error('the order has not been fetched yet');
        expect(got.value).toMatchObject({ id: order.id, lines: [{ quantity: 2 }] });
      },
      { timeout: 5_000, interval: 50 },
    );
  });

  it("records another location's order events and applies only this till's", async () => {
    terminal = await startTerminal();
    const { core } = terminal.mode;
    const { sandbox } = terminal;
    await signIn(core, 'owner');
    const on = (await core.invoke({ command: 'settings.update', payload: { webhook: { enabled: true, host: '127.0.0.1', port: 0 } } })) as BridgeResponse & {
      value: { webhook: { url: string } };
    };
    const endpoint = await sandbox.createWebhookEndpoint({ url: on.value.webhook.url, event_types: ['order.created'] });
    expect((await core.invoke({ command: 'settings.update', payload: { webhookSigningSecret: endpoint.secret } })).ok).toBe(true);
    const location = (await core.invoke({ command: 'location.get', payload: {} })) as BridgeResponse & { value: { id: string } };
    const elsewhere = sandbox.credentials.locationIds.find((id) => id !== location.value.id)!;
    const headers = { authorization: `Bearer ${sandbox.credentials.apiKeys.full}`, 'content-type': 'application/json' };
    const itemAt = async (locationId: string) =>
      ((await (await fetch(`${sandbox.baseUrl}/menu/items?location_id=${locationId}&per_page=100`, { headers })).json()) as { data: { id: string; available: boolean; stock: number | null }[] }).data.find(
        (i) => i.available && i.stock === null,
      )!;
    const orderAt = async (locationId: string) => {
      const body = JSON.stringify({ location_id: locationId, items: [{ menu_item_id: (await itemAt(locationId)).id, quantity: 1 }] });
      return (await (await fetch(`${sandbox.baseUrl}/orders`, { method: 'POST', headers, body })).json()) as { id: string };
    };
    const theirs = await orderAt(elsewhere);
    const ours = await orderAt(location.value.id);
    await sandbox.webhooksIdle();
    await vi.waitFor(async () => expect((await core.invoke({ command: 'orders.get', payload: { id: ours.id } })).ok).toBe(true), { timeout: 5_000, interval: 50 });
    expect((await core.invoke({ command: 'orders.get', payload: { id: theirs.id } })).ok).toBe(false);
    const deliveries = await sandbox.listDeliveries({ endpointId: endpoint.id });
    expect(deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered']);
  });
});
