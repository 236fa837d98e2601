// The /v1 HTTP client: one keep-alive undici Agent for every call, a timeout on every request,
// responses validated by zod (liberal: schemas keep unknown fields), and every failure turned
// into an ApiError whose kind tells the caller what to do next.
import { finished, type Readable } from 'node:stream';
import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Clock } from '../common/clock';
import { systemClock } from '../common/clock';
import type { Logger } from '../common/log';
import { silentLogger } from '../common/log';
import { ApiError, classifyHttpError, extractErrorCode } from './api-error';
import { parseRetryAfter } from './backoff';
import type { CredentialsProvider } from './credentials';
import type { ReplyBuffer, ReplyBuffers } from './reply-buffers';

export interface ApiClientOptions {
  /** {base_url}: ends with /v1. */
  baseUrl: string;
  credentials: CredentialsProvider;
  /** Whole-request timeout (connect, headers and body). */
  timeoutMs?: number;
  /** Connections kept open to the API host. */
  connections?: number;
  clock?: Clock;
  logger?: Logger;
}

export interface ApiCall<T> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path under {base_url}, e.g. "/orders"; may already carry a query string. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** The operation's stable id: servers that honour it deduplicate retries for us. */
  idempotencyKey?: string;
  schema: z.ZodType<T>;
  timeoutMs?: number;
}

export interface ApiResult<T> {
  status: number;
  data: T;
}

/**
 * A 2xx reply read into a buffer of a ReplyBuffers and not decoded yet (`callDeferred`): a page a
 * pull fetched ahead waits as bytes, not as objects (sync/reply-buffers.ts says why).
 */
export class DeferredReply<T> {
  #buffer: ReplyBuffer | null;

  constructor(
    readonly status: number,
    buffer: ReplyBuffer,
    private readonly buffers: ReplyBuffers,
    private readonly validate: (json: unknown) => T,
  ) {
    this.#buffer = buffer;
  }

  /** Parses and validates the body (an unreadable one throws the ApiError `call` would) and gives its buffer back. Once. */
  decode(): T {
    const buffer = this.#buffer;
    if (buffer === null) throw new Error('a deferred reply is decoded once');
    this.#buffer = null;
    const text = buffer.takeText();
    this.buffers.giveBack(buffer);
    return this.validate(parseJson(text));
  }
}

/** Marks a call `callDeferred` makes through `call` (so subclasses that watch `call` see it too): where its 2xx body goes. */
const READ_INTO = Symbol('read into');
type DeferredCall<T> = ApiCall<T> & { [READ_INTO]?: ReplyBuffers };

const UNDICI_TRANSPORT_CODES_BEFORE_SEND = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export class ApiClient {
  readonly baseUrl: string;
  readonly #agent: Agent;
  readonly #credentials: CredentialsProvider;
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#credentials = options.credentials;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? silentLogger;
    this.#agent = new Agent({
      connections: options.connections ?? 16,
      keepAliveTimeout: 30_000,
      // Our own per-call timeout is the authority; these only stop undici from waiting longer.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  /** Sends one request; on authentication_failed asks the credentials for a new one and retries once. */
  async call<T>(call: ApiCall<T>): Promise<ApiResult<T>> {
    const first = await this.#credentials.bearer();
    if (first === null) throw new ApiError('authentication', 'no credentials configured', { ambiguous: false });
    try {
      return await this.#send(call, first);
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'authentication') throw error;
      if (!(await this.#credentials.handleRejected(first))) throw error;
      const second = await this.#credentials.bearer();
      if (second === null || second === first) throw error;
      return this.#send(call, second);
    }
  }

  /**
   * As `call`, but a 2xx body is read into a buffer of `buffers` and decoded only by the reply's
   * `decode()`. Other answers fail as `call` fails.
   */
  async callDeferred<T>(call: ApiCall<T>, buffers: ReplyBuffers): Promise<DeferredReply<T>> {
    const deferred: DeferredCall<T> = { ...call, [READ_INTO]: buffers };
    const { data } = await this.call(deferred);
    return data as unknown as DeferredReply<T>;
  }

  /** Closes the connections once the requests in flight have finished. */
  async close(): Promise<void> {
    await this.#agent.close();
  }

  /** Aborts the requests in flight and closes the connections now. */
  async destroy(): Promise<void> {
    await this.#agent.destroy();
  }

  /** The dispatcher, shared with other callers (the OAuth token exchange) to reuse connections. */
  get dispatcher(): Dispatcher {
    return this.#agent;
  }

  async #send<T>(call: DeferredCall<T>, bearer: string): Promise<ApiResult<T>> {
    const url = this.#url(call);
    const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, accept: 'application/json' };
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    const timeoutMs = call.timeoutMs ?? this.#timeoutMs;
    const hasSideEffects = call.method !== 'GET';

    let response: Dispatcher.ResponseData;
    let text: string;
    const readInto = call[READ_INTO];
    try {
      response = await request(url, {
        method: call.method,
        headers,
        body,
        dispatcher: this.#agent,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const status = response.statusCode;
      if (readInto !== undefined && status >= 200 && status < 300) {
        const buffer = readInto.lend();
        try {
          await readBody(response.body, buffer);
        } catch (error) {
          readInto.giveBack(buffer);
          throw error;
        }
        const reply = new DeferredReply(status, buffer, readInto, (json) => this.#validated(call, status, json));
        return { status, data: reply as unknown as T };
      }
      text = await response.body.text();
    } catch (error) {
      throw transportError(error, call.method, url, hasSideEffects);
    }

    const status = response.statusCode;
    const json = parseJson(text);
    if (status >= 200 && status < 300) return { status, data: this.#validated(call, status, json) };

    const { code, message } = extractErrorCode(json);
    const kind = classifyHttpError(status, code);
    throw new ApiError(kind, `${call.method} ${call.path} → ${status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`, {
      status,
      code,
      retryAfterMs: parseRetryAfter(response.headers['retry-after'], this.#clock.now()),
      // A 5xx may come after the server committed; 4xx answers mean it refused the call.
      ambiguous: hasSideEffects && (kind === 'server' || kind === 'timeout'),
    });
  }

  /** A 2xx body as the call's schema reads it; an unreadable one is a server failure. */
  #validated<T>(call: ApiCall<T>, status: number, json: unknown): T {
    const parsed = call.schema.safeParse(json);
    if (parsed.success) return parsed.data;
    this.#logger.warn({ method: call.method, path: call.path, status, issues: parsed.error.issues.slice(0, 3) }, 'unreadable API response');
    // The server did process the call; we just cannot read what it said.
    throw new ApiError('server', `unreadable ${call.method} ${call.path} response: ${parsed.error.issues[0]?.message ?? 'invalid'}`, {
      status,
      ambiguous: call.method !== 'GET',
    });
  }

  #url(call: ApiCall<unknown>): string {
    const url = new URL(this.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }
}

function transportError(error: unknown, method: string, url: string, hasSideEffects: boolean): ApiError {
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  const path = new URL(url).pathname;
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || error instanceof undiciErrors.RequestAbortedError) {
    return new ApiError('timeout', `${method} ${path} timed out`, { ambiguous: hasSideEffects });
  }
  const code = err.code ?? err.cause?.code ?? 'unknown';
  // A refused or unresolved connection never carried our request: safe to resend as is.
  const neverSent = UNDICI_TRANSPORT_CODES_BEFORE_SEND.has(code);
  return new ApiError('network', `${method} ${path} failed: ${code}`, { ambiguous: hasSideEffects && !neverSent, transportCode: code });
}

/**
 * Copies a body into `into` as it arrives; the listeners are gone once it ends, so the response
 * stream (kept by promises older than the reply) holds nothing of it.
 */
function readBody(body: Readable, into: ReplyBuffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => into.append(chunk);
    body.on('data', onData);
    const stopWatching = finished(body, (error) => {
      body.off('data', onData);
      stopWatching();
      if (error) reject(error);
      else resolve();
    });
  });
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
