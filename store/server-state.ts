// The server's truth coming in: pulled pages, webhook events and the records returned when an
// operation completes. All of it lands in the base layer only; the pending layer is then replayed
// on top, so nothing here can erase a change that has not been pushed.
import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import type { Clock } from '../common/clock';
import { EntityDocs, TILL_ONLY_DEFAULTS, unstatedFieldDefaults, type EntityDoc, type EntityKind } from './documents';
import type { SqlRunner } from './database';
import { StoreError } from './errors';
import type { IdMap } from './id-map';
import { carryLineExtras } from './order-lines';
import { ENTITY_TABLES, type BaseRowMeta } from './layers';
import type { PendingChanges } from './pending';
import type { StoreTables } from './schema';

/** A record as the server knows it: its own id, references in server ids, any subset of the document's fields. */
export type ServerRecord = { id: string } & Record<string, unknown>;

export interface PullPage {
  kind: EntityKind;
  /** Names the pull, e.g. "menu_item:loc_1"; the cursor and the deletion sweep are per scope. */
  scope: string;
  records: readonly ServerRecord[];
  /**
   * Where the next page starts (opaque to the store); saved in the same transaction as the
   * records. Left out, the scope's cursor stays as it is (a partial pull resumes nothing, and must
   * not erase where an interrupted full pull of the scope stood).
   */
  cursor?: string | null;
  /** When the pull that fetched this page started (its high-water mark). */
  pullStartedAt: number;
}

export interface CursorState {
  cursor: string | null;
  highWaterMark: number | null;
}

/** Cursor scopes holding the server's word for an order state the terminal does not know: `order_status:<server id>`. */
const CLOUD_ORDER_STATUS = 'order_status:';
const CLOUD_ORDER_STATUS_END = 'order_status;';

/** The webhook resource type (`data.type`) of the entity kinds whose kept events a pulled page supersedes. */
const SUPERSEDING_KINDS: Partial<Record<EntityKind, string>> = { order: 'order', menu_item: 'menu_item' };

export interface WebhookEventRecord {
  eventId: string;
  type: string;
  payload: unknown;
  receivedAt: number;
}

type LocalIdLookup = (kind: EntityKind, serverId: string) => string | undefined;

/** Reference fields of each kind and the kind they point to. */
const REFERENCES: Partial<Record<EntityKind, Record<string, EntityKind>>> = {
  order: { location_id: 'location' },
  menu_item: { location_id: 'location', category_id: 'category' },
  payment_intent: { order_id: 'order' },
  payment: { order_id: 'order', payment_intent_id: 'payment_intent' },
  refund: { payment_id: 'payment' },
};

/**
 * Whether `incoming` is an older version than `stored`, by `updated_at` (the only version stamp
 * the /v1 records carry; kinds without it are never older). Equal stamps apply: the server may
 * correct a record without bumping it.
 */
function isOlderThan(incoming: EntityDoc<EntityKind>, stored: EntityDoc<EntityKind>): boolean {
  const incomingStamp = (incoming as { updated_at?: unknown }).updated_at;
  const storedStamp = (stored as { updated_at?: unknown }).updated_at;
  return typeof incomingStamp === 'number' && typeof storedStamp === 'number' && incomingStamp < storedStamp;
}

/**
 * Whether the till sold this order itself: it gave it a business day (only the till keeps one), or
 * made it under a local id the server's id was linked to later (an entity first seen from the
 * server keeps the server's id).
 */
function soldHere(order: EntityDoc<'order'>, localId: string, serverId: string): boolean {
  return order.business_day !== null || localId !== serverId;
}

export class ServerState {
  constructor(
    private readonly kysely: Kysely<StoreTables>,
    private readonly sql: SqlRunner,
    private readonly pending: PendingChanges,
    private readonly ids: IdMap,
    private readonly transaction: <T>(fn: () => T) => T,
    private readonly clock: Clock,
    /** The store's currency: money a server sends without one is in it (StoreOptions.currency). */
    private readonly currency: string,
  ) {}

  /** The id map's answer for a reference, asked each time (a single record; a page remembers them: #pageLookup). */
  readonly #lookUpLocalId: LocalIdLookup = (kind, serverId) => this.ids.localIdFor(kind, serverId);

  /** Rewrites server ids in a document's references to local ids where the map knows them (in place: `out` is a copy). */
  #localize(kind: EntityKind, out: Record<string, unknown>, localIdFor: LocalIdLookup): void {
    for (const [field, target] of Object.entries(REFERENCES[kind] ?? {})) {
      const value = out[field];
      if (typeof value === 'string') out[field] = localIdFor(target, value) ?? value;
    }
    if (kind === 'menu_item' && Array.isArray(out.modifier_ids)) {
      out.modifier_ids = out.modifier_ids.map((m: string) => localIdFor('modifier', m) ?? m);
    }
    if (kind === 'order' && Array.isArray(out.lines)) out.lines = this.#localizeLines(out.lines as Record<string, unknown>[], localIdFor);
  }

  /** Order lines with menu item and modifier ids in local ids; copies only what changes (most lines keep theirs). */
  #localizeLines(lines: Record<string, unknown>[], localIdFor: LocalIdLookup): Record<string, unknown>[] {
    const local = (kind: EntityKind, id: unknown) => (typeof id === 'string' ? (localIdFor(kind, id) ?? id) : id);
    return lines.map((line) => {
      const menuItemId = local('menu_item', line.menu_item_id);
      const modifiers = Array.isArray(line.modifiers) ? (line.modifiers as Record<string, unknown>[]) : undefined;
      let localModifiers = modifiers;
      if (modifiers?.some((m) => local('modifier', m.modifier_id) !== m.modifier_id)) {
        localModifiers = modifiers.map((m) => ({ ...m, modifier_id: local('modifier', m.modifier_id) }));
      }
      return menuItemId === line.menu_item_id && localModifiers === modifiers ? line : { ...line, menu_item_id: menuItemId, modifiers: localModifiers };
    });
  }

  /**
   * The id map's answers for references, remembered for the length of one page: a page of orders
   * names the same location and a few menu items hundreds of times. References never point at
   * the page's own kind, whose links are the only ones the page adds.
   */
  #pageLookup(): LocalIdLookup {
    const known = new Map<EntityKind, Map<string, string | undefined>>();
    return (kind, serverId) => {
      let ofKind = known.get(kind);
      if (ofKind === undefined) known.set(kind, (ofKind = new Map()));
      if (ofKind.has(serverId)) return ofKind.get(serverId);
      const localId = this.ids.localIdFor(kind, serverId);
      ofKind.set(serverId, localId);
      return localId;
    };
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
    startFrom?: EntityDoc<EntityKind>,
  ): EntityDoc<EntityKind> {
    return this.#writeBase(kind, localId, record, meta, startFrom, {
      current: this.pending.layers.readWithMeta(kind, localId, 'base'),
      operationsUnchanged: false,
      mayBeStale: false,
      mayHavePending: true,
      localIdFor: this.#lookUpLocalId,
    });
  }

  #writeBase(
    kind: EntityKind,
    localId: string,
    record: ServerRecord,
    meta: { pullScope?: string; lastSeenAt?: number },
    startFrom: EntityDoc<EntityKind> | undefined,
    context: {
      /** The base row as it is now (undefined: none). */
      current: { doc: EntityDoc<EntityKind>; meta: BaseRowMeta } | undefined;
      /** No operation of the entity changed state in this transaction (pulls, webhooks, GETs). */
      operationsUnchanged: boolean;
      /**
       * The record arrived on its own (a pulled page, a webhook, a GET), not as the reply to our
       * operation: it may be older than the base a newer webhook already wrote.
       */
      mayBeStale: boolean;
      /** False only when the entity is known to have no pending row and no unfinished operation. */
      mayHavePending: boolean;
      localIdFor: LocalIdLookup;
    },
  ): EntityDoc<EntityKind> {
    const { current, operationsUnchanged } = context;
    // An entity the till created and the server confirms before our reply did (a lost reply, an
    // echo) has no base yet: fields the record lacks, such as what only the till keeps, come from
    // the till's own view of it.
    const base = startFrom ?? current?.doc ?? (context.mayHavePending ? this.pending.layers.read(kind, localId, 'pending') : undefined);
    const doc = this.#wholeDoc(kind, localId, record, base, context.localIdFor);
    const rowMeta = {
      pullScope: meta.pullScope ?? current?.meta.pullScope ?? null,
      lastSeenAt: meta.lastSeenAt ?? current?.meta.lastSeenAt ?? null,
    };
    if (context.mayBeStale && current !== undefined && isOlderThan(doc, current.doc)) {
      // A page fetched before a newer webhook landed must not regress the entity until the next
      // sync; the pull still saw it, so its marks move and a sweep keeps it.
      this.pending.layers.setMeta(kind, localId, 'base', rowMeta);
      return current.doc;
    }
    if (operationsUnchanged && current !== undefined && isDeepStrictEqual(doc, current.doc)) {
      // What base already holds (most of a re-pull): only the pull's marks move, and the pending
      // layer, a function of base and the unfinished operations (unchanged too), stays as it is.
      this.pending.layers.setMeta(kind, localId, 'base', rowMeta);
      return doc;
    }
    this.pending.layers.write(kind, doc, 'base', rowMeta, { fresh: current === undefined });
    // Nothing to replay and no pending row to drop: the rebuild would change nothing.
    if (context.mayHavePending) this.pending.rebuild(kind, localId);
    return doc;
  }

  /**
   * The document a server record makes of `base` (fields it lacks keep their value there; with no
   * base, what only the till keeps takes its default); throws when it is not whole.
   */
  #wholeDoc(kind: EntityKind, localId: string, record: ServerRecord, base: EntityDoc<EntityKind> | undefined, localIdFor: LocalIdLookup): EntityDoc<EntityKind> {
    // Object.assign, not `{ ...a, ...b }`: V8 (Node 20) gives an object that a spread made and
    // that then gains new properties a map of its own, and every such object of a pull outlived
    // its young-generation collection (a first sync's heap grew by tens of MB). docs/sync.md.
    const input: Record<string, unknown> = Object.assign({}, base ?? this.#firstSeen(kind, record, localIdFor), record);
    input.id = localId;
    this.#localize(kind, input, localIdFor);
    if (kind === 'order' && base && Array.isArray(input.lines)) {
      input.lines = carryLineExtras((base as EntityDoc<'order'>).lines, input.lines as Record<string, unknown>[]);
    }
    if (kind === 'order' && base && soldHere(base as EntityDoc<'order'>, localId, record.id)) {
      // The time of sale is the till's: the cloud stamps an order with when it received it, hours
      // later after an outage (and past midnight, on another day). Its screens, receipts and
      // reports keep when it was sold here.
      input.created_at = (base as EntityDoc<'order'>).created_at;
    }
    const parsed = EntityDocs[kind].safeParse(input);
    if (!parsed.success) {
      throw new StoreError('conflict', `server ${kind} ${record.id} is not a whole ${kind}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
    return parsed.data as EntityDoc<EntityKind>;
  }

  /** Where an entity first seen from the server starts: what only the till keeps, and what the server may leave out. */
  #firstSeen(kind: EntityKind, record: ServerRecord, localIdFor: LocalIdLookup): Record<string, unknown> {
    const currency = typeof record.currency === 'string' ? record.currency : this.#currencyOf(kind, record, localIdFor);
    return Object.assign(unstatedFieldDefaults(kind, { now: this.clock.now(), currency }), TILL_ONLY_DEFAULTS[kind]);
  }

  /** Money without a currency is in its location's currency where the location has one, else the store's. */
  #currencyOf(kind: EntityKind, record: ServerRecord, localIdFor: LocalIdLookup): string {
    const locationId = kind === 'location' ? undefined : record.location_id;
    if (typeof locationId !== 'string') return this.currency;
    const localId = localIdFor('location', locationId);
    return (localId === undefined ? undefined : this.pending.layers.read('location', localId, 'base')?.currency) ?? this.currency;
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
      if (kind === 'order') record = this.#keepCloudStatuses([record])[0]!;
      const localId = this.#localIdOf(kind, record.id);
      this.#writeBase(kind, localId, record, {}, undefined, {
        current: this.pending.layers.readWithMeta(kind, localId, 'base'),
        operationsUnchanged: true,
        mayBeStale: true,
        mayHavePending: true,
        localIdFor: this.#lookUpLocalId,
      });
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

  /**
   * One page of a pull and its cursor, in one transaction: a crash mid-pull resumes at a page
   * boundary. What the store must know about each record (its local id, whether it has a base
   * row, a pending row, unfinished operations) is asked once for the whole page.
   */
  applyPullPage(page: PullPage): string[] {
    const { kind } = page;
    return this.transaction(() => {
      if (kind === 'order') page = { ...page, records: this.#keepCloudStatuses(page.records) };
      const known = this.ids.localIdsFor(kind, page.records.map((r) => r.id));
      const unlinked = page.records.map((r) => r.id).filter((id) => !known.has(id));
      this.ids.linkSelves(kind, unlinked);
      const localIds = page.records.map((record) => known.get(record.id) ?? record.id);
      const { base: withBase, pending: withPending } = this.pending.layers.existingLayers(kind, localIds);
      const withOperations = this.pending.withUnfinishedOperations(kind, localIds);
      const localIdFor = this.#pageLookup();
      const meta = { pullScope: page.scope, lastSeenAt: page.pullStartedAt };
      // Entities with no row and nothing local (most of a first pull) are inserted together at the end.
      const fresh = new Map<string, EntityDoc<EntityKind>>();
      page.records.forEach((record, i) => {
        const localId = localIds[i]!;
        if (!withBase.has(localId) && !withPending.has(localId) && !withOperations.has(localId)) {
          const doc = this.#wholeDoc(kind, localId, record, undefined, localIdFor);
          const earlier = fresh.get(localId);
          // A record seen twice in one page: the newer copy wins, as it would over a stored row.
          if (earlier === undefined || !isOlderThan(doc, earlier)) fresh.set(localId, doc);
          return;
        }
        this.#writeBase(kind, localId, record, meta, undefined, {
          current: withBase.has(localId) ? this.pending.layers.readWithMeta(kind, localId, 'base') : undefined,
          operationsUnchanged: true,
          mayBeStale: true,
          mayHavePending: withPending.has(localId) || withOperations.has(localId),
          localIdFor,
        });
        // A record seen twice in one page: the second finds the first's row.
        withBase.add(localId);
      });
      this.pending.layers.insertMany(kind, [...fresh.values()], 'base', meta);
      // The page is the server's state after the pull started: events kept from before it are superseded.
      const eventType = SUPERSEDING_KINDS[kind];
      if (eventType !== undefined) this.settleSupersededEvents(eventType, page.records.map((r) => r.id), page.pullStartedAt);
      this.setCursor(page.scope, { cursor: page.cursor });
      return localIds;
    });
  }

  /**
   * After a full pull of a scope that started at `pullStartedAt`: base rows of that scope the pull
   * did not see are gone on the server. Their unfinished local operations stay. Returns the local ids swept.
   */
  sweepDeletions(kind: EntityKind, scope: string, pullStartedAt: number, createdFrom?: number): string[] {
    return this.transaction(() => {
      const stale = this.staleBaseIds(kind, scope, pullStartedAt, createdFrom).map((id) => ({ id }));
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
  staleBaseIds(kind: EntityKind, scope: string, pullStartedAt: number, createdFrom?: number): string[] {
    const { table } = ENTITY_TABLES[kind];
    // A pull limited to recent records (orders within the retention) says nothing of older ones.
    const since = createdFrom === undefined ? '' : ' AND created_at >= ?';
    return this.sql
      .allSql<{ id: string }>(`SELECT id FROM ${table} WHERE layer = 'base' AND pull_scope = ? AND (last_seen_at IS NULL OR last_seen_at < ?)${since}`, createdFrom === undefined ? [scope, pullStartedAt] : [scope, pullStartedAt, createdFrom])
      .map((r) => r.id);
  }

  /**
   * How many of these server records a pull started at `pullStartedAt` has already seen in `scope`
   * (their base rows carry its marks): what a page adds to `countSeenSince` is the rest of its
   * records, without counting the whole scope again for every page.
   */
  countSeenAmong(kind: EntityKind, scope: string, pullStartedAt: number, serverIds: readonly string[]): number {
    const { table } = ENTITY_TABLES[kind];
    const [row] = this.sql.allSql<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ${table} WHERE layer = 'base' AND pull_scope = ? AND last_seen_at >= ? AND id IN (SELECT local_id FROM id_map WHERE entity_kind = ? AND server_id IN (SELECT value FROM json_each(?)))`,
      [scope, pullStartedAt, kind, JSON.stringify(serverIds)],
    );
    return row?.n ?? 0;
  }

  /** How many base rows of a scope a pull started at `pullStartedAt` has seen (committed pages, before an interruption too). */
  countSeenSince(kind: EntityKind, scope: string, pullStartedAt: number): number {
    const { table } = ENTITY_TABLES[kind];
    const [row] = this.sql.allSql<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE layer = 'base' AND pull_scope = ? AND last_seen_at >= ?`, [scope, pullStartedAt]);
    return row?.n ?? 0;
  }

  // Fixed SQL text for the cursor: a pull reads and writes it once per page.
  getCursor(scope: string): CursorState | undefined {
    const [row] = this.sql.allSql<{ cursor: string | null; high_water_mark: number | null }>('SELECT cursor, high_water_mark FROM sync_cursors WHERE scope = ?', [scope]);
    return row && { cursor: row.cursor, highWaterMark: row.high_water_mark };
  }

  /** Sets the given fields of a scope's cursor state, keeping the others. */
  setCursor(scope: string, state: Partial<CursorState>, now: number = Date.now()): void {
    const current = this.getCursor(scope);
    const cursor = state.cursor !== undefined ? state.cursor : (current?.cursor ?? null);
    const highWaterMark = state.highWaterMark !== undefined ? state.highWaterMark : (current?.highWaterMark ?? null);
    this.sql.runSql(
      `INSERT INTO sync_cursors (scope, cursor, high_water_mark, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (scope) DO UPDATE SET cursor = excluded.cursor, high_water_mark = excluded.high_water_mark, updated_at = excluded.updated_at`,
      [scope, cursor, highWaterMark, now],
    );
  }

  /**
   * Records a webhook event by its id, then applies it on a savepoint of the same transaction. A
   * duplicate is reported and not applied. An event that fails to apply stays recorded (the
   * sender's retries are few and a redelivery would fail the same way) with the reason, and its
   * effects are rolled back: 'kept', until `settleWebhookEvent` after a fetch of its resource.
   * Only a failure to record it throws.
   */
  recordWebhookEvent(event: WebhookEventRecord, apply: () => void): 'applied' | 'duplicate' | { kept: string } {
    return this.transaction(() => {
      // Fixed SQL text: this runs for every delivery (thousands a second at peak).
      const inserted = this.sql.runSql(
        'INSERT INTO webhook_inbox (event_id, type, payload, received_at) VALUES (?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING',
        [event.eventId, event.type, JSON.stringify(event.payload), event.receivedAt],
      );
      if (inserted.changes === 0) return 'duplicate';
      try {
        this.transaction(apply);
        return 'applied';
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.sql.runSql('UPDATE webhook_inbox SET apply_error = ? WHERE event_id = ?', [reason, event.eventId]);
        return { kept: reason };
      }
    });
  }

  /** A kept event is settled: its resource was fetched and written (or is known to be gone). */
  settleWebhookEvent(eventId: string): void {
    this.sql.runSql('UPDATE webhook_inbox SET apply_error = NULL WHERE event_id = ?', [eventId]);
  }

  /**
   * An order in a state the terminal does not know is stored as not open (`status`), with the
   * server's word in `cloud_status` (sync/server-records.ts): kept here, by server id, and cleared
   * when a known state comes. Returns the records without that field.
   */
  #keepCloudStatuses(records: readonly ServerRecord[]): ServerRecord[] {
    const scope = (id: string) => `${CLOUD_ORDER_STATUS}${id}`;
    const known: string[] = [];
    const out = records.map((record) => {
      const { cloud_status: word, ...rest } = record;
      if (typeof word === 'string') this.setCursor(scope(record.id), { cursor: word });
      else if (record.status !== undefined) known.push(scope(record.id));
      return rest as ServerRecord;
    });
    // Most stores never see an unknown state: one index probe says there is nothing to clear.
    if (known.length > 0 && this.sql.allSql('SELECT 1 FROM sync_cursors WHERE scope >= ? AND scope < ? LIMIT 1', [CLOUD_ORDER_STATUS, CLOUD_ORDER_STATUS_END]).length > 0) {
      for (const key of known) this.sql.runSql('DELETE FROM sync_cursors WHERE scope = ?', [key]);
    }
    return out;
  }

  /**
   * The server's words for the states of these orders (by local id) that it holds in states this
   * terminal does not know; the others are not in the map. One index probe when there are none.
   */
  cloudOrderStatusesOf(localIds: readonly string[]): Map<string, string> {
    const found = new Map<string, string>();
    if (localIds.length === 0 || this.sql.allSql('SELECT 1 FROM sync_cursors WHERE scope >= ? AND scope < ? LIMIT 1', [CLOUD_ORDER_STATUS, CLOUD_ORDER_STATUS_END]).length === 0) return found;
    const rows = this.sql.allSql<{ local_id: string; word: string }>(
      `SELECT m.local_id, c.cursor AS word FROM id_map m JOIN sync_cursors c ON c.scope = ? || m.server_id
       WHERE m.entity_kind = 'order' AND m.local_id IN (SELECT value FROM json_each(?)) AND c.cursor IS NOT NULL`,
      [CLOUD_ORDER_STATUS, JSON.stringify(localIds)],
    );
    for (const row of rows) found.set(row.local_id, row.word);
    return found;
  }

  /** The server's word for the state of an order it holds in a state this terminal does not know; null otherwise. */
  cloudOrderStatus(serverId: string): string | null {
    return this.getCursor(`${CLOUD_ORDER_STATUS}${serverId}`)?.cursor ?? null;
  }

  /**
   * Kept events of these resources received before `receivedBefore` (ms) are settled: a newer state
   * of each (a pulled page, a GET, our own operation's reply, a later event) has been written since,
   * so what they could not apply is superseded. `createdUpTo` (ms) settles only events created by
   * then, for a later event whose own time decides. Returns how many were settled.
   */
  settleSupersededEvents(resourceType: string, serverIds: readonly string[], receivedBefore: number, createdUpTo?: number): number {
    if (serverIds.length === 0) return 0;
    // Kept events are few and indexed apart: this costs one index probe when there are none.
    const kept = this.sql.allSql<{ event_id: string; resource_type: unknown; resource_id: unknown; created_at: unknown }>(
      "SELECT event_id, json_extract(payload, '$.data.type') AS resource_type, json_extract(payload, '$.data.id') AS resource_id, json_extract(payload, '$.created_at') AS created_at FROM webhook_inbox WHERE apply_error IS NOT NULL AND received_at < ?",
      [receivedBefore],
    );
    if (kept.length === 0) return 0;
    const ids = new Set(serverIds);
    let settled = 0;
    for (const row of kept) {
      if (row.resource_type !== resourceType || typeof row.resource_id !== 'string' || !ids.has(row.resource_id)) continue;
      if (createdUpTo !== undefined) {
        const created = typeof row.created_at === 'number' ? (row.created_at < 1e11 ? row.created_at * 1000 : row.created_at) : Date.parse(String(row.created_at));
        if (!(created <= createdUpTo)) continue;
      }
      this.settleWebhookEvent(row.event_id);
      settled += 1;
    }
    return settled;
  }

  /** A kept event's latest reason (a fetch failed too). */
  noteWebhookEventError(eventId: string, reason: string): void {
    this.sql.runSql('UPDATE webhook_inbox SET apply_error = ? WHERE event_id = ? AND apply_error IS NOT NULL', [reason, eventId]);
  }

  /** Events recorded but not applied, oldest first: shown in the sync panel until settled. */
  unappliedWebhookEvents(limit = 100): { eventId: string; type: string; payload: unknown; receivedAt: number; reason: string }[] {
    return this.sql
      .allSql<{ event_id: string; type: string; payload: string; received_at: number; apply_error: string }>(
        'SELECT event_id, type, payload, received_at, apply_error FROM webhook_inbox WHERE apply_error IS NOT NULL ORDER BY received_at LIMIT ?',
        [limit],
      )
      .map((r) => ({ eventId: r.event_id, type: r.type, payload: JSON.parse(r.payload) as unknown, receivedAt: r.received_at, reason: r.apply_error }));
  }

  hasWebhookEvent(eventId: string): boolean {
    return this.sql.first(this.kysely.selectFrom('webhook_inbox').select('event_id').where('event_id', '=', eventId)) !== undefined;
  }
}
