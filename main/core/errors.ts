import type { BridgeError, BridgeErrorCode } from '../../bridge/protocol';

/** A refusal the cashier sees: `message` says what happened and what to do; `issues` name the field it is about, for a form to show it there. */
export class CoreError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
    readonly issues?: BridgeError['issues'],
  ) {
    super(message);
    this.name = 'CoreError';
  }
}
