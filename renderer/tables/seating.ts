// Seats and courses on the register's ticket (docs/tables.md, "Seats and courses"): where the next
// items go, each line's seat and course, the ticket grouped by course.
import type { MenuItem } from '../../bridge/contract';
import type { Course } from '../../bridge/tables/contract';
import { addItem, type LineChoice, type Ticket, type TicketLine } from '../lib/ticket';

/** Where a line is served: a guest's seat (null: for the table) and a course (null: none). */
export interface Placement {
  seat: number | null;
  course: string | null;
}

export const UNPLACED: Placement = { seat: null, course: null };

/** A line's seat and course; undefined where the line does not say (the core keeps what the order had). */
export function placementOf(line: TicketLine): Partial<Placement> {
  return { seat: line.seat, course: line.course };
}

function samePlace(line: TicketLine, placement: Placement): boolean {
  const { seat, course } = placementOf(line);
  return (seat ?? null) === placement.seat && (course ?? null) === placement.course;
}

/**
 * Adds one of `item` for `placement`: a plain line of the same item at the same seat and course
 * gets +1 (as the ticket's addItem does), anything else a new line there.
 */
export function addPlacedItem(ticket: Ticket, item: MenuItem, placement: Placement, choice?: LineChoice): Ticket {
  // The ticket's own rule, on the lines at this place only: the other places' lines are put back as they were.
  const here = ticket.lines.filter((line) => samePlace(line, placement));
  const added = addItem({ ...ticket, lines: here }, item, choice);
  const known = new Set(here.map((line) => line.key));
  const changed = new Map(added.lines.map((line) => [line.key, line]));
  const lines: TicketLine[] = ticket.lines.map((line) => changed.get(line.key) ?? line);
  for (const line of added.lines) if (!known.has(line.key)) lines.push({ ...line, ...placement });
  return { ...ticket, lines, selectedKey: added.selectedKey };
}

/** Moves a line to another seat or course. */
export function placeLine(ticket: Ticket, key: string, placement: Partial<Placement>): Ticket {
  return { ...ticket, lines: ticket.lines.map((line) => (line.key === key ? { ...line, ...placement } : line)) };
}

/** "S2 · Mains", "Table · Drinks", "S3": what a ticket line shows of where it is served. */
export function placementLabel(placement: Partial<Placement>, courseNames: ReadonlyMap<string, string>): string {
  const seat = placement.seat == null ? 'Table' : `S${placement.seat}`;
  const course = placement.course == null ? null : (courseNames.get(placement.course) ?? null);
  return course ? `${seat} · ${course}` : seat;
}

export interface CourseGroup {
  /** null: the lines in no course. */
  course: Course | null;
  /** Indexes of its lines on the ticket, in ticket order. */
  indexes: number[];
}

/** The ticket's lines by course, in the store's serving order; lines in no course (or a course gone from the list) first. */
export function courseGroups(lines: readonly TicketLine[], courses: readonly Course[]): CourseGroup[] {
  const byId = new Map<string | null, number[]>();
  const known = new Set(courses.map((c) => c.id));
  lines.forEach((line, index) => {
    const course = placementOf(line).course ?? null;
    const id = course !== null && known.has(course) ? course : null;
    const group = byId.get(id);
    if (group) group.push(index);
    else byId.set(id, [index]);
  });
  const groups: CourseGroup[] = byId.has(null) ? [{ course: null, indexes: byId.get(null)! }] : [];
  for (const course of courses) {
    const indexes = byId.get(course.id);
    if (indexes) groups.push({ course, indexes });
  }
  return groups;
}

/** The seats offered for the next items: 1 to the guests (4 when not said yet, at most 40). */
export function seatChoices(guests: string | null | undefined): number[] {
  const count = Number(guests);
  const seats = Number.isInteger(count) && count >= 1 ? Math.min(count, 40) : 4;
  return Array.from({ length: seats }, (_, i) => i + 1);
}

const SEATING_PREFERENCE = 'pos.register.seatsAndCourses';

/** Whether this till rings dine-in checks up by seat and course (a device preference, off until asked). */
export function readSeatingPreference(): boolean {
  try {
    return globalThis.localStorage?.getItem(SEATING_PREFERENCE) === 'on';
  } catch {
    return false; // storage refused (a locked-down browser profile): asked per session
  }
}

export function writeSeatingPreference(on: boolean): void {
  try {
    globalThis.localStorage?.setItem(SEATING_PREFERENCE, on ? 'on' : 'off');
  } catch {
    // Not kept: the choice holds until the page reloads.
  }
}
