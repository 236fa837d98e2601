// The floor IT provisions in a config file (docs/config.md, "floor"; docs/tables.md): laid out on a
// till whose floor is empty, left alone on one a manager has laid out; a floor breaking the floor
// editor's rules is refused with the file and the field named, and nothing starts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../main/config';
import { silentLogger } from '../../common/log';
import { TerminalConfig } from '../../main/config/schema';
import { startCore, type Core } from '../../main/core/index';
import { LOCATION, signIn, startTestCore, testStaffConfig } from '../core/fixtures';

function load(floor: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'pos-config-floor-'));
  const machineConfigFile = join(dir, 'machine.json');
  writeFileSync(machineConfigFile, JSON.stringify({ floor }));
  return loadConfig({ argv: [], env: {}, platform: 'linux', home: '/h', machineConfigFile, userConfigFile: join(dir, 'none.json') });
}

const table = (name: string, x: number, more: Record<string, unknown> = {}) => ({ name, seats: 4, shape: 'square', x, y: 0, width: 2, height: 2, ...more });
const FLOOR = { sections: [{ name: 'Main', tables: [table('1', 0), table('2', 3)] }, { name: 'Patio', tables: [table('P1', 0, { shape: 'round' })] }] };

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.shutdown();
});

describe('a floor in the configuration', () => {
  it('is laid out on a till whose floor is empty, and a manager’s floor is left as it is at the next start', async () => {
    const t = await startTestCore({ floor: load(FLOOR).config.floor });
    cores.push(t.core);
    const floor = await t.call('tables.floor', {});
    expect(floor.sections.map((s) => s.name)).toEqual(['Main', 'Patio']);
    expect(floor.tables.map((x) => [x.name, floor.sections.find((s) => s.id === x.sectionId)?.name, x.shape])).toEqual([
      ['1', 'Main', 'square'],
      ['2', 'Main', 'square'],
      ['P1', 'Patio', 'round'],
    ]);
    // The manager renames a table; a restart with the same configuration keeps the manager's floor.
    const { id, sectionId, seats, shape, x, y, width, height } = floor.tables[0]!;
    await t.call('tables.saveTable', { id, sectionId, name: 'Window', seats, shape, x, y, width, height });
    await t.core.shutdown();
    cores.pop();
    const again = await startCore(TerminalConfig.parse({ dataDir: t.dataDir, locationId: LOCATION, floor: FLOOR, staff: testStaffConfig() }), { logger: silentLogger });
    cores.push(again);
    await signIn(again, 'owner');
    const kept = await again.invoke({ command: 'tables.floor', payload: {} });
    expect(kept.ok && (kept.value as { tables: { name: string }[] }).tables.map((x) => x.name)).toEqual(['Window', '2', 'P1']);
  });

  it.each([
    [{ sections: [] }, /machine config .*: floor\.sections: A floor has at least one section/],
    [{ sections: [{ name: 'Main', tables: [table('1', 0), table('2', 1)] }] }, /floor\.sections\.0\.tables\.1\.x: That place is taken by table 1/],
    [{ sections: [{ name: 'Main', tables: [table('1', 23)] }] }, /floor\.sections\.0\.tables\.0\.width: The table would stand past the right edge/],
    [{ sections: [{ name: 'Main', tables: [table('1', 0)] }, { name: 'Bar', tables: [table('1', 0)] }] }, /floor\.sections\.1\.tables\.0\.name: table 1 is listed twice/],
    [{ sections: [{ name: 'Main', tables: [] }, { name: 'main', tables: [] }] }, /floor\.sections\.1\.name: main is listed twice/],
    [{ sections: [{ name: 'Main', tables: [table('1', 0, { seats: 0 })] }] }, /floor\.sections\.0\.tables\.0\.seats: A table seats at least 1/],
    [{ sections: [{ name: 'Main', tables: [table('a name far too long', 0)] }] }, /floor\.sections\.0\.tables\.0\.name: A table's name is at most 12 characters/],
  ])('refuses a floor the editor would refuse, naming the file and the field %#', (floor, message) => {
    expect(() => load(floor)).toThrow(ConfigError);
    expect(() => load(floor)).toThrow(message);
  });
});
