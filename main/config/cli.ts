// What the small IT commands of main/config (hash-pin, lift-lockout) share: a command is a function
// of its arguments that says what to print and how to exit, so tests call it without a process,
// and it runs as a process only when it is the script node was started with.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface CliResult {
  /** 0: done; 2: refused (the words on stderr say why). */
  code: 0 | 2;
  stdout: string;
  stderr: string;
}

function invokedDirectly(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** Runs `command` on the process's arguments when `moduleUrl` (the caller's import.meta.url) is the script started. */
export function runWhenInvoked(moduleUrl: string, command: (args: string[]) => CliResult): void {
  if (!invokedDirectly(moduleUrl)) return;
  const result = command(process.argv.slice(2));
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
}
