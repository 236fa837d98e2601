// The bridge's smallest shapes, shared by bridge/contract.ts and the rooms' contracts that cannot
// import it (bridge/printing, staff, reports, tables, store-mode, kitchen): bridge/contract.ts imports
// the rooms to assemble the one command table, so a room importing it back would be an import cycle.
import { z } from 'zod';
import { MAX_TILL_CASH } from './money';

export const Id = z.string().min(1).max(80);
export const IsoTime = z.iso.datetime({ offset: true });
/** A sum of amounts (an order's tips, a day's takings, a drawer): as large as its records make it, never refused for one amount's cap. */
export const Total = z.number().int().nonnegative();
/** Cash in hand (handed over, paid out, dropped): never more than a drawer holds. */
export const TillCash = z.number().int().nonnegative().max(MAX_TILL_CASH, 'that is more cash than any till holds');
/** The PIN of someone allowed to do what is asked (a manager approving a cashier's refund). */
export const ManagerPin = z.string().regex(/^\d{4,8}$/, 'a PIN is 4 to 8 digits');

export const PaymentMethod = z.enum(['card', 'cash']);
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** The payload of a command that takes nothing. */
export const Empty = z.strictObject({}).default({});

export function command<P extends z.ZodType, R extends z.ZodType>(payload: P, result: R) {
  return { payload, result };
}
