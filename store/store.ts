// The store: one SQLite file, one connection, shared by the cashier services (main/core) and the
// sync engine (sync/). All access is synchronous, so transactions cannot interleave.
import type BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { systemClock, type Clock } from '../common/clock';
import { CashierRepositories } from './cashier';
import { BUSY_TIMEOUT_MS, openDatabase } from './database';
import { IdMap } from './id-map';
import { checkWholeFileInWorker, hasWriteAheadLog, removeCleanCloseMarker, writeCleanCloseMarker, type IntegrityReport } from './integrity';
import { FloorPlan } from './floor';
import { KitchenDisplayMemory } from './kitchen-display';
import { EntityLayers } from './layers';
import { STORE_MIGRATIONS, type Migration } from './migrations';
import { Outbox } from './outbox';
import { PendingChanges } from './pending';
import { PrintQueue } from './print-queue';
import { RepricedOrders } from './repriced-orders';
import { ReplicaApplyThread } from './replica-apply-thread';
import { RequestLedger } from './request-ledger';
import { Retention } from './retention';
import type { StoreTables } from './schema';
import { ServerState } from './server-state';
import { SharedPins } from './shared-pins';
import { ShiftBook } from './shifts';
import { StaffRoster } from './staff';
import { StoreLog } from './store-log';
import { StoreReplicas } from './store-replicas';
import { StoreAdoptions } from './store-adoption';
import { WriteTurn } from './write-turn';

export interface StoreOptions {
  clock?: Clock;
  /** The app passes nothing (its own list); tests pass longer lists to prove upgrades and refusals. */
  migrations?: readonly Migration[];
  /** Lowercase ISO 4217: the currency of money a server sends without one (default 'usd'). */
  currency?: string;
  /** Store mode (docs/store-mode.md): every outbox operation on an order or its money also appends to the till's log. Off: no log rows. */
  storeMode?: boolean;
}

export class Store {
  readonly file: string;
  readonly db: Database;
  readonly kysely: Kysely<StoreTables>;
  /** Schema version after migrating. */
  readonly version: number;
  /** The sync engine's side: operations waiting for the server. */
  readonly outbox: Outbox;
  /** The sync engine's side: pulls, webhooks, cursors. */
  readonly server: ServerState;
  readonly ids: IdMap;
  /** Orders the server priced differently from the till, until a manager settles them. */
  readonly repricedOrders: RepricedOrders;
  /** The cashier's side: orders, payments, refunds, menu, locations, settings, audit. */
  readonly cashier: CashierRepositories;
  /** Deletes old orders the cloud already has in full (docs/store.md, "Retention"). */
  readonly retention: Retention;
  /** Receipts, kitchen tickets, drawer kicks and reports until printed (docs/printing.md). */
  readonly printQueue: PrintQueue;
  /** Staff and the sign-in guard (migration 14). */
  readonly staff: StaffRoster;
  /** Store mode: who shares a PIN with whom, found so (migration 33, docs/staff.md). */
  readonly sharedPins: SharedPins;
  /** The floor's sections and tables (migration 18, docs/tables.md). */
  readonly floor: FloorPlan;
  /** A kitchen display's memory of its tickets: first shown, bumped, recalled (migration 26, docs/kitchen-display.md). */
  readonly kitchen: KitchenDisplayMemory;
  /** Answers of bridge commands that create something, by request id (migration 16). */
  readonly requests: RequestLedger;
  /** Shifts, cash movements and who did what (migration 14). */
  readonly shifts: ShiftBook;
  /** Store mode: this till's log, served to its peers (migration 23). */
  readonly log: StoreLog;
  /** Store mode: the other tills' logs as pulled, their cursors, and their latest documents. */
  readonly replicas: StoreReplicas;
  /** Store mode: orders taken over from a till that went quiet, and this till's given up (migration 28). */
  readonly adoptions: StoreAdoptions;
  /** What open checked: the whole file after an unclean shutdown, else the header, schema and register tables. */
  readonly openCheck: 'whole_file' | 'register_tables';
  /** Set when a whole-file check found damage: the close then leaves no clean-close marker. */
  #damage: IntegrityReport | undefined;
  /** Taken by every write transaction: a catch-up's apply thread lets them go first (store/write-turn.ts). */
  readonly #writeTurn = new WriteTurn();
  /** One transaction wrapper for every call: better-sqlite3's db.transaction() is costly to build. */
  readonly #runInTransaction: BetterSqlite3.Transaction<(fn: () => unknown) => unknown>;

  constructor(file: string, options: StoreOptions = {}) {
    const opened = openDatabase(file, options.migrations ?? STORE_MIGRATIONS);
    this.file = file;
    this.db = opened.db;
    this.kysely = opened.kysely;
    this.version = opened.version;
    this.openCheck = opened.checked;
    this.#runInTransaction = opened.db.transaction((fn: () => unknown) => fn());
    const transaction = <T>(fn: () => T): T => this.transaction(fn);
    const layers = new EntityLayers(opened.sql);
    const pending = new PendingChanges(opened.sql, layers);
    this.ids = new IdMap(opened.kysely, opened.sql);
    this.server = new ServerState(opened.kysely, opened.sql, pending, this.ids, transaction, options.clock ?? systemClock, options.currency ?? 'usd');
    this.repricedOrders = new RepricedOrders(opened.kysely, opened.sql);
    this.log = new StoreLog(opened.sql, layers, options.storeMode ?? false);
    this.replicas = new StoreReplicas(opened.sql, <T>(fn: () => T): T => this.refetchableTransaction(fn));
    this.outbox = new Outbox(opened.kysely, opened.sql, pending, this.ids, this.server, this.repricedOrders, transaction, this.log);
    this.adoptions = new StoreAdoptions(opened.sql, layers, pending, this.ids, (entry) => this.log.append(entry), (entry) => this.log.record({ ...entry, op: 'adopted' }));
    this.cashier = new CashierRepositories(opened.kysely, opened.sql, layers, this.outbox, options.clock ?? systemClock, transaction);
    this.retention = new Retention(opened.sql, transaction);
    this.printQueue = new PrintQueue(opened.kysely, opened.sql, transaction, options.clock ?? systemClock);
    this.staff = new StaffRoster(opened.sql, transaction);
    this.sharedPins = new SharedPins(opened.sql, transaction);
    this.requests = new RequestLedger(opened.sql, transaction);
    this.floor = new FloorPlan(opened.sql, transaction);
    this.kitchen = new KitchenDisplayMemory(opened.sql, transaction);
    this.shifts = new ShiftBook(opened.sql);
  }

  /**
   * Runs `fn` in one IMMEDIATE transaction (nested calls become savepoints). Committed, with
   * synchronous=FULL, when this returns; rolled back entirely if `fn` throws.
   */
  transaction<T>(fn: () => T): T {
    if (this.db.inTransaction) return this.#runInTransaction(fn) as T;
    let result: T;
    try {
      result = this.#writeTurn.register(() => this.#runInTransaction.immediate(fn) as T);
    } catch (error) {
      this.log.rolledBack();
      throw error;
    }
    // Committed: the peers waiting on this till's log may read what it appended.
    this.log.committed();
    return result;
  }

  /**
   * Like `transaction`, but the commit does not wait for the disk (synchronous=NORMAL for this
   * one commit): it is atomic and survives a crash of the app, and a power cut can lose it, but
   * only together with every later commit of the same kind — never a durable one, since the
   * next commit made with synchronous=FULL syncs the whole log before it. Only for what can be
   * fetched again, such as a pulled page with its cursor: losing it means pulling it again.
   * Nested in another transaction it is a savepoint of that one, durable as that one is.
   */
  refetchableTransaction<T>(fn: () => T): T {
    if (this.db.inTransaction) return this.transaction(fn);
    // The setting cannot change inside a transaction, and nothing else runs until it is restored.
    // SQLite applies it when the PRAGMA is compiled: a statement prepared once would do nothing.
    this.db.pragma('synchronous = NORMAL');
    try {
      return this.transaction(fn);
    } finally {
      this.db.pragma('synchronous = FULL');
    }
  }

  /** A thread applying a catch-up's pages on a connection of its own (store/replica-apply-thread.ts): stop it before close(). */
  replicaApplyThread(onFailure: (message: string) => void): ReplicaApplyThread {
    const autocheckpoint = this.db.pragma('wal_autocheckpoint', { simple: true }) as number;
    // While it lives the thread checkpoints; this connection only for a log far behind (64 MiB), should the thread stall.
    const hold = (held: boolean): void => {
      // The thread may end after the store closed (a failure at shutdown): nothing is left to restore then.
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${held ? 16_384 : autocheckpoint}`);
    };
    return new ReplicaApplyThread(this.file, BUSY_TIMEOUT_MS, this.#writeTurn, hold, onFailure);
  }

  serverIdFor: IdMap['serverIdFor'] = (kind, localId) => this.ids.serverIdFor(kind, localId);
  localIdFor: IdMap['localIdFor'] = (kind, serverId) => this.ids.localIdFor(kind, serverId);

  /** `PRAGMA integrity_check`: 'ok' or the problems found. */
  integrityCheck(): string[] {
    return (this.db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
  }

  /**
   * The whole-file check (PRAGMA quick_check) that open skips after a clean close, on a read-only
   * connection in a worker thread: call it once after start, when the register is up. It never
   * writes to the store. On damage it resolves `{ status: 'corrupt', problems }` for main/core to
   * show loudly, and removes the clean-close marker so the next open reads the whole file and
   * refuses it (StoreError corrupt_database) instead of selling on a damaged file.
   */
  async verifyIntegrity(): Promise<IntegrityReport> {
    const report = await checkWholeFileInWorker(this.file);
    if (report.status === 'corrupt') {
      this.#damage = report;
      removeCleanCloseMarker(this.file);
    }
    return report;
  }

  /**
   * Copies the log back into the file, closes, and (unless damage was found) leaves the
   * clean-close marker: the next open may then skip reading the whole file.
   */
  close(): void {
    if (!this.db.open) return;
    let checkpointed = false;
    try {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      checkpointed = result?.busy === 0;
    } catch {
      // The log stays; the next open replays it and, without a marker, reads the whole file.
    }
    this.db.close();
    // A log still holding frames (a reader kept it) means the file alone is not the whole store.
    if (!checkpointed || this.#damage !== undefined || hasWriteAheadLog(this.file)) return;
    try {
      writeCleanCloseMarker(this.file);
    } catch {
      // A read-only or full folder: the next open only does the whole-file check it would skip.
    }
  }
}

/** Opens (creating and migrating if needed) the store at `file`. Throws StoreError on a file it must not touch. */
export function openStore(file: string, options: StoreOptions = {}): Store {
  return new Store(file, options);
}
