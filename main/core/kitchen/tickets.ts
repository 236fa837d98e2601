// An order as a kitchen ticket (docs/kitchen-display.md): the lines the kitchen is told of (a held
// course's lines stay off until it is fired, as on the printed tickets), each routed to its station by
// the print routing, and marked against the lines the display first showed: the units added since
// (ADD, or FIRE for a course fired since) and the units taken off (VOID). The difference is the
// printing room's (diffKitchenLines), so the display and the ADD/VOID tickets agree on what changed.
import { z } from 'zod';
import type { KitchenLineMark, KitchenTicketLine } from '../../../bridge/kitchen/contract';
import { defaultKitchenPrinter, diffKitchenLines, printerForLine, type PrintingConfig } from '../../../printing/index';
import { CourseStateDoc, OrderLineDoc } from '../../../store/index';

/** What a ticket needs of an order document (own, or as another till logged it); anything unreadable is left out. */
export const TicketOrderDoc = z.object({
  status: z.string(),
  number: z.string().nullable().catch(null),
  created_at: z.number(),
  customer: z.object({ name: z.string() }).nullable().catch(null),
  service: z.object({ type: z.string().nullable(), table: z.string().nullable() }).nullable().catch(null),
  lines: z.array(OrderLineDoc).catch([]),
  courses: z.array(CourseStateDoc).nullable().catch(null),
});
export type TicketOrderDoc = z.infer<typeof TicketOrderDoc>;

/** A line as the kitchen is told of it, with what routes it and the course it is served in. */
export const KitchenLine = z.object({
  name: z.string(),
  quantity: z.number().int().positive(),
  modifiers: z.array(z.string()),
  note: z.string(),
  seat: z.number().int().positive().nullable(),
  categoryId: z.string().nullable(),
  categoryName: z.string().nullable(),
  course: z.string().nullable(),
});
export type KitchenLine = z.infer<typeof KitchenLine>;

export interface TicketLookups {
  categoryOf(menuItemId: string): { id: string; name: string } | null;
  /** The course's name by its id; null: not a course this display knows. */
  courseName(courseId: string): string | null;
}

/** The lines the kitchen is told of: all but those of a course held back. */
export function kitchenLines(doc: TicketOrderDoc, lookups: TicketLookups): KitchenLine[] {
  const held = new Set((doc.courses ?? []).filter((c) => c.state === 'held').map((c) => c.course));
  return doc.lines
    .filter((line) => line.course === null || !held.has(line.course))
    .map((line) => {
      const category = lookups.categoryOf(line.menu_item_id);
      return {
        name: line.name,
        quantity: line.quantity,
        modifiers: line.modifiers.map((m) => m.name).filter((name) => name !== ''),
        note: line.note,
        seat: line.seat,
        categoryId: category?.id ?? null,
        categoryName: category?.name ?? null,
        course: line.course,
      };
    });
}

/** The station a line routes to: its category's in the print routing, else the default kitchen printer's. */
export function stationOf(line: KitchenLine, printing: PrintingConfig): string {
  return printerForLine(line, printing.routing, defaultKitchenPrinter(printing));
}

/**
 * The ticket's lines against those first shown: what is unchanged, then the units added (FIRE when
 * their course was fired after the ticket was first shown), then the units taken off (VOID).
 */
export function markedLines(
  firstShown: { lines: readonly KitchenLine[]; shownAt: number },
  now: readonly KitchenLine[],
  doc: TicketOrderDoc,
  lookups: TicketLookups,
  printing: PrintingConfig,
): KitchenTicketLine[] {
  const { added, voided } = diffKitchenLines(firstShown.lines, now);
  // What is on the order now less what was added: the units shown from the start, in the order's order.
  const unchanged = diffKitchenLines(added, now).added;
  const firedSince = new Set((doc.courses ?? []).filter((c) => c.state === 'fired' && c.at > firstShown.shownAt).map((c) => c.course));
  const view = (line: KitchenLine, mark: KitchenLineMark | null): KitchenTicketLine => ({
    name: line.name,
    quantity: line.quantity,
    modifiers: line.modifiers,
    note: line.note,
    seat: line.seat,
    course: line.course === null ? null : (lookups.courseName(line.course) ?? line.course),
    station: stationOf(line, printing),
    mark,
  });
  return [
    ...unchanged.map((line) => view(line, null)),
    ...added.map((line) => view(line, line.course !== null && firedSince.has(line.course) ? 'fire' : 'add')),
    ...voided.map((line) => view(line, 'void')),
  ];
}

/** Each item on the lines shown with its total quantity (voided units left out), most first, then by name. */
export function allDayCounts(lines: readonly KitchenTicketLine[]): { name: string; quantity: number }[] {
  const totals = new Map<string, number>();
  for (const line of lines) if (line.mark !== 'void') totals.set(line.name, (totals.get(line.name) ?? 0) + line.quantity);
  return [...totals].map(([name, quantity]) => ({ name, quantity })).sort((a, b) => b.quantity - a.quantity || a.name.localeCompare(b.name));
}
