// The API listener ({api_host}): /v1, POST /oauth/token and /openapi.json, behind the injected
// faults. Each /v1 operation runs in one SQLite transaction with its events and its idempotent reply;
// the output profile in force when a request arrives shapes its reply and its events.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Endpoint, OperationId } from '../api/endpoints';
import type { Clock } from '../common/clock';
import { newId } from '../common/ids';
import type { Logger } from '../common/log';
import { authenticate, authorize } from './auth';
import { serialise, type OpContext } from './context';
import { recordEvent } from './events';
import type { FaultController, FaultSettings } from './faults';
import { ApiError, BodyTooLargeError, errorBody, parseOrThrow, queryObject, readRawBody, sendJson, sendText } from './http';
import { checkKeyShape, fingerprint, type IdempotencyStore, type StoredReply } from './idempotency';
import { OPERATIONS } from './operations';
import { profileHeaders, renderError } from './profile-errors';
import { SPEC_MINIMAL_REQUEST_BODIES, type Profile } from './profile-schemas';
import { presentReply, presentRequestBody, type OutputMode } from './profiles';
import type { RateLimiter } from './rate-limit';
import { matchRoute } from './router';
import type { Db } from './storage';
import type { WebhookDispatcher } from './webhook-dispatcher';

export type IdempotencyMode = 'honour' | 'ignore';

/** The switches the API listener reads once per request. */
export interface ApiMode extends OutputMode {
  idempotency: IdempotencyMode;
}

/** The longest a write's reply waits for its events' first delivery attempts (events_before_reply). */
export const EVENTS_BEFORE_REPLY_MAX_WAIT_MS = 2000;

export interface ApiServerDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  faults: FaultController;
  rateLimiter: RateLimiter;
  idempotency: IdempotencyStore;
  dispatcher: WebhookDispatcher;
  /** The switches in force: a snapshot, replaced (never changed) when they change. */
  mode: () => Readonly<ApiMode>;
  openapi: () => unknown;
  oauthToken: (req: IncomingMessage, res: ServerResponse, rawBody: Buffer) => Promise<void>;
}

const noQuery = z.strictObject({});
const JSON_TYPE = /^application\/json\s*(;|$)/i;

function sendError(res: ServerResponse, error: ApiError, requestId: string, mode: Readonly<ApiMode>, nowMs: number): void {
  const rendered = renderError(error, requestId, mode.profile, nowMs);
  if (rendered.contentType === 'text') sendText(res, rendered.status, rendered.payload, rendered.headers);
  else sendJson(res, rendered.status, rendered.payload, rendered.headers);
}

/** The body, validated as the profile reads it (spec-minimal accepts the checkout fields unread). */
function parseBody(endpoint: Endpoint, req: IncomingMessage, raw: Buffer, profile: Profile): unknown {
  if (!endpoint.body) {
    if (raw.length > 0) throw new ApiError('invalid_request', `${endpoint.method} ${endpoint.path} takes no body`, { param: 'body' });
    return undefined;
  }
  if (raw.length === 0) {
    if (endpoint.bodyOptional) return undefined;
    throw new ApiError('invalid_request', 'a JSON body is required', { param: 'body' });
  }
  if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) {
    throw new ApiError('unsupported_media_type', 'send the body as Content-Type: application/json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError('invalid_request', 'the body is not valid JSON', { param: 'body' });
  }
  const schema = (profile === 'spec-minimal' && SPEC_MINIMAL_REQUEST_BODIES[endpoint.operationId as OperationId]) || endpoint.body;
  return parseOrThrow(schema, parsed, 'body');
}

export function createApiHandler(deps: ApiServerDeps) {
  const { db, clock, logger, faults } = deps;

  /** Runs one operation in its transaction; returns its reply and the webhook deliveries it queued. */
  async function runOperation(
    endpoint: Endpoint,
    request: { id: string; query: unknown; body: unknown; url: URL },
    mode: Readonly<ApiMode>,
    idem?: { key: string; print: string },
  ): Promise<{ reply: StoredReply; deliveryIds: string[] }> {
    const operationId = endpoint.operationId as OperationId;
    const deliveryIds: string[] = [];
    const reply = await db.transaction().execute(async (tx) => {
      const ctx: OpContext = {
        tx,
        clock,
        id: request.id,
        query: request.query,
        body: request.body,
        requestUrl: request.url,
        profile: mode.profile,
        quirks: mode.quirks,
        emit: async (type, data, test) => {
          const recorded = await recordEvent(tx, clock, type, data, { profile: mode.profile, test });
          deliveryIds.push(...recorded.deliveryIds);
          return recorded;
        },
      };
      const result = await OPERATIONS[operationId](ctx);
      const stored = { status: result.status, body: serialise(presentReply(operationId, result.body, mode)) };
      if (idem) await deps.idempotency.save(tx, idem.key, idem.print, stored);
      return stored;
    });
    if (deliveryIds.length > 0) deps.dispatcher.kick();
    return { reply, deliveryIds };
  }

  async function handleV1(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    raw: Buffer,
    requestId: string,
    settings: Readonly<FaultSettings>,
    mode: Readonly<ApiMode>,
  ): Promise<void> {
    const path = url.pathname.slice(3);
    const method = req.method ?? 'GET';
    const route = matchRoute(method, path);
    if (route.kind === 'no_route') throw new ApiError('not_found', `no such endpoint: ${method} /v1${path}`);
    if (route.kind === 'wrong_method') throw new ApiError('method_not_allowed', `${method} is not allowed here; use ${route.allowed.join(' or ')}`, {}, { Allow: route.allowed.join(', ') });
    const { endpoint, id } = route;
    const principal = await authenticate(db, req, clock);
    const verdict = deps.rateLimiter.check(principal.credentialId);
    // The spec shows no rate-limit headers: spec-minimal sends none.
    if (mode.profile === 'default') for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
    if (!verdict.allowed) {
      throw new ApiError('rate_limit_exceeded', `too many requests: at most ${deps.rateLimiter.settings.limit} per ${deps.rateLimiter.settings.window_sec} s`, {}, { 'Retry-After': String(verdict.retryAfterSec) });
    }
    authorize(principal, endpoint);
    const query = parseOrThrow(endpoint.query ?? noQuery, queryObject(url), 'query');
    const body = presentRequestBody(parseBody(endpoint, req, raw, mode.profile), mode.profile, endpoint.operationId as OperationId);
    const request = { id, query, body, url };

    const keyHeader = req.headers['idempotency-key'];
    // spec-minimal ignores keys as a server without them would, whatever `idempotency` says.
    const useKey = method === 'POST' && keyHeader !== undefined && mode.idempotency === 'honour' && mode.profile === 'default';
    let outcome: { reply: StoredReply; deliveryIds: string[] };
    if (useKey) {
      const key = Array.isArray(keyHeader) ? '' : keyHeader;
      checkKeyShape(key);
      const print = fingerprint(method, url.pathname, body);
      deps.idempotency.claim(key);
      try {
        const stored = await deps.idempotency.lookup(key, print);
        if (stored) {
          sendJson(res, stored.status, stored.body, { 'Idempotent-Replayed': 'true' });
          return;
        }
        outcome = await runOperation(endpoint, request, mode, { key, print });
      } catch (err) {
        // An operation that ran and refused is a result too (Stripe does the same): store it.
        if (err instanceof ApiError && err.code !== 'idempotency_key_reused') {
          await deps.idempotency.save(db, key, print, { status: err.status, body: JSON.stringify(errorBody(err, requestId)) });
        }
        throw err;
      } finally {
        deps.idempotency.release(key);
      }
    } else {
      outcome = await runOperation(endpoint, request, mode);
    }
    if (mode.events_before_reply && outcome.deliveryIds.length > 0) {
      await deps.dispatcher.firstAttempts(outcome.deliveryIds, EVENTS_BEFORE_REPLY_MAX_WAIT_MS);
    }

    if (endpoint.method !== 'GET' && settings.drop_response_methods.includes(endpoint.method as 'POST') && faults.roll(settings.drop_response_rate)) {
      logger.debug({ requestId }, 'fault: committed, dropping the response');
      req.socket.destroy();
      return;
    }
    sendJson(res, outcome.reply.status, outcome.reply.body);
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = newId('req_', clock.now());
    // One snapshot per request: a switch while it runs does not mix two profiles in one reply.
    const mode = deps.mode();
    // The spec shows no request id: spec-minimal keeps it for its own log only.
    if (mode.profile === 'default') res.setHeader('Request-Id', requestId);
    const path = (req.url ?? '').split('?')[0] ?? '';
    const tokenEndpoint = path === '/oauth/token';
    const startedAt = Date.now();
    // Path only: query strings and bodies stay out of the log.
    res.once('finish', () => logger.debug({ requestId, method: req.method, path, status: res.statusCode, ms: Date.now() - startedAt }, 'api request'));
    try {
      // One snapshot per request: the faults in force when it arrived apply to all of it.
      const settings = faults.current();
      if (settings.latency_ms > 0) await new Promise((r) => setTimeout(r, settings.latency_ms));
      if (faults.roll(settings.reset_rate)) {
        req.socket.destroy();
        return;
      }
      if (faults.roll(settings.rate_limit_rate)) {
        throw new ApiError('rate_limit_exceeded', 'too many requests (injected)', {}, { 'Retry-After': String(settings.retry_after_sec) });
      }
      if (faults.roll(settings.error_rate)) {
        if (settings.error_status === 503) {
          throw new ApiError('service_unavailable', 'temporarily unavailable (injected)', {}, { 'Retry-After': String(settings.retry_after_sec) });
        }
        throw new ApiError('internal_error', 'internal error (injected)');
      }

      let raw: Buffer;
      try {
        raw = await readRawBody(req);
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          res.setHeader('Connection', 'close');
          throw new ApiError('payload_too_large', err.message);
        }
        throw err;
      }
      // The Host names the links a list answers with; one that makes no URL is the client's mistake, not a 500.
      const url = URL.parse(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
      if (url === null) throw new ApiError('invalid_request', 'the Host header is not a valid host name', { param: 'Host' });
      if (url.pathname === '/oauth/token') return await deps.oauthToken(req, res, raw);
      if (url.pathname === '/openapi.json' && req.method === 'GET') return sendJson(res, 200, deps.openapi());
      if (url.pathname.startsWith('/v1/')) return await handleV1(req, res, url, raw, requestId, settings, mode);
      throw new ApiError('not_found', `no such path: ${url.pathname} (the API lives under /v1)`);
    } catch (err) {
      if (res.headersSent || res.destroyed) return;
      // The token endpoint speaks RFC 6749 even when a fault answers for it.
      if (err instanceof ApiError && tokenEndpoint) {
        const error = err.status >= 500 ? 'server_error' : err.status === 429 ? 'temporarily_unavailable' : 'invalid_request';
        return sendJson(res, err.status, { error, error_description: err.message }, profileHeaders(err.headers, mode.profile, clock.now()));
      }
      if (err instanceof ApiError) return sendError(res, err, requestId, mode, clock.now());
      logger.error({ err, requestId }, 'unhandled error in the API');
      sendError(res, new ApiError('internal_error', 'internal error'), requestId, mode, clock.now());
    }
  };
}
