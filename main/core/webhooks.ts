// The webhook receiver, run when the settings enable it. Verified events are applied to the store
// by the sync component's applier; the core only learns what changed so the screens refresh at
// once (a low-stock mark, a menu edit from the dashboard) instead of at the next pull.
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/log';
import type { Store } from '../../store/index';
import { startWebhookReceiverServer, type WebhookReceiver } from '../../sync/webhook-receiver';
import { WebhookApplier } from '../../sync/webhooks';

export interface WebhookSettings {
  enabled: boolean;
  host: string;
  port: number;
}

export class WebhookLink {
  #receiver: WebhookReceiver | null = null;
  #applier: WebhookApplier | null = null;
  #running: WebhookSettings | null = null;

  constructor(
    private readonly store: Store,
    private readonly signingSecret: () => string | null,
    private readonly onApplied: (eventTypes: readonly string[]) => void,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Where the cloud should post events, or '' when the receiver is off. */
  get url(): string {
    return this.#receiver?.url ?? '';
  }

  /** Starts, restarts or stops the receiver to match `settings`. */
  async apply(settings: WebhookSettings): Promise<void> {
    const same = this.#running && settings.enabled && this.#running.host === settings.host && this.#running.port === settings.port;
    if (same) return;
    await this.stop();
    if (!settings.enabled) return;
    const applier = new WebhookApplier({ store: this.store, clock: this.clock, logger: this.logger });
    this.#receiver = await startWebhookReceiverServer({
      host: settings.host,
      port: settings.port,
      // Read per delivery: a secret pasted in Settings takes effect without a restart.
      secrets: () => {
        const secret = this.signingSecret();
        return secret ? [secret] : [];
      },
      sink: {
        acceptMany: (events) => {
          const outcomes = applier.acceptMany(events);
          this.onApplied(events.filter((_, i) => outcomes[i] === 'applied').map((event) => event.type));
          return outcomes;
        },
      },
      clock: this.clock,
      logger: this.logger,
    });
    this.#applier = applier;
    this.#running = settings;
  }

  async stop(): Promise<void> {
    const receiver = this.#receiver;
    const applier = this.#applier;
    this.#receiver = null;
    this.#applier = null;
    this.#running = null;
    await receiver?.close();
    await applier?.settled();
  }
}
