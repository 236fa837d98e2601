// Browser mode's server over real HTTP on loopback, in front of a real core on a SQLite file.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log';
import { CONTENT_SECURITY_POLICY, newLaunchToken, startBrowserHost, type BrowserHost } from '../../main/host/http-bridge';
import { ITEMS, startTestCore, type TestCore } from '../core/fixtures';

let t: TestCore;
let host: BrowserHost;

beforeAll(async () => {
  t = await startTestCore();
  const rendererDir = mkdtempSync(join(tmpdir(), 'pos-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  host = await startBrowserHost({ host: t.core, rendererDir, logger: silentLogger });
});
afterAll(async () => {
  await host.close();
  await t.core.shutdown();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw requests, so Host and Origin can be anything (fetch would not let a test forge them). */
function send(options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: host.port, method: options.method ?? 'GET', path: options.path, headers: { host: `127.0.0.1:${host.port}`, ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function bridge(body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return send({
    method: 'POST',
    path: '/bridge',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}`, ...headers },
    body: JSON.stringify(body),
  });
}

describe('browser-mode bridge over HTTP', () => {
  it('issues a per-launch token with the pos_launch_ prefix, handed over in the URL fragment', () => {
    expect(host.token).toMatch(/^pos_launch_[A-Za-z0-9_-]{43}$/);
    expect(newLaunchToken()).not.toBe(host.token);
    expect(host.launchUrl).toBe(`http://127.0.0.1:${host.port}/#launch=${host.token}`);
  });

  it('answers a command with the token', async () => {
    const reply = await bridge({ command: 'menu.snapshot', payload: {} });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ ok: true, value: { currency: 'usd' } });
  });

  it('refuses a missing or wrong token with 401 and runs nothing', async () => {
    const missing = await send({ method: 'POST', path: '/bridge', headers: { 'content-type': 'application/json' }, body: '{"command":"orders.place","payload":{}}' });
    expect(missing.status).toBe(401);
    const wrong = await bridge({ command: 'orders.place', payload: { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] } }, { authorization: `Bearer ${host.token}x` });
    expect(wrong.status).toBe(401);
    const events = await send({ path: '/events' });
    expect(events.status).toBe(401);
    expect(t.core.pendingOperations()).toBe(0);
  });

  it('refuses a foreign Host (DNS rebinding) or Origin with 403, token or not', async () => {
    const rebound = await bridge({ command: 'menu.snapshot', payload: {} }, { host: `evil.example:${host.port}` });
    expect(rebound.status).toBe(403);
    const crossOrigin = await bridge({ command: 'menu.snapshot', payload: {} }, { origin: 'http://evil.example' });
    expect(crossOrigin.status).toBe(403);
    const page = await send({ path: '/', headers: { host: 'attacker.test' } });
    expect(page.status).toBe(403);
    const sameOrigin = await bridge({ command: 'menu.snapshot', payload: {} }, { origin: `http://127.0.0.1:${host.port}` });
    expect(sameOrigin.status).toBe(200);
  });

  it('turns an invalid command into invalid_command with issues, and changes nothing', async () => {
    const unknown = JSON.parse((await bridge({ command: 'orders.nuke', payload: {} })).body);
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid_command', issues: [{ path: 'command' }] } });
    const badPayload = JSON.parse((await bridge({ command: 'orders.place', payload: { lines: [{ menuItemId: ITEMS.fries, quantity: 'two' }] } })).body);
    expect(badPayload).toMatchObject({ ok: false, error: { code: 'invalid_command', issues: [{ path: 'lines.0.quantity' }] } });
    const badEnvelope = JSON.parse((await bridge({ cmd: 'orders.place' })).body);
    expect(badEnvelope.error.code).toBe('invalid_command');
    const notJson = await send({ method: 'POST', path: '/bridge', headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` }, body: '{oops' });
    expect(notJson.status).toBe(400);
    const notJsonType = await send({ method: 'POST', path: '/bridge', headers: { 'content-type': 'text/plain', authorization: `Bearer ${host.token}` }, body: '{}' });
    expect(notJsonType.status).toBe(415);
    const tooBig = await bridge({ command: 'orders.place', payload: { notes: 'x'.repeat(1_100_000) } });
    expect(tooBig.status).toBe(413);
    expect(t.core.pendingOperations()).toBe(0);
    expect(JSON.parse((await bridge({ command: 'orders.list', payload: {} })).body).value).toEqual([]);
  });

  it('streams events to an authorised listener', async () => {
    const received = new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: host.port, path: '/events', headers: { host: `127.0.0.1:${host.port}`, authorization: `Bearer ${host.token}` } },
        (res) => {
          expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            if (text.includes('event: orders.changed')) {
              req.destroy();
              resolve(text);
            }
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await bridge({ command: 'orders.place', payload: { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] } });
    expect(await received).toMatch(/event: orders\.changed\ndata: \{"ids":\["ord_/);
  });

  it('serves the bundle with a strict CSP, no token needed, and nothing outside it', async () => {
    const page = await send({ path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)/);
    const asset = await send({ path: '/assets/app.js' });
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect((await send({ path: '/../../etc/passwd' })).status).toBe(404);
    expect((await send({ path: '/%2e%2e/%2e%2e/etc/passwd' })).status).toBe(404);
    expect((await send({ path: '/missing.js' })).status).toBe(404);
    expect((await send({ method: 'DELETE', path: '/' })).status).toBe(405);
    expect((await send({ method: 'GET', path: '/bridge', headers: { authorization: `Bearer ${host.token}` } })).status).toBe(405);
  });
});
