// The sandbox's SQLite store (file or in-memory) through kysely. Resources are kept as their exact
// JSON record in `doc`, next to the columns that lists filter and sort on.
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteDatabase, type Transaction } from 'kysely';

export interface DocTable {
  id: string;
  doc: string;
}

export interface SandboxSchema {
  locations: DocTable & { created_at: number };
  categories: DocTable & { position: number };
  menu_items: DocTable & { location_id: string | null; category_id: string; sort_key: string; deleted: number };
  orders: DocTable & { location_id: string; status: string; created_at: number };
  payments: DocTable & { order_id: string; created_at: number };
  events: { seq: number | null; id: string; type: string; resource_id: string; created_at: number; body: string };
  webhook_endpoints: { id: string; url: string; event_types: string; secret: string; created_at: number };
  deliveries: {
    id: string;
    endpoint_id: string;
    event_id: string;
    event_seq: number;
    resource_id: string;
    status: string;
    attempts: number;
    next_attempt_at: number | null;
    last_attempt_at: number | null;
    last_status_code: number | null;
    last_error: string | null;
    delivered_at: number | null;
    /** 1 once the first attempt finished: later events of the same resource may then go. */
    first_attempt_done: number;
    created_at: number;
  };
  api_keys: { id: string; kind: string; mode: string; secret: string; permissions: string; label: string; created_at: number };
  oauth_apps: { client_id: string; client_secret: string | null; name: string; redirect_uris: string; created_at: number };
  oauth_codes: {
    code_hash: string;
    client_id: string;
    redirect_uri: string;
    scopes: string;
    code_challenge: string | null;
    expires_at: number;
    used: number;
  };
  oauth_tokens: {
    token_hash: string;
    kind: 'access' | 'refresh';
    client_id: string;
    scopes: string;
    expires_at: number;
    /** The authorization code this token descends from: a replayed code revokes the family. */
    code_hash: string;
    revoked: number;
  };
  idempotency: {
    account_key: string;
    key: string;
    fingerprint: string;
    status: number;
    body: string;
    created_at: number;
  };
  settings: { name: string; value: string };
}

export type Db = Kysely<SandboxSchema>;
export type Tx = Transaction<SandboxSchema>;

const MIGRATION = [
  `CREATE TABLE IF NOT EXISTS locations (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, doc TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS categories (id TEXT PRIMARY KEY, position INTEGER NOT NULL, doc TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS menu_items (id TEXT PRIMARY KEY, location_id TEXT, category_id TEXT NOT NULL,
     sort_key TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, doc TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS menu_items_by_location ON menu_items (deleted, location_id, sort_key)`,
  `CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, location_id TEXT NOT NULL, status TEXT NOT NULL,
     created_at INTEGER NOT NULL, doc TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS orders_by_created ON orders (created_at, id)`,
  `CREATE INDEX IF NOT EXISTS orders_by_location ON orders (location_id, created_at, id)`,
  `CREATE TABLE IF NOT EXISTS payments (id TEXT PRIMARY KEY, order_id TEXT NOT NULL, created_at INTEGER NOT NULL, doc TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS payments_by_order ON payments (order_id)`,
  `CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL,
     resource_id TEXT NOT NULL, created_at INTEGER NOT NULL, body TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS webhook_endpoints (id TEXT PRIMARY KEY, url TEXT NOT NULL, event_types TEXT NOT NULL,
     secret TEXT NOT NULL, created_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, event_id TEXT NOT NULL,
     event_seq INTEGER NOT NULL, resource_id TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL,
     next_attempt_at INTEGER, last_attempt_at INTEGER, last_status_code INTEGER, last_error TEXT, delivered_at INTEGER,
     first_attempt_done INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (status, next_attempt_at)`,
  `CREATE INDEX IF NOT EXISTS deliveries_by_resource ON deliveries (endpoint_id, resource_id, event_seq)`,
  `CREATE TABLE IF NOT EXISTS api_keys (id TEXT PRIMARY KEY, kind TEXT NOT NULL, mode TEXT NOT NULL, secret TEXT NOT NULL UNIQUE,
     permissions TEXT NOT NULL, label TEXT NOT NULL, created_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS oauth_apps (client_id TEXT PRIMARY KEY, client_secret TEXT, name TEXT NOT NULL,
     redirect_uris TEXT NOT NULL, created_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS oauth_codes (code_hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL,
     scopes TEXT NOT NULL, code_challenge TEXT, expires_at INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE IF NOT EXISTS oauth_tokens (token_hash TEXT PRIMARY KEY, kind TEXT NOT NULL, client_id TEXT NOT NULL,
     scopes TEXT NOT NULL, expires_at INTEGER NOT NULL, code_hash TEXT NOT NULL, revoked INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE IF NOT EXISTS idempotency (account_key TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL,
     status INTEGER NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (account_key, key))`,
  // Expiring keys deletes by age: without it every expiry scans all the keys.
  `CREATE INDEX IF NOT EXISTS idempotency_by_created ON idempotency (created_at)`,
  `CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)`,
];

const STATEMENT_CACHE_LIMIT = 500;

/**
 * Kysely prepares every query afresh; preparing costs more than running most of ours. Statements
 * are reused by SQL text (kysely only calls all/run, never holds an iterator open).
 */
function withStatementCache(sqlite: Database.Database): SqliteDatabase {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (!statement) {
        if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
        statement = sqlite.prepare(text);
        cache.set(text, statement);
      }
      return statement;
    },
  };
}

export interface OpenedStore {
  db: Db;
  /** The raw handle, for the seed's bulk inserts and for closing. */
  sqlite: Database.Database;
}

/** Opens (creating if needed) the store. `file` undefined means in-memory. */
export async function openStore(file?: string): Promise<OpenedStore> {
  const sqlite = new Database(file ?? ':memory:');
  if (file) {
    sqlite.pragma('journal_mode = WAL');
    // Survives a process restart or crash; a sandbox does not need to survive a power cut.
    sqlite.pragma('synchronous = NORMAL');
  }
  sqlite.pragma('busy_timeout = 5000');
  sqlite.transaction(() => {
    for (const statement of MIGRATION) sqlite.exec(statement);
  })();
  const db = new Kysely<SandboxSchema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await sql`select 1`.execute(db);
  return { db, sqlite };
}

export async function readSetting(db: Db | Tx, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

export async function writeSetting(db: Db | Tx, name: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}
