// Fault injection on the API listener (never on the dashboard's): latency, 5xx, 429 storms,
// connection resets, an outage, and "commit but drop the response".
import { z } from 'zod';

const rate = z.number().min(0).max(1);

export const faultSettingsSchema = z.strictObject({
  /** Added before every API request is handled. */
  latency_ms: z.int().min(0).max(120_000),
  /** Share of API requests answered with a server error before they run. */
  error_rate: rate,
  /** 500 internal_error, or 503 service_unavailable with Retry-After (retry_after_sec). */
  error_status: z.union([z.literal(500), z.literal(503)]),
  /** Share of API requests answered 429 rate_limit_exceeded with Retry-After (a storm when 1). */
  rate_limit_rate: rate,
  retry_after_sec: z.int().min(0).max(3600),
  /** Share of API requests whose connection is destroyed before they run. */
  reset_rate: rate,
  /** true: the API listener is closed and open connections destroyed; nothing is accepted. */
  outage: z.boolean(),
  /** Share of writes that commit and then get their connection destroyed without a reply. */
  drop_response_rate: rate,
  drop_response_methods: z.array(z.enum(['POST', 'PATCH', 'DELETE'])),
});
export type FaultSettings = z.infer<typeof faultSettingsSchema>;
export const faultPatchSchema = faultSettingsSchema.partial();
export type FaultPatch = z.infer<typeof faultPatchSchema>;

export const NO_FAULTS: FaultSettings = {
  latency_ms: 0,
  error_rate: 0,
  error_status: 500,
  rate_limit_rate: 0,
  retry_after_sec: 1,
  reset_rate: 0,
  outage: false,
  drop_response_rate: 0,
  drop_response_methods: ['POST'],
};

/** Settings are replaced, never changed in place: a frozen object is a snapshot for as long as it is held. */
function frozen(settings: FaultSettings): Readonly<FaultSettings> {
  Object.freeze(settings.drop_response_methods);
  return Object.freeze(settings);
}

export class FaultController {
  #settings: Readonly<FaultSettings> = frozen({ ...NO_FAULTS, drop_response_methods: [...NO_FAULTS.drop_response_methods] });
  readonly #outageListeners = new Set<(outage: boolean) => Promise<void>>();

  constructor(private readonly random: () => number = Math.random) {}

  /** A copy the caller may change. */
  get(): FaultSettings {
    return structuredClone(this.#settings);
  }

  /** The settings in force, without a copy: what every API request reads when it arrives. */
  current(): Readonly<FaultSettings> {
    return this.#settings;
  }

  /** Merges a (validated) patch; resolves once an outage change has taken effect on the listener. */
  async set(patch: FaultPatch): Promise<FaultSettings> {
    const next = faultSettingsSchema.parse({ ...this.#settings, ...faultPatchSchema.parse(patch) });
    const outageChanged = next.outage !== this.#settings.outage;
    this.#settings = frozen(next);
    if (outageChanged) for (const listener of this.#outageListeners) await listener(next.outage);
    return this.get();
  }

  reset(): Promise<FaultSettings> {
    return this.set(NO_FAULTS);
  }

  onOutageChange(listener: (outage: boolean) => Promise<void>): void {
    this.#outageListeners.add(listener);
  }

  /** True with probability `share` (exactly never at 0 and always at 1). */
  roll(share: number): boolean {
    return share >= 1 || (share > 0 && this.random() < share);
  }
}
