// The cashier's use cases on the local store. Every write commits (WAL, synchronous=FULL) before
// its handler returns, so the answer the renderer gets means "durable on this terminal".
import { describePercent, givesMoreAway, refundForUnits } from '../../bridge/checkout/index';
import { businessDayAt } from '../../bridge/business-day';
import { planItemRefund } from '../../bridge/refund-plan';
import { tableKey, tableQueryKeys } from '../../bridge/tables/names';
import { ORDER_LINES_MAX, type CommandPayload, type CommandResult, type Discount, type Location, type MenuItem, type Order } from '../../bridge/contract';
import type { ShiftSummary } from '../../bridge/staff/contract';
import { indexMenu, searchMenu } from '../../bridge/menu-search';
import { formatMoney, MAX_AMOUNT, MAX_TILL_CASH } from '../../bridge/money';
import { can } from '../../bridge/staff/roles';
import type { Clock } from '../../common/clock';
import type { CategoryDoc, MenuItemDoc, ModifierDoc, OrderDoc, OrderLineDoc, PaymentDoc, PaymentExtras, PricingDoc, ServiceDoc, Store } from '../../store/index';
import {
  checkoutRefusal,
  effectivePricing,
  givenDiscounts,
  newDiscounts,
  priceLines,
  priceOrder,
  pricingDoc,
  reviewDraft,
  wireExtras,
  type EffectivePricing,
  type GivenDiscount,
} from './checkout';
import { CoreError } from './errors';
import { gratuityDoc, gratuityDueWith } from './gratuity';
import type { EventHub } from './events';
import type { PrintLink } from './print-link';
import type { TerminalSettings } from './settings';
import type { SyncLink } from './sync-link';
import { StaffDesk, type Act } from './staff/desk';
import type { ShiftDesk } from './staff/shifts';
import type { AttributionKind } from '../../store/index';
import { categoryView, locationLocale, locationView, menuItemView, orderLabel, orderView, withConfiguredLocale, type OrderContext } from './views';

const FALLBACK_CURRENCY = 'usd';

/** Discounts above the approval limits (why, in the cashier's words), and who approved them. */
interface DiscountApproval {
  approvedBy: string;
  discounts: string[];
}

interface MenuCache {
  categories: CategoryDoc[];
  modifiers: Map<string, ModifierDoc>;
  items: MenuItemDoc[];
  views: MenuItem[];
}

/** Offline: the queued intents to mark a new card payment among (null online), and who approved going over the limits. */
type OfflineCardCheck = { exposure: { stillQueuedIds: string[] } | null; approvedBy: string | null };

export class Cashier {
  #menu: MenuCache | null = null;

  constructor(
    private readonly store: Store,
    private readonly settings: TerminalSettings,
    private readonly sync: SyncLink,
    private readonly events: EventHub,
    private readonly clock: Clock,
    private readonly printing: PrintLink,
    private readonly staff: StaffDesk,
    private readonly shifts: ShiftDesk,
  ) {}

  /** The business day it is now where the location is (it turns at 04:00). */
  today(): string {
    return businessDayAt(this.clock.now(), this.location()?.timezone ?? '').day;
  }

  /** Records who did it, in which shift, on which business day (the Z report and the shift read it). */
  #attribute(kind: AttributionKind, id: string, act: Act, shiftId: string | null): void {
    this.store.shifts.attribute({ entity_kind: kind, entity_id: id, staff_id: act.by.id, shift_id: shiftId, business_day: this.today(), at: this.clock.now() });
  }

  /**
   * Changing or charging an order someone else here owns needs 'order.adopt', and makes it yours.
   * Orders from elsewhere (the cloud, another till) belong to no one: anyone works them.
   */
  #requireOwnOrder(order: OrderDoc, act: Act): () => void {
    const owner = this.store.shifts.attributionsOf('order', [order.id]).get(order.id);
    if (!owner || owner.staff_id === act.by.id) return () => undefined;
    const approvedBy = this.#approveOthersOrders([order], act);
    // Written with the change it is for, inside its transaction: a refused change adopts nothing.
    return () => {
      this.store.shifts.attribute({ ...owner, staff_id: act.by.id });
      this.store.cashier.recordAudit(act.by.id, 'order.adopt', { from: owner.staff_id, ...StaffDesk.approval(approvedBy) }, { kind: 'order', id: order.id });
    };
  }

  /**
   * Working orders someone else here owns needs 'order.adopt' (one approval for them all): the
   * manager who approved, or null when they are the caller's or no one's (orders from elsewhere).
   */
  #approveOthersOrders(orders: readonly OrderDoc[], act: Act): string | null {
    const owners = this.store.shifts.attributionsOf('order', orders.map((o) => o.id));
    return [...owners.values()].some((owner) => owner.staff_id !== act.by.id) ? this.staff.require(act, 'order.adopt') : null;
  }

  #tillLetter(): string {
    return this.settings.effective().checkout.tillLetter;
  }

  /** Queues what a write prints in the write's own transaction: a crash after it still prints, once. */
  #print(jobs: Parameters<Store['printQueue']['enqueue']>[0]): void {
    if (jobs.length > 0) this.store.printQueue.enqueue(jobs);
  }

  // ---- location and currency ----

  location(): Location | null {
    const wanted = this.settings.effective().locationId;
    const doc = wanted ? this.store.cashier.getLocation(wanted) : this.store.cashier.listLocations()[0];
    return doc ? withConfiguredLocale(locationView(doc), this.settings.effective().locale) : null;
  }

  currency(): string {
    return this.location()?.currency ?? FALLBACK_CURRENCY;
  }

  #requireLocation(): Location {
    const location = this.location();
    if (!location) {
      throw new CoreError('unavailable', 'This terminal does not know its location yet. Connect it in Settings and wait for the first sync, then try again.');
    }
    return location;
  }

  // ---- menu ----

  /** Drops the cached menu: after a local menu write or a pull that may have changed it. */
  menuChanged(): void {
    this.#menu = null;
    this.events.emit('menu.changed', {});
  }

  #menuCache(): MenuCache {
    if (!this.#menu) {
      const location = this.location();
      const { categories, modifiers, items } = this.store.cashier.listMenu(location?.id);
      const byId = new Map(modifiers.map((m) => [m.id, m]));
      this.#menu = { categories, modifiers: byId, items, views: items.map((item) => menuItemView(item, byId)) };
    }
    return this.#menu;
  }

  menuSnapshot(): CommandResult<'menu.snapshot'> {
    const menu = this.#menuCache();
    const { source: _source, ...pricing } = this.pricing();
    return { currency: this.currency(), pricing, checkout: this.settings.effective().checkout, categories: menu.categories.map(categoryView), items: menu.views };
  }

  /** The tax rules in force: the location's where its record has rates, else this terminal's. */
  pricing(): EffectivePricing {
    const wanted = this.settings.effective().locationId;
    const location = wanted ? this.store.cashier.getLocation(wanted) : this.store.cashier.listLocations()[0];
    return effectivePricing(location, this.settings.effective().taxRules);
  }

  menuSearch({ query, categoryId }: CommandPayload<'menu.search'>): MenuItem[] {
    return searchMenu(indexMenu(this.#menuCache().views), query, categoryId ?? null);
  }

  /** The category an item is sorted under, from the cached menu: kitchen tickets are routed by it. */
  categoryOf(menuItemId: string): { id: string; name: string } | null {
    const menu = this.#menuCache();
    const categoryId = menu.items.find((item) => item.id === menuItemId)?.category_id;
    const category = categoryId ? menu.categories.find((c) => c.id === categoryId) : undefined;
    return category ? { id: category.id, name: category.name } : null;
  }

  #requireCategory(categoryId: string): void {
    if (!this.#menuCache().categories.some((c) => c.id === categoryId)) {
      throw new CoreError('not_found', 'That category is not on this terminal. Pick one from the list.');
    }
  }

  #menuItemResult(doc: MenuItemDoc): MenuItem {
    this.menuChanged();
    this.sync.notifyLocalWrite();
    return menuItemView(doc, this.#menuCache().modifiers);
  }

  /** A scan must name one item: refuses a code another item has, next to the form's field (`path`). */
  #requireFreeBarcode(barcode: string | null | undefined, itemId: string | null, path: string): void {
    if (barcode == null) return;
    const holder = this.store.cashier.menuItemWithBarcode(barcode);
    if (!holder || holder.id === itemId) return;
    const message = `${holder.name} already has barcode / PLU ${barcode}. Give this item another code, or clear it on ${holder.name} first.`;
    throw new CoreError('conflict', message, [{ path, message }]);
  }

  createMenuItem({ managerPin: _pin, ...fields }: CommandPayload<'menu.createItem'>, act: Act): MenuItem {
    this.staff.require(act, 'menu.edit');
    this.#requireCategory(fields.categoryId);
    this.#requireFreeBarcode(fields.barcode, null, 'barcode');
    const location = this.#requireLocation();
    const doc = this.store.cashier.createMenuItem(
      {
        locationId: location.id,
        categoryId: fields.categoryId,
        name: fields.name,
        description: fields.description,
        price: fields.price,
        currency: location.currency,
        available: fields.available,
        barcode: fields.barcode ?? null,
      },
      { actor: act.by.id },
    );
    return this.#menuItemResult(doc);
  }

  updateMenuItem({ id, changes }: CommandPayload<'menu.updateItem'>, act: Act): MenuItem {
    this.staff.require(act, 'menu.edit');
    if (changes.categoryId !== undefined) this.#requireCategory(changes.categoryId);
    this.#requireMenuItem(id);
    this.#requireFreeBarcode(changes.barcode, id, 'changes.barcode');
    return this.#menuItemResult(this.store.cashier.updateMenuItem(id, changes, { actor: act.by.id }));
  }

  deleteMenuItem({ id }: CommandPayload<'menu.deleteItem'>, act: Act): { ok: true } {
    this.staff.require(act, 'menu.edit');
    this.#requireMenuItem(id);
    this.store.cashier.deleteMenuItem(id, { actor: act.by.id });
    this.menuChanged();
    this.sync.notifyLocalWrite();
    return { ok: true };
  }

  /** "86 it": no PIN, the kitchen calls it out and any cashier marks it. */
  setAvailable({ id, available }: CommandPayload<'menu.setAvailable'>, act: Act): MenuItem {
    this.#requireMenuItem(id);
    return this.#menuItemResult(this.store.cashier.setAvailable(id, available, { actor: act.by.id }));
  }

  #requireMenuItem(id: string): MenuItemDoc {
    const item = this.store.cashier.getMenuItem(id);
    if (!item) throw new CoreError('not_found', 'That item is no longer on the menu. The menu has been refreshed.');
    return item;
  }

  // ---- orders ----

  #orderContext(orderIds: readonly string[]): OrderContext {
    const payments = this.store.cashier.paymentsOfOrders(orderIds);
    // Only the entities these views show: a lookup per entity, not a scan of the whole outbox.
    const shown = [
      ...orderIds.map((id) => ({ kind: 'order' as const, id })),
      ...payments.intents.map((intent) => ({ kind: 'payment_intent' as const, id: intent.id })),
      ...payments.refunds.map((refund) => ({ kind: 'refund' as const, id: refund.id })),
    ];
    return {
      ...payments,
      outbox: this.store.outbox.syncStatesOf(shown),
      offlineIntentIds: new Set(this.settings.effective().offlineIntentIds),
      staff: this.#whoDid(orderIds, payments),
      cloudStatuses: this.store.server.cloudOrderStatusesOf(orderIds),
      links: this.#linkViews(orderIds),
    };
  }

  /** The merges and reopenings these orders are part of, as each shows them. */
  #linkViews(orderIds: readonly string[]): OrderContext['links'] {
    const links = this.store.cashier.linksOf(orderIds);
    const views = { mergedInto: new Map(), reopened: new Map(), reopenOf: new Map() } satisfies OrderContext['links'];
    if (links.length === 0) return views;
    const ref = (id: string) => {
      const doc = this.store.cashier.getOrder(id);
      return { id, label: doc ? orderLabel(doc) : `#${id.slice(-4).toUpperCase()}` };
    };
    const names = this.staff.names(links.flatMap((l) => [l.staff_id, l.approved_by ?? ''].filter((id) => id !== '')));
    const who = (id: string | null) => (id === null ? null : { id, name: names.get(id) ?? 'Unknown' });
    for (const link of links) {
      if (link.kind === 'merged_into') {
        if (link.other_id !== null) views.mergedInto.set(link.order_id, ref(link.other_id));
      } else {
        views.reopened.set(link.order_id, { linked: link.other_id === null ? null : ref(link.other_id), reason: link.reason ?? '', by: who(link.staff_id), approvedBy: who(link.approved_by), at: new Date(link.at).toISOString() });
        if (link.other_id !== null) views.reopenOf.set(link.other_id, ref(link.order_id));
      }
    }
    return views;
  }

  /** Who placed each order, took each payment and gave each refund (none for records from elsewhere). */
  #whoDid(orderIds: readonly string[], payments: ReturnType<Store['cashier']['paymentsOfOrders']>): OrderContext['staff'] {
    const shifts = this.store.shifts;
    const orders = shifts.attributionsOf('order', orderIds);
    const paid = shifts.attributionsOf('payment', [...payments.intents.map((i) => i.id), ...payments.payments.filter((p) => p.payment_intent_id === null).map((p) => p.id)]);
    const refunds = shifts.attributionsOf('refund', payments.refunds.map((r) => r.id));
    const names = this.staff.names([...orders.values(), ...paid.values(), ...refunds.values()].map((a) => a.staff_id));
    const refs = (rows: Map<string, { staff_id: string }>) => new Map([...rows].map(([id, a]) => [id, { id: a.staff_id, name: names.get(a.staff_id) ?? 'Unknown' }]));
    return { orders: refs(orders), payments: refs(paid), refunds: refs(refunds) };
  }

  /**
   * The views of orders read together; an order whose record cannot be shown (damaged) is left
   * out and named to `unreadable`: one bad record must not stop a list or the day's report.
   */
  #readableViews(docs: readonly OrderDoc[], unreadable?: (doc: OrderDoc, problem: string) => void): { doc: OrderDoc; view: Order }[] {
    const ctx = this.#orderContext(docs.map((d) => d.id));
    return docs.flatMap((doc) => {
      try {
        return [{ doc, view: orderView(doc, ctx) }];
      } catch (error) {
        unreadable?.(doc, error instanceof Error ? error.message : String(error));
        return [];
      }
    });
  }

  /** Orders with their views, for the end-of-day report; those that cannot be read are told to `unreadable`. */
  orderViews(ids: readonly string[], unreadable?: (doc: OrderDoc, problem: string) => void): Map<string, { doc: OrderDoc; view: Order }> {
    const docs = ids.map((id) => this.store.cashier.getOrder(id)).filter((d): d is OrderDoc => d !== undefined);
    return new Map(this.#readableViews(docs, unreadable).map((read) => [read.doc.id, read]));
  }

  #view(doc: OrderDoc): Order {
    return orderView(doc, this.#orderContext([doc.id]));
  }

  #requireOrder(id: string): OrderDoc {
    const order = this.store.cashier.getOrder(id);
    if (!order) throw new CoreError('not_found', 'That order is not on this terminal. Refresh the order list.');
    return order;
  }

  /**
   * Ticket lines → store lines, with names, prices and tax classes frozen as they are now. A line
   * that leaves out its seat or course keeps the one it had in `previous` (the order as it stood:
   * the first unused line of the same item and modifiers), so a screen that does not know seats
   * never clears them.
   */
  #lines(input: CommandPayload<'orders.place'>['lines'], previous: readonly OrderLineDoc[] = []): OrderLineDoc[] {
    const menu = this.#menuCache();
    const courses = new Set(this.store.floor.courses().map((c) => c.id));
    const unused = [...previous];
    return input.map((line, index) => {
      const item = this.store.cashier.getMenuItem(line.menuItemId);
      if (!item) throw new CoreError('not_found', 'An item on the ticket is no longer on the menu. Remove it and add it again.');
      if (!item.available) throw new CoreError('conflict', `${item.name} is sold out (86'd). Remove it from the ticket or offer something else.`);
      const modifiers = line.modifierIds.map((modifierId) => {
        const modifier = menu.modifiers.get(modifierId);
        if (!modifier || !item.modifier_ids.includes(modifierId)) {
          throw new CoreError('invalid_command', `A modifier chosen for ${item.name} does not belong to it. Remove the line and add it again.`);
        }
        return { modifier_id: modifier.id, name: modifier.name, price: modifier.price };
      });
      this.#requireGroupChoices(item, line.modifierIds, index);
      if (line.course != null && !courses.has(line.course)) {
        const message = `${item.name}: that course is no longer on the list. Choose another course.`;
        throw new CoreError('invalid_command', message, [{ path: `lines.${index}.course`, message }]);
      }
      const sameThing = JSON.stringify([item.id, [...line.modifierIds].sort()]);
      const at = line.seat === undefined || line.course === undefined ? unused.findIndex((old) => JSON.stringify([old.menu_item_id, old.modifiers.map((m) => m.modifier_id).sort()]) === sameThing) : -1;
      const was = at < 0 ? undefined : unused.splice(at, 1)[0];
      return {
        menu_item_id: item.id,
        name: item.name,
        quantity: line.quantity,
        unit_price: item.price,
        modifiers,
        note: line.note,
        discount: line.discount,
        tax_class: item.tax_class ?? 'standard',
        seat: line.seat === undefined ? (was?.seat ?? null) : line.seat,
        course: line.course === undefined ? (was?.course ?? null) : line.course,
      };
    });
  }

  /** Required choices made (a size), limits kept (up to 3 extras): what the kitchen needs to make it. */
  #requireGroupChoices(item: MenuItemDoc, chosen: readonly string[], index: number): void {
    for (const group of item.modifier_groups) {
      const count = chosen.filter((id) => group.modifier_ids.includes(id)).length;
      const rule = group.max === group.min ? `exactly ${group.min}` : group.max === null ? `at least ${group.min}` : count < group.min ? `at least ${group.min}` : `at most ${group.max}`;
      if (count < group.min || (group.max !== null && count > group.max)) {
        const message = `${item.name}: choose ${rule} ${group.name.toLowerCase()} (${count} chosen).`;
        throw new CoreError('invalid_command', message, [{ path: `lines.${index}.modifierIds`, message }]);
      }
    }
  }

  /**
   * Prices lines with the rules in force and reviews what their discounts give away: a share of a
   * line or a total above the approval limits, or a comp, needs the manager (unless `before`, the
   * order as it stood, already gave as much). Returns what the order stores, what the cloud is
   * told, and the discounts to audit.
   */
  #priceDraft(lines: OrderLineDoc[], discount: Discount | null, service: ServiceDoc | null, act: Act, before: OrderDoc | null = null) {
    const { source: _source, ...rules } = this.pricing();
    let breakdown;
    try {
      breakdown = priceLines(lines, discount, rules, this.currency());
    } catch (error) {
      checkoutRefusal(error);
    }
    if (breakdown.subtotal > MAX_AMOUNT || breakdown.total > MAX_AMOUNT) {
      // What is paid toward an order and given back must read on every screen and in the report.
      const message = `This order would come to ${formatMoney(Math.max(breakdown.subtotal, breakdown.total), this.currency())}: more than one order can come to on this till (at most ${formatMoney(MAX_AMOUNT, this.currency())}). Ring it up as separate orders.`;
      throw new CoreError('invalid_command', message, [{ path: 'lines', message }]);
    }
    const limits = this.settings.effective().checkout.discountApproval;
    const review = reviewDraft(lines, breakdown, limits, this.currency());
    const was = before?.pricing ? priceOrder(before).breakdown : null;
    const wasReview = before && was ? reviewDraft(before.lines, was, limits, this.currency()) : null;
    const approvedBy = givesMoreAway(wasReview, review) ? this.staff.require(act, 'discount.above_limit') : null;
    const given = givenDiscounts(lines, discount, breakdown, review);
    return {
      breakdown,
      pricing: pricingDoc(rules),
      wire: wireExtras({ lines, service, discount }, breakdown),
      approval: approvedBy ? ({ approvedBy, discounts: review.reasons } satisfies DiscountApproval) : null,
      given: before && was && wasReview ? newDiscounts(givenDiscounts(before.lines, before.discount, was, wasReview), given) : given,
    };
  }

  /** One audit entry per discount and comp given: who gave it, and who approved it, if anyone. */
  #auditDiscounts(orderId: string, given: readonly GivenDiscount[], act: Act, approvedBy: string | null): void {
    for (const { comp, ...discount } of given) {
      this.store.cashier.recordAudit(act.by.id, comp ? 'comp.given' : 'discount.given', { ...discount, ...StaffDesk.approval(approvedBy) }, { kind: 'order', id: orderId });
    }
  }

  #ordersChanged(ids: string[]): void {
    this.events.emit('orders.changed', { ids });
    this.sync.notifyLocalWrite();
  }

  placeOrder(draft: CommandPayload<'orders.place'>, act: Act): Order {
    const location = this.#requireLocation();
    const lines = this.#lines(draft.lines);
    const held = this.#heldAtSend(draft.heldCourses);
    const customer = draft.customer.name === '' && draft.customer.phone === '' ? null : draft.customer;
    const service = { type: draft.service.type, table: draft.service.table, guests: draft.service.guests };
    const priced = this.#priceDraft(lines, draft.discount, service, act);
    const doc = this.store.transaction(() => this.#createOrder(location, { lines, held, customer, notes: draft.notes, service, discount: draft.discount }, priced, act));
    this.#ordersChanged([doc.id]);
    this.printing.notify();
    return this.#view(doc);
  }

  /**
   * A new order as placed: numbered on the business day, priced, its gratuity rule frozen, whose it
   * is (`server`, else the caller), its discounts audited, its kitchen tickets queued. Call inside
   * the write's transaction. `metadata`: what the cloud's record keeps beside it, where it keeps any.
   */
  #createOrder(
    location: Location,
    order: { lines: OrderLineDoc[]; held: OrderDoc['courses']; customer: OrderDoc['customer']; notes: string; service: ServiceDoc | null; discount: Discount | null },
    priced: { pricing: PricingDoc; breakdown: { total: number }; wire: Record<string, unknown>; approval: DiscountApproval | null; given: GivenDiscount[] },
    act: Act,
    extra: { server?: string; metadata?: Record<string, string> } = {},
  ): OrderDoc {
    const day = businessDayAt(this.clock.now(), location.timezone);
    const created = this.store.cashier.createOrder(
      {
        locationId: location.id,
        currency: location.currency,
        lines: order.lines,
        customer: order.customer,
        notes: order.notes,
        numbering: { tillLetter: this.settings.effective().checkout.tillLetter, businessDay: day.day, dayStartedAt: day.startedAt },
        service: order.service,
        pricing: priced.pricing,
        discount: order.discount,
        checkTotal: priced.breakdown.total,
        courses: order.held,
        // Frozen as the tax rules are: a change in Settings never moves a check already open.
        gratuity: gratuityDoc(this.settings.effective().checkout.autoGratuity),
        wire: extra.metadata ? { ...priced.wire, metadata: extra.metadata } : priced.wire,
      },
      { actor: act.by.id },
    );
    const server = extra.server ?? act.by.id;
    const shiftId = server === act.by.id ? (this.shifts.openShiftOf(act.by)?.id ?? null) : null;
    this.store.shifts.attribute({ entity_kind: 'order', entity_id: created.id, staff_id: server, shift_id: shiftId, business_day: this.today(), at: this.clock.now() });
    if (priced.approval) this.store.cashier.recordAudit(act.by.id, 'discount.approved', priced.approval, { kind: 'order', id: created.id });
    this.#auditDiscounts(created.id, priced.given, act, priced.approval?.approvedBy ?? null);
    for (const { course } of order.held ?? []) this.store.cashier.recordAudit(act.by.id, 'order.course.hold', { course, name: this.#requireCourse(course, 'heldCourses').name }, { kind: 'order', id: created.id });
    this.#print(this.printing.forPlacedOrder(created, this.#tillLetter(), location.timezone, location.locale));
    return created;
  }

  /**
   * Reopens a completed check (docs/tables.md, "Reopening a closed check"): a manager's call
   * ('orders.reopen') with a reason, audited. The check stays the sale it was (/v1 changes only open
   * orders); the reopening is recorded on the till, and what is added goes on a new linked check at
   * its table, for its server, opened with `lines` (now, or by a later reopen of the same check) and
   * paid as usual; what is taken off is refunded by item on the original. One reopening per check:
   * a repeat answers it and makes no second one.
   */
  reopenOrder({ id, reason, lines: additions }: CommandPayload<'orders.reopen'>, act: Act): Order {
    const original = this.#requireOrder(id);
    const label = orderLabel(original);
    const reopening = this.store.cashier.linksOf([id]).find((link) => link.kind === 'reopened_as' && link.order_id === id);
    if (reopening && additions.length === 0) return this.#view(original);
    if (reopening?.other_id) {
      const linked = this.store.cashier.getOrder(reopening.other_id);
      throw new CoreError('conflict', `${label} was reopened already: what is added goes on its check ${linked ? orderLabel(linked) : ''}. Add to that check.`);
    }
    if (!reopening) this.#requireReopenable(original);
    const approvedBy = this.staff.require(act, 'orders.reopen');
    const location = this.#requireLocation();
    const service = original.service;
    const lines = additions.length > 0 ? this.#lines(additions) : null;
    const priced = lines ? this.#priceDraft(lines, null, service, act) : null;
    const server = this.store.shifts.attributionsOf('order', [id]).get(id)?.staff_id;
    // The cloud's id of the original where it has it (it has, once the sale was sent).
    const reopenOf = this.store.serverIdFor('order', id) ?? id;
    const linked = this.store.transaction(() => {
      if (!reopening) {
        this.store.cashier.linkOrders({ order_id: id, kind: 'reopened_as', other_id: null, staff_id: act.by.id, approved_by: approvedBy, reason, business_day: this.today(), at: this.clock.now() });
        this.store.cashier.recordAudit(act.by.id, 'order.reopen', { label, reason, ...StaffDesk.approval(approvedBy) }, { kind: 'order', id });
      }
      if (!lines || !priced) return null;
      const created = this.#createOrder(location, { lines, held: null, customer: original.customer, notes: '', service, discount: null }, priced, act, { server, metadata: { reopen_of: reopenOf } });
      this.store.cashier.setReopenedAs(id, created.id);
      this.store.cashier.recordAudit(act.by.id, 'order.reopen.linked', { label, linked: created.id, linkedLabel: orderLabel(created), lines: lines.length, ...StaffDesk.approval(approvedBy) }, { kind: 'order', id });
      return created;
    });
    this.#ordersChanged(linked ? [id, linked.id] : [id]);
    this.printing.notify();
    return this.#view(original);
  }

  /** Only a completed check reopens: sold and paid (a walkout was never paid; an open check changes as usual). */
  #requireReopenable(order: OrderDoc): void {
    if (order.status === 'open') throw new CoreError('conflict', 'This check is still open: change it as usual, no need to reopen it.');
    if (order.status === 'cancelled') throw new CoreError('conflict', 'A cancelled check cannot be reopened. Start a new order instead.');
    if (this.store.shifts.walkoutsOf([order.id]).has(order.id)) throw new CoreError('conflict', 'This check was closed unpaid as a walkout: it cannot be reopened.');
    const placedHere = this.store.shifts.attributionsOf('order', [order.id]).has(order.id);
    const view = this.#view(order);
    if (placedHere && view.paidAmount < view.total) throw new CoreError('conflict', 'This check was never paid in full, so it cannot be reopened.');
  }

  listOrders(filter: CommandPayload<'orders.list'>): Order[] {
    const search = filter.search?.trim().toLowerCase() ?? '';
    const docs = this.store.cashier.listOrders({
      status: filter.status,
      createdFrom: filter.createdAfter ? Date.parse(filter.createdAfter) : undefined,
      createdTo: filter.createdBefore ? Date.parse(filter.createdBefore) : undefined,
      // A text filter runs here (the store filters by fields), so read wider before cutting.
      limit: search ? 500 : filter.limit,
    });
    const matching = search ? this.#searchOrders(search, docs, filter) : docs;
    // Store mode: the cloud's copy of another till's open order is listed under "At other tills", not here.
    const elsewhere = this.store.replicas.ownedElsewhere(matching.map((doc) => doc.id));
    const own = elsewhere.size === 0 ? matching : matching.filter((doc) => !elsewhere.has(doc.id));
    return this.#readableViews(own).map((read) => read.view);
  }

  /**
   * A customer or order-number search: anywhere in the name or phone, or the start of the number
   * ("a17"), among the newest orders (read above), and by the start of the name, phone or number
   * through the store's indexes over the whole history, so an
   * order from last year is found too; the other filters apply to both.
   */
  #searchOrders(search: string, recent: OrderDoc[], filter: CommandPayload<'orders.list'>): OrderDoc[] {
    const from = filter.createdAfter ? Date.parse(filter.createdAfter) : Number.NEGATIVE_INFINITY;
    const to = filter.createdBefore ? Date.parse(filter.createdBefore) : Number.POSITIVE_INFINITY;
    // A table is found by its whole name ("12", "t12", "patio 4"): "1" is table 1, not 12.
    const tables = tableQueryKeys(search);
    const atTable = (d: OrderDoc) => d.service?.table != null && tables.includes(tableKey(d.service.table));
    // A server by the start of any of their names ("carl", "cash" for Carl Cashier), among the recent orders.
    const servers = new Set(this.store.staff.list().filter((m) => m.name.toLowerCase().split(/\s+/).some((word) => word.startsWith(search))).map((m) => m.id));
    const owners = servers.size === 0 ? new Map<string, { staff_id: string }>() : this.store.shifts.attributionsOf('order', recent.map((d) => d.id));
    const byServer = (d: OrderDoc) => servers.has(owners.get(d.id)?.staff_id ?? '');
    const matches = (d: OrderDoc) =>
      (d.customer?.name ?? '').toLowerCase().includes(search) ||
      (d.customer?.phone ?? '').includes(search) ||
      (d.number ?? '').toLowerCase().startsWith(search) ||
      atTable(d) ||
      byServer(d);
    const older = this.store.cashier
      .searchOrders(search, filter.limit)
      .filter((d) => (filter.status === undefined || d.status === filter.status) && d.created_at >= from && d.created_at < to);
    const byId = new Map<string, OrderDoc>();
    for (const doc of [...recent.filter(matches), ...older]) if (!byId.has(doc.id)) byId.set(doc.id, doc);
    // The order whose number or table is exactly what was typed ("a1" is A1, not A17) comes first.
    const exact = (d: OrderDoc) => ((d.number ?? '').toLowerCase() === search || atTable(d) ? 0 : 1);
    return [...byId.values()].sort((a, b) => exact(a) - exact(b) || b.created_at - a.created_at).slice(0, filter.limit);
  }

  getOrder({ id }: CommandPayload<'orders.get'>): Order {
    return this.#view(this.#requireOrder(id));
  }

  #requireOpen(order: OrderDoc, action: string): void {
    if (order.status !== 'open') {
      throw new CoreError('conflict', `This order is already ${order.status}, so it cannot be ${action}. Start a new order instead.`);
    }
    this.#requireOwnedHere(order);
  }

  /**
   * Store mode: an open order another till owns (its copy here came from the cloud) is changed only
   * through that till (storeMode.changeOrder), so one till writes it and the cloud gets each change once.
   */
  #requireOwnedHere(order: OrderDoc): void {
    const elsewhere = this.store.replicas.ownedElsewhere([order.id]);
    if (elsewhere.size === 0) return;
    const owner = elsewhere.get(order.id) ?? 'another till';
    throw new CoreError('conflict', `This order belongs to ${owner}: change it from Orders → At other tills, and ${owner} makes the change.`);
  }

  updateOrder({ id, lines, customer, notes, discount, service, split }: CommandPayload<'orders.update'>, act: Act): Order {
    const order = this.#requireOrder(id);
    this.#requireOpen(order, 'changed');
    const newLinesDraft = lines ? this.#lines(lines, order.lines) : null;
    const voidsUnits = newLinesDraft !== null && takesUnitsOff(order.lines, newLinesDraft);
    const voidApprovedBy = voidsUnits ? this.staff.require(act, 'order.void') : null;
    const adopt = this.#requireOwnOrder(order, act);
    const change: Parameters<Store['cashier']['updateOrder']>[1] = {};
    const current = this.#view(order);
    const newLines = newLinesDraft ?? order.lines;
    const newDiscount = discount !== undefined ? discount : order.discount;
    const newService = service ? { type: service.type, table: service.table, guests: service.guests } : order.service;
    const { dropsGratuity, gratuityApprovedBy } = this.#guestsChange(current, newService, act);
    let approval: DiscountApproval | null = null;
    let given: GivenDiscount[] = [];
    if (lines || discount !== undefined || service) {
      // Repriced with today's rules, as a new ticket would be; the cloud hears of the new figures.
      const priced = this.#priceDraft(newLines, newDiscount, newService, act, order);
      approval = priced.approval;
      given = priced.given;
      if (priced.breakdown.total < current.paidAmount) {
        throw new CoreError('conflict', `The new total would be below the ${formatMoney(current.paidAmount, order.currency)} already paid. Refund the difference first.`);
      }
      if (lines) change.lines = newLines;
      if (discount !== undefined) change.discount = discount;
      if (service) change.service = newService;
      change.pricing = priced.pricing;
      change.checkTotal = priced.breakdown.total;
      change.wire = priced.wire;
    }
    if (split !== undefined) change.split = this.#requireSplit(split, newLines.length);
    if (customer) change.customer = customer.name === '' && customer.phone === '' ? null : customer;
    if (notes !== undefined) change.notes = notes;
    const doc = this.store.transaction(() => {
      adopt();
      const updated = this.store.cashier.updateOrder(id, change, { actor: act.by.id });
      if (approval) this.store.cashier.recordAudit(act.by.id, 'discount.approved', approval, { kind: 'order', id });
      this.#auditDiscounts(id, given, act, approval?.approvedBy ?? null);
      if (voidsUnits) this.store.cashier.recordAudit(act.by.id, 'order.void_items', StaffDesk.approval(voidApprovedBy), { kind: 'order', id });
      if (dropsGratuity) this.#auditGuestsChange(id, newService, gratuityApprovedBy, act);
      if (lines) this.#print(this.printing.forChangedOrder(order, updated, String(updated.updated_at), this.#tillLetter(), this.locationDetails().timezone, this.locationDetails().locale));
      return updated;
    });
    this.#ordersChanged([id]);
    this.printing.notify();
    return this.#view(doc);
  }

  /**
   * A change of an open check's guests: the party's gratuity comes and goes with them (the view
   * applies the rule frozen on the check); fewer guests than the threshold takes it off, a
   * manager's call as removing it is.
   */
  #guestsChange(current: Order, newService: ServiceDoc | null, act: Act): { dropsGratuity: boolean; gratuityApprovedBy: string | null } {
    const dropsGratuity = current.gratuity !== null && current.gratuity.removed === null && (newService?.guests ?? 0) < current.gratuity.minGuests;
    return { dropsGratuity, gratuityApprovedBy: dropsGratuity ? this.staff.require(act, 'gratuity.remove') : null };
  }

  #auditGuestsChange(id: string, newService: ServiceDoc | null, approvedBy: string | null, act: Act): void {
    this.store.cashier.recordAudit(act.by.id, 'order.gratuity.below_threshold', { guests: newService?.guests ?? null, ...StaffDesk.approval(approvedBy) }, { kind: 'order', id });
  }

  /**
   * Merges check `from` into check `into` (docs/tables.md, "Merging checks"): from's lines move onto
   * into as they are (seat, course, modifiers, note, line discount), its guests add to into's (the
   * gratuity follows them as on any change of guests), and from is cancelled as merged: audited as
   * part of the merge (`order.merge`), never a void. The kitchen is told only of lines it has not
   * seen; into keeps its table and server. Both changes, their outbox rows and the link, in one
   * transaction. A repeat (from already merged into into) answers into and changes nothing.
   */
  mergeOrders({ into: intoId, from: fromId }: CommandPayload<'orders.merge'>, act: Act): Order {
    if (intoId === fromId) throw new CoreError('invalid_command', 'A check cannot be merged into itself. Choose another check.', [{ path: 'from', message: 'the same check as into' }]);
    const into = this.#requireOrder(intoId);
    const from = this.#requireOrder(fromId);
    const [intoLabel, fromLabel] = [orderLabel(into), orderLabel(from)];
    const done = this.store.cashier.linksOf([from.id]).find((link) => link.kind === 'merged_into' && link.order_id === from.id);
    if (done?.other_id === into.id) return this.#view(into);
    if (done) throw new CoreError('conflict', `${fromLabel} was merged into another check already. Refresh the checks.`);
    this.#requireOpen(into, 'changed');
    this.#requireOpen(from, 'merged');
    if (from.currency !== into.currency) {
      throw new CoreError('invalid_command', `${fromLabel} and ${intoLabel} are in different currencies: they cannot be one check.`, [{ path: 'from', message: 'another currency' }]);
    }
    const fromView = this.#view(from);
    if (fromView.payments.some((p) => p.status !== 'failed')) {
      throw new CoreError('conflict', `${fromLabel} has a payment: refund it or finish ${fromLabel} on its own first. Nothing was merged.`);
    }
    if (from.discount !== null) throw new CoreError('conflict', `Take the discount off check ${fromLabel} first. Nothing was merged.`);
    if (into.discount?.kind === 'percent') {
      throw new CoreError('conflict', `Take the discount off check ${intoLabel} first: its percentage would come off ${fromLabel}'s items too. Nothing was merged.`);
    }
    // A split names a check for each line: the merged lines would have none. Split again after.
    if (into.split !== null) throw new CoreError('conflict', `The bill of ${intoLabel} is split: take the split off, merge, then split it again. Nothing was merged.`);
    const lines = [...into.lines, ...from.lines];
    if (lines.length > ORDER_LINES_MAX) {
      throw new CoreError('invalid_command', `Together the two checks have ${lines.length} lines: one check has at most ${ORDER_LINES_MAX}. Nothing was merged.`, [{ path: 'from', message: 'too many lines together' }]);
    }
    const courses = this.#mergedCourses(into, from);
    const guests = into.service?.guests == null && from.service?.guests == null ? null : (into.service?.guests ?? 0) + (from.service?.guests ?? 0);
    const service = into.service === null && guests === null ? null : { type: into.service?.type ?? null, table: into.service?.table ?? null, guests };
    const intoView = this.#view(into);
    const { dropsGratuity, gratuityApprovedBy } = this.#guestsChange(intoView, service, act);
    const approvedBy = this.#approveOthersOrders([into, from], act);
    // Judged against both checks as they stand: from's discounts were given (and approved) on from.
    const priced = this.#priceDraft(lines, into.discount, service, act, { ...into, lines });
    const reason = `Merged into ${intoLabel}`;
    const where = this.locationDetails();
    const doc = this.store.transaction(() => {
      const updated = this.store.cashier.updateOrder(into.id, { lines, service, courses, pricing: priced.pricing, checkTotal: priced.breakdown.total, wire: priced.wire }, { actor: act.by.id });
      this.store.cashier.cancelOrder(from.id, { actor: act.by.id });
      this.store.cashier.linkOrders({ order_id: from.id, kind: 'merged_into', other_id: into.id, staff_id: act.by.id, approved_by: approvedBy, reason, business_day: this.today(), at: this.clock.now() });
      const table = (doc: OrderDoc) => doc.service?.table ?? null;
      this.store.cashier.recordAudit(
        act.by.id,
        'order.merge',
        { into: { id: into.id, label: intoLabel, table: table(into) }, from: { id: from.id, label: fromLabel, table: table(from), cancelled: reason }, lines: from.lines.length, guests, ...StaffDesk.approval(approvedBy) },
        { kind: 'order', id: into.id },
      );
      if (priced.approval) this.store.cashier.recordAudit(act.by.id, 'discount.approved', priced.approval, { kind: 'order', id: into.id });
      if (dropsGratuity) this.#auditGuestsChange(into.id, service, gratuityApprovedBy, act);
      this.#print(this.printing.forMergedOrder(into, from, updated, this.#tillLetter(), where.timezone, where.locale));
      return updated;
    });
    this.#ordersChanged([into.id, from.id]);
    this.printing.notify();
    return this.#view(doc);
  }

  /**
   * The course states of `into` once `from`'s lines join it. A course held on one check follows to
   * the other's lines of it that the kitchen has not seen; fired on into, from's held lines of it
   * print as an ADD. A course held on one check whose lines already went to the kitchen on the
   * other cannot be both: refused (fire it first), since what the kitchen has cannot be held.
   */
  #mergedCourses(into: OrderDoc, from: OrderDoc): OrderDoc['courses'] {
    const stateOf = (doc: OrderDoc, course: string) => doc.courses?.find((c) => c.course === course);
    const sent = (doc: OrderDoc, course: string) => stateOf(doc, course)?.state !== 'held' && doc.lines.some((line) => line.course === course);
    const courses = [...(into.courses ?? [])];
    for (const course of new Set([...(from.courses ?? []).map((c) => c.course), ...into.lines.map((l) => l.course), ...from.lines.map((l) => l.course)])) {
      if (course === null) continue;
      const [mine, theirs] = [stateOf(into, course), stateOf(from, course)];
      const clash = (mine?.state === 'held' && sent(from, course)) || (mine === undefined && theirs?.state === 'held' && sent(into, course));
      if (clash) {
        const name = this.store.floor.courses().find((c) => c.id === course)?.name ?? 'A course';
        const [held, other] = mine?.state === 'held' ? [into, from] : [from, into];
        throw new CoreError('conflict', `${name} is held on ${orderLabel(held)} but already went to the kitchen on ${orderLabel(other)}: fire it on ${orderLabel(held)} first, then merge.`);
      }
      if (mine === undefined && theirs !== undefined) courses.push(theirs);
    }
    return courses.length === 0 ? null : courses;
  }

  /** The courses a new order holds back from the kitchen, as its document keeps them. */
  #heldAtSend(courseIds: readonly string[]): OrderDoc['courses'] {
    if (courseIds.length === 0) return null;
    const now = this.clock.now();
    return [...new Set(courseIds)].map((id) => ({ course: this.#requireCourse(id, 'heldCourses').id, state: 'held' as const, at: now }));
  }

  #requireCourse(id: string, path: string): { id: string; name: string } {
    const course = this.store.floor.courses().find((c) => c.id === id);
    if (!course) {
      const message = 'That course is no longer on the list. Refresh the register and try again.';
      throw new CoreError('invalid_command', message, [{ path, message }]);
    }
    return course;
  }

  /**
   * Holds a course back from the kitchen: its lines, and those added to it later, print on no
   * kitchen ticket until it is fired. Only before any of its lines went to the kitchen (what the
   * kitchen has cannot be taken back); holding a held course changes nothing.
   */
  holdCourse({ id, course: courseId }: CommandPayload<'orders.holdCourse'>, act: Act): Order {
    const order = this.#requireOrder(id);
    this.#requireOpen(order, 'changed');
    const course = this.#requireCourse(courseId, 'course');
    const state = order.courses?.find((c) => c.course === course.id);
    if (state?.state === 'held') return this.#view(order);
    if (state?.state === 'fired' || order.lines.some((line) => line.course === course.id)) {
      throw new CoreError('conflict', `${course.name} already went to the kitchen on this order, so it cannot be held now.`);
    }
    const adopt = this.#requireOwnOrder(order, act);
    const courses = [...(order.courses ?? []), { course: course.id, state: 'held' as const, at: this.clock.now() }];
    const doc = this.store.transaction(() => {
      adopt();
      const updated = this.store.cashier.updateOrder(id, { courses }, { actor: act.by.id });
      this.store.cashier.recordAudit(act.by.id, 'order.course.hold', { course: course.id, name: course.name }, { kind: 'order', id });
      return updated;
    });
    this.#ordersChanged([id]);
    return this.#view(doc);
  }

  /**
   * Fires a held course: one FIRE ticket with its lines to each kitchen printer they route to, in
   * the transaction that marks it fired. A course fired already prints nothing more (a second press,
   * a repeat after a lost answer), so each course fires once and its ticket's key is stable.
   */
  fireCourse({ id, course: courseId }: CommandPayload<'orders.fireCourse'>, act: Act): Order {
    const order = this.#requireOrder(id);
    const state = order.courses?.find((c) => c.course === courseId);
    if (state?.state === 'fired') return this.#view(order);
    this.#requireOpen(order, 'changed');
    const course = this.#requireCourse(courseId, 'course');
    if (state?.state !== 'held') throw new CoreError('conflict', `${course.name} is not held on this order: its lines went to the kitchen when they were sent.`);
    const adopt = this.#requireOwnOrder(order, act);
    const courses = (order.courses ?? []).map((c) => (c.course === course.id ? { ...c, state: 'fired' as const, at: this.clock.now() } : c));
    const where = this.locationDetails();
    const doc = this.store.transaction(() => {
      adopt();
      const updated = this.store.cashier.updateOrder(id, { courses }, { actor: act.by.id });
      const lines = updated.lines.filter((line) => line.course === course.id).length;
      this.store.cashier.recordAudit(act.by.id, 'order.course.fire', { course: course.id, name: course.name, lines }, { kind: 'order', id });
      this.#print(this.printing.forFiredCourse(updated, course, this.#tillLetter(), where.timezone, where.locale));
      return updated;
    });
    this.#ordersChanged([id]);
    this.printing.notify();
    return this.#view(doc);
  }

  /** A split by items names a check for every line of the order. */
  #requireSplit(split: CommandPayload<'orders.update'>['split'], lineCount: number): NonNullable<OrderDoc['split']> | null {
    if (split === null || split === undefined) return null;
    if (split.kind === 'items' && split.assignment.length !== lineCount) {
      const message = `Put each of the ${lineCount} items on a check (${split.assignment.length} have one).`;
      throw new CoreError('invalid_command', message, [{ path: 'split.assignment', message }]);
    }
    return split;
  }

  /**
   * An order placed here with money due is not completed: the payment comes first. Closing it
   * unpaid is a walkout, a manager's decision with a reason, recorded apart (the Z report lists it,
   * never as a sale). The cloud hears 'fulfilled' either way: /v1 has no walkout (docs/spec-gaps.md).
   * Orders from elsewhere are paid where they came from, which this till may not know.
   */
  fulfilOrder({ id, walkout }: CommandPayload<'orders.fulfil'>, act: Act): Order {
    const order = this.#requireOrder(id);
    this.#requireOpen(order, 'fulfilled');
    const placedHere = this.store.shifts.attributionsOf('order', [id]).has(id);
    const view = this.#view(order);
    const due = placedHere ? view.total - view.paidAmount : 0;
    if (walkout === undefined && due > 0) {
      throw new CoreError('conflict', `${formatMoney(due, order.currency)} is still due on this order: take the payment first. A manager can close it unpaid as a walkout, with a reason.`);
    }
    if (walkout !== undefined && due <= 0) {
      throw new CoreError('conflict', placedHere ? 'Nothing is due on this order: complete it without a walkout.' : 'This order was not placed at this till: it is paid where it came from.');
    }
    const approvedBy = walkout ? this.staff.require(act, 'order.walkout') : null;
    const doc = this.store.transaction(() => {
      const done = this.store.cashier.fulfilOrder(id, { actor: act.by.id });
      if (walkout) {
        this.store.shifts.recordWalkout({ order_id: id, staff_id: act.by.id, approved_by: approvedBy, reason: walkout.reason, unpaid: due, business_day: this.today(), at: this.clock.now() });
        this.store.cashier.recordAudit(act.by.id, 'order.walkout', { reason: walkout.reason, total: view.total, paid: view.paidAmount, unpaid: due, ...StaffDesk.approval(approvedBy) }, { kind: 'order', id });
      }
      return done;
    });
    this.#ordersChanged([id]);
    return this.#view(doc);
  }

  transferOrder({ id, toStaffId }: CommandPayload<'orders.transfer'>, act: Act): Order {
    const order = this.#requireOrder(id);
    this.#requireOpen(order, 'given to someone else');
    const to = this.store.staff.get(toStaffId);
    if (!to?.active) throw new CoreError('invalid_command', 'That person is not on the staff any more. Choose someone else.', [{ path: 'toStaffId', message: 'Not on the staff any more.' }]);
    const owner = this.store.shifts.attributionsOf('order', [id]).get(id);
    if (owner?.staff_id === to.id) return this.#view(order);
    const approvedBy = owner && owner.staff_id !== act.by.id ? this.staff.require(act, 'order.adopt') : null;
    this.store.transaction(() => {
      if (owner) this.store.shifts.attribute({ ...owner, staff_id: to.id });
      else this.store.shifts.attribute({ entity_kind: 'order', entity_id: id, staff_id: to.id, shift_id: null, business_day: this.today(), at: this.clock.now() });
      this.store.cashier.recordAudit(act.by.id, 'order.transfer', { from: owner?.staff_id ?? null, to: to.id, ...StaffDesk.approval(approvedBy) }, { kind: 'order', id });
    });
    this.#ordersChanged([id]);
    return this.#view(this.#requireOrder(id));
  }

  /**
   * Takes a party's gratuity off an open check: a manager's call with a reason, audited. What the
   * payments carried of it before stays theirs (a refund gives it back, as any tip).
   */
  removeGratuity({ id, reason }: CommandPayload<'orders.removeGratuity'>, act: Act): Order {
    const order = this.#requireOrder(id);
    this.#requireOpen(order, 'changed');
    const gratuity = this.#view(order).gratuity;
    if (gratuity === null || order.gratuity === null) throw new CoreError('conflict', 'This check carries no automatic gratuity.');
    if (gratuity.removed !== null) return this.#view(order);
    const approvedBy = this.staff.require(act, 'gratuity.remove');
    // The check names who decided: the manager who approved, or the manager who did it.
    const decider = approvedBy === null ? act.by : (this.store.staff.get(approvedBy) ?? act.by);
    const doc = this.store.transaction(() => {
      const removed = { reason, staff_id: decider.id, staff_name: decider.name, at: this.clock.now(), collected: gratuity.collected };
      const changed = this.store.cashier.updateOrder(id, { gratuity: { ...order.gratuity!, removed } }, { actor: act.by.id });
      this.store.cashier.recordAudit(act.by.id, 'order.gratuity.remove', { reason, name: gratuity.name, charged: gratuity.charged, collected: gratuity.collected, ...StaffDesk.approval(approvedBy) }, { kind: 'order', id });
      return changed;
    });
    this.#ordersChanged([id]);
    return this.#view(doc);
  }

  cancelOrder({ id, reason }: CommandPayload<'orders.cancel'>, act: Act): Order {
    this.#requireOpen(this.#requireOrder(id), 'cancelled');
    const approvedBy = this.staff.require(act, 'order.void');
    const doc = this.store.transaction(() => {
      const cancelled = this.store.cashier.cancelOrder(id, { actor: act.by.id });
      this.#attribute('void', id, act, null);
      this.store.cashier.recordAudit(act.by.id, 'order.void', { reason, ...StaffDesk.approval(approvedBy) }, { kind: 'order', id });
      this.#print(this.printing.forCancelledOrder(cancelled, this.#tillLetter(), this.locationDetails().timezone, this.locationDetails().locale));
      return cancelled;
    });
    this.#ordersChanged([id]);
    this.printing.notify();
    return this.#view(doc);
  }

  // ---- payments and refunds ----

  /**
   * Card money taken offline and not yet confirmed by the cloud (the merchant's exposure), and
   * the offline markers still needed for it: confirmed payments need no marker any more. One
   * lookup of the marked intents in the outbox serves both.
   */
  #offlineExposure(offlineIntentIds: readonly string[]): { stillQueuedIds: string[]; total: number } {
    const outbox = this.store.outbox.syncStatesOf(offlineIntentIds.map((id) => ({ kind: 'payment_intent' as const, id })));
    const stillQueuedIds = offlineIntentIds.filter((id) => outbox.get(`payment_intent:${id}`) === 'unfinished');
    const total = stillQueuedIds.reduce((sum, id) => sum + (this.store.cashier.getPaymentIntent(id)?.amount ?? 0), 0);
    return { stillQueuedIds, total };
  }

  takePayment({ orderId, method, amount, tip, splitPart, tendered }: CommandPayload<'payments.take'>, act: Act): CommandResult<'payments.take'> {
    const order = this.#requireOrder(orderId);
    if (order.status === 'cancelled') throw new CoreError('conflict', 'This order was cancelled. Start a new order to take money.');
    if (order.status === 'open') this.#requireOwnedHere(order);
    // Cash goes into a counted drawer; a card payment is counted in the open shift, if any.
    const shift = method === 'cash' ? this.shifts.requireOpenShift(act.by) : this.shifts.openShiftOf(act.by);
    const before = this.#view(order);
    const due = before.total - before.paidAmount;
    if (amount > due) {
      throw new CoreError('conflict', due <= 0 ? 'This order is already paid.' : `Only ${formatMoney(due, order.currency)} is due on this order.`);
    }
    if (splitPart !== null && !before.split?.parts.some((part) => part.label === splitPart)) {
      throw new CoreError('conflict', `This bill has no part "${splitPart}": its split changed. Open the payment again.`);
    }
    // A large party's gratuity rides on each payment's tip, in proportion to what it pays (gratuity.ts).
    const gratuityPart = gratuityDueWith(before.gratuity, before.total, before.paidAmount, amount);
    if (tip < gratuityPart) {
      const message = `This check carries ${before.gratuity!.name} (${describePercent(before.gratuity!.percentBps)}): this payment's tip is at least ${formatMoney(gratuityPart, order.currency)}. A manager can take the gratuity off.`;
      throw new CoreError('invalid_command', message, [{ path: 'tip', message }]);
    }
    if (tip > gratuityPart && method === 'cash' && !this.settings.effective().checkout.cashTips) {
      const message = 'Tips on cash are not taken on this terminal: put the tip in the tip jar, or turn cash tips on in Settings.';
      throw new CoreError('invalid_command', message, [{ path: 'tip', message }]);
    }
    const charged = amount + tip;
    // The part is kept on the payment: the gratuity can change after it (docs/tables.md), its part cannot.
    const extras = { tip, gratuity: gratuityPart, splitPart };
    if (method === 'cash') {
      if (charged > MAX_TILL_CASH) {
        const message = `${formatMoney(charged, order.currency)} in cash is more than any till holds (at most ${formatMoney(MAX_TILL_CASH, order.currency)}). Take part of it by card, or split the bill. Nothing was recorded.`;
        throw new CoreError('invalid_command', message, [{ path: 'amount', message }]);
      }
      const handed = tendered ?? charged;
      if (handed < charged) throw new CoreError('invalid_command', `The cash handed over is less than ${formatMoney(charged, order.currency)}. Nothing was recorded.`);
      const adopt = this.#requireOwnOrder(order, act);
      const view = this.store.transaction(() => {
        adopt();
        const payment = this.store.cashier.recordCashPayment(orderId, charged, order.currency, { actor: act.by.id }, extras);
        this.#attribute('payment', payment.id, act, shift?.id ?? null);
        const after = this.#view(order);
        this.#print(this.printing.forPayment(after, this.locationDetails(), this.#tillLetter(), { id: payment.id, method: 'cash' }, handed - charged));
        return { after, paymentId: payment.id };
      });
      this.#ordersChanged([orderId]);
      this.printing.notify();
      return { payment: view.after.payments.find((p) => p.id === view.paymentId) as Order['payments'][number], order: view.after, change: handed - charged };
    }

    const offlineCard = this.#offlineCardCheck(charged, order.currency, act);
    const adopt = this.#requireOwnOrder(order, act);
    // Intent, capture and the offline marker commit together: a crash leaves all or nothing.
    const intent = this.store.transaction(() => {
      adopt();
      const created = this.#chargeCard(order, charged, act, extras, offlineCard);
      this.#attribute('payment', created.id, act, shift?.id ?? null);
      this.#print(this.printing.forPayment(this.#view(order), this.locationDetails(), this.#tillLetter(), { id: created.id, method: 'card' }, 0));
      return created;
    });
    this.#ordersChanged([orderId]);
    this.printing.notify();
    const view = this.#view(order);
    return { payment: view.payments.find((p) => p.id === intent.id) as Order['payments'][number], order: view, change: 0 };
  }

  /**
   * Offline, a card payment above the limits for card money stored offline needs a manager. Answers
   * the exposure to mark the new intent in (null online) and who approved going over, if anyone did.
   */
  #offlineCardCheck(charged: number, currency: string, act: Act): OfflineCardCheck {
    if (this.sync.isOnline()) return { exposure: null, approvedBy: null };
    const settings = this.settings.effective();
    const exposure = this.#offlineExposure(settings.offlineIntentIds);
    const limits = settings.offlineLimits;
    // The card is charged the tip too: it is as much at risk as the rest.
    const queued = exposure.total;
    const overSingle = charged > limits.perTransaction;
    const overTotal = queued + charged > limits.total;
    if (!overSingle && !overTotal) return { exposure, approvedBy: null };
    const why = overSingle
      ? `above the ${formatMoney(limits.perTransaction, currency)} limit for one offline card payment`
      : `over the ${formatMoney(limits.total, currency)} limit for card payments stored offline (${formatMoney(queued, currency)} already waiting)`;
    try {
      return { exposure, approvedBy: this.staff.require(act, 'payment.offline_above_limit') };
    } catch (error) {
      if (!(error instanceof CoreError)) throw error;
      throw new CoreError(error.code, `The terminal is offline and this card payment is ${why}. Take cash, or wait for the connection. ${error.message}`, error.issues);
    }
  }

  /** The card's intent created and captured, and marked while offline; call inside the payment's transaction. */
  #chargeCard(order: OrderDoc, charged: number, act: Act, extras: PaymentExtras, { exposure, approvedBy }: OfflineCardCheck) {
    const created = this.store.cashier.createPaymentIntent(order.id, charged, order.currency, { actor: act.by.id }, extras);
    this.store.cashier.capturePaymentIntent(created.id, { actor: act.by.id });
    if (approvedBy) this.store.cashier.recordAudit(act.by.id, 'payment.offline_approved', StaffDesk.approval(approvedBy), { kind: 'payment_intent', id: created.id });
    if (exposure) this.settings.update({ offlineIntentIds: [...exposure.stillQueuedIds, created.id] }, act.by.id);
    return created;
  }

  /**
   * Store mode: a payment another till took toward an order of this till's (storeMode.takePayment
   * there), applied from its forward. It goes on the order under that till's id for it, outside this
   * till's drawers (the cash is in that till's, the card was charged there), with the checks of
   * payments.take that are the order's: what is due, the gratuity, the offline card limits here.
   * Refusals are in words, as the other till shows them ("the order was paid meanwhile.").
   */
  recordPaymentTakenElsewhere(
    { orderId, paymentId, method, amount, tip, splitPart }: { orderId: string; paymentId: string; method: 'cash' | 'card'; amount: number; tip: number; splitPart: string | null },
    act: Act,
  ): void {
    const order = this.#requireOrder(orderId);
    const before = this.#view(order);
    const due = before.total - before.paidAmount;
    if (amount > due) throw new CoreError('conflict', due <= 0 ? 'the order was paid meanwhile.' : `only ${formatMoney(due, order.currency)} is due on it now.`);
    if (splitPart !== null && !before.split?.parts.some((part) => part.label === splitPart && !part.paid)) {
      throw new CoreError('conflict', `the bill has no unpaid part "${splitPart}" now: its split changed or that part was paid meanwhile.`);
    }
    const gratuityPart = gratuityDueWith(before.gratuity, before.total, before.paidAmount, amount);
    if (tip < gratuityPart) throw new CoreError('conflict', `the check carries ${before.gratuity!.name}: this payment's tip is at least ${formatMoney(gratuityPart, order.currency)}.`);
    const charged = amount + tip;
    // The other till does not send the part: this till, the order's, works it out as it checks the tip.
    const extras: PaymentExtras = { tip, gratuity: gratuityPart, splitPart, id: paymentId };
    const offlineCard = method === 'card' ? this.#offlineCardCheck(charged, order.currency, act) : null;
    const adopt = this.#requireOwnOrder(order, act);
    this.store.transaction(() => {
      adopt();
      const recorded = offlineCard
        ? this.#chargeCard(order, charged, act, extras, offlineCard)
        : this.store.cashier.recordCashPayment(orderId, charged, order.currency, { actor: act.by.id }, extras);
      // No shift: the money is in no drawer of this till.
      this.#attribute('payment', recorded.id, act, null);
    });
    this.#ordersChanged([orderId]);
  }

  /** The payment record a refund goes against: a card payment is shown by its intent, refunded through the cloud's payment. */
  #refundTarget(paymentId: string): PaymentDoc {
    const intent = this.store.cashier.getPaymentIntent(paymentId);
    let targetId = paymentId;
    if (intent) {
      const record = this.store.cashier.cardPaymentForIntent(intent.id);
      if (!record) {
        throw new CoreError('conflict', 'This card payment is still being confirmed by the cloud. Refund it once the sync indicator shows nothing waiting.');
      }
      targetId = record.id;
    }
    const payment = this.store.cashier.getPayment(targetId);
    if (!payment) throw new CoreError('not_found', 'That payment is not on this terminal. Refresh the order and try again.');
    return payment;
  }

  #refundable(payment: PaymentDoc): number {
    return payment.amount - this.store.cashier.refundsOf(payment.id).reduce((sum, r) => sum + r.amount, 0);
  }

  refund({ paymentId, amount, reason, note }: CommandPayload<'payments.refund'>, act: Act): CommandResult<'payments.refund'> {
    const approvedBy = this.staff.require(act, 'refund');
    const payment = this.#refundTarget(paymentId);
    // Cash handed back leaves the drawer of whoever gives it.
    const shift = payment.method === 'cash' ? this.shifts.requireOpenShift(act.by) : this.shifts.openShiftOf(act.by);
    const left = this.#refundable(payment);
    if (amount > left) {
      throw new CoreError('conflict', left <= 0 ? 'This payment has been refunded in full already.' : `Only ${formatMoney(left, payment.currency)} of this payment can still be refunded.`);
    }
    const refund = this.store.transaction(() => {
      const created = this.store.cashier.createRefund(payment.id, amount, reason, { actor: act.by.id }, [], note ?? null);
      this.#attribute('refund', created.id, act, shift?.id ?? null);
      if (approvedBy) this.store.cashier.recordAudit(act.by.id, 'refund.approved', StaffDesk.approval(approvedBy), { kind: 'refund', id: created.id });
      const after = this.#view(this.#requireOrder(payment.order_id));
      this.#print(this.printing.forRefund(after, this.locationDetails(), this.#tillLetter(), { id: created.id, amount, reason, note: created.note, cash: payment.method === 'cash' }));
      return created;
    });
    this.#ordersChanged([payment.order_id]);
    this.printing.notify();
    const order = this.#view(this.#requireOrder(payment.order_id));
    const view = order.payments.flatMap((p) => p.refunds).find((r) => r.id === refund.id);
    if (!view) throw new CoreError('internal', 'The refund was recorded but could not be shown. Refresh the order.');
    return { refund: view, order };
  }

  /**
   * Gives back whole units of lines: what they cost (their discounts and tax in, refundForUnits)
   * goes back to the payments that paid for them: the payment of the line's check when the bill
   * was split by items, then the newest payments first. Tips stay with the staff. All refunds
   * commit together, or none.
   */
  refundItems({ orderId, items, reason, note }: CommandPayload<'payments.refundItems'>, act: Act): CommandResult<'payments.refundItems'> {
    const approvedBy = this.staff.require(act, 'refund');
    const doc = this.#requireOrder(orderId);
    const order = this.#view(doc);
    const { breakdown } = priceOrder(doc);
    let amount = 0;
    const given = new Map<number, number>();
    for (const [index, item] of items.entries()) {
      const line = order.lines[item.lineIndex];
      const path = `items.${index}.quantity`;
      if (!line) throw new CoreError('invalid_command', 'That item is not on this order. Refresh the order.', [{ path: `items.${index}.lineIndex`, message: 'not on this order' }]);
      const already = line.refundedQuantity + (given.get(item.lineIndex) ?? 0);
      if (already + item.quantity > line.quantity) {
        const message = `Only ${line.quantity - already} of ${line.name} can still be refunded.`;
        throw new CoreError('conflict', message, [{ path, message }]);
      }
      amount += refundForUnits(breakdown, item.lineIndex, line.quantity, already, item.quantity);
      given.set(item.lineIndex, (given.get(item.lineIndex) ?? 0) + item.quantity);
    }
    if (amount <= 0) throw new CoreError('conflict', 'These items cost nothing (comped): there is no money to give back.');
    const { shares, unplaced } = planItemRefund(order, [...given.keys()], amount);
    if (unplaced > 0) {
      throw new CoreError('conflict', `These items come to ${formatMoney(amount, order.currency)}, but only ${formatMoney(amount - unplaced, order.currency)} of what was paid can still be refunded.`);
    }
    const plan = shares.map((share) => {
      const payment = this.#refundTarget(share.paymentId);
      if (this.#refundable(payment) < share.amount) throw new CoreError('conflict', 'A payment of this order changed meanwhile. Refresh the order and try again.');
      return { payment, amount: share.amount };
    });
    const refundItems = [...given].map(([lineIndex, quantity]) => ({ line_index: lineIndex, quantity }));
    const cashShift = plan.some((step) => step.payment.method === 'cash') ? this.shifts.requireOpenShift(act.by) : this.shifts.openShiftOf(act.by);
    const refunds = this.store.transaction(() => {
      const created = plan.map((step, i) => this.store.cashier.createRefund(step.payment.id, step.amount, reason, { actor: act.by.id }, i === 0 ? refundItems : [], note ?? null));
      for (const refund of created) {
        this.#attribute('refund', refund.id, act, cashShift?.id ?? null);
        if (approvedBy) this.store.cashier.recordAudit(act.by.id, 'refund.approved', StaffDesk.approval(approvedBy), { kind: 'refund', id: refund.id });
      }
      const after = this.#view(this.#requireOrder(orderId));
      created.forEach((refund, i) => {
        const cash = plan[i]!.payment.method === 'cash';
        this.#print(this.printing.forRefund(after, this.locationDetails(), this.#tillLetter(), { id: refund.id, amount: refund.amount, reason, note: refund.note, cash }));
      });
      return created;
    });
    this.#ordersChanged([orderId]);
    this.printing.notify();
    const after = this.#view(this.#requireOrder(orderId));
    const ids = new Set(refunds.map((r) => r.id));
    return { refunds: after.payments.flatMap((p) => p.refunds).filter((r) => ids.has(r.id)), amount, order: after };
  }

  // ---- printing ----

  receiptPreview(orderId: string): { svg: string; widthChars: number } {
    return this.printing.preview(this.#view(this.#requireOrder(orderId)), this.locationDetails(), this.#tillLetter());
  }

  reprintReceipt(orderId: string): void {
    this.printing.reprint(this.#view(this.#requireOrder(orderId)), this.locationDetails(), this.#tillLetter());
  }

  /** Whether the check's latest bill shows it as it is now (PrintLink.lastBillShows); null: none printed. */
  lastBillShows(order: Order): boolean | null {
    return this.printing.lastBillShows(order, this.locationDetails(), this.#tillLetter());
  }

  // ---- location and shift ----

  locations(): Location[] {
    const locale = this.settings.effective().locale;
    return this.store.cashier.listLocations().map((doc) => withConfiguredLocale(locationView(doc), locale));
  }

  locationDetails(): Location {
    const s = this.settings.effective();
    return this.location() ?? withConfiguredLocale({ id: s.locationId, name: 'Location not synced yet', address: '', phone: '', timezone: '', locale: locationLocale(null), currency: FALLBACK_CURRENCY }, s.locale);
  }

  /** What this terminal took since `since` (default: the start of the business day where the location is). */
  /** Every order created since `start`, read a page at a time: a busy day has more than one page. */
  #ordersSince(start: number): OrderDoc[] {
    const page = 500;
    const all = new Map<string, OrderDoc>();
    let before: number | undefined;
    for (;;) {
      const docs = this.store.cashier.listOrders({ createdFrom: start, createdTo: before, limit: page });
      for (const doc of docs) all.set(doc.id, doc);
      if (docs.length < page) break;
      // Newest first: the next page ends with the oldest millisecond of this one (ids dedupe).
      const next = docs[docs.length - 1]!.created_at + 1;
      if (before !== undefined && next >= before) break; // a whole page within one millisecond
      before = next;
    }
    return [...all.values()];
  }

  shiftSummary({ since }: CommandPayload<'shift.summary'>, act: Act): ShiftSummary {
    const start = since ? Date.parse(since) : businessDayAt(this.clock.now(), this.location()?.timezone ?? '').startedAt;
    const orders = this.#readableViews(this.#ordersSince(start)).map((read) => read.view);
    const summary = {
      since: new Date(start).toISOString(),
      currency: this.currency(),
      orders: orders.filter((o) => o.status !== 'cancelled').length,
      cancelled: orders.filter((o) => o.status === 'cancelled').length,
      byMethod: { card: 0, cash: 0 },
      tips: { card: 0, cash: 0 },
      tax: 0,
      discounts: 0,
      queuedOffline: 0,
      refunded: 0,
      net: 0,
    };
    for (const order of orders.filter((o) => o.status !== 'cancelled')) {
      summary.tax += order.check.taxTotal;
      summary.discounts += order.check.discountTotal;
    }
    for (const payment of orders.flatMap((o) => o.payments)) {
      if (payment.status === 'failed') continue;
      summary.byMethod[payment.method] += payment.amount;
      summary.tips[payment.method] += payment.tip;
      if (payment.status === 'queued_offline') summary.queuedOffline += payment.amount + payment.tip;
      summary.refunded += payment.refundedAmount;
    }
    summary.net = summary.byMethod.card + summary.byMethod.cash - summary.refunded;
    // A blind count: the cash of an open shift is not told to who may not read the report.
    if (!can(act.by.role, 'reports.view') && this.shifts.openShiftOf(act.by)) {
      return { ...summary, byMethod: { ...summary.byMethod, cash: null }, tips: { ...summary.tips, cash: null }, refunded: null, net: null };
    }
    return summary;
  }
}

/** The units of each item (with its modifiers) on an order's lines. */
function unitsByItem(lines: readonly OrderLineDoc[]): Map<string, number> {
  const units = new Map<string, number>();
  for (const line of lines) {
    const key = `${line.menu_item_id}|${line.modifiers.map((m) => m.modifier_id).sort().join(',')}`;
    units.set(key, (units.get(key) ?? 0) + line.quantity);
  }
  return units;
}

/** New lines take units off what the kitchen already has: a void of items. */
export function takesUnitsOff(before: readonly OrderLineDoc[], after: readonly OrderLineDoc[]): boolean {
  const now = unitsByItem(after);
  return [...unitsByItem(before)].some(([key, units]) => (now.get(key) ?? 0) < units);
}
