// Bodies no honest client sends, at the terminal's two HTTP doors (issue 22, finding 9): the
// browser-mode bridge and the webhook receiver. Each is refused with a 4xx (or a bridge refusal
// in words), never a 500: a 500 says "the terminal broke, try again" and a webhook sender would
// resend it forever. A real core on a SQLite file behind real HTTP on loopback.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../api/signature';
import { createLogger, type Logger } from '../../common/log';
import { startBrowserHost, type BrowserHost } from '../../main/host/http-bridge';
import { signIn, startTestCore, type TestCore } from '../core/fixtures';

let t: TestCore;
let host: BrowserHost;
let webhookUrl: URL;
const errors: unknown[] = [];
const SECRET = 'whsec_hostile_bodies';

/** Keeps what was logged as an error: a TypeError in the log is a bug even when the answer is right. */
const recordingLogger = (): Logger => createLogger({ level: 'error', destination: { write: (line: string) => void errors.push(line) } });

beforeAll(async () => {
  t = await startTestCore();
  const rendererDir = mkdtempSync(join(tmpdir(), 'pos-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  host = await startBrowserHost({ host: t.core, rendererDir, logger: recordingLogger() });
  await signIn(t.core, 'owner');
  const saved = await t.call('settings.update', { webhook: { enabled: true, host: '127.0.0.1', port: 0 }, webhookSigningSecret: SECRET });
  webhookUrl = new URL(saved.webhook.url!);
});
beforeEach(() => {
  errors.length = 0;
});
afterAll(async () => {
  await host.close();
  await t.core.shutdown();
});

interface Reply {
  status: number;
  body: string;
}

function post(url: URL, body: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: 'POST', path: url.pathname, headers: { host: url.host, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const bridge = (body: string) =>
  post(new URL(`http://127.0.0.1:${host.port}/bridge`), body, { 'content-type': 'application/json', authorization: `Bearer ${host.token}` });

const nested = (depth: number, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('the bridge over HTTP, given bodies that are not a request', () => {
  const bodies: [string, string][] = [
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"orders.place"'],
    ['true', 'true'],
    ['an array', '[{"command":"menu.snapshot","payload":{}}]'],
    ['an empty body', ''],
    ['a null command', '{"command":null,"payload":{}}'],
    ['a null payload', '{"command":"orders.place","payload":null}'],
    ['a payload that is a string', '{"command":"orders.place","payload":"lines"}'],
    ['a command inherited from Object', '{"command":"constructor","payload":{}}'],
    ['a __proto__ command', '{"command":"__proto__","payload":{}}'],
    ['a __proto__ payload', '{"command":"orders.place","payload":{"__proto__":{"lines":[]}}}'],
    ['an array nested 5,000 deep', `{"command":"orders.place","payload":${nested(5000)}}`],
    ['an object nested 5,000 deep', `{"command":"orders.place","payload":{"lines":[${nestedObject(5000)}]}}`],
    ['a request id nested deep', `{"command":"orders.place","payload":{},"requestId":${nested(3000)}}`],
    ['a number past any limit', '{"command":"orders.place","payload":{"lines":[{"menuItemId":"mi_fries","quantity":1e400}]}}'],
  ];

  it.each(bodies)('%s: refused in words, 4xx or a refusal, nothing logged as a failure, nothing queued', async (_name, body) => {
    const reply = await bridge(body);
    expect(reply.status, reply.body).not.toBe(500);
    expect(reply.status).toBeLessThan(500);
    const answer = JSON.parse(reply.body) as { ok: boolean; error?: { code: string; message: string } };
    expect(answer.ok).toBe(false);
    expect(answer.error?.code).toBe('invalid_command');
    expect(answer.error?.message).toMatch(/Nothing was changed/);
    expect(errors).toEqual([]);
    expect(t.core.pendingOperations()).toBe(0);
  });
});

describe('the page server, given paths that are not a file', () => {
  it('answers a malformed %-escape with 400 and keeps serving', async () => {
    for (const path of ['/%E0%A4%A', '/%', '/assets/%zz.js']) {
      const reply = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: host.port, path, headers: { host: `127.0.0.1:${host.port}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(reply, path).toBe(400);
    }
    const page = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: host.port, path: '/', headers: { host: `127.0.0.1:${host.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(page).toBe(200);
  });
});

describe('the webhook receiver, given signed bodies that are not an event', () => {
  const signed = (body: string) =>
    post(webhookUrl, body, { 'content-type': 'application/json', 'service-signature': signatureHeader(SECRET, body, Math.floor(Date.now() / 1000)) });
  const event = (attributes: string) =>
    `{"id":"evt_hostile_${Math.random().toString(36).slice(2)}","type":"order.updated","created_at":"2026-01-01T00:00:00Z","data":{"id":"ord_x","type":"order","attributes":${attributes}}}`;

  const bodies: [string, string][] = [
    ['attributes nested 5,000 deep', event(`{"items":${nested(5000)}}`)],
    ['attributes of objects nested 5,000 deep', event(`{"customer":${nestedObject(5000)}}`)],
    ['an event nested 5,000 deep', nested(5000, event('{}'))],
    ['null', 'null'],
    ['an array', `[${event('{}')}]`],
  ];

  it.each(bodies)('%s: 400, never a 500 that asks to be sent again', async (_name, body) => {
    const reply = await signed(body);
    expect(reply.status, reply.body).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: expect.stringMatching(/^invalid_/) } });
  });

  it('still records a plain event after them', async () => {
    const reply = await signed(event('{"status":"open"}'));
    expect(reply.status).toBe(200);
  });
});
