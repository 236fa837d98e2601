// The ticket being built on the register: pure functions so the arithmetic is tested on its own.
import type { LineInput, MenuItem, Order } from '../../bridge/contract';

export interface TicketLine {
  key: string;
  menuItemId: string;
  quantity: number;
  modifierIds: string[];
}

export interface Ticket {
  lines: TicketLine[];
  selectedKey: string | null;
  customerName: string;
  customerPhone: string;
  notes: string;
  /** Set when an open order was loaded for editing. */
  editingOrderId: string | null;
  /** What that order had been paid when it was loaded: Charge asks for the rest. */
  paidAmount: number;
}

export const emptyTicket: Ticket = { lines: [], selectedKey: null, customerName: '', customerPhone: '', notes: '', editingOrderId: null, paidAmount: 0 };

/** The most one line can hold (the bridge refuses more): the register says so at the limit. */
export const MAX_LINE_QUANTITY = 999;

let lineCounter = 0;
function newKey(): string {
  lineCounter += 1;
  return `line-${lineCounter}`;
}

/** Adds one of `item`: a plain item already on the ticket gets +1, anything else a new line. */
export function addItem(ticket: Ticket, item: MenuItem): Ticket {
  const same = ticket.lines.find((line) => line.menuItemId === item.id && line.modifierIds.length === 0);
  if (same) {
    const quantity = Math.min(MAX_LINE_QUANTITY, same.quantity + 1);
    return { ...ticket, selectedKey: same.key, lines: ticket.lines.map((line) => (line === same ? { ...line, quantity } : line)) };
  }
  const line = { key: newKey(), menuItemId: item.id, quantity: 1, modifierIds: [] };
  return { ...ticket, selectedKey: line.key, lines: [...ticket.lines, line] };
}

export function changeQuantity(ticket: Ticket, key: string, delta: number): Ticket {
  const lines = ticket.lines
    .map((line) => (line.key === key ? { ...line, quantity: Math.min(MAX_LINE_QUANTITY, line.quantity + delta) } : line))
    .filter((line) => line.quantity > 0);
  return { ...ticket, lines, selectedKey: lines.some((l) => l.key === ticket.selectedKey) ? ticket.selectedKey : (lines.at(-1)?.key ?? null) };
}

export function toggleModifier(ticket: Ticket, key: string, modifierId: string): Ticket {
  return {
    ...ticket,
    lines: ticket.lines.map((line) =>
      line.key !== key
        ? line
        : { ...line, modifierIds: line.modifierIds.includes(modifierId) ? line.modifierIds.filter((id) => id !== modifierId) : [...line.modifierIds, modifierId] },
    ),
  };
}

export function lineTotal(line: TicketLine, item: MenuItem | undefined): number {
  if (!item) return 0;
  const extras = item.modifiers.filter((m) => line.modifierIds.includes(m.id)).reduce((sum, m) => sum + m.price, 0);
  return (item.price + extras) * line.quantity;
}

export function ticketTotal(ticket: Ticket, itemsById: ReadonlyMap<string, MenuItem>): number {
  return ticket.lines.reduce((sum, line) => sum + lineTotal(line, itemsById.get(line.menuItemId)), 0);
}

export function toLineInputs(ticket: Ticket): LineInput[] {
  return ticket.lines.map(({ menuItemId, quantity, modifierIds }) => ({ menuItemId, quantity, modifierIds }));
}

/** Loads an open order back onto the register for editing. */
export function ticketFromOrder(order: Order): Ticket {
  const lines = order.lines.map((line) => ({ key: newKey(), menuItemId: line.menuItemId, quantity: line.quantity, modifierIds: line.modifiers.map((m) => m.id) }));
  return {
    lines,
    selectedKey: lines.at(-1)?.key ?? null,
    customerName: order.customer.name,
    customerPhone: order.customer.phone,
    notes: order.notes,
    editingOrderId: order.id,
    paidAmount: order.paidAmount,
  };
}
