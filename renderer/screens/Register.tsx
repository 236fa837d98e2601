import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { MenuItem, MenuSnapshot, Order } from '../../bridge/contract';
import { gratuityApplies, gratuityLabel, gratuityOf } from '../../bridge/checkout/gratuity';
import { CheckTotals } from '../components/CheckTotals';
import { ErrorNote } from '../components/Dialog';
import { DiscountDialog } from '../components/DiscountDialog';
import { FieldError } from '../components/FieldError';
import { LastOrder } from '../components/LastOrder';
import { ManagerPinField } from '../components/ManagerPinField';
import { MenuPicker } from '../components/MenuPicker';
import { ModifierDialog } from '../components/ModifierDialog';
import { PaymentDialog } from '../components/PaymentDialog';
import { OrderDetails, type CustomerErrors } from '../components/OrderDetails';
import { SERVICE_CHOICES, ServiceTypes } from '../components/ServicePicker';
import { TicketLines } from '../components/TicketLines';
import { BridgeCallError } from '../lib/bridge-client';
import { describeDiscount } from '../lib/discounts';
import { money } from '../lib/format';
import { describeError, useBridge, useQuery, useShortcuts } from '../lib/hooks';
import { needsChooser } from '../lib/modifiers';
import { balanceDue } from '../lib/order-check';
import { splitRefusal } from '../lib/issues';
import { readService, type ServiceDraft, type ServiceErrors } from '../lib/service';
import { useApproval } from '../lib/session';
import { CourseHead, LinePlacement, SeatingBar } from '../tables/Seating';
import { addPlacedItem, courseGroups, placeLine, placementLabel, placementOf, readSeatingPreference, seatChoices, UNPLACED, writeSeatingPreference, type Placement } from '../tables/seating';
import {
  changeQuantity,
  emptyTicket,
  orderDiscountBase,
  priceTicket,
  setLineChoice,
  setLineDiscount,
  toggleModifier,
  toLineInputs,
  unitPrice,
  type LineChoice,
  type Ticket,
} from '../lib/ticket';

/** What the chooser is open for: a new line of `item`, or the line `lineKey` being changed. */
type Chooser = { item: MenuItem; lineKey: string | null };
/** What the discount dialog is open for. */
type DiscountTarget = { kind: 'line'; key: string } | { kind: 'order' };

const MANAGER_PIN = /^\d{4,8}$/;
const NO_COURSES: readonly [] = [];

/** Where the core's refusal of an order's details points (its issues' paths), and how each is named. */
const DETAIL_FIELDS = ['customer.name', 'customer.phone', 'notes'] as const;
const DETAIL_LABELS = { 'customer.name': 'the name', 'customer.phone': 'the phone number', notes: 'the notes' } as const;

/** The order row's summary of the drawer, a part a line: "Table 12 · 4 guests", "Ada", or what it is for while empty. */
function detailsSummary(service: ServiceDraft | null, customerName: string): string[] {
  const parts: string[] = [];
  if (service?.type === 'dine_in') {
    const guests = service.guests.trim();
    parts.push(`Table ${service.table.trim() || '?'}${guests ? ` · ${guests} ${guests === '1' ? 'guest' : 'guests'}` : ''}`);
  }
  const name = customerName.trim();
  // The whole name is in the drawer; the row shows its start.
  parts.push(name === '' ? 'Add customer & notes' : name.length > SUMMARY_NAME ? `${name.slice(0, SUMMARY_NAME - 1)}…` : name);
  return parts;
}
const SUMMARY_NAME = 18;

/**
 * The register. It stays mounted while another screen shows (App), hidden and out of reach (no
 * keys, no focus, nothing a screen reader reads), so opening a check only swaps the ticket; a
 * memo keeps the other screens' renders from drawing it again.
 */
export const Register = memo(function Register({
  menu,
  ticket,
  setTicket,
  order,
  active,
}: {
  menu: MenuSnapshot;
  ticket: Ticket;
  setTicket: (update: (ticket: Ticket) => Ticket) => void;
  /** The order the ticket edits, as the screen that opened it had it (null: a new ticket): its courses' state. */
  order: Order | null;
  /** The screen shown: false hides it. */
  active: boolean;
}) {
  const client = useBridge();
  const { data: settings } = useQuery('settings.get', {}, ['settings.changed']);
  const { data: courses } = useQuery('tables.courses', {}, ['courses.changed']);
  /** Where the next items go (a seat, a course): chosen above the lines of a dine-in ticket. */
  const [placement, setPlacement] = useState<Placement>(UNPLACED);
  // Seats and courses are this till's way of working (a full-service floor), asked once and kept.
  const [seatingOn, setSeatingOn] = useState(() => readSeatingPreference());
  // Read by the menu tiles' handler, which stays the same so the tiles do not all render again;
  // kept in step before any tap can reach a tile.
  const placementRef = useRef(placement);
  useLayoutEffect(() => {
    placementRef.current = placement;
  }, [placement]);
  /** Courses held on a ticket not sent yet: the order is placed with them held. */
  const [heldDraft, setHeldDraft] = useState<readonly string[]>([]);
  /** The edited order as the core last told it here (a hold or fire, a change made elsewhere), with the opening of it (`order`) it came after. */
  const [latest, setLatest] = useState<{ opened: Order | null; order: Order } | null>(null);
  /** Why holding or firing a course was refused, for the order it was asked of (null: the ticket not sent yet). */
  const [courseRefusal, setCourseRefusal] = useState<{ orderId: string | null; message: string } | null>(null);
  const discountApproval = useApproval('discount.above_limit');
  const [query, setQuery] = useState('');
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const [payingOrder, setPayingOrder] = useState<Order | null>(null);
  /** The order just saved or charged: its number shown big, its check as the core priced it. */
  const [lastOrder, setLastOrder] = useState<Order | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The order's details (table, customer, notes) open in their drawer over the lines. */
  const [showDetails, setShowDetails] = useState(false);
  const detailsId = useId();
  const [customerErrors, setCustomerErrors] = useState<CustomerErrors>({});
  const [chooser, setChooser] = useState<Chooser | null>(null);
  const [discounting, setDiscounting] = useState<DiscountTarget | null>(null);
  const [serviceErrors, setServiceErrors] = useState<ServiceErrors>({});
  /** Why the manager PIN sent with the order was refused (the core's words): shows the PIN field. */
  const [pinError, setPinError] = useState<string | null>(null);
  const pinErrorId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const pinRef = useRef<HTMLInputElement>(null);
  const tableRef = useRef<HTMLInputElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  /** A field of the details drawer takes the focus once the drawer is shown (dine in picked, a refusal). */
  const [fieldWanted, setFieldWanted] = useState<{ field: 'table' | 'name' | 'phone' | 'notes'; n: number } | null>(null);
  /** A dialog closed or a sale ended: the search box takes the focus back once the dialog is gone. */
  const [searchWanted, setSearchWanted] = useState(0);

  const itemsById = useMemo(() => new Map(menu.items.map((item) => [item.id, item])), [menu.items]);
  const pricing = useMemo(() => priceTicket(ticket, itemsById, menu.pricing, menu.currency), [ticket, itemsById, menu.pricing, menu.currency]);
  // A large party's gratuity, as the check will carry it once sent (the core freezes the rule then).
  const partySize = /^\d{1,2}$/.test(ticket.service?.guests ?? '') ? Number(ticket.service?.guests) : null;
  const gratuity = useMemo(() => {
    const rule = menu.checkout.autoGratuity;
    if (!pricing.check || ticket.service?.type !== 'dine_in' || !gratuityApplies(rule, partySize)) return null;
    return { label: gratuityLabel(rule), amount: gratuityOf(pricing.check, rule, menu.pricing).charged, removed: null };
  }, [pricing.check, ticket.service?.type, partySize, menu.checkout.autoGratuity, menu.pricing]);
  // A dine-in ticket with seats and courses is grouped by course, each line saying its seat; any
  // other ticket stays a plain list, so a quick table's 8 lines fit the column whole.
  const dineIn = ticket.service?.type === 'dine_in';
  const courseList = courses ?? NO_COURSES;
  const courseNames = useMemo(() => new Map(courseList.map((c) => [c.id, c.name])), [courseList]);
  const placed = useMemo(() => ticket.lines.some((line) => (line.seat ?? null) !== null || (line.course ?? null) !== null), [ticket.lines]);
  const seating = dineIn && (seatingOn || placed || heldDraft.length > 0);
  const groups = useMemo(() => (seating ? courseGroups(ticket.lines, courseList) : null), [seating, ticket.lines, courseList]);
  const seats = seatChoices(ticket.service?.guests);
  // An order opened for editing: its courses' state (as opened, or as the core told it since), and
  // the seats and courses of its lines.
  const editingId = ticket.editingOrderId;
  const editingOrder =
    latest !== null && latest.opened === order && latest.order.id === editingId ? latest.order : order !== null && order.id === editingId ? order : null;
  // A change of the edited order made elsewhere (another till, a sync) reaches its courses' state,
  // asked for only then: opening the order needs nothing from the core.
  useEffect(() => {
    if (editingId === null) return;
    let live = true;
    let generation = 0;
    const off = client.on('orders.changed', ({ ids }) => {
      if (ids.length > 0 && !ids.includes(editingId)) return;
      const mine = ++generation;
      client.call('orders.get', { id: editingId }).then(
        (changed) => live && mine === generation && setLatest({ opened: order, order: changed }),
        () => undefined, // the state shown stays; holding or firing says what is wrong
      );
    });
    return () => {
      live = false;
      off();
    };
  }, [client, editingId, order]);
  const courseError = courseRefusal !== null && courseRefusal.orderId === editingId ? courseRefusal.message : null;
  const lineTag = useCallback((line: Ticket['lines'][number]) => placementLabel(placementOf(line), courseNames), [courseNames]);
  const courseState = (courseId: string): 'held' | 'fired' | null =>
    editingId === null ? (heldDraft.includes(courseId) ? 'held' : null) : (editingOrder?.courses.find((c) => c.course === courseId)?.state ?? null);
  const holdOrFire = async (courseId: string, action: 'hold' | 'fire') => {
    setCourseRefusal(null);
    if (editingId === null) {
      // Not sent yet: held until it is sent, then fired from the order.
      setHeldDraft((held) => (held.includes(courseId) ? held.filter((c) => c !== courseId) : [...held, courseId]));
      return;
    }
    try {
      const payload = { id: editingId, course: courseId, ...(ticket.managerPin ? { managerPin: ticket.managerPin } : {}) };
      setLatest({ opened: order, order: await client.call(action === 'hold' ? 'orders.holdCourse' : 'orders.fireCourse', payload) });
    } catch (caught) {
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager') setPinError(caught.message);
      else setCourseRefusal({ orderId: editingId, message: describeError(caught) });
    }
  };
  // Editing an order already part paid: Charge asks for what is left, not the whole total again.
  const due = balanceDue({ total: pricing.check?.total ?? 0, paidAmount: ticket.paidAmount });
  const orderBase = useMemo(() => orderDiscountBase(ticket, itemsById, menu.pricing, menu.currency), [ticket, itemsById, menu.pricing, menu.currency]);
  const canSend = ticket.lines.length > 0 && pricing.check !== null && !busy;
  /** Until the next item (or "Start next order"), the order just sent is shown above the new ticket. */
  const shownOrder = ticket.lines.length === 0 ? lastOrder : null;
  // Left for another screen, the register is left as a fresh one would be found when back (as when
  // each visit mounted it again): search cleared (the picker's page and message by its resetKey),
  // messages and the last order gone, the drawer closed, the next items for the table in no course.
  const [wasActive, setWasActive] = useState(active);
  if (wasActive !== active) {
    setWasActive(active);
    if (!active) {
      setQuery('');
      setCategoryId(null);
      setLastOrder(null);
      setNotice(null);
      setError(null);
      setShowDetails(false);
      setCustomerErrors({});
      setServiceErrors({});
      setPinError(null);
      setCourseRefusal(null);
      setPlacement(UNPLACED);
      setHeldDraft([]);
    }
  }
  // Shown (mounted, or back from another screen): the search box has the focus, ready for a scan.
  useLayoutEffect(() => {
    if (active) searchRef.current?.focus();
  }, [active]);
  // A refused save asks for a PIN: the (emptied) field has the focus.
  useEffect(() => {
    if (pinError !== null) pinRef.current?.focus();
  }, [pinError]);
  useEffect(() => {
    if (fieldWanted === null) return;
    const details = document.getElementById(detailsId);
    const target =
      fieldWanted.field === 'table'
        ? tableRef.current
        : fieldWanted.field === 'name'
          ? nameRef.current
          : (details?.querySelector<HTMLElement>(fieldWanted.field === 'phone' ? 'input[type="tel"]' : 'textarea') ?? null);
    target?.focus();
  }, [fieldWanted, detailsId]);
  // After the dialog's own clean-up (which gives the focus back to whatever opened it, often a button now disabled).
  useEffect(() => {
    if (searchWanted > 0) searchRef.current?.focus();
  }, [searchWanted]);
  const wantField = (field: 'table' | 'name' | 'phone' | 'notes') => {
    setShowDetails(true);
    setFieldWanted((current) => ({ field, n: (current?.n ?? 0) + 1 }));
  };

  const onAdd = useCallback(
    (item: MenuItem) => {
      setNotice(null);
      setLastOrder(null);
      if (needsChooser(item)) setChooser({ item, lineKey: null });
      else setTicket((current) => addPlacedItem(current, item, placementRef.current));
    },
    [setTicket],
  );

  const selectedKey = ticket.selectedKey;
  const onSearchKey = useCallback(
    (event: ReactKeyboardEvent<HTMLInputElement>) => {
      // With nothing typed, + and - adjust the selected line; inside a search they are text.
      if ((event.key === '+' || event.key === '-') && query === '') {
        event.preventDefault();
        if (selectedKey) setTicket((t) => changeQuantity(t, selectedKey, event.key === '+' ? 1 : -1));
      }
    },
    [query, selectedKey, setTicket],
  );
  const onSearchAdded = useCallback(() => setError(null), []);

  const clearTicket = () => {
    setTicket(() => emptyTicket);
    setHeldDraft([]);
    setCourseRefusal(null);
    setServiceErrors({});
    setCustomerErrors({});
    setShowDetails(false);
    setPinError(null);
  };

  const startNextOrder = () => {
    setLastOrder(null);
    setNotice(null);
    searchRef.current?.focus();
  };

  /** The order type (a tap or its shortcut); an order delivered through a channel keeps its type. Dine in asks for the table. */
  const pickService = (type: 'dine_in' | 'takeout') => {
    if (ticket.service?.type === 'delivery') return;
    setTicket((t) => ({ ...t, service: { table: '', guests: '', ...t.service, type } }));
    if (type === 'dine_in') wantField('table');
    else setServiceErrors({});
  };

  const canDiscountOrder = ticket.lines.length > 0 && orderBase !== null;

  const submit = async (andPay: boolean) => {
    if (!canSend) return;
    const read = ticket.service ? readService(ticket.service) : null;
    setServiceErrors(read?.errors ?? {});
    if (read?.errors) {
      wantField('table');
      return;
    }
    if (pinError !== null && !MANAGER_PIN.test(ticket.managerPin)) {
      setPinError('A manager PIN is 4 to 8 digits.');
      pinRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    setCustomerErrors({});
    try {
      const fields = {
        lines: toLineInputs(ticket),
        customer: { name: ticket.customerName, phone: ticket.customerPhone },
        notes: ticket.notes,
        discount: ticket.discount,
        ...(read?.service ? { service: read.service } : {}),
        ...(ticket.managerPin ? { managerPin: ticket.managerPin } : {}),
      };
      const held = ticket.editingOrderId ? [] : heldDraft.filter((course) => ticket.lines.some((line) => placementOf(line).course === course));
      const order = ticket.editingOrderId
        ? await client.call('orders.update', { id: ticket.editingOrderId, ...fields })
        : await client.call('orders.place', { ...fields, ...(held.length > 0 ? { heldCourses: held } : {}) });
      clearTicket();
      setLastOrder(order);
      if (andPay && balanceDue(order) > 0) setPayingOrder(order);
      else setNotice(`Order saved${order.customer.name ? ` for ${order.customer.name}` : ''} as ${order.label}. Take payment from Orders when ready.`);
    } catch (caught) {
      // The signed-in person may not do this alone (a discount above the limits, lines off an order
      // the kitchen has, another person's order): a manager's PIN is asked next to its field, the
      // ticket kept as typed.
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager') {
        // A PIN the save was refused with (a wrong one, or one given for another approval) is not
        // sent again: the manager types it for what is asked now.
        setTicket((t) => ({ ...t, managerPin: '' }));
        setPinError(caught.message);
      } else {
        // A refusal about the customer or the notes goes under that field, in the drawer, focused.
        const refusal = splitRefusal(caught, DETAIL_FIELDS, DETAIL_LABELS);
        const found: CustomerErrors = { name: refusal.fields['customer.name'], phone: refusal.fields['customer.phone'], notes: refusal.fields.notes };
        setCustomerErrors(found);
        const first = found.name !== undefined ? 'name' : found.phone !== undefined ? 'phone' : found.notes !== undefined ? 'notes' : null;
        if (first) wantField(first);
        setError(first ? refusal.note : describeError(caught));
      }
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
      F9: clearTicket,
      F4: () => canDiscountOrder && setDiscounting({ kind: 'order' }),
      ...Object.fromEntries(SERVICE_CHOICES.map(({ type, shortcut }) => [shortcut, () => pickService(type)])),
      '+': () => ticket.selectedKey && setTicket((t) => changeQuantity(t, t.selectedKey as string, 1)),
      '-': () => ticket.selectedKey && setTicket((t) => changeQuantity(t, t.selectedKey as string, -1)),
    },
    active,
  );

  const selectedLine = ticket.lines.find((line) => line.key === ticket.selectedKey);
  const selectedItem = selectedLine ? itemsById.get(selectedLine.menuItemId) : undefined;
  const discountLine = discounting?.kind === 'line' ? ticket.lines.find((line) => line.key === discounting.key) : undefined;
  // A line's discount comes off its own price; it can be changed even while it does not fit.
  const discountBase = discounting?.kind === 'order' ? orderBase : discountLine ? unitPrice(discountLine, itemsById.get(discountLine.menuItemId)) * discountLine.quantity : null;
  const orderProblem = pricing.error?.lineIndex === null ? pricing.error : null;

  const finishChoice = (choice: LineChoice) => {
    if (!chooser) return;
    const { item, lineKey } = chooser;
    setTicket((current) => (lineKey ? setLineChoice(current, lineKey, choice) : addPlacedItem(current, item, placementRef.current, choice)));
    setChooser(null);
    setSearchWanted((n) => n + 1);
  };

  const applyDiscount = (discount: Ticket['discount'], managerPin: string) => {
    if (!discounting) return;
    const target = discounting;
    setTicket((current) => ({
      ...(target.kind === 'line' ? setLineDiscount(current, target.key, discount) : { ...current, discount }),
      managerPin,
    }));
    setDiscounting(null);
  };

  return (
    // Hidden, it is not drawn: nothing in it takes the focus or is read by a screen reader (an
    // `inert` as well would only add a style pass over it at each screen change).
    <div className="register" hidden={!active}>
      <section className="menu-panel" aria-label="Menu">
        <MenuPicker
          menu={menu}
          query={query}
          onQueryChange={setQuery}
          categoryId={categoryId}
          onCategoryChange={setCategoryId}
          inputId="menu-search"
          label="Search the menu or scan a barcode"
          placeholder="Search or scan…  (F2 or /)"
          inputRef={searchRef}
          resetKey={active}
          onPick={onAdd}
          onKeyDown={onSearchKey}
          onAdded={onSearchAdded}
        />
      </section>

      <section className="ticket" aria-label="Ticket">
        {shownOrder ? <LastOrder order={shownOrder} notice={notice} onNext={startNextOrder} autoReceipt={settings?.autoReceipt ?? true} /> : null}
        <header className="ticket-header">
          <h2>{ticket.editingOrderId ? 'Editing order' : 'New order'}</h2>
          {ticket.editingOrderId ? (
            <span className="order-chip" data-testid="editing-label">
              {ticket.editingLabel}
            </span>
          ) : null}
          {editingOrder?.reopenOf ? (
            <span className="muted reopened-from" data-testid="reopened-from">
              Reopened from #{editingOrder.reopenOf.label}
            </span>
          ) : null}
          {dineIn ? (
            <button
              type="button"
              className="ghost seating-toggle"
              aria-pressed={seating}
              disabled={seating && !seatingOn}
              onClick={() => {
                writeSeatingPreference(!seatingOn);
                setSeatingOn(!seatingOn);
              }}
            >
              Seats &amp; courses
            </button>
          ) : null}
          <button type="button" className="ghost" onClick={clearTicket} disabled={ticket.lines.length === 0 && !ticket.editingOrderId}>
            Clear <kbd>F9</kbd>
          </button>
        </header>
        {/* The order row: how it is served, and the details (table, customer, notes) in a drawer over the lines. */}
        <div className="order-row">
          <ServiceTypes draft={ticket.service} channel={ticket.channel} onPick={pickService} />
          <button
            type="button"
            className="ghost order-details-toggle"
            aria-expanded={showDetails}
            aria-controls={showDetails ? detailsId : undefined}
            onClick={() => setShowDetails((open) => !open)}
            data-testid="order-details-toggle"
          >
            {detailsSummary(ticket.service, ticket.customerName).map((part, i) => (
              // A separator only a screen reader hears: on screen each part has its line.
              <span key={i}>{i > 0 ? <span className="visually-hidden">, </span> : null}{part}</span>
            ))}
          </button>
        </div>
        {seating ? <SeatingBar seats={seats} courses={courseList} placement={placement} onChange={setPlacement} /> : null}
        {/* The lines take what the column can spare and scroll alone; the selected one is kept in view. */}
        <div className="ticket-main">
          <TicketLines
            lines={ticket.lines}
            itemsById={itemsById}
            check={pricing.check}
            problem={pricing.error}
            currency={menu.currency}
            selectedKey={ticket.selectedKey}
            onSelect={(key) => setTicket((t) => ({ ...t, selectedKey: key }))}
            onQuantity={(key, delta) => setTicket((t) => changeQuantity(t, key, delta))}
            groups={groups?.map((group) => ({
              key: group.course?.id ?? 'none',
              indexes: group.indexes,
              heading: (
                <CourseHead
                  course={group.course}
                  state={group.course ? courseState(group.course.id) : null}
                  sent={editingId !== null}
                  canHold={editingId === null || (editingOrder !== null && !editingOrder.lines.some((line) => line.course === group.course?.id))}
                  busy={busy}
                  onHold={() => group.course && void holdOrFire(group.course.id, 'hold')}
                  onFire={() => group.course && void holdOrFire(group.course.id, 'fire')}
                />
              ),
            }))}
            lineTag={seating ? lineTag : null}
          />
          {showDetails ? (
            <OrderDetails
              id={detailsId}
              ticket={ticket}
              serviceErrors={serviceErrors}
              customerErrors={customerErrors}
              onService={(service: ServiceDraft) => setTicket((t) => ({ ...t, service }))}
              onChange={(change) => {
                setTicket((t) => ({ ...t, ...change }));
                setCustomerErrors((current) => ({
                  ...current,
                  ...('customerName' in change ? { name: undefined } : {}),
                  ...('customerPhone' in change ? { phone: undefined } : {}),
                  ...('notes' in change ? { notes: undefined } : {}),
                }));
              }}
              onClose={() => setShowDetails(false)}
              tableRef={tableRef}
              nameRef={nameRef}
            />
          ) : null}
        </div>
        {ticket.lines.length > 0 ? (
          <div className="ticket-tools">
            {selectedLine && selectedItem ? (
              <>
                <button type="button" className="secondary" onClick={() => setChooser({ item: selectedItem, lineKey: selectedLine.key })}>
                  {selectedItem.modifiers.length > 0 ? 'Choices & note' : 'Note'}
                </button>
                <button type="button" className="secondary" aria-pressed={selectedLine.discount !== null} onClick={() => setDiscounting({ kind: 'line', key: selectedLine.key })}>
                  Line discount
                </button>
              </>
            ) : null}
            <button type="button" className="secondary" aria-pressed={ticket.discount !== null} aria-keyshortcuts="F4" onClick={() => setDiscounting({ kind: 'order' })} disabled={!canDiscountOrder}>
              Order discount <kbd>F4</kbd>
            </button>
          </div>
        ) : null}
        {seating && selectedLine && selectedItem ? (
          <LinePlacement
            name={selectedItem.name}
            seats={seats}
            courses={courseList}
            placement={{ seat: placementOf(selectedLine).seat ?? null, course: placementOf(selectedLine).course ?? null }}
            onChange={(moved) => setTicket((t) => placeLine(t, selectedLine.key, moved))}
          />
        ) : null}
        {selectedLine && selectedItem && !needsChooser(selectedItem) && selectedItem.modifiers.length > 0 ? (
          <fieldset className="modifiers">
            <legend>Modifiers for {selectedItem.name}</legend>
            {selectedItem.modifiers.map((modifier) => (
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
        {/* After a sale the new ticket is empty: the last order above says what it came to. */}
        {pricing.check && !shownOrder ? (
          <CheckTotals
            check={pricing.check}
            currency={menu.currency}
            totalTestId="ticket-total"
            gratuity={gratuity}
            orderDiscount={ticket.discount ? { label: describeDiscount(ticket.discount, menu.currency), amount: pricing.check.orderDiscountTotal } : null}
          />
        ) : null}
        {orderProblem ? <ErrorNote message={`${orderProblem.message} Change or remove the order discount.`} /> : null}
        {ticket.paidAmount > 0 ? (
          <p className="ticket-paid" data-testid="ticket-paid">
            Paid {money(ticket.paidAmount, menu.currency)} · due {money(due, menu.currency)}
          </p>
        ) : null}
        {pinError !== null ? (
          <div className="manager-approval">
            <ManagerPinField inputRef={pinRef} value={ticket.managerPin} onChange={(managerPin) => setTicket((t) => ({ ...t, managerPin }))} errorId={pinErrorId} error={pinError} />
            <FieldError id={pinErrorId} message={pinError} />
          </div>
        ) : null}
        <ErrorNote message={courseError ?? error} />
        <div className="ticket-actions">
          <button type="button" className="secondary big" disabled={!canSend} onClick={() => void submit(false)}>
            {ticket.editingOrderId ? 'Save changes' : 'Save open'} <kbd>F7</kbd>
          </button>
          <button type="button" className="primary big" disabled={!canSend} onClick={() => void submit(true)} data-testid="charge">
            Charge {money(due, menu.currency)} <kbd>F8</kbd>
          </button>
        </div>
      </section>
      {chooser ? (
        <ModifierDialog
          item={chooser.item}
          currency={menu.currency}
          initial={ticket.lines.find((line) => line.key === chooser.lineKey) ?? { modifierIds: [], note: '' }}
          editing={chooser.lineKey !== null}
          onDone={finishChoice}
          onClose={() => {
            setChooser(null);
            setSearchWanted((n) => n + 1);
          }}
        />
      ) : null}
      {discounting && discountBase !== null ? (
        <DiscountDialog
          title={discountLine ? `Discount · ${itemsById.get(discountLine.menuItemId)?.name ?? 'item'}` : 'Discount the order'}
          base={discountBase}
          currency={menu.currency}
          current={discounting.kind === 'order' ? ticket.discount : (discountLine?.discount ?? null)}
          approval={menu.checkout.discountApproval}
          pinNeeded={discountApproval.needed}
          managerPin={ticket.managerPin}
          onApply={applyDiscount}
          onRemove={() => applyDiscount(null, ticket.managerPin)}
          onClose={() => setDiscounting(null)}
        />
      ) : null}
      {payingOrder ? (
        <PaymentDialog
          order={payingOrder}
          checkout={menu.checkout}
          onClose={(order) => {
            setPayingOrder(null);
            setSearchWanted((n) => n + 1);
            setLastOrder(order);
            setNotice(
              order.paidAmount > 0
                ? `Order ${order.label} kept open with ${money(balanceDue(order), order.currency)} still due. Take payment from Orders when ready.`
                : `Order ${order.label} kept open, unpaid: it is in Orders as “Open · unpaid”. Take payment there when ready.`,
            );
          }}
          onPaid={(order, change, payment) => {
            setPayingOrder(null);
            setLastOrder(order);
            const stored = payment.status === 'queued_offline' ? ' Card stored offline: it is sent when the connection returns.' : '';
            setNotice(`Paid ${money(order.paidAmount, order.currency)}.${change > 0 ? ` Give ${money(change, order.currency)} change.` : ''}${stored}`);
            setSearchWanted((n) => n + 1);
          }}
        />
      ) : null}
    </div>
  );
});
