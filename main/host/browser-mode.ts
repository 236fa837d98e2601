// Browser mode: the core, (by default) an embedded sandbox, and the renderer on loopback HTTP.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../common/log';
import type { Sandbox } from '../../sandbox/index';
import { FileSecretStore, type SecretStore } from '../../sync/secret-store';
import type { BridgeEvent, BridgeHost, BridgeRequest, BridgeResponse } from '../../bridge/protocol';
import type { TerminalConfig } from '../config/schema';
import type { Core, CoreDeps } from '../core/index';
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
  /** Called as soon as the page can be opened, before the core is ready (it answers once it is). */
  onListening?: (host: BrowserHost) => void;
}

/** A BridgeHost for a core still starting: calls wait for it, subscriptions attach when it is up. */
function deferredHost(ready: Promise<Core>): BridgeHost {
  return {
    async invoke(request: BridgeRequest): Promise<BridgeResponse> {
      let core: Core;
      try {
        core = await ready;
      } catch {
        return { ok: false, error: { code: 'unavailable', message: 'The terminal could not start. Look at the terminal window for the reason.' } };
      }
      return core.invoke(request);
    },
    subscribe(listener: (event: BridgeEvent) => void) {
      let unsubscribe: (() => void) | null = null;
      let cancelled = false;
      ready.then(
        (core) => {
          if (!cancelled) unsubscribe = core.subscribe(listener);
        },
        () => undefined,
      );
      return () => {
        cancelled = true;
        unsubscribe?.();
      };
    },
  };
}

/**
 * With no API configured, starts the sandbox with the demo seed (its data kept in the data
 * directory) and points the terminal at it, with the seeded API key and OAuth client in the
 * secret store: a newcomer gets a working terminal from one command.
 */
async function embedSandbox(config: TerminalConfig, secrets: SecretStore, logger: Logger): Promise<{ config: TerminalConfig; sandbox: Sandbox }> {
  // Evaluated only when used (bundled, its code is in the file): a configured terminal does not start the sandbox.
  const { startSandbox } = await import('../../sandbox/index');
  const sandbox = await startSandbox({ seed: 'demo', taxes: 'demo', dbFile: join(config.dataDir, 'sandbox.db'), logger: logger.child({ component: 'sandbox' }) });
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
  const embedded: { sandbox: Sandbox | null } = { sandbox: null };
  // The core's module graph and store load while the browser loads the page: the two overlap
  // instead of adding up, which is most of a cold start.
  const coreReady = (async () => {
    let config = options.config;
    if (config.api.baseUrl === '') ({ config, sandbox: embedded.sandbox } = await embedSandbox(config, secretStore, logger));
    const { startCore } = await import('../core/index');
    return startCore(config, { ...options.coreDeps, secretStore, logger });
  })();
  // Awaited below, after the renderer bundle (a rebuild takes a second or two): a store that fails
  // to open before then must not count as an unhandled rejection, which would end the process
  // with a stack trace instead of "The terminal could not start: …".
  coreReady.catch(() => undefined);
  let host: BrowserHost;
  try {
    host = await startBrowserHost({
      host: deferredHost(coreReady),
      rendererDir: await bundle,
      port: options.config.browserMode.port,
      logger,
      ...(options.token ? { token: options.token } : {}),
    });
  } catch (error) {
    await coreReady.then((core) => core.shutdown(), () => undefined);
    await embedded.sandbox?.close();
    throw error;
  }
  options.onListening?.(host);
  let core: Core;
  try {
    core = await coreReady;
  } catch (error) {
    await host.close();
    await embedded.sandbox?.close();
    throw error;
  }
  return {
    core,
    host,
    sandbox: embedded.sandbox,
    async close() {
      await host.close();
      await core.shutdown();
      await embedded.sandbox?.close();
    },
  };
}
