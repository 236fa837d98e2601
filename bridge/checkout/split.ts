// Splitting one check between several payers, evenly or by who had what.
import { allocate } from './allocate';
import { CheckoutError } from './errors';
import { requireNonNegativeInteger, sumExact } from './guards';
import type { CheckLines } from './pricing';

export interface SplitPart {
  /** "1 of 3" */
  label: string;
  amount: number;
  /** indexes of the check lines in it (by-items only; [] for even) */
  lineIndexes: number[];
}

/** More ways than a table seats is a slip of the finger, and each part needs its own payment. */
export const MAX_SPLIT_PARTS = 50;

/** `due` shared by n people: allocate(due, n ones). n 1..50 integer, due ≥ 0. Labels "1 of n"... */
export function splitEvenly(due: number, n: number): SplitPart[] {
  requireNonNegativeInteger(due, 'amount to split');
  if (!Number.isInteger(n) || n < 1 || n > MAX_SPLIT_PARTS) {
    throw new CheckoutError('invalid_split', `A check can be split between 1 and ${MAX_SPLIT_PARTS} ways (got ${String(n)}).`);
  }
  // The first payers cover the odd units: $10.00 / 3 → $3.34, $3.33, $3.33.
  return allocate(due, new Array<number>(n).fill(1)).map((amount, index) => ({ label: `${index + 1} of ${n}`, amount, lineIndexes: [] }));
}

/**
 * `assignment[i]` = the check number (1-based) line i goes to, or 0: shared by every check (a
 * split by seat's lines for the table); parts = max(assignment); every check 1..parts must have a
 * line of its own (else CheckoutError naming the empty check); amounts = Σ check line totals
 * (CheckLine.total) of its lines plus its even share of the shared lines (the first checks cover
 * the odd units), so Σ parts === check.total.
 */
export function splitByItems(check: CheckLines, assignment: readonly number[]): SplitPart[] {
  if (check.lines.length === 0) throw new CheckoutError('invalid_split', 'There are no items on this check to split.');
  if (assignment.length !== check.lines.length) {
    throw new CheckoutError(
      'invalid_split',
      `Every item must go to a check: ${assignment.length} of the ${check.lines.length} items have one.`,
    );
  }
  assignment.forEach((part, index) => {
    if (!Number.isSafeInteger(part) || part < 0) {
      throw new CheckoutError('invalid_split', `Item ${index + 1} is put on check ${String(part)}; checks are numbered from 1 (0: shared).`, index);
    }
  });

  const parts = Math.max(...assignment);
  if (parts === 0) throw new CheckoutError('empty_split_check', 'Every item is shared: put at least one on check 1.');
  // The first gap is found from the numbers used, never by counting up to a typo'd 1e9.
  const used = new Set(assignment);
  let empty = 1;
  while (used.has(empty)) empty += 1;
  if (empty < parts) {
    throw new CheckoutError('empty_split_check', `Check ${empty} of ${parts} has no items: move an item to it or split into fewer checks.`);
  }

  const sharedIndexes = assignment.flatMap((to, index) => (to === 0 ? [index] : []));
  const shared = sumExact(sharedIndexes.map((index) => check.lines[index]?.total ?? 0), 'the shared items');
  const shares = sharedIndexes.length === 0 ? new Array<number>(parts).fill(0) : allocate(shared, new Array<number>(parts).fill(1));
  return Array.from({ length: parts }, (_, k) => {
    const part = k + 1;
    const lineIndexes = assignment.flatMap((to, index) => (to === part ? [index] : []));
    const amount = sumExact([...lineIndexes.map((index) => check.lines[index]?.total ?? 0), shares[k]!], `check ${part}`);
    return { label: `${part} of ${parts}`, amount, lineIndexes };
  });
}

/**
 * A split by seat: each seat's lines on a check of its own, in seat order; lines with no seat
 * (for the table) shared evenly by those checks (0). Null when fewer than two seats have lines.
 */
export function seatAssignment(seats: readonly (number | null)[]): number[] | null {
  const ordered = [...new Set(seats.filter((seat): seat is number => seat !== null))].sort((a, b) => a - b);
  if (ordered.length < 2) return null;
  const checkOf = new Map(ordered.map((seat, index) => [seat, index + 1]));
  return seats.map((seat) => (seat === null ? 0 : checkOf.get(seat)!));
}
