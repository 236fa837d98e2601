// When a downloaded update may be installed. Installing restarts the app, and the field's lesson
// (Square's SDK, Clover) is to never upgrade with an unsent queue: a migration or a reinstall must not
// meet pending changes. So an update downloads whenever one is offered, and installs only at a quiet
// moment: the outbox is empty and nobody has touched the till for a while. Until then the cashier sees why.
import type { EventName, UpdateStatus } from '../../bridge/contract';

export type { UpdateStatus };
export const UPDATE_STATUS_EVENT: EventName = 'update.status';

export interface QuietFacts {
  pendingOperations: number;
  msSinceActivity: number;
  quietAfterMs: number;
}

export type InstallDecision = { install: true } | { install: false; reason: 'outbox-pending' | 'cashier-active' };

export function installDecision(facts: QuietFacts): InstallDecision {
  if (facts.pendingOperations > 0) return { install: false, reason: 'outbox-pending' };
  if (facts.msSinceActivity < facts.quietAfterMs) return { install: false, reason: 'cashier-active' };
  return { install: true };
}

export function waitingMessage(version: string, decision: Exclude<InstallDecision, { install: true }>, pending: number): string {
  if (decision.reason === 'outbox-pending') {
    const changes = pending === 1 ? '1 change' : `${pending} changes`;
    return `Update ${version} is ready. It installs after ${changes} reach the cloud, so nothing waits through the restart.`;
  }
  return `Update ${version} is ready. It installs when the till has been idle for a few minutes.`;
}

export interface UpdateControllerDeps {
  pendingOperations: () => number;
  now: () => number;
  /** Idle time before an install may restart the app. */
  quietAfterMs: number;
  publish: (status: UpdateStatus) => void;
  /** Restarts into the new version (electron-updater `quitAndInstall`). */
  install: () => void;
}

/**
 * Turns updater events and the cashier's activity into status for the screen and, at a quiet moment,
 * one install. The shell forwards electron-updater's events here and calls `tick` on a timer.
 */
export function createUpdateController(deps: UpdateControllerDeps) {
  let lastActivity = deps.now();
  let status: UpdateStatus = { phase: 'idle', version: null, percent: null, message: 'Up to date.' };
  const set = (next: UpdateStatus): void => {
    status = next;
    deps.publish(next);
  };

  const controller = {
    status: (): UpdateStatus => status,
    onActivity(): void {
      lastActivity = deps.now();
    },
    onChecking(): void {
      if (status.phase === 'waiting' || status.phase === 'installing') return;
      set({ phase: 'checking', version: null, percent: null, message: 'Checking for updates…' });
    },
    onNotAvailable(): void {
      if (status.phase === 'waiting' || status.phase === 'installing') return;
      set({ phase: 'idle', version: null, percent: null, message: 'Up to date.' });
    },
    onProgress(version: string, percent: number): void {
      const rounded = Math.min(100, Math.max(0, Math.round(percent)));
      set({ phase: 'downloading', version, percent: rounded, message: `Downloading update ${version} (${rounded}%). Keep working.` });
    },
    onDownloaded(version: string): void {
      set({ phase: 'waiting', version, percent: null, message: `Update ${version} is ready.` });
      controller.tick();
    },
    onError(message: string): void {
      // A failed check or download changes nothing on the till; the next check retries.
      if (status.phase === 'waiting' || status.phase === 'installing') return;
      set({ phase: 'error', version: status.version, percent: null, message: `Update failed: ${message}. The terminal keeps working and retries later.` });
    },
    /** Installs if an update waits and the till is quiet; otherwise says what it waits for. */
    tick(): void {
      if (status.phase !== 'waiting' || status.version === null) return;
      const pending = deps.pendingOperations();
      const decision = installDecision({ pendingOperations: pending, msSinceActivity: deps.now() - lastActivity, quietAfterMs: deps.quietAfterMs });
      if (decision.install) {
        set({ phase: 'installing', version: status.version, percent: null, message: `Installing update ${status.version}; the terminal restarts in a moment.` });
        deps.install();
        return;
      }
      const message = waitingMessage(status.version, decision, pending);
      if (message !== status.message) set({ ...status, message });
    },
  };
  return controller;
}
export type UpdateController = ReturnType<typeof createUpdateController>;

/**
 * Who installs new versions on this machine. The per-user NSIS install, the AppImage and the macOS app
 * update themselves from the feed. A per-machine install (the MSI deployed by Group Policy/Intune, under
 * Program Files) and the deb (apt) are IT's to upgrade: self-updating them would need admin rights the
 * till's user does not have, or would fork a second per-user copy.
 */
export type UpdateDelivery = 'self-update' | 'managed-by-it';

export function updateDelivery(platform: NodeJS.Platform, execPath: string, env: Readonly<Record<string, string | undefined>>): UpdateDelivery {
  if (platform === 'win32') {
    const exe = execPath.toLowerCase().replaceAll('/', '\\');
    const machineWide = [env.ProgramFiles, env['ProgramFiles(x86)'], env.ProgramW6432]
      .filter((dir): dir is string => dir !== undefined && dir !== '')
      .some((dir) => exe.startsWith(`${dir.toLowerCase().replaceAll('/', '\\').replace(/\\$/, '')}\\`));
    return machineWide ? 'managed-by-it' : 'self-update';
  }
  if (platform === 'linux') return env.APPIMAGE ? 'self-update' : 'managed-by-it';
  return 'self-update';
}
