// The sandbox's moving parts in one place, shared by the API listener, the dashboard listener and
// the programmatic API.
import type { Clock } from '../common/clock';
import type { FaultController } from './faults';
import { ApiError } from './http';
import type { IdempotencyStore } from './idempotency';
import type { RateLimiter, RateLimitSettings } from './rate-limit';
import { DEFAULT_OUTPUT_MODE, EVENTS_BEFORE_REPLY_BY_PROFILE } from './profiles';
import { locationIds, seedDemo, type SeededCredentials, type TaxesOption } from './seed';
import type { Db } from './storage';
import type { ApiMode } from './api-server';
import type { WebhookDispatcher } from './webhook-dispatcher';
import { quirkSettingsSchema, type QuirkPatch } from './quirks';

export interface SandboxUrls {
  /** {base_url}: …/v1 */
  baseUrl: string;
  /** {api_host}: the API listener without /v1 (POST /oauth/token, /openapi.json). */
  apiHost: string;
  /** {auth_url}: the dashboard listener hosting /oauth/authorize. */
  authUrl: string;
  /** The HTML dashboard page. */
  dashboardUrl: string;
  /** The JSON dashboard controls (docs/sandbox.md lists them). */
  dashboardApiUrl: string;
}

/** Anything with `advance(ms)`: common/clock's ManualClock and OffsetClock. */
export interface AdvanceableClock extends Clock {
  advance(ms: number): void;
}

export function isAdvanceable(clock: Clock): clock is AdvanceableClock {
  return typeof (clock as Partial<AdvanceableClock>).advance === 'function';
}

export interface SandboxSettingsView extends ApiMode {
  rate_limit: RateLimitSettings;
}

export class SandboxCore {
  urls: SandboxUrls = { baseUrl: '', apiHost: '', authUrl: '', dashboardUrl: '', dashboardApiUrl: '' };
  #mode: Readonly<ApiMode> = Object.freeze({ idempotency: 'honour', ...DEFAULT_OUTPUT_MODE });

  constructor(
    readonly db: Db,
    readonly clock: Clock,
    readonly faults: FaultController,
    readonly dispatcher: WebhookDispatcher,
    readonly rateLimiter: RateLimiter,
    readonly idempotency: IdempotencyStore,
    public credentials: SeededCredentials,
    /** The tax rates the demo data gets when the dashboard seeds it. */
    readonly taxes: TaxesOption = 'none',
  ) {}

  describe(): SandboxUrls & { credentials: SeededCredentials } {
    return { ...this.urls, credentials: this.credentials };
  }

  /** What the API listener reads per request: replaced, never changed in place, so a request keeps its snapshot. */
  mode(): Readonly<ApiMode> {
    return this.#mode;
  }

  settings(): SandboxSettingsView {
    const { idempotency, profile, record_shape, events_before_reply, quirks } = this.#mode;
    return { idempotency, rate_limit: { ...this.rateLimiter.settings }, profile, record_shape, events_before_reply, quirks: { ...quirks } };
  }

  /** Choosing a profile also sets events_before_reply to the profile's default, unless the patch gives it. */
  updateSettings(patch: Omit<Partial<SandboxSettingsView>, 'quirks'> & { quirks?: QuirkPatch }): SandboxSettingsView {
    const next = { ...this.#mode };
    if (patch.idempotency) next.idempotency = patch.idempotency;
    if (patch.record_shape) next.record_shape = patch.record_shape;
    if (patch.profile) {
      next.profile = patch.profile;
      next.events_before_reply = EVENTS_BEFORE_REPLY_BY_PROFILE[patch.profile];
    }
    if (patch.events_before_reply !== undefined) next.events_before_reply = patch.events_before_reply;
    if (patch.quirks) next.quirks = Object.freeze(quirkSettingsSchema.parse({ ...next.quirks, ...patch.quirks }));
    this.#mode = Object.freeze(next);
    if (patch.rate_limit) {
      this.rateLimiter.settings = patch.rate_limit;
      this.rateLimiter.reset();
    }
    return this.settings();
  }

  /** Moves the clock and runs whatever became due (webhook retries) right away. */
  advanceClock(ms: number): void {
    if (!isAdvanceable(this.clock)) throw new ApiError('invalid_state', 'this sandbox was given a clock that cannot be advanced');
    this.clock.advance(ms);
    this.dispatcher.kick();
  }

  async seedDemo(taxes: TaxesOption = this.taxes): Promise<void> {
    await seedDemo(this.db, this.clock, { taxes });
    this.credentials = { ...this.credentials, locationIds: await locationIds(this.db) };
  }
}
