// The floor plan (tables room, docs/tables.md): sections, tables and the one mark a table carries
// beyond its checks (when it was last cleared). Rows are never deleted, only marked removed, and each
// carries a version and who changed it last, so a store of several tills can later exchange them
// row by row (store mode). Names are unique among the rows in use, ignoring case and spaces.
import type { SqlRunner } from './database';
import { StoreError } from './errors';

export interface SectionDoc {
  id: string;
  name: string;
  position: number;
  version: number;
}

export interface TableDoc {
  id: string;
  section_id: string;
  name: string;
  seats: number;
  shape: 'square' | 'round' | 'rect';
  x: number;
  y: number;
  width: number;
  height: number;
  version: number;
}

export interface TableMarks {
  table_id: string;
  /** When the table was last cleared after its checks closed (ms). */
  cleared_at: number;
}

/** The key two names must not share: case and runs of spaces ignored ("Patio  4" = "patio 4"). */
export function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

export type SectionInput = Omit<SectionDoc, 'version'>;
export type TableInput = Omit<TableDoc, 'version'>;

export class FloorPlan {
  constructor(
    private readonly sql: SqlRunner,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {}

  sections(): SectionDoc[] {
    return this.sql.allSql<SectionDoc>('SELECT id, name, position, version FROM floor_sections WHERE removed = 0 ORDER BY position, name_key, id', []);
  }

  tables(): TableDoc[] {
    // In the floor's order: by section as the sections are ordered, then row by row.
    return this.sql.allSql<TableDoc>(
      `SELECT t.id, t.section_id, t.name, t.seats, t.shape, t.x, t.y, t.width, t.height, t.version
       FROM floor_tables t LEFT JOIN floor_sections s ON s.id = t.section_id
       WHERE t.removed = 0 ORDER BY s.position, s.name_key, t.section_id, t.y, t.x, t.id`,
      [],
    );
  }

  table(id: string): TableDoc | undefined {
    return this.tables().find((t) => t.id === id);
  }

  marks(): TableMarks[] {
    return this.sql.allSql<TableMarks>('SELECT table_id, cleared_at FROM table_marks', []);
  }

  /** Creates or changes a section; a name another section in use has is refused. */
  saveSection(section: SectionInput, by: string, now: number): void {
    this.transaction(() => {
      this.#refuseTakenName('floor_sections', section.id, section.name, 'section');
      this.sql.runSql(
        `INSERT INTO floor_sections (id, name, name_key, position, removed, version, updated_at, updated_by) VALUES (?, ?, ?, ?, 0, 1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, position = excluded.position, version = version + 1,
           updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
        [section.id, section.name, nameKey(section.name), section.position, now, by],
      );
    });
  }

  saveTable(table: TableInput, by: string, now: number): void {
    this.transaction(() => {
      this.#refuseTakenName('floor_tables', table.id, table.name, 'table');
      this.sql.runSql(
        `INSERT INTO floor_tables (id, section_id, name, name_key, seats, shape, x, y, width, height, removed, version, updated_at, updated_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET section_id = excluded.section_id, name = excluded.name, name_key = excluded.name_key, seats = excluded.seats,
           shape = excluded.shape, x = excluded.x, y = excluded.y, width = excluded.width, height = excluded.height, version = version + 1,
           updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
        [table.id, table.section_id, table.name, nameKey(table.name), table.seats, table.shape, table.x, table.y, table.width, table.height, now, by],
      );
    });
  }

  removeSection(id: string, by: string, now: number): void {
    this.#remove('floor_sections', id, by, now);
  }

  removeTable(id: string, by: string, now: number): void {
    this.#remove('floor_tables', id, by, now);
  }

  markCleared(tableId: string, now: number): void {
    this.sql.runSql(
      `INSERT INTO table_marks (table_id, cleared_at, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (table_id) DO UPDATE SET cleared_at = excluded.cleared_at, updated_at = excluded.updated_at`,
      [tableId, now, now],
    );
  }

  #remove(table: 'floor_sections' | 'floor_tables', id: string, by: string, now: number): void {
    const result = this.sql.runSql(`UPDATE ${table} SET removed = 1, version = version + 1, updated_at = ?, updated_by = ? WHERE id = ? AND removed = 0`, [now, by, id]);
    if (result.changes === 0) throw new StoreError('not_found', `no ${table === 'floor_sections' ? 'section' : 'table'} ${id}`);
  }

  #refuseTakenName(table: 'floor_sections' | 'floor_tables', id: string, name: string, what: string): void {
    const taken = this.sql.allSql<{ id: string }>(`SELECT id FROM ${table} WHERE removed = 0 AND name_key = ? AND id <> ?`, [nameKey(name), id]);
    if (taken.length > 0) throw new StoreError('conflict', `another ${what} is already called ${name}`);
  }
}
