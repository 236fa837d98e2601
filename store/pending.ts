// Keeps each entity's pending layer equal to base + its unfinished operations (pending or in
// flight), in outbox order. Called after every change to base or to an operation's state.
import type { EntityDoc, EntityKind } from './documents';
import type { SqlRunner } from './database';
import type { EntityLayers } from './layers';

export class PendingChanges {
  constructor(
    private readonly sql: SqlRunner,
    readonly layers: EntityLayers,
  ) {}

  /** Op ids of the entity's unfinished operations, oldest first. */
  unfinishedOperations(kind: EntityKind, id: string): { op_id: string; patch: string }[] {
    // Runs for every record written to base (pulls, webhooks, completions): fixed SQL text.
    return this.sql.allSql(
      `SELECT op_id, patch FROM outbox WHERE entity_kind = ? AND entity_id = ? AND state IN ('pending', 'in_flight') ORDER BY seq`,
      [kind, id],
    );
  }

  /** Which of these entities have unfinished operations (one query for a pulled page). */
  withUnfinishedOperations(kind: EntityKind, ids: readonly string[]): Set<string> {
    const rows = this.sql.allSql<{ entity_id: string }>(
      `SELECT DISTINCT entity_id FROM outbox WHERE entity_kind = ? AND state IN ('pending', 'in_flight') AND entity_id IN (SELECT value FROM json_each(?))`,
      [kind, JSON.stringify(ids)],
    );
    return new Set(rows.map((r) => r.entity_id));
  }

  rebuild(kind: EntityKind, id: string): void {
    const patches = this.unfinishedOperations(kind, id).map((op) => JSON.parse(op.patch) as Partial<EntityDoc<typeof kind>>);
    this.layers.rebuildPending(kind, id, patches);
  }
}
