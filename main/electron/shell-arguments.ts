// The command line of the Electron app: the shell's own switches are taken out here, the rest goes to
// loadConfig (main/config), which refuses anything it does not know.

export interface ShellArguments {
  /** Arguments for `loadConfig({ argv })`. */
  configArgs: string[];
  /** `--export-diagnostics <file>`: write the support bundle there, then quit (or, if already running, just write it). */
  exportDiagnosticsTo: string | null;
}

/**
 * `argv` is `process.argv` (or the argv a second instance forwarded). `defaultApp` is Electron's
 * `process.defaultApp`: true when started as `electron .`, whose argv carries one more entry.
 */
export function parseShellArguments(argv: readonly string[], defaultApp: boolean): ShellArguments {
  const args = argv.slice(defaultApp ? 2 : 1);
  const configArgs: string[] = [];
  let exportDiagnosticsTo: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--export-diagnostics') {
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--')) throw new Error('--export-diagnostics needs a file path');
      exportDiagnosticsTo = next;
      i++;
    } else if (arg.startsWith('--export-diagnostics=')) {
      exportDiagnosticsTo = arg.slice('--export-diagnostics='.length);
      if (exportDiagnosticsTo === '') throw new Error('--export-diagnostics needs a file path');
    } else if (/^-psn_\d/.test(arg)) {
      // macOS Finder's process serial number on old systems: not ours, not an error.
      continue;
    } else {
      configArgs.push(arg);
    }
  }
  return { configArgs, exportDiagnosticsTo };
}
