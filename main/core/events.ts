import type { EventName, EventPayload } from '../../bridge/contract';
import type { BridgeEvent } from '../../bridge/protocol';

/** Fan-out of bridge events to every connected renderer (IPC window, SSE streams). */
export class EventHub {
  readonly #listeners = new Set<(event: BridgeEvent) => void>();

  subscribe(listener: (event: BridgeEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const listener of this.#listeners) listener({ event, payload });
  }
}
