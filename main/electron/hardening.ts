// Electron's security checklist, applied in one place: the cashier window's options and the handlers
// installed on its session and on every webContents the app ever creates. The parameters are the
// few members of Electron's Session/WebContents used here, so the checklist test drives these exact
// functions under plain Node.
import type { BrowserWindowConstructorOptions } from 'electron';
import type { Logger } from '../../common/log';
import { withSecurityHeaders } from './content-security-policy';
import { isNavigationAllowed, isPermissionGranted, WINDOW_OPEN_RESPONSE } from './navigation-policy';
import { APP_ORIGIN } from './app-origin';

export type DisplayMode = 'window' | 'kiosk';

export interface CashierWindowSettings {
  preloadPath: string;
  display: DisplayMode;
  /** Developer tools: on for unpackaged development builds only. */
  devTools: boolean;
}

export function cashierWindowOptions(settings: CashierWindowSettings): BrowserWindowConstructorOptions {
  const kiosk = settings.display === 'kiosk';
  return {
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 700,
    show: false, // shown on 'ready-to-show': no white flash on a till screen
    backgroundColor: '#ffffff',
    autoHideMenuBar: true,
    kiosk,
    fullscreen: kiosk,
    title: 'POS Terminal',
    webPreferences: {
      preload: settings.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      // Middle-click would open links through a path window.open's handler does not see.
      disableBlinkFeatures: 'Auxclick',
      devTools: settings.devTools,
    },
  };
}

type HeadersListener = (
  details: { url: string; responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders: Record<string, string[]> }) => void,
) => void;

/** The members of Electron's `Session` this module uses. */
export interface HardenableSession {
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler(handler: () => boolean): void;
  webRequest: { onHeadersReceived(listener: HeadersListener): void };
  on(event: 'will-download', listener: (event: { preventDefault(): void }, item: { getURL(): string }) => void): unknown;
}

/** A blob the app's own page made (blob:app://pos/<uuid>): an export the cashier asked for. */
export function isOwnExport(url: string): boolean {
  return url.startsWith(`blob:${APP_ORIGIN}/`);
}

/** Permissions, device access, downloads and response headers of the cashier session. */
export function hardenSession(session: HardenableSession, logger: Logger): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    const granted = isPermissionGranted(permission);
    if (!granted) logger.warn({ permission }, 'page permission request denied');
    callback(granted);
  });
  session.setPermissionCheckHandler((_contents, permission) => isPermissionGranted(permission));
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withSecurityHeaders(details.responseHeaders) });
  });
  session.on('will-download', (event, item) => {
    // The register's own exports (the Z report's CSV) are blobs made by our page: Electron asks
    // where to save them. Anything else is refused.
    if (isOwnExport(item.getURL())) return;
    logger.warn({ url: item.getURL() }, 'download from the page refused');
    event.preventDefault();
  });
}

type PreventableListener = (event: { preventDefault(): void }, url: string) => void;

/** The members of Electron's `WebContents` this module uses. */
export interface HardenableWebContents {
  on(event: 'will-navigate' | 'will-redirect', listener: PreventableListener): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => typeof WINDOW_OPEN_RESPONSE): void;
}

/** Applied to every webContents (app 'web-contents-created'): no navigation away, no popups, no webviews. */
export function hardenWebContents(contents: HardenableWebContents, logger: Logger): void {
  const guardNavigation: PreventableListener = (event, url) => {
    if (isNavigationAllowed(url)) return;
    logger.warn({ url }, 'navigation away from the terminal blocked');
    event.preventDefault();
  };
  contents.on('will-navigate', guardNavigation);
  contents.on('will-redirect', guardNavigation);
  contents.on('will-attach-webview', (event) => {
    logger.warn('webview attach blocked');
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    logger.warn({ url }, 'window.open blocked');
    return WINDOW_OPEN_RESPONSE;
  });
}
