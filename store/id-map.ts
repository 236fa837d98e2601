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

  serverIdFor(kind: EntityKind, localId: string): string | undefined {
    return this.sql.first(
      this.kysely.selectFrom('id_map').select('server_id').where('entity_kind', '=', kind).where('local_id', '=', localId),
    )?.server_id;
  }

  localIdFor(kind: EntityKind, serverId: string): string | undefined {
    return this.sql.first(
      this.kysely.selectFrom('id_map').select('local_id').where('entity_kind', '=', kind).where('server_id', '=', serverId),
    )?.local_id;
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
    this.sql.run(this.kysely.insertInto('id_map').values({ entity_kind: kind, local_id: localId, server_id: serverId }));
  }

  unlink(kind: EntityKind, localId: string): void {
    this.sql.run(this.kysely.deleteFrom('id_map').where('entity_kind', '=', kind).where('local_id', '=', localId));
  }
}
