// One classification of every way a /v1 call can fail, so push, pull and credentials decide the
// same way: retry later, refresh credentials, park the operation, or treat "not found" per call.

export type ApiErrorKind =
  | 'network' // never got an HTTP answer (refused, reset, DNS...)
  | 'timeout' // no complete answer within the request timeout
  | 'server' // 5xx, internal_error, or a 2xx whose body we could not read
  | 'rate_limited' // rate_limit_exceeded / 429
  | 'authentication' // authentication_failed / 401
  | 'permission' // 403: a restricted key or a token without the scope
  | 'invalid' // invalid_request and other 4xx: the request itself is wrong
  | 'not_found'; // not_found / 404

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly details: {
      status?: number | null;
      code?: string | null;
      /** Server's Retry-After, in ms from when the answer arrived. */
      retryAfterMs?: number | null;
      /**
       * True when the request may have been processed although we got no usable answer: the
       * bytes left this machine and the connection died, timed out or a 5xx came back.
       */
      ambiguous?: boolean;
      /** For 'network': the system's code (ENOTFOUND, ECONNREFUSED, ...), which tells a wrong address from an outage. */
      transportCode?: string;
    } = {},
  ) {
    super(message);
  }

  get status(): number | null {
    return this.details.status ?? null;
  }
  get code(): string | null {
    return this.details.code ?? null;
  }
  get retryAfterMs(): number | null {
    return this.details.retryAfterMs ?? null;
  }
  get ambiguous(): boolean {
    return this.details.ambiguous ?? false;
  }
  get transportCode(): string | null {
    return this.details.transportCode ?? null;
  }
  get retryable(): boolean {
    return isRetryableKind(this.kind);
  }
}

export function isRetryableKind(kind: ApiErrorKind): boolean {
  return kind === 'network' || kind === 'timeout' || kind === 'server' || kind === 'rate_limited';
}

const CODE_KINDS: Record<string, ApiErrorKind> = {
  invalid_request: 'invalid',
  authentication_failed: 'authentication',
  not_found: 'not_found',
  rate_limit_exceeded: 'rate_limited',
  internal_error: 'server',
  // Spec-gap additions (docs/spec-gaps.md): retryable as is.
  service_unavailable: 'server',
  idempotency_key_in_use: 'server',
  permission_denied: 'permission',
};

/**
 * Reads an error code out of any reasonable error body: {error:{code}}, {error:"code"}, {code},
 * {errors:[{code, detail|title}]} (JSON:API). A text body or none has no code: the status decides.
 */
export function extractErrorCode(body: unknown): { code: string | null; message: string | null } {
  if (body === null || typeof body !== 'object') return { code: null, message: null };
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (error !== null && typeof error === 'object') {
    const inner = error as Record<string, unknown>;
    const code = stringOrNull(inner.code) ?? stringOrNull(inner.type);
    return { code, message: stringOrNull(inner.message) ?? stringOrNull(inner.detail) ?? stringOrNull(inner.title) ?? stringOrNull(record.message) };
  }
  if (typeof error === 'string') {
    return { code: error, message: stringOrNull(record.message) ?? stringOrNull(record.error_description) };
  }
  if (Array.isArray(record.errors) && record.errors.length > 0) {
    return extractErrorCode({ error: record.errors[0] });
  }
  return { code: stringOrNull(record.code) ?? stringOrNull(record.type), message: stringOrNull(record.message) ?? stringOrNull(record.detail) };
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The kind of an HTTP error answer: a known code wins; otherwise the status decides (400, 409,
 * 422 and other 4xx: the server refused the request as it is).
 */
export function classifyHttpError(status: number, code: string | null): ApiErrorKind {
  if (status === 403) return 'permission';
  if (code !== null && code in CODE_KINDS) return CODE_KINDS[code] as ApiErrorKind;
  if (code !== null && /permission|forbidden|scope/i.test(code)) return 'permission';
  if (status === 401) return 'authentication';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  return 'invalid';
}
