import { describe, expect, it } from 'vitest';
import { parseShellArguments } from '../../main/electron/shell-arguments';

describe('shell arguments', () => {
  it('passes config flags on and takes the diagnostics export out (packaged app)', () => {
    expect(parseShellArguments(['C:\\POS\\pos-terminal.exe', '--kiosk', '--export-diagnostics', 'diag.json', '--location-id', 'loc_1'], false)).toEqual({
      configArgs: ['--kiosk', '--location-id', 'loc_1'],
      exportDiagnosticsTo: 'diag.json',
    });
  });

  it('skips the extra entry of `electron .` and the macOS process serial number', () => {
    expect(parseShellArguments(['/usr/bin/electron', '.', '-psn_0_12345', '--export-diagnostics=/tmp/d.json'], true)).toEqual({
      configArgs: [],
      exportDiagnosticsTo: '/tmp/d.json',
    });
  });

  it('refuses a diagnostics export without a file', () => {
    expect(() => parseShellArguments(['app', '--export-diagnostics'], false)).toThrow(/needs a file path/);
    expect(() => parseShellArguments(['app', '--export-diagnostics', '--kiosk'], false)).toThrow(/needs a file path/);
    expect(() => parseShellArguments(['app', '--export-diagnostics='], false)).toThrow(/needs a file path/);
  });

  it('leaves unknown flags for loadConfig to refuse with its own message', () => {
    expect(parseShellArguments(['app', '--no-such-flag'], false).configArgs).toEqual(['--no-such-flag']);
  });
});
