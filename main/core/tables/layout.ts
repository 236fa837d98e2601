// The floor's rules for a table's place: in a section that exists, inside the grid, on no other
// table. Pure, so the floor editor can say the same before it asks.
import { FLOOR_GRID, type TablePlacement } from '../../../bridge/tables/contract';
import type { SectionDoc, TableDoc } from '../../../store/index';

export interface PlacementIssue {
  path: string;
  message: string;
}

function overlaps(a: Pick<TablePlacement, 'x' | 'y' | 'width' | 'height'>, b: Pick<TablePlacement, 'x' | 'y' | 'width' | 'height'>): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** What is wrong with placing `table` (id `id`) among the floor's other tables, each next to its field. */
export function placementIssues(id: string, table: TablePlacement, sections: readonly SectionDoc[], tables: readonly TableDoc[]): PlacementIssue[] {
  const issues: PlacementIssue[] = [];
  if (!sections.some((s) => s.id === table.sectionId)) issues.push({ path: 'sectionId', message: 'That section is not on the floor any more. Choose another.' });
  if (table.x + table.width > FLOOR_GRID.columns) issues.push({ path: 'width', message: `The table would stand past the right edge of the floor (${FLOOR_GRID.columns} columns). Move it left or make it narrower.` });
  if (table.y + table.height > FLOOR_GRID.rows) issues.push({ path: 'height', message: `The table would stand past the bottom of the floor (${FLOOR_GRID.rows} rows). Move it up or make it shorter.` });
  const covered = tables.find((other) => other.id !== id && other.section_id === table.sectionId && overlaps(table, other));
  if (covered) issues.push({ path: 'x', message: `That place is taken by table ${covered.name}. Move the table to a free place.` });
  return issues;
}
