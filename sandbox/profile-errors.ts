// What an error reply looks like in each profile (docs/sandbox.md, "Profiles"). The default sends the
// documented { error: { code, message, … } }. spec-minimal answers in the other shapes real servers
// use, often with a code the terminal does not know or none at all, so the terminal's liberal reading
// (the status decides when the code tells nothing) is what gets exercised.
import type { ErrorCode } from '../api/errors';
import { errorBody, type ApiError } from './http';
import type { Profile, SpecErrorList } from './profile-schemas';

export interface RenderedError {
  status: number;
  headers: Record<string, string>;
  contentType: 'json' | 'text';
  /** Serialised JSON or plain text, as contentType says. */
  payload: string;
}

type SpecMinimalError =
  /** { errors: [{ code?, detail, source? }] } */
  | { style: 'list'; status: number; code?: string }
  /** { code, message } */
  | { style: 'bare'; status: number; code: string }
  /** { message } */
  | { style: 'message'; status: number }
  /** a plain-text reason phrase */
  | { style: 'text'; status: number; text: string };

/** One code, one answer; `invalid_request` about the body as a whole is BODY_UNREADABLE instead. */
export const SPEC_MINIMAL_ERRORS: Record<ErrorCode, SpecMinimalError> = {
  invalid_request: { style: 'list', status: 422, code: 'invalid_request' },
  authentication_failed: { style: 'bare', status: 401, code: 'unauthorized' },
  permission_denied: { style: 'list', status: 403, code: 'forbidden' },
  not_found: { style: 'list', status: 404 },
  method_not_allowed: { style: 'list', status: 405, code: 'method_not_allowed' },
  invalid_state: { style: 'list', status: 409, code: 'conflict' },
  idempotency_key_in_use: { style: 'list', status: 409, code: 'idempotency_key_in_use' },
  payload_too_large: { style: 'list', status: 413, code: 'payload_too_large' },
  unsupported_media_type: { style: 'list', status: 415, code: 'unsupported_media_type' },
  idempotency_key_reused: { style: 'list', status: 422, code: 'idempotency_key_reused' },
  rate_limit_exceeded: { style: 'message', status: 429 },
  internal_error: { style: 'text', status: 500, text: 'Internal Server Error' },
  service_unavailable: { style: 'text', status: 503, text: 'Service Unavailable' },
};

/** A body that is missing, not JSON, not allowed or not an object: unreadable, so 400 rather than 422. */
export const BODY_UNREADABLE: SpecMinimalError = { style: 'bare', status: 400, code: 'bad_request' };

/** RFC 7231 IMF-fixdate `seconds` after `nowMs`, rounded up to a whole second so nobody retries early. */
export function httpDate(nowMs: number, seconds: number): string {
  return new Date(Math.ceil((nowMs + seconds * 1000) / 1000) * 1000).toUTCString();
}

/** spec-minimal sends Retry-After as an HTTP date (on the sandbox's clock); the default as seconds. */
export function profileHeaders(headers: Record<string, string>, profile: Profile, nowMs: number): Record<string, string> {
  const retryAfter = headers['Retry-After'];
  if (profile === 'default' || retryAfter === undefined) return headers;
  return { ...headers, 'Retry-After': httpDate(nowMs, Number(retryAfter)) };
}

function specMinimalError(error: ApiError): SpecMinimalError {
  if (error.code === 'invalid_request' && (error.extra.param === undefined || error.extra.param === 'body')) return BODY_UNREADABLE;
  return SPEC_MINIMAL_ERRORS[error.code];
}

function errorList(error: ApiError, code: string | undefined): SpecErrorList {
  const withCode = code === undefined ? {} : { code };
  const details = error.extra.details;
  if (details && details.length > 0) {
    return { errors: details.map((d) => ({ ...withCode, detail: `${d.param}: ${d.message}`, source: { parameter: d.param } })) };
  }
  const source = error.extra.param === undefined ? {} : { source: { parameter: error.extra.param } };
  return { errors: [{ ...withCode, detail: error.message, ...source }] };
}

export function renderError(error: ApiError, requestId: string, profile: Profile, nowMs: number): RenderedError {
  const headers = profileHeaders(error.headers, profile, nowMs);
  if (profile === 'default') return { status: error.status, headers, contentType: 'json', payload: JSON.stringify(errorBody(error, requestId)) };
  const spec = specMinimalError(error);
  switch (spec.style) {
    case 'list':
      return { status: spec.status, headers, contentType: 'json', payload: JSON.stringify(errorList(error, spec.code)) };
    case 'bare':
      return { status: spec.status, headers, contentType: 'json', payload: JSON.stringify({ code: spec.code, message: error.message }) };
    case 'message':
      return { status: spec.status, headers, contentType: 'json', payload: JSON.stringify({ message: error.message }) };
    case 'text':
      return { status: spec.status, headers, contentType: 'text', payload: spec.text };
  }
}
