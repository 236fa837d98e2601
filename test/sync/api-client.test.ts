// The API client against a real HTTP server on loopback whose answers each test chooses.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient } from '../../sync/api-client';
import { ApiError } from '../../sync/api-error';
import { ApiKeyCredentials, type CredentialsProvider } from '../../sync/credentials';
import { ReplyBuffers } from '../../sync/reply-buffers';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

async function serve(handler: Handler): Promise<{ baseUrl: string; seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] }> {
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

function client(baseUrl: string, credentials: CredentialsProvider = new ApiKeyCredentials(async () => 'sk_test_abc'), timeoutMs = 2_000): ApiClient {
  const c = new ApiClient({ baseUrl, credentials, timeoutMs });
  closers.push(() => c.close());
  return c;
}

const Thing = z.looseObject({ id: z.string() });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

describe('ApiClient', () => {
  it('sends the bearer, JSON body, idempotency key and query; keeps unknown response fields', async () => {
    const server = await serve((_req, res) => json(res, 201, { id: 'ord_1', extra: { nested: true } }));
    const result = await client(server.baseUrl).call({
      method: 'POST',
      path: '/orders',
      query: { page: 2, skip: undefined },
      body: { location_id: 'loc_1' },
      idempotencyKey: 'op_1',
      schema: Thing,
    });
    expect(result).toEqual({ status: 201, data: { id: 'ord_1', extra: { nested: true } } });
    const [request] = server.seen;
    expect(request?.url).toBe('/v1/orders?page=2');
    expect(request?.headers.authorization).toBe('Bearer sk_test_abc');
    expect(request?.headers['idempotency-key']).toBe('op_1');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ location_id: 'loc_1' });
  });

  it.each([
    [400, { error: { code: 'invalid_request', message: 'items required' } }, 'invalid', false],
    [422, { error: 'invalid_request', message: 'bad' }, 'invalid', false],
    [404, { code: 'not_found' }, 'not_found', false],
    [403, { error: { code: 'permission_denied', missing_permissions: ['orders:write'] } }, 'permission', false],
    [409, { errors: [{ code: 'invalid_state' }] }, 'invalid', false],
    [429, { error: { code: 'rate_limit_exceeded' } }, 'rate_limited', false],
    [500, { error: { code: 'internal_error' } }, 'server', true],
    [502, '<html>bad gateway</html>', 'server', true],
    [503, undefined, 'server', true],
  ] as const)('classifies a %i answer %j as %s (ambiguous for a POST: %s)', async (status, body, kind, ambiguous) => {
    const server = await serve((_req, res) => {
      if (typeof body === 'string') res.writeHead(status, { 'content-type': 'text/html' }).end(body);
      else if (body === undefined) res.writeHead(status).end();
      else json(res, status, body);
    });
    const error = await failure(client(server.baseUrl).call({ method: 'POST', path: '/orders', body: {}, schema: Thing }));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.ambiguous).toBe(ambiguous);
    expect(error.retryable).toBe(kind === 'server' || kind === 'rate_limited');
  });

  it('reads Retry-After as seconds or as an HTTP date', async () => {
    let header = '2';
    const server = await serve((_req, res) => json(res, 429, { error: { code: 'rate_limit_exceeded' } }, { 'retry-after': header }));
    const api = client(server.baseUrl);
    expect((await failure(api.call({ method: 'GET', path: '/orders', schema: Thing }))).retryAfterMs).toBe(2_000);
    header = new Date(Date.now() + 60_000).toUTCString();
    const fromDate = (await failure(api.call({ method: 'GET', path: '/orders', schema: Thing }))).retryAfterMs ?? 0;
    expect(fromDate).toBeGreaterThan(55_000);
    expect(fromDate).toBeLessThanOrEqual(60_000);
  });

  it('treats an unreadable 2xx after a POST as an ambiguous server failure', async () => {
    const server = await serve((_req, res) => json(res, 201, { not: 'an order' }));
    const error = await failure(client(server.baseUrl).call({ method: 'POST', path: '/orders', body: {}, schema: Thing }));
    expect(error.kind).toBe('server');
    expect(error.ambiguous).toBe(true);
  });

  it('times out a slow answer: ambiguous for a POST, not for a GET', async () => {
    const server = await serve(() => undefined); // never answers
    const api = client(server.baseUrl, undefined, 150);
    const post = await failure(api.call({ method: 'POST', path: '/orders', body: {}, schema: Thing }));
    expect([post.kind, post.ambiguous]).toEqual(['timeout', true]);
    const get = await failure(api.call({ method: 'GET', path: '/orders', schema: Thing }));
    expect([get.kind, get.ambiguous]).toEqual(['timeout', false]);
  });

  it('knows a refused connection never carried the request, and a reset after sending may have', async () => {
    const refused = await failure(client('http://127.0.0.1:9/v1').call({ method: 'POST', path: '/orders', body: {}, schema: Thing }));
    expect([refused.kind, refused.ambiguous]).toEqual(['network', false]);
    const server = await serve((req) => req.socket.destroy());
    const reset = await failure(client(server.baseUrl).call({ method: 'POST', path: '/orders', body: {}, schema: Thing }));
    expect([reset.kind, reset.ambiguous]).toEqual(['network', true]);
  });

  it('asks the credentials for a new token once after authentication_failed, then retries', async () => {
    const server = await serve((req, res) => {
      if (req.headers.authorization === 'Bearer at_live_new') json(res, 200, { id: 'loc_1' });
      else json(res, 401, { error: { code: 'authentication_failed' } });
    });
    let token = 'at_live_old';
    let refreshes = 0;
    const credentials: CredentialsProvider = {
      bearer: async () => token,
      handleRejected: async () => {
        refreshes += 1;
        token = 'at_live_new';
        return true;
      },
    };
    const result = await client(server.baseUrl, credentials).call({ method: 'GET', path: '/locations/loc_1', schema: Thing });
    expect(result.data.id).toBe('loc_1');
    expect(refreshes).toBe(1);
    expect(server.seen.map((r) => r.headers.authorization)).toEqual(['Bearer at_live_old', 'Bearer at_live_new']);
  });

  it('reads a 2xx body into a lent buffer and decodes it only when asked, once; the buffer is then lent again', async () => {
    // Larger than a buffer's first size, in several writes, behind a byte order mark.
    const items = Array.from({ length: 2_000 }, (_, i) => ({ id: `ord_${i}`, name: 'é'.repeat(40) }));
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ data: items, extra: 1 }))]);
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let at = 0; at < body.length; at += 30_000) res.write(body.subarray(at, at + 30_000));
      res.end();
    });
    const buffers = new ReplyBuffers();
    const api = client(server.baseUrl);
    const schema = z.looseObject({ data: z.array(Thing) });
    const reply = await api.callDeferred({ method: 'GET', path: '/orders', query: { page: 1 }, schema }, buffers);
    expect(reply.status).toBe(200);
    expect(server.seen[0]?.url).toBe('/v1/orders?page=1');
    expect(reply.decode()).toEqual({ data: items, extra: 1 });
    expect(() => reply.decode()).toThrow(/once/);
    // Decoded, its buffer is free again: the next reply is read into it, not into a new one.
    const freed = buffers.lend();
    buffers.giveBack(freed);
    const again = await api.callDeferred({ method: 'GET', path: '/orders', schema }, buffers);
    expect(buffers.lend()).not.toBe(freed);
    expect(again.decode().data).toHaveLength(2_000);
  });

  it('a deferred reply fails as `call` does: an unreadable 2xx on decode, a cut body or any other answer at once', async () => {
    let answer: [number, unknown] | 'cut' = [200, { data: 'not a list' }];
    const server = await serve((_req, res) => {
      if (answer !== 'cut') return json(res, answer[0], answer[1]);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data": [', () => res.socket?.destroy());
    });
    const api = client(server.baseUrl);
    const schema = z.looseObject({ data: z.array(Thing) });
    const unreadable = await api.callDeferred({ method: 'GET', path: '/orders', schema }, new ReplyBuffers());
    let error: unknown = null;
    try {
      unreadable.decode();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'server', status: 200, ambiguous: false, message: expect.stringMatching(/unreadable GET \/orders response/) });
    answer = [429, { error: { code: 'rate_limit_exceeded' } }];
    const refused = await failure(api.callDeferred({ method: 'GET', path: '/orders', schema }, new ReplyBuffers()));
    expect(refused.kind).toBe('rate_limited');
    answer = 'cut';
    const cut = await failure(api.callDeferred({ method: 'GET', path: '/orders', schema }, new ReplyBuffers()));
    expect(cut).toMatchObject({ kind: 'network', ambiguous: false });
  });

  it('gives up with authentication when the key is rejected and no other exists, or none is set', async () => {
    const server = await serve((_req, res) => json(res, 401, { error: { code: 'authentication_failed' } }));
    const rejected = await failure(client(server.baseUrl).call({ method: 'GET', path: '/orders', schema: Thing }));
    expect(rejected.kind).toBe('authentication');
    expect(server.seen).toHaveLength(1);
    const missing = await failure(client(server.baseUrl, new ApiKeyCredentials(async () => null)).call({ method: 'GET', path: '/orders', schema: Thing }));
    expect(missing.kind).toBe('authentication');
    expect(server.seen).toHaveLength(1);
  });
});
