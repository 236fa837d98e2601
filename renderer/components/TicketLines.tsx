import { useEffect, useRef, type ReactNode } from 'react';
import type { MenuItem } from '../../bridge/contract';
import type { CheckBreakdown, CheckoutError } from '../../bridge/checkout';
import { describeDiscount } from '../lib/discounts';
import { money } from '../lib/format';
import { MAX_LINE_QUANTITY, unitPrice, type TicketLine } from '../lib/ticket';

/** Lines shown together under a heading (a course on a dine-in ticket), by their index on the ticket. */
export interface LineGroup {
  key: string;
  heading: ReactNode;
  indexes: readonly number[];
}

/**
 * The ticket's lines: name, chosen modifiers, the note for the kitchen and the discount, with the
 * quantity buttons and what the line comes to after its own discount; grouped under headings when
 * `groups` are given, each line tagged with `lineTag` (where it is served).
 */
export function TicketLines({
  lines,
  itemsById,
  check,
  problem,
  currency,
  selectedKey,
  onSelect,
  onQuantity,
  groups = null,
  lineTag = null,
}: {
  lines: TicketLine[];
  itemsById: ReadonlyMap<string, MenuItem>;
  /** The priced ticket; null while a discount does not fit (`problem` says which). */
  check: CheckBreakdown | null;
  problem: CheckoutError | null;
  currency: string;
  selectedKey: string | null;
  onSelect: (key: string) => void;
  onQuantity: (key: string, delta: number) => void;
  groups?: readonly LineGroup[] | null;
  lineTag?: ((line: TicketLine) => string) | null;
}) {
  const list = useRef<HTMLOListElement>(null);
  // The selected line is the one the tools below act on: whenever the lines or the choice change
  // (a line added at the bottom, an item rung up again whose line is scrolled away), it is brought into view.
  useEffect(() => {
    list.current?.querySelector<HTMLElement>('.ticket-line.selected')?.scrollIntoView?.({ block: 'nearest' });
  }, [lines, selectedKey]);
  const row = (line: TicketLine, index: number) => {
    const item = itemsById.get(line.menuItemId);
    const selected = line.key === selectedKey;
    const chosen = item?.modifiers.filter((m) => line.modifierIds.includes(m.id)) ?? [];
    const priced = check?.lines[index];
    const amount = priced ? priced.gross - priced.lineDiscount : unitPrice(line, item) * line.quantity;
    const name = item?.name ?? 'Item no longer on the menu';
    return (
      <li key={line.key} className={selected ? 'ticket-line selected' : 'ticket-line'}>
        <button type="button" className="line-main" onClick={() => onSelect(line.key)} aria-pressed={selected}>
          <span className="line-name">{name}</span>
          {lineTag ? <span className="line-place">{lineTag(line)}</span> : null}
          {chosen.length > 0 ? <span className="line-mods">{chosen.map((m) => m.name).join(', ')}</span> : null}
          {line.note ? <span className="line-note">Note: {line.note}</span> : null}
          {line.discount ? (
            <span className="line-discount">
              {describeDiscount(line.discount, currency)}
              {priced ? ` −${money(priced.lineDiscount, currency)}` : ''}
            </span>
          ) : null}
        </button>
        <div className="qty">
          <button type="button" className="qty-btn" aria-label={`One less ${item?.name ?? ''}`} onClick={() => onQuantity(line.key, -1)}>
            −
          </button>
          <span className="qty-value" aria-label="quantity">
            {line.quantity}
          </span>
          <button type="button" className="qty-btn" aria-label={`One more ${item?.name ?? ''}`} onClick={() => onQuantity(line.key, 1)}>
            +
          </button>
        </div>
        <span className="line-total">{money(amount, currency)}</span>
        {problem?.lineIndex === index ? (
          <p className="error-note line-problem" role="alert">
            {problem.message} Change or remove the discount.
          </p>
        ) : null}
        {line.quantity >= MAX_LINE_QUANTITY ? (
          <p className="qty-limit" role="status">
            {MAX_LINE_QUANTITY} is the most one line can hold.
          </p>
        ) : null}
      </li>
    );
  };
  return (
    <ol ref={list} className="ticket-lines" data-testid="ticket-lines">
      {groups
        ? groups.flatMap((group) => [
            <li key={`group-${group.key}`} className="line-group">
              {group.heading}
            </li>,
            ...group.indexes.map((index) => row(lines[index]!, index)),
          ])
        : lines.map(row)}
      {lines.length === 0 ? <li className="muted empty">Tap an item, type its name, or scan it.</li> : null}
    </ol>
  );
}
