// The tables room's side of the bridge (docs/tables.md): the floor (sections and tables laid out on
// a grid), each table's state derived from the store's open checks, and the floor's edits. Every
// id is made where the row is created and never reused, so the floor can become the store's (store
// mode) without renumbering: nothing here assumes one till.
import { z } from 'zod';
import { command, Empty, Id, IsoTime, ManagerPin } from '../primitives';
import { COURSE_LIMITS, FLOOR_GRID, FLOOR_LIMITS } from './grid';
import { placementIssues, type Placed } from './layout';
import { tableKey } from './names';

export { COURSE_LIMITS, FLOOR_GRID, FLOOR_LIMITS };

const Name = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `A ${what} needs a name.`)
    .max(max, `A ${what}'s name is at most ${max} characters.`)
    .refine((s) => !/\p{Cc}/u.test(s), `A ${what}'s name cannot hold control characters.`);

/** What a table is called on the floor, on tickets and checks ("12", "Patio 4"): the order's table. */
export const TableName = Name('table', 12);
export const SectionName = Name('section', 30);

export const CourseName = Name('course', COURSE_LIMITS.name);

/** Where an order line's guest sits: 1 to the most a table seats. */
export const SeatNumber = z.number().int().min(1, 'Seats are numbered from 1.').max(FLOOR_LIMITS.seats, `Seats are numbered up to ${FLOOR_LIMITS.seats}.`);

/** The store's courses in serving order, as a manager or IT lists them: names unique ignoring case and spaces. */
function coursesListed<T extends { name: string }>(courses: readonly T[], ctx: z.RefinementCtx, at: (index: number) => (string | number)[]): void {
  const seen = new Map<string, string>();
  courses.forEach((course, index) => {
    const key = tableKey(course.name);
    const first = seen.get(key);
    if (first !== undefined) ctx.addIssue({ code: 'custom', message: `${course.name} is already a course (${first}). Give it another name.`, path: at(index) });
    else seen.set(key, course.name);
  });
}
const CourseList = <T extends z.ZodType<{ name: string }>>(course: T) =>
  z
    .array(course)
    .min(1, 'Keep at least one course.')
    .max(COURSE_LIMITS.courses, `At most ${COURSE_LIMITS.courses} courses.`)
    .superRefine((courses, ctx) => coursesListed(courses, ctx, (index) => [index, 'name']));

export const Course = z.object({ id: Id, name: z.string(), position: z.number().int() });
export type Course = z.infer<typeof Course>;

export const TableShape = z.enum(['square', 'round', 'rect']);
export type TableShape = z.infer<typeof TableShape>;

export const FloorSection = z.object({ id: Id, name: z.string(), position: z.number().int() });
export type FloorSection = z.infer<typeof FloorSection>;

const Cell = (axis: 'x' | 'y') => z.number().int().min(0).max((axis === 'x' ? FLOOR_GRID.columns : FLOOR_GRID.rows) - 1);
const Span = (axis: 'x' | 'y') => z.number().int().min(1).max(axis === 'x' ? FLOOR_GRID.columns : FLOOR_GRID.rows);

/** A table where it stands: its top-left cell and its size in cells. */
export const TablePlacement = z.strictObject({
  sectionId: Id,
  name: TableName,
  seats: z.number().int().min(1, 'A table seats at least 1.').max(FLOOR_LIMITS.seats, `A table seats at most ${FLOOR_LIMITS.seats}.`),
  shape: TableShape,
  x: Cell('x'),
  y: Cell('y'),
  width: Span('x'),
  height: Span('y'),
});
export type TablePlacement = z.infer<typeof TablePlacement>;

/**
 * A floor as IT provisions it in the configuration (docs/config.md, "floor"): sections in order,
 * each with its tables. Held to the same rules as the floor editor's.
 */
export const FloorConfig = z
  .strictObject({
    /** The store's courses in serving order (default: Drinks, Starters, Mains, Dessert). */
    courses: CourseList(z.strictObject({ name: CourseName })).optional(),
    sections: z
      .array(z.strictObject({ name: SectionName, tables: z.array(TablePlacement.omit({ sectionId: true })).max(FLOOR_LIMITS.tables) }))
      .min(1, 'A floor has at least one section.')
      .max(FLOOR_LIMITS.sections, `A floor has at most ${FLOOR_LIMITS.sections} sections.`),
  })
  .superRefine((floor, ctx) => {
    const sectionNames = new Set<string>();
    const tableNames = new Set<string>();
    const placed: Placed[] = [];
    floor.sections.forEach((section, s) => {
      const sectionKey = tableKey(section.name);
      if (sectionNames.has(sectionKey)) ctx.addIssue({ code: 'custom', message: `${section.name} is listed twice`, path: ['sections', s, 'name'] });
      sectionNames.add(sectionKey);
      section.tables.forEach((table, t) => {
        const key = tableKey(table.name);
        if (tableNames.has(key)) ctx.addIssue({ code: 'custom', message: `table ${table.name} is listed twice`, path: ['sections', s, 'tables', t, 'name'] });
        tableNames.add(key);
        const here: Placed = { id: `${s}.${t}`, sectionId: String(s), ...table };
        for (const issue of placementIssues(here, [String(s)], placed)) ctx.addIssue({ code: 'custom', message: issue.message, path: ['sections', s, 'tables', t, issue.path] });
        placed.push(here);
      });
    });
  });
export type FloorConfig = z.infer<typeof FloorConfig>;

export const FloorTable = TablePlacement.extend({ id: Id });
export type FloorTable = z.infer<typeof FloorTable>;

/**
 * What the floor shows at a glance: free; seated (a check is open); check printed (the bill went to
 * the guests and nothing changed since); paid (every open check is paid, the table not yet closed);
 * needs clearing (its last check closed, nobody has cleared it yet).
 */
export const TableState = z.enum(['free', 'seated', 'check_printed', 'paid', 'needs_clearing']);
export type TableState = z.infer<typeof TableState>;

export const TableCheck = z.object({
  orderId: Id,
  label: z.string(),
  total: z.number().int(),
  due: z.number().int(),
  guests: z.number().int().nullable(),
  server: z.object({ id: Id, name: z.string() }).nullable(),
  createdAt: IsoTime,
  /** When the check last changed: a check the screen already holds with this time, total and due is current. */
  updatedAt: IsoTime,
});
export type TableCheck = z.infer<typeof TableCheck>;

export const TableView = FloorTable.extend({
  state: TableState,
  /** The open checks at this table, oldest first. */
  checks: z.array(TableCheck),
  guests: z.number().int().nullable(),
  /** When the oldest open check was started: "seated 42 min". */
  seatedAt: IsoTime.nullable(),
  /** Whose table it is: the server of its oldest open check. */
  server: z.object({ id: Id, name: z.string() }).nullable(),
  /** Since when it waits to be cleared (its last check closed). */
  closedAt: IsoTime.nullable(),
});
export type TableView = z.infer<typeof TableView>;

export const FloorView = z.object({
  sections: z.array(FloorSection),
  tables: z.array(TableView),
  /** Open dine-in checks whose table is not on the floor (typed by hand): listed so none is lost. */
  elsewhere: z.array(TableCheck.extend({ table: z.string() })),
});
export type FloorView = z.infer<typeof FloorView>;

/** A manager's PIN approving a layout edit asked for by someone who may not make it. */
const approvable = { managerPin: ManagerPin.optional() };

export const tableCommands = {
  'tables.floor': command(Empty, FloorView),
  /** A manager lays out the floor (permission 'floor.edit'); a new section or table has no id yet. */
  'tables.saveSection': command(z.strictObject({ id: Id.optional(), name: SectionName, position: z.number().int().min(0).max(99).optional(), ...approvable }), FloorView),
  'tables.removeSection': command(z.strictObject({ id: Id, ...approvable }), FloorView),
  'tables.saveTable': command(TablePlacement.extend({ id: Id.optional(), ...approvable }), FloorView),
  'tables.removeTable': command(z.strictObject({ id: Id, ...approvable }), FloorView),
  /** The bill for every open check at the table (a pre-check: not a receipt); the table reads "check printed". */
  'tables.printBill': command(z.strictObject({ id: Id }), FloorView),
  /** The table is cleared and set: free again. */
  'tables.clear': command(z.strictObject({ id: Id }), FloorView),
  /** The store's courses in serving order. */
  'tables.courses': command(Empty, z.array(Course)),
  /**
   * The courses become this list, in its order (permission 'floor.edit'): a listed course without
   * an id is added, one with an id renamed or moved, one left out removed (refused while an open
   * check has a line in it).
   */
  'tables.saveCourses': command(z.strictObject({ courses: CourseList(z.strictObject({ id: Id.optional(), name: CourseName })), ...approvable }), z.array(Course)),
};

export const tableEvents = {
  /** The floor changed in a way the checks do not show (its layout, a bill printed, a table cleared): refetch it. */
  'floor.changed': z.object({}),
  /** The store's courses changed: refetch them. */
  'courses.changed': z.object({}),
};
