// Keeps each entity's pending layer equal to base + its operations not done (pending, in flight,
// or refused by the cloud and not yet decided by a person), in outbox order. Called after every
// change to base or to an operation's state. A refused change stays in the view, marked, until a
// manager retries or discards it: the till said it was saved.
import type { EntityDoc, EntityKind } from './documents';
import type { SqlRunner } from './database';
import type { EntityLayers } from './layers';

export class PendingChanges {
  constructor(
    private readonly sql: SqlRunner,
    readonly layers: EntityLayers,
  ) {}

  /** Which of these entities have unfinished operations (one query for a pulled page). */
  withUnfinishedOperations(kind: EntityKind, ids: readonly string[]): Set<string> {
    const rows = this.sql.allSql<{ entity_id: string }>(
      `SELECT DISTINCT entity_id FROM outbox WHERE entity_kind = ? AND state IN ('pending', 'in_flight') AND entity_id IN (SELECT value FROM json_each(?))`,
      [kind, JSON.stringify(ids)],
    );
    return new Set(rows.map((r) => r.entity_id));
  }

  /**
   * Op ids of the entity's operations that are not done (pending, in flight or dead), oldest
   * first: what its pending layer replays, and what a new operation on it waits for.
   */
  undoneOperations(kind: EntityKind, id: string): { op_id: string; state: string; patch: string }[] {
    return this.sql.allSql(
      `SELECT op_id, state, patch FROM outbox WHERE entity_kind = ? AND entity_id = ? AND state IN ('pending', 'in_flight', 'dead') ORDER BY seq`,
      [kind, id],
    );
  }

  rebuild(kind: EntityKind, id: string): void {
    const patches = this.undoneOperations(kind, id).map((op) => JSON.parse(op.patch) as Partial<EntityDoc<typeof kind>>);
    this.layers.rebuildPending(kind, id, patches);
  }
}
