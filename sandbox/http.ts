// Small node:http helpers: raw body reading with a size cap, JSON replies, the /v1 error type.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '../api/errors';

export const MAX_BODY_BYTES = 1024 * 1024;

/** A /v1 failure with its code; the server turns it into the documented error body. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Omit<ErrorBody['error'], 'code' | 'message' | 'request_id'> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return { error: { code: error.code, message: error.message, ...error.extra, request_id: requestId } };
}

/** Turns zod issues into an invalid_request naming every offending parameter. */
export function validationError(issues: readonly z.core.$ZodIssue[], where: 'body' | 'query'): ApiError {
  const details = issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ param: [...issue.path, key].join('.'), message: `unknown ${where === 'query' ? 'query parameter' : 'field'}` }));
    }
    const param = issue.path.map(String).join('.') || (where === 'body' ? 'body' : 'query');
    return [{ param, message: issue.message }];
  });
  const first = details[0] ?? { param: where, message: 'invalid' };
  const summary = details.map((d) => `${d.param}: ${d.message}`).join('; ');
  return new ApiError('invalid_request', summary, { param: first.param, details });
}

/** Parses `input` with `schema` or throws an invalid_request naming the parameters. */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, where: 'body' | 'query'): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error.issues, where);
  return result.data;
}

export class BodyTooLargeError extends Error {}

/** Reads the raw body; rejects once it passes `limit` bytes (the reply is sent by the caller). */
export function readRawBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new BodyTooLargeError(`body over ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (!failed) {
        failed = true;
        reject(err);
      }
    });
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(html);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The query as a plain object; a parameter given twice is an invalid_request. */
export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (Object.hasOwn(out, key)) throw new ApiError('invalid_request', `${key}: given more than once`, { param: key });
    out[key] = value;
  }
  return out;
}
