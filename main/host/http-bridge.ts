// Browser mode's server: the renderer bundle and the bridge over loopback HTTP + SSE.
// - Listens on 127.0.0.1 only.
// - Every bridge request carries the per-launch token (Authorization: Bearer pos_launch_...),
//   compared in constant time. The static bundle holds no secrets and needs no token; the page
//   receives the token once, in the URL fragment printed at launch (never sent to a server).
// - Requests whose Host or Origin is not this loopback origin are refused: a DNS-rebinding page
//   on some other name cannot reach the bridge even though it resolves to 127.0.0.1.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fromLocalOrigin, localOrigins, type LocalOrigins } from '../../common/local-origin';
import type { Logger } from '../../common/log';
import { BridgeRequest, type BridgeEvent, type BridgeHost, type BridgeResponse } from '../../bridge/protocol';
import { HTTP_BRIDGE_PATH, HTTP_EVENTS_PATH, LAUNCH_TOKEN_PREFIX } from '../../bridge/transport';

const MAX_BODY_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 15_000;

/** Strict CSP: the bundle is all same-origin files, nothing inline, no eval. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface BrowserHostOptions {
  host: BridgeHost;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  port?: number;
  logger: Logger;
  /** Fixed token for tests; a fresh random one otherwise. */
  token?: string;
}

export interface BrowserHost {
  /** The address to open: includes the launch token in the fragment. */
  launchUrl: string;
  origin: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

export function newLaunchToken(): string {
  return `${LAUNCH_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Constant time whatever the lengths: compare fixed-size digests. */
function tokenMatches(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(text);
}

function refusal(code: 'invalid_command' | 'unavailable', message: string): BridgeResponse {
  return { ok: false, error: { code, message } };
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = options.token ?? newLaunchToken();
  const { logger } = options;
  const streams = new Set<ServerResponse>();
  // Set once the port is known; nothing is accepted before.
  let allowed: LocalOrigins = { hosts: new Set(), origins: new Set() };

  const rendererRoot = normalize(options.rendererDir + sep);

  function authorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    const presented = header.startsWith('Bearer ') ? header.slice(7) : '';
    return tokenMatches(presented, token);
  }

  function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    let relative: string;
    try {
      relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname.slice(1));
    } catch {
      // A malformed %-escape: thrown here it would escape the request handler and stop the server.
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad path');
      return;
    }
    const file = normalize(join(rendererRoot, relative));
    if (!file.startsWith(rendererRoot)) {
      res.writeHead(404).end();
      return;
    }
    let size: number;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) throw new Error('not a file');
      size = stat.size;
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const isHtml = extname(file) === '.html';
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': size,
      // Hashed asset names never change; the HTML must be revalidated to pick up a new bundle.
      'cache-control': isHtml ? 'no-cache' : 'public, max-age=31536000, immutable',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  }

  async function handleBridge(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      sendJson(res, 415, refusal('invalid_command', 'The request must be JSON. Nothing was changed.'));
      return;
    }
    const text = await readBody(req);
    if (text === null) {
      sendJson(res, 413, refusal('invalid_command', 'The request is too large. Nothing was changed.'));
      return;
    }
    let request: unknown;
    try {
      request = JSON.parse(text);
    } catch {
      sendJson(res, 400, refusal('invalid_command', 'The request is not valid JSON. Nothing was changed.'));
      return;
    }
    // The envelope is checked here, as the Electron shell does (main/electron/bridge-invoke.ts): the
    // core reads `command` before anything else, and `null` or an array is no request at all.
    const envelope = BridgeRequest.safeParse(request);
    if (!envelope.success) {
      sendJson(res, 400, {
        ok: false,
        error: {
          code: 'invalid_command',
          message: 'The screen sent a request the terminal does not understand. Nothing was changed.',
          issues: envelope.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(request)', message: issue.message })),
        },
      } satisfies BridgeResponse);
      return;
    }
    // The core validates the command and its payload.
    const response = await options.host.invoke(envelope.data);
    sendJson(res, 200, response);
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': connected\n\n');
    streams.add(res);
    req.on('close', () => streams.delete(res));
  }

  const unsubscribe = options.host.subscribe((event: BridgeEvent) => {
    const frame = `event: ${event.event}\ndata: ${JSON.stringify(event.payload)}\n\n`;
    for (const stream of streams) stream.write(frame);
  });
  const heartbeat = setInterval(() => {
    for (const stream of streams) stream.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    if (!fromLocalOrigin(req.headers, allowed)) {
      logger.warn({ host: req.headers.host, origin: req.headers.origin, path: url.pathname }, 'refused request from a foreign origin');
      sendJson(res, 403, refusal('invalid_command', 'This address is not the terminal. Open the link printed at launch.'));
      return;
    }
    const isBridge = url.pathname === HTTP_BRIDGE_PATH;
    const isEvents = url.pathname === HTTP_EVENTS_PATH;
    if (isBridge || isEvents) {
      if (!authorized(req)) {
        sendJson(res, 401, refusal('invalid_command', 'This page lost its launch key. Open the link printed when the terminal started.'));
        return;
      }
      if (isBridge && req.method === 'POST') {
        handleBridge(req, res).catch((error: unknown) => {
          logger.error({ err: error }, 'bridge request failed');
          if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'internal', message: 'Something went wrong. Try again.' } });
        });
        return;
      }
      if (isEvents && req.method === 'GET') {
        handleEvents(req, res);
        return;
      }
      res.writeHead(405, { allow: isBridge ? 'POST' : 'GET' }).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    serveStatic(req, res, url.pathname);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  allowed = localOrigins(port);
  const origin = `http://127.0.0.1:${port}`;

  return {
    launchUrl: `${origin}/#launch=${token}`,
    origin,
    token,
    port,
    async close() {
      unsubscribe();
      clearInterval(heartbeat);
      for (const stream of streams) stream.end();
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
