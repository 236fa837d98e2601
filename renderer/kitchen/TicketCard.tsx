// One kitchen ticket as a card: its place in the row (the number key that selects it), the order's
// label, service and table in large type, its age in colour and in words, each line with quantity,
// modifiers, note, seat and course, what changed since it was first shown (ADD, VOID, FIRE), and Bump.
import type { KitchenTicket, KitchenTicketLine } from '../../bridge/kitchen/contract';
import type { TicketAge } from './ticket-age';

const MARK_WORDS = { add: 'ADD', void: 'VOID', fire: 'FIRE' } as const;

/** "Table 12", "Takeout", "Delivery"; null when the order does not say. */
export function serviceText(ticket: Pick<KitchenTicket, 'service' | 'table'>): string | null {
  if (ticket.service === 'dine_in') return ticket.table ? `Table ${ticket.table}` : 'Dine in';
  if (ticket.service === 'takeout') return 'Takeout';
  if (ticket.service === 'delivery') return 'Delivery';
  return null;
}

function LineItem({ line }: { line: KitchenTicketLine }) {
  const where = [line.seat === null ? null : `Seat ${line.seat}`, line.course].filter((part) => part !== null).join(' · ');
  return (
    <li className={`kds-line${line.mark ? ` kds-mark-${line.mark}` : ''}`}>
      <span className="kds-qty">{line.quantity}</span>
      <div className="kds-line-body">
        <span className="kds-item">
          {line.mark ? <span className="kds-mark">{MARK_WORDS[line.mark]}</span> : null}
          {line.mark === 'void' ? <del>{line.name}</del> : line.name}
        </span>
        {line.modifiers.length > 0 ? <span className="kds-mods">{line.modifiers.join(', ')}</span> : null}
        {line.note !== '' ? <span className="kds-note">{line.note}</span> : null}
        {where !== '' ? <span className="kds-where">{where}</span> : null}
      </div>
    </li>
  );
}

export function TicketCard({ ticket, position, age, selected, onSelect, onBump, bumping }: {
  ticket: KitchenTicket;
  /** 1-based: the number key that selects it (1–9). */
  position: number;
  age: TicketAge;
  selected: boolean;
  onSelect: () => void;
  onBump: () => void;
  bumping: boolean;
}) {
  const titleId = `kds-ticket-${ticket.orderId}`;
  const service = serviceText(ticket);
  const from = [ticket.customerName, ticket.tillName === null ? 'Online' : `from ${ticket.tillName}`].filter((part) => part !== null).join(' · ');
  return (
    <article className={`kds-ticket kds-age-${age.level}${selected ? ' kds-selected' : ''}`} aria-labelledby={titleId} aria-current={selected ? 'true' : undefined} data-order-id={ticket.orderId} onClick={onSelect}>
      <header className="kds-ticket-head">
        {position <= 9 ? <kbd className="kds-key" aria-hidden="true">{position}</kbd> : null}
        <h2 id={titleId} className="kds-label">
          {ticket.label}
        </h2>
        {service !== null ? <span className="kds-service">{service}</span> : null}
        <span className="kds-age" data-testid="ticket-age">
          {age.text}
        </span>
      </header>
      <p className="kds-from">
        {from}
        {ticket.recalled ? <span className="kds-recalled">RECALLED</span> : null}
      </p>
      <ul className="kds-lines">
        {ticket.lines.map((line, index) => (
          <LineItem key={index} line={line} />
        ))}
      </ul>
      <button
        type="button"
        className="kds-bump"
        disabled={bumping}
        onClick={(event) => {
          event.stopPropagation();
          onBump();
        }}
      >
        {`Bump ${ticket.label}`}
      </button>
    </article>
  );
}
