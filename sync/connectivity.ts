// Is the API reachable right now? Pushes and pulls only tell when they run, and with an empty
// outbox nothing runs for a minute; meanwhile the cashier's offline card-payment limits depend on
// the answer. The probe is the cheapest authenticated request /v1 has (one location), so it also
// catches a key revoked while the terminal sat idle.
import { z } from 'zod';
import { ApiClient } from './api-client';
import { ApiError } from './api-error';

export interface ConnectivityTiming {
  /** While online and idle, a probe this long after the last answer from the server. */
  idleIntervalMs: number;
  /** Never two probes closer together than this (a flapping network must not become a loop). */
  minGapMs: number;
  /** A probe gives up after this long: an outage often looks like silence, not a refusal. */
  timeoutMs: number;
}

/** Any well-formed list envelope will do: the answer's content is not used, only that it came. */
const ProbeReply = z.object({ data: z.array(z.unknown()) });

/** One probe: resolves when the server answered 2xx, throws the request's ApiError otherwise. */
export async function probeApi(api: ApiClient, timeoutMs: number): Promise<void> {
  await api.call({ method: 'GET', path: '/locations', query: { per_page: 1 }, schema: ProbeReply, timeoutMs });
}

/**
 * When the next probe is due, or null when none should run (sync stopped, credentials refused,
 * or a Retry-After pause, which the push timer honours on its own).
 */
export function nextProbeAt(state: {
  now: number;
  timing: ConnectivityTiming;
  lastContactAt: number;
  lastProbeAt: number;
  /** A request other than a probe just failed on the network: check at once whether it was a blip. */
  failureToCheck: boolean;
  pause: { untilMs: number; reason: 'offline' | 'rate_limited' } | null;
  credentialsUsable: boolean;
}): number | null {
  if (!state.credentialsUsable || state.pause?.reason === 'rate_limited') return null;
  const wanted = state.failureToCheck
    ? state.now
    : state.pause
      ? state.pause.untilMs
      : state.lastContactAt + state.timing.idleIntervalMs;
  return Math.max(wanted, state.lastProbeAt + state.timing.minGapMs);
}

/**
 * What the API says of a credential before it is saved: 'accepted'; 'rejected' (401: a wrong or
 * revoked key); 'limited' (it signs in but may not read the store's locations); 'unchecked' (the
 * API could not be asked: offline, or an address that is not /v1), with the reason.
 */
export type CredentialCheck = { outcome: 'accepted' | 'rejected' | 'limited' } | { outcome: 'unchecked'; reason: string };

export async function checkCredential(baseUrl: string, bearer: string, timeoutMs = 5_000): Promise<CredentialCheck> {
  const api = new ApiClient({ baseUrl, credentials: { bearer: async () => bearer, handleRejected: async () => false }, timeoutMs });
  try {
    await probeApi(api, timeoutMs);
    return { outcome: 'accepted' };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.kind === 'authentication') return { outcome: 'rejected' };
    if (error.kind === 'permission') return { outcome: 'limited' };
    return { outcome: 'unchecked', reason: error.message };
  } finally {
    await api.destroy();
  }
}