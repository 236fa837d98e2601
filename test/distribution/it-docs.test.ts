// docs/it.md is what IT provisions from: it must name every setting main/config reads, where the files
// are looked for on each OS, and the shell's own switches, so the doc cannot drift from the code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir, machineConfigFile, SETTINGS, userConfigFile } from '../../main/config';

const ROOT = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(ROOT, 'docs/it.md'), 'utf8');

describe('docs/it.md', () => {
  it('documents every setting with its environment variable and flag', () => {
    for (const setting of SETTINGS) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${setting.path.join('.')}\` |`));
      expect(row, setting.path.join('.')).toBeDefined();
      expect(row).toContain(`\`${setting.env}\``);
      expect(row).toContain(`\`--${setting.flag}\``);
    }
  });

  it('gives the machine-wide and per-user config files and the data folder where main/config looks', () => {
    expect(doc).toContain(machineConfigFile('darwin', {}));
    expect(doc).toContain(machineConfigFile('linux', {}));
    expect(machineConfigFile('win32', { ProgramData: '%ProgramData%' }).replaceAll('/', '\\')).toBe('%ProgramData%\\PosTerminal\\config.json');
    expect(doc).toContain('%ProgramData%\\PosTerminal\\config.json');
    expect(userConfigFile('win32', { APPDATA: '%APPDATA%' }, 'x').replaceAll('/', '\\')).toBe('%APPDATA%\\PosTerminal\\config.json');
    expect(doc).toContain('%APPDATA%\\PosTerminal\\config.json');
    expect(doc).toContain(userConfigFile('darwin', {}, '~'));
    expect(defaultDataDir('win32', { LOCALAPPDATA: '%LOCALAPPDATA%' }, 'x').replaceAll('/', '\\')).toBe('%LOCALAPPDATA%\\PosTerminal');
    expect(doc).toContain('%LOCALAPPDATA%\\PosTerminal');
    expect(doc).toContain(defaultDataDir('darwin', {}, '~'));
    expect(doc).toContain(defaultDataDir('linux', { XDG_DATA_HOME: '$XDG_DATA_HOME' }, '~'));
  });

  it('covers silent installs, updates and the diagnostics export', () => {
    for (const text of ['/S', 'msiexec /i', '/qn', 'apt-get install', 'MDM', '--export-diagnostics', 'stagingPercentage', 'secrets.safe-storage.json']) {
      expect(doc, text).toContain(text);
    }
  });
});
