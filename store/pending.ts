// Keeps each entity's pending layer equal to base + its unfinished operations (pending or in
// flight), in outbox order. Called after every change to base or to an operation's state.
import type { Kysely } from 'kysely';
import type { EntityDoc, EntityKind } from './documents';
import type { SqlRunner } from './database';
import type { EntityLayers } from './layers';
import type { StoreTables } from './schema';

export class PendingChanges {
  constructor(
    private readonly kysely: Kysely<StoreTables>,
    private readonly sql: SqlRunner,
    readonly layers: EntityLayers,
  ) {}

  /** Op ids of the entity's unfinished operations, oldest first. */
  unfinishedOperations(kind: EntityKind, id: string): { op_id: string; patch: string }[] {
    return this.sql.all(
      this.kysely
        .selectFrom('outbox')
        .select(['op_id', 'patch'])
        .where('entity_kind', '=', kind)
        .where('entity_id', '=', id)
        .where('state', 'in', ['pending', 'in_flight'])
        .orderBy('seq'),
    );
  }

  rebuild(kind: EntityKind, id: string): void {
    const patches = this.unfinishedOperations(kind, id).map((op) => JSON.parse(op.patch) as Partial<EntityDoc<typeof kind>>);
    this.layers.rebuildPending(kind, id, patches);
  }
}
