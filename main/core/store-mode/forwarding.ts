// Changing another till's order from this one (docs/store-mode.md, "Built (layer 3)"): the change is
// checked here against the order as replicated and against this till's staff permissions and PIN
// approvals, exactly as the same change of an own order is, then kept with one entry in this
// till's log in one transaction. The owner applies it when it pulls this till, and answers in its log.
import { givesMoreAway } from '../../../bridge/checkout/index';
import { formatMoney, MAX_TILL_CASH } from '../../../bridge/money';
import type { ForwardChange, ForwardedChange, ForwardLine, PaymentChange, StoreModeForward, StoreModeOrder } from '../../../bridge/store-mode/contract';
import type { Permission } from '../../../bridge/staff/roles';
import type { Clock } from '../../../common/clock';
import { newId } from '../../../common/ids';
import { DiscountDoc, OrderDoc, OrderLineDoc, type ReplicaOrder, type StaffDoc, type Store } from '../../../store/index';
import { lineRefs } from '../../../store/order-lines';
import type { ForwardBody, ForwardPerson, SentForward } from '../../../store/store-forwards';
import { takesUnitsOff, type Cashier } from '../cashier';
import { priceLines, priceOrder, reviewDraft, splitView } from '../checkout';
import { CoreError } from '../errors';
import type { TerminalSettings } from '../settings';
import type { Act, StaffDesk } from '../staff/desk';
import type { PrintLink } from '../print-link';
import type { ShiftDesk } from '../staff/shifts';
import type { StoreLink } from '../store-link';
import { orderWithPaymentTaken } from './other-till-receipt';

export interface ForwardingDeps {
  store: Store;
  staff: StaffDesk;
  cashier: Cashier;
  settings: TerminalSettings;
  clock: Clock;
  /** The drawers: cash taken toward another till's order goes into this till's. */
  shifts: ShiftDesk;
  /** The printers: this till's cash drawer opens for cash taken here. */
  printing: PrintLink;
  /** Whether the cloud answers: offline, a card taken here is stored offline, under the limits. */
  online: () => boolean;
  /** Orders were taken over from a quiet till: the sync engine has their operations to send, the screens new orders. */
  onAdopted?: () => void;
}

/** How long a refused forward stays in sight of the till that sent it. */
export const REFUSED_SHOWN_MS = 60 * 60_000;

const person = (doc: { id: string; name: string; role: ForwardPerson['role'] }): ForwardPerson => ({ id: doc.id, name: doc.name, role: doc.role });

/** "Sent to Bar, waiting for it.", "Bar refused: … Hand back $12.50 in cash.", "Bar applied it." */
export function forwardSentence(forward: Pick<SentForward, 'state' | 'reason' | 'payment'>, ownerName: string | null): string {
  const owner = ownerName ?? 'The till that owns the order';
  if (forward.state === 'pending') return `Sent to ${ownerName ?? 'the till that owns the order'}, waiting for it.`;
  if (forward.state === 'applied') return `${owner} applied it.`;
  const refused = `${owner} refused: ${forward.reason ?? 'it gave no reason'}`;
  const { payment } = forward;
  if (payment === null) return refused;
  if (payment.method === 'card') return `${refused} The card was not charged.`;
  const cash = formatMoney(payment.amount + payment.tip, payment.currency);
  return payment.givenBackMovement === null ? `${refused} Hand back ${cash} in cash.` : `${refused} The ${cash} in cash was handed back.`;
}

/**
 * How the order's bill is split, priced as its owner prices it (its tax rules travel with the order),
 * with what the owner has paid of each part; null when it is not split or this till cannot read it.
 */
export function splitOf(order: ReplicaOrder, store: Store): StoreModeOrder['split'] {
  if (order.split === null) return null;
  const replica = store.replicas.order(order.id);
  const doc = OrderDoc.safeParse({ ...replica?.doc, cloud_check: null });
  if (!replica || !doc.success) return null;
  const paid = store.replicas.paidByPart(replica.origin, order.id);
  const byPart = new Map([...paid].flatMap(([part, amount]) => (part === null ? [] : [[part, amount] as const])));
  return splitView(doc.data, priceOrder(doc.data), byPart, paid.get(null) ?? 0);
}

/** Ids of payments taken here for another till's order, as that till records them: a card's like its own intents'. */
const PAYMENT_ID_PREFIX = { cash: 'pay_', card: 'pi_' } as const;

export class ForwardDesk {
  constructor(
    private readonly deps: ForwardingDeps,
    private readonly link: () => StoreLink | null,
  ) {}

  /** Checks a change to another till's order and keeps it, durable, in this till's log: answered once it is. */
  change(payload: { orderId: string; change: ForwardChange }, act: Act): StoreModeForward {
    const { running, replica, lines } = this.#openReplica(payload.orderId);
    const { change } = payload;
    if (change.kind === 'split' && change.split?.kind === 'items' && change.split.assignment.length !== lines.length) {
      const message = `Put each of the ${lines.length} items on a check (${change.split.assignment.length} have one).`;
      throw new CoreError('invalid_command', message, [{ path: 'change.split.assignment', message }]);
    }
    const approvedBy = this.#requirePermissions(payload.change, lines, replica, act);
    const body = this.#body(running, payload.orderId, replica, lines, payload.change, act, approvedBy);
    const sent = this.deps.store.transaction(() => this.deps.store.log.forwards.send(newId('fwd_', body.at), body));
    return forwardView(sent, replica.ownerName);
  }

  /**
   * A payment taken here toward another till's order (storeMode.takePayment), with payments.take's
   * checks that are this till's: its open drawer for cash, cash tips, what a till holds, the offline
   * card limits, another server's order. What is due is the replica's, less what this till sent and
   * the owner has not applied: the forward, the drawer's record and the audit commit together.
   */
  takePayment(payload: { orderId: string; method: 'cash' | 'card'; amount: number; tip: number; tendered: number | null; splitPart: string | null }, act: Act): { forward: StoreModeForward; change: number } {
    const { store, settings, shifts, clock } = this.deps;
    const { running, replica, lines } = this.#openReplica(payload.orderId);
    const listed = store.replicas.openOrders().find((order) => order.id === payload.orderId);
    if (!listed) throw new CoreError('conflict', `This till cannot read what ${replica.ownerName ?? 'its till'} says is due on that order: take the payment there.`);
    const { method, amount, tip, tendered, splitPart } = payload;
    const money = (value: number) => formatMoney(value, listed.currency);
    if (method === 'cash' && tip > 0 && !settings.effective().checkout.cashTips) {
      const message = 'Tips on cash are not taken on this terminal: put the tip in the tip jar, or turn cash tips on in Settings.';
      throw new CoreError('invalid_command', message, [{ path: 'tip', message }]);
    }
    const charged = amount + tip;
    if (method === 'cash' && charged > MAX_TILL_CASH) {
      const message = `${money(charged)} in cash is more than any till holds (at most ${money(MAX_TILL_CASH)}). Take part of it by card. Nothing was recorded.`;
      throw new CoreError('invalid_command', message, [{ path: 'amount', message }]);
    }
    const handed = method === 'cash' ? (tendered ?? charged) : charged;
    if (handed < charged) {
      const message = `The cash handed over is less than ${money(charged)}. Nothing was recorded.`;
      throw new CoreError('invalid_command', message, [{ path: 'tendered', message }]);
    }
    const shift = method === 'cash' ? shifts.requireOpenShift(act.by) : (shifts.openShiftOf(act.by) ?? null);
    if (splitPart !== null && !splitOf(listed, store)?.parts.some((part) => part.label === splitPart && !part.paid)) {
      const message = `This bill has no unpaid part "${splitPart}": its split changed, or the part was paid. Open the payment again.`;
      throw new CoreError('conflict', message, [{ path: 'splitPart', message }]);
    }
    const needs: Permission[] = [];
    if (replica.staff !== null && replica.staff !== act.by.id) needs.push('order.adopt');
    const limits = settings.effective().offlineLimits;
    // The owner stores the card offline if it must: the limit of one payment is checked where the card is.
    if (method === 'card' && !this.deps.online() && charged > limits.perTransaction) needs.push('payment.offline_above_limit');
    const approvedBy = this.#approve(needs, act);
    const sent = store.transaction(() => {
      const due = listed.total - listed.paid - store.log.forwards.pendingPayments(listed.id);
      if (amount > due) {
        const message = due <= 0 ? 'This order is paid already, or this till has sent its payments: wait for them.' : `Only ${money(due)} is due on this order.`;
        throw new CoreError('conflict', message, [{ path: 'amount', message }]);
      }
      const now = clock.now();
      const change: PaymentChange = { kind: 'payment', paymentId: newId(PAYMENT_ID_PREFIX[method], now), method, amount, tip, splitPart };
      const body = this.#body(running, payload.orderId, replica, lines, change, act, approvedBy);
      const forward = store.log.forwards.sendPayment(newId('fwd_', now), body, {
        id: change.paymentId, method, amount, tip, currency: listed.currency, shiftId: shift?.id ?? null, staffId: act.by.id,
      });
      store.cashier.recordAudit(act.by.id, 'store.payment.taken', { forward: forward.opId, owner: replica.origin, method, amount, tip, ...(approvedBy ? { approvedBy: approvedBy.id } : {}) }, { kind: 'order', id: listed.id });
      // The receipt (and the drawer, for cash) here, where the guest is, in the payment's transaction.
      const receipt = orderWithPaymentTaken(store, replica, listed.id, change, now);
      const { checkout } = settings.effective();
      if (receipt) this.#print(this.deps.printing.forPayment(receipt, this.deps.cashier.locationDetails(), checkout.tillLetter, { id: change.paymentId, method }, handed - charged));
      else if (method === 'cash') this.#print(this.deps.printing.drawerForOtherTill(change.paymentId, listed.id));
      return forward;
    });
    this.deps.printing.notify();
    return { forward: forwardView(sent, replica.ownerName), change: handed - charged };
  }

  /**
   * The cash of a payment the owner refused, handed back to the guest: a paid-out of this till's open
   * drawer naming the order, once (the payment's row takes it in the paid-out's transaction).
   */
  giveBack(forwardId: string, act: Act): StoreModeForward {
    const { store, shifts } = this.deps;
    const sent = store.log.forwards.sentForward(forwardId);
    if (!sent?.payment) throw new CoreError('not_found', 'No payment taken on this till has that id. Refresh the list.');
    const ownerName = this.#tillName(sent.owner);
    const { payment } = sent;
    if (payment.method === 'card') throw new CoreError('conflict', 'A card payment is not handed back: a refused one was never charged.');
    if (payment.givenBackMovement !== null) throw new CoreError('conflict', 'This cash was handed back already.');
    if (sent.state !== 'refused') throw new CoreError('conflict', `${ownerName ?? 'The till that owns the order'} has not refused this payment: the cash stays in the drawer.`);
    const reason = `Handed back: ${ownerName ?? 'the till that owns it'} refused a payment toward order ${store.replicas.order(sent.orderId)?.doc.number ?? sent.orderId.slice(-4).toUpperCase()}`;
    shifts.handBack(act, payment.shiftId, payment.amount + payment.tip, reason.slice(0, 120), (movementId) => {
      if (!store.log.forwards.givenBack(forwardId, movementId)) throw new CoreError('conflict', 'This cash was handed back already.');
      this.#print(this.deps.printing.drawerForOtherTill(`${payment.id}:back`, sent.orderId));
    });
    this.deps.printing.notify();
    return forwardView(store.log.forwards.sentForward(forwardId)!, ownerName);
  }

  /** This till's forwards waiting for their owner, those refused in the last hour, and refused cash still to hand back. */
  forwards(): StoreModeForward[] {
    return this.deps.store.log.forwards.sent(this.deps.clock.now() - REFUSED_SHOWN_MS).map((forward) => forwardView(forward, this.#tillName(forward.owner)));
  }

  /** Queued in the transaction that moves the money: a crash after it still prints, once (per job's key). */
  #print(jobs: ReturnType<PrintLink['drawerForOtherTill']>): void {
    if (jobs.length > 0) this.deps.store.printQueue.enqueue(jobs);
  }

  #tillName(origin: string): string | null {
    return this.deps.store.replicas.tills().find((till) => till.origin === origin)?.name ?? null;
  }

  /** The order as replicated here, open and owned by another till, with its lines; refused in words otherwise. */
  #openReplica(orderId: string) {
    const running = this.link();
    if (!running) throw new CoreError('unavailable', 'Store mode is off on this till: change this order on the till that owns it.');
    const { store } = this.deps;
    const replica = store.replicas.order(orderId);
    if (!replica) {
      if (store.cashier.getOrder(orderId)) {
        const message = 'This order is this till’s own: change it from Orders as usual.';
        throw new CoreError('invalid_command', message, [{ path: 'orderId', message }]);
      }
      throw new CoreError('not_found', 'No till of this store has that order. Refresh the list.');
    }
    const owner = replica.ownerName ?? 'its till';
    const status = typeof replica.doc.status === 'string' ? replica.doc.status : 'unknown';
    if (status !== 'open') throw new CoreError('conflict', `This order is already ${status} at ${owner}, so it cannot be changed.`);
    const lines = OrderLineDoc.array().safeParse(replica.doc.lines);
    if (!lines.success) throw new CoreError('conflict', `This till cannot read that order’s lines (${owner} may run a newer version): change it on ${owner}.`);
    return { running, replica, lines: lines.data };
  }

  #body(running: StoreLink, orderId: string, replica: { origin: string; seq: number }, lines: OrderLineDoc[], change: ForwardedChange, act: Act, approvedBy: StaffDoc | null): ForwardBody {
    const status = running.status();
    return {
      op: 'forward',
      owner: replica.origin,
      order: orderId,
      change,
      basedOn: { seq: replica.seq, lines: lineRefs(lines) },
      by: person(act.by),
      approvedBy: approvedBy === null ? null : person(approvedBy),
      from: { till: status.tillId, name: status.tillName },
      at: this.deps.clock.now(),
    };
  }


  /**
   * The permissions the same change of an own order needs (Cashier.updateOrder / cancelOrder /
   * fulfilOrder), each through the staff desk's one check; answers who approved, if anyone did.
   */
  #requirePermissions(change: ForwardChange, current: OrderLineDoc[], replica: { staff: string | null; doc: Record<string, unknown> }, act: Act) {
    const needs: Permission[] = [];
    if (change.kind === 'cancel') needs.push('order.void');
    // Someone else's order here is someone else's there: the server travels with the order's entries.
    const othersOrder = replica.staff !== null && replica.staff !== act.by.id;
    const orderDiscount = DiscountDoc.nullable().catch(null).parse(replica.doc.discount ?? null);
    if (change.kind === 'lines') {
      const drafted = this.#draftLines(change.lines);
      if (takesUnitsOff(current, drafted)) needs.push('order.void');
      if (othersOrder) needs.push('order.adopt');
      if (this.#givesMoreAway({ lines: current, discount: orderDiscount }, { lines: drafted, discount: orderDiscount }, replica.doc)) needs.push('discount.above_limit');
    }
    if (change.kind === 'split' && othersOrder) needs.push('order.adopt');
    if (change.kind === 'discount') {
      if (othersOrder) needs.push('order.adopt');
      if (this.#givesMoreAway({ lines: current, discount: orderDiscount }, { lines: current, discount: change.discount }, replica.doc)) needs.push('discount.above_limit');
    }
    return this.#approve(needs, act);
  }

  /** Each permission through the staff desk's one check; answers who approved, if anyone did. */
  #approve(needs: readonly Permission[], act: Act): StaffDoc | null {
    let approvedBy: string | null = null;
    for (const permission of needs) approvedBy = this.deps.staff.require(act, permission) ?? approvedBy;
    if (approvedBy === null) return null;
    return act.approver.kind === 'staff' && act.approver.staff.id === approvedBy ? act.approver.staff : null;
  }

  /** The change's lines priced from this till's menu, as the owner's cashier will price them from its own. */
  #draftLines(lines: readonly ForwardLine[]): OrderLineDoc[] {
    const modifiers = new Map(this.deps.store.cashier.listMenu().modifiers.map((m) => [m.id, m]));
    return lines.map((line, index) => {
      const item = this.deps.store.cashier.getMenuItem(line.menuItemId);
      if (!item) {
        const message = 'That item is not on this till’s menu. Refresh the register and add it again.';
        throw new CoreError('not_found', message, [{ path: `change.lines.${index}.menuItemId`, message }]);
      }
      return {
        menu_item_id: item.id,
        name: item.name,
        quantity: line.quantity,
        unit_price: item.price,
        modifiers: line.modifierIds.map((id) => ({ modifier_id: id, name: modifiers.get(id)?.name ?? '', price: modifiers.get(id)?.price ?? 0 })),
        note: line.note,
        discount: line.discount,
        tax_class: item.tax_class ?? 'standard',
        seat: null,
        course: null,
      };
    });
  }

  /** Whether the change gives away more than the approval limits allow (and more than the order already did): its lines or its order discount. */
  #givesMoreAway(before: { lines: OrderLineDoc[]; discount: DiscountDoc | null }, after: { lines: OrderLineDoc[]; discount: DiscountDoc | null }, doc: Record<string, unknown>): boolean {
    const { cashier, settings } = this.deps;
    const { source: _source, ...rules } = cashier.pricing();
    const currency = typeof doc.currency === 'string' ? doc.currency : cashier.currency();
    const limits = settings.effective().checkout.discountApproval;
    const review = ({ lines, discount }: typeof before) => reviewDraft(lines, priceLines(lines, discount, rules, currency), limits, currency);
    return givesMoreAway(review(before), review(after));
  }
}

function forwardView(forward: SentForward, ownerName: string | null): StoreModeForward {
  return {
    id: forward.opId,
    orderId: forward.orderId,
    ownerTillId: forward.owner,
    ownerTillName: ownerName,
    change: forward.change as ForwardedChange,
    byName: forward.byName,
    state: forward.state,
    reason: forward.reason,
    sentence: forwardSentence(forward, ownerName),
    giveBack: handBack(forward),
    createdAt: new Date(forward.createdAt).toISOString(),
  };
}

/** The cash of a refused payment still in this drawer; null for anything else. */
function handBack({ state, payment }: SentForward): StoreModeForward['giveBack'] {
  if (state !== 'refused' || payment?.method !== 'cash' || payment.givenBackMovement !== null) return null;
  return { amount: payment.amount + payment.tip, currency: payment.currency };
}
