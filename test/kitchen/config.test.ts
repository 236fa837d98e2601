// The kitchen display's settings (docs/config.md, "Kitchen display"): --role, --kds-station and the
// ticket ages, from flags, variables and a config file, and each bad value stopping the start naming
// its flag, variable or key.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../main/config';

const STORE = ['--store-mode', 'on', '--store-listen', '127.0.0.1:7420', '--store-secret-ref', 'store'];
const PRINTERS = ['--kitchen-printer', 'grill=file:/dev/null', '--kitchen-printer', 'bar=file:/dev/null', '--print-routing', 'Mains=grill,Drinks=bar'];

function load(argv: string[], env: Record<string, string> = {}, file?: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'pos-kitchen-config-'));
  const userConfigFile = join(dir, 'user.json');
  if (file !== undefined) writeFileSync(userConfigFile, JSON.stringify(file));
  return loadConfig({ argv, env, platform: 'linux', home: dir, userConfigFile, machineConfigFile: join(dir, 'machine.json') }).config;
}

describe('kitchen display settings', () => {
  it('default to a register with no station, amber at 8 and red at 15 minutes', () => {
    const config = load([]);
    expect(config.role).toBe('register');
    expect(config.kitchen).toEqual({ station: '', amberMinutes: 8, redMinutes: 15 });
  });

  it('read the role, the station (named as the routing names it) and the ages from flags, variables and a config file', () => {
    expect(load([...STORE, ...PRINTERS, '--role', 'kitchen', '--kds-station', 'GRILL', '--kds-amber-minutes', '5', '--kds-red-minutes', '9'])).toMatchObject({ role: 'kitchen', kitchen: { station: 'grill', amberMinutes: 5, redMinutes: 9 } });
    expect(load([...STORE, ...PRINTERS], { POS_ROLE: 'kitchen', POS_KDS_STATION: 'bar', POS_KDS_AMBER_MINUTES: '6', POS_KDS_RED_MINUTES: '12' })).toMatchObject({ role: 'kitchen', kitchen: { station: 'bar', amberMinutes: 6, redMinutes: 12 } });
    expect(load([...STORE, ...PRINTERS], {}, { role: 'kitchen', kitchen: { station: 'bar', redMinutes: 20 } })).toMatchObject({ role: 'kitchen', kitchen: { station: 'bar', amberMinutes: 8, redMinutes: 20 } });
  });

  it('stop on a bad value, naming the flag, variable or key', () => {
    expect(() => load(['--role', 'waiter'])).toThrow(/command line: --role: must be register or kitchen/);
    expect(() => load([], { POS_ROLE: 'kds' })).toThrow(/environment: POS_ROLE: must be register or kitchen/);
    expect(() => load([], {}, { role: 'bar' })).toThrow(/: role: must be register or kitchen/);
    expect(() => load(['--kds-amber-minutes', '0'])).toThrow(/--kds-amber-minutes: must be at least 1 minute/);
    expect(() => load(['--kds-red-minutes', 'soon'])).toThrow(/command line: --kds-red-minutes: /);
    expect(() => load(['--kds-amber-minutes', '10', '--kds-red-minutes', '10'])).toThrow(/--kds-red-minutes: must be more than the amber age \(10 minutes\)/);
    expect(() => load([], {}, { kitchen: { colour: 'red' } })).toThrow(/kitchen\.colour: is not a known setting/);
  });

  it('refuse a kitchen display without store mode, saying why', () => {
    expect(() => load(['--role', 'kitchen'])).toThrow(/command line: --role: is kitchen, but store mode is off: a kitchen display shows the orders of the store's tills over the LAN/);
    expect(() => load([], { POS_ROLE: 'kitchen' })).toThrow(/environment: POS_ROLE: is kitchen, but store mode is off/);
  });

  it('refuse a station the print routing does not send to, and a station on a register', () => {
    expect(() => load([...STORE, ...PRINTERS, '--role', 'kitchen', '--kds-station', 'fryer'])).toThrow(/--kds-station: "fryer" is not a station of the print routing \(the stations are grill, bar\)/);
    expect(() => load([...STORE, '--role', 'kitchen'], { POS_KDS_STATION: 'grill' })).toThrow(/POS_KDS_STATION: "grill" is not a station of the print routing \(no station is configured: name them with --kitchen-printer and --print-routing/);
    expect(() => load([...PRINTERS, '--kds-station', 'grill'])).toThrow(/--kds-station: is set, but this device is a register/);
  });
});
