import type { BridgeErrorCode } from '../../bridge/protocol';

/** A refusal the cashier sees: `message` says what happened and what to do. */
export class CoreError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CoreError';
  }
}
