// Local id ↔ server id, per entity kind. Local ids are made at the first write (common/ids.ts);
// entities first seen from the server keep the server's id as their local id.
import type { Kysely } from 'kysely';
import type { EntityKind } from './documents';
import type { SqlRunner } from './database';
import { StoreError } from './errors';
import type { StoreTables } from './schema';

export class IdMap {
  constructor(
    private readonly kysely: Kysely<StoreTables>,
    private readonly sql: SqlRunner,
  ) {}

  // The two lookups run several times per record a pull or a completed push writes: fixed SQL
  // text (a cached prepared statement) instead of building and compiling a kysely query per call.
  serverIdFor(kind: EntityKind, localId: string): string | undefined {
    return this.sql.allSql<{ server_id: string }>('SELECT server_id FROM id_map WHERE entity_kind = ? AND local_id = ?', [kind, localId])[0]?.server_id;
  }

  localIdFor(kind: EntityKind, serverId: string): string | undefined {
    return this.sql.allSql<{ local_id: string }>('SELECT local_id FROM id_map WHERE entity_kind = ? AND server_id = ?', [kind, serverId])[0]?.local_id;
  }

  /** Local ids of many server ids of one kind in one query (a pulled page): server id → local id. */
  localIdsFor(kind: EntityKind, serverIds: readonly string[]): Map<string, string> {
    const rows = this.sql.allSql<{ local_id: string; server_id: string }>(
      'SELECT local_id, server_id FROM id_map WHERE entity_kind = ? AND server_id IN (SELECT value FROM json_each(?))',
      [kind, JSON.stringify(serverIds)],
    );
    return new Map(rows.map((r) => [r.server_id, r.local_id]));
  }

  /**
   * Links an entity first seen from the server to itself (its server id is its local id), for a
   * server id the map does not know. One insert; if the keys are taken, `link` explains why.
   */
  linkSelf(kind: EntityKind, serverId: string): void {
    const inserted = this.sql.runSql('INSERT INTO id_map (entity_kind, local_id, server_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [kind, serverId, serverId]);
    if (inserted.changes === 0) this.link(kind, serverId, serverId);
  }

  /** `linkSelf` for many server ids in one statement (a pulled page); `linkSelf` again explains a conflict. */
  linkSelves(kind: EntityKind, serverIds: readonly string[]): void {
    if (serverIds.length === 0) return;
    const unique = [...new Set(serverIds)];
    const inserted = this.sql.runSql(
      'INSERT INTO id_map (entity_kind, local_id, server_id) SELECT ?, value, value FROM json_each(?) WHERE true ON CONFLICT DO NOTHING',
      [kind, JSON.stringify(unique)],
    );
    if (inserted.changes !== unique.length) for (const serverId of unique) this.linkSelf(kind, serverId);
  }

  /** Records the pair; linking the same pair twice is harmless, a different pair is a conflict. */
  link(kind: EntityKind, localId: string, serverId: string): void {
    const known = this.serverIdFor(kind, localId);
    if (known === serverId) return;
    if (known !== undefined) {
      throw new StoreError('conflict', `${kind} ${localId} is already linked to server id ${known}, not ${serverId}`);
    }
    const owner = this.localIdFor(kind, serverId);
    if (owner !== undefined && owner !== serverId) {
      throw new StoreError('conflict', `server ${kind} ${serverId} is already linked to local id ${owner}`);
    }
    // An entity first seen from the server and later claimed by a local create: the self-link goes.
    if (owner === serverId) this.unlink(kind, serverId);
    this.sql.runSql('INSERT INTO id_map (entity_kind, local_id, server_id) VALUES (?, ?, ?)', [kind, localId, serverId]);
  }

  unlink(kind: EntityKind, localId: string): void {
    this.sql.run(this.kysely.deleteFrom('id_map').where('entity_kind', '=', kind).where('local_id', '=', localId));
  }
}
