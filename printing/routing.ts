// Which kitchen printer gets which lines, and what changed between two versions of an order's
// lines (the ADD and VOID tickets). Pure functions.

/** Category id (or category name, any case) → printer name, as parsed from --print-routing. */
export type KitchenRouting = Readonly<Record<string, string>>;

export interface RoutableLine {
  categoryId?: string | null;
  categoryName?: string | null;
}

/** The printer a line goes to: its category id's route, else its category name's (any case), else the default. */
export function printerForLine(line: RoutableLine, routing: KitchenRouting, defaultPrinter: string): string {
  if (line.categoryId != null && Object.hasOwn(routing, line.categoryId)) return routing[line.categoryId] as string;
  if (line.categoryName != null) {
    const wanted = line.categoryName.trim().toLowerCase();
    for (const [category, printer] of Object.entries(routing)) if (category.toLowerCase() === wanted) return printer;
  }
  return defaultPrinter;
}

/**
 * Splits a ticket's lines among the printers: one group per printer that gets any, in the order
 * of each printer's first line, lines kept in their order. No lines, no groups.
 */
export function routeKitchenLines<L extends RoutableLine>(lines: readonly L[], routing: KitchenRouting, defaultPrinter: string): { printer: string; lines: L[] }[] {
  const groups = new Map<string, L[]>();
  for (const line of lines) {
    const printer = printerForLine(line, routing, defaultPrinter);
    const group = groups.get(printer);
    if (group) group.push(line);
    else groups.set(printer, [line]);
  }
  return [...groups].map(([printer, grouped]) => ({ printer, lines: grouped }));
}

export interface DiffableLine {
  seat?: number | null;
  name: string;
  quantity: number;
  modifiers?: readonly string[];
  note?: string;
  categoryId?: string | null;
}

function lineKey(line: DiffableLine): string {
  return JSON.stringify([line.categoryId ?? null, line.seat ?? null, line.name, [...(line.modifiers ?? [])].sort(), line.note ?? '']);
}

/**
 * What the kitchen must be told when an order's lines change: the units added (an ADD ticket) and
 * the units taken off (a VOID ticket). Lines are the same dish when their category, seat, name,
 * modifiers (in any order) and note are; quantities of such lines are added up (a dish moved to
 * another seat is a VOID and an ADD: the kitchen's seat numbers stay right).
 */
export function diffKitchenLines<L extends DiffableLine>(before: readonly L[], after: readonly L[]): { added: L[]; voided: L[] } {
  const count = (lines: readonly L[]) => {
    const totals = new Map<string, { line: L; quantity: number }>();
    for (const line of lines) {
      const key = lineKey(line);
      const entry = totals.get(key);
      if (entry) entry.quantity += line.quantity;
      else totals.set(key, { line, quantity: line.quantity });
    }
    return totals;
  };
  const was = count(before);
  const now = count(after);
  const added: L[] = [];
  const voided: L[] = [];
  for (const [key, { line, quantity }] of now) {
    const more = quantity - (was.get(key)?.quantity ?? 0);
    if (more > 0) added.push({ ...line, quantity: more });
  }
  for (const [key, { line, quantity }] of was) {
    const fewer = quantity - (now.get(key)?.quantity ?? 0);
    if (fewer > 0) voided.push({ ...line, quantity: fewer });
  }
  return { added, voided };
}
