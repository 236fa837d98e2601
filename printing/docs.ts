// What the printers print, as plain typed documents. main/core builds them from its own types
// (printing/ knows nothing of bridge/): every figure arrives as text already formatted (money with
// its currency, percentages), so a receipt prints exactly what the screen showed. A document is
// stored as the print job's payload (JSON) and rendered when the printer is ready; the schemas
// check a payload read back before it is rendered.
import { z } from 'zod';

const Text = z.string().max(2_000);
const ShortText = z.string().max(200);

/** The locale of a job queued before documents carried one (the till's default: month first, 12-hour). */
export const DOC_TIME_LOCALE = 'en-US';

/**
 * When: text the caller formatted ("3/14/25, 12:41 PM"), or an instant with the location's time
 * zone and locale, formatted here (Intl's short date and time).
 */
export const DocTime = z.union([
  ShortText,
  z.object({ iso: z.iso.datetime({ offset: true }), timeZone: ShortText, locale: ShortText.optional() }),
]);
export type DocTime = z.infer<typeof DocTime>;

export const DocLocation = z.object({
  name: ShortText,
  /** May hold several lines ("\n"). */
  address: Text.optional(),
  phone: ShortText.optional(),
  /** A VAT / tax registration line, printed as given ("VAT GB123456789"). */
  taxId: ShortText.optional(),
});
export type DocLocation = z.infer<typeof DocLocation>;

/** How the order is served. */
export const DocService = z.object({
  type: z.enum(['dine_in', 'takeout', 'delivery']).nullable(),
  table: ShortText.nullable().optional(),
  guests: z.number().int().positive().nullable().optional(),
  /** Who collects it (takeout, delivery). */
  customerName: ShortText.nullable().optional(),
});
export type DocService = z.infer<typeof DocService>;

/** A labelled amount: "Subtotal", "VAT 20%", "Staff discount 10%". */
export const DocAmount = z.object({ label: ShortText, amount: ShortText });
export type DocAmount = z.infer<typeof DocAmount>;

/** What a receipt line and a kitchen line both say: the item as ordered. */
const OrderedLine = z.object({
  name: ShortText,
  quantity: z.number().int().positive(),
  /** Modifier names ("Extra cheese"); on a receipt their prices are in the line's amount. */
  modifiers: z.array(ShortText).default([]),
  note: Text.default(''),
});

export const ReceiptLine = OrderedLine.extend({
  /** What the line costs, formatted ("€24.00"). */
  amount: ShortText,
  /** The line's own discount, when it has one ("Happy hour 50%", "-€6.00"). */
  discount: DocAmount.nullable().optional(),
});
export type ReceiptLine = z.input<typeof ReceiptLine>;

export const ReceiptPayment = z.object({
  /** "Cash", "Card •••• 4242", "Card (offline)". */
  tender: ShortText,
  amount: ShortText,
  tip: ShortText.nullable().optional(),
  /** The part of a split bill it paid ("2 of 3"). */
  splitPart: ShortText.nullable().optional(),
});
export type ReceiptPayment = z.input<typeof ReceiptPayment>;

/** The heading of a receipt and of a kitchen ticket: which order, from which till, when, how it is served. */
const orderHeading = {
  /** The number the kitchen calls ("A17"). */
  orderLabel: ShortText,
  tillLetter: ShortText,
  time: DocTime,
  service: DocService.nullable().optional(),
};

export const ReceiptDoc = z.object({
  /** 'refund' prints the refund receipt: a REFUND title, the lines given back, the amount returned by tender. */
  variant: z.enum(['sale', 'refund']).default('sale'),
  location: DocLocation,
  ...orderHeading,
  /** Who rang it up. */
  cashier: ShortText.nullable().optional(),
  lines: z.array(ReceiptLine),
  totals: z.object({
    /** What the lines come to before any discount (null: no such row, e.g. a refund by amount). */
    subtotal: ShortText.nullable(),
    /** The subtotal row's words ("Subtotal"; "Before tax" on a refund). */
    subtotalLabel: ShortText.default('Subtotal'),
    /**
     * Every discount row between the subtotal and the taxes: what the lines' own discounts took off
     * together ("Item discounts", each also said under its line), then the order's discount. The
     * subtotal minus these plus the added taxes is the total, on paper as on screen.
     */
    discounts: z.array(DocAmount).default([]),
    taxes: z.array(DocAmount).default([]),
    /** Prices include the taxes listed: they print as "incl." lines after the total. */
    taxIncluded: z.boolean().default(false),
    tip: ShortText.nullable().optional(),
    /** What was owed (sale) or given back (refund). */
    total: ShortText,
  }),
  /** Sale: how it was paid. Refund: where the money went back. */
  payments: z.array(ReceiptPayment).default([]),
  change: ShortText.nullable().optional(),
  refund: z
    .object({
      /** The receipt being refunded ("A17, 14/03 12:41"). */
      originalOrder: ShortText.optional(),
      reason: ShortText.optional(),
    })
    .nullable()
    .optional(),
  /** Prints "NOT YET CONFIRMED BY THE CLOUD" (sold offline, a card stored to forward). Read at print time instead when `cloud` names records. */
  unconfirmed: z.boolean().default(false),
  /**
   * The records the cloud must have for this paper to be confirmed (the order, its card payments,
   * a refund): the print worker reads their sync state when it prints and says NOT YET CONFIRMED
   * only if one is still unconfirmed then. `waitMs`: how long after it was queued the paper may
   * wait for the confirmation before it prints anyway (a card taken online is confirmed within
   * moments; 0 for a sale made offline).
   */
  cloud: z
    .object({
      records: z.array(z.object({ kind: ShortText, id: ShortText })).max(100),
      waitMs: z.number().int().min(0).max(60_000).default(0),
    })
    .nullable()
    .default(null),
  /** A reprint of a receipt already printed: COPY under the header and at the bottom. */
  copy: z.boolean().default(false),
  /** Paper for a check not paid in full, a bill: says it is not a receipt; `due` says what is left. */
  bill: z.boolean().default(false),
  /** What is still owed on the check (a bill, or the receipt of a part payment), and what was paid so far. */
  due: z.object({ paidSoFar: ShortText.nullable().default(null), amount: ShortText }).nullable().default(null),
  /**
   * A large party's automatic gratuity (charged as a tip on the payments): its label ("Gratuity
   * 18% (8+ guests)"), what the payments carried of it (a receipt) or what is still due of it
   * (`due`, a bill) and the amount due with it; its tax where it is taxed; `removed` says who took it
   * off and why.
   */
  gratuity: z
    .object({
      label: ShortText,
      amount: ShortText,
      tax: DocAmount.nullable().default(null),
      dueWithGratuity: ShortText.nullable().default(null),
      removed: ShortText.nullable().default(null),
    })
    .nullable()
    .default(null),
  /** Suggested tips on a bill ("15%", "$3.30"), from the till's checkout settings. */
  tipGuide: z.array(DocAmount).default([]),
  /** What the suggested tips are a percentage of, in words ("the amount due", "$41.20 before tax"). */
  tipGuideOn: ShortText.default('the amount due'),
  /** Lines printed at the bottom ("Thank you!"). */
  footer: z.array(ShortText).default([]),
});
/** What main/core builds (defaults may be left out). */
export type ReceiptDoc = z.input<typeof ReceiptDoc>;

export const KitchenLine = OrderedLine.extend({
  /** The guest's seat ("S2" before the line); null or absent: for the table. */
  seat: z.number().int().min(1).max(99).nullable().optional(),
  /** The menu item's category: what routeKitchenLines sends to a printer. */
  categoryId: ShortText.nullable().optional(),
  categoryName: ShortText.nullable().optional(),
});
export type KitchenLine = z.input<typeof KitchenLine>;

export const KitchenTicketDoc = z.object({
  /**
   * 'new': the order; 'add': only the lines added since; 'void': the lines (or the whole order)
   * taken off; 'fire': a course held back until now, to be made (`course` names it).
   */
  variant: z.enum(['new', 'add', 'void', 'fire']).default('new'),
  ...orderHeading,
  /** The course a FIRE ticket fires ("Mains"). */
  course: ShortText.nullable().optional(),
  /** The printer's station ("grill", "bar"), printed under the header. */
  station: ShortText.nullable().optional(),
  lines: z.array(KitchenLine),
  /** The order's note for the kitchen ("allergy: nuts"). */
  orderNote: Text.default(''),
  cashier: ShortText.nullable().optional(),
});
export type KitchenTicketDoc = z.input<typeof KitchenTicketDoc>;

/** The end-of-day report's slot: titled sections of label/value rows (the report's content comes later). */
export const ReportDoc = z.object({
  title: ShortText,
  location: DocLocation.nullable().optional(),
  time: DocTime,
  /** "Business day 2025-03-14", "Till A". */
  subtitle: z.array(ShortText).default([]),
  sections: z.array(z.object({ title: ShortText.nullable().optional(), rows: z.array(z.object({ label: ShortText, value: ShortText })) })),
  footer: z.array(ShortText).default([]),
});
export type ReportDoc = z.input<typeof ReportDoc>;

/**
 * The cash drawer kick: ESC p m t1 t2. `pin` 2 (m = 0, most drawers) or 5 (m = 1, a second
 * drawer); the pulse is `onMs` on, `offMs` off (each sent in 2 ms units, at most 510 ms).
 */
export const DrawerKickDoc = z.object({
  pin: z.union([z.literal(2), z.literal(5)]).default(2),
  onMs: z.number().int().min(2).max(510).default(100),
  offMs: z.number().int().min(2).max(510).default(200),
});
export type DrawerKickDoc = z.input<typeof DrawerKickDoc>;
