// What every /v1 operation handler receives and returns.
import type { EventType, ResourceType } from '../api/enums';
import type { WebhookEvent } from '../api/events';
import type { Clock } from '../common/clock';
import type { Profile } from './profile-schemas';
import type { QuirkSettings } from './quirks';
import type { Tx } from './storage';

export interface EventData {
  id: string;
  type: ResourceType;
  attributes: unknown;
}

export interface OpContext {
  tx: Tx;
  clock: Clock;
  /** The `{id}` path segment, when the path has one. */
  id: string;
  query: unknown;
  body: unknown;
  /** The absolute URL of the request, for the list envelope's links. */
  requestUrl: URL;
  /**
   * The profile in force when the request arrived. Only the checkout rules depend on it: spec-minimal
   * knows nothing of checkout (no modifier groups, no cap on a payment intent; docs/sandbox.md).
   */
  profile: Profile;
  /** The quirks in force when the request arrived (sandbox/quirks.ts): page shapes, list order, state names. */
  quirks: Readonly<QuirkSettings>;
  /**
   * Records an event in the operation's transaction; webhook deliveries follow the commit. A test
   * event goes to the one endpoint named, whatever kinds it subscribed to.
   */
  emit(type: EventType, data: EventData, test?: { endpointId: string }): Promise<{ event: WebhookEvent; deliveryIds: string[] }>;
}

/** A reply body already serialised (list pages splice stored JSON records without re-parsing them). */
export class RawJson {
  constructor(readonly json: string) {}
}

export interface OpResult {
  status: number;
  body: unknown;
}

export function serialise(body: unknown): string {
  return body instanceof RawJson ? body.json : JSON.stringify(body);
}

export type OpHandler = (ctx: OpContext) => Promise<OpResult>;

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
