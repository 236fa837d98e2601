import { existsSync, statSync, truncateSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore, STORE_MIGRATIONS, StoreError, type Migration } from '../../store';
import { cleanCloseMarker, writeCleanCloseMarker } from '../../store/integrity';
import { cashier, sha256, tempDbPath, threeLineOrder } from './helpers';

function expectStoreError(fn: () => unknown, code: StoreError['code'], messagePart: string): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe(code);
    expect((error as StoreError).message).toContain(messagePart);
    return;
  }
  throw new Error(`expected StoreError ${code}`);
}

const LATEST = STORE_MIGRATIONS.length;
const extra: Migration[] = [
  { version: LATEST + 1, name: 'till drawers', up: (db) => db.exec('CREATE TABLE drawers (id TEXT PRIMARY KEY, float INTEGER NOT NULL) STRICT') },
  { version: LATEST + 2, name: 'drawer opened_at', up: (db) => db.exec('ALTER TABLE drawers ADD COLUMN opened_at INTEGER') },
];

describe('opening the store', () => {
  it('creates and migrates an empty file to the latest version with durable pragmas', () => {
    const file = tempDbPath();
    const store = openStore(file);
    expect(store.version).toBe(STORE_MIGRATIONS.length);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    const tables = store.db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name").pluck().all();
    expect(tables).toEqual(
      expect.arrayContaining([
        'locations', 'categories', 'modifiers', 'menu_items', 'orders',
        'payment_intents', 'payments', 'refunds', 'outbox', 'outbox_dependencies', 'dead_letters', 'webhook_inbox',
        'sync_cursors', 'id_map', 'settings', 'audit_log', 'orders_merged', 'menu_items_merged',
      ]),
    );
    store.close();
  });

  it('upgrades step by step, one version per transaction, keeping the data', () => {
    const file = tempDbPath();
    for (let version = 1; version < LATEST; version++) {
      const older = openStore(file, { migrations: STORE_MIGRATIONS.slice(0, version) });
      expect(older.version).toBe(version);
      older.close();
    }
    const current = openStore(file);
    expect(current.version).toBe(LATEST);
    const order = current.cashier.createOrder(threeLineOrder(), cashier);
    current.close();
    const newer = openStore(file, { migrations: [...STORE_MIGRATIONS, ...extra] });
    expect(newer.version).toBe(LATEST + 2);
    expect(newer.db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('drawers')).toEqual(['id', 'float', 'opened_at']);
    expect(newer.cashier.getOrder(order.id)?.total).toBe(order.total);
    newer.close();
  });

  it('rolls a failing migration back together with its version number', () => {
    const file = tempDbPath();
    const failing: Migration = {
      version: LATEST + 1,
      name: 'half done',
      up: (db) => {
        db.exec('CREATE TABLE half (id INTEGER)');
        throw new Error('disk said no');
      },
    };
    expect(() => openStore(file, { migrations: [...STORE_MIGRATIONS, failing] })).toThrow('disk said no');
    const raw = new BetterSqlite3(file);
    expect(raw.pragma('user_version', { simple: true })).toBe(LATEST);
    expect(raw.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get()).toBe(0);
    raw.close();
  });

  it('refuses a database written by a newer app version and leaves it untouched', () => {
    const file = tempDbPath();
    openStore(file, { migrations: [...STORE_MIGRATIONS, ...extra] }).close();
    const before = sha256(file);
    expectStoreError(() => openStore(file), 'newer_database', `${file} is at schema version ${LATEST + 2}`);
    expect(sha256(file)).toBe(before);
  });

  it('refuses a migration list that is not numbered 1..n', () => {
    const file = tempDbPath();
    const [first] = STORE_MIGRATIONS;
    expectStoreError(() => openStore(file, { migrations: [first!, extra[1]!] }), 'invalid_migrations', 'drawer opened_at');
  });

  it.each([
    ['a text file', (file: string) => writeFileSync(file, 'order,total\n1,2000\n'.repeat(100))],
    ['random garbage', (file: string) => writeFileSync(file, Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919) % 256)))],
    ['a header too short to be a database', (file: string) => writeFileSync(file, 'SQLite format 3\0')],
  ])('refuses %s as corrupt and never modifies it', (_name, make) => {
    const file = tempDbPath();
    make(file);
    const before = sha256(file);
    expectStoreError(() => openStore(file), 'corrupt_database', file);
    expect(sha256(file)).toBe(before);
  });

  it('refuses a truncated database as corrupt and never modifies it', () => {
    const source = tempDbPath();
    const store = openStore(source);
    for (let i = 0; i < 200; i++) store.cashier.createOrder(threeLineOrder(), cashier);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    store.close();
    const file = tempDbPath('truncated.db');
    copyFileSync(source, file);
    truncateSync(file, Math.floor(statSync(file).size / 2));
    const before = sha256(file);
    expectStoreError(() => openStore(file), 'corrupt_database', file);
    expect(sha256(file)).toBe(before);
  });

  it('refuses a database where WAL cannot be turned on', () => {
    // An in-memory database keeps journal_mode=memory: the durability check must catch it.
    expectStoreError(() => openStore(':memory:'), 'durability_not_guaranteed', 'journal_mode=memory');
  });

  it('reports a path it cannot open as unreadable', () => {
    const folder = tempDbPath('a-folder');
    mkdirSync(folder);
    expectStoreError(() => openStore(folder), 'unreadable_database', folder);
    const missingParent = `${tempDbPath()}/no/such/folder/store.db`;
    expectStoreError(() => openStore(missingParent), 'unreadable_database', missingParent);
  });
});

describe('the open-time check', () => {
  it('reads the whole file only when the last session did not close cleanly', () => {
    const file = tempDbPath();
    const first = openStore(file);
    expect(first.openCheck).toBe('whole_file');
    first.cashier.createOrder(threeLineOrder(), cashier);
    first.close();
    expect(existsSync(cleanCloseMarker(file))).toBe(true);
    const second = openStore(file);
    expect(second.openCheck).toBe('register_tables');
    // While open, the marker is gone: a crash now leaves none behind.
    expect(existsSync(cleanCloseMarker(file))).toBe(false);
    second.db.close(); // as a crash would: no checkpoint, no marker
    expect(openStore(file).openCheck).toBe('whole_file');
  });

  it('does not trust a marker once the file changed after the clean close', () => {
    const file = tempDbPath();
    openStore(file).close();
    const raw = new BetterSqlite3(file);
    raw.exec('CREATE TABLE scribble (x INTEGER)');
    raw.close();
    expect(openStore(file).openCheck).toBe('whole_file');
  });

  it('refuses a cleanly closed file cut short, from its header alone', () => {
    const file = tempDbPath();
    const store = openStore(file);
    for (let i = 0; i < 200; i++) store.cashier.createOrder(threeLineOrder(), cashier);
    store.close();
    truncateSync(file, statSync(file).size - 4096);
    writeCleanCloseMarker(file);
    const before = sha256(file);
    expectStoreError(() => openStore(file), 'corrupt_database', 'shorter than its header says');
    expect(sha256(file)).toBe(before);
  });
});
