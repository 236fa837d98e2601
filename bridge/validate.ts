// Turns an untrusted request into a typed command, or into the invalid_command error that changes
// nothing. Both shells and the core use it, so a bad request is refused the same way everywhere.
import type { z } from 'zod';
import { commands, isCommandName, type CommandName, type CommandPayload } from './contract';
import { issuePlace, plainError } from './plain-issues';
import { BridgeRequest, type BridgeError } from './protocol';

export type ParsedCommand = { [C in CommandName]: { command: C; payload: CommandPayload<C> } }[CommandName];

export type ParseResult = { ok: true; value: ParsedCommand; requestId: string | undefined } | { ok: false; error: BridgeError };

function issuesOf(error: z.ZodError): NonNullable<BridgeError['issues']> {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(payload)', message: issue.message }));
}

export function parseBridgeRequest(raw: unknown): ParseResult {
  const envelope = BridgeRequest.safeParse(raw, { error: plainError });
  if (!envelope.success) {
    return {
      ok: false,
      error: { code: 'invalid_command', message: 'The request was not understood. Nothing was changed.', issues: issuesOf(envelope.error) },
    };
  }
  const { command, payload, requestId } = envelope.data;
  if (!isCommandName(command)) {
    return {
      ok: false,
      error: {
        code: 'invalid_command',
        message: `Unknown command "${command}". Nothing was changed.`,
        issues: [{ path: 'command', message: 'not a command of this terminal' }],
      },
    };
  }
  const parsed = commands[command].payload.safeParse(payload ?? {}, { error: plainError });
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const place = first ? issuePlace(first.path) : '';
    return {
      ok: false,
      error: {
        code: 'invalid_command',
        message: `Some details are missing or wrong (${place ? `${place}: ` : ''}${first?.message ?? 'not valid'}). Nothing was changed.`,
        issues: issuesOf(parsed.error),
      },
    };
  }
  return { ok: true, value: { command, payload: parsed.data } as ParsedCommand, requestId };
}
