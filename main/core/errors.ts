import type { BridgeError, BridgeErrorCode } from '../../bridge/protocol';
import { machineProblemOf, type MachineProblem } from '../../common/machine-problem';

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

/**
 * A command that failed because of the machine (common/machine-problem.ts), refused in the
 * cashier's words with what to do; null when the machine is not the reason. Whatever the command
 * was writing was rolled back with its transaction.
 */
export function machineRefusal(error: unknown): CoreError | null {
  const problem = machineProblemOf(error);
  if (problem === null) return null;
  return new CoreError('unavailable', MACHINE_MESSAGES[problem]);
}

const MACHINE_MESSAGES: Record<MachineProblem, string> = {
  disk_full:
    "The terminal's disk is full, so this could not be saved. Free some space on it (delete old files or ask IT or support), then try again. What was saved before is safe.",
  read_only:
    "The terminal's data folder has become read-only, so this could not be saved. Restart the terminal; if it keeps happening, ask IT or support to check the disk. What was saved before is safe.",
  not_permitted:
    'The terminal is not allowed to write to its data folder, so this could not be saved. Ask IT or support to give it back the right to write there, then try again. What was saved before is safe.',
  disk_failed:
    "The terminal could not write to its disk (an input/output error), so this could not be saved. Check that the disk is connected, then restart the terminal; if it keeps happening, call support: the disk may be failing.",
};
