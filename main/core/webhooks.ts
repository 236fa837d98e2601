// The webhook receiver, run when the settings enable it. Verified events are applied to the store
// by the sync component's receiver (which also fetches an order from the API when two versions
// disagree); the core only learns what changed so the screens refresh at once (a low-stock mark,
// a menu edit from the dashboard) instead of at the next pull.
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/log';
import type { Store } from '../../store/index';
import type { CredentialsProvider } from '../../sync/credentials';
import { startWebhookReceiver, type RunningWebhookReceiver } from '../../sync/webhooks';

export interface WebhookSettings {
  enabled: boolean;
  host: string;
  port: number;
}

export class WebhookLink {
  #receiver: RunningWebhookReceiver | null = null;
  #running: (WebhookSettings & { apiBaseUrl: string }) | null = null;

  constructor(
    private readonly store: Store,
    private readonly signingSecret: () => string | null,
    /** The session's current credentials, read per request (they change without a restart here). */
    private readonly credentials: CredentialsProvider,
    private readonly onApplied: (eventTypes: readonly string[]) => void,
    /** This till's location: another location's order events are recorded, never applied (as the pull). */
    private readonly locationId: () => string | null,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Where the cloud should post events, or '' when the receiver is off. */
  get url(): string {
    return this.#receiver?.url ?? '';
  }

  /** Starts, restarts or stops the receiver to match `settings`; `apiBaseUrl` ('' for none) is where events in doubt are checked. */
  async apply(settings: WebhookSettings, apiBaseUrl: string): Promise<void> {
    const running = this.#running;
    const same = running && settings.enabled && running.host === settings.host && running.port === settings.port && running.apiBaseUrl === apiBaseUrl;
    if (same) return;
    await this.stop();
    if (!settings.enabled) return;
    this.#receiver = await startWebhookReceiver({
      store: this.store,
      host: settings.host,
      port: settings.port,
      // Read per delivery: a secret pasted in Settings takes effect without a restart.
      secrets: () => {
        const secret = this.signingSecret();
        return secret ? [secret] : [];
      },
      api: apiBaseUrl === '' ? undefined : { baseUrl: apiBaseUrl, credentials: this.credentials },
      onApplied: this.onApplied,
      locationId: this.locationId,
      clock: this.clock,
      logger: this.logger,
    });
    this.#running = { ...settings, apiBaseUrl };
  }

  async stop(): Promise<void> {
    const receiver = this.#receiver;
    this.#receiver = null;
    this.#running = null;
    await receiver?.close();
  }
}
