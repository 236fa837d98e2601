// Error codes of /v1 and the HTTP status each one is answered with. The spec lists five codes;
// the rest are our additions (docs/spec-gaps.md says why each exists). One code, one status.
import { z } from 'zod';

export const errorCodeSchema = z.enum([
  'invalid_request',
  'authentication_failed',
  'permission_denied',
  'not_found',
  'method_not_allowed',
  'invalid_state',
  'idempotency_key_in_use',
  'payload_too_large',
  'unsupported_media_type',
  'idempotency_key_reused',
  'rate_limit_exceeded',
  'internal_error',
  'service_unavailable',
]);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const ERROR_STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  authentication_failed: 401,
  permission_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_state: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limit_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
};

/** Codes a client may retry unchanged (after Retry-After when given). */
export const RETRYABLE_ERROR_CODES: readonly ErrorCode[] = [
  'rate_limit_exceeded',
  'internal_error',
  'service_unavailable',
  'idempotency_key_in_use',
];

export const errorDetailSchema = z.strictObject({
  /** Dotted path of the offending field or query parameter, e.g. "items.0.quantity". */
  param: z.string(),
  message: z.string(),
});

/** The body of every /v1 error reply: `{ "error": { ... } }`. */
export const errorBodySchema = z.strictObject({
  error: z.strictObject({
    code: errorCodeSchema,
    message: z.string(),
    /** First offending parameter, when the error is about one. */
    param: z.string().optional(),
    /** Every offending parameter, for invalid_request. */
    details: z.array(errorDetailSchema).optional(),
    /** For permission_denied: what the credential lacks. */
    missing_permissions: z.array(z.string()).optional(),
    missing_scopes: z.array(z.string()).optional(),
    request_id: z.string(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** What a client reads from an error reply: liberal, any code string, unknown fields kept. */
export const clientErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string().optional(),
    param: z.string().optional(),
    request_id: z.string().optional(),
  }),
});
export type ClientErrorBody = z.infer<typeof clientErrorBodySchema>;

/** RFC 6749 §5.2 / §4.1.2.1 error codes of the OAuth endpoints. */
export const oauthErrorCodeSchema = z.enum([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'access_denied',
  'unsupported_response_type',
  'server_error',
  'temporarily_unavailable',
]);
export type OAuthErrorCode = z.infer<typeof oauthErrorCodeSchema>;

export const oauthErrorBodySchema = z.looseObject({
  error: oauthErrorCodeSchema.or(z.string()),
  error_description: z.string().optional(),
});
export type OAuthErrorBody = z.infer<typeof oauthErrorBodySchema>;

/** The HTTP status of a token-endpoint error (RFC 6749 §5.2: 400, or 401 for client authentication). */
export function oauthErrorStatus(code: OAuthErrorCode): number {
  if (code === 'invalid_client') return 401;
  if (code === 'server_error') return 500;
  if (code === 'temporarily_unavailable') return 503;
  return 400;
}
