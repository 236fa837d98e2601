// A table's name as it is typed (bridge/tables/names.ts): the floor's "go to table" field, the
// Orders search and the store's unique index key names the same way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tableKey, tableQueryKeys } from '../../bridge/tables/names';
import { nameKey } from '../../store/floor';

describe('table names', () => {
  it('are keyed as the store keys them, whatever the case and spaces', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (name) => {
        expect(tableKey(name)).toBe(nameKey(name));
      }),
    );
    expect(tableKey('  Patio   4 ')).toBe('patio 4');
  });

  it('may be typed with a leading T or "table", and are found whole', () => {
    expect(tableQueryKeys('12')).toEqual(['12']);
    expect(tableQueryKeys('T12')).toEqual(['t12', '12']);
    expect(tableQueryKeys('table 12')).toEqual(['table 12', '12']);
    expect(tableQueryKeys('Patio  4')).toEqual(['patio 4']);
    expect(tableQueryKeys('  ')).toEqual([]);
    expect(tableQueryKeys('t')).toEqual(['t']);
  });
});
