// Who shares a PIN with whom (migration 33, store/shared-pins.ts; docs/staff.md, "A PIN two people
// share"): what a till found stays found across a restart, and stops counting for a member the moment
// they have another PIN hash (a new PIN, a released one) or are inactive. Real SQLite files; the
// hashes are stand-ins (the store only compares them: main/core/staff hashes and checks PINs).
import { describe, expect, it } from 'vitest';
import { openStore, pinHashRef, STORE_MIGRATIONS, type Store } from '../../store';
import { tempDbPath } from './helpers';

const SHARED_PINS_MIGRATION = 33;
const T0 = 1_800_000_000_000;

function addStaff(store: Store, id: string, pinHash: string): void {
  store.staff.insert({ id, name: id, role: 'cashier', pin_hash: pinHash, active: true, provisioned: false }, T0);
}

const hashOf = (store: Store, id: string) => store.staff.get(id)!.pin_hash;
const member = (store: Store, id: string) => ({ id, pin_hash: hashOf(store, id) });
const sharers = (store: Store, id: string) => store.sharedPins.sharersOf(id)?.map((h) => h.id).sort() ?? null;
const rows = (store: Store) => store.db.prepare('SELECT staff_id, group_id FROM staff_shared_pins ORDER BY staff_id').all() as { staff_id: string; group_id: string }[];

describe('migration 33: who shares a PIN', () => {
  it('upgrades a version-32 file: the staff kept, the table there and empty, and used from then on', () => {
    const file = tempDbPath();
    const older = openStore(file, { migrations: STORE_MIGRATIONS.filter((m) => m.version < SHARED_PINS_MIGRATION) });
    expect(older.version).toBe(SHARED_PINS_MIGRATION - 1);
    addStaff(older, 'stf_nia', 'scrypt:salt-nia:hash-nia');
    addStaff(older, 'stf_cole', 'scrypt:salt-cole:hash-cole');
    older.close();

    const store = openStore(file);
    try {
      expect(store.version).toBe(SHARED_PINS_MIGRATION);
      expect(store.version).toBe(STORE_MIGRATIONS.length);
      expect(store.staff.list().map((s) => s.id).sort()).toEqual(['stf_cole', 'stf_nia']);
      const columns = store.db.prepare('PRAGMA table_info(staff_shared_pins)').all() as { name: string; type: string; notnull: number; pk: number }[];
      expect(columns.map((c) => [c.name, c.type, c.notnull, c.pk])).toEqual([
        ['staff_id', 'TEXT', 1, 1],
        ['group_id', 'TEXT', 1, 0],
        ['hash_ref', 'TEXT', 1, 0],
        ['found_at', 'INTEGER', 1, 0],
      ]);
      expect(rows(store)).toEqual([]);
      expect(store.sharedPins.sharersOf('stf_nia')).toBeNull();
      expect(store.sharedPins.record([member(store, 'stf_nia'), member(store, 'stf_cole')], T0)).toBe(true);
      expect(sharers(store, 'stf_nia')).toEqual(['stf_cole', 'stf_nia']);
    } finally {
      store.close();
    }
  });
});

describe('who shares a PIN', () => {
  function twoSharing(): { file: string; store: Store } {
    const file = tempDbPath();
    const store = openStore(file);
    addStaff(store, 'stf_nia', 'scrypt:salt-nia:hash-nia');
    addStaff(store, 'stf_cole', 'scrypt:salt-cole:hash-cole');
    addStaff(store, 'stf_dan', 'scrypt:salt-dan:hash-dan');
    store.sharedPins.record([member(store, 'stf_nia'), member(store, 'stf_cole')], T0);
    return { file, store };
  }

  it('is kept across closing and opening the file, and recording it again learns nothing new', () => {
    const { file, store } = twoSharing();
    store.close();
    const again = openStore(file);
    try {
      expect(sharers(again, 'stf_nia')).toEqual(['stf_cole', 'stf_nia']);
      expect(sharers(again, 'stf_cole')).toEqual(['stf_cole', 'stf_nia']);
      expect(again.sharedPins.sharersOf('stf_dan')).toBeNull();
      expect([...again.sharedPins.sharedIds()].sort()).toEqual(['stf_cole', 'stf_nia']);
      expect(again.sharedPins.record([member(again, 'stf_cole'), member(again, 'stf_nia')], T0 + 1)).toBe(false);
    } finally {
      again.close();
    }
  });

  it('a member given another PIN hash drops out; with one holder left the group is gone', () => {
    const { store } = twoSharing();
    try {
      store.staff.update('stf_cole', { pin_hash: 'scrypt:salt-cole-2:hash-cole-2' }, T0 + 1);
      expect(store.sharedPins.sharersOf('stf_nia')).toBeNull();
      expect(store.sharedPins.sharersOf('stf_cole')).toBeNull();
      expect(store.sharedPins.sharedIds().size).toBe(0);
      expect(rows(store)).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('of three sharing, one with a new PIN leaves the other two sharing it', () => {
    const { store } = twoSharing();
    try {
      // Dan found later with the same PIN as Cole: one group of three.
      expect(store.sharedPins.record([member(store, 'stf_cole'), member(store, 'stf_dan')], T0 + 1)).toBe(true);
      expect(new Set(rows(store).map((r) => r.group_id)).size).toBe(1);
      expect(sharers(store, 'stf_nia')).toEqual(['stf_cole', 'stf_dan', 'stf_nia']);
      store.staff.update('stf_nia', { pin_hash: 'scrypt:salt-nia-2:hash-nia-2' }, T0 + 2);
      expect(store.sharedPins.sharersOf('stf_nia')).toBeNull();
      expect(sharers(store, 'stf_dan')).toEqual(['stf_cole', 'stf_dan']);
      expect(rows(store).map((r) => r.staff_id)).toEqual(['stf_cole', 'stf_dan']);
    } finally {
      store.close();
    }
  });

  it('an inactive holder shares nothing, and shares it again when brought back with the same hash', () => {
    const { store } = twoSharing();
    try {
      store.staff.update('stf_cole', { active: false }, T0 + 1);
      expect(store.sharedPins.sharersOf('stf_nia')).toBeNull();
      expect(store.sharedPins.sharedIds().size).toBe(0);
      expect(rows(store)).toHaveLength(2);
      store.staff.update('stf_cole', { active: true }, T0 + 2);
      expect(sharers(store, 'stf_nia')).toEqual(['stf_cole', 'stf_nia']);
      expect([...store.sharedPins.sharedIds()].sort()).toEqual(['stf_cole', 'stf_nia']);
    } finally {
      store.close();
    }
  });

  it('keeps a reference to each salted hash, never the hash itself', () => {
    const { store } = twoSharing();
    try {
      const kept = store.db.prepare('SELECT staff_id, hash_ref FROM staff_shared_pins ORDER BY staff_id').all() as { staff_id: string; hash_ref: string }[];
      expect(kept).toEqual([
        { staff_id: 'stf_cole', hash_ref: pinHashRef('scrypt:salt-cole:hash-cole') },
        { staff_id: 'stf_nia', hash_ref: pinHashRef('scrypt:salt-nia:hash-nia') },
      ]);
      expect(JSON.stringify(store.db.prepare('SELECT * FROM staff_shared_pins').all())).not.toMatch(/scrypt|salt|hash-/);
    } finally {
      store.close();
    }
  });
});
