// Requests no honest client sends, at the sandbox's API listener (issue 22, finding 9: any shape
// that gives a 500). A Host header that makes no URL was a 500 "internal error" (the listener
// builds its list links from it): it is the client's mistake, a 400 that names the header.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

function send(path: string, host: string, method = 'GET', body?: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(sandbox.apiHost);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { host, authorization: `Bearer ${sandbox.credentials.apiKeys.full}`, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the API listener, given a Host header that is not a host', () => {
  it.each(['a b', '[', 'x:99999999'])('%j: 400 naming the header, never a 500', async (host) => {
    const reply = await send('/v1/orders', host);
    expect(reply.status, reply.body).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: 'invalid_request', param: 'Host' } });
    const token = await send('/oauth/token', host, 'POST', 'grant_type=client_credentials');
    expect(token.status, token.body).toBe(400);
    expect(JSON.parse(token.body)).toMatchObject({ error: 'invalid_request' });
  });

  it('still answers a list with links on its own host', async () => {
    const { port } = new URL(sandbox.apiHost);
    const reply = await send('/v1/orders?per_page=1', `127.0.0.1:${port}`);
    expect(reply.status).toBe(200);
    expect((JSON.parse(reply.body) as { links: { first: string } }).links.first).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/v1/orders\\?`));
  });
});
