// The server's truth coming in: pulled pages, webhook events and the records returned when an
// operation completes. All of it lands in the base layer only; the pending layer is then replayed
// on top, so nothing here can erase a change that has not been pushed.
import type { Kysely } from 'kysely';
import { EntityDocs, type EntityDoc, type EntityKind } from './documents';
import type { SqlRunner } from './database';
import { StoreError } from './errors';
import type { IdMap } from './id-map';
import { ENTITY_TABLES } from './layers';
import type { PendingChanges } from './pending';
import type { StoreTables } from './schema';

/** A record as the server knows it: its own id, references in server ids, any subset of the document's fields. */
export type ServerRecord = { id: string } & Record<string, unknown>;

export interface PullPage {
  kind: EntityKind;
  /** Names the pull, e.g. "menu_item:loc_1"; the cursor and the deletion sweep are per scope. */
  scope: string;
  records: readonly ServerRecord[];
  /** Where the next page starts (opaque to the store); saved in the same transaction as the records. */
  cursor: string | null;
  /** When the pull that fetched this page started (its high-water mark). */
  pullStartedAt: number;
}

export interface CursorState {
  cursor: string | null;
  highWaterMark: number | null;
}

export interface WebhookEventRecord {
  eventId: string;
  type: string;
  payload: unknown;
  receivedAt: number;
}

/** Reference fields of each kind and the kind they point to. */
const REFERENCES: Partial<Record<EntityKind, Record<string, EntityKind>>> = {
  order: { location_id: 'location' },
  menu_item: { location_id: 'location', category_id: 'category' },
  payment_intent: { order_id: 'order' },
  payment: { order_id: 'order', payment_intent_id: 'payment_intent' },
  refund: { payment_id: 'payment' },
};

export class ServerState {
  constructor(
    private readonly kysely: Kysely<StoreTables>,
    private readonly sql: SqlRunner,
    private readonly pending: PendingChanges,
    private readonly ids: IdMap,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {}

  /** Rewrites server ids in a record's references to local ids where the map knows them. */
  #localize(kind: EntityKind, record: ServerRecord): Record<string, unknown> {
    const out: Record<string, unknown> = { ...record };
    for (const [field, target] of Object.entries(REFERENCES[kind] ?? {})) {
      const value = out[field];
      if (typeof value === 'string') out[field] = this.ids.localIdFor(target, value) ?? value;
    }
    if (kind === 'menu_item' && Array.isArray(out.modifier_ids)) {
      out.modifier_ids = out.modifier_ids.map((m: string) => this.ids.localIdFor('modifier', m) ?? m);
    }
    if (kind === 'order' && Array.isArray(out.lines)) {
      out.lines = (out.lines as Record<string, unknown>[]).map((line) => ({
        ...line,
        menu_item_id: typeof line.menu_item_id === 'string' ? (this.ids.localIdFor('menu_item', line.menu_item_id) ?? line.menu_item_id) : line.menu_item_id,
        modifiers: Array.isArray(line.modifiers)
          ? (line.modifiers as Record<string, unknown>[]).map((m) => ({
              ...m,
              modifier_id: typeof m.modifier_id === 'string' ? (this.ids.localIdFor('modifier', m.modifier_id) ?? m.modifier_id) : m.modifier_id,
            }))
          : line.modifiers,
      }));
    }
    return out;
  }

  /**
   * Writes a server record into the base layer of the entity with local id `localId` (found through
   * the id map by the caller) and replays the entity's unfinished operations on top. Fields the
   * record lacks keep their value in `startFrom` (the current base by default; the /v1 spec does
   * not list every field, see docs/store.md). Call inside a transaction.
   */
  writeBase(
    kind: EntityKind,
    localId: string,
    record: ServerRecord,
    meta: { pullScope?: string; lastSeenAt?: number } = {},
    startFrom: EntityDoc<EntityKind> | undefined = this.pending.layers.read(kind, localId, 'base'),
  ): EntityDoc<EntityKind> {
    const { table } = ENTITY_TABLES[kind];
    const existing = this.sql.allSql<{ pull_scope: string | null; last_seen_at: number | null }>(
      `SELECT pull_scope, last_seen_at FROM ${table} WHERE id = ? AND layer = 'base'`,
      [localId],
    )[0];
    const parsed = EntityDocs[kind].safeParse({ ...startFrom, ...this.#localize(kind, record), id: localId });
    if (!parsed.success) {
      throw new StoreError('conflict', `server ${kind} ${record.id} is not a whole ${kind}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
    const doc = parsed.data as EntityDoc<EntityKind>;
    this.pending.layers.write(kind, doc, 'base', {
      pullScope: meta.pullScope ?? existing?.pull_scope ?? null,
      lastSeenAt: meta.lastSeenAt ?? existing?.last_seen_at ?? null,
    });
    this.pending.rebuild(kind, localId);
    return doc;
  }

  /** Local id of a server entity, creating the self-link for an entity first seen from the server. */
  #localIdOf(kind: EntityKind, serverId: string): string {
    const known = this.ids.localIdFor(kind, serverId);
    if (known !== undefined) return known;
    this.ids.link(kind, serverId, serverId);
    return serverId;
  }

  /** Upserts one server record (from a webhook or a single GET); returns its local id. */
  applyServerRecord(kind: EntityKind, record: ServerRecord): string {
    return this.transaction(() => {
      const localId = this.#localIdOf(kind, record.id);
      this.writeBase(kind, localId, record);
      return localId;
    });
  }

  /** Removes an entity's base (the server deleted it); unfinished local operations stay and are replayed. */
  removeServerRecord(kind: EntityKind, serverId: string): void {
    this.transaction(() => {
      const localId = this.ids.localIdFor(kind, serverId);
      if (localId === undefined) return;
      this.pending.layers.remove(kind, localId, 'base');
      this.pending.rebuild(kind, localId);
    });
  }

  /** One page of a pull and its cursor, in one transaction: a crash mid-pull resumes at a page boundary. */
  applyPullPage(page: PullPage): string[] {
    return this.transaction(() => {
      const localIds = page.records.map((record) => {
        const localId = this.#localIdOf(page.kind, record.id);
        this.writeBase(page.kind, localId, record, { pullScope: page.scope, lastSeenAt: page.pullStartedAt });
        return localId;
      });
      this.setCursor(page.scope, { cursor: page.cursor });
      return localIds;
    });
  }

  /**
   * After a full pull of a scope that started at `pullStartedAt`: base rows of that scope the pull
   * did not see are gone on the server. Their unfinished local operations stay. Returns the local ids swept.
   */
  sweepDeletions(kind: EntityKind, scope: string, pullStartedAt: number): string[] {
    return this.transaction(() => {
      const { table } = ENTITY_TABLES[kind];
      const stale = this.sql.allSql<{ id: string }>(
        `SELECT id FROM ${table} WHERE layer = 'base' AND pull_scope = ? AND (last_seen_at IS NULL OR last_seen_at < ?)`,
        [scope, pullStartedAt],
      );
      for (const { id } of stale) {
        this.pending.layers.remove(kind, id, 'base');
        this.pending.rebuild(kind, id);
      }
      return stale.map((r) => r.id);
    });
  }

  /** The confirmed (base) document of an entity, without pending changes: what the server said last. */
  readBase<K extends EntityKind>(kind: K, localId: string): EntityDoc<K> | undefined {
    return this.pending.layers.read(kind, localId, 'base');
  }

  /**
   * Local ids of the base rows of a scope not seen by a pull since `pullStartedAt`: the candidates
   * `sweepDeletions` would remove. The engine confirms them before sweeping when it can.
   */
  staleBaseIds(kind: EntityKind, scope: string, pullStartedAt: number): string[] {
    const { table } = ENTITY_TABLES[kind];
    return this.sql
      .allSql<{ id: string }>(`SELECT id FROM ${table} WHERE layer = 'base' AND pull_scope = ? AND (last_seen_at IS NULL OR last_seen_at < ?)`, [scope, pullStartedAt])
      .map((r) => r.id);
  }

  getCursor(scope: string): CursorState | undefined {
    const row = this.sql.first(this.kysely.selectFrom('sync_cursors').select(['cursor', 'high_water_mark']).where('scope', '=', scope));
    return row && { cursor: row.cursor, highWaterMark: row.high_water_mark };
  }

  /** Sets the given fields of a scope's cursor state, keeping the others. */
  setCursor(scope: string, state: Partial<CursorState>, now: number = Date.now()): void {
    const current = this.getCursor(scope);
    const next = {
      cursor: state.cursor !== undefined ? state.cursor : (current?.cursor ?? null),
      high_water_mark: state.highWaterMark !== undefined ? state.highWaterMark : (current?.highWaterMark ?? null),
    };
    this.sql.run(
      this.kysely
        .insertInto('sync_cursors')
        .values({ scope, ...next, updated_at: now })
        .onConflict((oc) => oc.column('scope').doUpdateSet({ ...next, updated_at: now })),
    );
  }

  /**
   * Records a webhook event by its id and applies it in the same transaction. A duplicate is
   * reported and not applied; if `apply` throws, neither the event nor its effects are kept, so a
   * redelivery can try again.
   */
  recordWebhookEvent(event: WebhookEventRecord, apply: () => void): 'applied' | 'duplicate' {
    return this.transaction(() => {
      // Fixed SQL text: this runs for every delivery (thousands a second at peak).
      const inserted = this.sql.runSql(
        'INSERT INTO webhook_inbox (event_id, type, payload, received_at) VALUES (?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING',
        [event.eventId, event.type, JSON.stringify(event.payload), event.receivedAt],
      );
      if (inserted.changes === 0) return 'duplicate';
      apply();
      return 'applied';
    });
  }

  hasWebhookEvent(eventId: string): boolean {
    return this.sql.first(this.kysely.selectFrom('webhook_inbox').select('event_id').where('event_id', '=', eventId)) !== undefined;
  }
}
