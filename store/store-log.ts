// This till's log for store mode (docs/store-mode.md): one entry per outbox operation on an order or
// its money, written in the operation's own transaction, carrying the entity's document as it is
// after the write, so a peer shows it without replaying operations. A second entry says when an
// operation reached the cloud. Forwards (store-forwards.ts) and staff versions (store-staff.ts) are
// appended too. Off (no rows, no reads) unless the store was opened in store mode.
import type { SqlRunner } from './database';
import type { EntityDoc, EntityKind, OperationKind } from './documents';
import type { EntityLayers } from './layers';
import { StoreForwards, type RawEntry } from './store-forwards';

/** The documents peers need now: the store's orders, and what was paid and given back on them. */
const LOGGED_KINDS: ReadonlySet<EntityKind> = new Set(['order', 'payment_intent', 'payment', 'refund']);

/** What an entry says, as JSON in its body. */
export interface LogBody {
  /**
   * The operation's kind; 'done' when one reached the cloud, 'dropped' when a person discarded a
   * refused one, 'settled' for what the till settles itself with no operation (cash taken or given back),
   * 'adopted' for an entity this till took over from a till that went quiet (store-adoption.ts).
   */
  op: OperationKind | 'done' | 'dropped' | 'settled' | 'adopted';
  kind: EntityKind;
  id: string;
  /** The order the entity belongs to (an order: itself). */
  order: string | null;
  /** Nothing of this entity is left to send to the cloud (nothing pending, in flight or refused). */
  synced: boolean;
  /** The entity's document after the write; null when the till no longer has it. */
  doc: EntityDoc<EntityKind> | null;
  /** An order's server here (the staff id it is attributed to), so another till asks for 'order.adopt' as this one would; null when no one's. */
  staff?: string | null;
  /** The outbox operation itself (an operation's own entry): what another till needs to send it in this till's place. */
  operation?: LoggedOperation;
  /** 'done': the entity's id in the cloud, so a till taking the order over sends its later changes to the right record. */
  serverId?: string;
}

/** An outbox operation as the log carries it: the same op id (the entry's), request and patch on any till. */
export interface LoggedOperation {
  payload: Record<string, unknown>;
  patch: Record<string, unknown>;
  dependsOn: readonly string[];
  resourceKey: string;
  basedOn: unknown[] | null;
  createdAt: number;
}

export interface LogEntry {
  seq: number;
  opId: string;
  body: Uint8Array;
}

/** What the outbox tells the log about one of its writes. */
export interface LoggedChange {
  /** Unique in the log: the operation's id for its write, derived from it for what follows. */
  entryId: string;
  op: LogBody['op'];
  kind: EntityKind;
  id: string;
  now: number;
  operation?: LoggedOperation;
  serverId?: string;
}

/**
 * Fields a peer has no use for, left out to keep entries small: the cloud's own bill. The tax rules
 * priced with travel: the store's day splits each till's sales into net and tax with them.
 */
const ORDER_FIELDS_LEFT_OUT = ['cloud_check'] as const;

export class StoreLog {
  readonly enabled: boolean;
  /** Changes to other tills' orders sent from here, and those other tills sent to this one. */
  readonly forwards: StoreForwards;
  readonly #sql: SqlRunner;
  readonly #layers: EntityLayers;
  readonly #listeners = new Set<() => void>();
  /** An entry was written in the transaction under way: listeners hear of it once it commits. */
  #appendedUncommitted = false;

  constructor(sql: SqlRunner, layers: EntityLayers, enabled: boolean) {
    this.#sql = sql;
    this.#layers = layers;
    this.enabled = enabled;
    this.forwards = new StoreForwards(sql, (entry) => this.append(entry));
  }

  /** This file's log id (migration 23): a replaced file has another one. */
  logId(): string {
    const [row] = this.#sql.allSql<{ value: string }>("SELECT value FROM store_meta WHERE key = 'log_id'", []);
    if (!row) throw new Error('the store has no log id (migration 23 missing)');
    return row.value;
  }

  /** Appends the entity's entry; call inside the write's transaction. Nothing when store mode is off or the kind is not replicated. */
  record(change: LoggedChange): void {
    if (!this.enabled || !LOGGED_KINDS.has(change.kind)) return;
    const doc = this.#layers.merged(change.kind, change.id) ?? null;
    const body: LogBody = { op: change.op, kind: change.kind, id: change.id, order: this.#orderOf(change.kind, doc), synced: this.#synced(change.kind, change.id), doc: doc && slim(change.kind, doc) };
    // An order placed here is attributed after its create is logged: migration 25's trigger fills that one in.
    if (change.kind === 'order') body.staff = this.#server(change.id);
    if (change.operation) body.operation = change.operation;
    if (change.serverId !== undefined) body.serverId = change.serverId;
    this.append({ entryId: change.entryId, kind: change.kind, id: change.id, body, now: change.now });
  }

  /** Appends an entry; call inside the write's transaction (listeners hear of it once it commits). */
  append(entry: RawEntry): void {
    if (!this.enabled) throw new Error('store mode is off: this till keeps no log');
    this.#sql.runSql('INSERT INTO store_log (op_id, entity_kind, entity_id, body, created_at) VALUES (?, ?, ?, ?, ?)', [
      entry.entryId, entry.kind, entry.id, Buffer.from(JSON.stringify(entry.body)), entry.now,
    ]);
    this.#appendedUncommitted = true;
  }

  read(after: number, limit: number): LogEntry[] {
    return this.#sql.allSql<LogEntry>('SELECT seq, op_id AS opId, body FROM store_log WHERE seq > ? ORDER BY seq LIMIT ?', [after, limit]);
  }

  maxSeq(): number {
    return this.#sql.allSql<{ seq: number }>('SELECT COALESCE(MAX(seq), 0) AS seq FROM store_log', [])[0]?.seq ?? 0;
  }

  /** Called after each commit that appended: the feed wakes the peers waiting on this log. */
  onAppended(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The store's outermost transaction committed. */
  committed(): void {
    if (!this.#appendedUncommitted) return;
    this.#appendedUncommitted = false;
    for (const listener of this.#listeners) listener();
  }

  /** The store's outermost transaction rolled back: its entries are gone with it. */
  rolledBack(): void {
    this.#appendedUncommitted = false;
  }

  #orderOf(kind: EntityKind, doc: EntityDoc<EntityKind> | null): string | null {
    if (doc === null) return null;
    if (kind === 'order') return doc.id;
    if (kind === 'refund') return this.#layers.merged('payment', (doc as EntityDoc<'refund'>).payment_id)?.order_id ?? null;
    return (doc as EntityDoc<'payment' | 'payment_intent'>).order_id;
  }

  #server(orderId: string): string | null {
    return this.#sql.allSql<{ staff: string }>("SELECT staff_id AS staff FROM attributions WHERE entity_kind = 'order' AND entity_id = ?", [orderId])[0]?.staff ?? null;
  }

  #synced(kind: EntityKind, id: string): boolean {
    return this.#sql.allSql(`SELECT 1 FROM outbox WHERE entity_kind = ? AND entity_id = ? AND state IN ('pending', 'in_flight', 'dead') LIMIT 1`, [kind, id]).length === 0;
  }
}

function slim(kind: EntityKind, doc: EntityDoc<EntityKind>): EntityDoc<EntityKind> {
  if (kind !== 'order') return doc;
  const copy: Record<string, unknown> = { ...doc };
  for (const field of ORDER_FIELDS_LEFT_OUT) delete copy[field];
  return copy as EntityDoc<EntityKind>;
}
