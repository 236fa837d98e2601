// An order's lines: their total, their /v1 form, and the merge of two terminals' changes to them.
// /v1 replaces an order's lines whole on PATCH and has no If-Match, so a change made on lines the
// server no longer has (another terminal changed them meanwhile) would erase that other change.
// Before it is sent, such a change is merged with the server's lines, item by item: what only one
// side changed is kept; an item both sides changed differently is a conflict for a person to
// settle (docs/sync.md, "Two terminals, one order").
import { z } from 'zod';
import type { OrderLineDoc, OrderLineInput } from './documents';

/** A line as the outbox sends it (local ids): menu item, quantity, modifier ids, and the kitchen's note when there is one. */
export const LineRef = z.object({ menu_item_id: z.string(), quantity: z.number().int(), modifiers: z.array(z.string()), note: z.string().optional() });
export type LineRef = z.infer<typeof LineRef>;

export function orderTotal(lines: readonly OrderLineInput[]): number {
  return lines.reduce((sum, line) => sum + line.quantity * (line.unit_price + line.modifiers.reduce((m, mod) => m + mod.price, 0)), 0);
}

/** The /v1 order body's items (local ids). */
export function lineRefs(lines: readonly OrderLineInput[]): LineRef[] {
  return lines.map((line) => ({
    menu_item_id: line.menu_item_id,
    quantity: line.quantity,
    modifiers: line.modifiers.map((m) => m.modifier_id),
    ...(line.note ? { note: line.note } : {}),
  }));
}

/** What only the till keeps on a line: /v1 lines come back without them (a note only from servers that model it; seats and courses from none). */
const LINE_EXTRAS = ['note', 'discount', 'tax_class', 'seat', 'course'] as const;

/**
 * The server's lines with the till's own line fields carried over from `previous` (the order as
 * the till had it): each server line takes them from the first unused line of the same item and
 * modifiers, where the server's line does not state them itself.
 */
export function carryLineExtras(previous: readonly OrderLineDoc[], next: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const unused = previous.map((line) => ({ line, key: docKey(line) }));
  return next.map((line) => {
    const modifiers = Array.isArray(line.modifiers) ? (line.modifiers as { modifier_id?: unknown }[]).map((m) => String(m.modifier_id)) : [];
    const key = keyOf(String(line.menu_item_id), modifiers);
    const at = unused.findIndex((old) => old.key === key);
    if (at < 0) return line;
    const [match] = unused.splice(at, 1);
    // Object.assign, not a spread: see ServerState's #wholeDoc (a pull runs this for every line).
    const carried: Record<string, unknown> = Object.assign({}, line);
    for (const field of LINE_EXTRAS) if (carried[field] === undefined) carried[field] = match!.line[field];
    return carried;
  });
}

/** What makes two lines the same thing to sell: the item and its modifiers, in any order. */
function keyOf(menuItemId: string, modifierIds: readonly string[]): string {
  return JSON.stringify([menuItemId, [...modifierIds].sort()]);
}

const refKey = (line: LineRef) => keyOf(line.menu_item_id, line.modifiers);
const docKey = (line: OrderLineInput) => keyOf(line.menu_item_id, line.modifiers.map((m) => m.modifier_id));

/** Quantity per item and modifiers. */
function quantities(lines: readonly LineRef[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(refKey(line), (counts.get(refKey(line)) ?? 0) + line.quantity);
  return counts;
}

/** The same things in the same quantities, however the lines are split or ordered. */
export function sameLines(a: readonly LineRef[], b: readonly LineRef[]): boolean {
  const left = quantities(a);
  const right = quantities(b);
  if (left.size !== right.size) return false;
  for (const [key, quantity] of left) if (right.get(key) !== quantity) return false;
  return true;
}

/** An item (with its modifiers) whose quantity both sides changed, each to something else. */
export interface LineConflict {
  name: string;
  ancestor: number;
  ours: number;
  theirs: number;
}

/**
 * A three-way merge of an order's lines, item by item (an item: a menu item with its modifiers):
 * `ancestor` is what a change was made on, `ours` what it made of it, `theirs` the server's lines
 * now. An item only one side changed takes that side's quantity; one both changed alike takes it
 * too; one both changed differently is a conflict, and takes ours in the merged lines (what a
 * person who chooses this change over the other gets). Their lines keep their order, names and
 * prices; items only ours has come after them, as ours has them.
 */
export function mergeLines<L extends OrderLineInput>(
  ancestor: readonly LineRef[],
  ours: readonly L[],
  theirs: readonly L[],
): { lines: L[]; conflicts: LineConflict[] } {
  const base = quantities(ancestor);
  const mine = quantities(lineRefs(ours));
  const other = quantities(lineRefs(theirs));
  const merged = theirs.map((line) => ({ ...line }));
  const conflicts: LineConflict[] = [];
  for (const key of new Set([...mine.keys(), ...base.keys()])) {
    const [a, o, t] = [base.get(key) ?? 0, mine.get(key) ?? 0, other.get(key) ?? 0];
    if (o === a || o === t) continue; // ours left it alone, or both made the same of it: theirs stands
    if (t !== a) {
      const line = ours.find((l) => docKey(l) === key) ?? theirs.find((l) => docKey(l) === key);
      conflicts.push({ name: line?.name ?? '', ancestor: a, ours: o, theirs: t });
    }
    let change = o - t;
    const last = merged.findLast((line) => docKey(line) === key);
    if (change > 0 && last) last.quantity += change;
    else if (change > 0) merged.push({ ...ours.findLast((line) => docKey(line) === key)!, quantity: change });
    for (let i = merged.length - 1; i >= 0 && change < 0; i--) {
      const line = merged[i]!;
      if (docKey(line) !== key) continue;
      const removed = Math.min(-change, line.quantity);
      line.quantity -= removed;
      change += removed;
    }
  }
  return { lines: merged.filter((line) => line.quantity > 0), conflicts };
}
