// The core's side of the bridge: validates every request against the contract, runs its handler
// and turns every failure into a BridgeError a cashier can act on. A handler's result is checked
// against the contract too, so the renderer never receives a shape the contract does not promise.
import { createHash } from 'node:crypto';
import { ZodError } from 'zod';
import { commands, type CommandName, type CommandPayload, type CommandResult } from '../../bridge/contract';
import { ONCE_COMMANDS } from '../../bridge/once';
import type { BridgeResponse } from '../../bridge/protocol';
import { parseBridgeRequest } from '../../bridge/validate';
import type { Logger } from '../../common/log';
import { StoreError, type RequestLedger } from '../../store/index';
import { CoreError, machineRefusal } from './errors';
import type { Act } from './staff/desk';

/** What a handler knows of who asked: `act()` is the signed-in person (and an approver), or a needs_sign_in refusal. */
export interface CommandContext {
  act(): Act;
}

export type Handlers = { [C in CommandName]: (payload: CommandPayload<C>, context: CommandContext) => Promise<CommandResult<C>> | CommandResult<C> };

/** Runs before every validated command: refuses it when no one may run it, and says who runs it. */
export type Prepare = (command: CommandName, payload: unknown) => Promise<CommandContext>;

const INTERNAL_MESSAGE = 'Something went wrong on this terminal. Try again; if it keeps happening, restart the terminal and call support.';
/** Never "nothing was changed": the answer is checked after the handler ran. */
const UNREADABLE_ANSWER = 'This may have been done, but its result could not be shown. Refresh the screen to see before doing it again; if it keeps happening, call support.';

export function errorResponse(error: unknown, logger: Logger, command: string): BridgeResponse {
  if (error instanceof CoreError) return { ok: false, error: { code: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) } };
  if (error instanceof StoreError) {
    if (error.code === 'not_found') return { ok: false, error: { code: 'not_found', message: 'That record is not on this terminal any more. Refresh the list and try again.' } };
    if (error.code === 'conflict') return { ok: false, error: { code: 'conflict', message: `This cannot be done in its current state (${error.message}).` } };
  }
  if (error instanceof ZodError) {
    // Requests are checked before a handler runs (bridge/validate.ts): this is a handler's answer,
    // or a record it read, failing the contract, possibly after its write committed.
    logger.error({ err: error, command }, 'bridge answer failed its contract');
    return { ok: false, error: { code: 'internal', message: UNREADABLE_ANSWER } };
  }
  logger.error({ err: error, command }, 'bridge command failed');
  // The disk full, the folder read-only: the cashier is told what it is and what to do.
  const machine = machineRefusal(error);
  if (machine) return { ok: false, error: { code: machine.code, message: machine.message } };
  return { ok: false, error: { code: 'internal', message: INTERNAL_MESSAGE } };
}

/** Where the answers of commands that create something are kept by the page's request id (bridge/once.ts). */
export interface Repeats {
  ledger: RequestLedger;
  /** This run of the core: a reservation of another run was interrupted. */
  runId: string;
  now: () => number;
}

const INTERRUPTED_MESSAGE =
  'The terminal stopped while this was being done, so it may or may not have been done. Look in Orders (or on the Shift screen) before doing it again.';

/** What identifies a request's details: its payload without PINs (a hash of a PIN would be a PIN to a guesser). */
function digestOf(payload: unknown): string {
  const withoutPins = JSON.stringify(payload, (key, value: unknown) => (key === 'managerPin' || key === 'pin' ? undefined : value));
  return createHash('sha256').update(withoutPins ?? '').digest('hex');
}

export function createInvoker(handlers: Handlers, logger: Logger, prepare: Prepare, repeats?: Repeats) {
  const parseResult = (command: CommandName, value: unknown) => (commands[command].result as { parse(v: unknown): unknown }).parse(value);
  async function execute(command: CommandName, payload: unknown): Promise<BridgeResponse> {
    try {
      const handler = handlers[command] as (payload: unknown, context: CommandContext) => unknown;
      const value = await handler(payload, await prepare(command, payload));
      return { ok: true, value: parseResult(command, value) };
    } catch (error) {
      return errorResponse(error, logger, command);
    }
  }

  /** Requests of this run still running, by request id: a repeat waits for the first answer. */
  const running = new Map<string, Promise<BridgeResponse>>();
  async function executeOnce(command: CommandName, payload: unknown, requestId: string, { ledger, runId, now }: Repeats): Promise<BridgeResponse> {
    const entry = ledger.reserve(requestId, command, digestOf(payload), runId, now());
    switch (entry.state) {
      case 'mismatch':
        return { ok: false, error: { code: 'invalid_command', message: 'This request id was used before for something else. Nothing was changed.' } };
      case 'interrupted':
        return { ok: false, error: { code: 'conflict', message: INTERRUPTED_MESSAGE } };
      case 'running':
        return running.get(requestId) ?? { ok: false, error: { code: 'conflict', message: INTERRUPTED_MESSAGE } };
      case 'answered':
        try {
          // The repeat is still someone's: the till must not be locked, an approval still checked.
          await prepare(command, payload);
          return { ok: true, value: parseResult(command, JSON.parse(entry.result)) };
        } catch (error) {
          return errorResponse(error, logger, command);
        }
      case 'new': {
        const answer = execute(command, payload).then((response) => {
          try {
            if (response.ok) ledger.answer(requestId, JSON.stringify(response.value));
            else ledger.release(requestId);
          } catch (error) {
            // The command's own answer stands; a repeat will be told its outcome is not known.
            logger.error({ err: error, command }, 'could not keep the answer of a request');
          }
          return response;
        });
        running.set(requestId, answer);
        try {
          return await answer;
        } finally {
          running.delete(requestId);
        }
      }
    }
  }

  return async function invoke(raw: unknown): Promise<BridgeResponse> {
    const parsed = parseBridgeRequest(raw);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const { command, payload } = parsed.value;
    if (repeats && parsed.requestId !== undefined && ONCE_COMMANDS.has(command)) {
      try {
        return await executeOnce(command, payload, parsed.requestId, repeats);
      } catch (error) {
        return errorResponse(error, logger, command);
      }
    }
    return execute(command, payload);
  };
}
