// The webhook endpoint. It checks everything before touching state (method, size, signature over
// the raw bytes, JSON, event shape), records the event durably in the inbox together with its
// effect in one transaction, and only then answers 2xx: a crash before the answer means the
// service redelivers, a duplicate delivery finds the event id already there and changes nothing.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { SIGNATURE_HEADER, verifySignature, type SignatureFailure } from '../api/signature';
import type { Clock } from '../common/clock';
import { systemClock } from '../common/clock';
import type { Logger } from '../common/log';
import { silentLogger } from '../common/log';

/** What the receiver reads from a delivery: liberal (unknown fields and event kinds kept). */
export const ReceivedEvent = z.looseObject({
  /** The spec's ids start with evt_; any id identifies duplicates, so any is taken. */
  id: z.string().min(1).max(255),
  type: z.string().min(1),
  created_at: z.string().optional(),
  test: z.boolean().optional(),
  data: z.looseObject({
    id: z.string().min(1),
    type: z.string().min(1),
    attributes: z.record(z.string(), z.unknown()).default({}),
  }),
});
export type ReceivedEvent = z.infer<typeof ReceivedEvent>;

/** 'kept': recorded, not applied yet (it waits for its resource to be read). `error`: not recorded. */
export type SinkOutcome = 'applied' | 'duplicate' | 'kept' | { error: unknown };

/**
 * Where verified events go. Deliveries that arrive together are handed over together so they
 * share one commit (one fsync); each is recorded and applied on its own savepoint, so one bad
 * event fails alone. 'duplicate' when the id was seen before.
 */
export interface WebhookEventSink {
  acceptMany(events: readonly ReceivedEvent[]): SinkOutcome[];
}

export interface WebhookReceiverOptions {
  /** Loopback by default: IT exposes it through a reverse proxy or tunnel (docs/sync.md). */
  host?: string;
  port?: number;
  /** URL path the deliveries are posted to. */
  path?: string;
  /** Current signing secrets (several during a rotation); read on every delivery. */
  secrets: () => readonly string[];
  sink: WebhookEventSink;
  toleranceSec?: number;
  maxBodyBytes?: number;
  clock?: Clock;
  logger?: Logger;
}

export interface WebhookReceiver {
  /** The address deliveries should be posted to. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * How deep an event may nest. /v1 events are a handful of levels deep (event, data, attributes,
 * items, modifiers); the store keeps the event as JSON, which SQLite refuses past 1,000 levels. A
 * deeper one is refused as not an event (400) before it is recorded: a "could not record" 500
 * would ask the sender to resend it forever.
 */
export const MAX_EVENT_DEPTH = 64;

/** True when `value` nests arrays and objects deeper than `limit` levels; walked without recursion. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

const FAILURE_STATUS: Record<SignatureFailure, number> = {
  missing: 400,
  malformed: 400,
  no_v1: 400,
  mismatch: 401,
  stale: 401,
  future: 401,
};

export async function startWebhookReceiverServer(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/webhooks';
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;

  const answer = (res: ServerResponse, status: number, body: Record<string, unknown>) => {
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': 'application/json', connection: status >= 400 ? 'close' : 'keep-alive' });
    res.end(JSON.stringify(body));
  };

  // Verified deliveries wait here for the next commit; each is answered only after it.
  let queue: { event: ReceivedEvent; res: ServerResponse }[] = [];
  const flush = () => {
    const batch = queue;
    queue = [];
    let outcomes: SinkOutcome[];
    try {
      outcomes = options.sink.acceptMany(batch.map((item) => item.event));
    } catch (error) {
      outcomes = batch.map(() => ({ error }));
    }
    batch.forEach(({ event, res }, i) => {
      const outcome = outcomes[i] ?? { error: new Error('no outcome') };
      if (typeof outcome === 'object') {
        // Not recorded (the disk refused): the only case where a 5xx asks for the event again.
        logger.error({ err: outcome.error, eventId: event.id }, 'webhook event could not be recorded');
        answer(res, 500, { error: { code: 'internal_error', message: 'event not recorded; please retry' } });
      } else {
        answer(res, 200, { received: true, duplicate: outcome === 'duplicate', applied: outcome !== 'kept' });
      }
    });
  };

  const handle = (req: IncomingMessage, res: ServerResponse, rawBody: Buffer) => {
    const check = verifySignature({
      header: req.headers[SIGNATURE_HEADER.toLowerCase()],
      rawBody,
      secrets: options.secrets(),
      nowSec: Math.floor(clock.now() / 1000),
      toleranceSec: options.toleranceSec,
    });
    if (!check.ok) {
      logger.warn({ reason: check.reason }, 'webhook rejected: signature');
      answer(res, FAILURE_STATUS[check.reason], { error: { code: 'invalid_signature', reason: check.reason } });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString('utf8'));
    } catch {
      answer(res, 400, { error: { code: 'invalid_json', message: 'body is not JSON' } });
      return;
    }
    if (nestedDeeperThan(json, MAX_EVENT_DEPTH)) {
      logger.warn({ limit: MAX_EVENT_DEPTH }, 'webhook rejected: nested too deep');
      answer(res, 400, { error: { code: 'invalid_event', message: `nested deeper than ${MAX_EVENT_DEPTH} levels: not an event` } });
      return;
    }
    const parsed = ReceivedEvent.safeParse(json);
    if (!parsed.success) {
      answer(res, 400, { error: { code: 'invalid_event', message: parsed.error.issues[0]?.message ?? 'not an event' } });
      return;
    }
    queue.push({ event: parsed.data, res });
    if (queue.length === 1) setImmediate(flush);
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (url.pathname !== path) {
      answer(res, 404, { error: { code: 'not_found' } });
      req.resume();
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      answer(res, 405, { error: { code: 'method_not_allowed' } });
      req.resume();
      return;
    }
    const type = req.headers['content-type'];
    if (type !== undefined && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
      answer(res, 415, { error: { code: 'unsupported_media_type' } });
      req.resume();
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBodyBytes) {
      answer(res, 413, { error: { code: 'payload_too_large', limit: maxBodyBytes } });
      req.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        answer(res, 413, { error: { code: 'payload_too_large', limit: maxBodyBytes } });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (size <= maxBodyBytes) handle(req, res, Buffer.concat(chunks, size));
    });
    req.on('error', () => undefined);
  });
  // Deliveries must be answered within 30 s; a stuck client must not hold a socket forever.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  logger.info({ host, port, path }, 'webhook receiver listening');
  return {
    url: `http://${shownHost}:${port}${path}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
