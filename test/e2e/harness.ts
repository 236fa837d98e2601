// One terminal in browser mode against its own sandbox, and one Chromium for every case.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { silentLogger } from '../../common/log';
import { TerminalConfig } from '../../main/config/schema';
import { startBrowserMode, type BrowserMode } from '../../main/host/browser-mode';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index';
import { createSyncEngine } from '../../sync/engine';
import { FileSecretStore } from '../../sync/secret-store';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface Terminal {
  sandbox: Sandbox;
  mode: BrowserMode;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Quick pushes and a quick return after an outage, so those cases take seconds. Pulls keep their
 * minute: the dead-letter case relies on the terminal not having pulled a server-side deletion.
 */
const FAST_PUSH = { timers: { pushIntervalMs: 300, localWriteDelayMs: 10 }, tuning: { offlineBackoff: { baseMs: 200, capMs: 800 } } };

export async function startTerminal(
  options: { config?: Partial<TerminalConfig>; apiKey?: (sandbox: Sandbox) => string | null; sandbox?: SandboxOptions; prepareSandbox?: (sandbox: Sandbox) => Promise<void> } = {},
): Promise<Terminal> {
  const sandbox = await startSandbox({ seed: 'demo', ...options.sandbox });
  await options.prepareSandbox?.(sandbox);
  const dataDir = mkdtempSync(join(tmpdir(), 'pos-e2e-'));
  const secretStore = new FileSecretStore(join(dataDir, 'secrets.json'));
  const apiKey = options.apiKey ? options.apiKey(sandbox) : sandbox.credentials.apiKeys.full;
  await secretStore.setMany({ api_key: apiKey, oauth_client_secret: sandbox.credentials.oauthClient.clientSecret });
  const config = TerminalConfig.parse({
    dataDir,
    api: { baseUrl: sandbox.baseUrl, apiHost: sandbox.apiHost, authUrl: sandbox.authUrl },
    credentials: { method: 'api_key', oauthClientId: sandbox.credentials.oauthClient.clientId },
    locationId: sandbox.credentials.locationIds[0],
    ...options.config,
  });
  const mode = await startBrowserMode({
    config,
    logger: silentLogger,
    secretStore,
    coreDeps: { createEngine: (engineOptions) => createSyncEngine({ ...engineOptions, ...FAST_PUSH, tuning: { ...engineOptions.tuning, ...FAST_PUSH.tuning } }) },
  });
  return {
    sandbox,
    mode,
    dataDir,
    async close() {
      await mode.close();
      await sandbox.close();
    },
  };
}

/**
 * The register page, with every console error and uncaught exception it produces from its first
 * load (CSP violations land here), in `errors` when given (a list several pages share).
 */
export async function openRegister(
  browser: Browser,
  terminal: Terminal,
  { viewport = { width: 1366, height: 850 }, hasTouch, errors = [] }: { viewport?: { width: number; height: number }; hasTouch?: boolean; errors?: string[] } = {},
): Promise<{ page: Page; errors: string[] }> {
  // A context of its own: axe needs one, and the OAuth consent tab opens in it.
  const context = await browser.newContext(hasTouch === undefined ? { viewport } : { viewport, hasTouch });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(terminal.mode.host.launchUrl);
  await page.locator('.menu-grid .tile').first().waitFor();
  return { page, errors };
}
