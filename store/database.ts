// Opening the store's SQLite file: refuse what we must not touch (corrupt, unreadable, newer),
// set the durability pragmas and check that they took, then migrate.
import { existsSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import BetterSqlite3, { type Database, type RunResult, type Statement } from 'better-sqlite3';
import { Kysely, SqliteDialect, type Compilable, type CompiledQuery, type Insertable } from 'kysely';
import { StoreError } from './errors';
import { checkHeaderAgreesWithSize, checkRegisterTables, checkWholeFile, closedCleanly, hasWriteAheadLog, removeCleanCloseMarker } from './integrity';
import type { Migration } from './migrations';
import type { StoreTables } from './schema';

const SQLITE_HEADER = 'SQLite format 3\0';
/** The smallest SQLite file that is not empty: one 512-byte page is the minimum page size. */
const SMALLEST_DATABASE_BYTES = 512;
export const BUSY_TIMEOUT_MS = 5_000;
/**
 * SQLite's page cache on the store's connection, in KiB (better-sqlite3 builds SQLite with 16 MB).
 * The terminal's memory budget is 150 MB at all times, and a first sync of a year of orders fills
 * any cache with pages it reads once; the operating system caches the file as well, so a page
 * missing here costs a read call, not a disk access. docs/sync.md, "The pull's memory".
 */
export const PAGE_CACHE_KIB = 4_000;

/**
 * Runs kysely-compiled queries synchronously through better-sqlite3 prepared statements, cached by
 * SQL text. Kysely gives the types; better-sqlite3 gives synchronous, non-interleaving transactions.
 */
export class SqlRunner {
  readonly #db: Database;
  readonly #statements = new Map<string, Statement>();

  constructor(db: Database) {
    this.#db = db;
  }

  statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  all<R>(query: Compilable<R> | CompiledQuery<R>): R[] {
    const compiled = 'compile' in query ? query.compile() : query;
    return this.statement(compiled.sql).all(bindable(compiled.parameters)) as R[];
  }

  first<R>(query: Compilable<R> | CompiledQuery<R>): R | undefined {
    const compiled = 'compile' in query ? query.compile() : query;
    return this.statement(compiled.sql).get(bindable(compiled.parameters)) as R | undefined;
  }

  run(query: Compilable<unknown> | CompiledQuery<unknown>): RunResult {
    const compiled = 'compile' in query ? query.compile() : query;
    return this.statement(compiled.sql).run(bindable(compiled.parameters));
  }

  /**
   * A hot-path insert compiled by kysely once: the SQL comes from a sample row with every column,
   * and each call binds the row's values in that column order.
   */
  compiledInsert<T extends keyof StoreTables & string>(
    kysely: Kysely<StoreTables>,
    table: T,
    columns: readonly (keyof Insertable<StoreTables[T]> & string)[],
  ): (row: Insertable<StoreTables[T]>) => RunResult {
    const sample = Object.fromEntries(columns.map((c) => [c, null])) as unknown as Insertable<StoreTables[T]>;
    const { sql } = kysely.insertInto(table).values(sample as never).compile();
    let statement: Statement | undefined; // prepared at first use: an older schema may lack the table
    return (row) => {
      statement ??= this.statement(sql);
      return statement.run(bindable(columns.map((c) => (row as Record<string, unknown>)[c])));
    };
  }

  /** Raw SQL for the few statements kysely cannot type (generic layer rows). */
  runSql(sql: string, parameters: readonly unknown[]): RunResult {
    return this.statement(sql).run(bindable(parameters));
  }

  allSql<R>(sql: string, parameters: readonly unknown[]): R[] {
    return this.statement(sql).all(bindable(parameters)) as R[];
  }
}

/**
 * better-sqlite3 binds no booleans; SQLite has none either. The parameters go to better-sqlite3
 * as one array, not spread: a pulled page's insert binds over a thousand values.
 */
function bindable(parameters: readonly unknown[]): unknown[] {
  for (const p of parameters) if (typeof p === 'boolean') return parameters.map((q) => (typeof q === 'boolean' ? (q ? 1 : 0) : q));
  return parameters as unknown[];
}

export interface OpenedDatabase {
  db: Database;
  kysely: Kysely<StoreTables>;
  sql: SqlRunner;
  /** user_version after migrating. */
  version: number;
  /** Whether open read the whole file (the last session did not close cleanly) or only the bounded checks. */
  checked: 'whole_file' | 'register_tables';
}

/** Throws unless the file is absent, empty (SQLite's own fresh file) or starts with the SQLite header. */
function checkHeader(file: string): void {
  if (!existsSync(file)) return;
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw new StoreError('unreadable_database', `the store ${file} is a directory, not a database file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError('unreadable_database', `cannot read the store ${file}: ${(error as Error).message}`, { cause: error });
  }
  if (size === 0) return;
  const header = Buffer.alloc(SQLITE_HEADER.length);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new StoreError('unreadable_database', `cannot read the store ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString('latin1') !== SQLITE_HEADER || size < SMALLEST_DATABASE_BYTES) {
    throw new StoreError(
      'corrupt_database',
      `the store ${file} is not a SQLite database (${size} bytes, wrong header or truncated); it was left untouched — restore it from a backup or move it aside`,
    );
  }
}

function openHandle(file: string): Database {
  try {
    return new BetterSqlite3(file, { timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new StoreError('unreadable_database', `cannot open the store ${file}: ${(error as Error).message}`, { cause: error });
  }
}

function setDurabilityPragmas(db: Database, file: string): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const journal = db.pragma('journal_mode', { simple: true });
  const synchronous = db.pragma('synchronous', { simple: true });
  const foreignKeys = db.pragma('foreign_keys', { simple: true });
  if (journal !== 'wal' || synchronous !== 2 || foreignKeys !== 1) {
    throw new StoreError(
      'durability_not_guaranteed',
      `the store ${file} refused the durability settings (journal_mode=${String(journal)}, synchronous=${String(synchronous)}, foreign_keys=${String(foreignKeys)})`,
    );
  }
}

function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new StoreError('invalid_migrations', `migration "${m.name}" is number ${m.version} but stands at position ${i + 1}; versions must run 1..n`);
    }
  });
}

function newerDatabase(file: string, found: number, known: number): StoreError {
  return new StoreError(
    'newer_database',
    `the store ${file} is at schema version ${found}, written by a newer version of this app (which knows up to ${known}); update the app — the file was left untouched`,
  );
}

function currentVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies the migrations above the file's user_version, each in its own transaction with its version number. */
export function migrate(db: Database, file: string, migrations: readonly Migration[]): number {
  checkMigrationList(migrations);
  const from = currentVersion(db);
  const latest = migrations.length;
  if (from > latest) {
    throw newerDatabase(file, from, latest);
  }
  for (const migration of migrations.slice(from)) {
    db.transaction(() => {
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  return currentVersion(db);
}

/**
 * Opens (or creates) the store file. Refuses, without writing a byte, a file that is not SQLite,
 * is corrupt, or was written by a newer app; then turns on WAL + synchronous=FULL + foreign keys,
 * verifies them, and migrates. The whole file is read only after a session that did not close
 * cleanly (store/integrity.ts); otherwise the header, the schema and the register's tables are.
 */
export function openDatabase(file: string, migrations: readonly Migration[]): OpenedDatabase {
  checkHeader(file);
  const clean = closedCleanly(file);
  checkHeaderAgreesWithSize(file, hasWriteAheadLog(file));
  const db = openHandle(file);
  try {
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    if (clean) checkRegisterTables(db, file);
    else checkWholeFile(db, file);
    const found = currentVersion(db);
    if (found > migrations.length) {
      throw newerDatabase(file, found, migrations.length);
    }
    // From the first write on, a crash is an unclean shutdown: the next open reads the whole file.
    removeCleanCloseMarker(file);
    setDurabilityPragmas(db, file);
    const version = migrate(db, file, migrations);
    const kysely = new Kysely<StoreTables>({ dialect: new SqliteDialect({ database: db }) });
    return { db, kysely, sql: new SqlRunner(db), version, checked: clean ? 'register_tables' : 'whole_file' };
  } catch (error) {
    db.close();
    throw error;
  }
}
