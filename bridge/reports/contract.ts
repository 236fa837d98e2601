// The end-of-day report's side of the bridge (docs/staff.md): the Z report of a business day (sales,
// tenders, staff, taxes, tips, the drawers' shifts) and the commands that list the days, show, export
// and print it. bridge/contract.ts merges the commands in.
import { z } from 'zod';
import { command, Id, IsoTime, ManagerPin, PaymentMethod } from '../primitives';
import { PrintingStatus } from '../printing/contract';
import { ShiftView, StaffRef } from '../staff/contract';

const BusinessDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a business day is YYYY-MM-DD');

// ---- the end-of-day (Z) report ----

const SalesRow = z.object({ quantity: z.number().int(), gross: z.number().int(), discounts: z.number().int(), net: z.number().int() });
export const ZReport = z.object({
  businessDay: z.string(),
  currency: z.string(),
  location: z.string(),
  till: z.string(),
  generatedAt: IsoTime,
  /** Every order, payment and refund of the day is in the cloud. */
  complete: z.boolean(),
  sales: z.object({
    orders: z.number().int(),
    gross: z.number().int(),
    discounts: z.number().int(),
    comps: z.number().int(),
    net: z.number().int(),
    tax: z.number().int(),
    /** What the orders came to (net + tax added on top). */
    total: z.number().int(),
  }),
  byCategory: z.array(SalesRow.extend({ category: z.string() })),
  byItem: z.array(SalesRow.extend({ item: z.string(), category: z.string() })),
  byTender: z.array(z.object({ method: PaymentMethod, payments: z.number().int(), amount: z.number().int(), tips: z.number().int(), refunds: z.number().int(), net: z.number().int() })),
  byStaff: z.array(z.object({ staff: StaffRef, orders: z.number().int(), sales: z.number().int(), payments: z.number().int(), tips: z.number().int(), refunds: z.number().int(), voids: z.number().int() })),
  taxes: z.array(z.object({ name: z.string(), ratePpm: z.number().int(), amount: z.number().int() })),
  tips: z.object({ card: z.number().int(), cash: z.number().int() }),
  /** Large parties' automatic gratuity: how many checks carried it, what their payments collected (inside the tips above), and the tax in that. */
  gratuity: z.object({ checks: z.number().int(), collected: z.number().int(), tax: z.number().int() }),
  discounts: z.object({ count: z.number().int(), amount: z.number().int() }),
  comps: z.object({ count: z.number().int(), amount: z.number().int() }),
  refunds: z.object({ count: z.number().int(), amount: z.number().int(), card: z.number().int(), cash: z.number().int() }),
  voids: z.object({ count: z.number().int(), amount: z.number().int() }),
  /** Card payments stored offline and not yet accepted by the cloud: the merchant's risk. */
  offlineCards: z.object({ count: z.number().int(), amount: z.number().int() }),
  /** What the cloud does not have yet ("A17: payment waiting"). */
  notInCloud: z.array(z.object({ orderId: Id, label: z.string(), what: z.string() })),
  /** Orders placed here on the day still open with money due: not in the sales above. */
  openChecks: z.object({
    count: z.number().int(),
    total: z.number().int(),
    paid: z.number().int(),
    due: z.number().int(),
    orders: z.array(z.object({ orderId: Id, label: z.string(), total: z.number().int(), paid: z.number().int(), due: z.number().int(), staff: StaffRef.nullable() })),
  }),
  /** Orders closed unpaid on the day (a manager's decision, with a reason): not in the sales above; what was due is written off. */
  walkouts: z.object({
    count: z.number().int(),
    total: z.number().int(),
    paid: z.number().int(),
    unpaid: z.number().int(),
    orders: z.array(
      z.object({ orderId: Id, label: z.string(), total: z.number().int(), paid: z.number().int(), unpaid: z.number().int(), reason: z.string(), staff: StaffRef.nullable(), approvedBy: StaffRef.nullable() }),
    ),
  }),
  /**
   * Closed checks reopened on the day (orders.reopen): what their linked checks added (their net
   * sales, already inside the sales above: not counted again) and what was refunded on the
   * originals since they were reopened (inside the refunds of the day each was given).
   */
  reopened: z.object({
    checks: z.number().int(),
    added: z.number().int(),
    refunded: z.number().int(),
    orders: z.array(
      z.object({
        orderId: Id,
        label: z.string(),
        linkedLabel: z.string().nullable(),
        reason: z.string(),
        added: z.number().int(),
        refunded: z.number().int(),
        staff: StaffRef.nullable(),
        approvedBy: StaffRef.nullable(),
      }),
    ),
  }),
  /** Each shift on its own line (expected, counted, over/short once closed; an open one has none yet). */
  shifts: z.array(ShiftView),
  /** Records of the day that could not be read, each in a sentence: left out of the figures above. */
  unreadable: z.array(z.string()),
  /** The closed shifts added up: expected, counted and over/short cover the same shifts. Open ones are counted apart. */
  cash: z.object({
    closedShifts: z.number().int(),
    openShifts: z.number().int(),
    float: z.number().int(),
    sales: z.number().int(),
    tips: z.number().int(),
    refunds: z.number().int(),
    /** Of the sales and tips, taken toward other tills' orders (store mode): on their reports as sales. */
    forOtherTills: z.number().int(),
    paidOuts: z.number().int(),
    drops: z.number().int(),
    /** null while no shift is closed. */
    expected: z.number().int().nullable(),
    counted: z.number().int().nullable(),
    overShort: z.number().int().nullable(),
  }),
});
export type ZReport = z.infer<typeof ZReport>;

export const reportsCommands = {
  /** Business days with sales, payments or shifts on this terminal, newest first. */
  'reports.days': command(z.strictObject({ managerPin: ManagerPin.optional() }).default({}), z.array(z.string())),
  /** The end-of-day report of a business day (default: the current one). */
  'reports.z': command(z.strictObject({ businessDay: BusinessDay.optional(), managerPin: ManagerPin.optional() }).default({}), ZReport),
  'reports.csv': command(z.strictObject({ businessDay: BusinessDay, managerPin: ManagerPin.optional() }), z.object({ filename: z.string(), csv: z.string() })),
  'reports.print': command(z.strictObject({ businessDay: BusinessDay, managerPin: ManagerPin.optional() }), PrintingStatus),
};
