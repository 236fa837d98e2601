// What the Electron shell needs from the core: the bridge plus the two facts that govern quitting and
// updating. main/core's `Core` satisfies it structurally.
import type { BridgeHost } from '../../bridge/protocol';

export interface ShellCore extends BridgeHost {
  /** Operations in the outbox not yet confirmed by the cloud. */
  pendingOperations(): number;
  /** Finishes the transaction in flight, stops sync and closes the store. */
  shutdown(): Promise<void>;
}
