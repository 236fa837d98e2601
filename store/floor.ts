// The floor plan (tables room, docs/tables.md): sections, tables, the store's courses and the one
// mark a table carries beyond its checks (when it was last cleared). Rows are never deleted, only marked removed, and each
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

/** A course of the store's menu service (Drinks, Starters, Mains, Dessert by default), in serving order. */
export interface CourseDoc {
  id: string;
  name: string;
  position: number;
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

type FloorTableName = 'floor_sections' | 'floor_tables' | 'floor_courses';
const ROW_NAMES: Record<FloorTableName, string> = { floor_sections: 'section', floor_tables: 'table', floor_courses: 'course' };

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

  courses(): CourseDoc[] {
    return this.sql.allSql<CourseDoc>('SELECT id, name, position, version FROM floor_courses WHERE removed = 0 ORDER BY position, name_key, id', []);
  }

  /** Whether a person has changed the courses (else they are the defaults or what IT provisioned). */
  coursesEdited(): boolean {
    return this.sql.allSql<{ n: number }>("SELECT count(*) AS n FROM floor_courses WHERE updated_by IS NOT 'system'", [])[0]!.n > 0;
  }

  /**
   * The courses become `courses`, in that order: each listed one is created or changed (its
   * position is its place in the list), each one in use and not listed is removed. One transaction.
   */
  saveCourses(courses: readonly { id: string; name: string }[], by: string, now: number): void {
    this.transaction(() => {
      const kept = new Set(courses.map((c) => c.id));
      for (const gone of this.courses().filter((c) => !kept.has(c.id))) this.#remove('floor_courses', gone.id, by, now);
      courses.forEach((course, position) => {
        const current = this.sql.allSql<{ name: string; position: number; removed: number }>('SELECT name, position, removed FROM floor_courses WHERE id = ?', [course.id])[0];
        if (current && current.removed === 0 && current.name === course.name && current.position === position) return;
        this.#refuseTakenName('floor_courses', course.id, course.name, 'course');
        this.sql.runSql(
          `INSERT INTO floor_courses (id, name, name_key, position, removed, version, updated_at, updated_by) VALUES (?, ?, ?, ?, 0, 1, ?, ?)
           ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, position = excluded.position, removed = 0, version = version + 1,
             updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
          [course.id, course.name, nameKey(course.name), position, now, by],
        );
      });
    });
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

  #remove(table: FloorTableName, id: string, by: string, now: number): void {
    const result = this.sql.runSql(`UPDATE ${table} SET removed = 1, version = version + 1, updated_at = ?, updated_by = ? WHERE id = ? AND removed = 0`, [now, by, id]);
    if (result.changes === 0) throw new StoreError('not_found', `no ${ROW_NAMES[table]} ${id}`);
  }

  #refuseTakenName(table: FloorTableName, id: string, name: string, what: string): void {
    const taken = this.sql.allSql<{ id: string }>(`SELECT id FROM ${table} WHERE removed = 0 AND name_key = ? AND id <> ?`, [nameKey(name), id]);
    if (taken.length > 0) throw new StoreError('conflict', `another ${what} is already called ${name}`);
  }
}
