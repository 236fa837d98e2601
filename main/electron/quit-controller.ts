// What happens when the cashier (or the OS, or an update) asks the app to quit. Quitting never cuts a
// transaction in half: the core finishes what is in flight before the process exits. With changes still
// waiting for the cloud the cashier is asked first and told exactly what is at stake.
import type { Logger } from '../../common/log';

export interface QuitDialog {
  type: 'warning';
  title: string;
  message: string;
  detail: string;
  buttons: [keepWorking: string, quitAnyway: string];
  defaultId: 0;
  cancelId: 0;
}

export function pendingQuitDialog(pending: number): QuitDialog {
  const changes = pending === 1 ? '1 change has' : `${pending} changes have`;
  return {
    type: 'warning',
    title: 'Changes not sent yet',
    message: `${changes} not reached the cloud yet.`,
    detail:
      'They are saved on this terminal and will be sent the next time it starts and is online. ' +
      'Until then the back office does not see them, and they are lost for good if this terminal is ' +
      'reset, reinstalled or its data folder is deleted before that.',
    buttons: ['Keep working', 'Quit anyway'],
    defaultId: 0,
    cancelId: 0,
  };
}

export interface QuitControllerDeps {
  pendingOperations: () => number;
  /** Shows the dialog; resolves true when the cashier chose to quit anyway. */
  confirm: (dialog: QuitDialog) => Promise<boolean>;
  shutdownCore: () => Promise<void>;
  /** Ends the process without another 'before-quit' (Electron's `app.exit`). */
  exit: (code: number) => void;
  logger: Logger;
  /** Longest wait for the core to finish; past it the process exits (SQLite rolls back an unfinished transaction). */
  shutdownTimeoutMs?: number;
}

export type QuitOutcome = 'exited' | 'kept-running' | 'already-quitting';

export interface QuitRequest {
  /** True when nobody can answer a dialog: OS logoff/shutdown, or a one-shot diagnostics export. */
  unattended?: boolean;
}

/**
 * Owns the app's 'before-quit': the shell always prevents Electron's default quit and calls `requestQuit`,
 * which asks if needed, shuts the core down and exits.
 */
export function createQuitController(deps: QuitControllerDeps): { requestQuit(request?: QuitRequest): Promise<QuitOutcome> } {
  let quitting = false;
  let asking = false;
  return {
    async requestQuit(request = {}) {
      if (quitting || asking) return 'already-quitting';
      const pending = deps.pendingOperations();
      if (pending > 0 && !request.unattended) {
        asking = true;
        let confirmed: boolean;
        try {
          confirmed = await deps.confirm(pendingQuitDialog(pending));
        } finally {
          asking = false;
        }
        if (!confirmed) {
          deps.logger.info({ pending }, 'quit cancelled: changes still waiting to sync');
          return 'kept-running';
        }
      }
      quitting = true;
      deps.logger.info({ pending, unattended: request.unattended === true }, 'quitting: shutting the core down');
      const timeoutMs = deps.shutdownTimeoutMs ?? 15_000;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timed-out'>((resolve) => {
        timer = setTimeout(() => resolve('timed-out'), timeoutMs);
      });
      let exitCode = 0;
      try {
        const result = await Promise.race([deps.shutdownCore().then(() => 'done' as const), timedOut]);
        if (result === 'timed-out') {
          deps.logger.error({ timeoutMs }, 'core did not shut down in time; exiting anyway');
          exitCode = 1;
        }
      } catch (error) {
        deps.logger.error({ err: error }, 'core shutdown failed; exiting anyway');
        exitCode = 1;
      } finally {
        clearTimeout(timer);
      }
      deps.exit(exitCode);
      return 'exited';
    },
  };
}
