// The core's side of the bridge: validates every request against the contract, runs its handler
// and turns every failure into a BridgeError a cashier can act on. A handler's result is checked
// against the contract too, so the renderer never receives a shape the contract does not promise.
import { ZodError } from 'zod';
import { commands, type CommandName, type CommandPayload, type CommandResult } from '../../bridge/contract';
import type { BridgeResponse } from '../../bridge/protocol';
import { parseBridgeRequest } from '../../bridge/validate';
import type { Logger } from '../../common/log';
import { StoreError } from '../../store/index';
import { CoreError } from './errors';
import type { Act } from './staff/desk';

/** What a handler knows of who asked: `act()` is the signed-in person (and an approver), or a needs_sign_in refusal. */
export interface CommandContext {
  act(): Act;
}

export type Handlers = { [C in CommandName]: (payload: CommandPayload<C>, context: CommandContext) => Promise<CommandResult<C>> | CommandResult<C> };

/** Runs before every validated command: refuses it when no one may run it, and says who runs it. */
export type Prepare = (command: CommandName, payload: unknown) => Promise<CommandContext>;

const INTERNAL_MESSAGE = 'Something went wrong on this terminal. Try again; if it keeps happening, restart the terminal and call support.';

export function errorResponse(error: unknown, logger: Logger, command: string): BridgeResponse {
  if (error instanceof CoreError) return { ok: false, error: { code: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) } };
  if (error instanceof StoreError) {
    if (error.code === 'not_found') return { ok: false, error: { code: 'not_found', message: 'That record is not on this terminal any more. Refresh the list and try again.' } };
    if (error.code === 'conflict') return { ok: false, error: { code: 'conflict', message: `This cannot be done in its current state (${error.message}).` } };
  }
  if (error instanceof ZodError) {
    return {
      ok: false,
      error: {
        code: 'invalid_command',
        message: 'Some details are not valid. Nothing was changed.',
        issues: error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
      },
    };
  }
  logger.error({ err: error, command }, 'bridge command failed');
  return { ok: false, error: { code: 'internal', message: INTERNAL_MESSAGE } };
}

export function createInvoker(handlers: Handlers, logger: Logger, prepare: Prepare) {
  return async function invoke(raw: unknown): Promise<BridgeResponse> {
    const parsed = parseBridgeRequest(raw);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const { command, payload } = parsed.value;
    try {
      const handler = handlers[command] as (payload: unknown, context: CommandContext) => unknown;
      const value = await handler(payload, await prepare(command, payload));
      return { ok: true, value: (commands[command].result as { parse(v: unknown): unknown }).parse(value) };
    } catch (error) {
      return errorResponse(error, logger, command);
    }
  };
}
