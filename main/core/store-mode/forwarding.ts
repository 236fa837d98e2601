// Changing another till's order from this one (docs/store-mode.md, "Built (layer 3)"): the change is
// checked here against the order as replicated and against this till's staff permissions and PIN
// approvals, exactly as the same change of an own order is, then kept with one entry in this
// till's log in one transaction. The owner applies it when it pulls this till, and answers in its log.
import { givesMoreAway } from '../../../bridge/checkout/index';
import type { ForwardChange, ForwardLine, StoreModeForward } from '../../../bridge/store-mode/contract';
import type { Permission } from '../../../bridge/staff/roles';
import type { Clock } from '../../../common/clock';
import { newId } from '../../../common/ids';
import { DiscountDoc, OrderLineDoc, type Store } from '../../../store/index';
import { lineRefs } from '../../../store/order-lines';
import type { ForwardBody, ForwardPerson, SentForward } from '../../../store/store-forwards';
import { takesUnitsOff, type Cashier } from '../cashier';
import { priceLines, reviewDraft } from '../checkout';
import { CoreError } from '../errors';
import type { TerminalSettings } from '../settings';
import type { Act, StaffDesk } from '../staff/desk';
import type { StoreLink } from '../store-link';

export interface ForwardingDeps {
  store: Store;
  staff: StaffDesk;
  cashier: Cashier;
  settings: TerminalSettings;
  clock: Clock;
  /** Orders were taken over from a quiet till: the sync engine has their operations to send, the screens new orders. */
  onAdopted?: () => void;
}

/** How long a refused forward stays in sight of the till that sent it. */
export const REFUSED_SHOWN_MS = 60 * 60_000;

const person = (doc: { id: string; name: string; role: ForwardPerson['role'] }): ForwardPerson => ({ id: doc.id, name: doc.name, role: doc.role });

/** "Sent to Bar, waiting for it.", "Bar refused: …", "Bar applied it." */
export function forwardSentence(forward: Pick<SentForward, 'state' | 'reason'>, ownerName: string | null): string {
  const owner = ownerName ?? 'The till that owns the order';
  if (forward.state === 'pending') return `Sent to ${ownerName ?? 'the till that owns the order'}, waiting for it.`;
  if (forward.state === 'refused') return `${owner} refused: ${forward.reason ?? 'it gave no reason'}`;
  return `${owner} applied it.`;
}

export class ForwardDesk {
  constructor(
    private readonly deps: ForwardingDeps,
    private readonly link: () => StoreLink | null,
  ) {}

  /** Checks a change to another till's order and keeps it, durable, in this till's log: answered once it is. */
  change(payload: { orderId: string; change: ForwardChange }, act: Act): StoreModeForward {
    const running = this.link();
    if (!running) throw new CoreError('unavailable', 'Store mode is off on this till: change this order on the till that owns it.');
    const { store, clock } = this.deps;
    const replica = store.replicas.order(payload.orderId);
    if (!replica) {
      if (store.cashier.getOrder(payload.orderId)) {
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

    const approvedBy = this.#requirePermissions(payload.change, lines.data, replica, act);
    const now = clock.now();
    const body: ForwardBody = {
      op: 'forward',
      owner: replica.origin,
      order: payload.orderId,
      change: payload.change,
      basedOn: { seq: replica.seq, lines: lineRefs(lines.data) },
      by: person(act.by),
      approvedBy: approvedBy === null ? null : person(approvedBy),
      from: { till: running.status().tillId, name: running.status().tillName },
      at: now,
    };
    const sent = store.transaction(() => store.log.forwards.send(newId('fwd_', now), body));
    return forwardView(sent, replica.ownerName);
  }

  /** This till's forwards waiting for their owner, and those refused in the last hour. */
  forwards(): StoreModeForward[] {
    const names = new Map(this.deps.store.replicas.tills().map((till) => [till.origin, till.name]));
    return this.deps.store.log.forwards.sent(this.deps.clock.now() - REFUSED_SHOWN_MS).map((forward) => forwardView(forward, names.get(forward.owner) ?? null));
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
    if (change.kind === 'discount') {
      if (othersOrder) needs.push('order.adopt');
      if (this.#givesMoreAway({ lines: current, discount: orderDiscount }, { lines: current, discount: change.discount }, replica.doc)) needs.push('discount.above_limit');
    }
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
    change: forward.change as ForwardChange,
    byName: forward.byName,
    state: forward.state,
    reason: forward.reason,
    sentence: forwardSentence(forward, ownerName),
    createdAt: new Date(forward.createdAt).toISOString(),
  };
}
