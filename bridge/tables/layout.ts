// Where a table may stand: in a section of the floor, inside the grid, on no other table. Pure, so
// the core, the configuration and the floor editor say the same.
import { FLOOR_GRID } from './grid';

export interface Placed {
  id: string;
  sectionId: string;
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacementIssue {
  path: 'sectionId' | 'x' | 'width' | 'height';
  message: string;
}

function overlaps(a: Omit<Placed, 'id' | 'name' | 'sectionId'>, b: Omit<Placed, 'id' | 'name' | 'sectionId'>): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** What is wrong with placing `table` among the floor's other tables, each next to its field. */
export function placementIssues(table: Placed, sectionIds: readonly string[], others: readonly Placed[]): PlacementIssue[] {
  const issues: PlacementIssue[] = [];
  if (!sectionIds.includes(table.sectionId)) issues.push({ path: 'sectionId', message: 'That section is not on the floor any more. Choose another.' });
  if (table.x + table.width > FLOOR_GRID.columns) issues.push({ path: 'width', message: `The table would stand past the right edge of the floor (${FLOOR_GRID.columns} columns). Move it left or make it narrower.` });
  if (table.y + table.height > FLOOR_GRID.rows) issues.push({ path: 'height', message: `The table would stand past the bottom of the floor (${FLOOR_GRID.rows} rows). Move it up or make it shorter.` });
  const covered = others.find((other) => other.id !== table.id && other.sectionId === table.sectionId && overlaps(table, other));
  if (covered) issues.push({ path: 'x', message: `That place is taken by table ${covered.name}. Move the table to a free place.` });
  return issues;
}
