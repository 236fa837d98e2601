// The dashboard listener has no login (issue 22, finding 7): only its own Host and Origin are
// answered, so a page on another site can neither create API keys nor read them, whether by a
// cross-site request or through a rebound host name (DNS rebinding). The consent page too.
// Raw requests over loopback, so Host and Origin can be anything (fetch would not let a test forge them).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index';

let sandbox: Sandbox;
let port: number;
beforeAll(async () => {
  sandbox = await startSandbox();
  port = Number(new URL(sandbox.authUrl).port);
});
afterAll(() => sandbox.close());

interface Reply {
  status: number;
  body: string;
}

function send(options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: { host: `127.0.0.1:${port}`, ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const keyCount = async () => (await sandbox.db.selectFrom('api_keys').select('id').execute()).length;
const createKey = (headers: Record<string, string>) =>
  send({ method: 'POST', path: '/_dashboard/api/keys', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ kind: 'full' }) });

describe('the sandbox dashboard answers only its own host and origin', () => {
  it('refuses a rebound host name: no key read, none created, no page', async () => {
    const rebound = { host: `rebind.attacker.example:${port}` };
    const state = await send({ path: '/_dashboard/api/state', headers: rebound });
    expect(state.status).toBe(403);
    expect(state.body).not.toContain(sandbox.credentials.apiKeys.full);
    expect(JSON.parse(state.body)).toMatchObject({ error: { code: 'permission_denied' } });
    const before = await keyCount();
    expect((await createKey({ ...rebound, origin: `http://rebind.attacker.example:${port}` })).status).toBe(403);
    expect((await send({ path: '/_dashboard', headers: rebound })).status).toBe(403);
    expect((await send({ path: '/_dashboard/api/keys', headers: rebound })).status).toBe(403);
    expect(await keyCount()).toBe(before);
  });

  it('refuses a cross-site request (a form posted or a fetch from another site), with nothing changed', async () => {
    const before = await keyCount();
    const foreign = { origin: 'https://attacker.example' };
    expect((await createKey(foreign)).status).toBe(403);
    const form = await send({
      method: 'POST',
      path: '/_dashboard/forms/create-key',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...foreign },
      body: 'kind=full&mode=live',
    });
    expect(form.status).toBe(403);
    expect((await send({ method: 'PATCH', path: '/_dashboard/api/faults', headers: { 'content-type': 'application/json', origin: 'null' }, body: '{"outage":true}' })).status).toBe(403);
    expect(sandbox.faults.get().outage).toBe(false);
    expect((await send({ path: '/_dashboard/api/state', headers: foreign })).status).toBe(403);
    expect(await keyCount()).toBe(before);
  });

  it("refuses the consent page and its decision from another site; the dashboard's own origin and tools without one are served", async () => {
    const { clientId, redirectUris } = sandbox.credentials.oauthClient;
    const query = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUris[0]!, response_type: 'code', scope: 'read_orders', state: 's' });
    expect((await send({ path: `/oauth/authorize?${query}`, headers: { host: `attacker.example:${port}` } })).status).toBe(403);
    const consent = await send({ path: `/oauth/authorize?${query}` });
    expect(consent.status).toBe(200);
    const token = /name="request" value="([^"]+)"/.exec(consent.body)?.[1];
    expect(token).toBeDefined();
    const forged = await send({
      method: 'POST',
      path: '/oauth/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://attacker.example' },
      body: `request=${token}&decision=approve`,
    });
    expect(forged.status).toBe(403);
    // The merchant's own click, from the page itself, still goes through (the request was not used up).
    const own = await send({
      method: 'POST',
      path: '/oauth/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://127.0.0.1:${port}` },
      body: `request=${token}&decision=approve`,
    });
    expect(own.status).toBe(303);

    const before = await keyCount();
    expect((await createKey({ origin: `http://localhost:${port}`, host: `localhost:${port}` })).status).toBe(201);
    expect((await createKey({})).status).toBe(201);
    expect((await send({ path: '/_dashboard/api/state', headers: { host: `LOCALHOST:${port}` } })).status).toBe(200);
    expect(await keyCount()).toBe(before + 2);
  });

  it('answers a body over the limit with 413, not 500', async () => {
    const reply = await send({ method: 'POST', path: '/_dashboard/api/keys', headers: { 'content-type': 'application/json' }, body: `{"label":"${'x'.repeat(1024 * 1024 + 10)}"}` });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: 'payload_too_large' } });
  });
});
