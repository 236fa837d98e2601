// Entities as two layers of rows: 'base' (confirmed truth: the server's, or the till's for cash)
// and 'pending' (base with every local operation not done replayed on top, refused ones included
// until a person decides). Reads take the pending row when there is one. Pulls and webhooks write
// only base, then replay those operations again, so a server update never erases a local change.
import { EntityDocs, type EntityDoc, type EntityKind } from './documents';
import type { SqlRunner } from './database';
import type { Layer } from './schema';

type ColumnType = 'text' | 'int' | 'bool' | 'json';
interface EntityTable {
  table: string;
  /** Header columns besides id and the layer columns, in document field names. */
  columns: Record<string, ColumnType>;
}

/** Where each kind lies on disk. An order's customer is split into two columns; its lines are one JSON column. */
export const ENTITY_TABLES: Record<EntityKind, EntityTable> = {
  location: { table: 'locations', columns: { name: 'text', currency: 'text', address: 'text', timezone: 'text', tax: 'json', country: 'text' } },
  category: { table: 'categories', columns: { name: 'text', position: 'int' } },
  modifier: { table: 'modifiers', columns: { name: 'text', price: 'int' } },
  menu_item: {
    table: 'menu_items',
    columns: {
      location_id: 'text', category_id: 'text', name: 'text', description: 'text', price: 'int', currency: 'text',
      available: 'bool', low_stock: 'bool', modifier_ids: 'json', deleted: 'bool', barcode: 'text', tax_class: 'text', modifier_groups: 'json',
    },
  },
  order: {
    table: 'orders',
    columns: {
      location_id: 'text', status: 'text', currency: 'text', customer_name: 'text', customer_phone: 'text',
      notes: 'text', total: 'int', created_at: 'int', updated_at: 'int', lines: 'json',
      number: 'text', business_day: 'text', service: 'json', channel: 'text', pricing: 'json', discount: 'json', check_total: 'int', cloud_check: 'json', split: 'json', courses: 'json', gratuity: 'json',
    },
  },
  payment_intent: {
    table: 'payment_intents',
    columns: { order_id: 'text', amount: 'int', currency: 'text', status: 'text', created_at: 'int', tip: 'int', split_part: 'text', gratuity: 'int' },
  },
  payment: {
    table: 'payments',
    columns: { order_id: 'text', payment_intent_id: 'text', method: 'text', amount: 'int', currency: 'text', status: 'text', created_at: 'int', tip: 'int', split_part: 'text', gratuity: 'int' },
  },
  refund: {
    table: 'refunds',
    columns: { payment_id: 'text', amount: 'int', currency: 'text', reason: 'text', status: 'text', created_at: 'int', items: 'json', note: 'text' },
  },
};

export interface BaseRowMeta {
  pullScope: string | null;
  lastSeenAt: number | null;
}

type Row = Record<string, unknown>;

/** The value a document field takes in its row (orders: the customer is split into two columns). */
function columnValue(doc: Row, name: string, type: ColumnType): unknown {
  if (name === 'customer_name' || name === 'customer_phone') {
    const customer = doc.customer as { name: string; phone: string } | null;
    return customer === null ? null : name === 'customer_name' ? customer.name : customer.phone;
  }
  const value = doc[name];
  return type === 'json' ? JSON.stringify(value) : value;
}

/** Rows per multi-row insert: well under SQLite's 32,766 bound values for every kind. */
const ROWS_PER_INSERT = 200;

/** Each kind's columns as [name, type] pairs, listed once: a pull writes them for every record. */
const COLUMN_LISTS = Object.fromEntries(
  Object.entries(ENTITY_TABLES).map(([kind, { columns }]) => [kind, Object.entries(columns)]),
) as Record<EntityKind, [string, ColumnType][]>;

export class EntityLayers {
  readonly #sql: SqlRunner;
  readonly #insertSql = new Map<string, string>();

  constructor(sql: SqlRunner) {
    this.#sql = sql;
  }

  read<K extends EntityKind>(kind: K, id: string, layer: Layer): EntityDoc<K> | undefined {
    return this.readWithMeta(kind, id, layer)?.doc;
  }

  /** One layer of an entity with the pull's marks on its row. */
  readWithMeta<K extends EntityKind>(kind: K, id: string, layer: Layer): { doc: EntityDoc<K>; meta: BaseRowMeta } | undefined {
    const { table } = ENTITY_TABLES[kind];
    const [row] = this.#sql.allSql<Row>(`SELECT * FROM ${table} WHERE id = ? AND layer = ?`, [id, layer]);
    if (!row) return undefined;
    return { doc: this.fromRow(kind, row), meta: { pullScope: (row.pull_scope as string | null) ?? null, lastSeenAt: (row.last_seen_at as number | null) ?? null } };
  }

  /** Which of these ids have a row in each layer (one query for a pulled page). */
  existingLayers(kind: EntityKind, ids: readonly string[]): Record<Layer, Set<string>> {
    const rows = this.#sql.allSql<{ id: string; layer: Layer }>(
      `SELECT id, layer FROM ${ENTITY_TABLES[kind].table} WHERE id IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(ids)],
    );
    const layers: Record<Layer, Set<string>> = { base: new Set(), pending: new Set() };
    for (const row of rows) layers[row.layer].add(row.id);
    return layers;
  }

  /** Updates only the pull's marks of a row whose content did not change. */
  setMeta(kind: EntityKind, id: string, layer: Layer, meta: BaseRowMeta): void {
    this.#sql.runSql(`UPDATE ${ENTITY_TABLES[kind].table} SET pull_scope = ?, last_seen_at = ? WHERE id = ? AND layer = ?`, [meta.pullScope, meta.lastSeenAt, id, layer]);
  }

  /** The cashier's view of one entity: pending if any, else base. */
  merged<K extends EntityKind>(kind: K, id: string): EntityDoc<K> | undefined {
    return this.read(kind, id, 'pending') ?? this.read(kind, id, 'base');
  }

  /** Turns a row of the entity's table (or its merged view) into its document. */
  fromRow<K extends EntityKind>(kind: K, row: Row): EntityDoc<K> {
    const doc: Row = { id: row.id };
    for (const [name, type] of COLUMN_LISTS[kind]) {
      const value = row[name];
      doc[name] = type === 'bool' ? value === 1 : type === 'json' ? JSON.parse(value as string) : value;
    }
    if (kind === 'order') {
      doc.customer = row.customer_name == null ? null : { name: row.customer_name, phone: row.customer_phone ?? '' };
      delete doc.customer_name;
      delete doc.customer_phone;
    }
    return doc as EntityDoc<K>;
  }

  /**
   * Inserts rows for entities that have none in the layer (most of a first pull), a few hundred
   * per statement: one statement per row cost half again as much. Call inside a transaction.
   */
  insertMany<K extends EntityKind>(kind: K, docs: readonly EntityDoc<K>[], layer: Layer, meta: BaseRowMeta): void {
    const columns = COLUMN_LISTS[kind];
    for (let start = 0; start < docs.length; start += ROWS_PER_INSERT) {
      const chunk = docs.slice(start, start + ROWS_PER_INSERT);
      const values: unknown[] = [];
      for (const doc of chunk) {
        values.push(doc.id, layer, meta.pullScope, meta.lastSeenAt);
        for (const [name, type] of columns) values.push(columnValue(doc as Row, name, type));
      }
      this.#sql.runSql(this.#insertStatement(kind, chunk.length), values);
    }
  }

  /** Replaces the entity's row in one layer. Call inside a transaction. */
  write<K extends EntityKind>(
    kind: K,
    doc: EntityDoc<K>,
    layer: Layer,
    meta: BaseRowMeta = { pullScope: null, lastSeenAt: null },
    { fresh = false }: { fresh?: boolean } = {},
  ): void {
    // A fresh id has no row to replace; the primary key still refuses a duplicate.
    if (!fresh) this.remove(kind, doc.id, layer);
    const values: unknown[] = [doc.id, layer, meta.pullScope, meta.lastSeenAt];
    for (const [name, type] of COLUMN_LISTS[kind]) values.push(columnValue(doc as Row, name, type));
    this.#sql.runSql(this.#insertStatement(kind, 1), values);
  }

  /** `INSERT … VALUES (…), …` for `rows` rows; the statement cache keeps one text per kind and row count. */
  #insertStatement(kind: EntityKind, rows: number): string {
    const key = `${kind}:${rows}`;
    let sql = this.#insertSql.get(key);
    if (!sql) {
      const { table, columns } = ENTITY_TABLES[kind];
      const names = ['id', 'layer', 'pull_scope', 'last_seen_at', ...Object.keys(columns)];
      const row = `(${names.map(() => '?').join(', ')})`;
      sql = `INSERT INTO ${table} (${names.join(', ')}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;
      this.#insertSql.set(key, sql);
    }
    return sql;
  }

  /** Deletes one layer of an entity. */
  remove(kind: EntityKind, id: string, layer: Layer): void {
    this.#sql.runSql(`DELETE FROM ${ENTITY_TABLES[kind].table} WHERE id = ? AND layer = ?`, [id, layer]);
  }

  /**
   * Applies a patch (the fields an operation changes) to a document. Returns undefined when the
   * result is not a whole document: a change to an entity whose base is gone and that was not
   * created locally — it stays in the outbox and the server decides.
   */
  applyPatch<K extends EntityKind>(kind: K, current: EntityDoc<K> | undefined, patch: Partial<EntityDoc<K>>): EntityDoc<K> | undefined {
    const result = EntityDocs[kind].safeParse({ ...current, ...patch });
    return result.success ? (result.data as EntityDoc<K>) : undefined;
  }

  /** Recomputes the pending layer: base with the given patches (operations not done) replayed in order. */
  rebuildPending<K extends EntityKind>(kind: K, id: string, patches: readonly Partial<EntityDoc<K>>[]): void {
    this.remove(kind, id, 'pending');
    if (patches.length === 0) return;
    let doc = this.read(kind, id, 'base');
    for (const patch of patches) doc = this.applyPatch(kind, doc, patch);
    if (doc) this.write(kind, doc, 'pending');
  }
}
