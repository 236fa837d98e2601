// Ids: prefix, 10 time characters, 16 random characters of Crockford base32; ordered by time;
// never repeated, including across refills of the pooled randomness.
import { describe, expect, it } from 'vitest';
import { newId } from '../../common/ids';

const SHAPE = /^ord_[0-9a-hjkmnp-tv-z]{26}$/;

describe('newId', () => {
  it('is the prefix, the time and 16 random characters', () => {
    const id = newId('ord_', 1_700_000_000_000);
    expect(id).toMatch(SHAPE);
    expect(id.slice(4, 14)).toBe('01hf7yat00');
  });

  it('sorts in creation order whatever the random part', () => {
    const times = [0, 1, 31, 32, 1_000, 1_700_000_000_000, 1_700_000_000_001, 2 ** 45];
    const ids = times.map((t) => newId('op_', t));
    expect([...ids].sort()).toEqual(ids);
  });

  it('never repeats a random part, across many refills of the pool', () => {
    // 20,000 ids use 320,000 random bytes: about 80 refills of a 4 KB pool.
    const suffixes = Array.from({ length: 20_000 }, () => newId('ord_', 0).slice(14));
    expect(new Set(suffixes).size).toBe(suffixes.length);
  });

  it('uses every character of the alphabet at every random position', () => {
    const ids = Array.from({ length: 5_000 }, () => newId('x_', 0).slice(12));
    for (let position = 0; position < 16; position++) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(32);
    }
  });
});
