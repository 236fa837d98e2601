// The Electron main process: the only file that wires Electron's objects together. Every decision it
// applies (window options, CSP, navigation, permissions, IPC sender and payload checks, protocol paths,
// quitting, updating, diagnostics) lives in a pure module next to it and is tested under plain Node.
import { arch, release, type as osType } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, powerMonitor, protocol, safeStorage, session, shell, type IpcMainInvokeEvent } from 'electron';
import { createLogger, createRotatingLogFile, type Logger } from '../../common/log';
import type { BridgeEvent } from '../../bridge/protocol';
import { BRIDGE_EVENT_CHANNEL, BRIDGE_INVOKE_CHANNEL } from '../../bridge/transport';
import type { SecretStore } from '../../sync/secret-store';
import { loadConfig, type LoadedConfig, type TerminalConfig } from '../config';
import { writeDiagnosticsBundle } from '../diagnostics/bundle';
import { APP_ENTRY_URL, APP_SCHEME } from './app-origin';
import { createAppProtocolHandler } from './app-protocol';
import { startAutoUpdates } from './auto-update';
import { createBridgeInvokeHandler } from './bridge-invoke';
import { cashierWindowOptions, hardenSession, hardenWebContents } from './hardening';
import { isExternalUrlAllowed } from './navigation-policy';
import { isTrustedSender, type IpcSenderFacts } from './ipc-sender';
import { createQuitController } from './quit-controller';
import { SafeStorageSecretStore, secretProtection } from './safe-storage-secret-store';
import { parseShellArguments } from './shell-arguments';
import type { ShellCore } from './shell-core';
import { UPDATE_STATUS_EVENT, updateDelivery, type UpdateStatus } from './update-policy';

export interface ShellCoreDeps {
  secretStore: SecretStore;
  logger: Logger;
  /** Opens the OAuth consent page in the system browser. */
  openExternal: (url: string) => Promise<void>;
}
export type StartCore = (config: TerminalConfig, deps: ShellCoreDeps) => Promise<ShellCore>;

/** Bundle layout (build/bundle-electron.ts): dist/main/electron.js, dist/preload.cjs, dist/renderer/. */
const BUNDLE_DIR = dirname(fileURLToPath(import.meta.url));
const PRELOAD_PATH = join(BUNDLE_DIR, '..', 'preload.cjs');
const RENDERER_DIR = join(BUNDLE_DIR, '..', 'renderer');
/** Not the browser-mode secrets file: this one holds safeStorage ciphertext, never plain values. */
const SECRETS_FILE = 'secrets.safe-storage.json';

function senderFacts(event: IpcMainInvokeEvent): IpcSenderFacts {
  const frame = event.senderFrame;
  return {
    webContentsId: event.sender.id,
    frameUrl: frame?.url,
    isMainFrame: frame !== null && frame === event.sender.mainFrame && frame.parent === null,
  };
}

function fail(title: string, error: unknown, logger?: Logger): void {
  logger?.fatal({ err: error }, title);
  void app.whenReady().then(() => {
    dialog.showErrorBox(title, error instanceof Error ? error.message : String(error));
    app.exit(1);
  });
}

export function startElectronShell(startCore: StartCore): void {
  // Before 'ready', as Electron requires: our scheme behaves like https (origin, CSP 'self', secure context).
  // corsEnabled stays off: the page's own modules load same-origin, and nothing else may read app:// content.
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

  // One terminal app per user session: a second launch hands its arguments to the first and leaves.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }

  let loaded: LoadedConfig;
  let exportDiagnosticsTo: string | null;
  try {
    const args = parseShellArguments(process.argv, process.defaultApp === true);
    exportDiagnosticsTo = args.exportDiagnosticsTo;
    loaded = loadConfig({ argv: args.configArgs });
  } catch (error) {
    fail('The terminal cannot start: configuration error', error);
    return;
  }
  const { config } = loaded;
  // Everything the app keeps for this user lives under one folder IT can find, back up or wipe:
  // the store, the encrypted secrets, the logs and Chromium's own profile (.updaterId included).
  app.setPath('userData', join(config.dataDir, 'electron'));
  const logDirectory = join(config.dataDir, 'logs');
  const logFile = createRotatingLogFile({ directory: logDirectory, maxFileBytes: 10 * 1024 * 1024, maxFiles: 5 });
  const logger = createLogger({ destination: logFile.destination, name: 'pos-terminal' });
  logger.info({ version: app.getVersion(), electron: process.versions.electron, origins: loaded.origins }, 'terminal starting');

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, logger));

  let core: ShellCore | undefined;
  let cashierWindow: BrowserWindow | undefined;
  let exiting = false;
  let updates: ReturnType<typeof startAutoUpdates> | undefined;

  const sendToPage = (event: BridgeEvent): void => {
    if (cashierWindow && !cashierWindow.isDestroyed()) cashierWindow.webContents.send(BRIDGE_EVENT_CHANNEL, event);
  };

  const quit = createQuitController({
    pendingOperations: () => core?.pendingOperations() ?? 0,
    confirm: async (options) => {
      const parent = cashierWindow && !cashierWindow.isDestroyed() ? cashierWindow : undefined;
      const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
      return response === 1;
    },
    shutdownCore: async () => {
      updates?.stop();
      await core?.shutdown();
    },
    exit: (code) => {
      exiting = true;
      void logFile.close().finally(() => app.exit(code));
    },
    logger,
  });

  const exportDiagnostics = async (file: string): Promise<void> => {
    const syncStatus = core ? await core.invoke({ command: 'sync.status', payload: {} }) : { ok: false, error: 'core not started' };
    const written = await writeDiagnosticsBundle(
      {
        logDirectory,
        versions: { app: app.getVersion(), electron: process.versions.electron, chrome: process.versions.chrome, node: process.versions.node, os: `${osType()} ${release()} ${arch()}` },
        config: { values: config, origins: loaded.origins, files: loaded.files },
        syncStatus,
        facts: {
          packaged: app.isPackaged,
          pendingOperations: core?.pendingOperations() ?? null,
          secretProtection: secretProtection(process.platform, process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined),
          update: updates?.controller.status() ?? 'no self-update on this install (development build, MSI or deb: IT deploys versions)',
          userData: app.getPath('userData'),
        },
      },
      file,
    );
    logger.info(written, 'diagnostics exported');
  };

  app.on('second-instance', (_event, argv, workingDirectory) => {
    let target: string | null;
    try {
      target = parseShellArguments(argv, process.defaultApp === true).exportDiagnosticsTo;
    } catch (error) {
      logger.warn({ err: error }, 'second launch had bad arguments');
      return;
    }
    if (target !== null) {
      exportDiagnostics(resolve(workingDirectory, target)).catch((error: unknown) => logger.error({ err: error }, 'diagnostics export failed'));
      return;
    }
    if (cashierWindow && !cashierWindow.isDestroyed()) {
      if (cashierWindow.isMinimized()) cashierWindow.restore();
      cashierWindow.focus();
    }
  });

  app.on('before-quit', (event) => {
    // Until the core runs there is nothing to finish; afterwards every quit goes through the controller.
    if (!core || exiting) return;
    event.preventDefault();
    void quit.requestQuit();
  });
  app.on('window-all-closed', () => app.quit());

  const createCashierWindow = (): BrowserWindow => {
    const window = new BrowserWindow(
      cashierWindowOptions({ preloadPath: PRELOAD_PATH, display: config.kioskMode ? 'kiosk' : 'window', devTools: !app.isPackaged }),
    );
    window.once('ready-to-show', () => window.show());
    window.on('close', (event) => {
      if (exiting) return;
      event.preventDefault();
      void quit.requestQuit();
    });
    // Windows logoff/shutdown: nobody can answer a dialog, and the OS will not wait long.
    window.on('session-end', () => void quit.requestQuit({ unattended: true }));
    window.webContents.on('render-process-gone', (_event, details) => {
      logger.error({ reason: details.reason, exitCode: details.exitCode }, 'cashier page crashed; reloading');
      if (!window.isDestroyed()) window.loadURL(APP_ENTRY_URL).catch((error: unknown) => logger.error({ err: error }, 'reload failed'));
    });
    void window.loadURL(APP_ENTRY_URL);
    return window;
  };

  app
    .whenReady()
    .then(async () => {
      hardenSession(session.defaultSession, logger);
      // macOS/Linux logout or shutdown (Windows: the window's 'session-end'). Committed orders are durable
      // either way; this lets the transaction in flight finish while the OS waits.
      powerMonitor.on('shutdown', () => void quit.requestQuit({ unattended: true }));
      protocol.handle(APP_SCHEME, createAppProtocolHandler(RENDERER_DIR));

      const protection = secretProtection(process.platform, process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined);
      if (protection === 'obfuscated-only') logger.warn('no OS keyring available: stored credentials are obfuscated, not encrypted (install gnome-keyring or kwallet)');
      const secretStore = new SafeStorageSecretStore(join(config.dataDir, SECRETS_FILE), safeStorage, logger);
      const openExternal = async (url: string): Promise<void> => {
        if (!isExternalUrlAllowed(url)) throw new Error('refusing to open a link that is not a web page');
        await shell.openExternal(url);
      };
      core = await startCore(config, { secretStore, logger, openExternal });

      if (exportDiagnosticsTo !== null) {
        // IT's one-shot export on a terminal that was not running: no window, write, leave.
        await exportDiagnostics(resolve(exportDiagnosticsTo));
        await quit.requestQuit({ unattended: true });
        return;
      }

      cashierWindow = createCashierWindow();
      const trustedWindowId = cashierWindow.webContents.id;
      const invoke = createBridgeInvokeHandler({
        host: core,
        isTrusted: (sender) => isTrustedSender(sender, trustedWindowId),
        logger,
        onActivity: () => updates?.controller.onActivity(),
      });
      ipcMain.handle(BRIDGE_INVOKE_CHANNEL, (event, payload: unknown) => invoke(senderFacts(event), payload));
      core.subscribe(sendToPage);

      const delivery = app.isPackaged ? updateDelivery(process.platform, process.execPath, process.env) : 'development build';
      logger.info({ delivery }, 'update delivery');
      if (delivery === 'self-update') {
        updates = startAutoUpdates({
          pendingOperations: () => core?.pendingOperations() ?? 0,
          publish: (status: UpdateStatus) => sendToPage({ event: UPDATE_STATUS_EVENT, payload: status }),
          logger,
        });
      }
    })
    .catch((error: unknown) => fail('The terminal could not start', error, logger));
}
