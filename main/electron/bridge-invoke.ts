// The single IPC handler behind BRIDGE_INVOKE_CHANNEL: checks who is calling and what they sent,
// then hands a well-formed request to the core. Whatever goes wrong, the page gets a BridgeResponse.
import type { Logger } from '../../common/log';
import { BridgeRequest, type BridgeHost, type BridgeResponse } from '../../bridge/protocol';
import type { IpcSenderFacts } from './ipc-sender';

export interface BridgeInvokeDeps {
  host: BridgeHost;
  isTrusted: (sender: IpcSenderFacts) => boolean;
  logger: Logger;
  /** Called for each accepted request: the updater waits for a quiet till before installing. */
  onActivity?: () => void;
}

export function createBridgeInvokeHandler(deps: BridgeInvokeDeps): (sender: IpcSenderFacts, payload: unknown) => Promise<BridgeResponse> {
  return async (sender, payload) => {
    if (!deps.isTrusted(sender)) {
      // The URL is ours to log (no secrets in our own origin's paths); it says which frame tried.
      deps.logger.warn({ webContentsId: sender.webContentsId, frameUrl: sender.frameUrl, isMainFrame: sender.isMainFrame }, 'bridge call from an untrusted frame refused');
      return { ok: false, error: { code: 'invalid_command', message: 'This window is not allowed to use the terminal.' } };
    }
    const parsed = BridgeRequest.safeParse(payload);
    if (!parsed.success) {
      return {
        ok: false,
        error: {
          code: 'invalid_command',
          message: 'The screen sent a request the terminal does not understand. Nothing was changed.',
          issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
        },
      };
    }
    deps.onActivity?.();
    try {
      return await deps.host.invoke(parsed.data);
    } catch (error) {
      deps.logger.error({ err: error, command: parsed.data.command }, 'bridge command failed inside the core');
      return { ok: false, error: { code: 'internal', message: 'Something went wrong on this terminal. Try again; if it keeps happening, call support.' } };
    }
  };
}
