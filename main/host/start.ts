// `npm start`: the Electron app where its binary is installed, else browser mode on loopback.
// The console is for people: the start banner, warnings that need an answer and a goodbye line.
// Log lines go to the log file (console-log.ts), and to the console too only with --verbose.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../common/log';
import { MACHINE_PROBLEM_WORDS, machineProblemOf, type MachineProblem } from '../../common/machine-problem';
import { ConfigError, loadConfig } from '../config/load';
import { PROJECT_ROOT, startBrowserMode } from './browser-mode';
import { openHostLog, type HostLog } from './console-log';
import { findElectronBinary } from './electron-binary';

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
function openSystemBrowser(url: string, logger: Logger): void {
  const [command, args] =
    process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : process.platform === 'darwin' ? ['open', [url]] : ['xdg-open', [url]];
  const opener = spawn(command, args as string[], { stdio: 'ignore', detached: true });
  opener.on('error', (error) => logger.warn({ err: error }, 'could not open the system browser; open the printed link by hand'));
  opener.unref();
}

/**
 * How the process stops. Registered before anything starts, so a signal during start-up (the
 * launch link is printed before the core is ready) is handled rather than killing the process
 * with the default action: it is remembered and acted on once the terminal can close cleanly.
 *
 * SIGINT is a person at the keyboard: with changes still waiting to sync, the first one warns and
 * a second quits. SIGTERM is a service manager or the OS shutting down: nobody can answer a
 * warning, so it closes at once and gracefully (the command in progress finishes, sync stops, the
 * store closes; waiting changes stay in the store and go next time).
 */
function handleStopSignals(log: HostLog): { ready(close: StopTarget | null): void } {
  let target: StopTarget | null = null;
  let requested: 'SIGINT' | 'SIGTERM' | null = null;
  let warned = false;
  let closing = false;

  const close = (current: StopTarget) => {
    closing = true;
    current.close().then(
      async () => {
        process.stderr.write(`\n${goodbye(current.pendingOperations())}\n`);
        await log.close();
        process.exit(0);
      },
      async (error: unknown) => {
        log.logger.error({ err: error }, 'shutdown failed');
        process.stderr.write(`\nThe terminal did not stop cleanly: ${(error as Error).message}. Details are in ${log.file}.\n`);
        await log.close();
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    if (closing) return;
    if (!target) {
      requested = signal; // still starting: acted on in ready()
      return;
    }
    const pending = target.pendingOperations();
    if (signal === 'SIGINT' && pending > 0 && !warned) {
      warned = true;
      process.stderr.write(
        `\n${pending} ${pending === 1 ? 'change has' : 'changes have'} not reached the cloud yet. They are saved on this terminal and will be sent the next time it runs.\nPress Ctrl+C again to quit anyway.\n`,
      );
      return;
    }
    close(target);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  return {
    ready(started) {
      if (!started) {
        // Start-up failed and said why (exit code set): a signal that came meanwhile just ends it.
        void log.close().then(() => {
          if (requested) process.exit();
        });
        return;
      }
      target = started;
      // A stop asked for during start-up is not a second press: it closes, without a warning round.
      if (requested) {
        warned = true;
        onSignal(requested);
      }
    },
  };
}

interface StopTarget {
  /** Changes not yet in the cloud; after close, what the store kept for next time. */
  pendingOperations(): number;
  close(): Promise<void>;
}

/** The last line `npm start` prints: whether anything waits for the next run. */
function goodbye(pending: number): string {
  if (pending === 0) return 'Stopped. Nothing waiting to sync.';
  return `Stopped. ${pending} ${pending === 1 ? 'change' : 'changes'} will be sent next time.`;
}

const START_ADVICE: Record<MachineProblem, string> = {
  disk_full: 'Free some space on that disk, then start the terminal again.',
  read_only: 'Make the folder writable again (or choose another with POS_DATA_DIR), then start the terminal again.',
  not_permitted: 'Give this user the right to write there (or choose another folder with POS_DATA_DIR), then start the terminal again.',
  disk_failed: 'Check that the disk is connected, then start the terminal again; if it keeps happening, call support.',
};

/** Why the terminal did not start, in one plain sentence: a file-system failure names the data folder and what to do, never a stack. */
function startFailure(error: unknown, dataDir: string): string {
  const problem = machineProblemOf(error);
  if (problem !== null) return `The terminal could not start: it cannot write to its data folder ${dataDir}: ${MACHINE_PROBLEM_WORDS[problem]}. ${START_ADVICE[problem]}`;
  const { code, path } = error as NodeJS.ErrnoException;
  if (typeof code === 'string' && typeof path === 'string') {
    return `The terminal could not start: its data folder ${dataDir} cannot be used (${code} on ${path}). Check the folder, or choose another with POS_DATA_DIR, then start the terminal again.`;
  }
  return `The terminal could not start: ${(error as Error).message}`;
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
  let log: HostLog;
  try {
    log = openHostLog(config.dataDir, config.verbose);
  } catch (error) {
    // No log file to write to: the console is all there is.
    console.error(startFailure(error, config.dataDir));
    process.exitCode = 1;
    return;
  }
  const { logger } = log;
  const stopSignals = handleStopSignals(log);
  let mode;
  try {
    mode = await startBrowserMode({
      config,
      logger,
      onListening(host) {
        process.stderr.write(`\nPOS terminal (browser mode) is starting.\n  Open: ${host.launchUrl}\n  Data: ${config.dataDir}\n  Logs: ${log.file}\n  Press Ctrl+C to quit.\n\n`);
        if (config.browserMode.openBrowser) openSystemBrowser(host.launchUrl, logger);
      },
    });
  } catch (error) {
    logger.error({ err: error }, 'the terminal could not start');
    console.error(startFailure(error, config.dataDir));
    process.exitCode = 1;
    stopSignals.ready(null);
    return;
  }
  process.stderr.write(`POS terminal is ready.${mode.sandbox ? ` Sandbox dashboard: ${mode.sandbox.dashboardUrl}` : ''}\n`);
  const started = mode;
  stopSignals.ready({ pendingOperations: () => started.core.pendingOperations(), close: () => started.close() });
}

const forced = process.env.POS_BROWSER_MODE === '1';
const electron = forced ? null : findElectronBinary(import.meta.url);
if (electron && 'path' in electron) {
  runElectron(electron.path);
} else {
  process.stderr.write(electron ? `Starting in browser mode: ${electron.missing}.\n` : 'Starting in browser mode (POS_BROWSER_MODE=1).\n');
  await runBrowserMode();
}
