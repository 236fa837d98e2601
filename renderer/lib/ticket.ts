// The ticket being built on the register: pure functions so the arithmetic is tested on its own.
import type { Discount, LineInput, MenuItem, Order, PricingRules } from '../../bridge/contract';
import { CheckoutError, priceCheck, type CheckBreakdown } from '../../bridge/checkout';
import { draftOfService, TAKEOUT, type ServiceDraft } from './service';

export interface TicketLine {
  key: string;
  menuItemId: string;
  quantity: number;
  modifierIds: string[];
  /** For the kitchen: "no onions". */
  note: string;
  discount: Discount | null;
  /** The guest's seat (null: for the table); absent where the line does not say (the core keeps what it had). */
  seat?: number | null;
  /** The course it is served in (null: none); absent where the line does not say. */
  course?: string | null;
}

export interface Ticket {
  lines: TicketLine[];
  selectedKey: string | null;
  customerName: string;
  customerPhone: string;
  notes: string;
  /** Off the whole order, after the line discounts. */
  discount: Discount | null;
  /** null: an order the cloud sent without one, left as it is. */
  service: ServiceDraft | null;
  /** The manager's approval of a discount above the limits, sent with the order. */
  managerPin: string;
  /** Set when an open order was loaded for editing. */
  editingOrderId: string | null;
  /** How screens name that order ("A17"). */
  editingLabel: string;
  /** Where that order came from ("online"), for its delivery label. */
  channel: string | null;
  /** What that order had been paid when it was loaded: Charge asks for the rest. */
  paidAmount: number;
}

export const emptyTicket: Ticket = {
  lines: [],
  selectedKey: null,
  customerName: '',
  customerPhone: '',
  notes: '',
  discount: null,
  service: TAKEOUT,
  managerPin: '',
  editingOrderId: null,
  editingLabel: '',
  channel: null,
  paidAmount: 0,
};

/** The most one line can hold (the bridge refuses more): the register says so at the limit. */
export const MAX_LINE_QUANTITY = 999;

/** What the chooser decided for a line. */
export interface LineChoice {
  modifierIds: string[];
  note: string;
}

let lineCounter = 0;
function newKey(): string {
  lineCounter += 1;
  return `line-${lineCounter}`;
}

/** A line one more tap of the same item can join: nothing chosen, said or taken off. */
function isPlain(line: TicketLine): boolean {
  return line.modifierIds.length === 0 && line.note === '' && line.discount === null;
}

/**
 * Adds one of `item` with `choice`: a plain item already on the ticket as a plain line gets +1,
 * anything else a new line.
 */
export function addItem(ticket: Ticket, item: MenuItem, choice: LineChoice = { modifierIds: [], note: '' }): Ticket {
  const plain = choice.modifierIds.length === 0 && choice.note === '';
  const same = plain ? ticket.lines.find((line) => line.menuItemId === item.id && isPlain(line)) : undefined;
  if (same) {
    const quantity = Math.min(MAX_LINE_QUANTITY, same.quantity + 1);
    return { ...ticket, selectedKey: same.key, lines: ticket.lines.map((line) => (line === same ? { ...line, quantity } : line)) };
  }
  const line: TicketLine = { key: newKey(), menuItemId: item.id, quantity: 1, modifierIds: [...choice.modifierIds], note: choice.note, discount: null };
  return { ...ticket, selectedKey: line.key, lines: [...ticket.lines, line] };
}

function updateLine(ticket: Ticket, key: string, update: (line: TicketLine) => TicketLine): Ticket {
  return { ...ticket, lines: ticket.lines.map((line) => (line.key === key ? update(line) : line)) };
}

export function changeQuantity(ticket: Ticket, key: string, delta: number): Ticket {
  const lines = ticket.lines
    .map((line) => (line.key === key ? { ...line, quantity: Math.min(MAX_LINE_QUANTITY, line.quantity + delta) } : line))
    .filter((line) => line.quantity > 0);
  return { ...ticket, lines, selectedKey: lines.some((l) => l.key === ticket.selectedKey) ? ticket.selectedKey : (lines.at(-1)?.key ?? null) };
}

export function toggleModifier(ticket: Ticket, key: string, modifierId: string): Ticket {
  return updateLine(ticket, key, (line) => ({
    ...line,
    modifierIds: line.modifierIds.includes(modifierId) ? line.modifierIds.filter((id) => id !== modifierId) : [...line.modifierIds, modifierId],
  }));
}

export function setLineChoice(ticket: Ticket, key: string, choice: LineChoice): Ticket {
  return updateLine(ticket, key, (line) => ({ ...line, modifierIds: [...choice.modifierIds], note: choice.note }));
}

export function setLineDiscount(ticket: Ticket, key: string, discount: Discount | null): Ticket {
  return updateLine(ticket, key, (line) => ({ ...line, discount }));
}

/** One unit of the line with its chosen modifiers, before discounts. */
export function unitPrice(line: Pick<TicketLine, 'modifierIds'>, item: MenuItem | undefined): number {
  if (!item) return 0;
  return item.modifiers.filter((m) => line.modifierIds.includes(m.id)).reduce((sum, m) => sum + m.price, item.price);
}

export type TicketPricing = { check: CheckBreakdown; error: null } | { check: null; error: CheckoutError };

/**
 * The ticket priced as the core will price the order (same arithmetic, same rules). A discount
 * that no longer fits (an amount larger than a line whose quantity went down) comes back as the
 * error, with the line it is on, instead of a total nobody can charge.
 */
export function priceTicket(ticket: Ticket, itemsById: ReadonlyMap<string, MenuItem>, rules: PricingRules, currency: string): TicketPricing {
  const lines = ticket.lines.map((line) => {
    const item = itemsById.get(line.menuItemId);
    // An item gone from the menu prices at nothing here; the core refuses it when the order is sent.
    return { quantity: line.quantity, unitPrice: unitPrice(line, item), taxClass: item?.taxClass ?? '', discount: line.discount };
  });
  try {
    return { check: priceCheck(lines, ticket.discount, { ...rules, currency }), error: null };
  } catch (caught) {
    if (caught instanceof CheckoutError) return { check: null, error: caught };
    throw caught;
  }
}

/** What a discount on the order comes off: the items after their own discounts; null while one of those does not fit. */
export function orderDiscountBase(ticket: Ticket, itemsById: ReadonlyMap<string, MenuItem>, rules: PricingRules, currency: string): number | null {
  const { check } = priceTicket({ ...ticket, discount: null }, itemsById, rules, currency);
  return check ? check.subtotal - check.lineDiscountTotal : null;
}

export function toLineInputs(ticket: Ticket): LineInput[] {
  return ticket.lines.map(({ menuItemId, quantity, modifierIds, note, discount, seat, course }) => ({
    menuItemId,
    quantity,
    modifierIds,
    note,
    discount,
    ...(seat !== undefined ? { seat } : {}),
    ...(course !== undefined ? { course } : {}),
  }));
}

/** The discount as it is asked for again (what it took off is the core's to work out). */
function requested(applied: { kind: Discount['kind']; value: number; reason: string } | null): Discount | null {
  return applied ? { kind: applied.kind, value: applied.value, reason: applied.reason } : null;
}

/** Loads an open order back onto the register for editing. */
export function ticketFromOrder(order: Order): Ticket {
  const lines = order.lines.map((line) => ({
    key: newKey(),
    menuItemId: line.menuItemId,
    quantity: line.quantity,
    modifierIds: line.modifiers.map((m) => m.id),
    note: line.note,
    discount: requested(line.discount),
    seat: line.seat,
    course: line.course,
  }));
  return {
    lines,
    selectedKey: lines.at(-1)?.key ?? null,
    customerName: order.customer.name,
    customerPhone: order.customer.phone,
    notes: order.notes,
    discount: requested(order.check.orderDiscount),
    service: draftOfService(order.service),
    managerPin: '',
    editingOrderId: order.id,
    editingLabel: order.label,
    channel: order.channel,
    paidAmount: order.paidAmount,
  };
}
