import { memo, useCallback, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { MenuItem, MenuSnapshot, Order } from '../../bridge/contract';
import { enterAction, indexMenu, searchMenu } from '../../bridge/menu-search';
import { ErrorNote } from '../components/Dialog';
import { FieldError } from '../components/FieldError';
import { PaymentDialog } from '../components/PaymentDialog';
import { beepUnknownCode } from '../lib/beep';
import { money } from '../lib/format';
import { describeError, useBridge, useShortcuts } from '../lib/hooks';
import { addItem, changeQuantity, emptyTicket, lineTotal, MAX_LINE_QUANTITY, ticketTotal, toLineInputs, toggleModifier, type Ticket } from '../lib/ticket';

/** A touch grid stays readable and every keystroke stays fast: the rest is one tap away. */
const GRID_PAGE = 60;

/** `next`: the tile Enter in the search box acts on, highlighted so Enter never surprises. */
const MenuTile = memo(function MenuTile({ item, currency, onAdd, next }: { item: MenuItem; currency: string; onAdd: (item: MenuItem) => void; next: boolean }) {
  const status = !item.available ? 'Sold out' : item.lowStock ? 'Low stock' : null;
  return (
    <button
      type="button"
      className={`tile${item.available ? '' : ' tile-out'}${item.lowStock ? ' tile-low' : ''}${next ? ' tile-next' : ''}`}
      disabled={!item.available}
      onClick={() => onAdd(item)}
      data-item-id={item.id}
    >
      <span className="tile-name">{item.name}</span>
      <span className="tile-foot">
        <span className="tile-price">{money(item.price, currency)}</span>
        {status ? <span className="tile-badge">{status}</span> : null}
      </span>
    </button>
  );
});

export function Register({
  menu,
  ticket,
  setTicket,
  active,
}: {
  menu: MenuSnapshot;
  ticket: Ticket;
  setTicket: (update: (ticket: Ticket) => Ticket) => void;
  active: boolean;
}) {
  const client = useBridge();
  const [query, setQuery] = useState('');
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [limit, setLimit] = useState(GRID_PAGE);
  const [payingOrder, setPayingOrder] = useState<Order | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [showCustomer, setShowCustomer] = useState(false);
  /** Why Enter in the search box added nothing (sold out, unknown code): shown under the box. */
  const [searchError, setSearchError] = useState<string | null>(null);
  const searchStatusId = useId();
  const searchRef = useRef<HTMLInputElement>(null);

  const index = useMemo(() => indexMenu(menu.items), [menu.items]);
  const itemsById = useMemo(() => new Map(menu.items.map((item) => [item.id, item])), [menu.items]);
  const matches = useMemo(() => searchMenu(index, query, categoryId), [index, query, categoryId]);
  const shown = matches.length > limit ? matches.slice(0, limit) : matches;
  const highlighted = query.trim() === '' ? undefined : matches[0];
  const total = ticketTotal(ticket, itemsById);
  // Editing an order already part paid: Charge asks for what is left, not the whole total again.
  const due = Math.max(0, total - ticket.paidAmount);

  const onAdd = useCallback(
    (item: MenuItem) => {
      setNotice(null);
      setTicket((current) => addItem(current, item));
    },
    [setTicket],
  );

  const onSearchKey = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      const action = enterAction(matches, query);
      // A refusal keeps what was typed, selected: the cashier sees it, and the next scan replaces it.
      const refuse = (message: string) => {
        setSearchError(message);
        event.currentTarget.select();
      };
      if (action.kind === 'add') {
        onAdd(action.item);
        setError(null);
        setQuery('');
      } else if (action.kind === 'sold_out') {
        refuse(`${action.item.name} is sold out (86'd). Offer something else.`);
      } else if (action.kind === 'unknown_code') {
        beepUnknownCode();
        refuse(`No item with barcode ${action.code}. Check the code, or give the item this barcode / PLU in Menu.`);
      }
    } else if ((event.key === '+' || event.key === '-') && query === '') {
      // With nothing typed, + and - adjust the selected line; inside a search they are text.
      event.preventDefault();
      const key = ticket.selectedKey;
      if (key) setTicket((t) => changeQuantity(t, key, event.key === '+' ? 1 : -1));
    } else if (event.key === 'Escape') {
      setQuery('');
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      (document.querySelector('.menu-grid .tile:not([disabled])') as HTMLElement | null)?.focus();
    }
  };

  const submit = async (andPay: boolean) => {
    if (ticket.lines.length === 0 || busy) return;
    setBusy(true);
    setError(null);
    try {
      const customer = { name: ticket.customerName, phone: ticket.customerPhone };
      const order = ticket.editingOrderId
        ? await client.call('orders.update', { id: ticket.editingOrderId, lines: toLineInputs(ticket), customer, notes: ticket.notes })
        : await client.call('orders.place', { lines: toLineInputs(ticket), customer, notes: ticket.notes });
      setTicket(() => emptyTicket);
      setShowCustomer(false);
      if (andPay && order.total > order.paidAmount) setPayingOrder(order);
      else setNotice(`Order saved${order.customer.name ? ` for ${order.customer.name}` : ''}. Take payment from Orders when ready.`);
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  useShortcuts(
    {
      F2: () => searchRef.current?.focus(),
      '/': () => searchRef.current?.focus(),
      F7: () => void submit(false),
      F8: () => void submit(true),
      F9: () => setTicket(() => emptyTicket),
      '+': () => ticket.selectedKey && setTicket((t) => changeQuantity(t, t.selectedKey as string, 1)),
      '-': () => ticket.selectedKey && setTicket((t) => changeQuantity(t, t.selectedKey as string, -1)),
    },
    active,
  );

  const selectedLine = ticket.lines.find((line) => line.key === ticket.selectedKey);

  return (
    <div className="register">
      <section className="menu-panel" aria-label="Menu">
        <div className="search-row">
          <label className="visually-hidden" htmlFor="menu-search">
            Search the menu or scan a barcode
          </label>
          <input
            id="menu-search"
            ref={searchRef}
            className="search"
            type="search"
            placeholder="Search or scan…  (F2 or /)"
            autoComplete="off"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setSearchError(null);
              setLimit(GRID_PAGE);
            }}
            onKeyDown={onSearchKey}
            aria-describedby={searchError || highlighted ? searchStatusId : undefined}
            aria-invalid={searchError ? true : undefined}
            autoFocus
          />
          {searchError ? (
            <FieldError id={searchStatusId} message={searchError} />
          ) : (
            <p id={searchStatusId} className="search-hint muted">
              {highlighted ? (highlighted.available ? `Enter adds ${highlighted.name}` : `${highlighted.name} is sold out`) : null}
            </p>
          )}
        </div>
        <nav className="categories" aria-label="Categories">
          <button type="button" className="category" aria-pressed={categoryId === null} onClick={() => setCategoryId(null)}>
            All
          </button>
          {menu.categories.map((category) => (
            <button key={category.id} type="button" className="category" aria-pressed={categoryId === category.id} onClick={() => setCategoryId(category.id)}>
              {category.name}
            </button>
          ))}
        </nav>
        <div className="menu-grid" role="group" aria-label={query ? `Items matching ${query}` : 'Items'}>
          {shown.map((item) => (
            <MenuTile key={item.id} item={item} currency={menu.currency} onAdd={onAdd} next={item === highlighted} />
          ))}
          {matches.length === 0 ? (
            <p className="muted empty grid-message">
              {query.trim() ? `No item matches “${query.trim()}”. Check the spelling or pick a category.` : 'No items here yet. The menu appears once the terminal has synced.'}
            </p>
          ) : null}
          {matches.length > shown.length ? (
            <button type="button" className="tile tile-more" onClick={() => setLimit((n) => n + GRID_PAGE)}>
              Show {Math.min(GRID_PAGE, matches.length - shown.length)} more of {matches.length - shown.length}
            </button>
          ) : null}
        </div>
      </section>

      <section className="ticket" aria-label="Ticket">
        <header className="ticket-header">
          <h2>{ticket.editingOrderId ? 'Editing order' : 'New order'}</h2>
          <button type="button" className="ghost" onClick={() => setTicket(() => emptyTicket)} disabled={ticket.lines.length === 0 && !ticket.editingOrderId}>
            Clear <kbd>F9</kbd>
          </button>
        </header>
        {/* What grows with the order: scrolls as one when it does not fit, the total and the actions stay put. */}
        <div className="ticket-body">
          <ol className="ticket-lines" data-testid="ticket-lines">
            {ticket.lines.map((line) => {
              const item = itemsById.get(line.menuItemId);
              const selected = line.key === ticket.selectedKey;
              const chosen = item?.modifiers.filter((m) => line.modifierIds.includes(m.id)) ?? [];
              return (
                <li key={line.key} className={selected ? 'ticket-line selected' : 'ticket-line'}>
                  <button type="button" className="line-main" onClick={() => setTicket((t) => ({ ...t, selectedKey: line.key }))} aria-pressed={selected}>
                    <span className="line-name">{item?.name ?? 'Item no longer on the menu'}</span>
                    {chosen.length > 0 ? <span className="line-mods">{chosen.map((m) => m.name).join(', ')}</span> : null}
                  </button>
                  <div className="qty">
                    <button type="button" className="qty-btn" aria-label={`One less ${item?.name ?? ''}`} onClick={() => setTicket((t) => changeQuantity(t, line.key, -1))}>
                      −
                    </button>
                    <span className="qty-value" aria-label="quantity">
                      {line.quantity}
                    </span>
                    <button type="button" className="qty-btn" aria-label={`One more ${item?.name ?? ''}`} onClick={() => setTicket((t) => changeQuantity(t, line.key, 1))}>
                      +
                    </button>
                  </div>
                  <span className="line-total">{money(lineTotal(line, item), menu.currency)}</span>
                  {line.quantity >= MAX_LINE_QUANTITY ? (
                    <p className="qty-limit" role="status">
                      {MAX_LINE_QUANTITY} is the most one line can hold.
                    </p>
                  ) : null}
                </li>
              );
            })}
            {ticket.lines.length === 0 ? <li className="muted empty">Tap an item, type its name, or scan it.</li> : null}
          </ol>
          {selectedLine && (itemsById.get(selectedLine.menuItemId)?.modifiers.length ?? 0) > 0 ? (
            <fieldset className="modifiers">
              <legend>Modifiers for {itemsById.get(selectedLine.menuItemId)?.name}</legend>
              {itemsById.get(selectedLine.menuItemId)?.modifiers.map((modifier) => (
                <button
                  key={modifier.id}
                  type="button"
                  className="chip"
                  aria-pressed={selectedLine.modifierIds.includes(modifier.id)}
                  onClick={() => setTicket((t) => toggleModifier(t, selectedLine.key, modifier.id))}
                >
                  {modifier.name}
                  {modifier.price !== 0 ? ` +${money(modifier.price, menu.currency)}` : ''}
                </button>
              ))}
            </fieldset>
          ) : null}
          <div className="customer">
            <button type="button" className="ghost" aria-expanded={showCustomer} onClick={() => setShowCustomer((v) => !v)}>
              {ticket.customerName ? `Customer: ${ticket.customerName}` : 'Add customer & notes'}
            </button>
            {showCustomer ? (
              <div className="customer-fields">
                <label>
                  Name
                  <input value={ticket.customerName} onChange={(event) => setTicket((t) => ({ ...t, customerName: event.target.value }))} autoComplete="off" />
                </label>
                <label>
                  Phone
                  <input type="tel" value={ticket.customerPhone} onChange={(event) => setTicket((t) => ({ ...t, customerPhone: event.target.value }))} autoComplete="off" />
                </label>
                <label>
                  Notes
                  <textarea rows={2} value={ticket.notes} onChange={(event) => setTicket((t) => ({ ...t, notes: event.target.value }))} />
                </label>
              </div>
            ) : null}
          </div>
        </div>
        <div className="ticket-total" aria-live="polite">
          <span>Total</span>
          <strong data-testid="ticket-total">{money(total, menu.currency)}</strong>
        </div>
        {ticket.paidAmount > 0 ? (
          <p className="ticket-paid" data-testid="ticket-paid">
            Paid {money(ticket.paidAmount, menu.currency)} · due {money(due, menu.currency)}
          </p>
        ) : null}
        <ErrorNote message={error} />
        {notice ? (
          <p className="notice" role="status">
            {notice}
          </p>
        ) : null}
        <div className="ticket-actions">
          <button type="button" className="secondary big" disabled={ticket.lines.length === 0 || busy} onClick={() => void submit(false)}>
            {ticket.editingOrderId ? 'Save changes' : 'Save open'} <kbd>F7</kbd>
          </button>
          <button type="button" className="primary big" disabled={ticket.lines.length === 0 || busy} onClick={() => void submit(true)} data-testid="charge">
            Charge {money(due, menu.currency)} <kbd>F8</kbd>
          </button>
        </div>
      </section>
      {payingOrder ? (
        <PaymentDialog
          order={payingOrder}
          onClose={() => {
            setPayingOrder(null);
            setNotice(
              payingOrder.paidAmount > 0
                ? `Order kept open with ${money(payingOrder.total - payingOrder.paidAmount, payingOrder.currency)} still due. Take payment from Orders when ready.`
                : 'Order kept open, unpaid: it is in Orders as “Open · unpaid”. Take payment there when ready.',
            );
          }}
          onPaid={(order, change, payment) => {
            setPayingOrder(null);
            const stored = payment.status === 'queued_offline' ? ' Card stored offline: it is sent when the connection returns.' : '';
            setNotice(`Paid ${money(order.paidAmount, order.currency)}.${change > 0 ? ` Give ${money(change, order.currency)} change.` : ''}${stored}`);
            searchRef.current?.focus();
          }}
        />
      ) : null}
    </div>
  );
}
