// What the payment dialog charges: the amount toward the order, the tip on top, the cash to ask for.
import { tipFor } from '../../bridge/checkout';
import type { PaymentMethod } from '../../bridge/primitives';
import { money, readAmount } from './format';

/** The tip the customer picked: none, one of the suggested percentages, or an amount typed. */
export type TipChoice = { kind: 'none' } | { kind: 'percent'; bps: number } | { kind: 'custom'; text: string };

export const NO_TIP: TipChoice = { kind: 'none' };

/** The tip in minor units for `choice` on `base` (what the payment puts toward the order). */
export function readTip(choice: TipChoice, base: number, currency: string): { tip: number; error: null } | { tip: null; error: string } {
  if (choice.kind === 'none') return { tip: 0, error: null };
  if (choice.kind === 'percent') return { tip: tipFor(base, choice.bps), error: null };
  const read = readAmount(choice.text, currency);
  return read.error === null ? { tip: read.amount, error: null } : { tip: null, error: read.error };
}

/**
 * What the payment button says: a card is charged ("Charge $23.00"), cash is taken in hand
 * ("Take $23.00 cash"); a tip is said with it ("Charge $27.60 (incl. $4.60 tip)").
 */
export function chargeLabel(amount: number, tip: number, currency: string, method: PaymentMethod = 'card', gratuity = 0): string {
  const total = money(amount + tip, currency);
  const what = method === 'cash' ? `Take ${total} cash` : `Charge ${total}`;
  if (gratuity > 0) {
    const extra = tip - gratuity;
    return `${what} (incl. ${money(gratuity, currency)} gratuity${extra > 0 ? ` + ${money(extra, currency)} tip` : ''})`;
  }
  return tip > 0 ? `${what} (incl. ${money(tip, currency)} tip)` : what;
}

/** Quick cash amounts: exact, then the next round notes above the amount asked. */
export function cashSuggestions(due: number, digits: number): number[] {
  const unit = 10 ** digits;
  const rounds = [5, 10, 20, 50, 100].map((note) => Math.ceil(due / (note * unit)) * note * unit);
  return [...new Set([due, ...rounds])].filter((v) => v >= due).slice(0, 4);
}
