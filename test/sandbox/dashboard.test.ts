import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import type { Sandbox } from '../../sandbox/index';
import { call, dashboard, withSandbox } from './helpers';
import { startReceiver, type Receiver } from './receiver';

let sb: Sandbox;
let clock: ManualClock;
let receiver: Receiver;
beforeAll(async () => {
  clock = new ManualClock(Date.parse('2026-11-21T09:00:00Z'));
  sb = await withSandbox({ clock, seed: 'none' });
  receiver = await startReceiver(() => ({ status: 500 }));
});
afterAll(async () => {
  await sb.close();
  await receiver.close();
});

/** Posts a dashboard form as the page does; the reply is a redirect back to the page. */
async function submit(action: string, fields: [string, string][]): Promise<Response> {
  return fetch(`${sb.authUrl}/_dashboard/forms/${action}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

describe('the HTML dashboard', () => {
  it('shows keys, endpoints, deliveries and faults, and its forms drive every control', async () => {
    const page = await fetch(sb.dashboardUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain(sb.credentials.apiKeys.full);
    expect(html).toContain('<form method="post" action="/_dashboard/forms/create-key">');

    expect((await submit('create-key', [['kind', 'custom'], ['mode', 'live'], ['permissions', 'orders:read'], ['permissions', 'menu:read']])).status).toBe(303);
    const custom = (await dashboard(sb, 'GET', '/keys')).body.data.at(-1);
    expect(custom).toMatchObject({ kind: 'custom', mode: 'live', permissions: ['orders:read', 'menu:read'] });
    await submit('regenerate-key', [['id', custom.id]]);
    expect((await dashboard(sb, 'GET', '/keys')).body.data.at(-1).secret).not.toBe(custom.secret);

    await submit('create-webhook', [['url', receiver.url], ['event_types', 'menu.item_updated']]);
    const endpoint = (await dashboard(sb, 'GET', '/webhook-endpoints')).body.data[0];
    expect(endpoint.event_types).toEqual(['menu.item_updated']);

    await submit('seed', []);
    expect((await dashboard(sb, 'GET', '/state')).body.credentials.locationIds).toHaveLength(3);
    expect(sb.credentials.locationIds).toHaveLength(3);

    await call(sb, 'POST', '/webhooks/test', { key: sb.credentials.apiKeys.full, body: { endpoint_id: endpoint.id, event_type: 'menu.item_updated' } });
    await sb.webhooksIdle();
    for (const minutes of ['1', '5', '30']) {
      await submit('advance-clock', [['minutes', minutes]]);
      await sb.webhooksIdle();
    }
    const [failed] = (await dashboard(sb, 'GET', '/deliveries?status=failed')).body.data;
    expect(failed.attempts).toBe(4);
    expect(await (await fetch(sb.dashboardUrl)).text()).toContain('<button>Retry</button>');
    receiver.behaviour = () => ({ status: 200 });
    await submit('retry-delivery', [['id', failed.id]]);
    await sb.webhooksIdle();
    expect((await dashboard(sb, 'GET', '/deliveries?status=delivered')).body.data).toHaveLength(1);

    await submit('faults', [['latency_ms', '0'], ['error_rate', '1'], ['rate_limit_rate', '0'], ['reset_rate', '0'], ['drop_response_rate', '0']]);
    expect((await call(sb, 'GET', '/locations', { key: sb.credentials.apiKeys.full })).status).toBe(500);
    await submit('faults', [['latency_ms', '0'], ['error_rate', '0'], ['rate_limit_rate', '0'], ['reset_rate', '0'], ['drop_response_rate', '0'], ['outage', 'on']]);
    expect(sb.faults.get().outage).toBe(true);
    await sb.faults.reset();
  });

  it('refuses bad form input with a 400 page and unknown forms with 404', async () => {
    const bad = await submit('create-webhook', [['url', 'not a url']]);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Invalid form');
    expect((await submit('explode', [])).status).toBe(404);
    expect((await submit('faults', [['error_rate', '7']])).status).toBe(400);
  });

  it('answers the JSON controls’ errors in the /v1 error shape', async () => {
    const unknown = await dashboard(sb, 'GET', '/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const badJson = await fetch(`${sb.dashboardApiUrl}/keys`, { method: 'POST', body: '{' });
    expect(badJson.status).toBe(400);
    expect((await dashboard(sb, 'POST', '/clock/advance', { ms: -1 })).status).toBe(400);
    const moved = await dashboard(sb, 'POST', '/clock/advance', { ms: 1000 });
    expect(moved.body.now_ms).toBe(clock.now());
    expect((await dashboard(sb, 'GET', '/clock')).body.now).toBe(new Date(clock.now()).toISOString());
    expect((await dashboard(sb, 'POST', '/seed', { dataset: 'huge' })).status).toBe(400);
    expect((await dashboard(sb, 'GET', '/deliveries?status=lost')).status).toBe(400);
    expect((await dashboard(sb, 'POST', '/oauth/apps', { name: 'x', redirect_uris: [] })).status).toBe(400);
    expect((await fetch(`${sb.authUrl}/elsewhere`)).status).toBe(404);
  });

  it('refuses to advance a clock that cannot move', async () => {
    const fixed = await withSandbox({ seed: 'none', clock: { now: () => Date.now() } });
    try {
      const reply = await dashboard(fixed, 'POST', '/clock/advance', { ms: 1000 });
      expect(reply.status).toBe(409);
      expect(reply.body.error.message).toContain('cannot be advanced');
    } finally {
      await fixed.close();
    }
  });
});
