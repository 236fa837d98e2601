// electron-updater wired to the update policy. The feed is the generic provider in electron-builder.yml
// (app-update.yml inside the package); signatures are checked by electron-updater before install
// (Windows: the installer's Authenticode publisher, macOS: the app's code signature).
import electronUpdater from 'electron-updater';
import type { Logger } from '../../common/log';
import { createUpdateController, type UpdateController, type UpdateStatus } from './update-policy';

const CHECK_EVERY_MS = 4 * 60 * 60 * 1000;
const QUIET_CHECK_EVERY_MS = 30 * 1000;
/** A till untouched this long, with an empty outbox, may restart into the new version. */
const QUIET_AFTER_MS = 5 * 60 * 1000;

export interface AutoUpdateDeps {
  pendingOperations: () => number;
  publish: (status: UpdateStatus) => void;
  logger: Logger;
}

export function startAutoUpdates(deps: AutoUpdateDeps): { controller: UpdateController; stop(): void } {
  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = {
    info: (message?: unknown) => deps.logger.info({ component: 'updater' }, String(message)),
    warn: (message?: unknown) => deps.logger.warn({ component: 'updater' }, String(message)),
    error: (message?: unknown) => deps.logger.error({ component: 'updater' }, String(message)),
  };
  autoUpdater.autoDownload = true; // downloading never disturbs the till
  autoUpdater.autoInstallOnAppQuit = false; // installing is the policy's call, never a side effect of quitting
  autoUpdater.allowDowngrade = false;
  autoUpdater.allowPrerelease = false;

  const controller = createUpdateController({
    pendingOperations: deps.pendingOperations,
    now: Date.now,
    quietAfterMs: QUIET_AFTER_MS,
    publish: deps.publish,
    // Silent install, then start the app again. quitAndInstall goes through app.quit, so the quit
    // controller still shuts the core down cleanly first.
    install: () => autoUpdater.quitAndInstall(true, true),
  });

  let offeredVersion = '';
  autoUpdater.on('checking-for-update', () => controller.onChecking());
  autoUpdater.on('update-not-available', () => controller.onNotAvailable());
  autoUpdater.on('update-available', (info) => {
    offeredVersion = info.version;
    controller.onProgress(info.version, 0);
  });
  autoUpdater.on('download-progress', (progress) => controller.onProgress(offeredVersion, progress.percent));
  autoUpdater.on('update-downloaded', (info) => controller.onDownloaded(info.version));
  autoUpdater.on('error', (error) => controller.onError(error.message));

  const check = (): void => {
    autoUpdater.checkForUpdates().catch((error: unknown) => deps.logger.warn({ err: error }, 'update check failed'));
  };
  check();
  const checkTimer = setInterval(check, CHECK_EVERY_MS);
  const quietTimer = setInterval(() => controller.tick(), QUIET_CHECK_EVERY_MS);
  return {
    controller,
    stop() {
      clearInterval(checkTimer);
      clearInterval(quietTimer);
    },
  };
}
