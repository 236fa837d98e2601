// Electron's security checklist (electronjs.org/docs/latest/tutorial/security), item by item, against the
// exact functions the shell applies. Electron itself cannot run here: the session and webContents are
// the thinnest stand-ins that record the handlers the shell installs, which are then called like Electron would.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log';
import { APP_ENTRY_URL, APP_ORIGIN, isAppUrl } from '../../main/electron/app-origin';
import { CONTENT_SECURITY_POLICY, withSecurityHeaders } from '../../main/electron/content-security-policy';
import { cashierWindowOptions, hardenSession, hardenWebContents, type HardenableSession, type HardenableWebContents } from '../../main/electron/hardening';
import { isTrustedSender } from '../../main/electron/ipc-sender';
import { isExternalUrlAllowed } from '../../main/electron/navigation-policy';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every permission name Electron 41 can ask the request and check handlers about. */
const ELECTRON_PERMISSIONS = [
  'clipboard-read', 'clipboard-sanitized-write', 'display-capture', 'fullscreen', 'geolocation', 'idle-detection', 'media',
  'mediaKeySystem', 'midi', 'midiSysex', 'notifications', 'pointerLock', 'keyboardLock', 'openExternal', 'speaker-selection',
  'storage-access', 'top-level-storage-access', 'window-management', 'unknown', 'fileSystem', 'hid', 'serial', 'usb',
  'deprecated-sync-clipboard-read',
];

type Handler = (...args: never[]) => unknown;

function recordingSession() {
  const handlers: Record<string, Handler> = {};
  const session: HardenableSession = {
    setPermissionRequestHandler: (h) => void (handlers.permissionRequest = h as Handler),
    setPermissionCheckHandler: (h) => void (handlers.permissionCheck = h as Handler),
    setDevicePermissionHandler: (h) => void (handlers.devicePermission = h as Handler),
    webRequest: { onHeadersReceived: (h) => void (handlers.headersReceived = h as Handler) },
    on: (event, h) => void (handlers[event] = h as Handler),
  };
  return { session, handlers };
}

function recordingWebContents() {
  const handlers: Record<string, Handler> = {};
  const contents: HardenableWebContents = {
    on: (event: string, h: Handler) => void (handlers[event] = h),
    setWindowOpenHandler: (h) => void (handlers.windowOpen = h as Handler),
  };
  return { contents, handlers };
}

function preventable() {
  const event = { prevented: false, preventDefault: () => void (event.prevented = true) };
  return event;
}

describe('the cashier window', () => {
  const options = cashierWindowOptions({ preloadPath: '/app/dist/preload.cjs', display: 'window', devTools: false });

  it('isolates the page: context isolation, sandbox, no Node, web security, no webview', () => {
    expect(options.webPreferences).toMatchObject({
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
      disableBlinkFeatures: 'Auxclick',
      devTools: false,
      preload: '/app/dist/preload.cjs',
    });
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(options.webPreferences).not.toHaveProperty('additionalArguments');
  });

  it('goes kiosk and fullscreen when the config asks, and only then', () => {
    expect(options).toMatchObject({ kiosk: false, fullscreen: false });
    expect(cashierWindowOptions({ preloadPath: 'p', display: 'kiosk', devTools: false })).toMatchObject({ kiosk: true, fullscreen: true });
  });

  it('loads our custom origin, not file://', () => {
    expect(APP_ENTRY_URL).toBe('app://terminal/index.html');
    expect(isAppUrl(APP_ENTRY_URL)).toBe(true);
    expect(isAppUrl('file:///app/dist/renderer/index.html')).toBe(false);
    expect(isAppUrl('app://terminal.evil.example/index.html')).toBe(false);
    expect(isAppUrl('app://user:pass@terminal/index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});

describe('the content security policy', () => {
  const directives = new Map(CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));

  it('allows only our own scripts and nothing inline or evaluated', () => {
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|\*|https?:|ws:/);
  });

  it('passes the CSP evaluator Electronegativity uses with nothing above "medium (maybe)"', () => {
    const require = createRequire(import.meta.url);
    const csp = require('@doyensec/csp-evaluator') as {
      CspParser: new (text: string) => { csp: unknown };
      CspEvaluator: new (policy: unknown, version: unknown) => { evaluate(): { severity: number; directive: string; description: string }[] };
      Version: { CSP3: unknown };
    };
    const findings = new csp.CspEvaluator(new csp.CspParser(CONTENT_SECURITY_POLICY).csp, csp.Version.CSP3).evaluate();
    // Google's scale: 10 high, 20 syntax, 30 medium, 40 high (maybe), 45 strict CSP, 50 medium (maybe), 60 info.
    // The only note left is the generic one on 'self' (JSONP on our own origin), which we do not serve.
    expect(findings.filter((f) => f.severity < 50)).toEqual([]);
    // And the evaluator does flag a weak policy, so the assertion above has teeth.
    expect(new csp.CspEvaluator(new csp.CspParser("script-src 'unsafe-inline'").csp, csp.Version.CSP3).evaluate().some((f) => f.severity < 50)).toBe(true);
  });

  it('is forced onto every response, replacing any policy a response brought', () => {
    const headers = withSecurityHeaders({ 'content-security-policy': ["default-src *"], 'Content-Security-Policy-Report-Only': ['x'], 'Content-Type': ['text/html'] });
    expect(headers).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
      'X-Content-Type-Options': ['nosniff'],
      'Cross-Origin-Opener-Policy': ['same-origin'],
      'Referrer-Policy': ['no-referrer'],
    });
    expect(withSecurityHeaders(undefined)['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
  });
});

describe('the session handlers', () => {
  const { session, handlers } = recordingSession();
  hardenSession(session, silentLogger);

  it('deny every permission request and check', () => {
    for (const permission of ELECTRON_PERMISSIONS) {
      let granted: boolean | undefined;
      (handlers.permissionRequest as (wc: unknown, p: string, cb: (g: boolean) => void) => void)({}, permission, (g) => (granted = g));
      expect(granted, permission).toBe(false);
      expect((handlers.permissionCheck as (wc: unknown, p: string) => boolean)(null, permission), permission).toBe(false);
    }
    expect((handlers.devicePermission as () => boolean)()).toBe(false);
  });

  it('put the CSP on responses and refuse downloads', () => {
    let response: { responseHeaders: Record<string, string[]> } | undefined;
    (handlers.headersReceived as (d: unknown, cb: (r: typeof response) => void) => void)({ url: APP_ENTRY_URL, responseHeaders: {} }, (r) => (response = r));
    expect(response?.responseHeaders['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    const download = preventable();
    (handlers['will-download'] as (e: unknown, item: { getURL(): string }) => void)(download, { getURL: () => 'https://example.com/x.exe' });
    expect(download.prevented).toBe(true);
    // A blob made by another origin is refused too; the page's own export (the Z report CSV) is saved.
    for (const [url, refused] of [[`blob:https://evil.example/1`, true], [`blob:${APP_ORIGIN}.evil/1`, true], [`blob:${APP_ORIGIN}/3f2a`, false]] as const) {
      const attempt = preventable();
      (handlers['will-download'] as (e: unknown, item: { getURL(): string }) => void)(attempt, { getURL: () => url });
      expect(attempt.prevented, url).toBe(refused);
    }
  });
});

describe('every webContents', () => {
  const { contents, handlers } = recordingWebContents();
  hardenWebContents(contents, silentLogger);

  it('cannot navigate or be redirected away from our origin', () => {
    for (const event of ['will-navigate', 'will-redirect']) {
      const listener = handlers[event] as (e: ReturnType<typeof preventable>, url: string) => void;
      for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://other/index.html', 'javascript:alert(1)', 'data:text/html,x']) {
        const e = preventable();
        listener(e, url);
        expect(e.prevented, `${event} ${url}`).toBe(true);
      }
      const same = preventable();
      listener(same, 'app://terminal/index.html#/orders');
      expect(same.prevented).toBe(false);
    }
  });

  it('cannot open windows or attach webviews', () => {
    expect((handlers.windowOpen as (d: { url: string }) => unknown)({ url: 'app://terminal/index.html' })).toEqual({ action: 'deny' });
    expect((handlers.windowOpen as (d: { url: string }) => unknown)({ url: 'https://evil.example' })).toEqual({ action: 'deny' });
    const attach = preventable();
    (handlers['will-attach-webview'] as (e: unknown) => void)(attach);
    expect(attach.prevented).toBe(true);
  });
});

describe('shell.openExternal (the OAuth consent page)', () => {
  it('opens web pages only: https anywhere, http on this machine', () => {
    expect(isExternalUrlAllowed('https://dashboard.example.com/oauth/authorize?client_id=a&scope=read_orders+write_orders')).toBe(true);
    expect(isExternalUrlAllowed('http://127.0.0.1:4010/oauth/authorize')).toBe(true);
    expect(isExternalUrlAllowed('http://localhost:4010/oauth/authorize')).toBe(true);
    for (const url of ['http://dashboard.example.com/', 'file:///C:/Windows/System32/calc.exe', 'smb://host/share', 'ms-msdt:/id', 'javascript:alert(1)', 'https://user:pw@example.com/', 'not a url']) {
      expect(isExternalUrlAllowed(url), url).toBe(false);
    }
  });
});

describe('IPC senders', () => {
  const ours = { webContentsId: 7, frameUrl: 'app://terminal/index.html', isMainFrame: true };

  it('only the main frame of our window, on our origin, is trusted', () => {
    expect(isTrustedSender(ours, 7)).toBe(true);
    expect(isTrustedSender({ ...ours, webContentsId: 8 }, 7)).toBe(false);
    expect(isTrustedSender({ ...ours, isMainFrame: false }, 7)).toBe(false);
    expect(isTrustedSender({ ...ours, frameUrl: 'https://evil.example/' }, 7)).toBe(false);
    expect(isTrustedSender({ ...ours, frameUrl: 'file:///app/dist/renderer/index.html' }, 7)).toBe(false);
    expect(isTrustedSender({ ...ours, frameUrl: undefined }, 7)).toBe(false);
    expect(isTrustedSender(ours, undefined)).toBe(false);
  });
});

describe('the shell wiring', () => {
  // The wiring cannot run without Electron; this keeps its uses of the checked functions from being dropped.
  const shell = readFileSync(join(ROOT, 'main/electron/shell.ts'), 'utf8');

  it('applies every checked piece', () => {
    for (const call of [
      'protocol.registerSchemesAsPrivileged(',
      'app.requestSingleInstanceLock()',
      "app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, logger))",
      'hardenSession(session.defaultSession, logger)',
      'protocol.handle(APP_SCHEME, createAppProtocolHandler(RENDERER_DIR))',
      'new BrowserWindow(\n      cashierWindowOptions(',
      'isTrusted: (sender) => isTrustedSender(sender, trustedWindowId)',
      'ipcMain.handle(BRIDGE_INVOKE_CHANNEL, (event, payload: unknown) => invoke(senderFacts(event), payload))',
      'void window.loadURL(APP_ENTRY_URL)',
      'if (!isExternalUrlAllowed(url)) throw',
    ]) {
      expect(shell, call).toContain(call);
    }
    expect(shell).not.toMatch(/loadFile\(|file:\/\/|nodeIntegration: true|contextIsolation: false|sandbox: false/);
  });
});
