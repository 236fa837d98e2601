// The `locale` IT may set (docs/config.md): every date and time the till shows or prints in it
// instead of the one the location's country gives. A locale this computer cannot format dates in
// is refused with the source and the field named, and nothing starts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../main/config';

function load(environment: { argv?: string[]; env?: Record<string, string> }, user?: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'pos-config-locale-'));
  const userConfigFile = join(dir, 'user.json');
  if (user !== undefined) writeFileSync(userConfigFile, JSON.stringify(user));
  return loadConfig({ argv: [], env: {}, platform: 'linux', home: '/h', machineConfigFile: join(dir, 'none.json'), userConfigFile, ...environment });
}

describe('the locale setting', () => {
  it('is empty by default (the location’s country decides) and kept in its canonical form from a file, the environment or a flag', () => {
    expect(load({}).config.locale).toBe('');
    expect(load({}, { locale: 'fr-ca' }).config.locale).toBe('fr-CA');
    expect(load({ env: { POS_LOCALE: 'en-GB' } }).config.locale).toBe('en-GB');
    const flagged = load({ argv: ['--locale', 'de-CH'] });
    expect(flagged.config.locale).toBe('de-CH');
    expect(flagged.origins.locale).toBe('command line');
  });

  it.each([
    [{ argv: ['--locale', 'en_US'] }, undefined, /command line: --locale: must be a BCP 47 locale this computer knows, such as en-US or fr-CA/],
    [{ env: { POS_LOCALE: 'klingon' } }, undefined, /environment: POS_LOCALE: must be a BCP 47 locale/],
    [{}, { locale: 'xx-YY' }, /user config .*user\.json: locale: must be a BCP 47 locale/],
    [{}, { locale: 42 }, /user config .*user\.json: locale: Invalid input: expected string/],
  ])('refuses a locale it cannot format dates in, naming the source and the field %#', (environment, user, message) => {
    expect(() => load(environment, user)).toThrow(ConfigError);
    expect(() => load(environment, user)).toThrow(message);
  });
});
