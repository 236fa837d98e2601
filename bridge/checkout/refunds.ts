// Refund by item: what giving back some units of a line returns to the customer.
import { CheckoutError } from './errors';
import type { CheckLines } from './pricing';

function requireCount(value: number, what: string, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new CheckoutError('invalid_refund', `The ${what} must be a whole number of at least ${min} (got ${String(value)}).`);
  }
}

/**
 * What giving back `quantity` units of line `lineIndex` costs, given `alreadyRefunded` units of
 * that line already given back: the line's total is allocate(line.total, ones(lineQuantity)) per
 * unit, and units are refunded from the end, so refunding every unit eventually returns exactly
 * line.total. Throws when quantity < 1 or alreadyRefunded + quantity > lineQuantity.
 */
export function refundForUnits(check: CheckLines, lineIndex: number, lineQuantity: number, alreadyRefunded: number, quantity: number): number {
  const line = Number.isInteger(lineIndex) ? check.lines[lineIndex] : undefined;
  if (line === undefined) throw new CheckoutError('invalid_refund', `There is no item ${String(lineIndex + 1)} on this check.`);
  requireCount(lineQuantity, 'quantity of the item', 1);
  requireCount(alreadyRefunded, 'number of units already refunded', 0);
  requireCount(quantity, 'number of units to refund', 1);
  if (alreadyRefunded + quantity > lineQuantity) {
    const left = Math.max(0, lineQuantity - alreadyRefunded);
    throw new CheckoutError(
      'invalid_refund',
      `Only ${left} of the ${lineQuantity} on this line can still be refunded (${alreadyRefunded} already were); ${quantity} were asked for.`,
      lineIndex,
    );
  }
  // A quantity that does not divide the line's price is not this line's quantity.
  if (line.gross % lineQuantity !== 0 || !Number.isSafeInteger(line.total) || line.total < 0) {
    throw new CheckoutError('invalid_refund', `Item ${lineIndex + 1} was not sold as ${lineQuantity} units: refresh the check and try again.`, lineIndex);
  }

  // allocate(total, ones(q)) in closed form (no q-long array for a line of 10 000 units): every
  // unit gets ⌊total/q⌋ and the first total mod q units one more. Refunding from the end returns
  // the smaller units first, so the customer is never over-refunded before the last unit.
  const base = Math.floor(line.total / lineQuantity);
  const extra = line.total - base * lineQuantity;
  const to = lineQuantity - alreadyRefunded; // units [from, to) go back
  const from = to - quantity;
  return base * quantity + Math.max(0, Math.min(to, extra) - from);
}
