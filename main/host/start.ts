// `npm start`: the Electron app where its binary is installed, else browser mode on loopback.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createLogger } from '../../common/log';
import { ConfigError, loadConfig } from '../config/load';
import { PROJECT_ROOT, startBrowserMode } from './browser-mode';

const logger = createLogger({ name: 'terminal' });

/** The Electron binary's path, or why there is none. */
function electronBinary(): { path: string } | { missing: string } {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { missing: `the electron package points at ${String(path)}, which does not exist` };
  } catch (error) {
    return { missing: (error as Error).message.split('\n')[0] ?? 'electron is not installed' };
  }
}

function runElectron(binary: string): void {
  const app = join(PROJECT_ROOT, 'dist', 'main', 'electron.js');
  if (!existsSync(app)) {
    console.error(`Electron is installed but the app is not built (${app} is missing). Build it, or run browser mode with POS_BROWSER_MODE=1.`);
    process.exitCode = 1;
    return;
  }
  const child = spawn(binary, [PROJECT_ROOT, ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code) => (process.exitCode = code ?? 1));
}

/** Best effort: a kiosk or a desktop with a browser opens the register; a headless box just prints it. */
function openSystemBrowser(url: string): void {
  const [command, args] =
    process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : process.platform === 'darwin' ? ['open', [url]] : ['xdg-open', [url]];
  const opener = spawn(command, args as string[], { stdio: 'ignore', detached: true });
  opener.on('error', (error) => logger.warn({ err: error }, 'could not open the system browser; open the printed link by hand'));
  opener.unref();
}

async function runBrowserMode(): Promise<void> {
  let loaded;
  try {
    loaded = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
  const config = loaded.config;
  let mode;
  try {
    mode = await startBrowserMode({
      config,
      logger,
      onListening(host) {
        process.stderr.write(`\nPOS terminal (browser mode) is starting.\n  Open: ${host.launchUrl}\n  Data: ${config.dataDir}\n  Press Ctrl+C to quit.\n\n`);
        if (config.browserMode.openBrowser) openSystemBrowser(host.launchUrl);
      },
    });
  } catch (error) {
    console.error(`The terminal could not start: ${(error as Error).message}`);
    process.exitCode = 1;
    return;
  }
  process.stderr.write(`POS terminal is ready.${mode.sandbox ? ` Sandbox dashboard: ${mode.sandbox.dashboardUrl}` : ''}\n`);

  let warned = false;
  const quit = () => {
    const pending = mode.core.pendingOperations();
    if (pending > 0 && !warned) {
      warned = true;
      process.stderr.write(
        `\n${pending} ${pending === 1 ? 'change has' : 'changes have'} not reached the cloud yet. They are saved on this terminal and will be sent the next time it runs.\nPress Ctrl+C again to quit anyway.\n`,
      );
      return;
    }
    mode.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', quit);
  process.on('SIGTERM', () => {
    warned = true;
    quit();
  });
}

const electron = process.env.POS_BROWSER_MODE === '1' ? { missing: 'POS_BROWSER_MODE=1' } : electronBinary();
if ('path' in electron) {
  runElectron(electron.path);
} else {
  process.stderr.write(`Electron is not available here (${electron.missing}); starting browser mode.\n`);
  await runBrowserMode();
}
