// Browser mode: the core, (by default) an embedded sandbox, and the renderer on loopback HTTP.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../common/log';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { FileSecretStore, type SecretStore } from '../../sync/secret-store';
import type { TerminalConfig } from '../config/schema';
import { startCore, type Core, type CoreDeps } from '../core/index';
import { startBrowserHost, type BrowserHost } from './http-bridge';
import { ensureRendererBundle } from './renderer-bundle';

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface BrowserMode {
  core: Core;
  host: BrowserHost;
  /** The embedded sandbox when the configuration names no API. */
  sandbox: Sandbox | null;
  close(): Promise<void>;
}

export interface BrowserModeOptions {
  config: TerminalConfig;
  logger: Logger;
  secretStore?: SecretStore;
  /** Fixed token (tests); random per launch otherwise. */
  token?: string;
  coreDeps?: Omit<CoreDeps, 'secretStore' | 'logger'>;
}

/**
 * With no API configured, starts the sandbox with the demo seed (its data kept in the data
 * directory) and points the terminal at it, with the seeded API key and OAuth client in the
 * secret store: a newcomer gets a working terminal from one command.
 */
async function embedSandbox(config: TerminalConfig, secrets: SecretStore, logger: Logger): Promise<{ config: TerminalConfig; sandbox: Sandbox }> {
  const sandbox = await startSandbox({ seed: 'demo', dbFile: join(config.dataDir, 'sandbox.db'), logger: logger.child({ component: 'sandbox' }) });
  const withSandbox: TerminalConfig = {
    ...config,
    api: { baseUrl: sandbox.baseUrl, apiHost: sandbox.apiHost, authUrl: sandbox.authUrl },
    credentials: { ...config.credentials, oauthClientId: config.credentials.oauthClientId || sandbox.credentials.oauthClient.clientId },
  };
  if (!(await secrets.get(config.credentials.apiKeyRef))) {
    await secrets.setMany({ [config.credentials.apiKeyRef]: sandbox.credentials.apiKeys.full });
  }
  if (!(await secrets.get(config.credentials.oauthClientSecretRef))) {
    await secrets.setMany({ [config.credentials.oauthClientSecretRef]: sandbox.credentials.oauthClient.clientSecret });
  }
  logger.info({ baseUrl: sandbox.baseUrl, dashboard: sandbox.dashboardUrl }, 'embedded sandbox started (demo data)');
  return { config: withSandbox, sandbox };
}

export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const { logger } = options;
  mkdirSync(options.config.dataDir, { recursive: true, mode: 0o700 });
  const secretStore = options.secretStore ?? new FileSecretStore(join(options.config.dataDir, 'secrets.json'));
  const bundle = ensureRendererBundle(PROJECT_ROOT, logger);
  let config = options.config;
  let sandbox: Sandbox | null = null;
  if (config.api.baseUrl === '') ({ config, sandbox } = await embedSandbox(config, secretStore, logger));
  let core: Core;
  try {
    core = await startCore(config, { ...options.coreDeps, secretStore, logger });
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
  const host = await startBrowserHost({
    host: core,
    rendererDir: await bundle,
    port: config.browserMode.port,
    logger,
    ...(options.token ? { token: options.token } : {}),
  });
  return {
    core,
    host,
    sandbox,
    async close() {
      await host.close();
      await core.shutdown();
      await sandbox?.close();
    },
  };
}
