// What the end-of-day report is computed from: the day's records as this terminal has them,
// gathered by the core (reports.ts) and summed by the pure z-report.ts.
import type { PaymentStatus, SyncState } from '../../../bridge/contract';
import type { PaymentMethod } from '../../../bridge/primitives';
import type { ShiftView, StaffRef } from '../../../bridge/staff/contract';

export interface DaySaleLine {
  item: string;
  category: string;
  quantity: number;
  /** quantity × (unit price + modifiers). */
  gross: number;
  /** The line's own discount (a comp: the whole gross). */
  lineDiscount: number;
  /** Its share of the order's discount. */
  orderDiscount: number;
  /** gross − lineDiscount − orderDiscount. */
  net: number;
  tax: number;
  /** What the line cost: net + tax when tax is added on top. */
  total: number;
  /** The line was comped (its own discount left it at zero): its lineDiscount counts as a comp, not a discount. */
  comp: boolean;
}

/** What a line without a category of the menu is counted under. */
export const UNCATEGORISED = 'No category';

/** An order's lines as the day counts them, from its priced breakdown (one figure per line, in order). */
export function saleLines(
  lines: readonly { name: string; menu_item_id: string; quantity: number }[],
  figures: readonly ({ gross: number; lineDiscount: number; orderDiscount: number; net: number; tax: number; total: number } | undefined)[],
  categoryOf: (menuItemId: string) => string | null,
): DaySaleLine[] {
  return lines.map((line, index) => {
    const figure = figures[index];
    return {
      item: line.name,
      category: categoryOf(line.menu_item_id) ?? UNCATEGORISED,
      quantity: line.quantity,
      gross: figure?.gross ?? 0,
      lineDiscount: figure?.lineDiscount ?? 0,
      orderDiscount: figure?.orderDiscount ?? 0,
      net: figure?.net ?? 0,
      tax: figure?.tax ?? 0,
      total: figure?.total ?? 0,
      // Left at zero by its own discount, whether typed as 100% or as its price.
      comp: figure !== undefined && figure.gross > 0 && figure.lineDiscount >= figure.gross,
    };
  });
}

/** An order placed (or taken over) here on the day, not voided, not open with money due and not a walkout. */
export interface DaySale {
  orderId: string;
  label: string;
  staff: StaffRef | null;
  lines: DaySaleLine[];
  taxes: { name: string; ratePpm: number; amount: number }[];
  taxIncluded: boolean;
  /** Σ lines' total. */
  total: number;
  /** The order has an order-level discount (counted once among the discounts). */
  orderDiscount: boolean;
  /** That discount left the order at zero: it is counted once among the comps instead, with its amount. */
  orderComp?: boolean;
  /** A large party's automatic gratuity its payments carried (inside their tips), and the tax in it; absent: none. */
  gratuity?: { collected: number; tax: number };
  syncState: SyncState;
}

/** A payment taken here on the day (amount toward the order; the tip on top). */
export interface DayPayment {
  id: string;
  orderId: string;
  orderLabel: string;
  method: PaymentMethod;
  amount: number;
  tip: number;
  status: PaymentStatus;
  syncState: SyncState;
  staff: StaffRef | null;
}

/** A refund given here on the day. */
export interface DayRefund {
  id: string;
  orderId: string;
  orderLabel: string;
  method: PaymentMethod;
  amount: number;
  syncState: SyncState;
  staff: StaffRef | null;
}

/** An order voided (cancelled) here on the day: what it came to. */
export interface DayVoid {
  orderId: string;
  label: string;
  amount: number;
  staff: StaffRef | null;
}

/** An order placed here on the day and still open with money due: not a sale (yet). */
export interface DayOpenCheck {
  orderId: string;
  label: string;
  total: number;
  /** Paid toward it so far (before refunds). */
  paid: number;
  staff: StaffRef | null;
}

/** An order closed unpaid on the day (a walkout): what was due is written off, never a sale. */
export interface DayWalkout {
  orderId: string;
  label: string;
  total: number;
  paid: number;
  unpaid: number;
  reason: string;
  /** Who closed it, and the manager or owner whose PIN approved it (null: they may themselves). */
  staff: StaffRef | null;
  approvedBy: StaffRef | null;
}

/** A closed check reopened on the day (orders.reopen). */
export interface DayReopening {
  orderId: string;
  label: string;
  /** The linked check that carries what was added; null while nothing was. */
  linkedId: string | null;
  linkedLabel: string | null;
  reason: string;
  /** Refunded on the original since it was reopened. */
  refunded: number;
  staff: StaffRef | null;
  approvedBy: StaffRef | null;
}

export interface DayRecords {
  businessDay: string;
  currency: string;
  location: string;
  till: string;
  generatedAt: string;
  sales: DaySale[];
  payments: DayPayment[];
  refunds: DayRefund[];
  voids: DayVoid[];
  openChecks: DayOpenCheck[];
  walkouts: DayWalkout[];
  reopenings: DayReopening[];
  shifts: ShiftView[];
  /** Records that could not be read, each in a sentence: left out of the figures, named in the report. */
  unreadable?: string[];
}
